"""The shortcuts of the first table of a rule set give what the long ways give: the grid bounds
formed once, long-double quotients, and expressions of plain ints evaluated without numpy."""

import random
from fractions import Fraction

import numpy as np
import pytest

from analysis.engine import exact
from analysis.model import expr as E
from kernels import special as ks


def _faces(rng, n):
    while True:
        w = [rng.randint(0, 10) for _ in range(n)]
        if sum(w) == 10:
            return w


def test_grid_pool_bounds_equal_the_per_pool_bound():
    rng = random.Random(1)
    for _ in range(1500):
        pools = [rng.randint(0, 60) for _ in range(rng.randint(1, 4))]
        specials = [rng.randint(0, 8) for _ in range(rng.randint(1, 4))]
        replaces = rng.randint(0, 1)
        w_n, w_s = _faces(rng, 3), _faces(rng, 4)
        assert ks.special_grid_pool_bounds(pools, specials, replaces, w_n, w_s) == [
            ks.special_grid_class_ways_bound([p], specials, replaces, w_n, w_s) for p in pools
        ]


def test_float_ratios_round_like_the_fraction_past_two_to_the_53():
    rng = random.Random(5)
    ways, dens = [], []
    for _ in range(40000):
        d = 10 ** rng.randint(14, 18)
        ways.append(rng.choice([rng.randint(0, d), rng.getrandbits(rng.randint(1, 62)) % (d + 1)]))
        dens.append(d)
    for _ in range(4000):  # exactly halfway between two float64s: the long-double quotient cannot tell
        m = rng.getrandbits(52) | (1 << 52)
        ways.append((2 * m + 1) << rng.randint(0, 8))
        dens.append(2**62)
        ways.append(-ways[-1])
        dens.append(2**62)
    got = exact.float_ratios(np.array(ways, dtype=np.int64), np.array(dens, dtype=np.int64))
    want = [float(Fraction(w, d)) for w, d in zip(ways, dens)]
    assert got.tolist() == want
    assert exact.float_ratios(np.array(ways, dtype=object), np.array(dens, dtype=object)).tolist() == want


def _expression(rng, depth):
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(["a", "b", "c", str(rng.randint(-5, 12)), "999999"])
    x, y = _expression(rng, depth - 1), _expression(rng, depth - 1)
    return rng.choice(
        [
            f"({x} + {y})",
            f"({x} - {y})",
            f"({x} * {y})",
            f"({x} // {y})",
            f"({x} % {y})",
            f"min({x}, {y})",
            f"max({x}, {y}, 3)",
            f"({x} if {x} > {y} else {y})",
            f"abs({x})",
            f"(-{x})",
            f"ceil({x} / {y})",
        ]
    )


def _condition(rng, depth):
    x, y, z = (_expression(rng, depth) for _ in range(3))
    return rng.choice(
        [f"{x} < {y} <= {z}", f"({x} == {y}) and ({y} != {z})", f"not ({x} >= {y}) or {z} > 0", f"{x} > {y}"]
    )


def _outcome(e, env):
    try:
        v = e.evaluate(env)
        return "value", type(v), v
    except E.ExprError as err:
        return "error", str(err)


@pytest.mark.parametrize("seed", range(3))
def test_plain_ints_are_evaluated_as_arrays_are(seed):
    """Plain ints take a Python path; numpy ints the array path: same value, type and message,
    divisions by zero included, wherever the engine evaluates (values whose every intermediate
    :meth:`check_range` bounds within 2**62; beyond, numpy arrays may wrap and the engine never goes)."""
    rng = random.Random(seed)
    names = {"a": "int", "b": "int", "c": "int"}
    checked = 0
    for i in range(1500):
        text = _expression(rng, 4) if i % 2 else _condition(rng, 3)
        e = E.parse(text, names=names)
        env = {
            k: rng.randint(-6, 6) if rng.random() < 0.8 else rng.choice([2**62, -(2**63), 2**63 - 1, 3037000500])
            for k in names
        }
        try:
            e.check_range({k: (v, v) for k, v in env.items()})
        except E.ExprError:
            continue
        checked += 1
        assert _outcome(e, env) == _outcome(e, {k: np.int64(v) for k, v in env.items()}), (text, env)
    assert checked > 500


def test_grid_ways_gives_each_pool_s_counts():
    """The whole grid's counts (no ``finish``) are each pool's, from its own kernel call, past int64 too."""
    from analysis.workbench import rulesets
    from analysis.engine import pairs_count as sd
    from analysis.engine import count as engine, pairs
    from analysis.model.spec import shipped

    eng = pairs.special_engine(engine.rules_of(shipped(rulesets.system("v5"))))
    pools, specials, diffs = [0, 3, 17, 24], [0, 2, 5], [0, 1, 4, 9]
    ways, dens = sd.grid_ways(eng, pools, specials, diffs)
    for i, p in enumerate(pools):
        for j, h in enumerate(specials):
            _, classes, den = sd.counts(eng, *eng.dice(p, h), tuple(diffs))
            assert [[int(x) for x in row] for row in classes.tolist()] == ways[i, j].tolist()
            assert dens[i, j, 0, 0] == den
