"""A mechanic file's Willpower works as the shipped systems' does: ``--strategy`` on ``table`` (and the
system's table function) for any file with a ``[willpower]`` table, counted by the one Willpower engine.

The check that matters: a copy of the shipped V5 file under another name (so nothing of the V5 package
counts it) gives, under ``table --strategy``, what ``v5 --strategy`` gives, cell for cell, exactly.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from analysis.workbench import rulesets
from analysis.systems.v5 import roll
from tests.conftest import run_cli, systems_kept

ROOT = Path(__file__).resolve().parents[1]
V5_FILE = ROOT / "analysis" / "systems" / "v5" / "mechanic.toml"
GRID = {"pool": "1-6", "hunger": "0-3", "difficulty": "1-4"}


@pytest.fixture
def my_v5(tmp_path):
    """The shipped V5 mechanic file under a designer's name: its own system, counted as a file."""
    path = tmp_path / "myv5.toml"
    text = re.sub(r'(?m)^name = "v5"', 'name = "myv5"', V5_FILE.read_text(encoding="utf-8"), count=1)
    path.write_text(text, encoding="utf-8")
    with systems_kept():
        yield path


@pytest.mark.parametrize("strategy", ["none", "reroll_failures", "maximize_win", "none,reroll_failures,maximize_win"])
def test_the_v5_file_under_table_equals_the_v5_strategies(my_v5, strategy):
    rs = rulesets.load(my_v5)
    system = rulesets.system(rs.system)
    assert system.name == "myv5" and system.package == ""  # counted as a designer's file
    got = system.table(*GRID.values(), rules=rs.rules, exact=True, strategy=strategy)
    want = roll.table(*GRID.values(), exact=True, strategy=strategy)
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
    floats = system.table(*GRID.values(), rules=rs.rules, strategy=strategy)
    number_columns = [c for c in got.columns if c not in ("pool", "hunger", "difficulty", "strategy")]
    for c in number_columns:  # each float is the float of the exact fraction
        assert floats[c].tolist() == [float(x) for x in got[c]], c


def test_the_table_command_takes_strategy_for_a_file(my_v5, capsys):
    grid = [f"--{k}={v}" for k, v in GRID.items()]
    code, file_out, err = run_cli(
        capsys, "table", my_v5, *grid, "--strategy", "none,maximize_win", "--exact", "--format", "csv"
    )
    assert code == 0, err
    code, v5_out, err = run_cli(capsys, "v5", *grid, "--strategy", "none,maximize_win", "--exact", "--format", "csv")
    assert code == 0, err
    strip = lambda text: [line.rsplit(",", 1)[0] for line in text.splitlines()]  # noqa: E731 (the rule_set column)
    assert strip(file_out) == strip(v5_out) and len(file_out.splitlines()) == 1 + 6 * 4 * 4 * 2
    assert file_out.splitlines()[1].endswith(",myv5") and ",strategy," in file_out.splitlines()[0]
    code, text, err = run_cli(
        capsys, "table", my_v5, "--pool", "3", "--hunger", "1", "--difficulty", "2", "--strategy", "maximize_win"
    )
    assert code == 0 and "willpower_spent" in text and "p_win_gain" in text, err
    code, text, err = run_cli(
        capsys, "table", "v5-official", "--pool", "3", "--difficulty", "2", "--strategy", "maximize_critical"
    )
    assert code == 0 and "willpower_spent" in text, err


@pytest.mark.parametrize(
    "argv, words",
    [
        (
            ["classic-official", "--pool", "2", "--strategy", "maximize_win"],
            "--strategy: classic-official has no Willpower reroll",
        ),
        (
            ["cards-official", "--base", "3", "--strategy", "maximize_win"],
            "--strategy: cards-official has no Willpower reroll",
        ),
        (
            ["{file}", "--pool", "2", "--strategy", "bogus"],
            "unknown Willpower strategy 'bogus'; choose from none, reroll_failures",
        ),
        (["{file}", "--pool", "2", "--strategy", "maximize_win,maximize_win"], "'maximize_win' is named twice"),
        (["{file}", "--pool", "2", "--strategy", "maximize_win", "--distribution"], "leave out --strategy"),
    ],
)
def test_the_table_command_refuses_a_strategy_it_cannot_count(my_v5, argv, words, capsys):
    argv = [str(my_v5) if a == "{file}" else a for a in argv]
    code, out, err = run_cli(capsys, "table", *argv)
    assert code == 2 and out == "" and words in err, err
    assert "Traceback" not in err and err.count("\n") == 1


def test_a_file_without_willpower_has_no_strategy(capsys):
    path = ROOT / "analysis" / "model" / "examples" / "three-kinds.toml"
    with systems_kept():
        code, out, err = run_cli(capsys, "table", path, "--pool", "2", "--strategy", "maximize_win")
    assert code == 2 and "three-kinds has no Willpower reroll" in err and "[willpower]" in err


def test_the_help_names_the_option(capsys):
    code, out, _ = run_cli(capsys, "table", "--help")
    assert code == 0 and "--strategy STRATEGY" in out and "[willpower]" in out


def test_compare_takes_a_strategy_for_both_sides(my_v5):
    from fractions import Fraction

    from analysis.present import tables

    grid = {"pool": "1-4", "hunger": "0-2", "difficulty": "2-3"}
    same = tables.compare("v5-official", my_v5, grid, exact=True, strategy="none,reroll_failures,maximize_win")
    assert same.side_by_side and same.key_columns == ("pool", "hunger", "difficulty", "strategy", "outcome")
    assert len(same.table) == 4 * 3 * 2 * 3 * 9  # cells x strategies x (6 classes, p_win, the two Willpower columns)
    assert set(same.table["difference"]) == {0} and "willpower_spent" in set(same.table["outcome"])
    assert "Willpower: both after none, reroll_failures, maximize_win (side by side)" in same.describe()
    variant = rulesets.load("v5-two-hunger-ones-for-bestial")
    cmp = tables.compare("v5-official", variant, grid, exact=True, strategy="maximize_win")
    a = roll.table(*grid.values(), exact=True, strategy="maximize_win")
    b = roll.table(*grid.values(), rules=variant.rules, exact=True, strategy="maximize_win")
    for _, row in cmp.table.iterrows():
        where = (a.pool == row.pool) & (a.hunger == row.hunger) & (a.difficulty == row.difficulty)
        assert row.a == a[where][row.outcome].iat[0] and row.b == b[where][row.outcome].iat[0]
        assert row.difference == Fraction(row.b) - Fraction(row.a)
    assert not cmp.side_by_side and "strategy" not in cmp.table.columns


def test_v5s_named_strategies_work_for_a_copy_of_its_file(my_v5):
    """maximize_critical and avoid_messy (V5's names) for a file with V5's classes: as V5 counts them."""
    from analysis.workbench.compare import compare

    grid = {"pool": "1-5", "hunger": "0-3", "difficulty": "2-3"}
    for strategy in ("maximize_critical", "avoid_messy"):
        cmp = compare("v5-official", my_v5, grid, exact=True, strategy=strategy)
        assert len(cmp.table) and (cmp.table["difference"] == 0).all()
        assert (cmp.table[cmp.table["outcome"] == "willpower_spent"]["a"] > 0).any()


@pytest.mark.parametrize(
    "argv, words",
    [
        (["v5-official", "classic-official", "--pool", "2", "--difficulty", "2"], "classic-official has no Willpower"),
        (
            ["werewolf-official", "{file}", "--pool", "2", "--rage", "1", "--violent", "0", "--hunger", "1"],
            "--strategy under myv5 (b): unknown Willpower strategy 'normal_dice_only'",
        ),
        (["v5-official", "v5-official", "--heatmap", "x.png"], "--heatmap draws one Willpower strategy"),
    ],
)
def test_compare_refuses_a_strategy_it_cannot_count(my_v5, argv, words, capsys):
    argv = [str(my_v5) if a == "{file}" else a for a in argv]
    strategy = "normal_dice_only" if str(my_v5) in argv else "none,maximize_win"
    if "classic-official" in argv:
        strategy = "maximize_win"
    code, out, err = run_cli(capsys, "compare", *argv, "--strategy", strategy)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1, err


def test_solve_takes_a_strategy(my_v5, capsys):
    from analysis.workbench.solve import solve

    mine = solve(str(my_v5), "pool", "p_win>=0.8", strategy="maximize_win", hunger="0-2", difficulty="3")
    v5 = solve("v5", "pool", "p_win>=0.8", strategy="maximize_win", hunger="0-2", difficulty="3")
    assert mine["pool"].tolist() == v5["pool"].tolist() and mine["p_win"].tolist() == v5["p_win"].tolist()
    plain = solve("v5", "pool", "p_win>=0.8", hunger="0-2", difficulty="3")
    assert all(w < p for w, p in zip(v5["pool"], plain["pool"]))  # Willpower needs fewer dice
    for _, row in v5.iterrows():  # the smallest pool: it meets the target and one die fewer does not
        t = roll.table(f"{row.pool - 1},{row.pool}", row.hunger, 3, exact=True, strategy="maximize_win")
        assert t.p_win.iat[1] == row.p_win >= 0.8 > t.p_win.iat[0]
    assert "after the Willpower strategy maximize_win" in v5.attrs["question"]
    code, out, err = run_cli(  # several strategies: one answer each, side by side
        capsys, "solve", "v5", "--find", "pool", "--target", "p_win>=0.8", "--strategy", "none,maximize_win"
    )
    assert code == 0 and err == "" and " none " in out and " maximize_win " in out


def test_the_page_shows_one_strategy_where_it_applies(my_v5):
    from fractions import Fraction

    from analysis.present import page
    from analysis.present.tables import fraction_text

    grid = {"pool": "1-3", "hunger": "0-1", "difficulty": "2"}
    v5, mine, classic = page.page_data(["v5-official", my_v5, "classic-official"], grid, strategy="maximize_win")[
        "rule_sets"
    ]
    assert v5["strategy"] == mine["strategy"] == "maximize_win" and classic["strategy"] == ""
    assert v5["cells"] == mine["cells"]
    names = [c["name"] for c in v5["columns"]]
    assert names[-2:] == ["willpower_spent", "p_win_gain"]
    table = roll.table("1-3", "0-1", 2, exact=True, strategy="maximize_win")
    spent = [cell[names.index("willpower_spent")][1] for cell in v5["cells"]]
    assert spent == [fraction_text(Fraction(x)) for x in table.willpower_spent]
    assert "willpower_spent" not in [c["name"] for c in classic["columns"]]
    with pytest.raises(ValueError, match="none of the rule sets has a Willpower reroll"):
        page.page_data(["classic-official"], {"pool": "2"}, strategy="maximize_win")


@pytest.mark.parametrize("system, axes", [("v5", ["--hunger", "0-2"]), ("werewolf", ["--rage", "0-2"])])
def test_a_shipped_systems_own_file_is_its_official_rules(system, axes, capsys):
    path = ROOT / "analysis" / "systems" / system / "mechanic.toml"
    assert rulesets.load(path) == rulesets.official(system) and rulesets.MECHANIC_FILES == {}
    grid = ["--pool", "1-5", *axes, "--difficulty", "1-3", "--strategy", "none,reroll_failures,maximize_win"]
    code, from_file, err = run_cli(capsys, "table", path, *grid, "--exact", "--format", "csv")
    assert code == 0, err
    code, from_command, err = run_cli(capsys, system, *grid, "--exact", "--format", "csv")
    assert code == 0 and from_file == from_command and from_file.count("\n") > 40, err
