"""Tables designers hand out: several --value blocks, compare --outcome, the La Soif pivot, --format xlsx."""

import csv
import io
from fractions import Fraction
from pathlib import Path

import pytest

from analysis.present import tables
from analysis.systems.requiem import beast
from analysis.systems.v5 import roll as v5
from tests.conftest import run_cli

EXAMPLES = Path(__file__).resolve().parent.parent / "analysis" / "model" / "examples"


def blocks(text):
    """The blocks of a terminal table with several values: ``{value: [[cells]]}``."""
    out = {}
    for block in text.strip().split("\n\n"):
        lines = block.splitlines()
        name = lines[0].split(" at ")[0]
        out[name] = [line.split() for line in lines[2:]]
    return out


def test_one_block_per_value_equal_to_the_table(capsys):
    df = v5.table("1-4", "0-2", 3, exact=True)
    code, out, err = run_cli(
        capsys,
        "v5",
        "--pool",
        "1-4",
        "--hunger",
        "0-2",
        "--difficulty",
        "3",
        "--pivot",
        "pool x hunger",
        "--value",
        "p_win,bestial_failure,messy_critical",
        "--exact",
    )
    assert code == 0, err
    got = blocks(out)
    assert list(got) == ["p_win", "bestial_failure", "messy_critical"]
    for value, rows in got.items():
        grid = tables.pivot(df, "pool", "hunger", value)
        assert [[int(r[0])] + [Fraction(c) for c in r[1:]] for r in rows] == [
            [pool] + list(grid.loc[pool]) for pool in grid.index
        ]


def test_several_values_stack_in_csv_and_json(capsys):
    df = v5.table("1-3", "0-1", 2, exact=True)
    code, out, err = run_cli(
        capsys,
        "v5",
        "--pool",
        "1-3",
        "--hunger",
        "0-1",
        "--difficulty",
        "2",
        "--pivot",
        "pool x hunger",
        "--value",
        "p_win,total_failure",
        "--format",
        "csv",
        "--exact",
    )
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["value", "pool", "hunger=0", "hunger=1", "rule_set"]
    assert [r["value"] for r in rows] == ["p_win"] * 3 + ["total_failure"] * 3
    for r in rows:
        grid = tables.pivot(df, "pool", "hunger", r["value"])
        assert [Fraction(r["hunger=0"]), Fraction(r["hunger=1"])] == list(grid.loc[int(r["pool"])])
    code, out, err = run_cli(
        capsys,
        "v5",
        "--pool",
        "1-3",
        "--hunger",
        "0-1",
        "--difficulty",
        "2",
        "--pivot",
        "pool x hunger",
        "--value",
        "p_win,total_failure",
        "--format",
        "json",
    )
    assert code == 0 and '"value": "total_failure"' in out


def test_a_distribution_pivots_per_value(capsys):
    code, out, err = run_cli(
        capsys,
        "classic",
        "--pool",
        "1-2",
        "--difficulty",
        "6",
        "--distribution",
        "--pivot",
        "successes x pool",
        "--value",
        "p_exactly,p_at_least",
        "--exact",
    )
    assert code == 0, err
    got = blocks(out)
    assert got["p_exactly"] == [["0", "1/2", "7/20"], ["1", "1/2", "2/5"], ["2", "0", "1/4"]]  # 1 die: never 2
    assert got["p_at_least"] == [["0", "1", "1"], ["1", "1/2", "13/20"], ["2", "0", "1/4"]]


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--value", "p_win,p_wn"], "--value: the table has no column 'p_wn' (did you mean p_win?)"),
        (["--value", "p_win,p_win"], "--value names 'p_win' twice"),
    ],
)
def test_bad_values_in_one_sentence(capsys, argv, said):
    code, out, err = run_cli(capsys, "v5", "--pool", "1-2", "--difficulty", "2", "--pivot", "pool x hunger", *argv)
    assert code == 2 and out == "" and said in err and err.count("\n") == 1


def test_compare_outcome_filters_the_outcomes(capsys):
    whole = tables.compare(
        "v5-official", "v5-two-hunger-ones-for-bestial", {"pool": "2-3", "hunger": "2-3", "difficulty": 3}, exact=True
    )
    part = tables.compare(
        "v5-official",
        "v5-two-hunger-ones-for-bestial",
        {"pool": "2-3", "hunger": "2-3", "difficulty": 3},
        exact=True,
        outcomes="p_win,bestial_failure",
    )
    assert part.outcomes == ("bestial_failure", "p_win")  # in the system's order
    want = whole.table[whole.table["outcome"].isin(["p_win", "bestial_failure"])].reset_index(drop=True)
    assert part.table.equals(want)
    code, out, err = run_cli(
        capsys,
        "compare",
        "v5-official",
        "v5-two-hunger-ones-for-bestial",
        "--pool",
        "2-3",
        "--hunger",
        "2-3",
        "--difficulty",
        "3",
        "--outcome",
        "bestial_failure",
        "--format",
        "csv",
        "--exact",
    )
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["outcome"] for r in rows} == {"bestial_failure"} and len(rows) == 4
    for r in rows:
        assert Fraction(r["difference"]) == Fraction(r["b"]) - Fraction(r["a"])


def test_compare_outcome_for_every_system_and_a_mechanic_file(capsys):
    for a, b, outcome, grid in [
        ("werewolf-official", "werewolf-brutal-adds-two", "brutal_win", ["--pool", "3", "--rage", "2"]),
        ("hunter-official", "hunter-critical-ignores-ones", "critical_win", ["--pool", "3"]),
        ("requiem-la-soif", "requiem-9-again", "exceptional_success", ["--pool", "3", "--soif", "1"]),
        ("cards-official", "cards-ace-high", "success", ["--base", "5", "--difficulty", "12"]),
        ("classic-official", "classic-ones-do-not-cancel", "botch", ["--pool", "3"]),
        (EXAMPLES / "hunger-one-cancels.toml", EXAMPLES / "hunger-one-cancels.toml", "p_win", ["--pool", "3"]),
    ]:
        code, out, err = run_cli(capsys, "compare", a, b, *grid, "--outcome", outcome, "--format", "csv")
        assert code == 0, (a, err)
        assert {r["outcome"] for r in csv.DictReader(io.StringIO(out))} == {outcome}


def test_compare_unknown_outcome_in_one_sentence(capsys):
    code, out, err = run_cli(
        capsys, "compare", "v5-official", "v5-official", "--pool", "3", "--outcome", "p_win,bestal_failure"
    )
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "no outcome 'bestal_failure' (did you mean bestial_failure?)" in err


def test_the_la_soif_pivot_is_a_full_grid(capsys):
    code, out, err = run_cli(
        capsys,
        "requiem",
        "--pool",
        "1-3",
        "--soif",
        "0-2",
        "--pivot",
        "pool x soif",
        "--value",
        "plain_success",
        "--exact",
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "(beast_dice left out: pool and soif decide it)"
    assert "NaN" not in out
    df = beast.table("1-3", "0-2", exact=True)
    want = {(p, s): v for p, s, v in zip(df["pool"], df["soif"], df["plain_success"])}
    for line in lines[2:]:
        pool, *cells = line.split()
        assert [Fraction(c) for c in cells] == [want[(int(pool), s)] for s in range(3)]
    code, out, err = run_cli(
        capsys,
        "requiem",
        "--pool",
        "1-3",
        "--soif",
        "0-2",
        "--pivot",
        "pool x soif",
        "--value",
        "plain_success",
        "--format",
        "markdown",
    )
    assert "- beast_dice: left out, as pool and soif decide it" in out
    # an axis is never left out, even where the rows shown happen to decide it
    top = tables.compare(
        "v5-official", "v5-two-hunger-ones-for-bestial", {"pool": "3", "hunger": "3", "difficulty": "2-3"}
    ).top(2)
    grid = tables.pivot(top, "pool", "hunger", "difference", key_columns=("pool", "hunger", "difficulty", "outcome"))
    assert "difficulty" in grid.index.names


def read_xlsx(path):
    import openpyxl

    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["values", "fractions", "legend"]
    return {ws.title: [[c.value for c in row] for row in ws.iter_rows()] for ws in book}


@pytest.mark.parametrize(
    "argv, keys",
    [
        (["v5", "--pool", "1-3", "--hunger", "0-2", "--difficulty", "2"], 3),
        (["werewolf", "--pool", "2", "--rage", "1", "--difficulty", "2", "--violent", "0-1"], 4),
        (["hunter", "--pool", "2", "--desperation", "0-1", "--difficulty", "2"], 3),
        (["requiem", "--pool", "1-2", "--soif", "1"], 3),
        (["cards", "--base", "5", "--difficulty", "10-11"], 3),
        (["classic", "--pool", "2", "--difficulty", "6"], 2),
        (["table", EXAMPLES / "hunger-one-cancels.toml", "--pool", "2", "--hunger", "1", "--difficulty", "1"], 3),
        (["v5", "--pool", "2", "--hunger", "1", "--difficulty", "1", "--distribution"], 4),
    ],
)
def test_xlsx_holds_the_values_the_fractions_and_a_legend(capsys, tmp_path, argv, keys):
    path = tmp_path / "odds.xlsx"
    code, out, err = run_cli(capsys, *argv, "--format", "xlsx", "-o", path)
    assert code == 0 and out == "", err
    code, exact, err = run_cli(capsys, *argv, "--format", "csv", "--exact")
    assert code == 0, err
    want = list(csv.reader(io.StringIO(exact)))
    sheets = read_xlsx(path)
    assert sheets["values"][0] == want[0] == sheets["fractions"][0]
    assert len(sheets["values"]) == len(want) == len(sheets["fractions"])
    for row, values, fractions in zip(want[1:], sheets["values"][1:], sheets["fractions"][1:]):
        assert [str(v) for v in values[:keys]] == row[:keys] == [str(v) for v in fractions[:keys]]
        for text, value, fraction in zip(row[keys:-1], values[keys:-1], fractions[keys:-1]):
            assert value == float(Fraction(text)) and fraction == str(Fraction(text))
        assert values[-1] == fractions[-1] == row[-1]  # the rule set
    legend = dict((r[0], r[1]) for r in sheets["legend"][1:])
    assert legend["rule set"].startswith("Rule set: ")
    assert all(c in legend for c in want[0])


def test_xlsx_of_a_pivot_with_several_values_and_percent(capsys, tmp_path):
    path = tmp_path / "p.xlsx"
    code, out, err = run_cli(
        capsys,
        "v5",
        "--pool",
        "1-3",
        "--hunger",
        "0-1",
        "--difficulty",
        "2",
        "--pivot",
        "pool x hunger",
        "--value",
        "p_win,bestial_failure",
        "--percent",
        "--format",
        "xlsx",
        "-o",
        path,
    )
    assert code == 0, err
    sheets = read_xlsx(path)
    df = v5.table("1-3", "0-1", 2, exact=True)
    assert sheets["values"][0] == ["value", "pool", "hunger=0", "hunger=1", "rule_set"]
    legend = dict((r[0], r[1]) for r in sheets["legend"][1:])
    assert legend["value p_win"].startswith("chance to win") and legend["difficulty"].startswith("2 throughout")
    for values, fractions in zip(sheets["values"][1:], sheets["fractions"][1:]):
        grid = tables.pivot(df, "pool", "hunger", values[0])
        want = list(grid.loc[values[1]])
        assert values[2:4] == [float(f) for f in want]  # the probability, in a percent format
        assert fractions[2:4] == [str(f) for f in want]
    import openpyxl

    book = openpyxl.load_workbook(path)
    ws = book["values"]
    assert [c.number_format for c in ws[2]][2:4] == ["0.00%", "0.00%"] and ws.freeze_panes == "A2"


def test_xlsx_percent_is_a_spreadsheet_format_and_the_sheets_read(capsys, tmp_path):
    """--percent: each probability the number itself in a percent format of --digits decimals (the
    fractions sheet unchanged); every sheet's header row frozen, its columns as wide as their texts."""
    import openpyxl

    path = tmp_path / "o.xlsx"
    argv = ["v5", "--pool", "3", "--hunger", "1", "--difficulty", "2", "--format", "xlsx", "-o", path]
    code, _, err = run_cli(capsys, *argv, "--percent", "--digits", "1")
    assert code == 0, err
    df = v5.table(3, 1, 2, exact=True)
    book = openpyxl.load_workbook(path)
    values, fractions = book["values"], book["fractions"]
    head = [c.value for c in values[1]]
    for j, name in enumerate(head):
        cell, exact = values.cell(row=2, column=j + 1), fractions.cell(row=2, column=j + 1)
        if name in ("pool", "hunger", "difficulty", "rule_set"):
            assert cell.number_format == "General", name
            continue
        assert cell.value == float(df[name].iat[0]) and cell.number_format == "0.0%", name
        assert exact.value == tables.fraction_text(df[name].iat[0]) and exact.number_format == "General", name
    for ws in book:
        assert ws.freeze_panes == "A2"
        for j, column in enumerate(ws.iter_cols(), start=1):
            letter = openpyxl.utils.get_column_letter(j)
            longest = max(len(str(c.value)) for c in column if c.number_format == "General")
            assert min(60, longest + 2) <= ws.column_dimensions[letter].width <= 60, (ws.title, letter)
    code, _, err = run_cli(capsys, *argv)  # without --percent: plain numbers, as before
    assert code == 0, err
    values = openpyxl.load_workbook(path)["values"]
    assert {c.number_format for c in values[2]} == {"General"}


def test_a_hostile_name_is_text_in_the_spreadsheet(capsys, tmp_path):
    rules = tmp_path / "evil.toml"
    rules.write_text('system = "v5"\nname = "=HYPERLINK(\\"http://x\\")"\ncrit_bonus = 3\n')
    path = tmp_path / "e.xlsx"
    code, out, err = run_cli(
        capsys, "table", rules, "--pool", "2", "--hunger", "0", "--difficulty", "1", "--format", "xlsx", "-o", path
    )
    assert code == 0, err
    import openpyxl

    book = openpyxl.load_workbook(path)
    cells = [c for ws in book for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert all(c.data_type != "f" and not c.value.startswith("=") for c in cells)
    assert any(c.value == "'=HYPERLINK(\"http://x\")" for c in cells)


@pytest.mark.parametrize(
    "argv, said",
    [
        (
            ["--format", "xlsx"],
            "--format xlsx writes a spreadsheet, which cannot go to the terminal: give -o FILE.xlsx",
        ),
        (["--format", "xlsx", "-o", "odds.csv"], "--format xlsx writes an .xlsx file"),
        (["--format", "xlsx", "-o", "odds.xlsx", "--exact"], "drop --exact"),
    ],
)
def test_xlsx_refusals_in_one_sentence(capsys, tmp_path, monkeypatch, argv, said):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "v5", "--pool", "2", "--difficulty", "2", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and said in err
    assert list(tmp_path.iterdir()) == []


def test_an_output_file_is_written_atomically(capsys, tmp_path):
    path = tmp_path / "odds.csv"
    code, out, err = run_cli(capsys, "v5", "--pool", "2", "--difficulty", "2", "--format", "csv", "-o", path)
    assert code == 0 and out == ""
    _, printed, _ = run_cli(capsys, "v5", "--pool", "2", "--difficulty", "2", "--format", "csv")
    assert path.read_text() == printed
    path.write_text("old")
    code, out, err = run_cli(
        capsys, "v5", "--pool", "2", "--difficulty", "99999999999999999999", "--format", "csv", "-o", path
    )
    assert code == 2 and path.read_text() == "old"
