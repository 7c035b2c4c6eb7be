"""Coin flips counted exactly."""

from dataclasses import dataclass
from fractions import Fraction
from math import comb

import pandas as pd

from analysis.model.rules import Rules, rule
from analysis.model.validate import as_values


@dataclass(frozen=True)
class CoinRules(Rules):
    """Coin rules."""

    heads_faces: int = rule(1, range=(1, 2), help="Faces of a two-faced coin that are heads (1: fair, 2: loaded).")


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
            rows.append(
                {
                    "coins": c,
                    "needed": n,
                    "heads_enough": p if exact else float(p),
                    "too_few": 1 - p if exact else float(1 - p),
                }
            )
    return pd.DataFrame(rows)
