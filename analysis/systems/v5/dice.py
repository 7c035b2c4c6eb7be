"""V5 dice: the rules, the outcome classes, exact counts of a pool, and reading rolled dice."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from kernels import v5 as _k

from analysis.rules import Rules, rule
from analysis import exact as _exact
from analysis.validate import check_count, check_faces, check_int
from analysis import display as _display
from analysis.special_dice import Reading, binomials  # binomials: used by V5 kernels callers

#: The six outcome classes, mutually exclusive, in table-column order.
CLASSES = (
    "total_failure",
    "failure",
    "plain_win",
    "critical_win",
    "messy_critical",
    "bestial_failure",
)
#: Columns of :func:`table`, in order.
TABLE_COLUMNS = ("pool", "hunger", "difficulty") + CLASSES + ("p_win",)
WIN_CLASSES = ("plain_win", "critical_win", "messy_critical")
MAX_HUNGER = 5
#: Pools above this are refused: the count grows as pool**2 and a bigger
#: pool has no use at a table.
MAX_POOL = 1000


@dataclass(frozen=True)
class V5Rules(Rules):
    """A V5 rule set.  The defaults are the official rules (docs/rules.md).

    Attributes
    ----------
    success_face : int
        Lowest face that is a success (2..10); official 6.
    crit_bonus : int
        Bonus successes for each pair of 10s, on any dice (0..20); official 2.
    messy_hunger_tens : int
        Hunger-die 10s a critical win needs to be messy (1 or 2); official 1.
    bestial_hunger_ones : int
        Hunger-die 1s a failure needs to be bestial (1 or 2); official 1.
    hunger_one_taints_win : bool
        House rule: a win that is not critical but shows that many Hunger 1s
        counts as a failure (at best a win at a cost).  Official: False (a
        Hunger 1 on a win does nothing).
    hunger_replaces_dice : bool
        Official True: Hunger dice replace normal dice (``min(hunger, pool)``
        of them).  False: the Hunger dice are added to the pool.
    """

    success_face: int = rule(6, range=(2, 10), help="Lowest face that is a success (2..10); official 6.")
    crit_bonus: int = rule(2, range=(0, 20),
                           help="Bonus successes for each pair of 10s, on any dice (0..20); official 2.")
    messy_hunger_tens: int = rule(1, range=(1, 2),
                                  help="Hunger-die 10s a critical win needs to be messy (1 or 2); official 1.")
    bestial_hunger_ones: int = rule(1, range=(1, 2),
                                    help="Hunger-die 1s a failure needs to be bestial (1 or 2); official 1.")
    hunger_one_taints_win: bool = rule(
        False, help="House rule: a plain win showing bestial_hunger_ones Hunger 1s is a failure "
             "(at best a win at a cost); official false.")
    hunger_replaces_dice: bool = rule(
        True, help="Hunger dice replace normal dice (official true); false: they are added to the pool.")

    def dice(self, pool: int, hunger: int) -> tuple[int, int]:
        """(normal dice, Hunger dice) rolled for ``pool`` at ``hunger``."""
        if self.hunger_replaces_dice:
            h = min(hunger, pool)
            return pool - h, h
        return pool, hunger

    @property
    def normal_faces(self) -> tuple[int, int, int]:
        """Faces of a normal die: (failures, successes below ten, tens)."""
        s = self.success_face
        return (s - 1, 10 - s, 1)

    @property
    def hunger_faces(self) -> tuple[int, int, int, int]:
        """Faces of a Hunger die: (ones, other failures, successes below ten, tens)."""
        s = self.success_face
        return (1, s - 2, 10 - s, 1)


OFFICIAL = V5Rules()


@lru_cache(maxsize=4096)
def counts(n_normal: int, n_hunger: int, rules: V5Rules, difficulties: tuple, want_ways: bool):
    """Exact (ways by (s, pair, e, o) or None, ways by class per difficulty, denominator)."""
    n = n_normal + n_hunger
    size_s = n + rules.crit_bonus * (n // 2) + 1
    w_n = np.array(rules.normal_faces, dtype=np.int64)
    w_h = np.array(rules.hunger_faces, dtype=np.int64)
    diffs = np.array(difficulties, dtype=np.int64)
    n_ways = size_s * 2 * (_k.CAP + 1) ** 2

    def compute(mod: int) -> np.ndarray:
        ways = np.zeros((size_s, 2, _k.CAP + 1, _k.CAP + 1), dtype=np.int64)
        _k.v5_pool_ways(n_normal, n_hunger, w_n, w_h, rules.crit_bonus, mod,
                        binomials(n + 1, mod), ways)
        classes = np.empty((len(diffs), _k.N_CLASSES), dtype=np.int64)
        _k.v5_classify(ways, diffs, rules.messy_hunger_tens, rules.bestial_hunger_ones,
                       int(rules.hunger_one_taints_win), mod, classes)
        if want_ways:
            return np.concatenate([ways.ravel(), classes.ravel()])
        return classes.ravel()

    denominator = 10**n
    bound = _k.v5_pool_ways_bound(n_normal, n_hunger, w_n, w_h, n + 1)
    if _exact.wants_big_ints(bound):  # big pools: Python ints by generating functions, no primes
        from analysis import special_dice as _sd
        ways = _sd.big_pool_ways(n_normal, n_hunger, w_n, w_h, rules.crit_bonus) if want_ways else None
        classes = (_sd.classify_big(ways, diffs, *_class_params(rules), _k.N_CLASSES) if want_ways else
                   _sd.big_pool_classes(n_normal, n_hunger, w_n, w_h, rules.crit_bonus, diffs,
                                        *_class_params(rules), _k.N_CLASSES))
    else:
        flat = _exact.count(compute, bound)
        ways = flat[:n_ways].reshape(size_s, 2, _k.CAP + 1, _k.CAP + 1) if want_ways else None
        classes = flat[n_ways if want_ways else 0:].reshape(len(diffs), _k.N_CLASSES)
    for a in (ways, classes):
        if a is not None:
            a.setflags(write=False)
    return ways, classes, denominator


def check_roll(pool, hunger, difficulty):
    pool = check_int("pool", pool, 0, MAX_POOL)
    hunger = check_int("hunger", hunger, 0, MAX_HUNGER)
    difficulty = check_int("difficulty", difficulty, 0)
    return pool, hunger, difficulty


@lru_cache(maxsize=64)
def _class_params(rules: V5Rules):
    """(mark bonus, class table) of the engine's class lookup for these rules."""
    table = _k.v5_class_table(rules.messy_hunger_tens, rules.bestial_hunger_ones,
                              int(rules.hunger_one_taints_win))
    bonus = _k.v5_mark_bonus()
    for a in (table, bonus):
        a.setflags(write=False)
    return bonus, table


def classes_of(ways, difficulty: int, rules: V5Rules) -> list:
    """Ways per class from ways by (successes, pair, Hunger tens, Hunger ones), exactly."""
    from kernels.special import classify_one

    bonus, table = _class_params(rules)
    out = [0] * len(CLASSES)
    for (s, pair, ec, oc), w in np.ndenumerate(ways):
        if w:
            out[classify_one(s, pair, ec, oc, difficulty, bonus, table)] += int(w)
    return out



# ------------------------------------------------------------ reading a roll

@dataclass(frozen=True)
class RollReading(Reading):
    """What a V5 roll that has landed means (``read_roll``)."""

    WIN_CLASSES = WIN_CLASSES

    successes: int
    tens: int
    hunger_tens: int
    hunger_ones: int
    difficulty: int
    outcome: str

    __repr__ = _display.text
    _repr_html_ = _display.html


def read_roll(normal, hunger, difficulty: int, rules: V5Rules = OFFICIAL) -> RollReading:
    """Read rolled dice by the rules: successes, margin and outcome class.

    Parameters
    ----------
    normal, hunger : sequences of int
        Faces (1..10) shown by the normal dice and by the Hunger dice.
    difficulty : int
        Successes needed.

    Examples
    --------
    >>> read_roll([10, 5, 7, 2], [10, 1], 4).outcome
    'messy_critical'
    """
    normal = check_faces("normal", normal)
    hunger = check_faces("hunger", hunger)
    check_count("hunger", len(hunger), MAX_HUNGER, "Hunger dice", "Hunger")
    difficulty = check_int("difficulty", difficulty, 0)
    rules = V5Rules.require(rules)
    from kernels.special import CAP, classify_one

    faces = normal + hunger
    tens = faces.count(10)
    successes = sum(f >= rules.success_face for f in faces) + rules.crit_bonus * (tens // 2)
    h_tens, h_ones = hunger.count(10), hunger.count(1)
    bonus, table = _class_params(rules)
    cls = classify_one(successes, int(tens >= 2), min(h_tens, CAP), min(h_ones, CAP), difficulty, bonus, table)
    outcome = CLASSES[cls]
    return RollReading(successes, tens, h_tens, h_ones, difficulty, outcome)
