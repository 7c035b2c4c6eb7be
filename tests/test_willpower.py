"""Willpower strategies: exact against brute force, the core rules' logic, and the optimum's guarantees."""

from fractions import Fraction

import pytest

from analysis.systems.v5 import roll as v5
from analysis.systems.v5 import willpower
from tests import oracles

STRATEGIES = list(willpower.STRATEGIES)


# the rule of thumb in the fast tier, all four in the slow one
@pytest.mark.parametrize(
    "strategy", [s if s == "reroll_failures" else pytest.param(s, marks=pytest.mark.slow) for s in STRATEGIES]
)
def test_matches_brute_force_small_pools(strategy):
    for pool in range(0, 5):
        for hunger in (0, 1, 2, 4):
            for difficulty in (1, 2, 3, 4):
                o = v5.odds(pool, hunger, difficulty, strategy=strategy)
                want, spent = oracles.brute_force_willpower(pool, hunger, difficulty, strategy)
                assert o.classes() == want, (strategy, pool, hunger, difficulty)
                assert o.willpower_spent == spent


@pytest.mark.slow
@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("cell", [(5, 1, 3), (5, 3, 2)])
def test_matches_brute_force_pool_5(strategy, cell):
    o = v5.odds(*cell, strategy=strategy)
    want, spent = oracles.brute_force_willpower(*cell, strategy)
    assert o.classes() == want and o.willpower_spent == spent


def test_maximize_win_never_below_reroll_failures_and_strictly_above_somewhere():
    better = 0
    df_opt = v5.table("1-15", "0-5", "1-8", strategy="maximize_win", exact=True)
    df_seed = v5.table("1-15", "0-5", "1-8", strategy="reroll_failures", exact=True)
    df_none = v5.table("1-15", "0-5", "1-8", exact=True)
    for a, b, c in zip(df_opt.itertuples(), df_seed.itertuples(), df_none.itertuples()):
        assert a.p_win >= b.p_win >= c.p_win
        better += a.p_win > b.p_win
        assert sum(getattr(a, k) for k in v5.CLASSES) == 1
    assert better > 0


def test_reroll_failures_is_the_seeds_logic():
    # a failing roll rerolls up to three failed normal dice; a win keeps its dice
    d = willpower.decide([1, 2, 3, 4, 9], [2], 3, "reroll_failures")
    assert len(d.reroll) == 3 and all(f < 6 for f in d.reroll)
    assert willpower.decide([6, 7, 8, 2], [], 3, "reroll_failures").reroll == ()
    # every failed die, when fewer than three
    assert sorted(willpower.decide([4, 3, 9], [1], 2, "reroll_failures").reroll) == [3, 4]
    # at Hunger 5 a six-die pool has one normal die to reroll (the core rules' catch)
    o = v5.odds(6, 5, 3, strategy="reroll_failures")
    assert o.normal_dice == 1


def test_exercise_2_willpower_rescues_the_roll():
    # the V5 core rules exercise 2: pool 5, Hunger 3, Difficulty 2; normal 4, 3; Hunger 6, 1, 2
    d = willpower.decide(normal=[4, 3], hunger=[6, 1, 2], difficulty=2, strategy="reroll_failures")
    assert d.before == "bestial_failure"
    assert sorted(d.reroll) == [3, 4]
    assert d.p_win == Fraction(3, 4)  # one success among two rerolled dice
    assert d.after["bestial_failure"] == Fraction(1, 4)


def test_decision_for_the_seeds_first_hand():
    d = willpower.decide([10, 5, 7, 2], [10, 1], 4, "maximize_win")
    assert d.before == "messy_critical" and d.reroll == () and not d.spends_willpower
    # avoid_messy never turns a failure with a Hunger 10 showing into a messy critical
    d = willpower.decide([5, 2, 3], [10, 1], 3, "avoid_messy")
    assert d.reroll == () and d.after["bestial_failure"] == 1


DESIGNER = {"plain_win": 1, "critical_win": 1, "messy_critical": Fraction(1, 2), "bestial_failure": -1}


def test_optimal_with_a_designers_values_matches_brute_force(monkeypatch):
    monkeypatch.setitem(oracles.ORACLE_STRATEGIES, "designer", (DESIGNER, False, False))
    s = willpower.optimal({**DESIGNER, "messy_critical": 0.5}, "designer")
    for cell in [(4, 2, 2), (3, 1, 3), (4, 3, 3)]:
        o = v5.odds(*cell, strategy=s)
        want, spent = oracles.brute_force_willpower(*cell, "designer")
        assert o.classes() == want and o.willpower_spent == spent
        # and no named strategy does better by the designer's values
        ev = sum(DESIGNER.get(c, 0) * p for c, p in o.classes().items())
        for name in willpower.STRATEGIES:
            other = v5.odds(*cell, strategy=name).classes()
            assert ev >= sum(DESIGNER.get(c, 0) * p for c, p in other.items())


def test_bad_strategies_are_refused(capsys):
    with pytest.raises(ValueError, match="unknown Willpower strategy"):
        v5.odds(5, 1, 2, strategy="reroll_everything")
    with pytest.raises(ValueError, match="unknown outcome class"):
        willpower.optimal({"victory": 1})
    with pytest.raises(ValueError, match="must be a whole number, a Fraction or a decimal"):
        willpower.optimal({"plain_win": "1"})
    from analysis import cli

    assert cli.main(["v5", "--pool", "5", "--difficulty", "2", "--strategy", "pray"]) == 2
    assert "unknown Willpower strategy" in capsys.readouterr().err


def test_cli_willpower_column(capsys):
    from analysis import cli

    assert (
        cli.main(
            [
                "v5",
                "--pool",
                "5",
                "--hunger",
                "3",
                "--difficulty",
                "2",
                "--strategy",
                "maximize_win",
                "--format",
                "csv",
                "--exact",
            ]
        )
        == 0
    )
    header, row = capsys.readouterr().out.strip().splitlines()
    assert header.split(",") == list(v5.TABLE_COLUMNS) + ["willpower_spent", "p_win_gain", "rule_set"]
    o = v5.odds(5, 3, 2, strategy="maximize_win")
    cells = dict(zip(header.split(","), row.split(",")))
    assert Fraction(cells["willpower_spent"]) == o.willpower_spent
    assert Fraction(cells["p_win_gain"]) == o.p_win - v5.odds(5, 3, 2).p_win > 0


def test_strategies_side_by_side():
    df = v5.table("4-5", "1,3", 2, strategy="none,reroll_failures,maximize_win", exact=True)
    assert list(df.columns[:4]) == ["pool", "hunger", "difficulty", "strategy"]
    assert list(df.strategy[:3]) == ["none", "reroll_failures", "maximize_win"] and len(df) == 12
    for row in df.itertuples():
        strategy = None if row.strategy == "none" else row.strategy
        o = v5.odds(row.pool, row.hunger, row.difficulty, strategy=strategy)
        assert [getattr(row, c) for c in v5.CLASSES] == list(o.classes().values())
        assert row.willpower_spent == o.willpower_spent
        assert row.p_win_gain == o.p_win - v5.odds(row.pool, row.hunger, row.difficulty).p_win
        assert sum(getattr(row, c) for c in v5.CLASSES) == 1
    none = df[df.strategy == "none"]
    assert (none.p_win_gain == 0).all() and (none.willpower_spent == 0).all()
    assert (df[df.strategy == "maximize_win"].p_win_gain.to_numpy() > 0).all()
    floats = v5.table("4-5", "1,3", 2, strategy=["none", "maximize_win"])
    exact = df[df.strategy != "reroll_failures"].reset_index(drop=True)
    assert list(floats.p_win_gain) == [float(x) for x in exact.p_win_gain]
    assert v5.table(3, 1, 1, strategy="none").equals(v5.table(3, 1, 1))
    assert v5.odds(4, 2, 3, strategy="none") == v5.odds(4, 2, 3)


def test_cli_strategies_side_by_side_and_bad_names(capsys):
    from analysis import cli

    assert (
        cli.main(
            [
                "v5",
                "--pool",
                "3",
                "--hunger",
                "1",
                "--difficulty",
                "1",
                "--strategy",
                "none,maximize_win",
                "--format",
                "csv",
                "--exact",
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("pool,hunger,difficulty,strategy,total_failure,")
    assert [line.split(",")[3] for line in lines[1:]] == ["none", "maximize_win"]
    assert cli.main(["v5", "--pool", "3", "--difficulty", "1", "--strategy", "maximise_win"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "beastodds: error: unknown Willpower strategy 'maximise_win'; choose from none, "
        + ", ".join(willpower.STRATEGIES)
        + " (did you mean maximize_win?)"
    )
    assert cli.main(["v5", "--pool", "3", "--difficulty", "1", "--strategy", "none,none"]) == 2
    assert "named twice" in capsys.readouterr().err


def test_big_pools_take_the_exact_path():
    o = v5.odds(30, 4, 12, strategy="maximize_win")
    assert o.denominator == 10**33
    assert sum(o.classes().values()) == 1
    assert o.p_win >= v5.odds(30, 4, 12).p_win
