"""The one-pass grid of the 5th-edition dice against the per-pool kernels and brute force.

``analysis.engine.pairs_count.chain_ways`` rolls the dice one at a time on the
pair-of-tens states (``kernels.mechanic.mechanic_walk``).  Here its class
ways are checked, cell by cell, against ``analysis.engine.pairs_count.counts``
(the per-pool kernels: multinomials, each pool in primes and CRT) on random
engines (faces, pair bonus, mark bonus, class table, special dice replacing
or added), on grids that cross the int64 edge (18 dice) and reach the
chain's edge (28 dice); and against every ordered roll of small pools.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from analysis.engine import exact, pairs_count
from analysis.engine.pairs_count import CAP, Engine


def _random_engine(rng: random.Random, replaces: bool) -> Engine:
    def split(parts: int) -> list[int]:
        cuts = sorted(rng.randint(0, 10) for _ in range(parts - 1))
        return [b - a for a, b in zip([0] + cuts, cuts + [10])]

    n_classes = rng.randint(2, 7)
    table = np.array([rng.randrange(n_classes) for _ in range(3 * 2 * (CAP + 1) ** 2)]).reshape(3, 2, CAP + 1, CAP + 1)
    return Engine.of(
        split(3),
        split(4),
        rng.randint(0, 3),
        [rng.choice([0, 0, 1, 4]) for _ in range(CAP + 1)],
        table,
        n_classes,
        replaces,
    )


def _per_pool(engine: Engine, pools, specials, diffs) -> list:
    out = []
    for pool in pools:
        for special in specials:
            nn, nh = engine.dice(pool, special)
            _, classes, _ = pairs_count.counts(engine, nn, nh, tuple(diffs), force_modular=True)
            out.append([[int(x) for x in row] for row in np.asarray(classes).tolist()])
    return out


def _chain(engine: Engine, pools, specials, diffs) -> list:
    ways = pairs_count.chain_ways(engine, pools, specials, diffs)
    most = max(sum(engine.dice(p, h)) for p in pools for h in specials)
    assert ways.dtype == (object if most > pairs_count.INT64_DICE else np.int64)  # int64 while it fits
    return [[[int(x) for x in row] for row in cell] for cell in ways.reshape(-1, len(diffs), engine.n_classes).tolist()]


@pytest.mark.parametrize("seed", range(12))
def test_chain_equal_the_per_pool_counts_on_random_engines(seed):
    rng = random.Random(seed)
    engine = _random_engine(rng, replaces=bool(seed % 2))
    top = 28 if engine.special_replaces else 23  # pool + special dice <= 28
    pools = sorted(rng.sample(range(0, top + 1), 5) + [top])
    specials = sorted(rng.sample(range(0, 6), 3))
    diffs = sorted({0, 1, rng.randint(2, 9), rng.randint(10, 30), 90})
    assert _chain(engine, pools, specials, diffs) == _per_pool(engine, pools, specials, diffs)


def test_chain_are_the_grid_of_every_pool_up_to_the_edge():
    # V5's faces, both edges: 18 dice (int64) and 28 (the chain's last), every pool on the way
    engine = Engine.of((5, 4, 1), (1, 4, 4, 1), 2, (0, 0, 0), np.arange(54).reshape(3, 2, 3, 3) % 6, 6, True)
    pools, specials, diffs = list(range(0, 29)), [0, 1, 5], list(range(0, 12))
    got = _chain(engine, pools, specials, diffs)
    assert got == _per_pool(engine, pools, specials, diffs)
    for cell, (pool, special) in zip(got, itertools.product(pools, specials)):
        assert all(sum(row) == 10**pool for row in cell)


def test_chain_equal_every_ordered_roll_of_small_pools():
    rng = random.Random(7)
    for replaces in (True, False):
        engine = _random_engine(rng, replaces)
        w_n, w_s = engine.normal_faces, engine.special_faces
        # faces as categories: normal (fail, success, ten), special (mark, fail, success, ten)
        normal = [c for c, w in enumerate(w_n) for _ in range(w)]
        special = [c for c, w in enumerate(w_s) for _ in range(w)]
        pools, specials, diffs = [0, 1, 2, 3], [0, 1, 2], [0, 1, 2, 3, 5]
        got = _chain(engine, pools, specials, diffs)
        cell = 0
        for pool, n_special in itertools.product(pools, specials):
            nn, nh = engine.dice(pool, n_special)
            want = [[0] * engine.n_classes for _ in diffs]
            for roll in itertools.product(*([normal] * nn + [special] * nh)):
                kinds = roll[:nn], roll[nn:]
                tens = kinds[0].count(2) + kinds[1].count(3)
                s = kinds[0].count(1) + tens + kinds[1].count(2) + engine.crit_bonus * (tens // 2)
                ec, oc = kinds[1].count(3), kinds[1].count(0)
                for i, d in enumerate(diffs):
                    want[i][engine.classify(s, tens, ec, oc, d)] += 1
            assert got[cell] == want, (replaces, pool, n_special)
            cell += 1


def test_picks_come_with_the_classes():
    # the pick sums are the sums of their classes, and all classes together are every roll
    rng = random.Random(11)
    engine = _random_engine(rng, replaces=True)
    pools, specials, diffs = list(range(0, 23)), [0, 3], [0, 2, 7]
    picks = [[0, 1], [engine.n_classes - 1], list(range(engine.n_classes))]
    ways = pairs_count.chain_ways(engine, pools, specials, diffs, picks)
    k = engine.n_classes
    for e, p in enumerate(picks):
        assert (ways[..., k + e] == ways[..., p].sum(axis=-1)).all()
    assert (ways[..., k + 2] == np.array([10**n for n in pools], dtype=object)[:, None, None]).all()


def test_the_edges_are_where_the_counts_leave_them():
    assert 10**pairs_count.INT64_DICE <= exact.INT64_MAX < 10 ** (pairs_count.INT64_DICE + 1)
    engine = _random_engine(random.Random(2), replaces=True)
    with pytest.raises(ValueError, match="past the chain"):
        pairs_count.chain_ways(engine, [pairs_count.CHAIN_DICE + 1], [0], [1])


@pytest.mark.parametrize("system", ["v5", "werewolf", "hunter"])
def test_float_tables_are_the_floats_of_the_exact_ones(system):
    # across every path: int64 counts (up to 18 dice), Python ints (19 to 28) and pools past the
    # chain (29, 30)
    from analysis.workbench import rulesets
    from analysis.engine import count as engine
    from analysis.model.spec import shipped

    rules = engine.rules_of(shipped(rulesets.system(system)))
    mech = rules.mechanic
    axes = {a: v for a, v in zip(engine.pool_axes(mech), ([0, 1, 7, 15, 16, 18, 19, 20, 21, 28, 29, 30], [0, 2, 5]))}
    floats = engine.table(rules, **axes, difficulty=[0, 1, 3, 6, 11])
    fracs = engine.table(rules, exact=True, **axes, difficulty=[0, 1, 3, 6, 11])
    columns = list(mech.classes) + [c.name for c in mech.columns]
    assert len(floats) == len(fracs) >= 12 * 3 * 5
    for c in columns:
        assert floats[c].tolist() == [float(x) for x in fracs[c]], c


def test_an_engine_s_arrays_are_its_tuples():
    # Engine.of makes the kernels' arrays from the arrays it is given, beside the tuples it keeps:
    # the two agree (pairs_count._arrays builds them from the tuples)
    rng = random.Random(5)
    for replaces in (True, False):
        engine = _random_engine(rng, replaces)
        made = engine.arrays()
        again = pairs_count._arrays(engine)
        assert all(a.dtype == b.dtype and a.shape == b.shape and (a == b).all() for a, b in zip(made, again))
        assert not any(a.flags.writeable for a in made)
