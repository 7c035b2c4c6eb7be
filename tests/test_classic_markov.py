"""The exact Markov chain behind the health track: checks, first passage, hitting, expectations."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.engine.markov import ExactChain

from tests import oracles_markov as om


@st.composite
def forward_chains(draw):
    """Random chains that only stay put or move to a later state (like damage)."""
    n = draw(st.integers(1, 6))
    den = draw(st.integers(1, 12))
    rows = []
    for i in range(n):
        later = list(range(i, n))
        ways = draw(st.lists(st.integers(0, den), min_size=len(later), max_size=len(later)))
        total = sum(ways)
        if total == 0:
            row = {i: den}
        else:  # scale to the denominator exactly: the remainder stays put
            row = {j: w * den // total for j, w in zip(later, ways)}
            row[i] = row.get(i, 0) + den - sum(row.values())
        rows.append(row)
    return ExactChain(range(n), rows, den)


@given(chain=forward_chains(), data=st.data())
def test_hitting_and_expectation_solve_their_equations(chain, data):
    n = len(chain)
    targets = set(data.draw(st.lists(st.integers(0, n - 1), max_size=n)))
    h = chain.hitting_probability(targets)
    e = chain.expected_steps(targets)
    for i in range(n):
        step_h = sum(chain.probability(i, j) * h[j] for j in range(n))
        if i in targets:
            assert h[i] == 1 and e[i] == 0
        elif chain.probability(i, i) == 1:
            assert h[i] == 0 and e[i] is None
        else:
            assert h[i] == step_h  # h = P h off the targets
            if h[i] == 1:
                assert e[i] == 1 + sum(chain.probability(i, j) * e[j] for j in range(n) if chain.probability(i, j))
            else:
                assert e[i] is None


@given(chain=forward_chains(), steps=st.integers(0, 6), data=st.data())
def test_distributions_and_first_passage_are_exact(chain, steps, data):
    n = len(chain)
    start = data.draw(st.integers(0, n - 1))
    targets = set(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n)))
    dists = chain.distributions(start, steps)
    assert dists == om.distributions(chain.rows, start, steps)  # the kernel against Python stepping
    for k, ways in enumerate(dists):
        assert sum(ways) == chain.denominator**k
    pmf, tail, never = chain.first_passage(start, targets, steps)
    assert sum(pmf) + tail + never == 1
    assert never == 1 - chain.hitting_probability(targets)[start]
    assert tail >= 0 and never >= 0
    # with absorbing targets, first passage by step k = mass on the targets after k steps
    closed = all(chain.probability(t, t) == 1 for t in targets)
    if closed:
        for k in range(steps + 1):
            on_targets = Fraction(sum(dists[k][t] for t in targets), chain.denominator**k)
            assert sum(pmf[: k + 1]) == on_targets


def test_from_fractions_uses_the_least_common_denominator():
    chain = ExactChain.from_fractions(
        "abc", [{0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}, {1: Fraction(1)}, {2: Fraction(1)}]
    )
    assert chain.denominator == 6 and chain.rows[0] == {0: 3, 1: 2, 2: 1}
    assert chain.absorbing == (1, 2) and chain.is_absorbing()
    assert chain.hitting_probability([1]) == [Fraction(2, 3), 1, 0]
    assert chain.expected_steps([1, 2]) == [2, 0, 0]


def test_a_row_that_does_not_sum_to_one_is_refused():
    with pytest.raises(ValueError, match="row 0 of the chain sums to 5/6, not 1"):
        ExactChain("ab", [{0: 3, 1: 2}, {1: 6}], 6)
    with pytest.raises(ValueError, match="negative probability"):
        ExactChain("ab", [{0: 8, 1: -2}, {1: 6}], 6)


def test_cycles_and_non_absorbing_chains_are_detected():
    flip = ExactChain("ab", [{1: 1}, {0: 1}], 1)
    assert not flip.is_absorbing()
    with pytest.raises(ValueError, match="cycle"):
        flip.hitting_probability([0])
    leaky = ExactChain("abc", [{0: 1, 1: 1}, {0: 1, 1: 1}, {2: 2}], 2)
    assert not leaky.is_absorbing()  # a and b never reach the absorbing c
