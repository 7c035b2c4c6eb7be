"""Vampire: The Requiem (1st edition) dice: 8+ succeeds, 10-again, counted exactly.

The dice are written as a mechanic file beside this module (``dice.toml``;
La Soif's Beast dice on them in ``soif.toml``) and counted by the one engine
(:mod:`analysis.engine.count`, its exploding walk): a rules object names its
file and its fields are the file's parameters (:meth:`RequiemRules.mechanic`),
each roll a cell of the file (:meth:`RequiemRules.cell`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from analysis.engine import count as _engine
from analysis.engine.exact import float_ratios, fractions_over
from analysis.engine.results import CellWays
from analysis.model.rules import Rules
from analysis.systems import counted as _counted
from analysis.model.validate import as_values, check_bool, check_int
from analysis.engine import display as _display

#: Lowest face that is a success.
SUCCESS_FACE = 8
#: Outcome classes of a plain Requiem roll, mutually exclusive, in table order.
CLASSES = ("dramatic_failure", "failure", "plain_success", "exceptional_success")
#: Columns of :func:`table`, in order.
TABLE_COLUMNS = ("pool",) + CLASSES + ("p_success",)
#: Columns of :func:`distribution_table`, in order.
DISTRIBUTION_COLUMNS = ("pool", "successes", "p_exactly", "p_at_least", "p_more")
#: Pools are refused beyond this size (and below its negative: a pool of
#: 0 or less, after penalties, rolls a chance die).
MAX_POOL = 200
#: The largest success count a distribution may be asked for.
MAX_SUCCESSES = 200
#: Default bound for the success distribution of :func:`odds`.
DEFAULT_MAX_SUCCESSES = 20


@dataclass(frozen=True)
@_counted.fields_from_file(__package__, file="dice.toml")
class RequiemRules(_counted.CountedRules, Rules):
    """A Requiem dice rule set.  Defaults: 1st edition (docs/rules.md); the fields are the parameters of
    this package's ``dice.toml`` (``again`` None, no again, is the file's 11).

    A rote action rerolls every die that fails its first roll (the reroll follows the again rule); a
    chance die is rerolled by it only with ``rote_chance_die`` (the rules leave it open), its reroll then
    the chance die's face (a 1 on it is the dramatic failure)."""

    @property
    def again_face(self) -> int:
        """Lowest face rolled again; 11 when there is no again."""
        return 11 if self.again is None else self.again

    @property
    def base_rolls(self) -> int:
        """Rolls per die before any again: 2 for a rote action, else 1."""
        return 2 if self.rote else 1

    def cell(self, roll: Roll) -> dict[str, int]:
        """The cell of the file a roll ``(dice, Beast dice, chance die?)`` is: its pool (0: a chance die)."""
        dice, _, chance = roll
        return {"pool": 0 if chance else dice}


OFFICIAL = RequiemRules()

#: One roll: ``(dice, Beast dice, chance die?)`` (a chance die is one die, a Beast die or not).
Roll = tuple[int, int, bool]


# ------------------------------------------------------------ counting


@lru_cache(maxsize=256)
def count_rolls(rolls: tuple[Roll, ...], max_successes: int, rules: RequiemRules) -> tuple[CellWays, ...]:
    """Exact ways of each roll, counted by the engine on the rules' file (each distinct roll once):
    the classes and columns exactly, each success count up to ``max_successes`` (the rest lying above)."""
    distinct = list(dict.fromkeys(rolls))
    ways = _engine.count_cells(rules.mechanic(), [rules.cell(r) for r in distinct], max_successes=max_successes)
    by_roll = dict(zip(distinct, ways))
    return tuple(by_roll[r] for r in rolls)


def clear_caches() -> None:
    """Forget every count kept (here and in the engine): the next counts start from scratch."""
    count_rolls.cache_clear()
    _engine.clear_caches()


def named_ways(ways: CellWays, rules: RequiemRules) -> dict[str, int]:
    """The ways of every class and column of a roll by name, over ``ways.denominator``: the file's
    classes, ``p_success`` (plain or exceptional success) and each column given by when
    (``p_beastly_critical`` with La Soif)."""
    mech = rules.mechanic().mechanic
    out = dict(zip(mech.classes, ways.class_ways))
    out["p_success"] = out["plain_success"] + out["exceptional_success"]
    out.update(zip((c.name for c in mech.flags), ways.column_ways))
    return out


def success_ways(ways: CellWays, max_successes: int) -> list[int]:
    """The ways of exactly ``s`` successes, ``s = 0..max_successes`` (zeros kept), over ``ways.denominator``."""
    return [ways.success_ways.get(s, 0) for s in range(max_successes + 1)]


def to_values(ways: Any, dens: Any, exact: bool) -> np.ndarray:
    """Ways over denominators (Python ints) as Fractions (``exact``) or the floats of those Fractions."""
    ways = np.asarray(ways, dtype=object)
    dens = np.asarray(dens, dtype=object)
    return fractions_over(ways, dens) if exact else float_ratios(ways, dens)


def check_max_successes(max_successes) -> int:
    return check_int("max_successes", max_successes, 0, MAX_SUCCESSES)


# ------------------------------------------------------------ public API


def _roll(pool: int) -> Roll:
    return (1, 0, True) if pool <= 0 else (pool, 0, False)


class AgainOddsMixin:
    """What plain Requiem and La Soif results share: the classes by name,
    the exact success distribution up to ``max_successes`` and its tail.
    A result holds ``ways`` (the engine's :class:`~analysis.engine.results.CellWays`) and ``rules``."""

    ways: CellWays  # declared for the type checker only: the dataclasses that mix this in hold them
    rules: RequiemRules
    max_successes: int

    def _p(self, name: str) -> Fraction:
        return Fraction(named_ways(self.ways, self.rules)[name], self.ways.denominator)

    dramatic_failure = property(lambda self: self.classes()["dramatic_failure"], doc="A chance die showing 1.")
    failure = property(
        lambda self: self.classes()["failure"], doc="No success, not dramatic (nor bestial, with La Soif)."
    )
    plain_success = property(
        lambda self: self.classes()["plain_success"], doc="Some successes, fewer than an exceptional success."
    )
    exceptional_success = property(
        lambda self: self.classes()["exceptional_success"], doc="At least ``exceptional_successes`` (5) successes."
    )

    @property
    def p_success(self) -> Fraction:
        """At least one success (plain or exceptional success): a derived column, not a class."""
        return self._p("p_success")

    @property
    def successes(self) -> dict:
        """``{s: Fraction}`` for ``s = 0..max_successes`` (exact, zeros kept)."""
        den = self.ways.denominator
        return {s: Fraction(w, den) for s, w in enumerate(success_ways(self.ways, self.max_successes))}

    @property
    def tail(self) -> Fraction:
        """Exact chance of more than ``max_successes`` successes."""
        return 1 - sum(self.successes.values(), Fraction(0))


@dataclass(frozen=True)
class RequiemOdds(AgainOddsMixin):
    """The exact odds of one plain Requiem roll.

    The four classes (``dramatic_failure``, ``failure``, ``plain_success``,
    ``exceptional_success``) are mutually exclusive and sum to exactly 1;
    ``successes`` gives the exact chance of each success count up to
    ``max_successes`` and ``tail`` the exact chance of more.
    """

    pool: int
    rules: RequiemRules
    dice: int
    chance: bool
    max_successes: int
    ways: CellWays

    def classes(self) -> dict:
        """The four classes as ``{name: Fraction}``, in table order."""
        return {name: self._p(name) for name in CLASSES}

    def _header(self) -> str:
        what = "a chance die" if self.chance else f"{self.dice} dice"
        return f"Requiem pool {self.pool}: {what}"

    def __str__(self) -> str:
        lines = [self._header()]
        if self.rules.changes():
            lines.append(f"rules: {self.rules.changes()}")
        for name, p in list(self.classes().items()) + [("p_success", self.p_success)]:
            lines.append(f"  {name:<20}{float(p):8.2%}   {p}")
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html


def odds(pool: int, rules: RequiemRules = OFFICIAL, max_successes: int = DEFAULT_MAX_SUCCESSES) -> RequiemOdds:
    """Exact odds of a plain Requiem roll.

    Parameters
    ----------
    pool : int
        Dice after modifiers, -200..200; 0 or less rolls a chance die.
    rules : RequiemRules
        1st edition by default (10-again).
    max_successes : int
        The success distribution is given exactly up to this count (0..200),
        the rest as an exact tail.

    Returns
    -------
    RequiemOdds

    Raises
    ------
    ValueError
        On a pool out of range or not a whole number, or bad rules.
    """
    pool = check_int("pool", pool, -MAX_POOL, MAX_POOL)
    rules = RequiemRules.require(rules)
    max_successes = check_max_successes(max_successes)
    roll = _roll(pool)
    (ways,) = count_rolls((roll,), max_successes, rules)
    return RequiemOdds(pool=pool, rules=rules, dice=roll[0], chance=roll[2], max_successes=max_successes, ways=ways)


def table(pools, rules: RequiemRules = OFFICIAL, exact: bool = False) -> pd.DataFrame:
    """A tidy odds table of plain Requiem rolls: one row per pool.

    Parameters
    ----------
    pools : int, SPEC string or iterable of ints
        SPEC is ``7``, a range ``1-20`` or a list ``3,5,7``; as a list or
        int a pool may be 0 or less (a chance die).
    rules : RequiemRules
    exact : bool
        False: float64 probabilities; True: ``Fraction`` objects.

    Returns
    -------
    pandas.DataFrame
        Columns ``pool, dramatic_failure, failure, plain_success,
        exceptional_success, p_success``.
    """
    exact = check_bool("exact", exact)
    pools = as_values("pool", pools, -MAX_POOL, MAX_POOL)
    rules = RequiemRules.require(rules)
    rolls = tuple(_roll(p) for p in pools)
    counted = count_rolls(rolls, rules.exceptional_successes - 1, rules)
    ways, dens = [], []
    for w in counted:
        named = named_ways(w, rules)
        ways.append([named[c] for c in CLASSES + ("p_success",)])
        dens.append([w.denominator])
    values = to_values(ways, dens, exact)
    cols = {"pool": np.array(pools, dtype=np.int64)}
    for j, name in enumerate(CLASSES + ("p_success",)):
        cols[name] = values[:, j]
    return pd.DataFrame(cols)


def distribution_table(
    pools, max_successes: int = DEFAULT_MAX_SUCCESSES, rules: RequiemRules = OFFICIAL, exact: bool = False
) -> pd.DataFrame:
    """The exact distribution of successes: one row per (pool, successes).

    Columns ``pool, successes, p_exactly, p_at_least, p_more``; ``p_more``
    on the last row of a pool (``successes == max_successes``) is the exact
    tail, so ``p_exactly`` summed plus that tail is exactly 1.
    """
    exact = check_bool("exact", exact)
    pools = as_values("pool", pools, -MAX_POOL, MAX_POOL)
    max_successes = check_max_successes(max_successes)
    rules = RequiemRules.require(rules)
    counted = count_rolls(tuple(_roll(p) for p in pools), max_successes, rules)
    return distribution_frame({"pool": pools}, counted, max_successes, exact)


def distribution_frame(keys: dict, counted, max_successes: int, exact: bool) -> pd.DataFrame:
    """Rows (key..., successes) with p_exactly, p_at_least and p_more.

    Parameters
    ----------
    keys : dict
        ``{column: values}``, one value per roll of ``counted``.
    counted : sequence of CellWays
        One per roll, each counted up to ``max_successes``.
    max_successes : int
        Rows for ``successes = 0..max_successes`` per roll.
    exact : bool
        True: Fractions; False: floats.

    Returns
    -------
    pandas.DataFrame
    """
    exact = check_bool("exact", exact)
    n_s = max_successes + 1
    ways, dens = [], []
    for w in counted:
        rows, rest = [], w.denominator
        for exactly in success_ways(w, max_successes):  # at least s, exactly s, more than s
            rows.append((exactly, rest, rest - exactly))
            rest -= exactly
        ways.append(rows)
        dens.append([[w.denominator]])
    values = to_values(ways, dens, exact).reshape(-1, 3)
    cols = {name: np.repeat(np.array(v, dtype=np.int64), n_s) for name, v in keys.items()}
    cols["successes"] = np.tile(np.arange(n_s, dtype=np.int64), len(counted))
    for j, name in enumerate(("p_exactly", "p_at_least", "p_more")):
        cols[name] = values[:, j]
    return pd.DataFrame(cols)
