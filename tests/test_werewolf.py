"""Werewolf 5th edition Rage dice: exact against brute force, the closed forms, Rage checks, inputs."""

from fractions import Fraction

import pandas as pd
import pytest

from analysis.workbench import rulesets
from analysis.systems.werewolf import rage as werewolf
from tests import oracles_special as oracles


def _p_brutal(r):
    q = Fraction(4, 5)
    return 1 - q**r - Fraction(1, 5) * r * q ** (r - 1)


@pytest.mark.parametrize("violent", [pytest.param(False, marks=pytest.mark.slow), True])
def test_matches_brute_force_small_pools(violent):
    for pool in range(0, 6):
        for rage in range(0, 6):
            for difficulty in range(0, 7):
                got = werewolf.odds(pool, rage, difficulty, violent).classes()
                assert got == oracles.brute_force_werewolf(pool, rage, difficulty, violent), (pool, rage, difficulty)


@pytest.mark.parametrize(
    "field,value",
    [
        ("brutal_rage_dice", 1),
        ("brutal_bonus", 2),
        ("success_face", 8),
        ("crit_bonus", 1),
        ("rage_replaces_dice", False),
    ],
)
def test_house_rules_match_brute_force(field, value):
    rules = werewolf.WerewolfRules(**{field: value})
    for pool, rage, difficulty in [(3, 2, 2), (2, 2, 3), (1, 3, 1), (3, 1, 4), (2, 2, 1), (1, 4, 5)]:
        for violent in (False, True):
            got = werewolf.odds(pool, rage, difficulty, violent, rules).classes()
            want = oracles.brute_force_werewolf(pool, rage, difficulty, violent, **{field: value})
            assert got == want, (field, pool, rage, difficulty, violent)


def test_brutal_closed_form():
    # P(Brutal) with R Rage dice = 1 - 0.8**R - 0.2 R 0.8**(R-1), whatever the pool, Difficulty or action
    for r, shown in zip(range(2, 6), ("4.00%", "10.40%", "18.08%", "26.27%")):
        assert f"{float(_p_brutal(r)):.2%}" == shown
        for pool in (r, r + 3, 12):
            for violent in (False, True):
                for difficulty in (1, 4):
                    assert werewolf.odds(pool, r, difficulty, violent).p_brutal == _p_brutal(r)
    assert _p_brutal(2) == Fraction(1, 25) and _p_brutal(3) == Fraction(13, 125)
    # one Rage die can never be Brutal; a pool smaller than Rage rolls only Rage dice
    assert werewolf.odds(6, 1, 2).p_brutal == 0
    assert werewolf.odds(3, 5, 2).p_brutal == _p_brutal(3)


def test_violent_brutal_adds_four_successes_and_otherwise_fails():
    o = werewolf.odds(6, 4, 3, violent=True)
    quiet = werewolf.odds(6, 4, 3)
    assert o.brutal_failure + o.brutal_win == quiet.brutal_failure and quiet.brutal_win == 0
    assert o.p_win > quiet.p_win
    # four successes from the Brutal outcome: violent Brutal wins at Difficulty 4 or less
    assert werewolf.odds(6, 4, 4, violent=True).brutal_failure == 0
    assert werewolf.odds(6, 4, 5, violent=True).brutal_failure > 0
    assert o.mean_successes - quiet.mean_successes == 4 * quiet.p_brutal


def test_table_is_tidy_and_sums_to_one():
    df = werewolf.table("0-6", "0-5", "1-4", "0-1", exact=True)
    assert tuple(df.columns) == werewolf.TABLE_COLUMNS
    assert len(df) == 7 * 6 * 4 * 2
    for row in df.itertuples(index=False):
        r = row._asdict()
        assert sum(r[c] for c in werewolf.CLASSES) == 1
        assert r["p_win"] == r["plain_win"] + r["critical_win"] + r["brutal_win"]
        o = werewolf.odds(r["pool"], r["rage"], r["difficulty"], bool(r["violent"]))
        assert [r[c] for c in werewolf.CLASSES] == list(o.classes().values())
    floats = werewolf.table("0-6", "0-5", "1-4", "0-1")
    for c in werewolf.CLASSES + ("p_win", "p_brutal"):
        assert floats[c].tolist() == [float(x) for x in df[c]]


def test_read_roll():
    r = werewolf.read_roll([7, 3], [1, 2, 9], 3, violent=True)
    assert (r.outcome, r.successes, r.marks["rage.brutal"], r.margin, r.won) == ("brutal_win", 6, 2, 3, True)
    assert (r.brutal_outcome, r.violent, r.marks["ten"]) == (1, 1, 0)  # a count of the file, an axis, a mark
    assert werewolf.read_roll([7, 3], [1, 2, 9], 3).outcome == "brutal_failure"
    assert werewolf.read_roll([10, 3], [10, 2, 9], 3).outcome == "critical_win"
    assert werewolf.read_roll([4, 3], [1, 5], 1).outcome == "total_failure"
    assert werewolf.read_roll([7, 3], [1, 5], 2).outcome == "failure"


def test_rage_checks():
    assert werewolf.rage_check() == Fraction(1, 2)
    dist = werewolf.rage_after_checks(3, 4)
    assert sum(dist.values()) == 1
    assert dist == {0: Fraction(5, 16), 1: Fraction(6, 16), 2: Fraction(4, 16), 3: Fraction(1, 16)}
    assert werewolf.rage_after_checks(2, 0) == {2: Fraction(1)}
    assert werewolf.rage_after_checks(0, 5) == {0: Fraction(1)}


@pytest.mark.parametrize(
    "call",
    [
        lambda: werewolf.odds(5, 6, 2),
        lambda: werewolf.odds(-1, 2, 2),
        lambda: werewolf.odds(5, 2, -1),
        lambda: werewolf.odds(5.0, 2, 2),
        lambda: werewolf.odds(5, 2, 2, violent=2),
        lambda: werewolf.table("1-3", "0-6", 2),
        lambda: werewolf.read_roll([11], [], 1),
        lambda: werewolf.WerewolfRules(brutal_rage_dice=3),
        lambda: werewolf.WerewolfRules(success_face=2),
        lambda: werewolf.odds(5, 2, 2, rules="official"),
        lambda: werewolf.rage_after_checks(6, 1),
    ],
)
def test_bad_input_is_a_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_system_is_discovered_with_its_variants():
    system = rulesets.system("werewolf")
    assert system.rules is werewolf.WerewolfRules
    names = [rs.name for rs in rulesets.variants("werewolf")]
    assert "werewolf-official" in names and len(names) >= 2
    assert rulesets.official(system).rules == werewolf.OFFICIAL
    for rs in rulesets.variants("werewolf"):
        df = system.table([4], [3], [3], [0, 1], rules=rs.rules, exact=True)
        assert isinstance(df, pd.DataFrame) and len(df) == 2
    from analysis.present.published.figures import werewolf_brutal

    assert werewolf_brutal.make_figure(pools=range(1, 4), rages=range(0, 3)).axes


@pytest.mark.slow
@pytest.mark.parametrize("strategy,rage_rerolls", [("maximize_win", True), ("normal_dice_only", False)])
def test_willpower_matches_brute_force(strategy, rage_rerolls):
    for pool in range(0, 5):
        for rage in range(0, 4):
            for difficulty in (1, 2, 3, 4):
                for violent in (False, True):
                    o = werewolf.odds(pool, rage, difficulty, violent, strategy=strategy)
                    want, spent = oracles.brute_force_werewolf_willpower(pool, rage, difficulty, violent, rage_rerolls)
                    assert o.classes() == want, (strategy, pool, rage, difficulty, violent)
                    assert o.willpower_spent == spent


def test_willpower_never_hurts_and_rage_rerolls_help_somewhere():
    import numpy as np

    from analysis.engine import exact
    from analysis.engine import willpower as mechanic_willpower
    from analysis.systems.werewolf import willpower

    better = 0
    for pool in range(1, 9):
        for rage in range(0, 6):
            for difficulty in (2, 4):
                for violent in (False, True):
                    none = werewolf.odds(pool, rage, difficulty, violent)
                    normal = werewolf.odds(pool, rage, difficulty, violent, strategy="normal_dice_only")
                    best = werewolf.odds(pool, rage, difficulty, violent, strategy="maximize_win")
                    assert best.p_win >= normal.p_win >= none.p_win
                    assert sum(best.classes().values()) == 1
                    better += best.p_win > normal.p_win
    assert better > 0
    # the int64 and modular paths agree on the rerolled counts (9 normal + 5 Rage dice, the engine's kernel call)
    call = mechanic_willpower.kernel_call(
        werewolf.OFFICIAL.mechanic(), willpower.STRATEGIES["maximize_win"], pool=14, rage=5, difficulty=6, violent=1
    )
    assert call.bound() <= exact.INT64_MAX
    a = call.compute(0)
    b = exact.count(call.compute, call.bound(), force_modular=True)
    assert a.dtype == np.int64 and b.dtype == object and a.tolist() == b.tolist()
    with pytest.raises(ValueError):
        werewolf.odds(5, 2, 2, strategy="reroll_everything")


def test_willpower_table():
    df = werewolf.table("2-4", "1-3", 3, "0-1", exact=True, strategy="maximize_win")
    assert tuple(df.columns) == werewolf.TABLE_COLUMNS + ("willpower_spent", "p_win_gain")
    for row in df.itertuples(index=False):
        r = row._asdict()
        o = werewolf.odds(r["pool"], r["rage"], r["difficulty"], bool(r["violent"]), strategy="maximize_win")
        assert [r[c] for c in werewolf.CLASSES] == list(o.classes().values())
        assert r["willpower_spent"] == o.willpower_spent and r["p_win"] == o.p_win
        plain = werewolf.odds(r["pool"], r["rage"], r["difficulty"], bool(r["violent"]))
        assert r["p_win_gain"] == o.p_win - plain.p_win >= 0
    floats = werewolf.table("2-4", "1-3", 3, "0-1", strategy="maximize_win")
    assert floats["p_win"].tolist() == [float(x) for x in df["p_win"]]


def test_willpower_strategies_side_by_side():
    df = werewolf.table(4, 2, 3, 1, exact=True, strategy="none,maximize_win,normal_dice_only")
    assert list(df.columns[:5]) == ["pool", "rage", "difficulty", "violent", "strategy"]
    assert list(df.strategy) == ["none", "maximize_win", "normal_dice_only"]
    plain = werewolf.odds(4, 2, 3, True)
    assert df.p_win.iloc[0] == plain.p_win and df.p_win_gain.iloc[0] == 0
    for row in df.iloc[1:].itertuples():
        assert row.p_win_gain == werewolf.odds(4, 2, 3, True, strategy=row.strategy).p_win - plain.p_win
    with pytest.raises(
        ValueError, match=r"choose from none, reroll_failures, maximize_win, normal_dice_only \(did you mean"
    ):
        werewolf.table(4, 2, 3, strategy="normal_dice")


@pytest.mark.parametrize("violent", [False, True])
def test_reroll_failures_matches_brute_force(violent):
    # a roll that is not a win rerolls up to three failed dice, normal dice first, never a Rage 1 or 2
    for pool in range(0, 5):
        for rage in range(0, 4):
            for difficulty in (1, 2, 4):
                o = werewolf.odds(pool, rage, difficulty, violent, strategy="reroll_failures")
                want, spent = oracles.brute_force_werewolf_reroll_failures(pool, rage, difficulty, violent)
                assert o.classes() == want, (pool, rage, difficulty, violent)
                assert o.willpower_spent == spent and o.strategy == "reroll_failures"
    # it never hurts, and the best reroll for a win is never worse
    for pool, rage, difficulty in [(5, 2, 3), (7, 4, 4), (9, 5, 6), (3, 3, 2)]:
        none = werewolf.odds(pool, rage, difficulty, violent)
        thumb = werewolf.odds(pool, rage, difficulty, violent, strategy="reroll_failures")
        best = werewolf.odds(pool, rage, difficulty, violent, strategy="maximize_win")
        assert best.p_win >= thumb.p_win >= none.p_win and thumb.willpower_spent > 0


def test_strategies_of_the_system_and_the_command_line(capsys):
    import csv
    import io

    from analysis import cli
    from analysis.engine import willpower as mechanic_willpower
    from analysis.systems.werewolf import willpower

    assert list(rulesets.system("werewolf").strategy_map) == ["reroll_failures", "maximize_win", "normal_dice_only"]
    # normal_dice_only is maximize_win over the normal dice only; a Strategy of the engine is taken as it is
    assert willpower.STRATEGIES["normal_dice_only"].kinds == ("normal",)
    mine = willpower.Strategy("mine", win=True, kinds=("normal",))
    assert willpower.Strategy is mechanic_willpower.Strategy
    assert (
        werewolf.odds(6, 3, 3, strategy=mine).classes() == werewolf.odds(6, 3, 3, strategy="normal_dice_only").classes()
    )
    crit = mechanic_willpower.Strategy("crit", values={"critical_win": 1})
    assert (
        werewolf.odds(6, 3, 3, strategy=crit).critical_win
        >= werewolf.odds(6, 3, 3, strategy="maximize_win").critical_win
    )
    code = cli.main(
        [
            "werewolf",
            "--pool",
            "4",
            "--rage",
            "2",
            "--difficulty",
            "3",
            "--violent",
            "0-1",
            "--strategy",
            "reroll_failures",
            "--format",
            "csv",
            "--exact",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    got = list(csv.DictReader(io.StringIO(out)))
    assert [int(r["violent"]) for r in got] == [0, 1]
    for r in got:
        o = werewolf.odds(4, 2, 3, bool(int(r["violent"])), strategy="reroll_failures")
        assert Fraction(r["p_win"]) == o.p_win and Fraction(r["willpower_spent"]) == o.willpower_spent
    with pytest.raises(SystemExit):
        cli.main(["werewolf", "--help"])
    out, _ = capsys.readouterr()
    assert "none, reroll_failures, maximize_win, normal_dice_only" in " ".join(out.split())


def test_the_odds_are_the_engines_one_odds_type_read_by_the_files_names():
    """A Werewolf roll's odds are MechanicOdds, as a designer's file's are: its axes, classes, columns and
    the dice of each kind are read by name, against the classes counted (and an unknown name is refused
    naming the near one); it survives a pickle (the sweep's workers send them)."""
    import pickle

    from analysis.engine.results import MechanicOdds

    o = werewolf.odds(6, 2, 3, violent=True, strategy="maximize_win")
    assert type(o) is MechanicOdds
    assert (o.pool, o.rage, o.difficulty, o.violent, o.normal_dice, o.rage_dice) == (6, 2, 3, 1, 4, 2)
    assert o.values == {"pool": 6, "rage": 2, "difficulty": 3, "violent": 1}
    classes = o.classes()
    assert o.brutal_win == classes["brutal_win"] and o.p_brutal == classes["brutal_win"] + classes["brutal_failure"]
    assert o.p_win == sum(classes[c] for c in ("plain_win", "critical_win", "brutal_win"))
    assert sum(o.margin.values()) == 1 and o.margin == {s - 3: p for s, p in o.successes.items()}
    assert o.strategy == "maximize_win" and 0 < o.willpower_spent < 1
    assert {"rage", "brutal_win", "p_brutal", "rage_dice"} <= set(dir(o))
    with pytest.raises(AttributeError, match="no 'brutal_wins'.*did you mean brutal_win"):
        o.brutal_wins
    assert pickle.loads(pickle.dumps(o)) == o
