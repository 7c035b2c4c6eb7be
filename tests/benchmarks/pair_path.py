"""The pair-of-tens path against the engine's general walk, on V5's mechanic file, in one run.

The engine counts a mechanic of the pair-of-tens shape (V5, Werewolf, Hunter) by its pair path
(:mod:`analysis.engine.pairs`: generating functions, any pool) unless asked for the general walk of the
statistics grid (``count_cells(..., general=True)``), which counts every mechanic file.  This times both on
the same cells, every cache cleared before each count, and checks that they give the same exact ways:
V5's table grid (pools 1-20 x Hunger 0-5 x Difficulty 1-10, 1,200 cells) and one pool of 10, 30, 100 and
1000 dice (Hunger 0-5, Difficulty 1-5 each).  The report is the median of the rounds and the ratio of
the general walk's median to the pair path's (where the walk is within 1.5x, the walk could serve alone).
The Willpower engine plans its rerolls on the statistics grid of its own and takes no pair path: the
last line times it on the V5 Willpower grid (pools 1-15 x Hunger 0-5 x Difficulty 1-8) beside the same cells
without Willpower on both paths.  The pair path is entered from one place, ``analysis.engine.count._pair_path``.
"""

from __future__ import annotations

import statistics
import time

from analysis.workbench import rulesets
from analysis.engine import count as engine
from analysis.model.spec import MechanicError, shipped

ROUNDS = 5


def _rules():
    return engine.rules_of(shipped(rulesets.system("v5")))


def _cells(pools, hungers, difficulties) -> list:
    return [{"pool": p, "hunger": h, "difficulty": d} for p in pools for h in hungers for d in difficulties]


def _timed(rules, cells, general: bool):
    engine.clear_caches()
    t = time.perf_counter()
    ways = engine.count_cells(rules, cells, general=general)
    return time.perf_counter() - t, ways


def measure(cells, rounds: int = ROUNDS) -> dict:
    """Medians (seconds) of the pair path and of the general walk on ``cells``, or the walk's refusal."""
    rules = _rules()
    _timed(rules, cells[:1], False)  # the kernels loaded
    pair, walk, refused = [], [], None
    for _ in range(rounds):
        t, by_pairs = _timed(rules, cells, False)
        pair.append(t)
        if refused is None:
            try:
                t, by_walk = _timed(rules, cells, True)
            except MechanicError as exc:
                refused = str(exc)
                continue
            walk.append(t)
            assert [(w.class_ways, w.denominator) for w in by_walk] == [
                (w.class_ways, w.denominator) for w in by_pairs
            ], "the two paths disagree"
    return {
        "pair": statistics.median(pair),
        "walk": statistics.median(walk) if walk else None,
        "refused": refused,
    }


CASES = {
    "V5 table, pools 1-20 x Hunger 0-5 x Difficulty 1-10": _cells(range(1, 21), range(6), range(1, 11)),
    **{f"pool {n}, Hunger 0-5 x Difficulty 1-5": _cells([n], range(6), range(1, 6)) for n in (10, 30, 100, 1000)},
}


def main():
    print(f"the pair path against the general walk (medians of {ROUNDS}, every cache cleared; identical ways)")
    for label, cells in CASES.items():
        got = measure(cells)
        pair = got["pair"] * 1000
        if got["walk"] is None:
            print(f"  {label}: pair path {pair:.1f} ms; general walk refused: {got['refused'][:160]}")
            continue
        walk = got["walk"] * 1000
        print(f"  {label}: pair path {pair:.1f} ms, general walk {walk:.1f} ms ({walk / pair:.2f}x)")
    # the V5 Willpower grid: the Willpower engine plans each reroll on the statistics grid (a die kept or
    # rerolled by what it shows), so it takes no pair path; its table beside the plain table of its cells
    from analysis.engine import willpower

    rules = _rules()
    grid = {"pool": "1-15", "hunger": "0-5", "difficulty": "1-8"}
    cells = _cells(range(1, 16), range(6), range(1, 9))
    willpower.table(rules, "maximize_win", exact=True, pool="1", hunger="0", difficulty="1")  # the kernels loaded
    times = []
    for _ in range(ROUNDS):
        engine.clear_caches()
        t = time.perf_counter()
        willpower.table(rules, "maximize_win", exact=True, **grid)
        times.append(time.perf_counter() - t)
    plain = measure(cells)
    print(
        f"  V5 Willpower grid, pools 1-15 x Hunger 0-5 x Difficulty 1-8, maximize_win: the Willpower engine's walk "
        f"{statistics.median(times) * 1000:.1f} ms (no pair path); the same cells without Willpower: pair path "
        f"{plain['pair'] * 1000:.1f} ms, general walk {plain['walk'] * 1000:.1f} ms"
    )
