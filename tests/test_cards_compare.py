"""Cards against V5, and the published card tables."""

from __future__ import annotations

from fractions import Fraction

import pytest

from analysis.systems.cards import deck as cards
from analysis.versus import cards_v5
from analysis.present.published.tables import cards as published
from analysis.systems.v5 import roll as v5
from tests import oracles_cards as oc


def _card_win(base, difficulty, **opts):
    b = oc.brute_static(base, difficulty, 0, **opts)
    return b["success"] + b["bestial_success"]


@pytest.fixture(scope="module")
def comparison():
    return cards_v5.compare_v5(range(1, 9), range(1, 6), (0, 1, 4), exact=True)


def test_comparison_columns_and_v5_side(comparison):
    assert tuple(comparison.columns) == cards_v5.COMPARE_COLUMNS
    assert len(comparison) == 8 * 5 * 3
    for r in comparison.sample(20, random_state=1).itertuples(index=False):
        o = v5.odds(r.pool, r.hunger, r.difficulty)
        assert (r.v5_win, r.v5_messy_critical, r.v5_bestial_failure) == (o.p_win, o.messy_critical, o.bestial_failure)


def test_comparison_picks_the_nearest_card_test(comparison):
    for r in comparison.itertuples(index=False):
        assert r.card_win == _card_win(r.card_base, r.card_difficulty)
        best = min(abs(_card_win(b, r.card_difficulty) - r.v5_win) for b in range(0, 13))
        assert abs(r.card_win - r.v5_win) == best
        brute = oc.brute_static(r.card_base, r.card_difficulty, r.hunger)
        assert (r.card_bestial_success, r.card_bestial_failure) == (brute["bestial_success"], brute["bestial_failure"])
        assert r.card_bestial_success + r.card_bestial_failure == (Fraction(1, 45) if r.hunger else 0)


def test_nearest_card_test_ties_and_edges():
    # V5 pool 1, Difficulty 1: 1/2; the card test needing a 6 wins 5/10
    assert cards_v5.nearest_card_test(Fraction(1, 2), 12) == 6
    # 0.85 is as near 0.8 as 0.9: the lower chance (needing a 3)
    assert cards_v5.nearest_card_test(Fraction(85, 100), 12) == 9
    # certain V5 wins: the first base at 90% (needing a 2), never above
    assert cards_v5.nearest_card_test(Fraction(1), 12) == 10
    assert cards_v5.nearest_card_test(Fraction(0), 12) == 1
    assert cards_v5.nearest_card_test(Fraction(0), 5) == 0
    # any card difficulty gives the same chances, shifted
    assert cards_v5.nearest_card_test(Fraction(3, 10), 20) == cards_v5.nearest_card_test(Fraction(3, 10), 12) + 8
    # under ace="low" a base at the difficulty is certain
    assert cards_v5.nearest_card_test(Fraction(1), 12, cards.CardRules(ace="low")) == 11


def test_comparison_floats_and_bad_input():
    df = cards_v5.compare_v5(3, 2, 2)
    assert df.loc[0, "card_win"] == pytest.approx(float(cards.odds(df.loc[0, "card_base"], 12).p_win))
    with pytest.raises(ValueError, match="card_difficulty"):
        cards_v5.compare_v5(3, 2, 2, card_difficulty=-1)
    with pytest.raises(ValueError, match="hunger must be 0..5"):
        cards_v5.compare_v5(3, 2, 6)
    with pytest.raises(ValueError, match="rules must be a CardRules"):
        cards_v5.compare_v5(3, 2, 2, rules=v5.OFFICIAL)


def test_published_by_card_needed():
    df = published.by_card_needed()
    assert list(df["card_needed"]) == list(range(0, 12))
    for r in df.itertuples(index=False):
        want = oc.brute_static(0, r.card_needed, 1)
        assert r.success == pytest.approx(float(want["success"]))
        assert r.bestial_failure == pytest.approx(float(want["bestial_failure"]))


def test_published_compulsions():
    df = published.compulsions(lengths=[2, 9])
    assert set(df["deck"]) == {"reshuffled", "scene deck"}
    total = df["none"] + df["one"] + df["two_or_more"]
    assert total.to_numpy() == pytest.approx(1.0)
    row = df[(df.tests == 2) & (df.deck == "reshuffled")].iloc[0]
    assert row["none"] == pytest.approx(float(Fraction(44, 45) ** 2))
