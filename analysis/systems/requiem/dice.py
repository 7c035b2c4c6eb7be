"""Vampire: The Requiem (1st edition) dice: 8+ succeeds, 10-again, counted exactly."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.model.rules import Rules, rule
from analysis.model.validate import as_values, check_bool, check_int
from analysis.engine import display as _display
from analysis.engine.again import Counts, count_rolls, distribution_ways, to_values, truncate

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
class RequiemRules(Rules):
    """A Requiem dice rule set.  Defaults: 1st edition (docs/rules.md).

    Attributes
    ----------
    again : int or None
        Faces from this one up are rolled again and the reroll adds:
        10 (10-again, the default), 9 (9-again), 8 (8-again), or None for no
        again at all.
    rote : bool
        Rote action: every die that fails on the first roll is rolled once
        more (the reroll follows the again rule).  Default False.
    chance_die_again : bool
        1st edition (default True): a chance die's 10 is rolled again under
        the again rule (the reroll is a normal die, 8+ succeeds).
        False (2nd edition): it is not.
    rote_chance_die : bool
        Whether a rote action also rerolls a failed chance die (1..9) once;
        the reroll is then the chance die's face (a 1 on it is the dramatic
        failure).  Default False: the rules leave it open, a chance die is
        rolled once.
    exceptional_successes : int
        Successes that make an exceptional success (1..20); default 5.
    """

    again: int | None = rule(
        10,
        choices=(10, 9, 8),
        none="no again",
        help="Faces from this one up are rolled again and add: 10 (default), 9, 8, or none for no again.",
    )
    rote: bool = rule(
        False, help="Rote action: every die that fails its first roll is rolled once more; default false."
    )
    chance_die_again: bool = rule(
        True, help="A chance die's 10 is rolled again (1st edition, default true); false as in 2nd edition."
    )
    rote_chance_die: bool = rule(False, help="A rote action also rerolls a failed chance die once; default false.")
    exceptional_successes: int = rule(
        5, range=(1, 20), help="Successes that make an exceptional success (1..20); default 5."
    )

    @property
    def again_face(self) -> int:
        """Lowest face rolled again; 11 when there is no again."""
        return 11 if self.again is None else self.again

    @property
    def base_rolls(self) -> int:
        """Rolls per die before any again: 2 for a rote action, else 1."""
        return 2 if self.rote else 1

    def _engine(self) -> tuple:
        """The knobs the counting engine (:func:`analysis.engine.again.count_rolls`) needs, as a hashable key."""
        return (
            SUCCESS_FACE,
            self.again_face,
            self.rote,
            self.chance_die_again,
            self.rote_chance_die,
            getattr(self, "beastly_ten_successes", 2),
            getattr(self, "bestial_counts_rerolled_ones", False),
        )


OFFICIAL = RequiemRules()


# ------------------------------------------------------------ classes of the counts


def class_ways(counts: Counts, exceptional: int) -> tuple[list, int]:
    """Integer ways of the classes over one denominator.

    Returns ``([dramatic, bestial, failure, plain success, exceptional, beastly,
    p_success], denominator)``; the first five are mutually exclusive and
    sum to the denominator.
    """
    k = exceptional - 1
    den = 10 ** (counts.scale + k)
    up = 10**k
    zero = counts.success_ways[0] * up
    dramatic = counts.dramatic * up
    bestial = counts.bestial * up
    success = sum(counts.success_ways[s] * 10 ** (k - s) for s in range(1, k + 1))
    return (
        [dramatic, bestial, zero - dramatic - bestial, success, den - zero - success, counts.beastly * up, den - zero],
        den,
    )


def check_max_successes(max_successes) -> int:
    return check_int("max_successes", max_successes, 0, MAX_SUCCESSES)


# ------------------------------------------------------------ public API


def _roll(pool: int) -> tuple:
    return (1, 0, True) if pool <= 0 else (pool, 0, False)


class AgainOddsMixin:
    """What plain Requiem and La Soif results share: the classes by name,
    the exact success distribution up to ``max_successes`` and its tail.
    A result holds ``counts`` (a :class:`Counts`) and ``rules``."""

    counts: Counts  # declared for the type checker only: the dataclasses that mix this in hold it

    def _ways(self):
        return class_ways(self.counts, self.rules.exceptional_successes)

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
        ways, den = self._ways()
        return Fraction(ways[6], den)

    @property
    def successes(self) -> dict:
        """``{s: Fraction}`` for ``s = 0..max_successes`` (exact, zeros kept)."""
        return {s: Fraction(w, 10 ** (s + self.counts.scale)) for s, w in enumerate(self.counts.success_ways)}

    @property
    def tail(self) -> Fraction:
        """Exact chance of more than ``max_successes`` successes."""
        _, _, more, den = distribution_ways(self.counts)
        return Fraction(more[-1], den)


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
    counts: Counts

    def classes(self) -> dict:
        """The four classes as ``{name: Fraction}``, in table order."""
        ways, den = self._ways()
        return {
            "dramatic_failure": Fraction(ways[0], den),
            "failure": Fraction(ways[2], den),
            "plain_success": Fraction(ways[3], den),
            "exceptional_success": Fraction(ways[4], den),
        }

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
    s_max = max(check_max_successes(max_successes), rules.exceptional_successes - 1)
    roll = _roll(pool)
    (counts,) = count_rolls((roll,), s_max, rules._engine())
    if s_max > max_successes:
        counts = truncate(counts, max_successes)
    return RequiemOdds(pool=pool, rules=rules, dice=roll[0], chance=roll[2], max_successes=max_successes, counts=counts)


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
    counts = count_rolls(rolls, rules.exceptional_successes - 1, rules._engine())
    ways, dens = [], []
    for c in counts:
        w, d = class_ways(c, rules.exceptional_successes)
        ways.append([w[0], w[2], w[3], w[4], w[6]])
        dens.append([d])
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
    counts = count_rolls(tuple(_roll(p) for p in pools), max_successes, rules._engine())
    return distribution_frame({"pool": pools}, counts, max_successes, exact)


def distribution_frame(keys: dict, counts, max_successes: int, exact: bool) -> pd.DataFrame:
    """Rows (key..., successes) with p_exactly, p_at_least and p_more.

    Parameters
    ----------
    keys : dict
        ``{column: values}``, one value per roll of ``counts``.
    counts : sequence of Counts
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
    for c in counts:
        exactly, at_least, more, den = distribution_ways(c)
        ways.append(list(zip(exactly, at_least, more)))
        dens.append([[den]])
    values = to_values(ways, dens, exact).reshape(-1, 3)
    cols = {name: np.repeat(np.array(v, dtype=np.int64), n_s) for name, v in keys.items()}
    cols["successes"] = np.tile(np.arange(n_s, dtype=np.int64), len(counts))
    for j, name in enumerate(("p_exactly", "p_at_least", "p_more")):
        cols[name] = values[:, j]
    return pd.DataFrame(cols)
