"""The classic health track: boxes by kind of damage, the condition beyond them, and torpor."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pandas as pd


from analysis.model.validate import check_choice, check_int

from analysis.systems.classic.damage import BOXES, CREATURES, HEALTH_LEVELS, KINDS, OFFICIAL, DamageRules

#: Conditions beyond the boxes.
CONDITIONS = ("alive", "torpor", "final_death", "dead")
#: Torpor from wounds, by Humanity 10..0 (the classic health rules).
TORPOR_LENGTH = {
    10: "one day",
    9: "three days",
    8: "one week",
    7: "two weeks",
    6: "one month",
    5: "one year",
    4: "one decade",
    3: "five decades",
    2: "one century",
    1: "five centuries",
    0: "a millennium or more",
}


# -------------------------------------------------------- the health track


@dataclass(frozen=True)
class Health:
    """A health track: marked boxes by kind, and the condition beyond them.

    Boxes fill from the top, aggravated first, then lethal, then bashing
    (heavier damage pushes lighter damage down the track).  Seven marked
    boxes is Incapacitated.

    Attributes
    ----------
    aggravated, lethal, bashing : int
        Marked boxes of each kind (together at most 7).
    condition : str
        ``"alive"``, ``"torpor"``, ``"final_death"`` (vampires) or ``"dead"`` (mortals).
    """

    aggravated: int = 0
    lethal: int = 0
    bashing: int = 0
    condition: str = "alive"

    def __post_init__(self):
        for name in ("aggravated", "lethal", "bashing"):
            check_int(name, getattr(self, name), 0, BOXES)
        if self.marked > BOXES:
            raise ValueError(f"a health track has {BOXES} boxes, got {self.marked} marked")
        check_choice("condition", self.condition, CONDITIONS)

    @property
    def marked(self) -> int:
        """Marked boxes."""
        return self.aggravated + self.lethal + self.bashing

    @property
    def level(self) -> str:
        """The health level in the game's words."""
        if self.condition != "alive":
            return {"torpor": "Torpor", "final_death": "Final Death", "dead": "Dead"}[self.condition]
        return "Healthy" if self.marked == 0 else HEALTH_LEVELS[self.marked - 1]

    @property
    def severity(self) -> int:
        """0 up, 1 Incapacitated, 2 torpor, 3 Final Death (or a mortal's death)."""
        if self.condition == "alive":
            return 1 if self.marked >= BOXES else 0
        return 2 if self.condition == "torpor" else 3

    def penalty(self, rules: DamageRules = OFFICIAL):
        """Dice lost to wounds, or None if the character cannot act."""
        if self.severity:
            return None
        return 0 if self.marked == 0 else rules.penalties[self.marked - 1]

    @property
    def boxes(self) -> str:
        """The track as on the sheet: ``*`` aggravated, ``X`` lethal, ``/`` bashing."""
        return "*" * self.aggravated + "X" * self.lethal + "/" * self.bashing + "." * (BOXES - self.marked)

    def __str__(self) -> str:
        return f"[{self.boxes}] {self.level}"


def take_damage(health: Health, levels: int, kind: str, target: str) -> Health:
    """The track after losing ``levels`` health levels of ``kind`` (already
    resolved, soaked and halved).

    Past Incapacitated, bashing or lethal sends a vampire to torpor and
    aggravated to Final Death; a mortal dies.  A vampire in torpor taking
    aggravated damage meets Final Death.
    """
    if not isinstance(health, Health):
        raise ValueError(f"health must be a Health, got {type(health).__name__}")
    levels = check_int("levels", levels, 0)
    kind = check_choice("kind", kind, KINDS)
    target = check_choice("target", target, CREATURES)
    if target == "mortal":
        if health.condition in ("torpor", "final_death"):
            raise ValueError(f"a mortal cannot be in {health.condition.replace('_', ' ')}")
        if kind == "aggravated":
            kind = "lethal"
    elif health.condition == "dead":
        raise ValueError("a vampire is never 'dead': use final_death")
    if levels == 0 or health.condition in ("final_death", "dead"):
        return health
    if health.condition == "torpor":
        return dataclasses.replace(health, condition="final_death") if kind == "aggravated" else health
    room = BOXES - health.marked
    take = min(levels, room)
    counts = {"aggravated": health.aggravated, "lethal": health.lethal, "bashing": health.bashing}
    counts[kind] += take
    # heavier damage pushes lighter damage down; what falls off the track is lost
    # only if the track overflows, and then the condition below decides.
    condition = "alive"
    if levels > room:
        if target == "mortal":
            condition = "dead"
        else:
            condition = "final_death" if kind == "aggravated" else "torpor"
    return Health(counts["aggravated"], counts["lethal"], counts["bashing"], condition)


# ------------------------------------------------------------------- torpor


def torpor_length(humanity: int) -> str:
    """How long a vampire sent into torpor by wounds must rest, by Humanity 0..10."""
    return TORPOR_LENGTH[check_int("humanity", humanity, 0, 10)]


def torpor_table() -> pd.DataFrame:
    """Columns ``humanity, torpor``: the health chapter's lookup, Humanity 10 down to 0."""
    return pd.DataFrame({"humanity": list(TORPOR_LENGTH), "torpor": list(TORPOR_LENGTH.values())})
