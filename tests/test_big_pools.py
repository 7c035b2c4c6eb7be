"""Big pools in Python ints (``analysis.engine.pairs_count.big_pool_ways``), correctly rounded floats,
and the cached cube behind warm V5 tables."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from analysis.engine import exact, pairs_count as sd
from analysis.systems.hunter import desperation as hunter
from analysis.systems.v5 import roll as v5
from analysis.systems.werewolf import rage as werewolf
from kernels import special as ks
from kernels.multiset import fill_binomials
from tests import oracles_v5_kernels as kv5

FACES = [((5, 4, 1), (1, 4, 4, 1)), ((1, 8, 1), (1, 0, 8, 1)), ((8, 1, 1), (2, 6, 1, 1)), ((9, 0, 1), (1, 8, 0, 1))]


def _kernel_ways(nn, ns, w_n, w_s, bonus, force_modular=False):
    """The kernels' ways by (s, pair, ec, oc): int64, or primes and CRT (an independent method)."""
    n = nn + ns
    size = n + bonus * (n // 2) + 1

    def compute(mod):
        out = np.zeros((size, 2, ks.CAP + 1, ks.CAP + 1), dtype=np.int64)
        binom = np.empty((n + 1, n + 1), dtype=np.int64)
        fill_binomials(mod, binom)
        ks.special_pool_ways(nn, ns, np.array(w_n), np.array(w_s), bonus, mod, binom, out)
        return out

    bound = ks.special_pool_ways_bound(nn, ns, w_n, w_s, n + 1)
    return exact.count(compute, bound, force_modular=force_modular).astype(object)


@pytest.mark.parametrize("w_n,w_s", FACES)
def test_big_pool_ways_equal_the_kernel_on_small_pools(w_n, w_s):
    for bonus, nn, ns in itertools.product((0, 1, 2, 3, 5), range(9), range(6)):
        got = sd.big_pool_ways(nn, ns, w_n, w_s, bonus)
        assert (got == _kernel_ways(nn, ns, w_n, w_s, bonus)).all(), (w_n, w_s, bonus, nn, ns)


@pytest.mark.parametrize("nn,ns,bonus", [(19, 5, 2), (45, 3, 2), (60, 5, 3), (33, 0, 1)])
def test_big_pool_ways_equal_the_modular_kernel_past_int64(nn, ns, bonus):
    w_n, w_s = FACES[0]
    got = sd.big_pool_ways(nn, ns, w_n, w_s, bonus)
    assert (got == _kernel_ways(nn, ns, w_n, w_s, bonus, force_modular=True)).all()
    assert sum(got.ravel().tolist()) == 10 ** (nn + ns)


def test_classify_big_equals_the_kernel_classify():
    for messy, bestial, taint in itertools.product((1, 2), (1, 2), (0, 1)):
        table = kv5.v5_class_table(messy, bestial, taint)
        for bonus in ([0, 0, 0], [0, 0, 4], [0, 3, 4]):
            ways = _kernel_ways(9, 3, (5, 4, 1), (1, 4, 4, 1), 2).astype(np.int64)
            diffs = np.arange(0, 40)
            want = np.empty((len(diffs), 6), dtype=np.int64)
            ks.special_classify(ways, diffs, np.array(bonus), table, 0, want)
            got = sd.classify_big(ways.astype(object), diffs, bonus, table, 6)
            assert (got == want).all(), (messy, bestial, taint, bonus)


def _features_at(n_normal, n_hunger, z, bonus=2):
    """Independent count, die by die: ``{(pair, ec, oc): sum_s ways[s, pair, ec, oc] * z**s}``.

    States: tens so far (0, 1, even >= 2, odd >= 2), capped Hunger tens and ones.
    """
    next_tens = (1, 2, 3, 2)
    state = {(0, 0, 0): 1}
    for die in range(n_hunger + n_normal):
        hunger = die < n_hunger
        new = {}
        for (t, e, o), w in state.items():
            ten_gain = z ** (1 + (bonus if t in (1, 3) else 0))
            moves = [
                ((t, e, o), w * (4 if hunger else 5)),
                ((t, e, o), w * 4 * z),
                ((next_tens[t], min(e + hunger, 2), o), w * ten_gain),
            ]
            if hunger:
                moves.append(((t, e, min(o + 1, 2)), w))
            for key, v in moves:
                new[key] = new.get(key, 0) + v
        state = new
    out = {}
    for (t, e, o), w in state.items():
        key = (int(t >= 2), e, o)
        out[key] = out.get(key, 0) + w
    return out


def test_pool_1000_against_an_independent_big_int_count():
    odds = v5.odds(1000, 5, 333)
    assert odds.denominator == 10**1000
    assert sum(odds.class_ways.values()) == 10**1000
    # the ways the engine's pair-of-tens path counts for this cell (pairs.count makes this same call)
    from analysis.engine import pairs

    rules = v5.mechanic_rules(v5.OFFICIAL)
    ways, _, _ = sd.counts(pairs._engine_of(rules, pairs.form(rules.mechanic), ()), 995, 5, (333,))
    assert ways.dtype == object
    for z in (1, 2, 3):
        want = _features_at(995, 5, z)
        powers = [z**s for s in range(ways.shape[0])]
        for (pair, ec, oc), w in want.items():
            got = sum(p * x for p, x in zip(powers, ways[:, pair, ec, oc].tolist()))
            assert got == w, (z, pair, ec, oc)
    # p_win against the success distribution, summed independently of the classes
    assert odds.p_win == Fraction(sum(w for s, w in odds.success_ways.items() if s >= 333), 10**1000)


def _special_features(n_normal, n_special, special_faces):
    """Independent count, die by die in Python ints: ``{(successes, tens state, special marks): ways}``.

    Official faces (success 6+, a pair of 10s adds 2); a special die's first
    ``special_faces[0]`` faces are its marks (capped at 2).  Tens states:
    0, 1, even >= 2, odd >= 2.
    """
    next_tens = (1, 2, 3, 2)
    state = {(0, 0, 0): 1}
    for die in range(n_special + n_normal):
        special = die < n_special
        marks, fails = (special_faces[0], special_faces[1]) if special else (0, 5)
        new = {}
        for (s, t, o), w in state.items():
            moves = [
                ((s, t, o), w * fails),
                ((s + 1, t, o), w * 4),
                ((s + 1 + (2 if t in (1, 3) else 0), next_tens[t], o), w),
            ]
            if marks:
                moves.append(((s, t, min(o + 1, 2)), w * marks))
            for key, v in moves:
                new[key] = new.get(key, 0) + v
        state = new
    return state


@pytest.mark.parametrize("system,ns", [(werewolf, 4), (hunter, 3)])
def test_werewolf_and_hunter_big_pools_equal_an_independent_big_int_count(system, ns):
    # 24 normal dice and the special dice: past int64, the engine's modular (CRT) counts against a count
    # die by die in Python ints, classed by the rules restated in tests.oracles_special
    from tests import oracles_special

    feats = _special_features(24, ns, (2, 3) if system is werewolf else (1, 4))
    for d in (0, 5, 12, 40):
        if system is werewolf:
            o = werewolf.odds(24 + ns, ns, d, violent=True)
            classify = lambda s, tens, marks: oracles_special.classify_werewolf(s, tens, marks, d, True)
        else:
            o = hunter.odds(24, ns, d)
            classify = lambda s, tens, marks: oracles_special.classify_hunter(s, tens, marks, d)
        assert o.kind_dice == (24, ns) and o.denominator == 10 ** (24 + ns) > exact.INT64_MAX
        want = dict.fromkeys(system.CLASSES, 0)
        for (s, t, marks), w in feats.items():
            want[classify(s, min(t, 2), marks)] += w
        assert o.class_ways == want, d
        assert max(want.values()) > exact.INT64_MAX


def test_float_ratios_are_correctly_rounded():
    # 65535/65536 over 10**16: float(ways) / float(den) is one ulp off here
    ways, den = 9999847412109375, 10**16
    assert float(ways) / float(den) != float(Fraction(ways, den))
    got = exact.float_ratios(np.array([ways, 3, 2**60 + 1]), np.array([den, 7, 3 * 2**60]))
    assert got.tolist() == [float(Fraction(ways, den)), float(Fraction(3, 7)), float(Fraction(2**60 + 1, 3 * 2**60))]
    objs = exact.float_ratios(np.array([10**400, 1], dtype=object), np.array([3 * 10**400, 3], dtype=object))
    assert objs.tolist() == [1 / 3, 1 / 3]


@pytest.mark.parametrize(
    "rules",
    [v5.OFFICIAL, v5.V5Rules(hunger_replaces_dice=False, crit_bonus=3, success_face=7, hunger_one_taints_win=True)],
)
@pytest.mark.parametrize("pools", ["0-22", "31,45"])
def test_every_float_of_a_table_is_float_of_its_fraction(rules, pools):
    floats = v5.table(pools, "0-5", "0-12,30,99", rules=rules)
    fractions = v5.table(pools, "0-5", "0-12,30,99", rules=rules, exact=True)
    assert list(floats.columns) == list(fractions.columns)
    for c in v5.CLASSES + ("p_win",):
        assert floats[c].tolist() == [float(f) for f in fractions[c]], c
    assert v5.table(16, 0, 1).p_win.iloc[0] == 0.9999847412109375


def test_warm_tables_are_the_counted_odds_and_a_caller_s_edit_stays_its_own():
    df = v5.table("1-20", "0-5", "1-10,44")
    for pool, hunger, d in [(1, 0, 1), (7, 3, 4), (19, 5, 10), (20, 2, 44)]:
        row = df[(df.pool == pool) & (df.hunger == hunger) & (df.difficulty == d)].iloc[0]
        odds = v5.odds(pool, hunger, d)
        assert row.p_win == float(odds.p_win) and row.messy_critical == float(odds.messy_critical)
    df.loc[:, "p_win"] = -1.0  # a caller's edit must not reach the cache
    assert (v5.table("1-20", "0-5", "1-10,44").p_win >= 0).all()


@pytest.mark.parametrize("w_n,w_s", [FACES[0], *(pytest.param(*f, marks=pytest.mark.slow) for f in FACES[1:3])])
def test_big_pool_classes_equal_the_classified_ways(w_n, w_s):
    diffs = list(range(0, 45)) + [100, 10**30]
    for bonus, (messy, bestial, taint), mark_bonus, (nn, ns) in itertools.product(
        (0, 2, 3),
        itertools.product((1, 2), (1, 2), (0, 1)),
        ([0, 0, 0], [0, 0, 4], [0, 3, 4]),
        [(0, 0), (3, 2), (7, 5), (30, 4), (12, 0), (0, 5)],
    ):
        table = kv5.v5_class_table(messy, bestial, taint)
        want = sd.classify_big(sd.big_pool_ways(nn, ns, w_n, w_s, bonus), diffs, mark_bonus, table, 6)
        got = sd.big_pool_classes(nn, ns, w_n, w_s, bonus, diffs, mark_bonus, table, 6)
        assert (got == want).all(), (bonus, messy, bestial, taint, mark_bonus, nn, ns)


def test_a_big_grid_equals_odds_one_by_one():
    df = v5.table("29,64,150", "0,3,5", "1,20,60,400", exact=True)
    for r in df.itertuples():
        odds = v5.odds(r.pool, r.hunger, r.difficulty)
        assert [getattr(r, c) for c in v5.CLASSES] == list(odds.classes().values())
        assert r.p_win == odds.p_win
