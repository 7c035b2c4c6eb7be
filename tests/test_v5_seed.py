"""The figures the V5 core rules prints, pinned, and its "Try It at the Table" answers."""

from fractions import Fraction

import pytest

from analysis.systems.v5 import roll as v5


def pct(f, digits=1):
    return round(float(f) * 100, digits)


def test_three_dice_hunger_three():
    # the V5 core rules, "How Often Does the Beast Show Up?": 26.8% bestial; 2.8% critical, all messy
    o = v5.odds(3, 3, 3)
    assert o.bestial_failure == Fraction(67, 250)  # 26.8% exactly
    assert o.messy_critical == Fraction(7, 250)  # 2.8% exactly
    assert o.critical_win == 0
    assert o.hunger_dice == 3 and o.normal_dice == 0


def test_ten_dice_hunger_three():
    # the V5 core rules: "almost never fail bestially (2.2%), but 15.5% ... messy criticals"
    o = v5.odds(10, 3, 3)
    assert pct(o.bestial_failure) == 2.2
    assert pct(o.messy_critical) == 15.5


def test_blood_surge_example():
    # the V5 core rules, Blood Surge: 4 dice at Difficulty 3 win 32.8%; 6 dice 66.6%
    assert v5.odds(4, 0, 3).p_win == Fraction(3275, 10000)  # 32.75% exactly
    assert pct(v5.odds(6, 0, 3).p_win) == 66.6


@pytest.mark.parametrize("hunger", range(6))
def test_hunger_never_changes_the_chance_to_win(hunger):
    # the V5 core rules: "Hunger never changes your chance to win"
    for pool in range(3, 11):
        assert v5.odds(pool, hunger, 3).p_win == v5.odds(pool, 0, 3).p_win


def test_exercise_1_reading_a_roll():
    r = v5.read_roll(normal=[10, 5, 7, 2], hunger=[10, 1], difficulty=4)
    assert (r.successes, r.margin, r.outcome) == (5, 1, "messy_critical")
    assert (r.marks["ten"], r.marks["hunger.ten"], r.marks["hunger.one"], r.difficulty) == (2, 1, 1, 4)
    # a Difficulty above every count these dice can show is read as it was given
    assert v5.read_roll([10, 5], [1], 40).difficulty == 40


def test_exercise_2_the_roll_shown_is_bestial():
    r = v5.read_roll(normal=[4, 3], hunger=[6, 1, 2], difficulty=2)
    assert (r.successes, r.outcome) == (1, "bestial_failure")


def test_exercise_3_frenzy_pool():
    # 6 Willpower boxes, 2 marked Superficial, Humanity 8: 4 + floor(8/3) = 6 dice
    assert v5.frenzy_pool(6, superficial=2, humanity=8) == 6


def test_exercise_4_remorse():
    r = v5.remorse(humanity=6, stains=3)
    assert r.pool == 1 and r.keep_humanity == Fraction(1, 2) and not r.degeneration
    # the core rules' Imogen: Humanity 7, 2 Stains: one die, 50/50
    assert v5.remorse(7, 2).pool == 1


def test_exercise_5_know_your_odds():
    o = v5.odds(7, 3, 3)
    assert pct(o.bestial_failure) == 8.6
    assert pct(o.messy_critical) == 11.2
