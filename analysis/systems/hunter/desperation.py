"""Hunter: the Reckoning 5th edition rolls with Desperation dice, counted exactly on the 5th-edition engine.

The rules as counted here (Hunter: the Reckoning 5th edition, core book):
Desperation dice are added on top of the pool (0 to 5 of them).  Every die
showing 6 or more is a success and each pair of 10s on any dice adds 2
more.  A Desperation die showing 1 brings trouble: on a failed roll the
hunter falls into Despair; on a win the player chooses between Overreach
(the win stands, at a price) and Despair.  Willpower never rerolls
Desperation dice.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from kernels.special import BAND_NONE, BAND_SHORT, BAND_WIN, CAP

from analysis import special_dice as _sd
from analysis.rules import Rules, rule
from analysis.validate import as_values, check_bool, check_count, check_faces, check_int
from analysis import display as _display
from analysis.special_dice import Reading

#: The six outcome classes, mutually exclusive, in table-column order.
CLASSES = ("total_failure", "failure", "plain_win", "critical_win", "overreach_or_despair", "despair")
TOTAL_FAILURE, FAILURE, PLAIN_WIN, CRITICAL_WIN, OVERREACH_OR_DESPAIR, DESPAIR = range(6)
_WIN_CLASSES = ("plain_win", "critical_win", "overreach_or_despair")
#: Derived columns of :func:`table`: each the sum of these classes.
DERIVED = {"p_win": _WIN_CLASSES, "p_desperation_one": ("overreach_or_despair", "despair")}
#: Columns of :func:`table`, in order.
TABLE_COLUMNS = ("pool", "desperation", "difficulty") + CLASSES + tuple(DERIVED)
MAX_DESPERATION = 5
#: Pools above this are refused (the count grows as pool**2).
MAX_POOL = 1000


@dataclass(frozen=True)
class HunterRules(Rules):
    """A Hunter 5th edition rule set.  The defaults are the official rules."""

    success_face: int = rule(6, range=(2, 10), help="Lowest face that is a success (2..10); official 6.")
    crit_bonus: int = rule(2, range=(0, 20),
                           help="Bonus successes for each pair of 10s, on any dice (0..20); official 2.")
    despair_ones: int = rule(1, range=(1, CAP),
                             help="Desperation dice showing 1 that bring Overreach or Despair (1 or 2); "
                                  "official 1.")
    desperation_replaces_dice: bool = rule(False, help="Official false: the Desperation dice are added to the "
                                                       "pool; true: they replace normal dice.")
    critical_ignores_desperation: bool = rule(False, help="House rule: a critical win stays a critical win "
                                                          "even with a Desperation 1; official false.")

    def dice(self, pool: int, desperation: int) -> tuple[int, int]:
        """(normal dice, Desperation dice) rolled for ``pool`` with ``desperation`` dice."""
        return self.engine().dice(pool, desperation)

    @property
    def normal_faces(self) -> tuple[int, int, int]:
        """Faces of a normal die: (failures, successes below ten, tens)."""
        s = self.success_face
        return (s - 1, 10 - s, 1)

    @property
    def desperation_faces(self) -> tuple[int, int, int, int]:
        """Faces of a Desperation die: (ones, other failures, successes below ten, tens)."""
        s = self.success_face
        return (1, s - 2, 10 - s, 1)

    def engine(self) -> _sd.Engine:
        """These rules on the 5th-edition engine."""
        return _engine(self)

    def changes(self) -> dict:
        """The knobs that differ from the official rules."""
        base = HunterRules()
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if getattr(self, f.name) != getattr(base, f.name)}


OFFICIAL = HunterRules()


@lru_cache(maxsize=64)
def _engine(rules: HunterRules) -> _sd.Engine:
    table = [[[[0] * (CAP + 1) for _ in range(CAP + 1)] for _ in range(2)] for _ in range(3)]
    for band in (BAND_NONE, BAND_SHORT, BAND_WIN):
        for pair in range(2):
            for ec in range(CAP + 1):
                for oc in range(CAP + 1):
                    ones = oc >= rules.despair_ones
                    if band == BAND_WIN:
                        if pair and (rules.critical_ignores_desperation or not ones):
                            cls = CRITICAL_WIN
                        else:
                            cls = OVERREACH_OR_DESPAIR if ones else PLAIN_WIN
                    elif ones:
                        cls = DESPAIR
                    else:
                        cls = FAILURE if band == BAND_SHORT else TOTAL_FAILURE
                    table[band][pair][ec][oc] = cls
    return _sd.Engine.of(rules.normal_faces, rules.desperation_faces, rules.crit_bonus, [0] * (CAP + 1),
                         table, len(CLASSES), rules.desperation_replaces_dice)


@dataclass(frozen=True)
class HunterOdds(_sd.SpecialOdds):
    """The exact odds of one Hunter roll.

    The six classes (``total_failure``, ``failure``, ``plain_win``,
    ``critical_win``, ``overreach_or_despair``, ``despair``) are mutually
    exclusive and sum to exactly 1.
    """

    desperation: int = 0
    rules: HunterRules = OFFICIAL

    total_failure = property(lambda self: self.probability("total_failure"),
                             doc="No success and no Desperation 1.")
    failure = property(lambda self: self.probability("failure"),
                           doc="Some successes, fewer than the Difficulty, no Desperation 1.")
    plain_win = property(lambda self: self.probability("plain_win"), doc="A win without a pair of 10s or a Desperation 1.")
    critical_win = property(lambda self: self.probability("critical_win"),
                            doc="A win with a pair of 10s and no Desperation 1 (under the official rules).")
    overreach_or_despair = property(lambda self: self.probability("overreach_or_despair"),
                                    doc="A win with a Desperation 1: Overreach (keep the win) or Despair.")
    despair = property(lambda self: self.probability("despair"), doc="Not a win, and a Desperation die shows 1.")

    @property
    def p_desperation_one(self) -> Fraction:
        """Probability that a Desperation 1 brings Overreach or Despair."""
        return self.probability("overreach_or_despair") + self.probability("despair")

    def __str__(self) -> str:
        lines = [f"Hunter pool {self.pool} + {self.special_dice} Desperation dice "
                 f"({self.normal_dice} normal), Difficulty {self.difficulty}"]
        if self.rules != OFFICIAL:
            lines.append(f"house rules: {self.rules.changes()}")
        for name, p in list(self.classes().items()) + [("p_win", self.p_win),
                                                       ("p_desperation_one", self.p_desperation_one)]:
            lines.append(f"  {name:<22}{float(p):8.2%}   {p}")
        lines.append(f"  mean successes        {float(self.mean_successes):.4f}")
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html


def odds(pool: int, desperation: int, difficulty: int, rules: HunterRules = OFFICIAL) -> HunterOdds:
    """Exact odds of a Hunter roll with Desperation dice.

    Parameters
    ----------
    pool : int
        Dice in the pool after modifiers (0..1000), not counting Desperation dice.
    desperation : int
        Desperation dice added to the roll, 0..5.
    difficulty : int
        Successes needed to win (>= 0).
    rules : HunterRules
        Official rules by default.

    Returns
    -------
    HunterOdds
        Exact Fractions for the six outcome classes, ``p_win``,
        ``p_desperation_one`` and the distribution of successes.

    Raises
    ------
    ValueError
        On a pool outside 0..1000, Desperation outside 0..5, a negative
        Difficulty or a value that is not a whole number.
    """
    pool = check_int("pool", pool, 0, MAX_POOL)
    desperation = check_int("desperation", desperation, 0, MAX_DESPERATION)
    difficulty = check_int("difficulty", difficulty, 0)
    rules = HunterRules.require(rules)
    engine = rules.engine()
    nn, nd = engine.dice(pool, desperation)
    ways, classes, den = _sd.counts(engine, nn, nd, (difficulty,))
    return HunterOdds(pool=pool, difficulty=difficulty, normal_dice=nn, special_dice=nd, denominator=den,
                      class_ways=dict(zip(CLASSES, (int(w) for w in classes[0]))),
                      success_ways=_sd.success_ways(engine, ways), win_classes=_WIN_CLASSES,
                      desperation=desperation, rules=rules)


def table(pools, desperations, difficulties, rules: HunterRules = OFFICIAL, exact: bool = False,
          at_least=None):
    """A tidy odds table: one row per (pool, desperation, difficulty).

    Parameters
    ----------
    pools, desperations, difficulties : int, SPEC string or iterable of ints
        SPEC is ``7``, a range ``1-20`` or a list ``3,5,7``.
    rules : HunterRules
        Official rules by default.
    exact : bool
        False: float64 probabilities.  True: ``Fraction`` objects.
    at_least : None, int or SPEC string
        Adds a column ``p_at_least_N`` per N: the exact chance of N or more
        successes (pairs of 10s with their bonus).

    Returns
    -------
    pandas.DataFrame
        Columns ``pool, desperation, difficulty``, the six classes (summing
        to exactly 1), then ``p_win``, ``p_desperation_one`` and the
        ``p_at_least_N`` columns.
    """
    exact = check_bool("exact", exact)
    axes = {"pool": as_values("pool", pools, 0, MAX_POOL),
            "desperation": as_values("desperation", desperations, 0, MAX_DESPERATION),
            "difficulty": as_values("difficulty", difficulties, 0)}
    rules = HunterRules.require(rules)
    from analysis import at_least as _al

    df = _sd.tidy_table(axes, rules.engine, CLASSES, DERIVED, exact)
    return _al.add_columns(df, at_least, lambda p, n, d, top: odds(p, n, d, rules).successes,
                           ("pool", "desperation", "difficulty"), exact)


# ------------------------------------------------------------ reading a roll

@dataclass(frozen=True)
class RollReading(Reading):
    """What a Hunter roll that has landed means (``read_roll``)."""

    WIN_CLASSES = _WIN_CLASSES

    successes: int
    tens: int
    desperation_ones: int
    difficulty: int
    outcome: str

    __repr__ = _display.text
    _repr_html_ = _display.html


def read_roll(normal, desperation, difficulty: int, rules: HunterRules = OFFICIAL) -> RollReading:
    """Read rolled dice by the rules: successes, margin and outcome class.

    Parameters
    ----------
    normal, desperation : sequences of int
        Faces (1..10) shown by the normal dice and by the Desperation dice.
    difficulty : int
        Successes needed.

    Examples
    --------
    >>> read_roll([7, 8, 3], [1, 6], 3).outcome
    'overreach_or_despair'
    >>> read_roll([7, 2, 3], [1, 6], 3).outcome
    'despair'
    """
    normal = check_faces("normal", normal)
    desperation = check_faces("desperation", desperation)
    check_count("desperation", len(desperation), MAX_DESPERATION, "Desperation dice", "Desperation")
    difficulty = check_int("difficulty", difficulty, 0)
    engine = HunterRules.require(rules).engine()
    s, tens, d_tens, ones = engine.successes(normal, desperation, rules.success_face)
    cls = engine.classify(s, tens, d_tens, ones, difficulty)
    return RollReading(s, tens, ones, difficulty, CLASSES[cls])
