"""The one chain engine: the kernel run against pure-Python stepping, both exact paths, refusals."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from analysis.engine import exact, markov
from analysis.engine.markov import ExactChain

from tests import oracles_markov as om


@st.composite
def chains(draw, forward=False, max_states=6, max_den=12):
    """Random chains; ``forward``: only stay put or move to a later state (like damage)."""
    n = draw(st.integers(1, max_states))
    den = draw(st.integers(1, max_den))
    rows = []
    for i in range(n):
        targets = list(range(i, n)) if forward else list(range(n))
        ways = draw(st.lists(st.integers(0, den), min_size=len(targets), max_size=len(targets)))
        total = sum(ways)
        if total == 0:
            row = {i: den}
        else:  # scale to the denominator exactly: the remainder stays put
            row = {j: w * den // total for j, w in zip(targets, ways)}
            row[i] = row.get(i, 0) + den - sum(row.values())
        rows.append(row)
    return ExactChain(range(n), rows, den)


@settings(deadline=None)
@given(chain=chains(), steps=st.integers(0, 8), data=st.data())
def test_kernel_run_agrees_with_pure_python_stepping(chain, steps, data):
    start = data.draw(st.integers(0, len(chain) - 1))
    want = om.distributions(chain.rows, start, steps)
    assert chain.distributions(start, steps) == want
    r = chain.run(start, steps)
    assert r.denominators == tuple(chain.denominator**k for k in range(steps + 1))
    for k in range(steps + 1):
        assert sum(want[k]) == chain.denominator**k
    # the modular path gives the same integers
    forced = chain.run(start, steps, force_modular=True)
    assert forced.ways.tolist() == want
    # only the last step: the same Fractions
    assert chain.after(start, steps).tolist() == [Fraction(w, chain.denominator**steps) for w in want[-1]]


@settings(deadline=None)
@given(chain=chains(), steps=st.integers(0, 6), data=st.data())
def test_groups_and_final_agree_with_the_states(chain, steps, data):
    n = len(chain)
    groups = np.array(
        data.draw(st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=1, max_size=3)), dtype=np.int64
    )
    start = data.draw(st.integers(0, n - 1))
    want = om.distributions(chain.rows, start, steps)
    r = chain.run(start, steps, groups=groups, final=True)
    assert r.ways is None and r.final.tolist() == want[-1]
    for k in range(steps + 1):
        assert r.group_ways[k].tolist() == [sum(w * g for w, g in zip(want[k], row)) for row in groups]
    probs = r.probabilities("group_ways")
    assert probs[steps, 0] == Fraction(int(r.group_ways[steps, 0]), chain.denominator**steps)


@settings(deadline=None)
@given(chain=chains(forward=True), steps=st.integers(0, 6), data=st.data())
def test_first_passage_agrees_with_pure_python_stepping(chain, steps, data):
    n = len(chain)
    start = data.draw(st.integers(0, n - 1))
    targets = set(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n)))
    h = chain.hitting_probability(targets)
    want = om.first_passage(chain.rows, chain.denominator, start, targets, steps, h)
    assert chain.first_passage(start, targets, steps) == want
    assert chain.hitting_probability(targets, start=start) == h[start]
    assert chain.expected_steps(targets, start=start) == chain.expected_steps(targets)[start]


@settings(deadline=None)
@given(
    st.lists(chains(max_states=4, max_den=7).filter(lambda c: len(c) == 4), min_size=0, max_size=6),
    st.dictionaries(st.integers(0, 3), st.integers(1, 5), min_size=1),
)
def test_a_sequence_of_chains_agrees_with_pure_python_stepping(steps, weights):
    total = sum(weights.values())
    start = {i: Fraction(w, total) for i, w in weights.items()}
    got = markov.run(start, steps, 4)
    want = (
        om.run_steps(start, [(c.rows, c.denominator) for c in steps])
        if steps
        else [[start.get(i, Fraction(0)) for i in range(4)]]
    )
    assert [list(g) for g in got] == want


def test_big_denominators_take_the_modular_path_and_stay_exact():
    # one step over 3**50 (more than int64): weights are reduced before the kernel
    den = 3**50
    chain = ExactChain("abc", [{0: den - 2 * 3**20, 1: 3**20, 2: 3**20}, {1: den}, {2: den}], den)
    assert den > exact.INT64_MAX
    want = om.distributions(chain.rows, 0, 4)
    assert chain.distributions(0, 4) == want
    pmf, tail, never = chain.first_passage(0, [1], 4)
    assert sum(pmf) + tail + never == 1 and never == Fraction(1, 2)
    assert pmf == om.first_passage(chain.rows, den, 0, [1], 4, chain.hitting_probability([1]))[0]


def test_from_csr_sums_repeated_targets_and_checks_rows():
    chain = ExactChain.from_csr("ab", [0, 3, 4], [0, 1, 1, 1], [0, 1, 1, 2], (2, 1, 4), 4)
    assert chain.rows == ({0: 2, 1: 2}, {1: 4})
    assert chain.transitions() == {"a": {"a": Fraction(1, 2), "b": Fraction(1, 2)}, "b": {"b": 1}}
    assert chain.absorbing == (1,) and chain.is_absorbing()
    with pytest.raises(ValueError, match="row 0 of the chain sums to 3/4, not 1"):
        ExactChain.from_csr("ab", [0, 2, 3], [0, 1, 1], [0, 1, 2], (2, 1, 4), 4)
    with pytest.raises(ValueError, match="unknown state"):
        ExactChain.from_csr("ab", [0, 1, 2], [0, 2], [0, 0], (4,), 4)


def test_explore_numbers_the_reachable_states_from_the_start():
    # a walk that stops at 3: from n, one more (1/3) or two more (2/3), capped at 3
    def moves(n):
        if n == 3:
            return {3: Fraction(1)}
        out = {}
        for step, p in ((1, Fraction(1, 3)), (2, Fraction(2, 3))):
            out[min(n + step, 3)] = out.get(min(n + step, 3), 0) + p
        return out

    chain = ExactChain.explore(0, moves)
    assert chain.states[0] == 0 and set(chain.states) == {0, 1, 2, 3}
    assert chain.denominator == 3
    end = chain.index[3]
    assert chain.hitting_probability([end], start=0) == 1
    # E = 1 + 1/3 E(1) + 2/3 E(2), E(1) = 1 + 1/3 E(2), E(2) = 1
    assert chain.expected_steps([end], start=0) == 1 + Fraction(1, 3) * Fraction(4, 3) + Fraction(2, 3)


def test_with_absorbing_stops_the_targets_only():
    chain = ExactChain("abc", [{1: 1}, {2: 1}, {0: 1}], 1)
    stopped = chain.with_absorbing([1])
    assert stopped.rows == ({1: 1}, {1: 1}, {0: 1})
    assert stopped.distributions(2, 3) == [[0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 1, 0]]


def test_too_long_a_run_is_refused_before_it_starts():
    chain = ExactChain("ab", [{0: 5, 1: 5}, {1: 10}], 10)
    with pytest.raises(
        ValueError,
        match=r"counting 300 steps of this chain exactly would take too long "
        r"\(2 states, a 2-digit denominator each step\); ask for at most \d+ steps",
    ):
        chain.run(0, 300, max_work=10**6)
    with pytest.raises(ValueError, match="ask for at most"):
        markov.run({0: 1}, [chain] * 300, 2, max_work=10**6)
    with pytest.raises(ValueError, match="use fewer blows"):
        chain.run(0, 300, max_work=1, what="blows of this attack", smaller="use fewer blows")


@pytest.mark.parametrize(
    "start, words",
    [
        (2, "outside the chain's 2 states"),
        ({0: Fraction(1, 2)}, "sum to 1"),
        ("a", "a state index"),
    ],
)
def test_a_bad_start_is_a_value_error(start, words):
    chain = ExactChain("ab", [{0: 1, 1: 1}, {1: 2}], 2)
    with pytest.raises(ValueError, match=words):
        chain.run(start, 2)


def test_bad_steps_and_groups_are_value_errors():
    chain = ExactChain("ab", [{0: 1, 1: 1}, {1: 2}], 2)
    with pytest.raises(ValueError, match="whole number"):
        chain.run(0, -1)
    with pytest.raises(ValueError, match="shape"):
        chain.run(0, 2, groups=[[1, 0, 1]])
    with pytest.raises(ValueError, match="did not keep"):
        chain.run(0, 2).probabilities("final")


# ------------------------------------------------- the games' chains on the engine


def test_long_classic_blows_take_the_modular_path_and_match_python_stepping():
    from analysis.systems.classic import health as hl

    attack, victim = hl.Attack(5, "bashing", 2, attack_pool=6), hl.Fighter("vampire", 3)
    result = hl.blows(attack, victim, 40)
    assert result.chain.denominator**40 > exact.INT64_MAX
    assert [list(w) for w in result.ways] == om.distributions(result.chain.rows, 0, 40)
    with pytest.raises(
        ValueError,
        match=r"counting 1000 blows of this attack exactly would take too "
        r"long \(\d+ states, a \d+-digit denominator each blow\); "
        r"ask for at most \d+ blows",
    ):
        hl.blows(attack, victim, 1000)


def test_a_v5_fight_chain_is_an_exact_chain_on_the_engine():
    from analysis.systems.v5 import conflict as c, fight

    fc = fight.fight_chain(c.Combatant(3, hunger=1), c.Combatant(2, vampire=False, weapon=1))
    assert isinstance(fc, ExactChain)
    want = om.distributions(fc.rows, fc.start, 5)
    assert fc.distributions(fc.start, 5) == want
    r = fight.fight(c.Combatant(3, hunger=1), c.Combatant(2, vampire=False, weapon=1), turns=5)
    stopped = [i for i in range(len(fc.states)) if fc.stopped[i]]
    assert r.columns["over"][5] == Fraction(sum(want[5][i] for i in stopped), fc.denominator**5)
    assert r.expected_turns() == fc.expected_steps(stopped)[fc.start]
