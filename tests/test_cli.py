"""The beastodds command: columns, formats, exact fractions, and clear errors with exit code 2."""

import csv
import io
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from analysis import cli
from analysis.systems.v5 import roll as v5


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_csv_columns_are_those_of_table(capsys):
    code, out, _ = run(capsys, "v5", "--pool", "1-3", "--hunger", "0,2", "--difficulty", "2", "--format", "csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert tuple(rows[0].keys()) == v5.TABLE_COLUMNS + ("rule_set",)
    assert len(rows) == 6 and {r["rule_set"] for r in rows} == {"v5-official"}
    df = v5.table("1-3", "0,2", 2)
    for row, ref in zip(rows, df.itertuples()):
        assert float(row["p_win"]) == ref.p_win


def test_exact_prints_reduced_fractions(capsys):
    code, out, _ = run(capsys, "v5", "--pool", "3", "--hunger", "3", "--difficulty", "3", "--format", "csv", "--exact")
    assert code == 0
    row = next(csv.DictReader(io.StringIO(out)))
    assert row["bestial_failure"] == "67/250"
    assert row["critical_win"] == "0"
    o = v5.odds(3, 3, 3)
    for c in v5.CLASSES:
        assert Fraction(row[c]) == o.probability(c)
    code, out, _ = run(capsys, "v5", "--pool", "2", "--difficulty", "0", "--format", "csv", "--exact")
    assert next(csv.DictReader(io.StringIO(out)))["p_win"] == "1"


@pytest.mark.parametrize("fmt", ["table", "markdown", "json", "latex", "html"])
def test_every_format_renders(capsys, fmt):
    code, out, _ = run(capsys, "v5", "--pool", "7", "--hunger", "3", "--difficulty", "3", "--format", fmt)
    assert code == 0 and "messy" in out.replace("\\_", "_")
    if fmt == "json":
        rec = json.loads(out)[0]
        assert rec["pool"] == 7 and abs(rec["messy_critical"] - float(v5.odds(7, 3, 3).messy_critical)) < 1e-12


def test_percent(capsys):
    code, out, _ = run(capsys, "v5", "--pool", "3", "--hunger", "3", "--difficulty", "3", "--percent")
    assert code == 0 and "26.80%" in out
    code, out, _ = run(
        capsys, "v5", "--pool", "3", "--hunger", "3", "--difficulty", "3", "--percent", "--format", "csv"
    )
    assert abs(float(next(csv.DictReader(io.StringIO(out)))["bestial_failure"]) - 26.8) < 1e-9


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--pool", "-1", "--difficulty", "3"], "pool"),
        (["--pool", "3", "--hunger", "6", "--difficulty", "3"], "hunger must be 0..5, got 6"),
        (["--pool", "3", "--difficulty", "-2"], "difficulty"),
        (["--pool", "2.5", "--difficulty", "3"], "pool"),
        (["--pool", "5-2", "--difficulty", "3"], "backwards"),
        (["--pool", "1,,3", "--difficulty", "3"], "pool"),
        (["--pool", "abc", "--difficulty", "3"], "pool"),
        (["--pool", "3", "--difficulty", "3", "--exact", "--percent"], "cannot be combined"),
        (["--pool", "3", "--difficulty", "3", "--format", "xml"], "format"),
        (["--difficulty", "3"], "--pool"),
        (["--pool", "1001", "--difficulty", "3"], "pool must be 0..1000"),
    ],
)
def test_bad_input_one_sentence_exit_2(capsys, argv, words):
    try:
        code = cli.main(["v5", *argv])
    except SystemExit as stop:  # argparse's own checks exit through parser.error
        code = stop.code
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert words in err
    assert err.startswith("beastodds: error:") and err.count("\n") == 1
    assert "Traceback" not in err


def test_api_raises_value_error():
    for bad in [
        dict(pool=-1, hunger=0, difficulty=1),
        dict(pool=3, hunger=6, difficulty=1),
        dict(pool=3, hunger=0, difficulty=-1),
        dict(pool=3.0, hunger=0, difficulty=1),
        dict(pool="3", hunger=0, difficulty=1),
        dict(pool=True, hunger=0, difficulty=1),
    ]:
        with pytest.raises(ValueError):
            v5.odds(**bad)
    with pytest.raises(ValueError):
        v5.table("1-x", 0, 3)
    with pytest.raises(ValueError):
        v5.V5Rules(success_face=11)
    with pytest.raises(ValueError):
        v5.odds(3, 0, 3, rules="official")


def test_console_script_runs_as_a_process():
    """The installed `beastodds` entry point, as a user runs it."""
    exe = [sys.executable, "-m", "analysis.cli"]
    done = subprocess.run(
        [*exe, "v5", "--pool", "7", "--hunger", "3", "--difficulty", "3", "--format", "csv", "--exact"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "7,3,3,1/250,3241/25000" in done.stdout
    bad = subprocess.run(
        [*exe, "v5", "--pool", "7", "--hunger", "9", "--difficulty", "3"], capture_output=True, text=True, timeout=300
    )
    assert bad.returncode == 2 and bad.stderr.strip() == "beastodds: error: --hunger must be 0..5, got 9"
