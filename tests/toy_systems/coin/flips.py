"""Coin flips counted exactly."""
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import pandas as pd

from analysis.validate import as_values


@dataclass(frozen=True)
class CoinRules:
    """Coin rules.

    Attributes
    ----------
    heads_faces : int
        Faces of a two-faced coin that are heads (1: fair, 2: loaded).
    """

    heads_faces: int = 1

    def __post_init__(self):
        if self.heads_faces not in (1, 2):
            raise ValueError(f"heads_faces must be 1 or 2, got {self.heads_faces!r}")


def odds(coins, needed, rules=CoinRules()):
    """Exact chance of at least ``needed`` heads in ``coins`` flips."""
    h = rules.heads_faces
    ways = sum(comb(coins, k) * h**k * (2 - h) ** (coins - k) for k in range(needed, coins + 1))
    return Fraction(ways, 2**coins)


def table(coins, needed, rules=CoinRules(), exact=False):
    """One row per (coins, needed): heads_enough, too_few."""
    rows = []
    for c in as_values("coins", coins, 0, 50):
        for n in as_values("needed", needed, 0, 50):
            p = odds(c, n, rules)
            rows.append({"coins": c, "needed": n, "heads_enough": p if exact else float(p),
                         "too_few": 1 - p if exact else float(1 - p)})
    return pd.DataFrame(rows)
