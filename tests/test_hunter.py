"""Hunter 5th edition Desperation dice: exact against brute force, the closed form, inputs."""

from fractions import Fraction

import pandas as pd
import pytest

from analysis.workbench import rulesets
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


@pytest.mark.parametrize(
    "field,value",
    [
        ("despair_ones", 2),
        pytest.param("success_face", 8, marks=pytest.mark.slow),
        pytest.param("crit_bonus", 1, marks=pytest.mark.slow),
        ("desperation_replaces_dice", True),
        ("critical_ignores_desperation", True),
    ],
)
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
    assert (o.normal_dice, o.desperation_dice, o.denominator) == (4, 3, 10**7)
    none = hunter.odds(4, 0, 2)
    assert none.p_desperation_one == 0 and none.p_win < o.p_win
    only = hunter.odds(0, 2, 1)
    assert only.normal_dice == 0 and only.desperation_dice == 2


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
    assert (r.outcome, r.successes, r.marks["desperation.one"], r.margin, r.won) == (
        "overreach_or_despair",
        3,
        1,
        0,
        True,
    )
    assert hunter.read_roll([7, 2, 3], [1, 6], 3).outcome == "despair"
    assert hunter.read_roll([10, 2], [10, 6], 3).outcome == "critical_win"
    assert hunter.read_roll([10, 2], [10, 1], 3).outcome == "overreach_or_despair"
    rules = hunter.HunterRules(critical_ignores_desperation=True)
    assert hunter.read_roll([10, 2], [10, 1], 3, rules).outcome == "critical_win"
    assert hunter.read_roll([2, 3], [], 1).outcome == "total_failure"


@pytest.mark.parametrize(
    "call",
    [
        lambda: hunter.odds(5, 6, 2),
        lambda: hunter.odds(-1, 2, 2),
        lambda: hunter.odds(5, 2, -1),
        lambda: hunter.odds("5", 2, 2),
        lambda: hunter.table("1-3", "0-6", 2),
        lambda: hunter.read_roll([0], [], 1),
        lambda: hunter.read_roll(5, [], 1),
        lambda: hunter.HunterRules(despair_ones=3),
        lambda: hunter.HunterRules(desperation_replaces_dice=1),
        lambda: hunter.odds(5, 2, 2, rules=None),
    ],
)
def test_bad_input_is_a_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_system_is_discovered_with_its_variants():
    system = rulesets.system("hunter")
    assert system.rules is hunter.HunterRules
    names = [rs.name for rs in rulesets.variants("hunter")]
    assert "hunter-official" in names and len(names) >= 2
    assert rulesets.official(system).rules == hunter.OFFICIAL
    for rs in rulesets.variants("hunter"):
        df = system.table([4], [3], [3], rules=rs.rules, exact=True)
        assert isinstance(df, pd.DataFrame) and len(df) == 1
    from analysis.present.published.figures import hunter_desperation

    assert hunter_desperation.make_figure(pools=range(1, 4), desperations=range(0, 3)).axes


# ------------------------------------------------------------------ Willpower


@pytest.mark.parametrize("strategy", ["maximize_win", "reroll_failures"])
def test_willpower_matches_brute_force(strategy):
    # every ordered roll and every allowed reroll, the rules restated in tests.oracles_special
    cells = [(p, d, diff) for p in range(0, 4) for d in range(0, 3) for diff in (1, 2, 3, 5) if p + d <= 4]
    for pool, desperation, difficulty in cells:
        o = hunter.odds(pool, desperation, difficulty, strategy=strategy)
        want, spent = oracles.brute_force_hunter_willpower(pool, desperation, difficulty, strategy)
        assert o.classes() == want, (strategy, pool, desperation, difficulty)
        assert o.willpower_spent == spent, (strategy, pool, desperation, difficulty)
        assert o.strategy == strategy and sum(o.successes.values()) == 1


def test_willpower_never_hurts_and_never_rerolls_desperation_dice():
    better = 0
    for pool in range(0, 9):
        for desperation in range(0, 6):
            for difficulty in (1, 3, 5):
                none = hunter.odds(pool, desperation, difficulty)
                thumb = hunter.odds(pool, desperation, difficulty, strategy="reroll_failures")
                best = hunter.odds(pool, desperation, difficulty, strategy="maximize_win")
                assert best.p_win >= thumb.p_win >= none.p_win
                assert sum(best.classes().values()) == 1 == sum(thumb.classes().values())
                # the Desperation dice are never rerolled: their 1s stay as likely as without Willpower
                assert best.p_desperation_one == none.p_desperation_one == thumb.p_desperation_one
                better += best.p_win > thumb.p_win
    assert better > 0
    # no normal die: nothing to reroll
    assert hunter.odds(0, 3, 2, strategy="maximize_win").willpower_spent == 0
    assert hunter.odds(0, 3, 2, strategy="maximize_win").classes() == hunter.odds(0, 3, 2).classes()
    # a house rule reaches the strategies too
    rules = hunter.HunterRules(success_face=8)
    assert hunter.odds(4, 1, 2, rules, strategy="maximize_win").p_win > hunter.odds(4, 1, 2, rules).p_win
    assert (
        hunter.odds(4, 1, 2, rules, strategy="maximize_win").p_win < hunter.odds(4, 1, 2, strategy="maximize_win").p_win
    )


def test_willpower_table_and_strategies_side_by_side():
    df = hunter.table("2-4", "0-2", 3, exact=True, strategy="maximize_win", at_least=4)
    assert tuple(df.columns) == hunter.TABLE_COLUMNS + ("willpower_spent", "p_win_gain", "p_at_least_4")
    for row in df.itertuples(index=False):
        r = row._asdict()
        o = hunter.odds(r["pool"], r["desperation"], r["difficulty"], strategy="maximize_win")
        assert [r[c] for c in hunter.CLASSES] == list(o.classes().values())
        assert r["willpower_spent"] == o.willpower_spent and r["p_win"] == o.p_win
        assert r["p_win_gain"] == o.p_win - hunter.odds(r["pool"], r["desperation"], r["difficulty"]).p_win >= 0
        assert r["p_at_least_4"] == sum(p for s, p in o.successes.items() if s >= 4)
    floats = hunter.table("2-4", "0-2", 3, strategy="maximize_win")
    for c in hunter.CLASSES + ("p_win", "willpower_spent", "p_win_gain"):
        assert floats[c].tolist() == [float(x) for x in df[c]], c
    both = hunter.table(4, 2, 3, exact=True, strategy="none,reroll_failures,maximize_win")
    assert list(both.columns[:4]) == ["pool", "desperation", "difficulty", "strategy"]
    assert list(both.strategy) == ["none", "reroll_failures", "maximize_win"]
    assert both.p_win_gain.iloc[0] == 0 and both.willpower_spent.iloc[0] == 0
    for row in both.iloc[1:].itertuples():
        assert row.p_win == hunter.odds(4, 2, 3, strategy=row.strategy).p_win
    assert hunter.table(4, 2, 3, strategy="none").equals(hunter.table(4, 2, 3))
    with pytest.raises(ValueError, match=r"choose from none, reroll_failures, maximize_win \(did you mean"):
        hunter.table(4, 2, 3, strategy="maximise_win")
    with pytest.raises(ValueError, match="unknown Willpower strategy"):
        hunter.odds(4, 2, 3, strategy="reroll_everything")


def test_willpower_shows_in_the_odds():
    o = hunter.odds(5, 2, 3, strategy="maximize_win")
    assert "Willpower: maximize_win, spent" in str(o)
    assert "willpower_spent" in repr(o)
    assert "Willpower" not in str(hunter.odds(5, 2, 3))
    from analysis.workbench import rulesets

    assert list(rulesets.system("hunter").strategy_map) == ["reroll_failures", "maximize_win"]


def test_cli_strategy(capsys):
    from analysis import cli

    code = cli.main(
        [
            "hunter",
            "--pool",
            "3-4",
            "--desperation",
            "1",
            "--difficulty",
            "2",
            "--strategy",
            "maximize_win",
            "--format",
            "csv",
            "--exact",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    import csv
    import io

    got = list(csv.DictReader(io.StringIO(out)))
    assert [int(r["pool"]) for r in got] == [3, 4]
    for r in got:
        o = hunter.odds(int(r["pool"]), 1, 2, strategy="maximize_win")
        assert Fraction(r["p_win"]) == o.p_win and Fraction(r["willpower_spent"]) == o.willpower_spent
        assert Fraction(r["p_win_gain"]) == o.p_win - hunter.odds(int(r["pool"]), 1, 2).p_win
    code = cli.main(
        [
            "hunter",
            "--pool",
            "3",
            "--desperation",
            "1",
            "--difficulty",
            "2",
            "--strategy",
            "none,reroll_failures",
            "--format",
            "csv",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert [r["strategy"] for r in csv.DictReader(io.StringIO(out))] == ["none", "reroll_failures"]
    code = cli.main(["hunter", "--pool", "3", "--strategy", "pray"])
    out, err = capsys.readouterr()
    assert code == 2 and "unknown Willpower strategy 'pray'" in err
    with pytest.raises(SystemExit):
        cli.main(["hunter", "--help"])
    out, _ = capsys.readouterr()
    assert "none, reroll_failures, maximize_win" in " ".join(out.split())
