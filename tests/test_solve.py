"""`beastodds solve` and `analysis.workbench.solve.solve`: the reverse question, checked against the exact tables.

Each answer is checked by brute force: the table over every value searched,
counted with the existing table API, and the value picked by hand here.
"""

import csv
import dataclasses
import io
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from analysis import cli
from analysis.workbench import rulesets
from analysis.workbench import sweep
from analysis.workbench.solve import SEARCH_TOP, parse_target, solve
from analysis.systems import shipped
from tests.conftest import run_cli

EXAMPLES = Path(__file__).resolve().parent.parent / "analysis" / "model" / "examples"
CANCELS = EXAMPLES / "hunger-one-cancels.toml"
THREE = EXAMPLES / "three-kinds.toml"


run = run_cli  # beastodds ARGV: (exit code, stdout, stderr)


def rows(capsys, *argv):
    code, out, err = run(capsys, "solve", *argv, "--format", "csv", "--exact")
    assert code == 0, err
    return list(csv.DictReader(io.StringIO(out)))


def column(table: pd.DataFrame, axis: str, name: str) -> dict:
    """``{value of axis: exact value of column}`` of a one-cell-per-value table."""
    return {int(v): Fraction(x) for v, x in zip(table[axis], table[name])}


def smallest(values: dict, meets) -> int | None:
    hits = [v for v, x in values.items() if meets(x)]
    return min(hits) if hits else None


def nearest(values: dict, target: Fraction) -> list:
    best = min(abs(x - target) for x in values.values())
    return sorted(v for v, x in values.items() if abs(x - target) == best)


# ------------------------------------------------------------ the three examples of the issue


def test_smallest_v5_pool_with_seventy_percent_to_win(capsys):
    table = sweep.table("v5-official", {"pool": f"0-{SEARCH_TOP}", "hunger": 2, "difficulty": 4}, exact=True)
    p = column(table, "pool", "p_win")
    want = smallest(p, lambda x: x >= Fraction(7, 10))
    assert want == 9 and p[8] < Fraction(7, 10) <= p[9]
    got = solve("v5", "pool", "p_win>=0.7", hunger=2, difficulty=4)
    assert list(got.columns) == ["hunger", "difficulty", "pool", "p_win", "float", "note"]
    row = got.iloc[0]
    assert (row["pool"], row["p_win"], row["note"]) == (9, p[9], "")
    assert row["float"] == float(p[9]) and isinstance(row["p_win"], Fraction)
    assert got.attrs["question"] == f"the smallest pool in 0-{SEARCH_TOP} with p_win >= 7/10"
    # the command: the same value, exact with --exact, exit 0
    [line] = rows(capsys, "v5", "--hunger", 2, "--difficulty", 4, "--find", "pool", "--target", "p_win>=0.7")
    assert (int(line["pool"]), Fraction(line["p_win"]), line["note"], line["rule_set"]) == (9, p[9], "", "v5-official")
    code, out, _ = run(
        capsys, "solve", "v5", "--hunger", 2, "--difficulty", 4, "--find", "pool", "--target", "p_win>=0.7"
    )
    assert code == 0
    assert out.splitlines() == [
        f"solve v5-official: the smallest pool in 0-{SEARCH_TOP} with p_win >= 7/10",
        "  (pool goes to 1000: --within searches other values)",
        " hunger  difficulty pool  p_win",
        f"      2           4    9 {float(p[9]):.4f}",
    ]


def test_v5_difficulty_nearest_half(capsys):
    table = sweep.table("v5-official", {"pool": 6, "hunger": 2, "difficulty": f"0-{SEARCH_TOP}"}, exact=True)
    p = column(table, "difficulty", "p_win")
    want = nearest(p, Fraction(1, 2))
    assert want == [4]
    got = solve("v5", "difficulty", "p_win~0.5", pool=6, hunger=2)
    assert (got["difficulty"].iloc[0], got["p_win"].iloc[0], got["note"].iloc[0]) == (4, p[4], "")
    [line] = rows(capsys, "v5", "--pool", 6, "--hunger", 2, "--find", "difficulty", "--target", "p_win~1/2")
    assert (int(line["difficulty"]), Fraction(line["p_win"])) == (4, p[4])


def test_werewolf_brutal_bonus_over_its_declared_range(capsys):
    system = rulesets.system("werewolf")
    info = next(i for i in system.rules.fields_info() if i.name == "brutal_bonus")
    values = list(range(info.range[0], info.range[1] + 1))
    tables = sweep.tables(
        system,
        [system.rules(brutal_bonus=b) for b in values],
        {"pool": 7, "rage": 3, "difficulty": 4, "violent": 1},
        exact=True,
    )
    p = {b: Fraction(t["p_win"].iloc[0]) for b, t in zip(values, tables)}
    tied = nearest(p, Fraction(3, 4))
    got = solve("werewolf", "brutal_bonus", "p_win~0.75", pool=7, rage=3, difficulty=4, violent=1)
    assert got.attrs["searched"] == values
    assert (got["brutal_bonus"].iloc[0], got["p_win"].iloc[0]) == (tied[0], p[tied[0]])
    # every bonus from 4 on gives the same chance: a tie, said in words
    assert tied == list(range(4, info.range[1] + 1))
    assert got["note"].iloc[0] == (
        f"tie: brutal_bonus 4-{info.range[1]} gives the same p_win "
        f"{p[4].numerator}/{p[4].denominator}; the smallest is given"
    )
    [line] = rows(
        capsys,
        "werewolf",
        "--pool",
        7,
        "--rage",
        3,
        "--difficulty",
        4,
        "--violent",
        1,
        "--find",
        "brutal_bonus",
        "--target",
        "p_win~0.75",
    )
    assert (int(line["brutal_bonus"]), Fraction(line["p_win"])) == (4, p[4])
    assert line["note"].startswith("tie: brutal_bonus 4-")


# ------------------------------------------------------------ every system, and a mechanic file


def _first_value_column(system, rules) -> str:
    one = sweep.tables(system, [rules], {a: parse_first(s) for a, s in system.axes}, exact=True)[0]
    return next(c for c in one.columns if c not in system.axis_names and not pd.api.types.is_integer_dtype(one[c]))


def parse_first(spec: str) -> int:
    from analysis.model.validate import parse_spec

    return parse_spec("x", spec)[0]


@pytest.mark.parametrize("name", list(shipped.systems()))
def test_every_system_first_axis_nearest_a_third(name):
    system = rulesets.system(name)
    rules = system.rules()
    find = system.axis_names[0]
    others = {a: parse_first(s) for a, s in system.axes if a != find}
    col = _first_value_column(system, rules)
    lo, hi = dict(system.limits).get(find, (0, None))
    lo = max(lo, 0)  # searched from 0 (a Requiem pool below 0 rolls the chance die of pool 0)
    top = min(hi, 12) if hi is not None else 12
    table = sweep.tables(system, [rules], {**others, find: f"{lo}-{top}"}, exact=True)[0]
    p = column(table, find, col)
    want = nearest(p, Fraction(1, 3))
    got = solve(name, find, f"{col}~1/3", within=f"{lo}-{top}", **others)
    assert len(got) == 1
    assert (got[find].iloc[0], got[col].iloc[0]) == (want[0], p[want[0]])
    assert (got["note"].iloc[0] == "") == (len(want) == 1)


def test_a_mechanic_file_axis_and_parameter(capsys):
    rs = rulesets.load(CANCELS)
    system = rulesets.system(rs.system)
    # an axis of the file
    table = sweep.tables(system, [rs.rules], {"pool": f"0-{SEARCH_TOP}", "hunger": 2, "difficulty": 3}, exact=True)[0]
    p = column(table, "pool", "p_win")
    want = smallest(p, lambda x: x >= Fraction(1, 2))
    [line] = rows(capsys, CANCELS, "--hunger", 2, "--difficulty", 3, "--find", "pool", "--target", "p_win>=1/2")
    assert (int(line["pool"]), Fraction(line["p_win"]), line["rule_set"]) == (want, p[want], "hunger-one-cancels")
    # a parameter of the file, over its declared range, with --set on another parameter
    got = solve(CANCELS, "cancel_per_one", "p_win~0.6", pool=4, hunger=2, difficulty=2)
    values = list(range(0, 4))
    tables = sweep.tables(
        system,
        [dataclasses.replace(rs.rules, cancel_per_one=c) for c in values],
        {"pool": 4, "hunger": 2, "difficulty": 2},
        exact=True,
    )
    q = {c: Fraction(t["p_win"].iloc[0]) for c, t in zip(values, tables)}
    [best] = nearest(q, Fraction(3, 5))
    assert (got["cancel_per_one"].iloc[0], got["p_win"].iloc[0]) == (best, q[best])
    [line] = rows(
        capsys,
        CANCELS,
        "--pool",
        4,
        "--hunger",
        2,
        "--difficulty",
        2,
        "--find",
        "cancel_per_one",
        "--target",
        "p_win~0.6",
    )
    assert (int(line["cancel_per_one"]), Fraction(line["p_win"])) == (best, q[best])


def test_a_mechanic_files_own_axis_as_a_table(capsys):
    rs = rulesets.load(THREE)
    system = rulesets.system(rs.system)
    table = sweep.tables(system, [rs.rules], {"pool": 3, "hunger": "0-2", "blood": "0-5", "difficulty": 3}, exact=True)[
        0
    ]
    got = rows(
        capsys,
        THREE,
        "--pool",
        3,
        "--hunger",
        "0-2",
        "--difficulty",
        3,
        "--find",
        "blood",
        "--within",
        "0-5",
        "--target",
        "p_win>=0.6",
    )
    assert [int(r["hunger"]) for r in got] == [0, 1, 2]
    for r in got:
        p = column(table[table["hunger"] == int(r["hunger"])], "blood", "p_win")
        want = smallest(p, lambda x: x >= Fraction(3, 5))
        assert (int(r["blood"]), Fraction(r["p_win"])) == (want, p[want])


# ------------------------------------------------------------ a table: a range on another axis


def test_a_range_on_another_axis_gives_one_row_per_cell(capsys):
    table = sweep.table("v5-official", {"pool": "1-30", "hunger": "1-3", "difficulty": "2-3"}, exact=True)
    got = solve("v5", "pool", "bestial_failure<=1/20", within="1-30", hunger="1-3", difficulty="2-3")
    assert [(h, d) for h, d in zip(got["hunger"], got["difficulty"])] == [(h, d) for h in (1, 2, 3) for d in (2, 3)]
    for _, row in got.iterrows():
        cell = table[(table["hunger"] == row["hunger"]) & (table["difficulty"] == row["difficulty"])]
        p = column(cell, "pool", "bestial_failure")
        want = smallest(p, lambda x: x <= Fraction(1, 20))
        assert (row["pool"], row["bestial_failure"]) == (want, p[want])
    lines = rows(
        capsys,
        "v5",
        "--hunger",
        "1-3",
        "--difficulty",
        "2-3",
        "--find",
        "pool",
        "--within",
        "1-30",
        "--target",
        "bestial_failure<=1/20",
    )
    assert [int(r["pool"]) for r in lines] == got["pool"].tolist()


def test_the_search_stops_at_the_first_value_that_meets_the_target():
    # bestial failures grow, then fall with the pool: pool 0 meets <= 1/20 and the search stops there
    got = solve("v5", "pool", "bestial_failure<=1/20", within="0-30", hunger=2, difficulty=4)
    assert got["pool"].iloc[0] == 0 and got["note"].iloc[0] == ""
    assert got.attrs["counted"] == [0] and got.attrs["searched"] == list(range(31))
    # each cell stops at its own answer; the values counted are those the last cell needed
    got = solve("v5", "pool", "p_win>=7/10", hunger="0-5", difficulty=4)
    table = sweep.table("v5-official", {"pool": "0-20", "hunger": "0-5", "difficulty": "4"}, exact=True)
    want = [
        smallest(column(table[table["hunger"] == h], "pool", "p_win"), lambda x: x >= Fraction(7, 10)) for h in range(6)
    ]
    assert got["pool"].tolist() == want and got.attrs["counted"] == list(range(max(want) + 1))
    every = solve("v5", "pool", "p_win~7/10", within="0-9", hunger="0-2", difficulty=4)  # counts every value
    assert every.attrs["counted"] == list(range(10))


@pytest.mark.parametrize("op, value, want", [(">=", "24511/32000", 9), (">", "24511/32000", 10), ("<", "0", None)])
def test_strict_targets(op, value, want):
    got = solve("v5", "pool", f"p_win{op}{value}", hunger=2, difficulty=4).iloc[0]
    assert got["pool"] == want
    if want is None:
        assert got["note"] == f"no pool in 0-{SEARCH_TOP} has p_win {op} 0"


def test_several_strategies_give_one_answer_each():
    got = solve("v5", "pool", "p_win>=7/10", hunger="1-2", difficulty=4, strategy="none,maximize_win")
    assert list(got.columns[:3]) == ["hunger", "difficulty", "strategy"]
    for row in got.itertuples(index=False):
        one = solve("v5", "pool", "p_win>=7/10", hunger=row.hunger, difficulty=4, strategy=row.strategy).iloc[0]
        assert (row.pool, row.p_win) == (one["pool"], one["p_win"])
    assert got["strategy"].tolist() == ["none", "maximize_win"] * 2


# ------------------------------------------------------------ ties and no answer


def test_a_tie_of_equal_values_every_hunger():
    got = solve("v5", "hunger", "p_win~1/2", pool=6, difficulty=3)
    assert got["hunger"].iloc[0] == 0
    assert got["note"].iloc[0] == "tie: every hunger in 0-5 gives the same p_win 213/320; the smallest is given"


def test_a_tie_of_two_values_as_near_either_side():
    a, b = Fraction(213, 320), Fraction(617, 1600)  # difficulty 3 and 4 at pool 6, Hunger 2
    middle = (a + b) / 2
    got = solve("v5", "difficulty", f"p_win~{middle.numerator}/{middle.denominator}", pool=6, hunger=2)
    assert (got["difficulty"].iloc[0], got["p_win"].iloc[0]) == (3, a)
    assert got["note"].iloc[0] == (
        f"tie: difficulty 3 (p_win 213/320), 4 (p_win 617/1600) are as near "
        f"{middle.numerator}/{middle.denominator}; the smallest is given"
    )


def test_no_value_reaches_it_is_an_answer_exit_0(capsys):
    got = solve("v5", "pool", "p_win>=1", hunger=2, difficulty=4)
    row = got.iloc[0]
    assert row["pool"] is None and row["p_win"] is None and row["float"] is None
    assert row["note"] == f"no pool in 0-{SEARCH_TOP} has p_win >= 1"
    code, out, err = run(
        capsys, "solve", "v5", "--hunger", 2, "--difficulty", 4, "--find", "pool", "--target", "p_win>=1"
    )
    assert code == 0 and err == ""
    assert out.splitlines()[-1].split() == [
        "2",
        "4",
        "none",
        "-",
        "no",
        "pool",
        "in",
        f"0-{SEARCH_TOP}",
        "has",
        "p_win",
        ">=",
        "1",
    ]
    code, out, _ = run(
        capsys,
        "solve",
        "v5",
        "--hunger",
        2,
        "--difficulty",
        4,
        "--find",
        "pool",
        "--target",
        "p_win>=1",
        "--format",
        "json",
    )
    assert code == 0 and '"pool": null' in out and '"p_win": null' in out


# ------------------------------------------------------------ exact targets


def test_the_target_is_compared_exactly():
    assert parse_target("p_win>=0.7").value == Fraction(7, 10)
    assert parse_target("p_win >= 70%").value == Fraction(7, 10)
    assert parse_target("p_win~7/10").value == Fraction(7, 10)
    # p_win at difficulty 4 is 617/1600 = 0.385625 exactly; a float would read the second target as it
    at = solve("v5", "difficulty", "p_win<=0.385625", pool=6, hunger=2)
    below = solve("v5", "difficulty", "p_win<=0.385624999999999999999", pool=6, hunger=2)
    assert 0.385624999999999999999 == 0.385625
    assert (at["difficulty"].iloc[0], below["difficulty"].iloc[0]) == (4, 5)


def test_rules_and_set_as_in_other_commands(capsys):
    shipped = "v5-two-hunger-ones-for-bestial"
    rs = rulesets.load(shipped)
    table = sweep.table(shipped, {"pool": "1-30", "hunger": 3, "difficulty": 3}, exact=True)
    p = column(table, "pool", "bestial_failure")
    want = smallest(p, lambda x: x <= Fraction(1, 10))
    for argv in (["v5", "--rules", shipped], [shipped]):
        [line] = rows(
            capsys,
            *argv,
            "--hunger",
            3,
            "--difficulty",
            3,
            "--find",
            "pool",
            "--within",
            "1-30",
            "--target",
            "bestial_failure<=0.1",
        )
        assert (int(line["pool"]), Fraction(line["bestial_failure"]), line["rule_set"]) == (want, p[want], rs.name)
    crit = sweep.tables(
        "v5",
        [rulesets.system("v5").rules(crit_bonus=3)],
        {"pool": 5, "hunger": 1, "difficulty": "0-30"},
        exact=True,
    )[0]
    q = column(crit, "difficulty", "p_win")
    [line] = rows(
        capsys,
        "v5",
        "--pool",
        5,
        "--hunger",
        1,
        "--find",
        "difficulty",
        "--within",
        "0-30",
        "--set",
        "crit_bonus=3",
        "--target",
        "p_win~0.5",
    )
    assert (int(line["difficulty"]), Fraction(line["p_win"]), line["rule_set"]) == (
        nearest(q, Fraction(1, 2))[0],
        q[nearest(q, Fraction(1, 2))[0]],
        "v5-official-custom",
    )


def test_choices_field_and_formats(capsys):
    got = solve("v5", "hunger_one_taints_win", "p_win~0.5", pool=6, hunger=2, difficulty=3)
    assert got.attrs["searched"] == [False, True] and got["hunger_one_taints_win"].dtype == object
    code, out, _ = run(
        capsys,
        "solve",
        "v5",
        "--pool",
        6,
        "--hunger",
        2,
        "--difficulty",
        3,
        "--find",
        "hunger_one_taints_win",
        "--target",
        "p_win~0.5",
        "--format",
        "markdown",
    )
    assert code == 0 and "- hunger_one_taints_win: the value found of the rule field" in out
    assert "no meaning recorded" not in out
    code, out, _ = run(
        capsys, "solve", "v5", "--pool", 6, "--hunger", 2, "--find", "difficulty", "--target", "p_win~0.5", "--percent"
    )
    assert code == 0 and out.splitlines()[-1].split() == ["6", "2", "4", "38.56%"]


def test_help_lists_the_columns_with_their_meanings():
    parser = cli.build_parser("solve")
    text = parser.commands["solve"].format_help()
    assert "\ncolumns" in text and "no meaning recorded" not in text
    for option in ("--find", "--target", "--within", "--rules", "--set", "--format", "--exact"):
        assert option in text


# ------------------------------------------------------------ bad input: one sentence, exit 2

BASE = ["solve", "v5", "--hunger", "2", "--difficulty", "4"]


@pytest.mark.parametrize(
    "argv, words",
    [
        (
            ["--find", "pool", "--target", "p_wim>=0.7"],
            "--target: the v5 table has no column 'p_wim' (did you mean p_win?)",
        ),
        (
            ["--find", "pol", "--target", "p_win>=0.7"],
            "--find takes an axis (pool, hunger, difficulty) or a rule field",
        ),
        (["--find", "pol", "--target", "p_win>=0.7"], "got 'pol' (did you mean pool?)"),
        (
            ["--find", "pool", "--target", "p_win=0.7"],
            "--target takes COLUMN>=X, COLUMN>X, COLUMN<=X, COLUMN<X or COLUMN~X",
        ),
        (["--find", "pool", "--target", "p_win>=0.5-0.7"], "--target takes COLUMN>=X"),
        (["--find", "pool", "--target", "p_win>=1e999999"], "--target takes COLUMN>=X"),
        (["--find", "pool", "--target", "p_win>=1/0"], "--target: '1/0' is not a number"),
        (
            ["--find", "pool", "--target", "p_win>=0.7", "--pool", "1-5"],
            "--pool and --find pool both give the pool: leave --pool out",
        ),
        (["--find", "pool", "--within", "5-2000", "--target", "p_win>=0.7"], "--within must be 0..1000, got 2000"),
        (["--find", "crit_bonus", "--within", "0-30", "--target", "p_win>=0.7"], "--within must be 0..20, got 30"),
        (
            ["--find", "hunger_one_taints_win", "--within", "0-1", "--target", "p_win>=0.7"],
            "--within gives numbers to search; hunger_one_taints_win is searched over its choices",
        ),
        (
            ["--find", "crit_bonus", "--set", "crit_bonus=3", "--target", "p_win>=0.7"],
            "--set crit_bonus=... and --find crit_bonus both give crit_bonus",
        ),
        (
            ["--find", "pool", "--target", "p_win>=0.7", "--rules", "werewolf-official"],
            "werewolf-official is a werewolf rule set; --rules here takes a v5 rule set",
        ),
        (["--find", "pool", "--target", "p_win>=0.7", "--hunger", "9"], "--hunger must be 0..5, got 9"),
        (["--find", "pool", "--target", "p_win>=0.7", "--rage", "1"], "--rage is not an axis of v5"),
    ],
)
def test_bad_input_one_sentence_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *BASE, *argv)  # an option given again takes the last value
    assert code == 2 and out == ""
    assert err.startswith("beastodds: error: ") and len(err.strip().splitlines()) == 1, err
    assert words in err, err
    assert "Traceback" not in err


def test_bad_input_in_the_api():
    with pytest.raises(ValueError, match="target takes COLUMN>=X"):
        solve("v5", "pool", "p_win => 0.7")
    with pytest.raises(ValueError, match="find takes an axis"):
        solve("v5", "pools", "p_win>=0.7")
    with pytest.raises(ValueError, match="pool and find pool both give the pool"):
        solve("v5", "pool", "p_win>=0.7", pool="1-3")
    with pytest.raises(ValueError, match="a v5 grid has no axis 'rage'"):
        solve("v5", "pool", "p_win>=0.7", rage=1)
    with pytest.raises(ValueError, match="unknown rule set"):
        solve("v6", "pool", "p_win>=0.7")


def test_pivot_of_the_value_found(capsys):
    table = sweep.table("v5-official", {"pool": f"0-{SEARCH_TOP}", "hunger": "1-2", "difficulty": "2-3"}, exact=True)
    code, out, err = run(
        capsys,
        "solve",
        "v5",
        "--hunger",
        "1-2",
        "--difficulty",
        "2-3",
        "--find",
        "pool",
        "--target",
        "p_win>=0.8",
        "--pivot",
        "hunger x difficulty",
        "--value",
        "pool",
        "--format",
        "csv",
    )
    assert code == 0, err
    got = list(csv.DictReader(io.StringIO(out)))
    for r in got:
        for d in (2, 3):
            cell = table[(table["hunger"] == int(r["hunger"])) & (table["difficulty"] == d)]
            want = smallest(column(cell, "pool", "p_win"), lambda x: x >= Fraction(4, 5))
            assert r[f"difficulty={d}"] == str(want)
    # a note a pivot cannot show is said in a warning
    code, out, err = run(
        capsys,
        "solve",
        "v5",
        "--hunger",
        "2",
        "--difficulty",
        "2-3",
        "--find",
        "pool",
        "--within",
        "1-20",
        "--target",
        "bestial_failure<=1/10000000",
        "--pivot",
        "hunger x difficulty",
        "--value",
        "pool",
    )
    assert code == 0 and "beastodds: warning: 2 of the cells have a note" in err


def test_markdown_and_html_say_what_was_asked(capsys):
    argv = ["solve", "v5", "--hunger", 2, "--difficulty", 4, "--find", "pool", "--target", "p_win>=0.7"]
    code, out, _ = run(capsys, *argv, "--format", "markdown")
    assert code == 0 and out.splitlines()[:3] == [
        f"Solve: the smallest pool in 0-{SEARCH_TOP} with p_win \\>= 7/10",
        "",
        "Rule set: v5-official",
    ]
    assert "| 2 | 4 | 9 | 0.7660 |  |" in out
    code, out, _ = run(capsys, *argv, "--format", "html")
    assert code == 0 and out.startswith(
        f'<p class="question">Solve: the smallest pool in 0-{SEARCH_TOP} with p_win &gt;= 7/10</p>\n<table'
    )


def test_the_docstring_example():
    import doctest

    import analysis.workbench.solve

    assert doctest.testmod(analysis.workbench.solve).failed == 0


@pytest.mark.parametrize(
    "rules, grid",
    [
        ("v5", {"hunger": 2, "difficulty": 3}),
        (str(CANCELS), {"hunger": 2, "difficulty": 3}),
    ],
)
def test_at_least_columns_as_targets(capsys, rules, grid):
    import functools

    from analysis.workbench.solve import rule_set

    rs = rule_set(rules)
    system = rulesets.system(rs.system)
    system = dataclasses.replace(system, table=functools.partial(system.table, at_least="3"))
    table = sweep.tables(system, [rs.rules], {**grid, "pool": "0-30"}, exact=True)[0]
    p = column(table, "pool", "p_at_least_3")
    want = smallest(p, lambda x: x >= Fraction(1, 2))
    got = solve(rules, "pool", "p_at_least_3>=1/2", within="0-30", at_least="3", **grid)
    assert (got["pool"].iloc[0], got["p_at_least_3"].iloc[0]) == (want, p[want])
    [line] = rows(
        capsys,
        rules,
        *[x for a, v in grid.items() for x in (f"--{a}", v)],
        "--find",
        "pool",
        "--within",
        "0-30",
        "--at-least",
        3,
        "--target",
        "p_at_least_3>=1/2",
    )
    assert (int(line["pool"]), Fraction(line["p_at_least_3"])) == (want, p[want])


def test_at_least_where_the_table_has_none(capsys):
    code, _, err = run(capsys, "solve", "cards", "--find", "base", "--at-least", 3, "--target", "p_at_least_3>=0.5")
    assert code == 2 and err == (
        "beastodds: error: --at-least adds p_at_least_N columns, which the cards table does not have\n"
    )


def test_a_rule_set_file_naming_its_mechanic(capsys):
    big = EXAMPLES / "three-kinds-big-surge.toml"
    rs = rulesets.load(big)
    table = sweep.tables(
        rulesets.system(rs.system), [rs.rules], {"pool": 3, "hunger": 1, "blood": "0-5", "difficulty": 3}, exact=True
    )[0]
    p = column(table, "blood", "p_win")
    want = smallest(p, lambda x: x >= Fraction(7, 10))
    [line] = rows(
        capsys, big, "--pool", 3, "--hunger", 1, "--difficulty", 3, "--find", "blood", "--target", "p_win>=0.7"
    )
    assert (int(line["blood"]), Fraction(line["p_win"]), line["rule_set"]) == (want, p[want], "three-kinds-big-surge")
    code, _, err = run(capsys, "solve", THREE, "--rules", big, "--find", "blood", "--target", "p_win>=0.7")
    assert code == 2 and "give the rule set once" in err and len(err.splitlines()) == 1
