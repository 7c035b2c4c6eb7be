"""beastodds compare / table / rules: two V5 variants compared end to end from TOML files, and clear errors."""

import csv
import io
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from analysis import cli
from analysis.workbench import rulesets
from analysis.systems.v5 import roll as v5

ROOT = Path(__file__).resolve().parent.parent

OFFICIAL = 'system = "v5"\nname = "table-official"\n'
TWO_ONES = (
    'system = "v5"\nname = "table-two-ones"\n'
    'description = "Two Hunger 1s for a bestial failure."\nbestial_hunger_ones = 2\n'
)


def run(capsys, *argv):
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as stop:  # argparse's own checks
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def toml_files(tmp_path):
    a, b = tmp_path / "official.toml", tmp_path / "two-ones.toml"
    a.write_text(OFFICIAL)
    b.write_text(TWO_ONES)
    return a, b


def test_compare_two_v5_files_end_to_end_with_heatmap(capsys, toml_files, tmp_path):
    a, b = toml_files
    png = tmp_path / "diff.png"
    code, out, err = run(
        capsys,
        "compare",
        a,
        b,
        "--pool",
        "1-6",
        "--hunger",
        "0-5",
        "--difficulty",
        "2",
        "--format",
        "csv",
        "--exact",
        "--heatmap",
        png,
    )
    assert code == 0, err
    assert err == f"wrote {png}\n"
    rows = list(csv.DictReader(io.StringIO(out)))
    assert tuple(rows[0]) == (
        "pool",
        "hunger",
        "difficulty",
        "outcome",
        "a",
        "b",
        "difference",
        "rule_set_a",
        "rule_set_b",
    )
    assert len(rows) == 6 * 6 * 7
    for row in rows:
        p, h = int(row["pool"]), int(row["hunger"])
        oa, ob = v5.odds(p, h, 2), v5.odds(p, h, 2, rules=v5.V5Rules(bestial_hunger_ones=2))
        name = row["outcome"]
        want_a = oa.p_win if name == "p_win" else oa.probability(name)
        want_b = ob.p_win if name == "p_win" else ob.probability(name)
        assert (Fraction(row["a"]), Fraction(row["b"])) == (want_a, want_b)
        assert Fraction(row["difference"]) == want_b - want_a
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


def test_compare_table_format_names_both_rule_sets(capsys, toml_files):
    a, b = toml_files
    code, out, _ = run(
        capsys, "compare", a, b, "--pool", "3-6", "--hunger", "3", "--difficulty", "2", "--top", "2", "--percent"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "compare v5 rule sets: a = table-official, b = table-two-ones"
    assert lines[1] == "  changed: bestial_hunger_ones 1 -> 2"
    assert "grid: pool 3-6, hunger 3, difficulty 2 (4 cells)" in lines[2]
    assert "the 2 cells where the change matters most" in lines[3]
    assert lines[5].split() == ["3", "3", "2", "bestial_failure", "19.60%", "2.80%", "-16.80%"]
    assert len(lines) == 7


def test_compare_shipped_names_defaults_and_formats(capsys):
    code, out, _ = run(
        capsys, "compare", "v5-official", "v5-two-hunger-tens-for-messy", "--top", "3", "--format", "json"
    )
    assert code == 0
    import json

    rows = json.loads(out)
    assert len(rows) == 3 and {r["outcome"] for r in rows} <= {"messy_critical", "critical_win"}
    code, out, _ = run(
        capsys,
        "compare",
        "cards-official",
        "cards-ace-high",
        "--base",
        "4",
        "--difficulty",
        "12",
        "--hunger",
        "1",
        "--format",
        "markdown",
    )
    assert code == 0 and sum(line.startswith("|") for line in out.splitlines()) == 2 + 5  # four classes and p_success
    assert out.startswith("Rule sets: a = cards-official; b = cards-ace-high (")


@pytest.mark.slow
def test_jobs_from_the_command_line_give_the_same_table():
    """A real process with --jobs 2 (two worker processes), against --jobs 1."""
    base = [
        sys.executable,
        "-m",
        "analysis.cli",
        "compare",
        "v5-official",
        "v5-hunger-one-taints-win",
        "--pool",
        "2-8",
        "--hunger",
        "1-4",
        "--difficulty",
        "1-3",
        "--format",
        "csv",
        "--exact",
    ]
    one = subprocess.run(base + ["--jobs", "1"], capture_output=True, text=True, timeout=300)
    two = subprocess.run(base + ["--jobs", "2"], capture_output=True, text=True, timeout=300)
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout == two.stdout and one.stdout.count("\n") == 1 + 7 * 4 * 3 * 7
    assert two.stderr == ""  # no progress bar off a terminal


@pytest.mark.slow
def test_jobs_with_a_mechanic_file_give_the_same_table():
    """A mechanic file's table (and distribution) with --jobs 2: its workers get the table function and
    the rules, not the system, whose rules class is made at run time (the README's own example)."""
    three = ROOT / "analysis" / "model" / "examples" / "three-kinds.toml"
    for extra in ([], ["--distribution"]):
        base = [
            sys.executable,
            "-m",
            "analysis.cli",
            "table",
            str(three),
            "--pool",
            "1-12",
            "--format",
            "csv",
            "--exact",
            *extra,
        ]
        one = subprocess.run(base + ["--jobs", "1"], capture_output=True, text=True, timeout=300, cwd=ROOT)
        two = subprocess.run(base + ["--jobs", "2"], capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert one.returncode == two.returncode == 0, two.stderr
        assert one.stdout == two.stdout and one.stdout.count("\n") > 12


@pytest.mark.parametrize(
    "argv, words",
    [
        (["compare", "v5-official", "{bad}", "--pool", "3"], "not valid TOML"),
        (["compare", "v5-official", "{unknown}", "--pool", "3"], "unknown field 'bestial_ones'"),
        (["compare", "v5-official", "v5-offical"], "did you mean v5-official?"),
        (["compare", "v5-official", "cards-official"], "--pool is an axis of v5-official only"),
        (["compare", "v5-official", "v5-official", "--base", "3"], "--base is not an axis of v5"),
        (["compare", "v5-official", "v5-official", "--pool", "3", "--jobs", "-1"], "jobs must be 0..64"),
        (["compare", "v5-official", "v5-official", "--top", "0"], "--top must be at least 1"),
        (["compare", "v5-official", "v5-official", "--heatmap", "out.txt"], "--heatmap must name"),
        (
            ["compare", "v5-official", "v5-official", "--heatmap", "/no/such/dir/x.png", "--pool", "2"],
            "cannot write /no/such/dir/x.png",
        ),
        (["compare", "v5-official", "v5-official", "--hunger", "7"], "hunger must be 0..5, got 7"),
        (["compare", "v5-official"], "RULES_B"),
        (["table", "{unknown}"], "unknown field"),
        (["table", "v5-official", "--exact", "--percent"], "cannot be combined"),
        (["table", "cards-ace-low", "--pool", "3"], "--pool is not an axis of cards"),
        (["rules", "{bad}"], "not valid TOML"),
    ],
)
def test_bad_input_one_sentence_exit_2(capsys, tmp_path, argv, words):
    bad, unknown = tmp_path / "bad.toml", tmp_path / "unknown.toml"
    bad.write_text('system = "v5"\nbestial_hunger_ones 2\n')
    unknown.write_text('system = "v5"\nbestial_ones = 2\n')
    argv = [a.format(bad=bad, unknown=unknown) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert words in err
    assert err.startswith("beastodds: error:") and err.count("\n") == 1


def test_table_of_any_rule_set(capsys, toml_files):
    _, b = toml_files
    code, out, _ = run(
        capsys,
        "table",
        b,
        "--pool",
        "1-5",
        "--hunger",
        "2",
        "--difficulty",
        "1-2",
        "--format",
        "csv",
        "--exact",
        "--jobs",
        "1",
        "--quiet",
    )
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert tuple(rows[0]) == v5.TABLE_COLUMNS + ("rule_set",) and len(rows) == 10
    want = v5.table("1-5", 2, "1-2", rules=v5.V5Rules(bestial_hunger_ones=2), exact=True)
    assert [Fraction(r["bestial_failure"]) for r in rows] == list(want.bestial_failure)


def test_rules_lists_and_prints(capsys, tmp_path):
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for rs in rulesets.variants():
        assert rs.name in out
    code, out, _ = run(capsys, "rules", "v5-two-hunger-ones-for-bestial")
    assert code == 0 and "bestial_hunger_ones = 2" in out and "crit_bonus = 2" in out
    copy = tmp_path / "copy.toml"
    copy.write_text(out)
    assert rulesets.load(copy) == rulesets.load("v5-two-hunger-ones-for-bestial")
    code, out, _ = run(capsys, "rules", "--format", "csv")
    assert code == 0 and out.startswith("name,system,changes,description\n")
