"""Ten-card tests (the ten-card test rules): single and opposed tests, the skill rule, errors, the CLI."""

from __future__ import annotations

import csv
import io
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.systems.cards import deck as cards
from analysis.systems.cards.deck import CardRules
from analysis.cli import main
from kernels import cards as kc
from tests import oracles_cards as oc

ALL_RULES = [
    CardRules(ace=a, ties=t, confirmation=c)
    for a, t, c in itertools.product(cards.ACE_RULES, cards.TIE_RULES, cards.CONFIRMATIONS)
]


def _opts(rules: CardRules) -> dict:
    return dict(ace=rules.ace, ties=rules.ties, confirmation=rules.confirmation)


# ------------------------------------------------------- the figures


@pytest.mark.parametrize("hunger", [1, 2, 5])
@pytest.mark.parametrize("base,difficulty", [(0, 0), (0, 11), (5, 12), (9, 12), (3, 30), (12, 12)])
def test_bestial_is_one_in_45_from_a_full_deck(base, difficulty, hunger):
    # 2/10 (a 10 or an Ace) x 1/9 (the other of the two among the nine left)
    o = cards.odds(base, difficulty, hunger)
    assert o.p_bestial == Fraction(2, 10) * Fraction(1, 9) == Fraction(1, 45)
    assert o.denominator == 90
    assert sum(o.classes().values()) == 1


def test_bestial_success_is_a_ten_then_an_ace_on_a_winning_total():
    # base 5 vs 12: the 10 wins (15 >= 12), the Ace fails
    o = cards.odds(5, 12, hunger=1)
    assert o.bestial_success == Fraction(1, 90)  # 10 then Ace
    assert o.bestial_failure == Fraction(1, 90)  # Ace then 10
    assert o.p_win == Fraction(4, 10)  # 7, 8, 9, 10 reach 12
    assert o.success == Fraction(4, 10) - Fraction(1, 90)


def test_bestial_failure_takes_a_ten_then_an_ace_on_a_losing_total():
    # base 0 vs 11: not even a 10 wins, so both orders are bestial failures
    o = cards.odds(0, 11, hunger=3)
    assert o.bestial_success == 0
    assert o.bestial_failure == Fraction(2, 90) == Fraction(1, 45)
    assert o.p_win == 0


def test_no_hunger_no_beast():
    for base, diff in [(0, 0), (5, 12), (20, 3)]:
        o = cards.odds(base, diff, hunger=0)
        assert o.bestial_success == o.bestial_failure == 0


def test_an_ace_always_fails():
    # base 50 vs difficulty 0: only the Ace fails
    o = cards.odds(50, 0)
    assert o.failure == Fraction(1, 10)
    assert cards.odds(50, 0, rules=CardRules(ace="low")).failure == 0


def test_fresh_confirmation_deck_confirms_two_in_ten():
    o = cards.odds(5, 12, hunger=1, rules=CardRules(confirmation="fresh_deck"))
    assert o.p_bestial == Fraction(2, 10) * Fraction(2, 10) == Fraction(1, 25)
    assert o.denominator == 100


def test_success_chance_by_card_needed():
    # needing card >= m (2 <= m <= 10): the cards m..10, out of ten; the Ace never
    for m in range(2, 11):
        assert cards.odds(10, 10 + m).p_win == Fraction(11 - m, 10)
    assert cards.odds(10, 10).p_win == Fraction(9, 10)  # any card but the Ace
    assert cards.odds(10, 21).p_win == 0


def test_ties_rule_static():
    # base 5 vs 10: a 5 ties
    assert cards.odds(5, 10).p_win == Fraction(6, 10)
    assert cards.odds(5, 10, rules=CardRules(ties="defender")).p_win == Fraction(5, 10)


def test_ace_high_counts_eleven():
    assert cards.odds(0, 11, rules=CardRules(ace="high")).p_win == Fraction(1, 10)
    assert cards.odds(0, 11, rules=CardRules(ace="low")).p_win == 0


def test_opposed_pins():
    # equal totals, no Hunger: the initiator wins ties, loses to her own Ace,
    # wins on the defender's lone Ace.  Cards 2..10 against 2..10: 45 of 81
    # pairs are ties or wins; plus defender Ace with initiator non-Ace: 9.
    o = cards.opposed(6, 6)
    assert o.initiator_wins == Fraction(45 + 9, 100)
    assert o.denominator == 900
    # both Aces: the initiator does not win -- base 100 vs 0 still loses on her Ace
    assert cards.opposed(100, 0).initiator_wins == Fraction(9, 10)
    # Hunger: the bestial chances are the initiator's 1/45, split by the win
    h = cards.opposed(6, 6, hunger=1)
    assert h.bestial_success + h.bestial_failure == Fraction(1, 45)
    assert h.initiator_wins == o.initiator_wins  # Hunger changes no win
    # 10 then Ace wins unless the defender draws a 10 too?  16 vs 16 is a tie: still wins
    assert h.bestial_success == Fraction(1, 90)


def test_opposed_defender_tie_rule():
    o = cards.opposed(6, 6, rules=CardRules(ties="defender"))
    assert o.initiator_wins == Fraction(36 + 9, 100)  # 36 strict wins of 81, plus Aces


# ------------------------------------------------------- brute force


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.ace}-{r.ties}-{r.confirmation}")
def test_static_table_matches_brute_force(rules):
    bases, diffs, hungers = range(0, 13), range(0, 24), (0, 1)
    df = cards.table(bases, diffs, hungers, rules=rules, exact=True)
    assert len(df) == 13 * 24 * 2
    for row in df.itertuples(index=False):
        want = oc.brute_static(row.base, row.difficulty, row.hunger, **_opts(rules))
        assert {c: getattr(row, c) for c in cards.CLASSES} == want, row


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.ace}-{r.ties}-{r.confirmation}")
def test_opposed_matches_brute_force(rules):
    grid = (0, 3, 5, 6, 9, 13) if rules != cards.OFFICIAL else range(0, 14)
    df = cards.opposed_table(grid, grid, (0, 2), rules=rules, exact=True)
    for row in df.itertuples(index=False):
        want = oc.brute_opposed(row.base, row.defense, row.hunger, **_opts(rules))
        assert row.initiator_wins == want["success"] + want["bestial_success"], row
        assert row.bestial_success == want["bestial_success"], row
        assert row.bestial_failure == want["bestial_failure"], row


@given(
    base=st.integers(0, 40), difficulty=st.integers(0, 40), hunger=st.integers(0, 5), rules=st.sampled_from(ALL_RULES)
)
def test_odds_match_brute_force(base, difficulty, hunger, rules):
    got = cards.odds(base, difficulty, hunger, rules)
    assert got.classes() == oc.brute_static(base, difficulty, hunger, **_opts(rules))
    assert sum(got.classes().values()) == 1


@given(base=st.integers(0, 30), defense=st.integers(0, 30), hunger=st.integers(0, 5))
def test_opposed_odds_match_brute_force(base, defense, hunger):
    got = cards.opposed(base, defense, hunger)
    assert got.classes() == oc.brute_opposed(base, defense, hunger)
    assert got.initiator_wins + got.defender_wins == 1


@given(difficulty=st.integers(0, 30), hunger=st.integers(0, 5), rules=st.sampled_from(ALL_RULES))
def test_more_base_never_hurts(difficulty, hunger, rules):
    p = [cards.odds(b, difficulty, hunger, rules).p_win for b in range(0, 25)]
    assert p == sorted(p)
    q = [cards.opposed(b, difficulty, hunger, rules).initiator_wins for b in range(0, 25)]
    assert q == sorted(q)


def test_kernel_table_and_scalar_agree():
    bases = np.arange(0, 15, dtype=np.int64)
    diffs = np.arange(0, 20, dtype=np.int64)
    out = np.empty((15, 20, 2, 4), dtype=np.int64)
    kc.static_grid_ways(*cards.OFFICIAL.deck(), bases, diffs, np.array([0, 1], dtype=np.int64), 1, 0, out)
    assert (out.sum(axis=-1) == 90).all()
    for b, d, h in [(3, 7, 0), (3, 7, 1), (14, 19, 1)]:
        o = cards.odds(b, d, h)
        assert [o.class_ways[c] for c in cards.CLASSES] == out[b, d, h].tolist()


# ------------------------------------------------------- from the character sheet


def test_skill_test_builds_the_base():
    # Dexterity 3 + 2 x Firearms 2 = 7, in dim light -3 (combat)
    o = cards.skill_test(3, 2, 10, skill_name="Firearms", light="dim", hunger=1)
    assert (o.base, o.difficulty, o.hunger) == (4, 10, 1)
    assert o.classes() == cards.odds(4, 10, 1).classes()
    assert cards.base_total(3, 2, skill_name="Schusswaffen", light="dark") == 1
    # light penalties are for combat tests only
    assert cards.base_total(3, 2, skill_name="Investigation", light="dark") == 7
    assert cards.base_total(3, 2, skill_name="Investigation", light="dark", combat=True) == 1
    assert cards.base_total(3, 2, skill_name="Brawl", light="dark", combat=False) == 7


def test_penalties_can_take_the_total_below_zero():
    o = cards.skill_test(1, 0, 5, skill_name="Brawl", light="dark")
    assert o.base == -5
    assert o.p_win == Fraction(1, 10)  # only the 10 reaches 5 (and the Ace fails)
    want = oc.brute_static(-5, 5, 0)
    assert o.classes() == want


@pytest.mark.parametrize(
    "skill", ["Athletics", "Melee", "Brawl", "Firearms", "athletik", "NAHKAMPF", "Handgemenge", "schusswaffen"]
)
def test_combat_skills_may_be_tried_without_the_skill_and_lose_weapon_qualities(skill):
    assert cards.base_total(2, 0, skill_name=skill, weapon_bonus=2) == 2
    assert cards.base_total(2, 1, skill_name=skill, weapon_bonus=2) == 6
    o = cards.skill_test(2, 0, 8, skill_name=skill, weapon_bonus=3)
    assert o.base == 2


@pytest.mark.parametrize("name", ["Computer", "Investigation", "Nachforschen", None])
def test_a_test_without_the_skill_is_refused(name):
    with pytest.raises(ValueError, match="needs the skill"):
        cards.skill_test(3, 0, 8, skill_name=name)
    with pytest.raises(ValueError, match="needs the skill"):
        cards.opposed_test(3, 0, 2, 5, skill_name=name)


def test_opposed_test_from_the_sheets():
    # Manipulation 3 + 2 x Dominate-skill 2 = 7 against Resolve 2 + Willpower 5
    o = cards.opposed_test(3, 2, 2, 5, skill_name="Intimidation", hunger=2)
    assert (o.base, o.defense) == (7, 7)
    assert o.classes() == oc.brute_opposed(7, 7, 2)


# ------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: cards.odds(-1, 5), "base must be 0..1000"),
        (lambda: cards.odds(3, -2), "difficulty must be 0..1000"),
        (lambda: cards.odds(3, 5, 6), "hunger must be 0..5"),
        (lambda: cards.odds(3, 5, -1), "hunger must be 0..5"),
        (lambda: cards.odds(3.5, 5), "whole number"),
        (lambda: cards.odds(True, 5), "whole number"),
        (lambda: cards.opposed(3, -1), "defense must be 0..1000"),
        (lambda: cards.table("1-3", "x", 0), "difficulty"),
        (lambda: cards.table([], 5), "empty"),
        (lambda: cards.opposed_table(2, 3, 9), "hunger must be 0..5"),
        (lambda: cards.base_total(-1, 2, skill_name="Melee"), "attribute must be 0..100"),
        (lambda: cards.base_total(2, -1, skill_name="Melee"), "skill must be 0..100"),
        (lambda: cards.base_total(2, 1, light="twilight"), "light must be one of"),
        (lambda: cards.base_total(2, 1, penalty=-3), "penalty"),
        (lambda: cards.base_total(2, 1, combat="yes"), "combat must be True or False"),
        (lambda: cards.opposed_test(2, 1, -1, 3), "defender_attribute"),
        (lambda: CardRules(ace="joker"), "ace must be one of fails, low, high"),
        (lambda: CardRules(ties="coin"), "ties must be one of"),
        (lambda: CardRules(confirmation="same-deck"), "confirmation must be one of"),
        (lambda: CardRules(reshuffle="no"), "reshuffle must be True or False"),
        (lambda: cards.odds(3, 5, rules="seed"), "rules must be a CardRules"),
        (lambda: cards.odds(3, 5).probability("messy"), "unknown outcome class"),
    ],
)
def test_bad_input_is_a_clear_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ------------------------------------------------------- CLI


def _csv(capsys, argv):
    assert main(argv) == 0
    out = capsys.readouterr().out
    return list(csv.DictReader(io.StringIO(out)))


def test_cli_static_csv(capsys):
    rows = _csv(capsys, ["cards", "--base", "5,6", "--difficulty", "12", "--hunger", "0-1", "--format", "csv"])
    assert list(rows[0]) == list(cards.TABLE_COLUMNS) + ["rule_set"]
    assert len(rows) == 4
    for r in rows:
        assert abs(sum(float(r[c]) for c in cards.CLASSES) - 1) < 1e-12
    r = rows[1]
    assert (r["base"], r["difficulty"], r["hunger"]) == ("5", "12", "1")
    assert float(r["bestial_success"]) == pytest.approx(1 / 90)


def test_cli_static_exact(capsys):
    rows = _csv(capsys, ["cards", "--base", "5", "--difficulty", "12", "--hunger", "1", "--format", "csv", "--exact"])
    assert rows == [
        {
            "base": "5",
            "difficulty": "12",
            "hunger": "1",
            "success": "7/18",
            "failure": "53/90",
            "bestial_success": "1/90",
            "bestial_failure": "1/90",
            "p_success": "2/5",
            "rule_set": "cards-official",
        }
    ]
    want = oc.brute_static(5, 12, 1)
    assert {c: Fraction(rows[0][c]) for c in cards.CLASSES} == want
    assert Fraction(rows[0]["p_success"]) == want["success"] + want["bestial_success"]


def test_cli_opposed_csv(capsys):
    rows = _csv(
        capsys, ["cards", "--opposed", "--base", "7", "--defense", "6-8", "--hunger", "2", "--format", "csv", "--exact"]
    )
    assert list(rows[0]) == list(cards.OPPOSED_COLUMNS) + ["rule_set"]
    for r in rows:
        want = oc.brute_opposed(7, int(r["defense"]), 2)
        assert Fraction(r["initiator_wins"]) == want["success"] + want["bestial_success"]
        assert Fraction(r["bestial_failure"]) == want["bestial_failure"]


def test_cli_house_rules(capsys):
    rows = _csv(
        capsys,
        [
            "cards",
            "--base",
            "5",
            "--difficulty",
            "12",
            "--hunger",
            "1",
            "--confirmation",
            "fresh-deck",
            "--ace",
            "high",
            "--ties",
            "defender",
            "--format",
            "csv",
            "--exact",
        ],
    )
    want = oc.brute_static(5, 12, 1, ace="high", ties="defender", confirmation="fresh_deck")
    assert {c: Fraction(rows[0][c]) for c in cards.CLASSES} == want


def test_cli_terminal_table(capsys):
    assert main(["cards", "--base", "8", "--difficulty", "12", "--hunger", "1", "--percent"]) == 0
    out = capsys.readouterr().out
    assert "bestial_failure" in out and "1.11%" in out


@pytest.mark.parametrize(
    "argv,match",
    [
        (["cards", "--base=-1", "--difficulty", "5"], "base"),
        (["cards", "--base", "3", "--difficulty", "5", "--hunger", "7"], "hunger must be 0..5"),
        (["cards", "--base", "3", "--difficulty", "5", "--ace", "joker"], "ace must be one of"),
        (["cards", "--base", "3", "--difficulty", "5", "--ties", "coin"], "ties must be one of"),
        (["cards", "--base", "3", "--difficulty", "5", "--confirmation", "x"], "confirmation must be"),
        (["cards", "--difficulty", "5"], "--base is required"),
        (["cards", "--base", "3"], "--difficulty is required"),
        (["cards", "--opposed", "--base", "3"], "--opposed needs --defense"),
        (["cards", "--opposed", "--base", "3", "--defense", "4", "--difficulty", "5"], "drop --difficulty"),
        (["cards", "--base", "3", "--defense", "4"], "add --opposed"),
        (["cards", "--base", "3", "--difficulty", "5", "--exact", "--percent"], "cannot be combined"),
    ],
)
def test_cli_bad_input_exits_2_with_one_sentence(capsys, argv, match):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert err.startswith("beastodds: error: ") and match in err
    assert "\n" not in err and "Traceback" not in err
