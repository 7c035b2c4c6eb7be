"""Classic (V20-style) damage, soak and the health track, counted exactly."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd

from kernels import classic as _k

from analysis.systems.classic import pools as _classic
from analysis.rules import Rules, rule
from analysis import exact as _exact
from analysis.markov import ExactChain
from analysis.validate import check_bool, check_int
from analysis import display as _display

KINDS = ("bashing", "lethal", "aggravated")
CREATURES = ("vampire", "mortal")
AIMS = ("body", "head", "vital")
#: The seven health levels, top to bottom; the seventh box is Incapacitated.
HEALTH_LEVELS = ("Bruised", "Hurt", "Injured", "Wounded", "Mauled", "Crippled", "Incapacitated")
BOXES = len(HEALTH_LEVELS)
#: Dice lost at Bruised, Hurt, Injured, Wounded, Mauled, Crippled (docs/rules.md).
PENALTIES = (0, 1, 1, 2, 2, 5)
#: Conditions beyond the boxes.
CONDITIONS = ("alive", "torpor", "final_death", "dead")
#: Where a chain of blows or a fight stops, mildest first.  For a mortal,
#: death counts as reaching "torpor" and "final_death" alike.
UNTIL = ("incapacitated", "torpor", "final_death")
#: The columns of :meth:`Blows.table`: the chance of being at or past each
#: condition of ``UNTIL`` (cumulative, so named "or worse").
TABLE_CONDITIONS = ("incapacitated_or_worse", "torpor_or_worse", "final_death")
#: Torpor from wounds, by Humanity 10..0 (the classic health rules).
TORPOR_LENGTH = {
    10: "one day", 9: "three days", 8: "one week", 7: "two weeks", 6: "one month",
    5: "one year", 4: "one decade", 3: "five decades", 2: "one century",
    1: "five centuries", 0: "a millennium or more",
}
VAMPIRE_BASHING = ("halve_down", "halve_up", "full")
VITAL_SPOT_LETHAL = ("off", "mortals", "everyone")
#: Attribute-like inputs (Stamina, Fortitude, automatic successes) above this
#: are refused as typos; dice pools follow ``analysis.classic.MAX_POOL``.
MAX_TRAIT = 50
MAX_STEPS = 1000


# --------------------------------------------------------------------- rules

def _check_flag(name, value) -> bool:
    return check_bool(name, value)


def _check_choice(name, value, choices) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


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

    damage_difficulty: int = rule(6, range=(_classic.MIN_DIFFICULTY, _classic.MAX_DIFFICULTY),
                                  help="Difficulty of damage rolls, 2..10 (default 6).")
    soak_difficulty: int = rule(6, range=(_classic.MIN_DIFFICULTY, _classic.MAX_DIFFICULTY),
                                help="Difficulty of soak rolls, 2..10 (default 6).")
    damage_ones_cancel: bool = rule(False, help="1s cancel damage successes (default false; automatic "
                                                "successes are never cancelled).")
    soak_ones_cancel: bool = rule(True, help="1s cancel soak successes (default true).")
    attack_ones_cancel: bool = rule(True, help="1s cancel attack successes (default true, as in any "
                                               "classic roll).")
    vampire_bashing: str = rule("halve_down", choices=VAMPIRE_BASHING,
                                help="What a vampire does to bashing damage left after soak: halve_down "
                                     "(default), halve_up or full.")
    vital_spot_lethal: str = rule("off", choices=VITAL_SPOT_LETHAL,
                                  help="Storyteller's option: a blunt attack at a vital spot deals lethal "
                                       "damage to mortals, to everyone, or off (default).")
    penalties: tuple = rule(PENALTIES, length=BOXES - 1, item_range=(0, 100),
                            help="Dice lost at Bruised, Hurt, Injured, Wounded, Mauled, Crippled "
                                 "(default 0, 1, 1, 2, 2, 5).")
    wound_penalty_on_damage: bool = rule(False, help="Wound penalties also remove damage dice (default "
                                                     "false: they apply to actions, never to soak).")

    @property
    def halve(self) -> int:
        """The kernel's halving mode for bashing damage to a vampire."""
        return {"halve_down": _k.HALVE_DOWN, "halve_up": _k.HALVE_UP,
                "full": _k.HALVE_NONE}[self.vampire_bashing]



OFFICIAL = DamageRules()


def resolve_kind(kind: str, target: str, *, firearm: bool = False, aim: str = "body",
                 rules: DamageRules = OFFICIAL) -> str:
    """The kind of damage the target actually takes.

    Firearms deal bashing damage to vampires unless aimed at the head;
    a blunt attack aimed at a vital spot deals lethal damage where
    ``rules.vital_spot_lethal`` says so; a mortal takes aggravated damage
    (fire, fangs, claws) as lethal.
    """
    kind = _check_choice("kind", kind, KINDS)
    target = _check_choice("target", target, CREATURES)
    firearm = _check_flag("firearm", firearm)
    aim = _check_choice("aim", aim, AIMS)
    rules = DamageRules.require(rules)
    if firearm and target == "vampire" and kind == "lethal" and aim != "head":
        kind = "bashing"
    if (aim == "vital" and kind == "bashing" and not firearm
            and (rules.vital_spot_lethal == "everyone"
                 or (rules.vital_spot_lethal == "mortals" and target == "mortal"))):
        kind = "lethal"
    if target == "mortal" and kind == "aggravated":
        kind = "lethal"
    return kind


def soak_dice(kind: str, target: str, stamina: int, fortitude: int = 0) -> int:
    """Soak dice against damage of this (resolved) kind.

    Vampires soak bashing and lethal with Stamina + Fortitude, aggravated
    with Fortitude only; mortals soak bashing with Stamina and cannot soak
    lethal (nor aggravated, which they take as lethal).
    """
    kind = _check_choice("kind", kind, KINDS)
    target = _check_choice("target", target, CREATURES)
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
        return pd.DataFrame({"levels": np.arange(n),
                             "probability": probs if exact else [float(p) for p in probs]})

    def __str__(self) -> str:
        lines = [self.description]
        for n, p in self.levels.items():
            lines.append(f"  {n:>2} level{'s' if n != 1 else ' '}  {float(p):8.2%}   {p}")
        lines.append(f"  mean levels {float(self.mean_levels):.4f}")
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.display`)."""
        return ([self.description, f"mean {float(self.mean_levels):.4g} levels"],
                [(f"{n} level{'s' if n != 1 else ''}", p) for n, p in self.levels.items()])


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
    _k.classic_sum_ways(faces, values, mod, rows)
    return rows, n_max * lo


@lru_cache(maxsize=4096)
def _level_ways(attack_dice: int, attack_difficulty: int, specialty: bool, base_dice: int,
                auto: int, soak: int, halve: int, rules: DamageRules):
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
            _k.attack_level_ways(att_rows[attack_dice], att_lo, dmg_rows, dmg_lo, base_dice, auto,
                                 soak_rows[soak], soak_lo, halve, mod, out)
        else:
            _k.levels_after_soak(dmg_rows[n_max], dmg_lo, auto, soak_rows[soak], soak_lo,
                                 halve, mod, out)
        return out

    rows = [_k.classic_sum_ways_bound(n_max, dmg_faces, dmg_values),
            _k.classic_sum_ways_bound(soak, soak_faces, soak_values)]
    if attack_dice >= 0:
        rows.append(_k.classic_sum_ways_bound(attack_dice, att_faces, att_values))
        bound = _k.attack_level_ways_bound(attack_dice, n_max, soak)
    else:
        bound = _k.levels_after_soak_bound(rows[0], rows[1])
    return _trim(_exact.count(compute, max(rows + [bound]))), 10**dice


def damage(dice: int, auto: int = 0, stamina: int = 0, kind: str = "bashing",
           target: str = "vampire", fortitude: int = 0, *, firearm: bool = False,
           aim: str = "body", rules: DamageRules = OFFICIAL) -> LevelOdds:
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
    halve = rules.halve if (target == "vampire" and taken == "bashing") else _k.HALVE_NONE
    ways, den = _level_ways(-1, 6, False, dice, auto, n_soak, halve, rules)
    desc = (f"{dice} damage dice + {auto} automatic vs {n_soak} soak dice: "
            f"{taken} damage to a {target}" + (" (halved)" if halve != _k.HALVE_NONE else ""))
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
        soak = (f"soak {', '.join(map(str, self.soak_dice)) or 'no dice'}: "
                f"{self.soak_successes} success(es)") if self.soak_allowed else "no soak"
        half = f", halved (round down) to {self.levels}" if self.halved else ""
        return (f"damage {', '.join(map(str, self.damage_dice)) or 'no dice'} "
                f"({self.damage_successes} success(es)) + {self.auto} automatic = "
                f"{self.levels_rolled} level(s); {soak}; {self.after_soak} {self.kind} "
                f"level(s) get through{half}; the {self.target} loses {self.levels} health level(s)")

    __repr__ = _display.text
    _repr_html_ = _display.html


def read_damage(damage_dice, auto: int = 0, soak_dice=(), kind: str = "bashing",
                target: str = "vampire", *, firearm: bool = False, aim: str = "body",
                rules: DamageRules = OFFICIAL) -> DamageReading:
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
    dmg = _classic.read_pool(damage_dice, rules.damage_difficulty,
                             ones_cancel=rules.damage_ones_cancel)
    soak_faces = _classic.check_faces("soak_dice", soak_dice)
    allowed = not (target == "mortal" and taken != "bashing")
    if not allowed and soak_faces:
        raise ValueError(f"a mortal cannot soak {taken} damage: give no soak dice")
    soak = _classic.read_pool(soak_faces, rules.soak_difficulty, ones_cancel=rules.soak_ones_cancel)
    rolled = dmg.net + auto
    through = max(0, rolled - soak.net)
    halved = target == "vampire" and taken == "bashing" and rules.vampire_bashing != "full"
    levels = {"halve_down": through // 2, "halve_up": (through + 1) // 2}.get(
        rules.vampire_bashing, through) if halved else through
    return DamageReading(dmg.dice, auto, soak.dice, taken, target, dmg.net, rolled, allowed,
                         soak.net, through, halved, levels)


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
        _check_choice("condition", self.condition, CONDITIONS)

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
    kind = _check_choice("kind", kind, KINDS)
    target = _check_choice("target", target, CREATURES)
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


# ------------------------------------------------------- attacks and fighters

@dataclass(frozen=True)
class Attack:
    """One attack, repeated blow after blow.

    Attributes
    ----------
    damage_dice : int
        Strength + weapon: the damage dice of a hit with one net success.
    kind : str
        ``"bashing"``, ``"lethal"`` or ``"aggravated"``.
    auto : int
        Automatic damage successes (Potence).
    attack_pool : int or None
        Dice of the attack roll (e.g. Dexterity + Brawl).  None: every blow
        hits and adds no damage dice.  With a pool, a net of ``e >= 1``
        successes hits and adds ``e - 1`` damage dice; wound penalties
        reduce this pool.
    difficulty : int
        Difficulty of the attack roll, 2..10 (default 6; 8 for the head).
    specialty : bool
        A 10 on the attack roll counts as two successes.
    firearm : bool
        A gunshot (vampires take it as bashing unless aimed at the head).
    aim : str
        ``"body"``, ``"head"`` or ``"vital"``.
    """

    damage_dice: int
    kind: str = "bashing"
    auto: int = 0
    attack_pool: int | None = None
    difficulty: int = 6
    specialty: bool = False
    firearm: bool = False
    aim: str = "body"

    def __post_init__(self):
        check_int("damage_dice", self.damage_dice, 0, _classic.MAX_POOL)
        _check_choice("kind", self.kind, KINDS)
        check_int("auto", self.auto, 0, MAX_TRAIT)
        if self.attack_pool is not None:
            check_int("attack_pool", self.attack_pool, 0, _classic.MAX_POOL)
        _classic.check_difficulty(self.difficulty)
        _check_flag("specialty", self.specialty)
        _check_flag("firearm", self.firearm)
        _check_choice("aim", self.aim, AIMS)
        if self.attack_pool is not None and self.aim != "body" and self.difficulty < 8:
            raise ValueError(f"an attack aimed at the {self.aim if self.aim == 'head' else 'vital spot'} "
                             f"is made at difficulty 8 or more, got {self.difficulty}")


@dataclass(frozen=True)
class Fighter:
    """A character who takes blows (and may strike back).

    Attributes
    ----------
    creature : str
        ``"vampire"`` or ``"mortal"``.
    stamina, fortitude : int
        Soak traits (a mortal has no Fortitude).
    health : Health
        The track at the start (default unhurt).
    attack : Attack or None
        How this fighter strikes in a fight (None: does not strike).
    name : str
        A label for tables and plots.
    """

    creature: str = "vampire"
    stamina: int = 2
    fortitude: int = 0
    health: Health = field(default_factory=Health)
    attack: Attack | None = None
    name: str = ""

    def __post_init__(self):
        _check_choice("creature", self.creature, CREATURES)
        check_int("stamina", self.stamina, 0, MAX_TRAIT)
        check_int("fortitude", self.fortitude, 0, MAX_TRAIT)
        if self.creature == "mortal" and self.fortitude:
            raise ValueError(f"a mortal has no Fortitude (got {self.fortitude}); ghouls are not modelled")
        if not isinstance(self.health, Health):
            raise ValueError(f"health must be a Health, got {type(self.health).__name__}")
        if self.creature == "mortal" and self.health.condition in ("torpor", "final_death"):
            raise ValueError(f"a mortal cannot be in {self.health.condition.replace('_', ' ')}")
        if self.creature == "vampire" and self.health.condition == "dead":
            raise ValueError("a vampire is never 'dead': use final_death")
        if self.attack is not None and not isinstance(self.attack, Attack):
            raise ValueError(f"attack must be an Attack or None, got {type(self.attack).__name__}")

    @property
    def label(self) -> str:
        return self.name or self.creature


def blow(attack: Attack, victim: Fighter, penalty: int = 0,
         rules: DamageRules = OFFICIAL) -> LevelOdds:
    """Exact levels lost by ``victim`` to one blow of ``attack``.

    ``penalty`` is the attacker's wound penalty (dice off the attack roll,
    and off the damage roll if ``rules.wound_penalty_on_damage``).
    """
    if not isinstance(attack, Attack):
        raise ValueError(f"attack must be an Attack, got {type(attack).__name__}")
    if not isinstance(victim, Fighter):
        raise ValueError(f"victim must be a Fighter, got {type(victim).__name__}")
    penalty = check_int("penalty", penalty, 0)
    rules = DamageRules.require(rules)
    taken = resolve_kind(attack.kind, victim.creature, firearm=attack.firearm, aim=attack.aim,
                         rules=rules)
    n_soak = soak_dice(taken, victim.creature, victim.stamina, victim.fortitude)
    halve = rules.halve if (victim.creature == "vampire" and taken == "bashing") else _k.HALVE_NONE
    base = attack.damage_dice
    if rules.wound_penalty_on_damage:
        base = max(0, base - penalty)
    if attack.attack_pool is None:
        ways, den = _level_ways(-1, 6, False, base, attack.auto, n_soak, halve, rules)
        roll = "every blow hits"
    else:
        pool = max(0, attack.attack_pool - penalty)
        ways, den = _level_ways(pool, attack.difficulty, attack.specialty, base, attack.auto,
                                n_soak, halve, rules)
        roll = f"attack {pool} dice at difficulty {attack.difficulty}"
    desc = (f"{roll}; {base} damage dice + {attack.auto} automatic vs {n_soak} soak dice: "
            f"{taken} to a {victim.creature}" + (" (halved)" if halve != _k.HALVE_NONE else ""))
    return LevelOdds(description=desc, kind=taken, denominator=den, level_ways=ways)


@lru_cache(maxsize=1024)
def _blow(attack, creature, stamina, fortitude, penalty, rules) -> LevelOdds:
    return blow(attack, Fighter(creature, stamina, fortitude), penalty, rules)


def _check_until(until: str) -> int:
    return UNTIL.index(_check_choice("until", until, UNTIL)) + 1


def _check_fighter(name, f) -> Fighter:
    if not isinstance(f, Fighter):
        raise ValueError(f"{name} must be a Fighter, got {type(f).__name__}")
    return f


def _distribution(ways: list, states, den: int) -> dict:
    return {s: Fraction(w, den) for s, w in zip(states, ways) if w}


def _ways(chain: ExactChain, steps: int, what: str) -> tuple:
    """Integer ways of every state after 0..steps steps from state 0 (the
    start), over ``chain.denominator ** k``: counted by the chain's kernel."""
    ways = chain.run(0, steps, what=what, smaller="use smaller pools").ways
    return tuple(tuple(row) for row in ways.tolist())


# ------------------------------------------------------------ repeated blows

@dataclass(frozen=True)
class Blows:
    """Exact results of repeated blows on one victim (see :func:`blows`).

    ``chain`` is the exact Markov chain over the victim's health tracks;
    ``ways[k]`` the integer ways of each state after ``k`` blows over
    ``chain.denominator ** k``.
    """

    attack: Attack
    victim: Fighter
    rules: DamageRules
    per_blow: LevelOdds
    chain: ExactChain
    max_blows: int
    ways: tuple

    def state(self, k: int) -> dict:
        """``{Health: Fraction}`` after ``k`` blows."""
        k = check_int("blows", k, 0, self.max_blows)
        return _distribution(self.ways[k], self.chain.states, self.chain.denominator**k)

    def at_least(self, until: str, k: int) -> Fraction:
        """Probability of being at or past ``until`` after ``k`` blows."""
        sev = _check_until(until)
        return sum((p for h, p in self.state(k).items() if h.severity >= sev), Fraction(0))

    def penalty(self, k: int) -> dict:
        """The victim's wound penalty after ``k`` blows: ``{dice lost or None: Fraction}``
        (None: cannot act)."""
        out: dict = {}
        for h, p in self.state(k).items():
            key = h.penalty(self.rules)
            out[key] = out.get(key, 0) + p
        return out

    def victim_roll(self, k: int, pool: int, difficulty: int = 6, specialty: bool = False,
                    rules: _classic.ClassicRules = _classic.OFFICIAL) -> dict:
        """The victim's own roll after ``k`` blows, wound penalties included.

        Returns ``{"cannot_act", "botch", "failure", "success": Fraction}``:
        the pool loses the penalty of the lowest marked box.
        """
        pool = check_int("pool", pool, 0, _classic.MAX_POOL)
        out = {"cannot_act": Fraction(0), "botch": Fraction(0), "failure": Fraction(0),
               "success": Fraction(0)}
        for pen, p in self.penalty(k).items():
            if pen is None:
                out["cannot_act"] += p
                continue
            o = _classic.odds(max(0, pool - pen), difficulty, specialty, rules)
            for name, q in o.outcomes().items():
                out[name] += p * q
        return out

    def first(self, until: str = "incapacitated"):
        """First blow at which the victim is at or past ``until``.

        Returns ``(pmf, tail, never)``: ``pmf[k]`` = P(first at blow ``k``)
        for ``k = 0..max_blows``, ``tail`` = P(later), ``never`` = P(never);
        exact, summing to 1.
        """
        sev = _check_until(until)
        start = self.chain.index[self.victim.health]
        targets = [i for i, h in enumerate(self.chain.states) if h.severity >= sev]
        return self.chain.first_passage(start, targets, self.max_blows)

    def expected(self, until: str = "incapacitated"):
        """Exact expected blows to reach ``until``, or None if it may never come."""
        sev = _check_until(until)
        targets = [i for i, h in enumerate(self.chain.states) if h.severity >= sev]
        return self.chain.expected_steps(targets)[self.chain.index[self.victim.health]]

    def eventually(self, until: str = "incapacitated") -> Fraction:
        """Exact probability that the blows ever bring the victim to ``until``."""
        sev = _check_until(until)
        targets = [i for i, h in enumerate(self.chain.states) if h.severity >= sev]
        return self.chain.hitting_probability(targets)[self.chain.index[self.victim.health]]

    def table(self, exact: bool = False) -> pd.DataFrame:
        """Columns ``blows, incapacitated_or_worse, torpor_or_worse, final_death``:
        the probability of being at or past each after 0..max_blows blows
        (cumulative: Incapacitated or worse includes torpor and death; a
        mortal's death counts for torpor and final_death)."""
        exact = check_bool("exact", exact)
        rows = {"blows": np.arange(self.max_blows + 1)}
        for sev, name in enumerate(TABLE_CONDITIONS, start=1):
            vals = []
            for k, ways in enumerate(self.ways):
                p = Fraction(sum(w for w, h in zip(ways, self.chain.states) if h.severity >= sev),
                             self.chain.denominator**k)
                vals.append(p if exact else float(p))
            rows[name] = vals
        return pd.DataFrame(rows)

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.display`)."""
        head = [self.per_blow.description] + ([f"on {self.victim.name}"] if self.victim.name else [])
        head.append(f"{self.max_blows} blows")
        rows = []
        for until in UNTIL:
            rows.append((f"{until} after {self.max_blows} blows", self.at_least(until, self.max_blows)))
        for until in UNTIL:
            rows.append((f"{until} eventually", self.eventually(until)))
        mean = self.expected("incapacitated")
        rows.append(("expected blows to incapacitated",
                     "never certain" if mean is None else f"{float(mean):.4g}"))
        return head, rows


def blows(attack: Attack, victim: Fighter, max_blows: int = 20,
          rules: DamageRules = OFFICIAL) -> Blows:
    """Repeated blows of one attack on one victim, as an exact Markov chain.

    The attacker is unhurt (no wound penalty); each blow's levels follow
    :func:`blow`.  The states are the victim's health tracks; Final Death
    (or a mortal's death) is absorbing, and so is any state the attack can
    no longer change (torpor under bashing or lethal blows).

    Parameters
    ----------
    attack : Attack
    victim : Fighter
    max_blows : int
        Blows to follow (0..1000).
    rules : DamageRules

    Returns
    -------
    Blows
        Exact state distributions per blow, first-passage distributions,
        expected blows and probabilities of ever reaching each condition.
    """
    if not isinstance(attack, Attack):
        raise ValueError(f"attack must be an Attack, got {type(attack).__name__}")
    victim = _check_fighter("victim", victim)
    max_blows = check_int("max_blows", max_blows, 0, MAX_STEPS)
    rules = DamageRules.require(rules)
    per = blow(attack, victim, 0, rules)
    dist = per.levels

    def moves(h):
        out: dict = {}
        for n, p in dist.items():
            t = take_damage(h, n, per.kind, victim.creature)
            out[t] = out.get(t, 0) + p
        return out

    chain = ExactChain.explore(victim.health, moves)
    ways = _ways(chain, max_blows, "blows of this attack")
    return Blows(attack, victim, rules, per, chain, max_blows, ways)


# --------------------------------------------------------------- two-sided fight

FIRST = ("a", "b", "simultaneous")


@dataclass(frozen=True)
class Fight:
    """Exact results of a two-sided fight (see :func:`fight`).

    States are pairs ``(health of a, health of b)``; a state where either
    side is at or past ``until`` ends the fight (absorbing).
    """

    a: Fighter
    b: Fighter
    order: str
    until: str
    rules: DamageRules
    chain: ExactChain
    turns: int
    ways: tuple

    def state(self, k: int) -> dict:
        """``{(health a, health b): Fraction}`` after ``k`` turns."""
        k = check_int("turns", k, 0, self.turns)
        return _distribution(self.ways[k], self.chain.states, self.chain.denominator**k)

    def _sets(self):
        sev = _check_until(self.until)
        a_out = [i for i, (ha, hb) in enumerate(self.chain.states) if ha.severity >= sev and hb.severity < sev]
        b_out = [i for i, (ha, hb) in enumerate(self.chain.states) if hb.severity >= sev and ha.severity < sev]
        both = [i for i, (ha, hb) in enumerate(self.chain.states) if ha.severity >= sev and hb.severity >= sev]
        return a_out, b_out, both

    def outcomes(self) -> dict:
        """Exact probabilities of how the fight ends.

        ``a_wins`` (b reaches ``until``, a does not), ``b_wins``, ``both``
        (in the same turn, only when striking simultaneously) and ``never``
        (neither side can bring the other down).
        """
        a_out, b_out, both = self._sets()
        start = self.chain.index[(self.a.health, self.b.health)]
        p_b = self.chain.hitting_probability(b_out)[start]
        p_a = self.chain.hitting_probability(a_out)[start]
        p_both = self.chain.hitting_probability(both)[start]
        return {"a_wins": p_b, "b_wins": p_a, "both": p_both, "never": 1 - p_a - p_b - p_both}

    def expected_turns(self):
        """Exact expected turns until the fight ends, or None if it may never end."""
        a_out, b_out, both = self._sets()
        start = self.chain.index[(self.a.health, self.b.health)]
        return self.chain.expected_steps(a_out + b_out + both)[start]

    def end(self):
        """Turn at which the fight ends: ``(pmf, tail, never)`` as in :meth:`Blows.first`."""
        a_out, b_out, both = self._sets()
        start = self.chain.index[(self.a.health, self.b.health)]
        return self.chain.first_passage(start, a_out + b_out + both, self.turns)

    def table(self, exact: bool = False) -> pd.DataFrame:
        """Columns ``turn, a_wins, b_wins, both, going_on``: the probability that
        the fight has ended that way by each turn, or is still going on."""
        exact = check_bool("exact", exact)
        a_out, b_out, both = self._sets()
        cols = {"turn": np.arange(self.turns + 1), "a_wins": [], "b_wins": [], "both": [],
                "going_on": []}
        for k, ways in enumerate(self.ways):
            den = self.chain.denominator**k
            pa, pb, pboth = (Fraction(sum(ways[i] for i in s), den) for s in (b_out, a_out, both))
            for name, p in (("a_wins", pa), ("b_wins", pb), ("both", pboth),
                            ("going_on", 1 - pa - pb - pboth)):
                cols[name].append(p if exact else float(p))
        return pd.DataFrame(cols)

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.display`)."""
        head = [f"a {self.a.label}", f"b {self.b.label}", f"first {self.order}",
                f"until {self.until}", f"{self.turns} turns"]
        rows = list(self.outcomes().items())
        mean = self.expected_turns()
        rows.append(("expected turns", "may never end" if mean is None else f"{float(mean):.4g}"))
        return head, rows


def fight(a: Fighter, b: Fighter, first: str = "a", until: str = "incapacitated",
          turns: int = 20, rules: DamageRules = OFFICIAL) -> Fight:
    """A two-sided fight as an exact Markov chain over both health tracks.

    Each turn both sides strike once with their :class:`Attack`, in the
    order ``first`` says (``"a"``, ``"b"`` or ``"simultaneous"``); each
    side's wound penalty comes off its own attack roll, a side that cannot
    act (Incapacitated or worse, or no dice left) does not strike, and a side
    brought to ``until`` before its turn does not strike back.

    Parameters
    ----------
    a, b : Fighter
        The two sides, each with an ``attack`` (None: never strikes).
    first : str
        Who strikes first each turn (default ``"a"``).
    until : str
        ``"incapacitated"`` (default), ``"torpor"`` or ``"final_death"``: the
        fight ends when either side is at or past it.
    turns : int
        Turns to follow (0..1000).
    rules : DamageRules

    Returns
    -------
    Fight
    """
    a = _check_fighter("a", a)
    b = _check_fighter("b", b)
    first = _check_choice("first", first, FIRST)
    sev = _check_until(until)
    turns = check_int("turns", turns, 0, MAX_STEPS)
    rules = DamageRules.require(rules)

    def strike(attacker: Fighter, h_att: Health, victim: Fighter, h_vic: Health) -> dict:
        """``{victim's new health: Fraction}`` after the attacker's action."""
        pen = h_att.penalty(rules)
        if attacker.attack is None or pen is None or h_vic.severity >= sev:
            return {h_vic: Fraction(1)}
        if attacker.attack.attack_pool is not None and attacker.attack.attack_pool - pen <= 0:
            return {h_vic: Fraction(1)}  # wounds leave no dice: the action fails
        per = _blow(attacker.attack, victim.creature, victim.stamina, victim.fortitude, pen, rules)
        out: dict = {}
        for n, p in per.levels.items():
            t = take_damage(h_vic, n, per.kind, victim.creature)
            out[t] = out.get(t, 0) + p
        return out

    def moves(s):
        ha, hb = s
        if ha.severity >= sev or hb.severity >= sev:
            return {s: Fraction(1)}
        out: dict = {}
        if first == "simultaneous":
            for hb2, p in strike(a, ha, b, hb).items():
                for ha2, q in strike(b, hb, a, ha).items():
                    out[(ha2, hb2)] = out.get((ha2, hb2), 0) + p * q
            return out
        if first == "a":
            for hb2, p in strike(a, ha, b, hb).items():
                for ha2, q in strike(b, hb2, a, ha).items():
                    out[(ha2, hb2)] = out.get((ha2, hb2), 0) + p * q
        else:
            for ha2, p in strike(b, hb, a, ha).items():
                for hb2, q in strike(a, ha2, b, hb).items():
                    out[(ha2, hb2)] = out.get((ha2, hb2), 0) + p * q
        return out

    chain = ExactChain.explore((a.health, b.health), moves)
    ways = _ways(chain, turns, "turns of this fight")
    return Fight(a, b, first, until, rules, chain, turns, ways)


# ------------------------------------------------------------------- torpor

def torpor_length(humanity: int) -> str:
    """How long a vampire sent into torpor by wounds must rest, by Humanity 0..10."""
    return TORPOR_LENGTH[check_int("humanity", humanity, 0, 10)]


def torpor_table() -> pd.DataFrame:
    """Columns ``humanity, torpor``: the health chapter's lookup, Humanity 10 down to 0."""
    return pd.DataFrame({"humanity": list(TORPOR_LENGTH), "torpor": list(TORPOR_LENGTH.values())})
