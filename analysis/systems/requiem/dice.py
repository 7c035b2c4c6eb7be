"""Vampire: The Requiem (1st edition) dice: 8+ succeeds, 10-again, counted exactly.

The dice are written as a mechanic file beside this module (``dice.toml``;
La Soif's Beast dice on them in ``soif.toml``) and counted by the one engine
(:mod:`analysis.engine.count`, its exploding walk): a rules object names its
file and its fields are the file's parameters (:meth:`RequiemRules.mechanic`),
each roll a cell of the file (:meth:`RequiemRules.cell`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from analysis.engine import count as _engine
from analysis.engine.exact import ratios
from analysis.engine.results import CellWays, MechanicOdds
from analysis.model.rules import Rules
from analysis.systems import counted as _counted
from analysis.model.validate import as_values, check_bool, check_int

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


def check_max_successes(max_successes) -> int:
    return check_int("max_successes", max_successes, 0, MAX_SUCCESSES)


# ------------------------------------------------------------ public API


def _roll(pool: int) -> Roll:
    return (1, 0, True) if pool <= 0 else (pool, 0, False)


def odds(pool: int, rules: RequiemRules = OFFICIAL, max_successes: int = DEFAULT_MAX_SUCCESSES) -> MechanicOdds:
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
    analysis.engine.results.MechanicOdds
        The one odds type of a counted roll, of ``dice.toml``'s cell for this pool (pool 0: a chance
        die): the four classes by name, ``p_success``, ``successes`` up to ``max_successes`` (every
        count, zeros kept) and the exact ``tail``; ``odds.pool`` the pool asked, ``odds.dice`` and
        ``odds.chance`` the roll built.

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
    return MechanicOdds.of(rules.mechanic(), rules.cell(roll), ways, asked=asked(pool, roll))


def asked(pool: int, roll: Roll, **more: object) -> dict[str, object]:
    """What a Requiem odds names beside its cell: the pool asked (``more``: La Soif's Soif, tempting,
    frenzy) and the roll built (the dice rolled, the chance die), read off it by name (``odds.dice``)."""
    dice, beast, chance = roll
    out: dict[str, object] = {"pool": pool, **more, "dice": dice}
    if more:  # La Soif: the Beast dice among them (a chance die at Soif 1+ is one)
        out.update(beast_dice=beast, normal_dice=dice - beast)
    out["chance"] = chance
    return out


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
    values = ratios(ways, dens, exact)
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
    values = ratios(ways, dens, exact).reshape(-1, 3)
    cols = {name: np.repeat(np.array(v, dtype=np.int64), n_s) for name, v in keys.items()}
    cols["successes"] = np.tile(np.arange(n_s, dtype=np.int64), len(counted))
    for j, name in enumerate(("p_exactly", "p_at_least", "p_more")):
        cols[name] = values[:, j]
    return pd.DataFrame(cols)
