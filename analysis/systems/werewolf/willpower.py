"""Werewolf Willpower rerolls: up to three normal dice or Rage dice not showing 1-2, chosen exactly.

After the dice land a player may spend Willpower to reroll up to three
dice: normal dice, or Rage dice that do not show a 1 or a 2 (the Brutal
faces stay).  A rerolled Rage die is still a Rage die and may land a 1 or a
2.  For every way the dice can land the strategy takes the reroll with the
highest expected value of its class values (ties: no reroll, then fewer
dice), and the odds after it are counted exactly.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm

import numpy as np

from kernels import willpower as _kw

from analysis import special_dice as _sd
from analysis.exact import count
from analysis.systems.werewolf import SYSTEM

#: Dice a Willpower reroll may take.
MAX_REROLL = 3
_WIN = {"plain_win": 1, "critical_win": 1, "brutal_win": 1}


@dataclass(frozen=True)
class Strategy:
    """How a player uses a Werewolf Willpower reroll after seeing the dice.

    Attributes
    ----------
    name : str
        Shown in tables.
    values : tuple of (class, Fraction) pairs
        Value of each final class (classes left out are worth 0).
    rage_rerolls : bool
        True: Rage dice not showing 1-2 may be rerolled too; False: normal
        dice only (a Rage die is never risked).
    """

    name: str
    values: tuple
    rage_rerolls: bool = True

    def integer_values(self) -> np.ndarray:
        """The class values scaled to exact integers (common denominator)."""
        fracs = [dict(self.values).get(c, Fraction(0)) for c, _ in SYSTEM.classes]
        den = lcm(*(f.denominator for f in fracs))
        ints = [int(f * den) for f in fracs]
        if max(abs(i) for i in ints) > 10**9:
            raise ValueError("the strategy's values are too finely divided; use simpler fractions")
        return np.array(ints, dtype=np.int64)


STRATEGIES = {
    "maximize_win": Strategy("maximize_win", tuple((k, Fraction(v)) for k, v in _WIN.items())),
    "normal_dice_only": Strategy("normal_dice_only", tuple((k, Fraction(v)) for k, v in _WIN.items()),
                                 rage_rerolls=False),
}


def strategy_of(strategy) -> Strategy:
    """A Strategy from a name in ``STRATEGIES`` or a Strategy itself."""
    if isinstance(strategy, Strategy):
        return strategy
    if isinstance(strategy, str) and strategy in STRATEGIES:
        return STRATEGIES[strategy]
    from analysis.strategies import unknown

    raise unknown(strategy, STRATEGIES)


@lru_cache(maxsize=4096)
def counts(n_normal: int, n_rage: int, difficulty: int, engine: _sd.Engine, strategy: Strategy,
           force_modular: bool = False):
    """Exact (ways by (s, pair, Rage tens, Rage 1-2s), ways Willpower was spent, denominator)."""
    n = n_normal + n_rage
    R = min(MAX_REROLL, n)
    size_s = n + engine.crit_bonus * (n // 2) + 1
    shape = (size_s, 2, _sd.CAP + 1, _sd.CAP + 1)
    w_n, w_s, bonus, table = engine.arrays()
    vals = strategy.integer_values()

    def compute(mod):
        out = np.zeros(shape, dtype=np.int64)
        spent = np.zeros(1, dtype=np.int64)
        _kw.special_reroll_willpower_ways(n_normal, n_rage, w_n, w_s, engine.crit_bonus, difficulty, bonus,
                                          table, vals, int(strategy.rage_rerolls), R, mod,
                                          _sd.binomials(n + 1, mod), out, spent)
        return np.concatenate([out.ravel(), spent])

    denominator = 10 ** (n + R)
    bound = _kw.special_reroll_willpower_ways_bound(n_normal, n_rage, w_n, w_s, R, vals, n + 1)
    flat = count(compute, bound, force_modular=force_modular)
    ways = flat[:-1].reshape(shape)
    ways.setflags(write=False)
    return ways, int(flat[-1]), denominator


def class_ways(ways, difficulty: int, engine: _sd.Engine) -> list:
    """Ways per class from ways by features, by the engine's one class lookup."""
    out = [0] * engine.n_classes
    for (s, pair, ec, oc), w in np.ndenumerate(ways):
        if w:
            out[engine.classify(s, 2 * pair, ec, oc, difficulty)] += int(w)
    return out
