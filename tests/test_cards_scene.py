"""Scenes of card tests, with and without reshuffling, against brute force over ordered draws."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.systems.cards import deck as cards
from analysis.systems.cards.deck import CardRules
from analysis.engine.exact import INT64_MAX, primes_for
from kernels import cards as kc
from tests import oracles_cards as oc

NO_RESHUFFLE = CardRules(reshuffle=False)


def _check_against(dist, s: cards.SceneOdds):
    """Every marginal, consecutive pair and (wins, Compulsions) count of ``s`` equals ``dist``'s."""
    n = len(s.tests)
    marginals, pairs, counts = oc.scene_summary(dist, n)
    assert sum(dist.values()) == 1
    for t in range(n):
        assert s.classes(t + 1) == marginals[t], f"test {t + 1}"
    for t in range(n - 1):
        for (a, b), p in pairs[t].items():
            got = Fraction(int(s.pair_ways[t, cards.CLASSES.index(a), cards.CLASSES.index(b)]), s.denominators[t + 1])
            assert got == p, (t, a, b)
    den = s.denominators[-1]
    got_counts = {(w, b): Fraction(int(x), den) for (w, b), x in np.ndenumerate(s.count_ways) if x}
    assert got_counts == {k: v for k, v in counts.items() if v}


THREE_TEST_SCENES = [
    [(5, 12, 1), (5, 12, 1), (5, 12, 1)],
    [(0, 11, 2), (8, 10, 1), (3, 9, 0)],
    [(10, 10, 1), (2, 9, 0), (6, 14, 5)],
]


@pytest.mark.parametrize("tests", THREE_TEST_SCENES)
@pytest.mark.parametrize(
    "rules",
    [
        NO_RESHUFFLE,
        pytest.param(CardRules(), marks=pytest.mark.slow),
        CardRules(reshuffle=False, ace="high", ties="defender"),
    ],
    ids=["scene-deck", "reshuffled", "scene-deck-house"],
)
def test_three_test_scene_matches_every_ordered_draw(tests, rules):
    dist = oc.brute_scene(
        tests, ace=rules.ace, ties=rules.ties, confirmation=rules.confirmation, reshuffle=rules.reshuffle
    )
    _check_against(dist, cards.scene(tests, rules))


def test_three_test_scene_with_fresh_confirmation_decks():
    tests = [(5, 12, 1), (4, 9, 0), (7, 11, 3)]
    for reshuffle in (False, True):
        rules = CardRules(reshuffle=reshuffle, confirmation="fresh_deck")
        dist = oc.brute_scene(tests, confirmation="fresh_deck", reshuffle=reshuffle)
        _check_against(dist, cards.scene(tests, rules))


def test_the_two_oracles_agree():
    tests = [(5, 12, 1), (0, 11, 2), (3, 9, 0)]
    assert oc.recursive_scene(tests) == oc.brute_scene(tests, reshuffle=False)


def test_a_scene_longer_than_the_deck_reshuffles_when_empty_and_takes_the_exact_path():
    # six hungry tests can need twelve cards; 2520**12 does not fit in int64
    tests = [(6, 12, 1)] * 4 + [(2, 8, 1), (9, 11, 1)]
    s = cards.scene(tests, NO_RESHUFFLE)
    assert s.denominators[-1] > INT64_MAX
    assert s.count_ways.dtype == object
    _check_against(oc.recursive_scene(tests), s)


def test_modular_twin_agrees_with_int64():
    tests = [(5, 12, 1), (3, 9, 0), (8, 15, 1)]  # 5 draw slots: 2520**5 fits in int64
    args = (
        *cards.OFFICIAL.deck(),
        np.array([t[0] for t in tests]),
        np.array([t[1] for t in tests]),
        np.array([1 if t[2] else 0 for t in tests]),
        1,
        0,
        0,
        2520,
    )

    def run(mod):
        m, p, c = np.empty((3, 4), np.int64), np.empty((2, 4, 4), np.int64), np.empty((4, 4), np.int64)
        kc.scene_ways(*args, mod, m, p, c)
        return np.concatenate([m.ravel(), p.ravel(), c.ravel()])

    assert 2520**5 <= INT64_MAX
    plain = run(0)
    assert plain[:4].sum() == 2520**2
    for prime in primes_for(2**70):
        assert (run(prime) == plain % prime).all()


@settings(max_examples=25)
@given(
    tests=st.lists(st.tuples(st.integers(0, 14), st.integers(0, 20), st.integers(0, 2)), min_size=1, max_size=4),
    ace=st.sampled_from(cards.ACE_RULES),
    ties=st.sampled_from(cards.TIE_RULES),
    confirmation=st.sampled_from(cards.CONFIRMATIONS),
)
def test_random_scene_deck_matches_recursion(tests, ace, ties, confirmation):
    rules = CardRules(ace=ace, ties=ties, confirmation=confirmation, reshuffle=False)
    _check_against(oc.recursive_scene(tests, ace=ace, ties=ties, confirmation=confirmation), cards.scene(tests, rules))


@given(tests=st.lists(st.tuples(st.integers(0, 14), st.integers(0, 20), st.integers(0, 2)), min_size=1, max_size=5))
def test_reshuffled_tests_are_the_single_tests(tests):
    s = cards.scene(tests)
    for i, (b, d, h) in enumerate(tests, 1):
        assert s.classes(i) == cards.odds(b, d, h).classes()
    # independent: the pair odds are products
    for i in range(1, len(tests)):
        for given_ in ("win", "loss"):
            if cards.scene(tests[i - 1 : i]).classes(1)[{"win": "success", "loss": "failure"}[given_]]:
                assert s.after(i + 1, given_, "success") == cards.odds(*tests[i]).success


def test_a_scene_deck_shifts_the_odds_of_later_tests():
    tests = [(6, 12, 1)] * 3
    deck = cards.scene(tests, NO_RESHUFFLE)
    fresh = cards.scene(tests)
    # unconditioned, every test is still 1 in 2 to win and 1 in 45 bestial ...
    for i in (1, 2, 3):
        assert deck.p_win(i) == fresh.p_win(i) == Fraction(1, 2)
        assert deck.classes(i) == cards.odds(6, 12, 1).classes()
    # ... but what was drawn is gone: after a win (a high card left the deck)
    # the next test is harder, after a loss easier
    assert deck.after(2, "win") < Fraction(1, 2) < deck.after(2, "loss")
    assert fresh.after(2, "win") == fresh.after(2, "loss") == Fraction(1, 2)
    # a bestial result takes the 10 and the Ace: no Beast until the reshuffle
    assert deck.after(2, "bestial", "bestial") == 0
    assert fresh.after(2, "bestial", "bestial") == Fraction(1, 45)
    assert max(deck.compulsions) == 1
    assert fresh.compulsions[0] == Fraction(44, 45) ** 3
    assert deck.compulsions[1] == 1 - deck.compulsions[0]


def test_scene_table(capsys):
    tests = [(6, 12, 1), (6, 12, 1)]
    df = cards.scene_table(tests, NO_RESHUFFLE)
    assert tuple(df.columns) == cards.SCENE_COLUMNS
    assert np.isnan(df.loc[0, "win_after_win"])
    assert df.loc[1, "bestial_after_bestial"] == 0
    ex = cards.scene_table(tests, NO_RESHUFFLE, exact=True)
    assert ex.loc[0, "win_after_win"] is None
    assert ex.loc[1, "win_after_loss"] == cards.scene(tests, NO_RESHUFFLE).after(2, "loss")
    assert str(cards.scene(tests, NO_RESHUFFLE)).startswith("Card scene of 2 tests")


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: cards.scene([]), "1..20 tests"),
        (lambda: cards.scene([(5, 10)] * 21), "1..20 tests"),
        (lambda: cards.scene("5,10"), "list of"),
        (lambda: cards.scene([(5,)]), "test 1: expected"),
        (lambda: cards.scene([(5, 10), (5, -1)]), "test 2: difficulty"),
        (lambda: cards.scene([(5, 10, 9)]), "test 1: hunger must be 0..5"),
        (lambda: cards.scene([{"base": 5, "diff": 3}]), "expected keys"),
        (lambda: cards.scene([(5, 10)]).after(1, "win"), "no test before"),
        (lambda: cards.scene([(5, 10), (5, 10)]).after(2, "bestial"), "cannot end in"),
        (lambda: cards.scene([(5, 10), (5, 10)]).after(2, "messy"), "unknown outcome"),
        (lambda: cards.scene([(5, 10)]).classes(2), "test must be 1..1"),
    ],
)
def test_scene_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("n", range(1, 9))
def test_up_to_eight_hungry_tests_one_deck_holds_one_compulsion(n):
    # Eight tests draw at most ten cards (at most two first cards call for a
    # confirmation: the 10 and the Ace), so the deck never runs out; each test
    # is bestial 1 time in 45, and one bestial result uses up both the 10 and
    # the Ace: so exactly n/45 for one Compulsion and none for two.
    s = cards.scene([(6, 12, 1)] * n, NO_RESHUFFLE)
    assert s.compulsions == {0: 1 - Fraction(n, 45), 1: Fraction(n, 45)}
