"""The again-dice kernels: the int64 and modular paths agree, overflow is never silent."""

from fractions import Fraction

import numba
import numpy as np
import pytest

from analysis.systems.requiem import beast
from analysis.systems.requiem import dice as requiem
from analysis.engine.exact import INT64_MAX, primes_for
from kernels import again as k


def grid(nn, nb, s, mod, again_face=10, rote=0):
    out = np.empty((len(nn), s + 1), dtype=np.int64)
    k.beast_grid_ways(np.array(nn, dtype=np.int64), np.array(nb, dtype=np.int64), 8, again_face, rote, 2, mod, out)
    return out


def test_single_die_chain_by_hand():
    """P(s) of one 10-again die: 7/10, then (2 + 7/10)/10, then 1/10 of the previous."""
    out = np.empty(5, dtype=np.int64)
    k.fill_again_chain(8, 10, 0, out)
    probs = [Fraction(int(w), 10 ** (s + 1)) for s, w in enumerate(out)]
    assert probs[0] == Fraction(7, 10)
    assert probs[1] == Fraction(2, 10) + Fraction(1, 10) * Fraction(7, 10)
    for s in range(2, 5):
        assert probs[s] == probs[s - 1] / 10


@pytest.mark.parametrize("again_face,rote", [(10, 0), (9, 0), (8, 1), (11, 1)])
def test_modular_residues_match_int64(again_face, rote):
    """Where int64 provably fits (10**(S + c*n) <= 2**63), each prime's
    residues are the int64 counts reduced."""
    nn, nb, s = [0, 3, 2, 1], [1, 0, 2, 4], 8
    c = 2 if rote else 1
    assert 10 ** (s + c * 5) <= INT64_MAX
    exact = grid(nn, nb, s, 0, again_face, rote)
    for p in primes_for(10**30)[:3]:
        assert (grid(nn, nb, s, p, again_face, rote) == exact % p).all()


def test_int64_would_overflow_where_the_exact_path_is_taken():
    """Pool 20 with 40 successes: int64 ways would wrap; the API's answers
    still sum to exactly 1 and agree with the distribution's own tail."""
    bound = 10 ** (40 + 20)
    assert bound > INT64_MAX
    wrapped = grid([20], [0], 40, 0)  # what a silent int64 path would return
    o = requiem.odds(20, max_successes=40)
    true_ways = [p * 10 ** (s + 20) for s, p in o.successes.items()]
    assert all(p.denominator == 1 for p in true_ways)
    assert [int(w) for w in wrapped[0]] != [int(w) for w in true_ways]
    assert sum(o.successes.values()) + o.tail == 1


def test_every_count_is_below_its_scale():
    """The bound the callers rely on: ways at scale 10**(s + c*n) never exceed it."""
    nn, nb, s = [4, 0, 2], [0, 4, 3], 10
    for rote in (0, 1):
        out = grid(nn, nb, s, 0, 8, rote)
        c = 2 if rote else 1
        for row, n in zip(out, (4, 4, 5)):
            assert all(0 <= int(w) <= 10 ** (j + c * n) for j, w in enumerate(row))


@pytest.mark.slow
def test_kernel_callable_from_a_users_njit():
    @numba.njit
    def user(out):
        nn = np.array([2], dtype=np.int64)
        nb = np.array([1], dtype=np.int64)
        k.beast_grid_ways(nn, nb, 8, 10, 0, 2, 0, out)
        return out[0, 0]

    out = np.empty((1, 4), dtype=np.int64)
    assert user(out) == 7**3
    # same as the API: 3 dice, one Beast die, at scale 10**(s + 3)
    o = beast.odds(3, 1, max_successes=3)
    assert [Fraction(int(w), 10 ** (s + 3)) for s, w in enumerate(out[0])] == list(o.successes.values())


def test_chance_die_kernel_flags():
    out = np.empty(4, dtype=np.int64)
    flags = np.empty(3, dtype=np.int64)
    k.chance_die_ways(8, 10, 1, 1, 1, 2, 1, 0, out, flags)  # rote Beast chance die
    # final 1 (9/100) dramatic; first 1 then 2..9 (8/100) bestial; a final 10 (19/100) beastly
    assert list(flags) == [9, 8, 19]
    assert int(out[0]) == 81 and int(out[2]) == 19 * 100
