"""Hunter 5th edition Desperation dice: exact against brute force, the closed form, inputs."""
from fractions import Fraction

import pandas as pd
import pytest

from analysis import rulesets
from analysis.systems.hunter import desperation as hunter
from tests import oracles_special as oracles


def test_matches_brute_force_small_pools():
    for pool in range(0, 5):
        for desperation in range(0, 4):
            if pool + desperation > 5:
                continue
            for difficulty in range(0, 7):
                got = hunter.odds(pool, desperation, difficulty).classes()
                assert got == oracles.brute_force_hunter(pool, desperation, difficulty), (pool, desperation)


@pytest.mark.parametrize("field,value", [("despair_ones", 2),
                                         pytest.param("success_face", 8, marks=pytest.mark.slow),
                                         pytest.param("crit_bonus", 1, marks=pytest.mark.slow),
                                         ("desperation_replaces_dice", True),
                                         ("critical_ignores_desperation", True)])
def test_house_rules_match_brute_force(field, value):
    rules = hunter.HunterRules(**{field: value})
    for pool, desperation, difficulty in [(3, 2, 2), (2, 3, 3), (4, 1, 5), (1, 2, 1), (0, 3, 2)]:
        got = hunter.odds(pool, desperation, difficulty, rules).classes()
        want = oracles.brute_force_hunter(pool, desperation, difficulty, **{field: value})
        assert got == want, (field, pool, desperation, difficulty)


def test_desperation_one_closed_form():
    # P(any Desperation 1) = 1 - 0.9**D, whatever the pool and Difficulty
    for d in range(0, 6):
        for pool in (0, 3, 11):
            for difficulty in (0, 2, 6):
                assert hunter.odds(pool, d, difficulty).p_desperation_one == 1 - Fraction(9, 10) ** d


def test_desperation_dice_are_added_and_zero_is_allowed():
    o = hunter.odds(4, 3, 2)
    assert (o.normal_dice, o.special_dice, o.denominator) == (4, 3, 10**7)
    none = hunter.odds(4, 0, 2)
    assert none.p_desperation_one == 0 and none.p_win < o.p_win
    only = hunter.odds(0, 2, 1)
    assert only.normal_dice == 0 and only.special_dice == 2


def test_table_is_tidy_and_sums_to_one():
    df = hunter.table("0-6", "0-5", "0-4", exact=True)
    assert tuple(df.columns) == hunter.TABLE_COLUMNS
    assert len(df) == 7 * 6 * 5
    for row in df.itertuples(index=False):
        r = row._asdict()
        assert sum(r[c] for c in hunter.CLASSES) == 1
        assert r["p_win"] == r["plain_win"] + r["critical_win"] + r["overreach_or_despair"]
        o = hunter.odds(r["pool"], r["desperation"], r["difficulty"])
        assert [r[c] for c in hunter.CLASSES] == list(o.classes().values())
    floats = hunter.table("0-6", "0-5", "0-4")
    for c in hunter.CLASSES + ("p_win", "p_desperation_one"):
        assert floats[c].tolist() == [float(x) for x in df[c]]


def test_read_roll():
    r = hunter.read_roll([7, 8, 3], [1, 6], 3)
    assert (r.outcome, r.successes, r.desperation_ones, r.margin, r.won) == ("overreach_or_despair", 3, 1, 0, True)
    assert hunter.read_roll([7, 2, 3], [1, 6], 3).outcome == "despair"
    assert hunter.read_roll([10, 2], [10, 6], 3).outcome == "critical_win"
    assert hunter.read_roll([10, 2], [10, 1], 3).outcome == "overreach_or_despair"
    rules = hunter.HunterRules(critical_ignores_desperation=True)
    assert hunter.read_roll([10, 2], [10, 1], 3, rules).outcome == "critical_win"
    assert hunter.read_roll([2, 3], [], 1).outcome == "total_failure"


@pytest.mark.parametrize("call", [
    lambda: hunter.odds(5, 6, 2), lambda: hunter.odds(-1, 2, 2), lambda: hunter.odds(5, 2, -1),
    lambda: hunter.odds("5", 2, 2), lambda: hunter.table("1-3", "0-6", 2),
    lambda: hunter.read_roll([0], [], 1), lambda: hunter.read_roll(5, [], 1),
    lambda: hunter.HunterRules(despair_ones=3), lambda: hunter.HunterRules(desperation_replaces_dice=1),
    lambda: hunter.odds(5, 2, 2, rules=None),
])
def test_bad_input_is_a_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_system_is_discovered_with_its_variants():
    system = rulesets.system("hunter")
    assert system.rules_class is hunter.HunterRules
    names = [rs.name for rs in rulesets.variants("hunter")]
    assert "hunter-official" in names and len(names) >= 2
    assert rulesets.official(system).rules == hunter.OFFICIAL
    for rs in rulesets.variants("hunter"):
        df = system.table_function([4], [3], [3], rules=rs.rules, exact=True)
        assert isinstance(df, pd.DataFrame) and len(df) == 1
    from analysis.systems.hunter.figures import hunter_desperation

    assert hunter_desperation.make_figure(pools=range(1, 4), desperations=range(0, 3)).axes
