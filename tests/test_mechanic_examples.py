"""The example mechanic files (analysis/model/examples/) against a brute force written apart.

For each example, the engine's exact table (Fractions) is checked cell by
cell against plain Python that rolls every ordered roll of the dice
(``itertools.product(range(1, 11), repeat=n)``) and applies the rule as the
file's comments state it, written here again by hand: never through the
file's expressions.  Every cell of up to 3 dice in the fast tier, the cells of
4 and 5 dice in the slow one, for several Difficulties and parameter values; the
chance of N or more successes (``p_at_least_N``) is checked too.
"""

import functools
import itertools
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from analysis import cli
from analysis.workbench import rulesets
from analysis.engine import count as engine
from analysis.model.spec import load

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "analysis" / "model" / "examples"
FACES = range(1, 11)
AT_LEAST = range(0, 12)


@functools.lru_cache(maxsize=None)
def rolls(*dice) -> Counter:
    """``{(sorted faces of kind 1, of kind 2, ...): ordered rolls}`` over every ordered roll of the dice."""
    out = Counter()
    for roll in itertools.product(FACES, repeat=sum(dice)):
        parts, start = [], 0
        for n in dice:
            parts.append(tuple(sorted(roll[start : start + n])))
            start += n
        out[tuple(parts)] += 1
    return out


def brute(classify, dice, difficulty, params) -> tuple:
    """``({class: Fraction}, {N: P(successes >= N)})`` of one cell, by brute force."""
    return _brute(classify, tuple(dice), difficulty, tuple(sorted(params.items())))


@functools.lru_cache(maxsize=None)
def _brute(classify, dice, difficulty, params) -> tuple:
    params = dict(params)
    ways, succ = Counter(), Counter()
    total = 0
    for faces, count in rolls(*dice).items():
        name, successes = classify(*faces, difficulty=difficulty, **params)
        ways[name] += count
        succ[successes] += count
        total += count
    assert total == 10 ** sum(dice)
    at_least = {n: Fraction(sum(c for s, c in succ.items() if s >= n), total) for n in AT_LEAST}
    return {k: Fraction(v, total) for k, v in ways.items()}, at_least


# ------------------------------------------------------------ the rules, by hand


def hunger_one_cancels(
    normal, hunger, *, difficulty, success_face=6, crit_bonus=2, cancel_per_one=1, bestial_hunger_ones=1
):
    """V5, except that each Hunger 1 cancels cancel_per_one successes (after the pairs of 10s)."""
    every = normal + hunger
    tens = every.count(10)
    plain = sum(1 for f in every if success_face <= f <= 9)
    ones = hunger.count(1)
    successes = max(0, plain + tens + crit_bonus * (tens // 2) - cancel_per_one * ones)
    if successes >= difficulty:
        if tens >= 2:
            return ("messy_critical" if 10 in hunger else "critical_win"), successes
        return "plain_win", successes
    if ones >= bestial_hunger_ones:
        return "bestial_failure", successes
    return ("total_failure" if successes == 0 else "failure"), successes


def hunger_tens_count_double(normal, hunger, *, difficulty, success_face=6, hunger_ten_worth=2, bestial_hunger_ones=1):
    """A normal die: success_face..10 one success; a Hunger 10: hunger_ten_worth; no pair bonus."""
    hunger_tens = hunger.count(10)
    successes = (
        sum(1 for f in normal if f >= success_face)
        + sum(1 for f in hunger if success_face <= f <= 9)
        + hunger_ten_worth * hunger_tens
    )
    if successes >= difficulty:
        return ("messy_win" if hunger_tens else "plain_win"), successes
    if hunger.count(1) >= bestial_hunger_ones:
        return "bestial_failure", successes
    return ("total_failure" if successes == 0 else "failure"), successes


def three_kinds(normal, hunger, blood, *, difficulty, surge_bonus=1, curse_spoils_win=True):
    """Normal and Hunger dice 6..10 succeed; Blood 6..9 succeed, a Blood 10 is worth 1 + surge_bonus."""
    surges = blood.count(10)
    successes = (
        sum(1 for f in normal + hunger if f >= 6) + sum(1 for f in blood if 6 <= f <= 9) + (1 + surge_bonus) * surges
    )
    cursed = 1 in hunger and 1 in blood
    if cursed and curse_spoils_win:
        return "cursed", successes
    if successes >= difficulty:
        return ("blood_triumph" if surges else "win"), successes
    if cursed:
        return "cursed", successes
    return ("bestial_failure" if 1 in hunger else "failure"), successes


# ------------------------------------------------------------ the checks

V5_LIKE_GRID = {"pool": "0-5", "hunger": "0-5", "difficulty": "0,1,2,3,5"}

CASES = {
    "hunger-one-cancels": (
        hunger_one_cancels,
        V5_LIKE_GRID,
        [
            {},
            {"cancel_per_one": 0},
            {"cancel_per_one": 2, "bestial_hunger_ones": 2},
            {"success_face": 8, "crit_bonus": 0},
            {"success_face": 10, "cancel_per_one": 3, "crit_bonus": 5},
        ],
    ),
    "hunger-tens-count-double": (
        hunger_tens_count_double,
        V5_LIKE_GRID,
        [
            {},
            {"hunger_ten_worth": 1},
            {"hunger_ten_worth": 3, "bestial_hunger_ones": 2},
            {"success_face": 9},
            {"success_face": 10, "hunger_ten_worth": 5},
        ],
    ),
    "three-kinds": (
        three_kinds,
        {"pool": "0-5", "hunger": "0-5", "blood": "0-5", "difficulty": "0,1,2,4,7"},
        [{}, {"surge_bonus": 0}, {"surge_bonus": 4, "curse_spoils_win": False}, {"curse_spoils_win": False}],
    ),
}


def dice_of(example, row) -> tuple:
    """Dice of each kind in a row of the table, as the example's comments say."""
    hunger = min(row["hunger"], row["pool"])
    if example == "three-kinds":
        return row["pool"] - hunger, hunger, row["blood"]
    return row["pool"] - hunger, hunger


@functools.lru_cache(maxsize=None)
def engine_table(example, params_key):
    mech = load(EXAMPLES / f"{example}.toml")
    rules = engine.rules_of(mech, dict(params_key))
    return mech, engine.table(rules, exact=True, at_least=f"{AT_LEAST[0]}-{AT_LEAST[-1]}", **CASES[example][1])


def check(example, params, sizes):
    classify, _, _ = CASES[example]
    mech, df = engine_table(example, tuple(sorted(params.items())))
    checked = 0
    for row in df.to_dict("records"):
        dice = dice_of(example, row)
        if sum(dice) not in sizes:
            continue
        want, at_least = brute(classify, dice, row["difficulty"], params)
        for c in mech.classes:
            assert row[c] == want.get(c, 0), (example, params, row, c)
            assert isinstance(row[c], Fraction)
        assert sum(row[c] for c in mech.classes) == 1
        for col in mech.columns:
            assert row[col.name] == sum(want.get(c, 0) for c in col.classes)
        for n in AT_LEAST:
            assert row[f"p_at_least_{n}"] == at_least[n], (example, params, row, n)
        checked += 1
    assert checked > 0
    return checked


@pytest.mark.parametrize("example", list(CASES))
def test_example_matches_brute_force_up_to_three_dice(example):
    for params in CASES[example][2]:
        check(example, params, sizes=range(0, 4))


@pytest.mark.slow
@pytest.mark.parametrize("example", list(CASES))
def test_example_matches_brute_force_at_four_and_five_dice(example):
    for params in CASES[example][2]:
        check(example, params, sizes=(4, 5))


def test_cancelling_nothing_is_the_shipped_v5():
    """hunger-one-cancels with cancel_per_one = 0 is V5 (the shipped V5 mechanic file)."""
    grid = {"pool": "0-6", "hunger": "0-5", "difficulty": "1-4"}
    mine = engine.table(
        engine.rules_of(load(EXAMPLES / "hunger-one-cancels.toml"), {"cancel_per_one": 0}), exact=True, **grid
    )
    v5 = engine.table(engine.rules_of(load(ROOT / "analysis" / "systems" / "v5" / "mechanic.toml")), exact=True, **grid)
    for c in ("total_failure", "failure", "plain_win", "critical_win", "messy_critical", "bestial_failure", "p_win"):
        assert list(mine[c]) == list(v5[c]), c


def test_meanings_follow_the_parameters():
    mech = load(EXAMPLES / "three-kinds.toml")
    assert "each worth 1 extra" in mech.meanings()["blood_triumph"]
    assert "each worth 3 extra" in mech.meanings({"surge_bonus": 3})["blood_triumph"]
    # the second 'cursed' rule only applies once a curse no longer spoils a win
    assert "; or " not in mech.meanings()["cursed"]
    assert mech.meanings({"curse_spoils_win": False})["cursed"].startswith("not a win")


# ------------------------------------------------------------ on the command line


def run(capsys, *argv):
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as stop:
        code = stop.code
    return (code, *capsys.readouterr())


@pytest.mark.parametrize(
    "example, extra",
    [
        ("hunger-one-cancels", ("--pool", "1-4", "--hunger", "0-2", "--difficulty", "2")),
        ("hunger-tens-count-double", ("--pool", "3", "--hunger", "0-3", "--difficulty", "1-3", "--percent")),
        ("three-kinds", ("--pool", "3", "--hunger", "1", "--blood", "0-2", "--difficulty", "2")),
        ("three-kinds", ()),  # every axis at its default SPEC
    ],
)
def test_example_runs_on_the_command_line(capsys, example, extra):
    code, out, err = run(capsys, "table", EXAMPLES / f"{example}.toml", *extra)
    assert code == 0, err
    assert err == "" and "p_win" in out


def test_example_cli_options(capsys):
    f = EXAMPLES / "three-kinds.toml"
    code, out, err = run(
        capsys,
        "table",
        f,
        "--pool",
        "2",
        "--hunger",
        "1",
        "--blood",
        "1",
        "--difficulty",
        "2",
        "--exact",
        "--format",
        "csv",
        "--at-least",
        "1-2",
        "--set",
        "surge_bonus=2",
    )
    assert code == 0, err
    head, row = out.splitlines()[:2]
    assert head.split(",")[-3:] == ["p_at_least_1", "p_at_least_2", "rule_set"]
    want, at_least = brute(three_kinds, (1, 1, 1), 2, {"surge_bonus": 2})
    values = dict(zip(head.split(","), row.split(",")))
    assert Fraction(values["blood_triumph"]) == want["blood_triumph"]
    assert Fraction(values["p_at_least_2"]) == at_least[2]
    assert values["rule_set"] == "three-kinds-custom"
    # the legend gives the meaning under the values set
    code, out, err = run(
        capsys,
        "table",
        f,
        "--pool",
        "2",
        "--hunger",
        "1",
        "--blood",
        "1",
        "--difficulty",
        "2",
        "--format",
        "markdown",
        "--set",
        "surge_bonus=3",
    )
    assert code == 0 and "each worth 3 extra successes" in out
    code, out, err = run(
        capsys,
        "table",
        f,
        "--pool",
        "1-3",
        "--hunger",
        "1",
        "--blood",
        "0-2",
        "--difficulty",
        "2",
        "--pivot",
        "pool x blood",
        "--value",
        "p_win",
        "--digits",
        "3",
        "--format",
        "html",
    )
    assert code == 0 and "blood=2" in out and '<ul class="legend">' in out
    code, out, err = run(
        capsys,
        "table",
        f,
        "--pool",
        "2",
        "--blood",
        "1",
        "--hunger",
        "0",
        "--difficulty",
        "2",
        "--columns",
        "p_win,win",
        "--format",
        "latex",
    )
    assert code == 0 and "p\\_win" in out and "failure" not in out
    code, out, err = run(capsys, "table", f, "--help")
    assert code == 0 and "--blood SPEC" in out


def test_compare_and_a_rule_set_that_names_the_file(capsys, tmp_path):
    f = EXAMPLES / "three-kinds.toml"
    code, out, err = run(
        capsys,
        "compare",
        f,
        f,
        "--set-b",
        "surge_bonus=3",
        "--pool",
        "2",
        "--hunger",
        "1",
        "--blood",
        "1",
        "--difficulty",
        "3",
        "--format",
        "csv",
        "--exact",
    )
    assert code == 0, err
    rows = [dict(zip(out.splitlines()[0].split(","), line.split(","))) for line in out.splitlines()[1:]]
    by = {r["outcome"]: r for r in rows}
    a, _ = brute(three_kinds, (1, 1, 1), 3, {})
    b, _ = brute(three_kinds, (1, 1, 1), 3, {"surge_bonus": 3})
    assert Fraction(by["blood_triumph"]["a"]) == a["blood_triumph"]
    assert Fraction(by["blood_triumph"]["b"]) == b["blood_triumph"]
    variant = tmp_path / "big-surge.toml"
    variant.write_text(f'system = "threekinds"\nmechanic = "{f}"\nname = "big-surge"\nsurge_bonus = 3\n')
    code, out2, err = run(
        capsys,
        "compare",
        f,
        variant,
        "--pool",
        "2",
        "--hunger",
        "1",
        "--blood",
        "1",
        "--difficulty",
        "3",
        "--format",
        "csv",
        "--exact",
    )
    assert code == 0, err
    assert [line.split(",")[:7] for line in out2.splitlines()] == [line.split(",")[:7] for line in out.splitlines()]
    # `beastodds rules` writes the rule set out with its mechanic, and it reads back
    code, out, err = run(capsys, "rules", variant)
    assert code == 0 and f'mechanic = "{f}"' in out
    again = tmp_path / "again.toml"
    again.write_text(out)
    assert rulesets.load(again) == rulesets.load(variant)


@pytest.mark.slow
def test_booklet_of_an_example(capsys, tmp_path):
    out_file = tmp_path / "book.html"
    code, out, err = run(capsys, "booklet", EXAMPLES / "three-kinds.toml", "-o", out_file, "--quiet")
    assert code == 0, err
    html = out_file.read_text()
    assert "Blood and Beast" in html and "blood_triumph" in html.replace("Blood triumph", "blood_triumph")


@pytest.mark.slow
def test_examples_run_as_the_real_command():
    for f in sorted(EXAMPLES.glob("*.toml")):
        extra = ["--difficulty", "1"] if "difficulty" in f.read_text() else []  # a Requiem file has none
        proc = subprocess.run(
            [sys.executable, "-m", "analysis.cli", "table", str(f), "--pool", "2", *extra],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, (f, proc.stderr)


def test_the_notebook_explorer_takes_a_mechanic_file(tmp_path):
    pytest.importorskip("ipywidgets")
    import matplotlib

    matplotlib.use("Agg")
    from analysis.present import explore

    f = EXAMPLES / "three-kinds.toml"
    variant = tmp_path / "big-surge.toml"
    variant.write_text(f'mechanic = "{f}"\nname = "big-surge"\nsurge_bonus = 3\n')
    e = explore.explorer(str(f), rule_sets=[variant])
    assert list(e.rule_sets) == ["three-kinds", "big-surge"]  # the file's own rules, never "official"
    for axis, value in (("pool", 2), ("hunger", 1), ("blood", 1), ("difficulty", 3)):
        e.controls[axis].value = value
    e.controls["variant"].value = "big-surge"
    odds = e.shown["odds"]
    a, _ = brute(three_kinds, (1, 1, 1), 3, {})
    b, _ = brute(three_kinds, (1, 1, 1), 3, {"surge_bonus": 3})
    assert odds.loc["blood_triumph", "difference"] == float(b["blood_triumph"] - a["blood_triumph"])
    e.controls["variant"].value = "three-kinds"  # one rule set against itself: its odds alone, by its name
    assert list(e.shown["odds"].columns) == ["three-kinds"]
    assert e.shown["odds"].loc["blood_triumph", "three-kinds"] == float(a["blood_triumph"])
