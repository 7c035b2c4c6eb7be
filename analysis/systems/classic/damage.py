"""Classic (V20-style) damage and soak: the rules, and one attack counted exactly.

The health track is :mod:`analysis.systems.classic.track`; blows and fights,
:mod:`analysis.systems.classic.fights`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import cast

import numpy as np
import pandas as pd


from analysis.engine import seam
from analysis.systems.classic import pools as _classic
from analysis.model.rules import Rules, rule
from analysis.engine import exact as _exact
from analysis.model.validate import check_bool, check_choice, check_int
from analysis.engine import display as _display

KINDS = ("bashing", "lethal", "aggravated")
CREATURES = ("vampire", "mortal")
AIMS = ("body", "head", "vital")
#: The seven health levels, top to bottom; the seventh box is Incapacitated.
HEALTH_LEVELS = ("Bruised", "Hurt", "Injured", "Wounded", "Mauled", "Crippled", "Incapacitated")
BOXES = len(HEALTH_LEVELS)
#: Dice lost at Bruised, Hurt, Injured, Wounded, Mauled, Crippled (docs/rules.md).
PENALTIES = (0, 1, 1, 2, 2, 5)
VAMPIRE_BASHING = ("halve_down", "halve_up", "full")
VITAL_SPOT_LETHAL = ("off", "mortals", "everyone")
#: Attribute-like inputs (Stamina, Fortitude, automatic successes) above this
#: are refused as typos; dice pools follow ``analysis.systems.classic.pools.MAX_POOL``.
MAX_TRAIT = 50


# --------------------------------------------------------------------- rules


@dataclass(frozen=True)
class DamageRules(Rules):
    """House-rule knobs of damage, soak and the health track (docs/rules.md defaults).

    Attributes
    ----------
    damage_difficulty : int
        Difficulty of damage rolls, 2..10 (default 6).
    soak_difficulty : int
        Difficulty of soak rolls, 2..10 (default 6).
    damage_ones_cancel : bool
        1s cancel damage successes (default False: they do not; automatic
        successes are never cancelled).
    soak_ones_cancel : bool
        1s cancel soak successes (default True: the health chapter's 4,5,1,9,3 soaks nothing).
    attack_ones_cancel : bool
        1s cancel attack successes (default True, as in any classic roll).
    vampire_bashing : str
        What a vampire does to bashing damage left after soak:
        ``"halve_down"`` (default, the health chapter's rule), ``"halve_up"`` or ``"full"``.
    vital_spot_lethal : str
        Storyteller's option: a blunt attack aimed at a vital spot deals
        lethal damage to ``"mortals"``, to ``"everyone"``, or ``"off"`` (default).
    penalties : tuple of int
        Dice lost at Bruised..Crippled (default 0, 1, 1, 2, 2, 5).
    wound_penalty_on_damage : bool
        Wound penalties also remove damage dice (default False: they apply to
        actions such as the attack roll, never to soak).
    """

    damage_difficulty: int = rule(
        6,
        range=(_classic.MIN_DIFFICULTY, _classic.MAX_DIFFICULTY),
        help="Difficulty of damage rolls, 2..10 (default 6).",
    )
    soak_difficulty: int = rule(
        6, range=(_classic.MIN_DIFFICULTY, _classic.MAX_DIFFICULTY), help="Difficulty of soak rolls, 2..10 (default 6)."
    )
    damage_ones_cancel: bool = rule(
        False, help="1s cancel damage successes (default false; automatic successes are never cancelled)."
    )
    soak_ones_cancel: bool = rule(True, help="1s cancel soak successes (default true).")
    attack_ones_cancel: bool = rule(True, help="1s cancel attack successes (default true, as in any classic roll).")
    vampire_bashing: str = rule(
        "halve_down",
        choices=VAMPIRE_BASHING,
        help="What a vampire does to bashing damage left after soak: halve_down (default), halve_up or full.",
    )
    vital_spot_lethal: str = rule(
        "off",
        choices=VITAL_SPOT_LETHAL,
        help="Storyteller's option: a blunt attack at a vital spot deals lethal "
        "damage to mortals, to everyone, or off (default).",
    )
    penalties: tuple = rule(
        PENALTIES,
        length=BOXES - 1,
        item_range=(0, 100),
        help="Dice lost at Bruised, Hurt, Injured, Wounded, Mauled, Crippled (default 0, 1, 1, 2, 2, 5).",
    )
    wound_penalty_on_damage: bool = rule(
        False, help="Wound penalties also remove damage dice (default false: they apply to actions, never to soak)."
    )

    @property
    def halve(self) -> int:
        """The kernel's halving mode for bashing damage to a vampire."""
        return {
            "halve_down": seam.shapes.HALVE_DOWN,
            "halve_up": seam.shapes.HALVE_UP,
            "full": seam.shapes.HALVE_NONE,
        }[self.vampire_bashing]


OFFICIAL = DamageRules()


def resolve_kind(
    kind: str, target: str, *, firearm: bool = False, aim: str = "body", rules: DamageRules = OFFICIAL
) -> str:
    """The kind of damage the target actually takes.

    Firearms deal bashing damage to vampires unless aimed at the head;
    a blunt attack aimed at a vital spot deals lethal damage where
    ``rules.vital_spot_lethal`` says so; a mortal takes aggravated damage
    (fire, fangs, claws) as lethal.
    """
    kind = check_choice("kind", kind, KINDS)
    target = check_choice("target", target, CREATURES)
    firearm = check_bool("firearm", firearm)
    aim = check_choice("aim", aim, AIMS)
    rules = DamageRules.require(rules)
    if firearm and target == "vampire" and kind == "lethal" and aim != "head":
        kind = "bashing"
    if (
        aim == "vital"
        and kind == "bashing"
        and not firearm
        and (rules.vital_spot_lethal == "everyone" or (rules.vital_spot_lethal == "mortals" and target == "mortal"))
    ):
        kind = "lethal"
    if target == "mortal" and kind == "aggravated":
        kind = "lethal"
    return kind


#: The kernel's code for damage that is not halved.
NO_HALVING = seam.shapes.HALVE_NONE


def halving(rules: DamageRules, target: str, taken: str) -> int:
    """The kernel's halving code for ``taken`` damage to ``target``: a vampire's bashing damage is
    halved as ``rules.vampire_bashing`` says; anything else is not (:data:`NO_HALVING`)."""
    return rules.halve if (target == "vampire" and taken == "bashing") else NO_HALVING


def soak_dice(kind: str, target: str, stamina: int, fortitude: int = 0) -> int:
    """Soak dice against damage of this (resolved) kind.

    Vampires soak bashing and lethal with Stamina + Fortitude, aggravated
    with Fortitude only; mortals soak bashing with Stamina and cannot soak
    lethal (nor aggravated, which they take as lethal).
    """
    kind = check_choice("kind", kind, KINDS)
    target = check_choice("target", target, CREATURES)
    stamina = check_int("stamina", stamina, 0, MAX_TRAIT)
    fortitude = check_int("fortitude", fortitude, 0, MAX_TRAIT)
    if target == "mortal":
        if fortitude:
            raise ValueError(f"a mortal has no Fortitude (got {fortitude}); ghouls are not modelled")
        return stamina if kind == "bashing" else 0
    return fortitude if kind == "aggravated" else stamina + fortitude


# ------------------------------------------------------- one attack, exactly


@dataclass(frozen=True)
class LevelOdds:
    """The exact distribution of health levels lost to one attack.

    ``level_ways[L] / denominator`` is the probability of losing ``L``
    levels; the denominator counts every way the dice can land.
    """

    description: str
    kind: str
    denominator: int
    level_ways: tuple

    @property
    def levels(self) -> dict:
        """``{levels lost: Fraction}`` (non-zero only)."""
        return {n: Fraction(w, self.denominator) for n, w in enumerate(self.level_ways) if w}

    def at_least(self, n: int) -> Fraction:
        """Probability of losing at least ``n`` levels."""
        n = check_int("n", n, 0)
        return Fraction(sum(self.level_ways[n:]), self.denominator)

    @property
    def mean_levels(self) -> Fraction:
        """Expected levels lost."""
        return Fraction(sum(n * w for n, w in enumerate(self.level_ways)), self.denominator)

    @property
    def max_levels(self) -> int:
        """The most levels this attack can take."""
        return max(n for n, w in enumerate(self.level_ways) if w)

    def table(self, exact: bool = False) -> pd.DataFrame:
        """Columns ``levels, probability`` for every level from 0 to the maximum."""
        exact = check_bool("exact", exact)
        n = self.max_levels + 1
        probs = [Fraction(w, self.denominator) for w in self.level_ways[:n]]
        return pd.DataFrame({"levels": np.arange(n), "probability": probs if exact else [float(p) for p in probs]})

    def __str__(self) -> str:
        lines = [self.description]
        for n, p in self.levels.items():
            lines.append(f"  {n:>2} level{'s' if n != 1 else ' '}  {float(p):8.2%}   {p}")
        lines.append(f"  mean levels {float(self.mean_levels):.4f}")
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.engine.display`)."""
        return (
            [self.description, f"mean {float(self.mean_levels):.4g} levels"],
            [(f"{n} level{'s' if n != 1 else ''}", p) for n, p in self.levels.items()],
        )


def _trim(ways) -> tuple:
    ways = [int(w) for w in ways]
    while len(ways) > 1 and ways[-1] == 0:
        ways.pop()
    return tuple(ways)


def sum_rows(n_max: int, faces: np.ndarray, values: np.ndarray, mod: int):
    """Kernel call: ways of each net total of a damage, soak or attack roll, for 0..n_max dice.

    ``faces, values`` as from :func:`analysis.systems.classic.pools.die`.
    Returns ``(rows, lo)``: ``rows[n, i]`` counts the rolls of ``n`` dice
    with total ``i + lo`` (``lo = n_max * min(0, min(values))``), negative
    totals kept: the damage kernels read them as they are.
    """
    lo = min(0, int(values.min()))
    hi = max(0, int(values.max()))
    rows = np.zeros((n_max + 1, n_max * (hi - lo) + 1), dtype=np.int64)
    seam.classic.classic_sum_ways(faces, values, mod, rows)
    return rows, n_max * lo


@lru_cache(maxsize=4096)
def level_ways(
    attack_dice: int,
    attack_difficulty: int,
    specialty: bool,
    base_dice: int,
    auto: int,
    soak: int,
    halve: int,
    rules: DamageRules,
):
    """Exact (ways per level, denominator) of one attack.

    ``attack_dice < 0`` means no attack roll: the blow hits with ``base_dice``.
    """
    dmg_faces, dmg_values = _classic.die(rules.damage_difficulty, False, rules.damage_ones_cancel)
    soak_faces, soak_values = _classic.die(rules.soak_difficulty, False, rules.soak_ones_cancel)
    if attack_dice >= 0:
        att_faces, att_values = _classic.die(attack_difficulty, specialty, rules.attack_ones_cancel)
        e_max = attack_dice * int(att_values.max())
        n_max = base_dice + max(e_max - 1, 0)
        dice = attack_dice + n_max + soak
    else:
        n_max = base_dice
        dice = base_dice + soak
    size = n_max * int(dmg_values.max()) + auto + 1

    def compute(mod: int) -> np.ndarray:
        out = np.zeros(size, dtype=np.int64)
        dmg_rows, dmg_lo = sum_rows(n_max, dmg_faces, dmg_values, mod)
        soak_rows, soak_lo = sum_rows(soak, soak_faces, soak_values, mod)
        if attack_dice >= 0:
            att_rows, att_lo = sum_rows(attack_dice, att_faces, att_values, mod)
            seam.classic.attack_level_ways(
                att_rows[attack_dice],
                att_lo,
                dmg_rows,
                dmg_lo,
                base_dice,
                auto,
                soak_rows[soak],
                soak_lo,
                halve,
                mod,
                out,
            )
        else:
            seam.classic.levels_after_soak(dmg_rows[n_max], dmg_lo, auto, soak_rows[soak], soak_lo, halve, mod, out)
        return out

    rows = [
        seam.classic.classic_sum_ways_bound(n_max, dmg_faces, dmg_values),
        seam.classic.classic_sum_ways_bound(soak, soak_faces, soak_values),
    ]
    if attack_dice >= 0:
        rows.append(seam.classic.classic_sum_ways_bound(attack_dice, att_faces, att_values))
        bound = seam.classic.attack_level_ways_bound(attack_dice, n_max, soak)
    else:
        bound = seam.classic.levels_after_soak_bound(rows[0], rows[1])
    return _trim(_exact.count(compute, max(rows + [bound]))), 10**dice


def damage(
    dice: int,
    auto: int = 0,
    stamina: int = 0,
    kind: str = "bashing",
    target: str = "vampire",
    fortitude: int = 0,
    *,
    firearm: bool = False,
    aim: str = "body",
    rules: DamageRules = OFFICIAL,
) -> LevelOdds:
    """Exact distribution of health levels lost to a damage roll after soak.

    Parameters
    ----------
    dice : int
        Damage dice: Strength + weapon + extra attack successes (0..200).
    auto : int
        Automatic damage successes, e.g. one per dot of Potence.
    stamina : int
        The target's Stamina (soak dice before Fortitude).
    kind : str
        ``"bashing"``, ``"lethal"`` or ``"aggravated"``.
    target : str
        ``"vampire"`` or ``"mortal"``.
    fortitude : int
        The target's Fortitude (vampires only).
    firearm : bool
        A gunshot: a vampire takes it as bashing unless aimed at the head.
    aim : str
        ``"body"``, ``"head"`` or ``"vital"`` (see :func:`resolve_kind`).
    rules : DamageRules
        The classic rules (docs/rules.md).

    Returns
    -------
    LevelOdds
        Exact Fractions of each number of levels lost.

    Raises
    ------
    ValueError
        On negative dice, an unknown kind or target, Fortitude for a mortal,
        or a value that is not a whole number.
    """
    dice = check_int("dice", dice, 0, _classic.MAX_POOL)
    auto = check_int("auto", auto, 0, MAX_TRAIT)
    rules = DamageRules.require(rules)
    taken = resolve_kind(kind, target, firearm=firearm, aim=aim, rules=rules)
    n_soak = soak_dice(taken, target, stamina, fortitude)
    halve = halving(rules, target, taken)
    ways, den = level_ways(-1, 6, False, dice, auto, n_soak, halve, rules)
    desc = f"{dice} damage dice + {auto} automatic vs {n_soak} soak dice: {taken} damage to a {target}" + (
        " (halved)" if halve != NO_HALVING else ""
    )
    return LevelOdds(description=desc, kind=taken, denominator=den, level_ways=ways)


@dataclass(frozen=True)
class DamageReading:
    """What given damage and soak dice do (see :func:`read_damage`)."""

    damage_dice: tuple
    auto: int
    soak_dice: tuple
    kind: str
    target: str
    damage_successes: int
    levels_rolled: int
    soak_allowed: bool
    soak_successes: int
    after_soak: int
    halved: bool
    levels: int

    def __str__(self) -> str:
        soak = (
            (f"soak {', '.join(map(str, self.soak_dice)) or 'no dice'}: {self.soak_successes} success(es)")
            if self.soak_allowed
            else "no soak"
        )
        half = f", halved (round down) to {self.levels}" if self.halved else ""
        return (
            f"damage {', '.join(map(str, self.damage_dice)) or 'no dice'} "
            f"({self.damage_successes} success(es)) + {self.auto} automatic = "
            f"{self.levels_rolled} level(s); {soak}; {self.after_soak} {self.kind} "
            f"level(s) get through{half}; the {self.target} loses {self.levels} health level(s)"
        )

    __repr__ = _display.text
    _repr_html_ = _display.html


def read_damage(
    damage_dice,
    auto: int = 0,
    soak_dice=(),
    kind: str = "bashing",
    target: str = "vampire",
    *,
    firearm: bool = False,
    aim: str = "body",
    rules: DamageRules = OFFICIAL,
) -> DamageReading:
    """Read given damage and soak dice: the health levels they take.

    Parameters
    ----------
    damage_dice : sequence of int
        Damage dice rolled (faces 1..10).
    auto : int
        Automatic damage successes (Potence).
    soak_dice : sequence of int
        Soak dice rolled (Stamina + Fortitude, or Fortitude only against
        aggravated); must be empty where the target cannot soak.
    kind, target, firearm, aim, rules
        As for :func:`damage`.

    Returns
    -------
    DamageReading
        Successes rolled, levels rolled, soak successes and levels lost.
    """
    rules = DamageRules.require(rules)
    auto = check_int("auto", auto, 0, MAX_TRAIT)
    taken = resolve_kind(kind, target, firearm=firearm, aim=aim, rules=rules)
    damage_faces = _classic.check_faces("damage_dice", damage_dice)
    dmg = _classic.read_pool(damage_faces, rules.damage_difficulty, ones_cancel=rules.damage_ones_cancel)
    soak_faces = _classic.check_faces("soak_dice", soak_dice)
    allowed = not (target == "mortal" and taken != "bashing")
    if not allowed and soak_faces:
        raise ValueError(f"a mortal cannot soak {taken} damage: give no soak dice")
    soak = _classic.read_pool(soak_faces, rules.soak_difficulty, ones_cancel=rules.soak_ones_cancel)
    dealt, soaked = cast(int, dmg.successes), cast(int, soak.successes)  # (the classic file names its successes)
    rolled = dealt + auto
    through = max(0, rolled - soaked)
    halved = target == "vampire" and taken == "bashing" and rules.vampire_bashing != "full"
    levels = (
        {"halve_down": through // 2, "halve_up": (through + 1) // 2}.get(rules.vampire_bashing, through)
        if halved
        else through
    )
    return DamageReading(
        damage_faces,
        auto,
        soak_faces,
        taken,
        target,
        dealt,
        rolled,
        allowed,
        soaked,
        through,
        halved,
        levels,
    )
