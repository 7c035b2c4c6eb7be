"""Issue 18, items 1 and 2: the command line rounds the exact fraction, never a float.

``--digits N`` prints the exact value rounded half up (away from zero for a
negative difference) to N decimals, so ``--digits 20`` shows the fraction's
own decimals and no float noise; ``--percent`` prints ``float(100 * F)``, not
``100 * float(F)``.  Every command counts exactly whenever it rounds or scales.
"""

import csv
import io
import json
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import pytest

from tests.conftest import run_cli


run = run_cli  # (exit code, stdout, stderr) of beastodds ARGV


def rounded(q: Fraction, digits: int) -> str:
    """An independent exact rounding (half up, away from zero) through Decimal."""
    with localcontext() as ctx:
        ctx.prec = 200
        d = Decimal(q.numerator) / Decimal(q.denominator)
        text = format(d.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP), "f")
        return text[1:] if text.startswith("-") and not text.strip("-0.") else text  # no "-0.000"


def test_digits_15_rounds_the_exact_value_not_the_float(capsys):
    exact = Fraction(170479219, 204800000)
    assert repr(float(exact)) == "0.8324180615234374"  # the float rounds down: the trap
    code, out, err = run(
        capsys, "v5", "--pool", 16, "--hunger", 0, "--difficulty", 7, "--columns", "p_win", "--digits", 15
    )
    assert code == 0, err
    assert out.split()[-1] == "0.832418061523438" == rounded(exact, 15)
    code, out, _ = run(
        capsys,
        "v5",
        "--pool",
        16,
        "--hunger",
        0,
        "--difficulty",
        7,
        "--columns",
        "p_win",
        "--digits",
        15,
        "--format",
        "csv",
    )
    assert out.splitlines()[1].split(",")[3] == "0.832418061523438"


def test_digits_12_of_a_mean(capsys):
    code, out, err = run(capsys, "classic", "--pool", 22, "--difficulty", 2, "--digits", 12)
    assert code == 0, err
    assert out.split()[-1] == "17.600000536980"


def test_digits_20_shows_the_fractions_own_decimals(capsys):
    code, out, _ = run(
        capsys, "v5", "--pool", 16, "--hunger", 0, "--difficulty", 7, "--columns", "p_win", "--digits", 20
    )
    assert out.split()[-1] == "0.83241806152343750000"  # exact: 170479219/204800000 ends in ...375
    code, out, _ = run(capsys, "classic", "--pool", 22, "--difficulty", 2, "--digits", 20, "--format", "csv", "--exact")
    assert code == 2  # --digits and --exact cannot be combined
    code, out, _ = run(capsys, "classic", "--pool", 22, "--difficulty", 2, "--format", "csv", "--exact")
    means = {r["pool"]: Fraction(r["mean_successes"]) for r in csv.DictReader(io.StringIO(out))}
    code, out, _ = run(capsys, "classic", "--pool", 22, "--difficulty", 2, "--digits", 20, "--format", "csv")
    assert [r["mean_successes"] for r in csv.DictReader(io.StringIO(out))] == [rounded(means["22"], 20)]


def test_percent_is_the_float_of_100_times_the_fraction(capsys):
    code, out, err = run(
        capsys, "cards", "--base", 5, "--difficulty", 12, "--hunger", 1, "--format", "csv", "--percent"
    )
    assert code == 0, err
    row = next(csv.DictReader(io.StringIO(out)))
    assert row["success"] == "38.888888888888886" == repr(float(100 * Fraction(7, 18)))
    code, out, _ = run(capsys, "cards", "--base", 5, "--difficulty", 12, "--hunger", 1, "--format", "json", "--percent")
    assert json.loads(out)[0]["success"] == float(100 * Fraction(7, 18))


# every command that prints a table: its exact table, then each value rounded or scaled by the CLI
COMMANDS = [
    ("v5", "--pool", "0-17", "--hunger", "0,3", "--difficulty", "1,7"),
    ("classic", "--pool", "1,22", "--difficulty", "2,7"),
    ("cards", "--base", "5", "--difficulty", "12", "--hunger", "0,1"),
    ("cards", "--base", "5,9", "--opposed", "--defense", "7", "--hunger", "1"),
    ("werewolf", "--pool", "11", "--rage", "2", "--difficulty", "1-4"),
    ("hunter", "--pool", "13", "--desperation", "2", "--difficulty", "1-4"),
    ("rouse", "--hunger", "1", "--checks", "7"),
    ("conflict", "--pool-a", "5", "--pool-b", "6"),
    ("fight", "--pool-a", "5", "--pool-b", "6", "--turns", "3"),
    ("damage", "--dice", "7", "--soak", "3", "--kind", "lethal", "--target", "mortal"),
    ("blows", "--dice", "5", "--stamina", "2", "--max-blows", "3", "--kind", "lethal", "--target", "mortal"),
    ("soif", "--resolve", "3", "--composure", "2", "--blood-potency", "1", "--pool", "5"),
    ("table", "v5-official", "--pool", "17", "--hunger", "2", "--difficulty", "3"),
    (
        "compare",
        "v5-official",
        "v5-two-hunger-ones-for-bestial",
        "--pool",
        "16,17",
        "--hunger",
        "3",
        "--difficulty",
        "2",
    ),
]


def _cells(out):
    return list(csv.DictReader(io.StringIO(out)))


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_every_command_rounds_and_scales_the_exact_value(capsys, argv):
    code, out, err = run(capsys, *argv, "--format", "csv", "--exact")
    assert code == 0, err
    exact = _cells(out)
    values = [c for c in exact[0] if "/" in "".join(r[c] for r in exact)]
    assert values, "some cell must be a fraction"
    for digits in (3, 17):
        code, out, err = run(capsys, *argv, "--format", "csv", "--digits", digits)
        assert code == 0, err
        for e, r in zip(exact, _cells(out)):
            for c in values:
                assert r[c] == rounded(Fraction(e[c]), digits), (c, e[c], r[c])
    code, out, err = run(capsys, *argv, "--format", "csv", "--percent")
    assert code == 0, err
    for e, r in zip(exact, _cells(out)):
        for c in values:
            if not (c.startswith("mean_") or c.startswith("expected_")) and not (
                "outcome" in e and (e["outcome"].startswith("mean_") or e["outcome"].startswith("expected_"))
            ):
                assert r[c] == repr(float(100 * Fraction(e[c]))), (c, e[c], r[c])


@pytest.mark.parametrize(
    "fmt,flags,exact",
    [
        ("csv", (), False),
        ("json", (), False),  # every digit of float(F): the float count gives it
        ("csv", ("--digits", "3"), True),
        ("json", ("--percent",), True),
        ("csv", ("--exact",), True),
        ("table", (), True),
        ("markdown", (), True),
        ("latex", (), True),
        ("html", (), True),  # 4 decimals
    ],
)
def test_a_command_counts_exactly_whenever_it_rounds_or_scales(capsys, monkeypatch, fmt, flags, exact):
    from analysis.workbench import sweep

    seen = []
    real = sweep.tables

    def spy(*args, **kwargs):
        seen.append(kwargs.get("exact"))
        return real(*args, **kwargs)

    monkeypatch.setattr(sweep, "tables", spy)
    for argv in (("v5", "--pool", 3, "--difficulty", 2), ("table", "classic-official", "--pool", 3)):
        code, out, err = run(capsys, *argv, "--format", fmt, *flags)
        assert code == 0, err
    assert seen == [exact, exact]
