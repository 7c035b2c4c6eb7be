"""The exact path: int64 and modular twins agree, overflow is refused, CRT rebuilds big counts."""

from fractions import Fraction
from math import prod

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.engine import exact
from analysis.systems.v5 import roll as v5
from tests import oracles_v5_kernels as k
from kernels.multiset import fill_binomials


def pool_ways(n_normal, n_hunger, mod):
    rules = v5.OFFICIAL
    n = n_normal + n_hunger
    out = np.zeros((n + 2 * (n // 2) + 1, 2, 3, 3), dtype=np.int64)
    binom = np.empty((n + 1, n + 1), dtype=np.int64)
    fill_binomials(mod, binom)
    k.v5_pool_ways(n_normal, n_hunger, np.array(rules.normal_faces), np.array(rules.hunger_faces), 2, mod, binom, out)
    return out


@pytest.mark.parametrize("n", [0, 1, 5, 12, 18])
def test_int64_and_modular_twins_agree(n):
    for h in (0, min(3, n), min(5, n)):
        compute = lambda mod: pool_ways(n - h, h, mod)  # noqa: E731
        plain = exact.int64_counts(compute, 10**n)
        modular = exact.count(compute, 10**n, force_modular=True)
        assert plain.dtype == np.int64 and modular.dtype == object
        assert plain.tolist() == modular.tolist()
        assert int(plain.sum()) == 10**n


def test_int64_path_refuses_counts_that_would_overflow():
    with pytest.raises(OverflowError):
        exact.int64_counts(lambda mod: pool_ways(19, 0, mod), 10**19)


def test_the_guard_matters_int64_would_wrap_at_pool_30():
    wrapped = pool_ways(25, 5, 0)  # what plain int64 gives, unchecked
    exact_ways = exact.count(lambda mod: pool_ways(25, 5, mod), 10**30)
    assert sum(exact_ways.ravel().tolist()) == 10**30
    assert max(exact_ways.ravel().tolist()) > exact.INT64_MAX
    assert wrapped.ravel().tolist() != exact_ways.ravel().tolist()


@given(st.lists(st.integers(0, 10**40), min_size=1, max_size=20))
def test_crt_rebuilds_integers(values):
    bound = max(values)
    primes = exact.primes_for(bound)
    assert prod(primes) > bound and all(p < 2**31 for p in primes)
    residues = [np.array([v % p for v in values], dtype=np.int64) for p in primes]
    assert exact.crt(residues, primes).tolist() == values


def test_primes_are_prime_and_distinct():
    primes = exact.primes_for(10**300)
    assert len(set(primes)) == len(primes)
    for p in primes[:5]:
        assert all(p % d for d in range(2, 5000))


@given(st.lists(st.tuples(st.integers(0, 10**30), st.integers(1, 10**30)), min_size=1, max_size=30))
def test_fractions_over_matches_fraction(pairs):
    ways = np.array([w for w, _ in pairs], dtype=object)
    dens = np.array([d for _, d in pairs], dtype=object)
    got = exact.fractions_over(ways, dens).tolist()
    assert got == [Fraction(w, d) for w, d in pairs]
    for f, (w, d) in zip(got, pairs):
        assert (f.numerator, f.denominator) == (Fraction(w, d).numerator, Fraction(w, d).denominator)
        assert hash(f) == hash(Fraction(w, d))


def test_fractions_over_int64():
    ways = np.array([[0, 5, 10], [3, 7, 1000]], dtype=np.int64)
    dens = np.array([[10], [1000]], dtype=np.int64)
    assert exact.fractions_over(ways, dens).tolist() == [
        [Fraction(0), Fraction(1, 2), Fraction(1)],
        [Fraction(3, 1000), Fraction(7, 1000), Fraction(1)],
    ]


@pytest.mark.slow
def test_kernels_can_be_called_from_a_users_njit():
    @numba.njit
    def users_function(n_normal, n_hunger):
        n = n_normal + n_hunger
        binom = np.empty((n + 1, n + 1), dtype=np.int64)
        fill_binomials(0, binom)
        out = np.zeros((n + 2 * (n // 2) + 1, 2, 3, 3), dtype=np.int64)
        k.v5_pool_ways(n_normal, n_hunger, np.array([5, 4, 1]), np.array([1, 4, 4, 1]), 2, 0, binom, out)
        return out.sum()

    assert users_function(4, 2) == 10**6


# ------------------------------------------------ count: the one door

V5_FACES = (np.array(v5.OFFICIAL.normal_faces), np.array(v5.OFFICIAL.hunger_faces))


def test_count_takes_int64_within_the_kernels_bound_and_primes_beyond():
    calls = []

    def compute(nn, nh):
        def run(mod):
            calls.append(mod)
            return pool_ways(nn, nh, mod)

        return run

    small = exact.count(compute(13, 5), k.v5_pool_ways_bound(13, 5, *V5_FACES))
    assert small.dtype == np.int64 and calls == [0]
    calls.clear()
    big = exact.count(compute(14, 5), k.v5_pool_ways_bound(14, 5, *V5_FACES))
    assert big.dtype == object and 0 not in calls
    assert len(calls) == exact.passes(10**19) == len(exact.primes_for(10**19))
    assert sum(big.ravel().tolist()) == 10**19


def test_count_on_threads_gives_each_prime_its_own_call_and_the_same_counts(monkeypatch):
    """``threads=True``: the primes are counted on the process's cores at once (here 2, even on one
    core), each prime once, and the counts rebuilt are those of the primes in turn."""
    import threading

    seen = []

    def run(mod):
        seen.append((mod, threading.get_ident()))
        return pool_ways(20, 5, mod)

    bound = k.v5_pool_ways_bound(20, 5, *V5_FACES)
    alone = exact.count(run, bound)
    assert len({t for _, t in seen}) == 1
    seen.clear()
    monkeypatch.setattr(exact, "cores", lambda: 2)
    together = exact.count(run, bound, threads=True)
    assert sorted(m for m, _ in seen) == sorted(exact.primes_for(bound))
    assert together.tolist() == alone.tolist() and sum(together.ravel().tolist()) == 10**25
    assert exact.cores() == 2 and exact.count(run, 10, threads=True).dtype == np.int64  # int64: one call


def test_count_refuses_a_bound_that_may_have_wrapped():
    compute = lambda mod: pool_ways(2, 1, mod)  # noqa: E731
    with pytest.raises(TypeError, match="Python int"):
        exact.count(compute, np.int64(10) ** 3)
    with pytest.raises(TypeError):
        exact.count(compute, 1000.0)
    with pytest.raises(ValueError):
        exact.count(compute, -1)


def test_passes():
    assert exact.passes(0) == exact.passes(exact.INT64_MAX) == 1
    assert exact.passes(exact.INT64_MAX + 1) == 3  # primes below 2**31: two are not enough
    assert exact.passes(10**100) == len(exact.primes_for(10**100))


@pytest.mark.parametrize("sizes", [[3, 25, 8, 40, 19], [2, 5], [30, 22]])
def test_count_blocks_agrees_with_count_and_runs_each_item_under_its_own_primes(sizes):
    seen = {i: [] for i in range(len(sizes))}
    passes = []

    def compute(mod, index):
        out = []
        for i in index.tolist():
            seen[i].append(mod)
            out.append(pool_ways(sizes[i], 0, mod).ravel()[:9])
        return np.stack(out)

    bounds = [k.v5_pool_ways_bound(n, 0, *V5_FACES) for n in sizes]
    blocks = exact.count_blocks(compute, bounds, on_pass=lambda: passes.append(1))
    got = {}
    for index, counts in blocks:
        assert counts.dtype == (np.int64 if all(bounds[i] <= exact.INT64_MAX for i in index) else object)
        for i, row in zip(index.tolist(), counts):
            got[i] = row.tolist()
    assert sorted(got) == list(range(len(sizes)))
    for i, n in enumerate(sizes):
        assert got[i] == exact.count(lambda mod: pool_ways(n, 0, mod).ravel()[:9], bounds[i]).tolist()
        assert len(seen[i]) == exact.passes(bounds[i])
    big = [b for b in bounds if b > exact.INT64_MAX]
    assert len(passes) == (exact.passes(max(big)) if big else 0)
    # the int64 block, when there is one, comes first
    assert blocks[0][1].dtype == (np.int64 if any(b <= exact.INT64_MAX for b in bounds) else object)


def _classic_rows(n, mod):
    from kernels import classic

    rows = np.zeros((n + 1, 2 * n + 1), dtype=np.int64)
    classic.classic_sum_ways(np.array([1, 4, 4, 1]), np.array([-1, 0, 1, 1]), mod, rows)
    return rows[n]


def _scene_counts(tests, mod):
    from kernels import cards

    values = np.arange(1, 11, dtype=np.int64)
    auto_fail = np.zeros(10, dtype=np.int64)
    triggers = np.zeros(10, dtype=np.int64)
    triggers[[0, 9]] = 1
    count = np.zeros((tests + 1, tests + 1), dtype=np.int64)
    cards.scene_ways(
        values,
        auto_fail,
        triggers,
        np.full(tests, 3),
        np.full(tests, 8),
        np.ones(tests, dtype=np.int64),
        1,
        1,
        1,
        2520,
        mod,
        np.zeros((tests, 4), dtype=np.int64),
        np.zeros((tests - 1, 4, 4), dtype=np.int64),
        count,
    )
    return count.ravel()


def _bounds():
    from kernels import cards, classic

    return {
        # bound of a size, the whole at the big size, the big size, a size int64 holds
        "classic": (lambda n: classic.classic_sum_ways_bound(n, [1, 4, 4, 1], [-1, 0, 1, 1]), 10**20, 20, 18),
        "cards": (lambda t: cards.scene_ways_bound([1] * t, 2520), 2520**6, 3, 2),
    }


@pytest.mark.parametrize("name,run", [("classic", _classic_rows), ("cards", _scene_counts)])
def test_each_bound_guards_counts_that_int64_would_wrap(name, run):
    bound_of, total, size, safe = _bounds()[name]
    bound = bound_of(size)
    assert bound > exact.INT64_MAX and bound >= total
    exact_ways = exact.count(lambda mod: run(size, mod), bound)
    assert exact_ways.dtype == object
    with np.errstate(over="ignore"):
        wrapped = run(size, 0)  # what plain int64 gives, unguarded
    assert wrapped.tolist() != exact_ways.tolist()
    # the exact counts are right: they add up to the whole
    assert sum(exact_ways.tolist()) == total
    # and the modular path agrees with int64 at a size int64 holds
    assert bound_of(safe) <= exact.INT64_MAX
    plain = exact.count(lambda mod: run(safe, mod), bound_of(safe))
    modular = exact.count(lambda mod: run(safe, mod), bound_of(safe), force_modular=True)
    assert plain.dtype == np.int64 and plain.tolist() == modular.tolist()
