"""Benchmark: La Soif and Requiem, counted by the one engine through their files, and plain Requiem against
icepool's again-dice.

Run: ``python -m tests.benchmarks.beast`` (``make bench beast``).  In process, each timing is the median of
several runs after a warm-up (the kernels compiled or loaded), every count kept cleared before each run so
that it counts from scratch; then the ``requiem`` command and the booklet as a user runs them (a process
each, wall time, medians of 5).  docs/benchmarks.md keeps these beside the same commands timed with the
again-dice counter that counted these dice before (removed at the step after a06e6ef).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

POOLS = range(1, 21)
SOIFS = range(0, 6)
MAX_SUCCESSES = 40
REPEATS = 5
ROOT = Path(__file__).resolve().parents[2]


def median_of(fn, setup, repeats=REPEATS):
    """Median wall time of ``repeats`` runs of ``fn()`` (``setup()`` before each, untimed) and its last
    result."""
    times, result = [], None
    for _ in range(repeats):
        setup()
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def command_seconds(*argv: str, repeats: int = REPEATS) -> float:
    """Median wall time of ``beastodds ARGV`` in a process of its own (start-up included)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "analysis.cli", *argv], cwd=ROOT, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def icepool_requiem_pools(pools, depth):
    """Plain Requiem (8+, 10-again) by icepool's Again: ``{pool: ({s: Fraction}, beyond)}``,
    the again-roll cut after ``depth`` levels (the cut sent out of range, so
    every count up to ``depth`` is exact)."""
    import icepool

    die = icepool.Die([0] * 7 + [1, 1, 1 + icepool.Again], again_depth=depth, again_end=10**6)
    out = {}
    for pool in pools:
        total = pool @ die
        den = total.denominator()
        dist = {s: Fraction(total.quantity(s), den) for s in range(depth + 1)}
        out[pool] = (dist, 1 - sum(dist.values()))
    return out


def main() -> int:
    from analysis.systems.requiem import beast
    from analysis.systems.requiem import dice as requiem

    clear = requiem.clear_caches
    # warm-up: compile or load every kernel once
    beast.distribution_table(POOLS, SOIFS, MAX_SUCCESSES, exact=True)
    requiem.distribution_table(POOLS, MAX_SUCCESSES, exact=True)

    rows = []
    t, dist = median_of(lambda: beast.distribution_table(POOLS, SOIFS, MAX_SUCCESSES, exact=True), clear)
    rows.append(("La Soif distribution, pools 1-20 x Soif 0-5, 0..40 successes + tail, Fractions", t))
    t_float, _ = median_of(lambda: beast.distribution_table(POOLS, SOIFS, MAX_SUCCESSES), clear)
    rows.append(("  same, floats", t_float))
    t_cls, _ = median_of(lambda: beast.table(POOLS, SOIFS, exact=True), clear)
    rows.append(("La Soif classes, pools 1-20 x Soif 0-5, Fractions", t_cls))
    t_tempt, _ = median_of(lambda: beast.table(POOLS, SOIFS, tempt=True, exact=True), clear)
    rows.append(("  same, tempting the Beast (up to 25 dice)", t_tempt))
    for what, grid, top in [
        ("the requiem command's default table (pools 0-10 x Soif 0-5)", ("0-10", "0-5"), None),
        ("  pools 0-200 x Soif 0-5", ("0-200", "0-5"), None),
        ("  its default --distribution (0..20 successes)", ("0-10", "0-5"), 20),
        ("  --distribution 40", ("0-10", "0-5"), 40),
        ("  --distribution 100", ("0-10", "0-5"), 100),
        ("  --distribution 200 (the most it takes)", ("0-10", "0-5"), 200),
    ]:
        if top is None:
            t, _ = median_of(lambda: beast.table(*grid, exact=True), clear, repeats=3)
        else:
            t, _ = median_of(lambda: beast.distribution_table(*grid, top, exact=True), clear, repeats=3)
        rows.append((what, t))

    # exactness of what was timed: every (pool, soif) sums to exactly 1 with its tail
    for (pool, soif), g in dist.groupby(["pool", "soif"]):
        assert g.p_exactly.sum() + g.p_more.iloc[-1] == 1, (pool, soif)

    t_ours, ours = median_of(lambda: requiem.distribution_table(POOLS, MAX_SUCCESSES, exact=True), clear)
    t_ice, theirs = median_of(lambda: icepool_requiem_pools(POOLS, MAX_SUCCESSES), lambda: None, repeats=3)
    rows.append(("plain Requiem pools 1-20, 0..40 successes: beastodds", t_ours))
    rows.append(("plain Requiem pools 1-20, 0..40 successes: icepool Again depth 40", t_ice))
    mismatches = 0
    for pool, g in ours.groupby("pool"):
        dist_ice, beyond_ice = theirs[pool]
        if g.p_exactly.tolist() != [dist_ice[s] for s in range(MAX_SUCCESSES + 1)] or g.p_more.iloc[-1] != beyond_ice:
            mismatches += 1

    # as a user runs them: a process each (start-up, the kernels loaded from numba's cache)
    with tempfile.TemporaryDirectory() as folder:
        booklet = str(Path(folder) / "booklet.html")
        commands = [
            ("beastodds requiem", ("requiem",)),
            ("beastodds beast --tempt --exact", ("beast", "--tempt", "--exact")),
            ("beastodds requiem --distribution", ("requiem", "--distribution")),
            ("beastodds requiem --distribution 200", ("requiem", "--distribution", "200")),
            ("beastodds booklet requiem-la-soif", ("booklet", "requiem-la-soif", "-o", booklet, "--quiet")),
        ]
        command_seconds(*commands[0][1], repeats=1)  # the kernels in numba's cache
        timed = [(what, command_seconds(*argv)) for what, argv in commands]

    width = max(len(name) for name, _ in rows)
    print("beastodds benchmark: La Soif / Requiem through their files on the one engine (medians, warm JIT)")
    for name, t in rows:
        print(f"  {name:<{width}}  {t * 1000:9.1f} ms")
    print(f"  icepool / beastodds on plain Requiem: {t_ice / t_ours:.0f}x")
    print(
        f"  identical exact results (20 pools, each count 0..40 and the tail): "
        f"{'yes' if not mismatches else f'NO, {mismatches} pools differ'}"
    )
    print("  as a user runs them (a process each, wall time, medians of 5):")
    for what, t in timed:
        print(f"    {what:<40} {t:6.2f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
