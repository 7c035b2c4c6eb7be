"""Benchmark: exact La Soif / Requiem tables, and plain Requiem against icepool's again-dice.

Run: ``python -m tests.benchmarks.beast``.  Each timing is the best of
several runs after a warm-up (the JIT compiled and loaded); the counting
cache is cleared before every run so that each one counts from scratch.
"""

from __future__ import annotations

import time
from fractions import Fraction

POOLS = range(1, 21)
SOIFS = range(0, 6)
MAX_SUCCESSES = 40
REPEATS = 5


def best_of(fn, repeats=REPEATS, setup=None):
    """Best wall time of ``repeats`` runs of ``fn()`` and its last result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        if setup:
            setup()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def median_of(fn, setup, repeats=REPEATS):
    """Median wall time of ``repeats`` runs of ``fn()`` (``setup()`` before each, untimed) and its last
    result."""
    import statistics

    times, result = [], None
    for _ in range(repeats):
        setup()
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


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

    clear = requiem.count_rolls.cache_clear
    # warm-up: compile or load every kernel once
    beast.distribution_table(POOLS, SOIFS, MAX_SUCCESSES, exact=True)
    beast.table(POOLS, SOIFS, exact=True)
    requiem.distribution_table(POOLS, MAX_SUCCESSES, exact=True)

    rows = []
    t, dist = best_of(lambda: beast.distribution_table(POOLS, SOIFS, MAX_SUCCESSES, exact=True), setup=clear)
    rows.append(("La Soif distribution, pools 1-20 x Soif 0-5, 0..40 successes + tail, Fractions", t))
    t_float, _ = best_of(lambda: beast.distribution_table(POOLS, SOIFS, MAX_SUCCESSES), setup=clear)
    rows.append(("  same, floats", t_float))
    t_cls, _ = best_of(lambda: beast.table(POOLS, SOIFS, exact=True), setup=clear)
    rows.append(("La Soif classes, pools 1-20 x Soif 0-5, Fractions", t_cls))
    t_tempt, _ = best_of(lambda: beast.table(POOLS, SOIFS, tempt=True, exact=True), setup=clear)
    rows.append(("  same, tempting the Beast (up to 25 dice)", t_tempt))

    # exactness of what was timed: every (pool, soif) sums to exactly 1 with its tail
    for (pool, soif), g in dist.groupby(["pool", "soif"]):
        assert g.p_exactly.sum() + g.p_more.iloc[-1] == 1, (pool, soif)

    t_ours, ours = best_of(lambda: requiem.distribution_table(POOLS, MAX_SUCCESSES, exact=True), setup=clear)
    t_ice, theirs = best_of(lambda: icepool_requiem_pools(POOLS, MAX_SUCCESSES), repeats=3)
    rows.append(("plain Requiem pools 1-20, 0..40 successes: beastodds", t_ours))
    rows.append(("plain Requiem pools 1-20, 0..40 successes: icepool Again depth 40", t_ice))
    mismatches = 0
    for pool, g in ours.groupby("pool"):
        dist_ice, beyond_ice = theirs[pool]
        if g.p_exactly.tolist() != [dist_ice[s] for s in range(MAX_SUCCESSES + 1)] or g.p_more.iloc[-1] != beyond_ice:
            mismatches += 1

    # the same rules as mechanic files, counted by the one engine (median of runs, every cache cleared)
    from pathlib import Path

    from analysis.engine import count as engine
    from analysis.model import spec
    from analysis.model.spec import MechanicError

    files = Path(requiem.__file__).parent
    soif = spec.rules_of(spec.load(files / "soif.toml"))
    dice = spec.rules_of(spec.load(files / "dice.toml"))
    pools = f"{POOLS.start}-{POOLS.stop - 1}"
    soifs = f"{SOIFS.start}-{SOIFS.stop - 1}"
    engine.table(soif, exact=True, pool="1", soif="0-1")  # the kernels loaded
    t_file, by_file = median_of(lambda: engine.table(soif, exact=True, pool=pools, soif=soifs), engine.clear_caches)
    rows.append(("La Soif classes, the same grid: soif.toml on the one engine (median)", t_file))
    t_own, own = median_of(lambda: beast.table(POOLS, SOIFS, exact=True), clear)
    rows.append(("  and through the again-dice kernels (median)", t_own))
    t_dfile, _ = median_of(
        lambda: engine.table(dice, exact=True, pool=pools, at_least=f"1-{MAX_SUCCESSES}"), engine.clear_caches
    )
    rows.append(("plain Requiem pools 1-20, at least 1..40 successes: dice.toml on the one engine (median)", t_dfile))
    for c in beast.TABLE_COLUMNS[3:]:
        if list(by_file[c]) != list(own[c]):
            mismatches += 1

    # what the requiem (beast) command counts, as its file on the one engine against the again-dice kernels
    from analysis.engine import distribution

    versus = []
    for what, grid, top in [
        ("default table, pools 0-10 x Soif 0-5", ("0-10", "0-5"), None),
        ("pools 0-200 x Soif 0-5", ("0-200", "0-5"), None),
        ("default --distribution (20 successes)", ("0-10", "0-5"), 20),
        ("--distribution 40", ("0-10", "0-5"), 40),
        ("--distribution 100", ("0-10", "0-5"), 100),
        ("--distribution 200 (the most it takes)", ("0-10", "0-5"), 200),
    ]:
        grid_spec = {"pool": grid[0], "soif": grid[1]}
        if top is None:
            t_kernels, _ = median_of(lambda: beast.table(*grid, exact=True), clear)
            run = lambda: engine.table(soif, exact=True, **grid_spec)  # noqa: E731
        else:
            t_kernels, _ = median_of(lambda: beast.distribution_table(*grid, top, exact=True), clear)
            run = lambda: distribution.mechanic_table(soif, grid_spec, max_successes=top, exact=True)  # noqa: E731
        try:
            t_engine, _ = median_of(run, engine.clear_caches, repeats=3)
        except MechanicError:
            t_engine = None
        versus.append((what, t_kernels, t_engine))

    width = max(len(name) for name, _ in rows)
    print("beastodds benchmark: La Soif / Requiem (best of runs, warm JIT)")
    for name, t in rows:
        print(f"  {name:<{width}}  {t * 1000:9.1f} ms")
    print(f"  soif.toml on the one engine / the again-dice kernels: {t_file / t_own:.0f}x")
    print("  La Soif as the requiem command counts it (medians): again-dice kernels | soif.toml on the one engine")
    for what, t_kernels, t_engine in versus:
        shown = (
            "refused (work limit)"
            if t_engine is None
            else f"{t_engine * 1000:9.1f} ms ({(t_engine - t_kernels) * 1000:+.0f} ms)"
        )
        print(f"    {what:<40} {t_kernels * 1000:9.1f} ms | {shown}")
    print(f"  icepool / beastodds on plain Requiem: {t_ice / t_ours:.0f}x")
    print(
        f"  identical exact results (20 pools, each count 0..40 and the tail): "
        f"{'yes' if not mismatches else f'NO, {mismatches} pools differ'}"
    )
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
