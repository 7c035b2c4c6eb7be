"""The one-pass grid of the 5th-edition dice, in two limbs, against the per-pool kernels and brute force.

``kernels.special_chain.special_grid_class_limbs_into`` rolls the dice one at a
time and holds each count in two int64 limbs.  Here its class ways are
checked, cell by cell, against ``analysis.special_dice.counts`` (the
per-pool kernels: multinomials, each pool in primes and CRT) on random
engines (faces, pair bonus, mark bonus, class table, special dice
replacing or added), on grids that cross the int64 edge (18 dice) and reach
the two-limb edge (28 dice); and against every ordered roll of small pools.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from analysis import exact, special_dice
from analysis.special_dice import CAP, Engine
from kernels import quotients as kq
from kernels import special_chain as ks


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
            _, classes, _ = special_dice.counts(engine, nn, nh, tuple(diffs), force_modular=True)
            out.append([[int(x) for x in row] for row in np.asarray(classes).tolist()])
    return out


def _limbs(engine: Engine, pools, specials, diffs) -> list:
    hi, lo, _, _ = special_dice.limb_counts(
        engine, np.array(pools, dtype=np.int64), np.array(specials, dtype=np.int64), np.array(diffs, dtype=np.int64)
    )
    ways = hi.astype(object) * 2**exact.LIMB_BITS + lo.astype(object)
    assert (lo >= 0).all() and (lo < 2**exact.LIMB_BITS).all()  # carried
    return [[[int(x) for x in row] for row in cell] for cell in ways.reshape(-1, len(diffs), engine.n_classes).tolist()]


@pytest.mark.parametrize("seed", range(12))
def test_limbs_equal_the_per_pool_counts_on_random_engines(seed):
    rng = random.Random(seed)
    engine = _random_engine(rng, replaces=bool(seed % 2))
    top = 28 if engine.special_replaces else 23  # pool + special dice <= 28
    pools = sorted(rng.sample(range(0, top + 1), 5) + [top])
    specials = sorted(rng.sample(range(0, 6), 3))
    diffs = sorted({0, 1, rng.randint(2, 9), rng.randint(10, 30), 90})
    assert _limbs(engine, pools, specials, diffs) == _per_pool(engine, pools, specials, diffs)


def test_limbs_are_the_grid_of_every_pool_up_to_the_edge():
    # V5's faces, both edges: 18 dice (int64) and 28 (two limbs), every pool on the way
    engine = Engine.of((5, 4, 1), (1, 4, 4, 1), 2, (0, 0, 0), np.arange(54).reshape(3, 2, 3, 3) % 6, 6, True)
    pools, specials, diffs = list(range(0, 29)), [0, 1, 5], list(range(0, 12))
    got = _limbs(engine, pools, specials, diffs)
    assert got == _per_pool(engine, pools, specials, diffs)
    for cell, (pool, special) in zip(got, itertools.product(pools, specials)):
        assert all(sum(row) == 10**pool for row in cell)


def test_limbs_equal_every_ordered_roll_of_small_pools():
    rng = random.Random(7)
    for replaces in (True, False):
        engine = _random_engine(rng, replaces)
        w_n, w_s = engine.normal_faces, engine.special_faces
        # faces as categories: normal (fail, success, ten), special (mark, fail, success, ten)
        normal = [c for c, w in enumerate(w_n) for _ in range(w)]
        special = [c for c, w in enumerate(w_s) for _ in range(w)]
        pools, specials, diffs = [0, 1, 2, 3], [0, 1, 2], [0, 1, 2, 3, 5]
        got = _limbs(engine, pools, specials, diffs)
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


def test_the_kernel_refuses_scratch_too_small():
    engine = Engine.of((5, 4, 1), (1, 4, 4, 1), 2, (0, 0, 0), np.zeros((3, 2, 3, 3), dtype=np.int64), 6, True)
    w_n, w_s, bonus, table = engine.arrays()
    small = [np.zeros((ks.STATE_ROWS, 5), dtype=np.int64) for _ in range(6)]
    out = np.zeros((1, 1, 1, 6), dtype=np.int64)
    with pytest.raises(ValueError, match="scratch is too small"):
        ks.special_grid_class_limbs_into(
            np.array([10]),
            np.array([0]),
            np.array([1]),
            w_n,
            w_s,
            2,
            bonus,
            table,
            1,
            18,
            np.zeros((0, 6), dtype=np.int64),
            0,
            out,
            out.copy(),
            np.zeros((0, 0, 0, 0)),
            *small,
            np.zeros((2, CAP + 1, CAP + 1), dtype=np.int64),
            np.zeros((ks.STATE_ROWS // 2, 4), dtype=np.int64),
        )


def test_picks_and_floats_come_with_the_limbs():
    # the kernel's pick sums are the sums of its classes, and its floats those of the exact counts
    rng = random.Random(11)
    engine = _random_engine(rng, replaces=True)
    pools, specials, diffs = np.arange(0, 23), np.array([0, 3]), np.array([0, 2, 7])
    picks = [[0, 1], [engine.n_classes - 1], list(range(engine.n_classes))]
    hi, lo, floats, left = special_dice.limb_counts(engine, pools, specials, diffs, picks, floats=True)
    assert left == int(np.isnan(floats).sum())
    ways = hi.astype(object) * 2**exact.LIMB_BITS + lo.astype(object)
    k = engine.n_classes
    for e, p in enumerate(picks):
        assert (ways[..., k + e] == ways[..., p].sum(axis=-1)).all()
    assert (ways[..., k + 2] == np.array([10 ** int(n) for n in pools], dtype=object)[:, None, None]).all()
    dice = np.broadcast_to(pools[:, None, None, None], ways.shape)
    for w, n, q in zip(ways.ravel().tolist(), dice.ravel().tolist(), floats.ravel().tolist()):
        assert (q != q and n > kq.RATIO_MAX_DICE) or q == w / 10**n


@pytest.mark.parametrize("seed", range(4))
def test_floats_without_the_counts_are_the_floats_with_them(seed):
    # limb_floats lets the kernel keep one pool's counts at a time: the same floats, NaN included
    rng = random.Random(100 + seed)
    engine = _random_engine(rng, replaces=bool(seed % 2))
    pools, specials, diffs = np.arange(0, 24), np.array([0, 2, 5]), np.array([0, 1, 4, 9, 30])
    picks = [[0], list(range(engine.n_classes))]
    _, _, floats, left = special_dice.limb_counts(engine, pools, specials, diffs, picks, floats=True)
    got, got_left = special_dice.limb_floats(engine, pools, specials, diffs, picks)
    assert got_left == left > 0 and np.array_equal(got, floats, equal_nan=True)


def test_only_a_float_call_may_leave_the_counts_behind():
    engine = Engine.of((5, 4, 1), (1, 4, 4, 1), 2, (0, 0, 0), np.zeros((3, 2, 3, 3), dtype=np.int64), 1, True)
    w_n, w_s, bonus, table = engine.arrays()
    pools, specials, diffs = np.arange(1, 4), np.array([0, 1]), np.array([1, 2])
    one = np.zeros((1, 1, 2, 1), dtype=np.int64)
    scratch = [np.zeros((ks.STATE_ROWS, 16), dtype=np.int64) for _ in range(6)]
    scratch += [np.zeros((2, CAP + 1, CAP + 1), dtype=np.int64), np.zeros((ks.STATE_ROWS // 2, 4), dtype=np.int64)]
    args = (pools, specials, diffs, w_n, w_s, 2, bonus, table, 1, special_dice.INT64_DICE, np.zeros((0, 1), np.int64))
    with pytest.raises(ValueError, match="does not match"):  # counts asked for: a pool's scratch will not do
        ks.special_grid_class_limbs_into(*args, 0, one, one.copy(), np.zeros((0, 0, 0, 0)), *scratch)
    out = np.zeros((3, 2, 2, 1))
    assert ks.special_grid_class_limbs_into(*args, 1, one, one.copy(), out, *scratch) == 0
    assert (out == 1.0).all()  # one class: every roll in it


def test_the_limb_constants_agree_and_the_edges_are_where_the_counts_leave_them():
    assert kq.LIMB_BITS == exact.LIMB_BITS and kq.LIMB_MASK == 2**exact.LIMB_BITS - 1
    assert 10**special_dice.LIMB_DICE < exact.LIMBS_MAX <= 10 ** (special_dice.LIMB_DICE + 1)
    assert 10**special_dice.INT64_DICE <= exact.INT64_MAX < 10 ** (special_dice.INT64_DICE + 1)
    with pytest.raises(OverflowError):
        exact.count_limbs(lambda: (np.zeros(1, dtype=np.int64),) * 2, exact.LIMBS_MAX)


def _ratios(counts: list[tuple[int, int]]) -> list[float]:
    hi = np.array([v >> exact.LIMB_BITS for v, _ in counts], dtype=np.int64)
    lo = np.array([v & (2**exact.LIMB_BITS - 1) for v, _ in counts], dtype=np.int64)
    dice = np.array([n for _, n in counts], dtype=np.int64)
    out = np.empty(len(counts))
    left = kq.limb_ratios_into(hi, lo, dice, kq.TEN_POWERS, kq.FIVE_POWERS, kq.FIVE_BITS, out)
    declined = [v >= 2**53 and (n > kq.RATIO_MAX_DICE or v >= 2**55 * 5**n) for v, n in counts]
    assert [q != q for q in out.tolist()] == declined  # NaN exactly where it declines
    assert left == sum(declined)
    return out.tolist()


def test_limb_ratios_are_correctly_rounded():
    rng = random.Random(3)
    counts = [(rng.randint(0, 10**n), n) for n in range(0, 29) for _ in range(400)]
    counts += [(10**n - rng.randint(0, 10**6), n) for n in range(7, 21) for _ in range(50)]  # near 1
    counts += [(rng.randint(0, 2**60), n) for n in range(0, 21) for _ in range(50)]  # more than 10**n
    counts += [(rng.randint(2**54 * 5**n, 2**55 * 5**n - 1), n) for n in range(0, 3) for _ in range(50)]
    counts += [(2**55 * 5**n + k, n) for n in range(0, 21) for k in (-1, 0) if 2**55 * 5**n < 2**94]
    # exact ties, to even: an odd 54-bit numerator over a power of two (and its neighbours)
    for n in range(1, 21):
        for k in (2**53 + 1, 2**53 + 3, 2**54 - 1, 2**53 + 2):
            for v in (k * 5**n - 1, k * 5**n, k * 5**n + 1):
                if v < 2**94 and v >> exact.LIMB_BITS < 2**62:
                    counts.append((v, n))
    got = _ratios(counts)
    for (v, n), q in zip(counts, got):
        if q != q:
            assert n > kq.RATIO_MAX_DICE or v >= 2**55 * 5**n
        else:
            assert q == v / 10**n, (v, n)  # Python's int / int is correctly rounded


@pytest.mark.parametrize("system", ["v5", "werewolf", "hunter"])
def test_float_tables_are_the_floats_of_the_exact_ones(system):
    # across every path: the kernel's quick division, its long division, Python's (pools 21 to 28)
    # and pools past the two limbs (29, 30)
    from analysis import rulesets
    from analysis.mechanic import engine
    from analysis.mechanic.system import shipped

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
    # the two agree (special_dice._arrays builds them from the tuples)
    rng = random.Random(5)
    for replaces in (True, False):
        engine = _random_engine(rng, replaces)
        made = engine.arrays()
        again = special_dice._arrays(engine)
        assert all(a.dtype == b.dtype and a.shape == b.shape and (a == b).all() for a, b in zip(made, again))
        assert not any(a.flags.writeable for a in made)
