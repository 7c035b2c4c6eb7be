"""compare across systems: two rule sets of different systems on the axes they share, classes matched by name."""

import csv
import io
from fractions import Fraction
from pathlib import Path

import pytest

from analysis.present import plots, tables
from analysis.workbench import sweep
from tests.conftest import run_cli

V5_FILE = Path(__file__).resolve().parent.parent / "analysis" / "systems" / "v5" / "mechanic.toml"


@pytest.fixture
def myrule(tmp_path):
    """A designer's V5 house rule as a mechanic file: each Hunger 1 cancels a success, messy needs two Hunger 10s."""
    text = V5_FILE.read_text()
    for old, new in (
        ('name = "v5"', 'name = "myrule"'),
        (
            'successes = "success + ten + crit_bonus * floor(ten / 2)"',
            'successes = "max(0, success + ten + crit_bonus * floor(ten / 2) - hunger.one)"',
        ),
        ("messy_hunger_tens = { default = 1,", "messy_hunger_tens = { default = 2,"),
    ):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "myrule.toml"
    path.write_text(text)
    return path


def _column(df, cell, outcome, axes):
    row = df
    for axis, value in zip(axes, cell):
        row = row[row[axis] == value]
    assert len(row) == 1
    return Fraction(row.iloc[0][outcome]) if outcome in row.columns else Fraction(0)


def test_official_rules_against_a_designers_file_cell_by_cell(myrule):
    grid = {"pool": "1-6", "hunger": "0-3", "difficulty": "1-3"}
    cmp = tables.compare("v5-official", myrule, grid, exact=True)
    assert cmp.systems == ("v5", "myrule") and cmp.only == {"a": (), "b": ()} and cmp.fixed == {}
    ta, tb = sweep.table("v5-official", grid, exact=True), sweep.table(myrule, grid, exact=True)
    axes = ("pool", "hunger", "difficulty")
    assert len(cmp.table) == 6 * 4 * 3 * len(cmp.outcomes)
    for row in cmp.table.itertuples():
        cell = (row.pool, row.hunger, row.difficulty)
        want_a, want_b = _column(ta, cell, row.outcome, axes), _column(tb, cell, row.outcome, axes)
        assert (row.a, row.b, row.difference) == (want_a, want_b, want_b - want_a)
    # the house rule does change the odds: Hunger 1s cancel successes
    assert (cmp.table["difference"] != 0).any()
    text = cmp.describe()
    assert text.startswith("compare rule sets of two systems on their shared axes: a = v5-official (v5), b = myrule")
    assert "messy_hunger_tens 1 -> 2" in text


def test_a_class_one_side_lacks_is_zero_there_and_said_so():
    grid = {"pool": "2-5", "difficulty": "1-3", "hunger": 2, "rage": 2, "violent": 1}
    cmp = tables.compare("v5-official", "werewolf-official", grid, exact=True)
    assert cmp.fixed == {"hunger": ("a", 2), "rage": ("b", 2), "violent": ("b", 1)}
    assert set(cmp.only["a"]) >= {"brutal_win", "brutal_failure"}  # classes of werewolf only
    assert set(cmp.only["b"]) == {"messy_critical", "bestial_failure"}  # classes of v5 only
    assert set(cmp.grid) == {"pool", "difficulty"}
    ta = sweep.table("v5-official", {"pool": "2-5", "hunger": 2, "difficulty": "1-3"}, exact=True)
    tb = sweep.table("werewolf-official", {"pool": "2-5", "rage": 2, "violent": 1, "difficulty": "1-3"}, exact=True)
    for row in cmp.table.itertuples():
        cell = (row.pool, row.difficulty)
        assert row.a == _column(ta, cell, row.outcome, ("pool", "difficulty"))
        assert row.b == _column(tb, cell, row.outcome, ("pool", "difficulty"))
    brutal = cmp.table[cmp.table.outcome == "brutal_win"]
    assert (brutal["a"] == 0).all() and (brutal["b"] > 0).any()
    messy = cmp.table[cmp.table.outcome == "messy_critical"]
    assert (messy["b"] == 0).all() and (messy["a"] > 0).any()
    text = cmp.describe()
    assert "classes of a only: messy_critical, bestial_failure (0 under b)" in text
    assert "hunger 2: an axis of a only, held at that value" in text
    assert "only in b: brutal_rage_dice = 2" in text


@pytest.mark.parametrize(
    "a, b, grid, words",
    [
        (
            "v5-official",
            "werewolf-official",
            {"hunger": 1, "rage": "0-2", "violent": 0},
            "--rage is an axis of werewolf",
        ),
        ("v5-official", "werewolf-official", {"hunger": "0-5", "rage": 1, "violent": 0}, "--hunger is an axis of v5"),
        ("v5-official", "werewolf-official", {"soif": 1}, "--soif is an axis of neither v5-official"),
        ("cards-official", "requiem-la-soif", None, "share no axis"),
        ("v5-official", "cards-official", {"hunger": 9, "base": 5}, "hunger must be 0..5, got 9"),
    ],
)
def test_cross_system_refusals(a, b, grid, words):
    names = {k: f"--{k}" for k in ("rage", "violent", "soif", "hunger", "pool", "base")}
    with pytest.raises(ValueError, match=words):
        tables.compare(a, b, grid, names=names)


def test_unknown_outcome_across_systems(myrule):
    with pytest.raises(ValueError, match="neither rule set has an outcome 'brutal'"):
        tables.compare("v5-official", myrule, {"pool": 2, "hunger": 1, "difficulty": 1}, outcomes="brutal")


def test_cli_compare_with_a_file_every_format(capsys, myrule, tmp_path):
    cell = ["--pool", "3", "--hunger", "2", "--difficulty", "2"]
    code, out, err = run_cli(capsys, "compare", "v5-official", myrule, *cell, "--exact")
    assert code == 0, err
    assert "a = v5-official (v5), b = myrule (myrule)" in out
    code, out, err = run_cli(capsys, "compare", "v5-official", myrule, *cell, "--format", "csv", "--exact", "--quiet")
    assert code == 0, err
    rows = {r["outcome"]: r for r in csv.DictReader(io.StringIO(out))}
    want = sweep.table(myrule, {"pool": 3, "hunger": 2, "difficulty": 2}, exact=True)
    assert Fraction(rows["plain_win"]["b"]) == want.plain_win.iloc[0]
    code, out, err = run_cli(
        capsys, "compare", "v5-official", myrule, "--top", "2", "--outcome", "messy_critical,p_win"
    )
    assert code == 0, err
    png = tmp_path / "pair.png"
    code, out, err = run_cli(
        capsys, "compare", "v5-official", myrule, "--pool", "1-5", "--heatmap", png, "--format", "json"
    )
    assert code == 0 and png.stat().st_size > 1000, err
    code, out, err = run_cli(
        capsys, "compare", "v5-official", "werewolf-official", "--pool", "3", "--hunger", "1", "--rage", "1",
        "--violent", "1", "--difficulty", "2", "--format", "csv",
    )  # fmt: skip
    assert code == 0, err
    assert "messy_critical is a class of a only (v5-official): its chance under b is 0" in err.replace("\n", " ")


def test_heatmap_of_a_pair_of_systems(myrule):
    cmp = tables.compare("v5-official", myrule, {"pool": "1-5", "hunger": "0-3", "difficulty": 2})
    fig = plots.difference_heatmap(cmp)
    assert fig.get_suptitle().startswith("myrule minus v5-official: change in percentage points")
    grid = {"pool": "2-5", "difficulty": "1-3", "hunger": 2, "rage": 2, "violent": 1}
    fig = plots.difference_heatmap(tables.compare("v5-official", "werewolf-official", grid))
    title = fig.get_suptitle().replace("\n", " ")
    assert "Hunger 2 (v5-official)" in title and "Rage 2 (werewolf-official)" in title, title
