"""V5 (Vampire: The Masquerade 5th edition) rolls with Hunger dice, counted exactly: odds, tables, Remorse, frenzy."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from kernels import v5 as _k
from kernels.multiset import fill_binomials

from analysis import exact as _exact
from analysis.exact import ClassWays, fractions_over
from analysis.validate import as_values, check_int
from analysis.systems.v5 import willpower as _wp
from analysis.systems.v5.dice import (CLASSES, MAX_HUNGER, MAX_POOL, OFFICIAL, TABLE_COLUMNS,  # noqa: F401
                                      WIN_CLASSES, RollReading, V5Rules, binomials, check_roll,
                                      classes_of, counts, read_roll)
from analysis import display as _display

@dataclass(frozen=True)
class V5Odds(ClassWays):
    """The exact odds of one V5 roll.

    Probabilities are ``Fraction``s: ``ways / denominator`` where
    ``denominator = 10 ** dice`` counts every way the dice can land.
    The six classes (``total_failure``, ``win_at_cost``, ``win``,
    ``critical_win``, ``messy_critical``, ``bestial_failure``) are mutually
    exclusive and sum to exactly 1.
    """

    pool: int
    hunger: int
    difficulty: int
    rules: V5Rules
    normal_dice: int
    hunger_dice: int
    denominator: int
    class_ways: dict
    success_ways: tuple
    bestial_total_failure_ways: int
    strategy: str | None = None
    willpower_spent_ways: int = 0

    total_failure = property(lambda self: self.probability("total_failure"),
                             doc="No success and no bestial Hunger 1s.")
    win_at_cost = property(lambda self: self.probability("win_at_cost"),
                           doc="Some successes, fewer than the Difficulty, not bestial.")
    win = property(lambda self: self.probability("win"), doc="A win without a pair of 10s.")
    critical_win = property(lambda self: self.probability("critical_win"),
                            doc="A win with a pair of 10s and no (or too few) Hunger 10s.")
    messy_critical = property(lambda self: self.probability("messy_critical"),
                              doc="A win with a pair of 10s, a Hunger die among the 10s.")
    bestial_failure = property(lambda self: self.probability("bestial_failure"),
                               doc="Not a win, a Hunger die showing 1.")

    @property
    def p_win(self) -> Fraction:
        """Probability of a win of any kind: ``win + critical_win + messy_critical``.

        Under the official rules this is P(successes >= Difficulty); under the
        ``hunger_one_taints_win`` house rule a tainted win counts as a win at
        a cost instead, and is not in ``p_win``.
        """
        return Fraction(sum(self.class_ways[c] for c in WIN_CLASSES), self.denominator)

    @property
    def bestial_total_failure(self) -> Fraction:
        """Flag, not a class: a bestial failure that also rolled no success.

        Bestial takes precedence over total failure in the classes; this is
        the part of ``bestial_failure`` that would otherwise be a total failure.
        """
        return Fraction(self.bestial_total_failure_ways, self.denominator)

    @property
    def willpower_spent(self) -> Fraction:
        """Probability that the Willpower strategy rerolled (0 without one)."""
        return Fraction(self.willpower_spent_ways, self.denominator)

    @property
    def successes(self) -> dict:
        """Exact distribution of successes: ``{successes: Fraction}`` (non-zero only)."""
        return {s: Fraction(w, self.denominator) for s, w in enumerate(self.success_ways) if w}

    @property
    def margin(self) -> dict:
        """Exact distribution of margin = successes - Difficulty."""
        return {s - self.difficulty: p for s, p in self.successes.items()}

    @property
    def mean_successes(self) -> Fraction:
        """Expected successes (pairs of 10s counted with their bonus)."""
        return Fraction(sum(s * w for s, w in enumerate(self.success_ways)), self.denominator)

    @property
    def mean_margin(self) -> Fraction:
        """Expected margin (successes - Difficulty)."""
        return self.mean_successes - self.difficulty

    def __str__(self) -> str:
        lines = [
            f"V5 pool {self.pool} ({self.normal_dice} normal + {self.hunger_dice} Hunger dice), "
            f"Hunger {self.hunger}, Difficulty {self.difficulty}"
        ]
        if self.rules != OFFICIAL:
            lines.append(f"house rules: {self.rules.changes()}")
        if self.strategy:
            lines.append(f"Willpower: {self.strategy}, spent {float(self.willpower_spent):.2%}")
        for name, p in list(self.classes().items()) + [("p_win", self.p_win)]:
            lines.append(f"  {name:<16}{float(p):8.2%}   {p}")
        lines.append(f"  mean successes  {float(self.mean_successes):.4f}")
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html


def odds(pool: int, hunger: int, difficulty: int, rules: V5Rules = OFFICIAL, strategy=None) -> V5Odds:
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
    strategy : None, str or analysis.willpower.Strategy
        A Willpower strategy (``reroll_failures``, ``maximize_win``,
        ``maximize_critical``, ``avoid_messy``, or ``willpower.optimal(...)``):
        the odds are then those after the strategy's reroll, and
        ``willpower_spent`` says how often it rerolls.

    Returns
    -------
    V5Odds
        Exact Fractions for the six outcome classes, ``p_win``, and the
        distributions of successes and margin.

    Raises
    ------
    ValueError
        On a negative pool, Hunger outside 0..5, a negative Difficulty or a
        value that is not a whole number.
    """
    pool, hunger, difficulty = check_roll(pool, hunger, difficulty)
    rules = V5Rules.require(rules)
    nn, nh = rules.dice(pool, hunger)
    spent, strategy_name = 0, None
    if strategy is None:
        ways, classes, den = counts(nn, nh, rules, (difficulty,), True)
        class_ways = [int(w) for w in classes[0]]
    else:
        strategy = _wp.strategy_of(strategy)
        strategy_name = strategy.name
        ways, spent, den = _wp.counts(nn, nh, difficulty, rules, strategy)
        class_ways = classes_of(ways, difficulty, rules)
    success_ways = tuple(int(x) for x in ways.sum(axis=(1, 2, 3)))
    bestial_total = int(ways[0, :, :, rules.bestial_hunger_ones:].sum()) if difficulty > 0 else 0
    return V5Odds(
        pool=pool, hunger=hunger, difficulty=difficulty, rules=rules,
        normal_dice=nn, hunger_dice=nh, denominator=den,
        class_ways=dict(zip(CLASSES, class_ways)),
        success_ways=success_ways,
        bestial_total_failure_ways=bestial_total,
        strategy=strategy_name, willpower_spent_ways=spent,
    )



def _grid_ways(pools, hungers, diffs, rules, progress=False):
    """Exact ways for a grid, in blocks of pools that share an arithmetic.

    Yields ``(index, ways, dens)``: the positions in ``pools`` of the block,
    ways of shape (k, H, D, 7) (the six classes then p_win) and denominators
    of shape (k, H, 1, 1).  Pools whose counts fit int64 come in one int64
    block from a single kernel call; the rest take the modular path (one
    call per prime, then CRT) and come as Python ints (object arrays), with
    a progress bar on stderr when ``progress``.
    """
    dice = np.array([[sum(rules.dice(p, h)) for h in hungers] for p in pools], dtype=np.int64)
    pools_arr = np.array(pools, dtype=np.int64)
    hungers_arr = np.array(hungers, dtype=np.int64)
    w_n = np.array(rules.normal_faces, dtype=np.int64)
    w_h = np.array(rules.hunger_faces, dtype=np.int64)
    args = (hungers_arr, np.array(diffs, dtype=np.int64), w_n, w_h,
            rules.crit_bonus, rules.messy_hunger_tens, rules.bestial_hunger_ones,
            int(rules.hunger_one_taints_win), int(rules.hunger_replaces_dice))
    bounds = [_k.v5_grid_class_ways_bound([p], hungers, int(rules.hunger_replaces_dice), w_n, w_h)
              for p in pools]

    def run(mod, index):
        # One binomial table serves every pool of a run: cached in int64;
        # under a prime (big pools, once each) made afresh, not kept.
        size = int(dice[index].max()) + 1
        if mod == 0:
            binom = binomials(size, 0)
        else:
            binom = np.empty((size, size), dtype=np.int64)
            fill_binomials(mod, binom)
        out = np.empty((len(index), len(hungers), len(diffs), len(CLASSES)), dtype=np.int64)
        _k.v5_grid_class_ways(pools_arr[index], *args, mod, binom, out)
        return out

    def with_p_win(ways):
        return np.concatenate([ways, ways[..., 2:5].sum(axis=-1, keepdims=True)], axis=-1)

    big = [b for b in bounds if b > _exact.INT64_MAX]
    with _progress_bar(_exact.passes(max(big)) if big else 0, "V5 exact (primes)", progress) as bar:
        blocks = _exact.count_blocks(run, bounds, on_pass=lambda: bar.update(1))
    for index, ways in blocks:
        if ways.dtype == object:
            dens = np.array([[10 ** int(n) for n in row] for row in dice[index]], dtype=object)
        else:
            dens = 10 ** dice[index]
        yield index, with_p_win(ways), dens[:, :, None, None]


def _progress_bar(total: int, desc: str, show: bool):
    """A tqdm bar on stderr for long exact work (a silent one unless ``show``)."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="prime", file=sys.stderr, disable=not show, leave=False)


def table(pools, hungers, difficulties, rules: V5Rules = OFFICIAL, exact: bool = False,
          strategy=None, progress: bool = False) -> pd.DataFrame:
    """A tidy odds table: one row per (pool, hunger, difficulty).

    Parameters
    ----------
    pools, hungers, difficulties : int, SPEC string or iterable of ints
        SPEC is ``7``, a range ``1-20`` or a list ``3,5,7``.
    rules : V5Rules
        Official rules by default.
    exact : bool
        False: float64 probabilities.  True: ``Fraction`` objects.
    strategy : None, str or analysis.willpower.Strategy
        Odds after a Willpower strategy (see :func:`odds`); adds the column
        ``willpower_spent``.
    progress : bool
        A progress bar on stderr while big pools take the exact path.

    Returns
    -------
    pandas.DataFrame
        Columns ``pool, hunger, difficulty, total_failure, win_at_cost, win,
        critical_win, messy_critical, bestial_failure, p_win`` (then
        ``willpower_spent`` with a strategy).
    """
    pools = as_values("pool", pools, 0, MAX_POOL)
    hungers = as_values("hunger", hungers, 0, MAX_HUNGER)
    diffs = as_values("difficulty", difficulties, 0)
    rules = V5Rules.require(rules)
    if strategy is not None:
        return _willpower_table(pools, hungers, diffs, rules, exact, strategy)

    grid = np.array(np.meshgrid(pools, hungers, diffs, indexing="ij")).reshape(3, -1)
    shape = (len(pools), len(hungers), len(diffs), len(CLASSES) + 1)
    values = np.empty(shape, dtype=object if exact else np.float64)
    for index, ways, dens in _grid_ways(pools, hungers, diffs, rules, progress):
        if exact:
            block = fractions_over(ways, dens)
        elif ways.dtype == object:
            block = (ways / dens).astype(np.float64)  # Python int / int: correctly rounded
        else:
            block = ways.astype(np.float64) / dens.astype(np.float64)
        values[index] = block
    values = values.reshape(-1, shape[-1])
    cols = {"pool": grid[0], "hunger": grid[1], "difficulty": grid[2]}
    for j, name in enumerate(CLASSES + ("p_win",)):
        cols[name] = values[:, j]
    return pd.DataFrame(cols)


def _willpower_table(pools, hungers, diffs, rules, exact, strategy) -> pd.DataFrame:
    strategy = _wp.strategy_of(strategy)
    rows, ways, dens = [], [], []
    for pool in pools:
        for hunger in hungers:
            nn, nh = rules.dice(pool, hunger)
            for d in diffs:
                final, spent, den = _wp.counts(nn, nh, d, rules, strategy)
                c = classes_of(final, d, rules)
                rows.append((pool, hunger, d))
                ways.append(c + [c[2] + c[3] + c[4], spent])
                dens.append(den)
    ways = np.array(ways, dtype=object)
    dens = np.array(dens, dtype=object)[:, None]
    values = fractions_over(ways, dens) if exact else (ways / dens).astype(np.float64)
    cols = dict(zip(("pool", "hunger", "difficulty"), np.array(rows, dtype=np.int64).T))
    for j, name in enumerate(CLASSES + ("p_win", "willpower_spent")):
        cols[name] = values[:, j]
    return pd.DataFrame(cols)


# ------------------------------------------------------- Remorse and frenzy

@dataclass(frozen=True)
class RemorseOdds:
    """The Remorse roll at the end of a session (RULES.md section 1)."""

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


def resist_frenzy(willpower: int, difficulty: int, superficial: int = 0, aggravated: int = 0,
                  humanity: int = 7, rules: V5Rules = OFFICIAL) -> V5Odds:
    """Exact odds of resisting frenzy: no Hunger dice, no Willpower reroll.

    ``difficulty`` is 2..4 by the provocation's strength (RULES.md).
    """
    pool = frenzy_pool(willpower, superficial, aggravated, humanity)
    difficulty = check_int("frenzy difficulty", difficulty, 1, 10)
    return odds(pool, 0, difficulty, rules)
