"""The optimal Willpower strategy over a whole table, exactly (issue: seconds, not minutes)."""

from __future__ import annotations

import time

from analysis.systems.v5 import roll as v5
from analysis.systems.v5 import willpower


def main():
    grid = ("1-15", "0-5", "1-8")
    v5.odds(5, 2, 2, strategy="maximize_win")  # compile / load the JIT cache
    for strategy in (
        "maximize_win",
        "reroll_failures",
        willpower.optimal(
            {"plain_win": 1, "critical_win": 1, "messy_critical": 0.5, "bestial_failure": -1}, "designer"
        ),
    ):
        v5._cell_ways.cache_clear()
        t = time.perf_counter()
        df = v5.table(*grid, strategy=strategy, exact=True)
        elapsed = time.perf_counter() - t
        name = strategy if isinstance(strategy, str) else strategy.name
        assert all(sum(r[c] for c in v5.CLASSES) == 1 for _, r in df.iterrows())
        print(f"  {name:<16} pools 1..15 x Hunger 0..5 x Difficulty 1..8 ({len(df)} cells), exact: {elapsed:.2f} s")


if __name__ == "__main__":
    main()
