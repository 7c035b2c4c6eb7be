"""V5 (Vampire: The Masquerade 5th edition) rolls with Hunger dice, counted exactly: odds, tables, Remorse, frenzy."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd

from analysis.engine import at_least as _al, display as _display, distribution, exact as _exact, strategy_lists as _st
from analysis.engine.exact import fractions_over
from analysis.engine.results import MechanicOdds
from analysis.engine import count as _engine, willpower as _mwp
from analysis.engine.strategy import strategy_of
from analysis.systems.v5 import willpower as _wp
from analysis.systems.v5.dice import (
    CLASSES,
    MAX_HUNGER,
    MAX_POOL,
    OFFICIAL,
    TABLE_COLUMNS,  # noqa: F401 (re-exported: roll is the module users import)
    WIN_CLASSES,  # noqa: F401 (re-exported)
    V5Rules,
    check_roll,
    mechanic,  # noqa: F401 (re-exported)
    mechanic_rules,
    most_successes,
    read_roll,  # noqa: F401 (re-exported)
)
from analysis.model.validate import as_values, check_bool, check_cells, check_int


def odds(pool: int, hunger: int, difficulty: int, rules: V5Rules = OFFICIAL, strategy=None) -> MechanicOdds:
    """Exact odds of a V5 roll, with or without a Willpower reroll.

    Parameters
    ----------
    pool : int
        Dice in the pool after modifiers (0..1000).
    hunger : int
        The vampire's Hunger, 0..5.
    difficulty : int
        Successes needed to win (>= 0).
    rules : V5Rules
        Official rules by default.
    strategy : None, str or analysis.engine.strategy.Strategy
        A Willpower strategy (``reroll_failures``, ``maximize_win``,
        ``maximize_critical``, ``avoid_messy``, or ``willpower.optimal(...)``):
        the odds are then those after the strategy's reroll, and
        ``willpower_spent`` says how often it rerolls.

    Returns
    -------
    analysis.engine.results.MechanicOdds
        The one odds type of a counted roll: exact Fractions for the six
        outcome classes (``odds.messy_critical``), ``p_win``, the
        distributions of successes and margin and their means;
        ``odds.normal_dice`` and ``odds.hunger_dice`` the dice rolled (see
        also :func:`bestial_total_failure`).

    Raises
    ------
    ValueError
        On a negative pool, Hunger outside 0..5, a negative Difficulty or a
        value that is not a whole number.
    """
    pool, hunger, difficulty = check_roll(pool, hunger, difficulty)
    rules = V5Rules.require(rules)
    nn, nh = rules.dice(pool, hunger)
    if strategy is None or strategy == "none":  # "none": no Willpower spent
        strategy = None
    else:
        strategy = strategy_of(strategy, _wp.STRATEGIES)
    ways = _cell_ways(pool, hunger, _reachable(difficulty, nn + nh, rules), rules, strategy)
    cell = {"pool": pool, "hunger": hunger, "difficulty": difficulty}
    return MechanicOdds.of(mechanic_rules(rules), cell, ways, strategy.name if strategy else None)


def bestial_total_failure(odds: MechanicOdds) -> Fraction:
    """A flag of a V5 roll's odds, not a class: the chance of a bestial failure that also rolled no
    success (bestial takes precedence over total failure in the classes; this is the part of
    ``bestial_failure`` that would otherwise be a total failure)."""
    if odds.values["difficulty"] == 0:  # every roll wins
        return Fraction(0)
    # no success and not a win: a bestial failure or a total failure (the only two such classes)
    return odds.successes.get(0, Fraction(0)) - odds.probability("total_failure")


def _reachable(difficulty: int, dice: int, rules: V5Rules) -> int:
    """The Difficulty the engine counts: a Difficulty above every success count reads as one above it."""
    return min(difficulty, most_successes(dice, rules) + 1)


def engine_strategy(strategy) -> _mwp.Strategy:
    """The strategy the one Willpower engine counts for a V5 strategy (a name of ``willpower.STRATEGIES``
    or a Strategy): itself, or ``keep`` where no class is worth anything (Willpower is kept)."""
    strategy = strategy_of(strategy, _wp.STRATEGIES)
    if strategy.mode == "best" and not strategy.win and not any(v for _, v in strategy.values):
        return _mwp.Strategy(strategy.name, keep=True)
    return strategy


@lru_cache(maxsize=4096)
def _cell_ways(pool: int, hunger: int, difficulty: int, rules: V5Rules, strategy=None):
    """The engine's exact ways of one cell (:class:`analysis.engine.count.CellWays`, after a Willpower
    strategy where one is given)."""
    cell = dict(pool=pool, hunger=hunger, difficulty=difficulty)
    ways: _engine.CellWays
    if strategy is None:
        (ways,) = _engine.count_cells(mechanic_rules(rules), [cell])
    else:
        (ways,) = _mwp.count_cells(mechanic_rules(rules), engine_strategy(strategy), [cell])
    return ways


def table(
    pools,
    hungers,
    difficulties,
    rules: V5Rules = OFFICIAL,
    exact: bool = False,
    strategy=None,
    progress: bool = False,
    at_least=None,
    check_only: bool = False,
) -> pd.DataFrame:
    """A tidy odds table: one row per (pool, hunger, difficulty).

    Parameters
    ----------
    pools, hungers, difficulties : int, SPEC string or iterable of ints
        SPEC is ``7``, a range ``1-20`` or a list ``3,5,7``.
    rules : V5Rules
        Official rules by default.
    exact : bool
        False: float64 probabilities, each ``float(Fraction)`` (correctly
        rounded).  True: ``Fraction`` objects.
    strategy : None, str, Strategy, or a list of them
        Odds after a Willpower strategy (see :func:`odds`); adds the columns
        ``willpower_spent`` and ``p_win_gain`` (``p_win`` minus ``p_win``
        without Willpower, exact).  A list, or names separated by commas
        (``"none,reroll_failures,maximize_win"``; ``none``: no Willpower),
        gives the strategies side by side: a ``strategy`` column after the
        axes, one row per cell and strategy.
    progress : bool
        A progress bar on stderr while big pools are counted.
    at_least : None, int or SPEC string
        Adds a column ``p_at_least_N`` per N: the chance of N or more
        successes (pairs of 10s with their bonus), exact.
    check_only : bool
        Check everything (the values, the size, the work of each strategy's
        reroll) and count nothing: returns None, or raises as the table would.

    Returns
    -------
    pandas.DataFrame
        Columns ``pool, hunger, difficulty, total_failure, failure, plain_win,
        critical_win, messy_critical, bestial_failure, p_win`` (the six
        classes sum to 1; ``p_win`` is the chance to win), then
        ``willpower_spent, p_win_gain`` with a strategy and the
        ``p_at_least_N`` columns.
    """
    exact = check_bool("exact", exact)
    check_only = check_bool("check_only", check_only)
    progress = check_bool("progress", progress)
    pools = as_values("pool", pools, 0, MAX_POOL)
    hungers = as_values("hunger", hungers, 0, MAX_HUNGER)
    diffs = as_values("difficulty", difficulties, 0)
    rules = V5Rules.require(rules)

    check_cells({"pool": len(pools), "hunger": len(hungers), "difficulty": len(diffs)})
    _check_at_least(
        at_least,
        len(pools) * len(hungers) * len(diffs),
        [sum(rules.dice(p, h)) for p in dict.fromkeys(pools) for h in dict.fromkeys(hungers)],
    )
    if strategy is not None:
        return _strategies_table(pools, hungers, diffs, rules, exact, strategy, progress, at_least, check_only)
    if check_only:
        return None
    # counted by the one engine on V5's mechanic file (its table cache serves a table asked again)
    return _engine.table(
        mechanic_rules(rules),
        exact=exact,
        at_least=at_least,
        progress=progress,
        pool=pools,
        hunger=hungers,
        difficulty=diffs,
    )


def _check_at_least(at_least, cells: int, dice: list) -> None:
    """The at-least N, the values they add and the dice of the distributions behind them (one per pool and
    Hunger), checked before any cell is counted."""
    if at_least is not None:
        _al.check_size(cells, _al.parse(at_least))
        _al.check_dice(dice)


def _with_at_least(df, rules, strategy, exact, at_least, ways=None):
    """``df`` with its ``p_at_least_N`` columns (none when ``at_least`` is None).

    Without a strategy a roll's successes do not hang on the Difficulty: one distribution per pool and
    Hunger.  ``ways``: ``{(pool, hunger, difficulty): CellWays}`` already counted (after a strategy)."""
    if at_least is None:
        return df
    if ways is not None:

        def distribution(pool, hunger, difficulty, top):
            w = ways[(pool, hunger, difficulty)]
            return w.success_ways, w.denominator

        return _al.add_columns(df, at_least, distribution, ("pool", "hunger", "difficulty"), exact)
    if strategy is not None:
        raise ValueError("the at-least columns after a strategy come from its counted ways")

    def by_roll(pool, hunger, top):
        return odds(pool, hunger, 0, rules).successes

    return _al.add_columns(df, at_least, by_roll, ("pool", "hunger"), exact)


def _strategies_table(
    pools, hungers, diffs, rules, exact, strategy, progress, at_least, check_only=False
) -> pd.DataFrame:
    """Odds after each Willpower strategy, with ``willpower_spent`` and the exact ``p_win_gain``.

    The work of every strategy's reroll over the whole grid is estimated first, and refused past the
    Willpower engine's limits before anything is counted."""
    chosen, side_by_side = _st.parse(strategy, _wp.STRATEGIES)
    if chosen == [None] and not side_by_side:
        return None if check_only else table(pools, hungers, diffs, rules, exact, None, progress, at_least)

    cells = _willpower_cells(pools, hungers, diffs, rules)[1]
    for s in chosen:
        if s is not None:
            _mwp.check_work(mechanic_rules(rules), engine_strategy(s), cells)
    if check_only:
        return None
    base = table(pools, hungers, diffs, rules, True, None, progress)
    frames = []
    for s in chosen:
        if s is None:
            df = base.copy()
            df["willpower_spent"] = [Fraction(0)] * len(df)
            ways = None
        else:
            df, ways = _willpower_table(pools, hungers, diffs, rules, True, s)
        df["p_win_gain"] = [a - b for a, b in zip(df["p_win"], base["p_win"])]
        frames.append((s, _with_at_least(df, rules, s, True, at_least, ways)))
    return _st.combine(frames, ("pool", "hunger", "difficulty"), side_by_side, exact)


def _willpower_cells(pools, hungers, diffs, rules) -> tuple:
    """``(rows, cells)``: each (pool, hunger, difficulty) of a table, and the engine's cell for it."""
    rows, cells = [], []
    for pool in pools:
        for hunger in hungers:
            dice = sum(rules.dice(pool, hunger))
            for d in diffs:
                rows.append((pool, hunger, d))
                cells.append(dict(pool=pool, hunger=hunger, difficulty=_reachable(d, dice, rules)))
    return rows, cells


def _willpower_table(pools, hungers, diffs, rules, exact, strategy) -> tuple:
    """Odds after one Willpower strategy, counted by the one Willpower engine, each pool once, and the
    ways counted (``{(pool, hunger, difficulty): CellWays}``)."""
    rows, cells = _willpower_cells(pools, hungers, diffs, rules)
    got = _mwp.count_cells(mechanic_rules(rules), engine_strategy(strategy), cells)
    ways = np.array([list(w.class_ways) + [sum(w.class_ways[2:5]), w.spent] for w in got], dtype=object).reshape(
        len(cells), len(CLASSES) + 2
    )
    dens = np.array([w.denominator for w in got], dtype=object)[:, None]
    values = fractions_over(ways, dens) if exact else _exact.float_ratios(ways, dens)
    cols = dict(zip(("pool", "hunger", "difficulty"), np.array(rows, dtype=np.int64).reshape(-1, 3).T))
    for j, name in enumerate(CLASSES + ("p_win", "willpower_spent")):
        cols[name] = values[:, j]
    return pd.DataFrame(cols), dict(zip(rows, got))


# ------------------------------------------------------- Remorse and frenzy


@dataclass(frozen=True)
class RemorseOdds:
    """The Remorse roll at the end of a session (docs/rules.md)."""

    humanity: int
    stains: int
    pool: int
    degeneration: bool
    keep_humanity: Fraction

    @property
    def lose_humanity(self) -> Fraction:
        """No success: Humanity drops by 1 (Stains clear either way)."""
        return 1 - self.keep_humanity

    __repr__ = _display.text
    _repr_html_ = _display.html


def remorse(humanity: int, stains: int, rules: V5Rules = OFFICIAL) -> RemorseOdds:
    """Exact odds of the Remorse roll.

    The pool is the Humanity boxes neither filled by Humanity nor Stained,
    at least 1; any success keeps Humanity, none costs 1.  More Stains than
    empty boxes is degeneration (flagged; the roll is still one die).
    """
    humanity = check_int("humanity", humanity, 0, 10)
    stains = check_int("stains", stains, 0, 10)
    empty = 10 - humanity
    pool = max(1, empty - stains)
    keep = odds(pool, 0, 1, rules).p_win
    return RemorseOdds(humanity, stains, pool, stains > empty, keep)


def frenzy_pool(willpower: int, superficial: int = 0, aggravated: int = 0, humanity: int = 7) -> int:
    """Dice to resist frenzy: unmarked Willpower boxes + floor(Humanity / 3)."""
    willpower = check_int("willpower", willpower, 1, 20)
    superficial = check_int("superficial willpower damage", superficial, 0, willpower)
    aggravated = check_int("aggravated willpower damage", aggravated, 0, willpower - superficial)
    humanity = check_int("humanity", humanity, 0, 10)
    return willpower - superficial - aggravated + humanity // 3


def resist_frenzy(
    willpower: int,
    difficulty: int,
    superficial: int = 0,
    aggravated: int = 0,
    humanity: int = 7,
    rules: V5Rules = OFFICIAL,
) -> MechanicOdds:
    """Exact odds of resisting frenzy: no Hunger dice, no Willpower reroll.

    ``difficulty`` is 2..4 by the provocation's strength (docs/rules.md).
    """
    pool = frenzy_pool(willpower, superficial, aggravated, humanity)
    difficulty = check_int("frenzy difficulty", difficulty, 1, 10)
    return odds(pool, 0, difficulty, rules)


def distribution_table(
    pools,
    hungers,
    difficulties,
    rules: V5Rules = OFFICIAL,
    exact: bool = False,
    max_successes=None,
    check_only: bool = False,
    strategy=None,
) -> pd.DataFrame:
    """The exact distribution of successes (pairs of 10s with their bonus): one row per (pool, hunger,
    difficulty, successes), with ``p_exactly``, ``p_at_least``, ``p_more`` and ``mean_successes``
    (:mod:`analysis.engine.distribution`); ``max_successes=N`` stops at N (its ``p_more`` the exact tail);
    ``strategy`` (one): the successes after that Willpower reroll."""
    chosen = distribution.one_strategy(strategy, _wp.STRATEGIES)
    return distribution.mechanic_table(
        mechanic_rules(V5Rules.require(rules)),
        {"pool": pools, "hunger": hungers, "difficulty": difficulties},
        exact=exact,
        max_successes=max_successes,
        check_only=check_only,
        strategy=None if chosen is None else engine_strategy(chosen),
    )
