"""Mechanics as data: the one engine on the V5 file against a plain pure-Python count, a designer's
three-kind file, and big pools, in one run (medians of several runs, the best in brackets).

The first table of a rule set is timed right after the plain count (the CPU's caches then hold none
of its code, as for a user's first call), and again repeated back to back (its code cached)."""

from __future__ import annotations

import gc
import os
import statistics
from fractions import Fraction

from analysis.workbench import rulesets
from analysis.engine import count as engine
from analysis.model import spec
from analysis.model.spec import shipped
from tests.benchmarks.v5 import DIFFICULTIES, HUNGERS, POOLS, plain_count, timings

THREE_KINDS = """
[mechanic]
name = "benchthree"
successes = "successes"
[parameters]
bonus = { default = 2, range = [0, 9] }
[axes]
pool = { default = "1-20", range = [0, 40] }
hunger = { default = "0-3", range = [0, 5] }
blood = { default = "0-2", range = [0, 3] }
difficulty = { default = "1-5", range = [0, 60] }
[kinds.normal]
dice = "pool"
faces = { fail = "1..5", success = "6..9", ten = "10" }
[kinds.hunger]
dice = "hunger"
faces = { one = "1", fail = "2..5", success = "6..9", ten = "10" }
[kinds.blood]
dice = "blood"
faces = { drain = "1..2", fail = "3..5", success = "6..9", ten = "10" }
[counts]
successes = "max(0, success + 2 * ten - hunger.one) + bonus * blood.ten"
[[outcomes]]
name = "drained"
when = "blood.drain >= 2"
[[outcomes]]
name = "win"
when = "successes >= difficulty"
win = true
[[outcomes]]
name = "miss"
"""


#: Rounds of (first table, warm tables, plain count): the machine is shared and noisy, and each round
#: gives one first table (a median of 11 moves less from run to run than one of 5).
ROUNDS = 11


def clear():
    """Forget every cached count of the engines (a rule set seen for the first time)."""
    engine.clear_caches()


def main():
    v5 = engine.rules_of(shipped(rulesets.system("v5")))
    cells = len(POOLS) * len(HUNGERS) * len(DIFFICULTIES)
    print(
        f"V5 mechanic file on the engine: pools 1..20 x Hunger 0..5 x Difficulty 1..10 = {cells} cells "
        f"({os.cpu_count()} cores)"
    )

    def table():
        return engine.table(v5, pool=POOLS, hunger=HUNGERS, difficulty=DIFFICULTIES)

    table()  # load the kernels
    gc.collect()
    times = {"first": [], "warm": [], "plain": []}
    for _ in range(ROUNDS):
        t, df = timings(table, 1, setup=clear)
        times["first"] += t
        t, _ = timings(table, 5)
        times["warm"] += t
        t, ref = timings(plain_count, 1)
        times["plain"] += t
    med = {k: statistics.median(v) for k, v in times.items()}
    exact = engine.table(v5, exact=True, pool=POOLS, hunger=HUNGERS, difficulty=DIFFICULTIES)
    ok = all(
        [getattr(r, c) for c in v5.mechanic.classes]
        == [
            Fraction(w, d)
            for w in ref[(r.pool, r.hunger, r.difficulty)][0]
            for d in (ref[(r.pool, r.hunger, r.difficulty)][1],)
        ]
        for r in exact.itertuples()
    )
    # each round's first table against the plain count timed right after it (the same load on the
    # machine), as the start-up benchmark pairs its runs; the ratio of the two medians as well
    paired = statistics.median(p / f for f, p in zip(times["first"], times["plain"]))
    print(
        f"  first table of a rule set (kernels loaded)  {med['first'] * 1e3:8.2f} ms "
        f"({min(times['first']) * 1e3:.2f})  ratio {paired:6.1f}x (target >= 40x; "
        f"median of {ROUNDS} rounds, each against the plain count beside it; ratio of the medians "
        f"{med['plain'] / med['first']:.1f}x)"
    )
    # each call again and again (the CPU's caches then hold its code), the plain count likewise
    t, _ = timings(table, 9, setup=clear)
    p, _ = timings(plain_count, 5)
    print(
        f"  first table, repeated (CPU caches warm)     {statistics.median(t) * 1e3:8.2f} ms "
        f"({min(t) * 1e3:.2f})  ratio {statistics.median(p) / statistics.median(t):6.1f}x "
        f"to the plain count repeated ({statistics.median(p) * 1e3:.2f} ms)"
    )
    print(
        f"  warm table                                  {med['warm'] * 1e3:8.2f} ms "
        f"({min(times['warm']) * 1e3:.2f})  ratio {med['plain'] / med['warm']:6.1f}x (target >= 200x)"
    )
    print(f"  plain pure-Python integer count             {med['plain'] * 1e3:8.2f} ms  identical exact results: {ok}")

    three = engine.rules_of(spec.from_toml(THREE_KINDS, "benchthree.toml"))

    def designer():
        return engine.table(three, pool=range(1, 21), hunger=range(0, 4), blood=range(0, 3), difficulty=range(1, 6))

    designer()
    t, df = timings(designer, 5, setup=clear)
    print(
        f"  designer's file, 3 kinds x 4 marks, pools 1..20 ({len(df)} cells), first call "
        f"{statistics.median(t) * 1e3:8.1f} ms ({min(t) * 1e3:.1f}) (target < 50 ms)"
    )
    for pool, hunger, d in ((100, 5, 30), (400, 5, 133), (1000, 5, 333)):
        t, o = timings(lambda: engine.odds(v5, pool=pool, hunger=hunger, difficulty=d), 3, setup=clear)
        assert sum(o.class_ways.values()) == o.denominator
        print(
            f"  V5 file, pool {pool}, Hunger {hunger}, Difficulty {d}, exact, cold "
            f"{statistics.median(t) * 1e3:8.1f} ms ({min(t) * 1e3:.1f})"
        )
    if not ok:
        raise SystemExit("the engine's table differs from the plain count")


if __name__ == "__main__":
    main()
