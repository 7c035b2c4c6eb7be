"""V5 full table: our API against a plain pure-Python count, icepool and a multinomial count, in one run;
big pools (exact odds of 100, 400 and 1000 dice)."""

from __future__ import annotations

import gc
import os
import statistics
import time
from fractions import Fraction

from analysis.systems.v5 import roll as v5
from tests import oracles

POOLS, HUNGERS, DIFFICULTIES = range(1, 21), range(0, 6), range(1, 11)


def best_of(fn, repeat):
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def ours():
    return v5.table(POOLS, HUNGERS, DIFFICULTIES, exact=True)


def ours_float():
    return v5.table(POOLS, HUNGERS, DIFFICULTIES)


def icepool_table():
    evaluator = oracles.icepool_v5_evaluator()  # one evaluator reused across the whole table
    return {
        (p, h, d): cls
        for p in POOLS
        for h in HUNGERS
        for d, cls in oracles.icepool_v5(evaluator, p, h, DIFFICULTIES).items()
    }


def pure_python():
    return oracles.multinomial_v5_table(POOLS, HUNGERS, DIFFICULTIES)


def plain_count(pools=POOLS, hungers=HUNGERS, difficulties=DIFFICULTIES):
    """The same table by a plain pure-Python integer count (official rules).

    One dict per (pool, Hunger) of the joint counts by (successes, tens so
    far as 0, 1, even >= 2 or odd >= 2, Hunger 10s, Hunger 1s, both capped
    at 2), grown one die at a time (the Hunger dice first, then the normal
    dice, so that each pool extends the one before); then each Difficulty
    sums the dict into the six classes.  Returns
    ``{(pool, hunger, difficulty): (ways per class, 10 ** pool)}``.
    """
    next_tens = (1, 2, 3, 2)

    def roll(joint, hunger_die):
        new = {}
        for (s, t, e, o), w in joint.items():
            ten = (s + 1 + (2 if t in (1, 3) else 0), next_tens[t], min(e + hunger_die, 2), o)
            faces = [((s, t, e, o), 4 if hunger_die else 5), ((s + 1, t, e, o), 4), (ten, 1)]
            if hunger_die:
                faces.append(((s, t, e, min(o + 1, 2)), 1))
            for key, k in faces:
                new[key] = new.get(key, 0) + w * k
        return new

    out = {}
    top = max(pools)
    for hunger in hungers:
        joint = {(0, 0, 0, 0): 1}
        for pool in range(top + 1):
            if pool:
                joint = roll(joint, pool <= hunger)
            if pool not in pools:
                continue
            # (successes, class if a win, class if not) -> ways
            classes = {}
            for (s, t, e, o), w in joint.items():
                key = (s, (4 if e else 3) if t >= 2 else 2, 5 if o else (1 if s else 0))
                classes[key] = classes.get(key, 0) + w
            for d in difficulties:
                ways = [0] * 6
                for (s, k_win, k_fail), w in classes.items():
                    ways[k_win if s >= d else k_fail] += w
                out[(pool, hunger, d)] = (ways, 10**pool)
    return out


def same(df, ref) -> bool:
    return all({c: getattr(r, c) for c in v5.CLASSES} == ref[(r.pool, r.hunger, r.difficulty)] for r in df.itertuples())


def timings(fn, repeat, setup=None):
    """Wall times of ``repeat`` runs of ``fn()`` (``setup()`` untimed before each) and the last result."""
    times, result = [], None
    for _ in range(repeat):
        if setup:
            setup()
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return times, result


def median(values):
    return statistics.median(values)


def clear_counts():
    """Forget every cached count, so that the next call counts from scratch."""
    from analysis.engine import pairs_count
    from analysis.engine import count as engine

    v5._cell_ways.cache_clear()
    engine.clear_caches()  # the engine's tables, class tables and pair-path pools
    pairs_count.counts.cache_clear()
    pairs_count.clear_caches()


def same_as_plain(df_exact, df_float, ref) -> bool:
    """Every cell of the exact table equals the plain count, and every float is float(Fraction)."""
    for r, f in zip(df_exact.itertuples(), df_float.itertuples()):
        ways, den = ref[(r.pool, r.hunger, r.difficulty)]
        for c, w in zip(v5.CLASSES, ways):
            exact = Fraction(w, den)
            if getattr(r, c) != exact or getattr(f, c) != float(exact):
                return False
    return True


def main():
    cells = len(POOLS) * len(HUNGERS) * len(DIFFICULTIES)
    print(
        f"full V5 table: pools 1..20 x Hunger 0..5 x Difficulty 1..10 = {cells} cells "
        f"({os.cpu_count()} cores; medians of several runs, the best in brackets)"
    )
    ours()  # compile / load the JIT cache
    gc.collect()
    # Interleave the contenders over several rounds, so that a slow spell of
    # a shared machine does not land on one of them alone.
    times = {"ours": [], "float": [], "plain": [], "icepool": [], "python": []}
    for round_ in range(5):
        for name, fn, n in (
            ("ours", ours, 15),
            ("float", ours_float, 15),
            ("plain", plain_count, 1),
            ("icepool", icepool_table, 1),
            ("python", pure_python, 1),
        ):
            if name in ("icepool", "python") and round_ >= 2:
                continue
            t, result = timings(fn, n)
            times[name] += t
            if name == "ours":
                df = result
            elif name == "float":
                df_float = result
            elif name == "plain":
                ref_plain = result
            elif name == "icepool":
                ref_ice = result
            elif name == "python":
                ref_py = result
    med = {k: median(v) for k, v in times.items()}
    best = {k: min(v) for k, v in times.items()}
    ok_ice, ok_py = same(df, ref_ice), same(df, ref_py)
    ok_plain = same_as_plain(df, df_float, ref_plain)
    ratio_plain = med["plain"] / med["float"]
    print(f"  beastodds table(), floats (warm)      {med['float'] * 1e3:9.3f} ms  ({best['float'] * 1e3:.3f})")
    print(f"  beastodds table(exact=True) (warm)    {med['ours'] * 1e3:9.3f} ms  ({best['ours'] * 1e3:.3f})")
    print(
        f"  plain pure-Python integer count       {med['plain'] * 1e3:9.1f} ms  ({best['plain'] * 1e3:.1f})"
        f"  ratio {ratio_plain:6.0f}x (target >= 40x)  identical exact results and "
        f"floats == float(Fraction): {ok_plain}"
    )
    print(
        f"  icepool MultisetEvaluator             {med['icepool'] * 1e3:9.1f} ms  "
        f"ratio {med['icepool'] / med['ours']:6.0f}x over the exact table  identical: {ok_ice}"
    )
    print(
        f"  pure-Python multinomial (factorials)  {med['python'] * 1e3:9.1f} ms  "
        f"ratio {med['python'] / med['ours']:6.0f}x over the exact table  identical: {ok_py}"
    )

    def cold_table():
        clear_counts()
        __import__("analysis.engine.pairs_count").engine.pairs_count.binomials.cache_clear()
        return v5.table(POOLS, HUNGERS, DIFFICULTIES)

    t, _ = timings(cold_table, 5)
    print(f"  same table, cold (counted, then cached) {median(t) * 1e3:7.2f} ms")
    for args, repeat in (((100, 5, 30), 5), ((400, 5, 133), 3), ((1000, 5, 333), 3)):
        t, result = timings(lambda a=args: v5.odds(*a), repeat, setup=clear_counts)
        assert sum(result.class_ways.values()) == result.denominator
        print(f"  odds{args} exact, cold   {median(t) * 1e3:9.1f} ms  ({min(t) * 1e3:.1f})")
    # a second process's start-up is measured by tests/benchmarks/startup.py
    if not (ok_ice and ok_py and ok_plain):
        raise SystemExit("benchmark results differ from the references")


if __name__ == "__main__":
    main()
