"""The exact path: int64 and modular twins agree, overflow is refused, CRT rebuilds big counts."""
from fractions import Fraction
from math import prod

import numba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis import exact
from analysis.systems.v5 import roll as v5
from kernels import v5 as k
from kernels.multiset import fill_binomials


def pool_ways(n_normal, n_hunger, mod):
    rules = v5.OFFICIAL
    n = n_normal + n_hunger
    out = np.zeros((n + 2 * (n // 2) + 1, 2, 3, 3), dtype=np.int64)
    binom = np.empty((n + 1, n + 1), dtype=np.int64)
    fill_binomials(mod, binom)
    k.v5_pool_ways(n_normal, n_hunger, np.array(rules.normal_faces), np.array(rules.hunger_faces),
                   2, mod, binom, out)
    return out


@pytest.mark.parametrize("n", [0, 1, 5, 12, 18])
def test_int64_and_modular_twins_agree(n):
    for h in (0, min(3, n), min(5, n)):
        compute = lambda mod: pool_ways(n - h, h, mod)  # noqa: E731
        plain = exact.int64_counts(compute, 10**n)
        modular = exact.exact_counts(compute, 10**n, force_modular=True)
        assert plain.dtype == np.int64 and modular.dtype == object
        assert plain.tolist() == modular.tolist()
        assert int(plain.sum()) == 10**n


def test_int64_path_refuses_counts_that_would_overflow():
    with pytest.raises(OverflowError):
        exact.int64_counts(lambda mod: pool_ways(19, 0, mod), 10**19)


def test_the_guard_matters_int64_would_wrap_at_pool_30():
    wrapped = pool_ways(25, 5, 0)  # what plain int64 gives, unchecked
    exact_ways = exact.exact_counts(lambda mod: pool_ways(25, 5, mod), 10**30)
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
        [Fraction(0), Fraction(1, 2), Fraction(1)], [Fraction(3, 1000), Fraction(7, 1000), Fraction(1)]]


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
