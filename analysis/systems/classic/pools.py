"""Classic (V20-style) d10 pools against a difficulty: botch, failure, success, counted exactly.

The rules are the shipped mechanic file (``mechanic.toml`` beside this
module) and the counting is the mechanic engine's
(:mod:`analysis.engine.count`); this module keeps the classic API:
its argument checks, result types and table columns.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from analysis.engine import at_least as _al, distribution
from analysis.engine.exact import float_ratios, fractions_over
from analysis.engine.results import MechanicOdds
from analysis.systems.counted import fields_from_file
from analysis.engine.count import count_cells, read_roll, rules_of
from analysis.engine.reading import MechanicReading
from analysis.model.spec import load
from analysis.model.rules import Rules
from analysis.model.validate import InputError, as_values, check_bool, check_int, materialise

#: The three outcomes of a classic roll, mutually exclusive, in table order.
CLASSES = ("botch", "failure", "success")
#: Columns of :func:`table`, in order.
TABLE_COLUMNS = ("pool", "difficulty") + CLASSES + ("mean_successes",)
#: Pools above this are refused: no table needs them.
MAX_POOL = 200
MIN_DIFFICULTY, MAX_DIFFICULTY = 2, 10


@dataclass(frozen=True)
@fields_from_file("analysis.systems.classic", per_roll=("specialty",))
class ClassicRules(Rules):
    """A classic rule set.  The defaults are the classic rules (docs/rules.md); the fields are the
    parameters of this package's ``mechanic.toml`` (its ``specialty`` is an option of one roll)."""

    if TYPE_CHECKING:  # the field comes from the file (fields_from_file)
        ones_cancel: bool

        def __init__(self, **fields: Any) -> None: ...


OFFICIAL = ClassicRules()


def die(difficulty: int, specialty: bool = False, ones_cancel: bool = True):
    """The d10 of a classic roll as (faces, values), int64 arrays of 4.

    ``faces``: how many faces are a one, another failure, a success below
    ten, a ten.  ``values``: what each adds to the net successes (a one -1
    when 1s cancel, a ten 2 with a specialty).
    """
    faces = np.array([1, difficulty - 2, 10 - difficulty, 1], dtype=np.int64)
    values = np.array([-1 if ones_cancel else 0, 0, 1, 2 if specialty else 1], dtype=np.int64)
    return faces, values


@lru_cache(maxsize=1)
def mechanic():
    """The classic mechanic file shipped beside this module (:class:`analysis.model.spec.Mechanic`)."""
    return load(Path(__file__).with_name("mechanic.toml"))


def mechanic_rules(specialty: bool = False, rules: ClassicRules = OFFICIAL):
    """The engine's rule set of the classic mechanic for a specialty and a classic rule set."""
    return rules_of(mechanic(), {"ones_cancel": rules.ones_cancel, "specialty": specialty})


@lru_cache(maxsize=256)
def _ways(pools: tuple, difficulties: tuple, specialty: bool, ones_cancel: bool) -> tuple:
    """The engine's exact ways (:class:`analysis.engine.count.CellWays`) of each (pool, difficulty)."""
    rules = mechanic_rules(specialty, ClassicRules(ones_cancel=ones_cancel))
    cells = [{"pool": p, "difficulty": d} for p in pools for d in difficulties]
    return tuple(count_cells(rules, cells))


@lru_cache(maxsize=256)
def _table_ways(pools: tuple, difficulties: tuple, specialty: bool, ones_cancel: bool) -> np.ndarray:
    """Ways (botch, failure, success, summed net successes) per (pool, difficulty): Python ints, read-only."""
    cells = _ways(pools, difficulties, specialty, ones_cancel)
    out = np.array(
        [list(_by_class(w).values()) + [sum(s * n for s, n in w.success_ways.items())] for w in cells], dtype=object
    ).reshape(len(pools), len(difficulties), 4)
    out.setflags(write=False)
    return out


def _by_class(ways) -> dict:
    """``{class: ways}`` in :data:`CLASSES` order."""
    named = dict(zip(mechanic().classes, ways.class_ways))
    return {o: named[o] for o in CLASSES}


def _check_flag(name: str, value) -> bool:
    return check_bool(name, value)


def check_difficulty(value, name: str = "difficulty") -> int:
    """A classic difficulty, 2..10."""
    return check_int(name, value, MIN_DIFFICULTY, MAX_DIFFICULTY)


def odds(pool: int, difficulty: int = 6, specialty: bool = False, rules: ClassicRules = OFFICIAL) -> MechanicOdds:
    """Exact odds of a classic roll.

    Parameters
    ----------
    pool : int
        Dice rolled, 0..200 (0: the action fails without a roll).
    difficulty : int
        Lowest face that is a success, 2..10 (default 6).
    specialty : bool
        A 10 counts as two successes.
    rules : ClassicRules
        The classic rules (docs/rules.md) (1s cancel successes).

    Returns
    -------
    analysis.engine.results.MechanicOdds
        The one odds type of a counted roll: exact Fractions for botch,
        failure and success (``odds.botch``, ``odds.classes()``), ``p_success``,
        the distribution and mean of net successes, ``odds.at_least(n)``;
        ``odds.specialty`` the specialty counted.

    Raises
    ------
    ValueError
        On a negative or too large pool, a difficulty outside 2..10, or a
        value that is not a whole number.
    """
    pool = check_int("pool", pool, 0, MAX_POOL)
    difficulty = check_difficulty(difficulty)
    specialty = _check_flag("specialty", specialty)
    rules = ClassicRules.require(rules)
    (ways,) = _ways((pool,), (difficulty,), specialty, rules.ones_cancel)
    return MechanicOdds.of(mechanic_rules(specialty, rules), {"pool": pool, "difficulty": difficulty}, ways)


def check_faces(name: str, dice) -> tuple:
    """A list of rolled d10 faces, each 1..10."""
    dice = tuple(materialise(name, dice, "a list of faces like [8, 6, 7, 9]", MAX_POOL))
    if len(dice) > MAX_POOL:
        raise InputError(name, f": at most {MAX_POOL} dice, got {len(dice)}")
    return tuple(check_int(f"each face of {name}", f, 1, 10) for f in dice)


def read_pool(
    dice,
    difficulty: int = 6,
    specialty: bool = False,
    rules: ClassicRules = OFFICIAL,
    *,
    ones_cancel: bool | None = None,
) -> MechanicReading:
    """Read a roll of given dice: net successes, the dice showing each mark and the outcome.

    Parameters
    ----------
    dice : sequence of int
        The faces rolled, each 1..10.
    difficulty : int
        2..10 (default 6).
    specialty : bool
        A 10 counts as two successes.
    rules : ClassicRules
        The classic rules (docs/rules.md) (1s cancel successes).
    ones_cancel : bool, optional
        Overrides ``rules.ones_cancel`` (damage rolls pass False).

    Returns
    -------
    analysis.engine.reading.MechanicReading
        The one reading of a roll, read by the classic mechanic file: ``successes`` the net successes
        (never below 0), ``outcome`` botch, failure or success, ``marks`` the dice showing each mark
        (``marks["one"]``, ``marks["success"]``, ``marks["ten"]``).
    """
    dice = check_faces("dice", dice)
    difficulty = check_difficulty(difficulty)
    specialty = _check_flag("specialty", specialty)
    rules = ClassicRules.require(rules)
    if ones_cancel is not None:
        rules = ClassicRules(ones_cancel=_check_flag("ones_cancel", ones_cancel))
    return read_roll(mechanic_rules(specialty, rules), {"die": list(dice)}, difficulty=difficulty)


def table(
    pools, difficulties=6, specialty: bool = False, rules: ClassicRules = OFFICIAL, exact: bool = False, at_least=None
) -> pd.DataFrame:
    """A tidy odds table: one row per (pool, difficulty).

    Parameters
    ----------
    pools, difficulties : int, SPEC string or iterable of ints
        SPEC is ``7``, a range ``1-10`` or a list ``3,5,7``; difficulties 2..10.
    specialty : bool
        A 10 counts as two successes.
    rules : ClassicRules
        The classic rules (docs/rules.md).
    exact : bool
        False: float64.  True: ``Fraction`` objects.
    at_least : None, int or SPEC string
        Adds a column ``p_at_least_N`` per N: the exact chance of N or more
        successes left after 1s cancel (``p_at_least_1`` is ``success``).

    Returns
    -------
    pandas.DataFrame
        Columns ``pool, difficulty, botch, failure, success`` (the three
        classes, summing to 1; ``success`` is the chance to succeed), then
        ``mean_successes`` and the ``p_at_least_N`` columns.
    """
    exact = check_bool("exact", exact)
    pools = as_values("pool", pools, 0, MAX_POOL)
    diffs = as_values("difficulty", difficulties, MIN_DIFFICULTY, MAX_DIFFICULTY)
    specialty = _check_flag("specialty", specialty)
    rules = ClassicRules.require(rules)

    if at_least is not None:  # before any cell is counted
        _al.check_size(len(pools) * len(diffs), _al.parse(at_least))
    # (pool, difficulty, botch/failure/success/summed successes), Python ints
    ways = _table_ways(tuple(pools), tuple(diffs), specialty, rules.ones_cancel)
    dens = np.array([10**p for p in pools], dtype=object)[:, None, None]
    probs, sums = ways[..., :3], ways[..., 3]
    if exact:
        probs = fractions_over(probs, dens)
        means = np.array([[Fraction(int(w), 10**p) for w in row] for p, row in zip(pools, sums)], dtype=object)
    else:  # each float(Fraction), correctly rounded (10**16 and beyond is not exact in float64)
        probs = float_ratios(probs, dens)
        means = float_ratios(sums, dens[..., 0])
    values = np.concatenate([probs, means[..., None]], axis=-1)
    grid = np.array(np.meshgrid(pools, diffs, indexing="ij")).reshape(2, -1)
    values = values.reshape(-1, 4)
    df = pd.DataFrame(
        {
            "pool": grid[0],
            "difficulty": grid[1],
            "botch": values[:, 0],
            "failure": values[:, 1],
            "success": values[:, 2],
            "mean_successes": values[:, 3],
        }
    )

    if at_least is None:
        return df
    # the ways the table was made of (cached): each cell's successes, none counted again
    cells = dict(zip(itertools.product(pools, diffs), _ways(tuple(pools), tuple(diffs), specialty, rules.ones_cancel)))

    def distribution(p, d, top):
        w = cells[(p, d)]
        return w.success_ways, w.denominator

    return _al.add_columns(df, at_least, distribution, ("pool", "difficulty"), exact)


def distribution_table(
    pools,
    difficulties=6,
    specialty: bool = False,
    rules: ClassicRules = OFFICIAL,
    exact: bool = False,
    max_successes=None,
    check_only: bool = False,
):
    """The exact distribution of the successes left after 1s cancel: one row per (pool, difficulty,
    successes) (:mod:`analysis.engine.distribution`); its ``mean_successes`` is the table's."""
    return distribution.mechanic_table(
        mechanic_rules(_check_flag("specialty", specialty), ClassicRules.require(rules)),
        {"pool": pools, "difficulty": difficulties},
        exact=exact,
        max_successes=max_successes,
        check_only=check_only,
    )
