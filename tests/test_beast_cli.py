"""``beastodds beast`` and ``beastodds soif``: output, formats, clear errors."""

import csv
import io
from fractions import Fraction

import pytest

from analysis.systems.requiem import beast
from analysis.cli import main

CSV_COLUMNS = [
    "pool",
    "soif",
    "beast_dice",
    "dramatic_failure",
    "bestial_failure",
    "failure",
    "plain_success",
    "exceptional_success",
    "p_success",
    "p_beastly_critical",
]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_beast_csv(capsys):
    code, out, err = run(capsys, "beast", "--pool", "0-6", "--soif", "0,2,5", "--format", "csv", "--exact")
    assert code == 0 and not err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == CSV_COLUMNS + ["rule_set"]
    assert len(rows) == 7 * 3
    for row in rows:
        assert sum(Fraction(row[c]) for c in CSV_COLUMNS[3:8]) == 1
        want = beast.odds(int(row["pool"]), int(row["soif"]))
        assert int(row["beast_dice"]) == want.beast_dice
        assert Fraction(row["p_beastly_critical"]) == want.p_beastly_critical


def test_beast_options(capsys):
    code, out, _ = run(
        capsys, "beast", "--pool", "5", "--soif", "2", "--tempt", "--again", "9", "--rote", "--format", "csv", "--exact"
    )
    assert code == 0
    (row,) = csv.DictReader(io.StringIO(out))
    want = beast.odds(5, 2, beast.BeastRules(again=9, rote=True), tempt=True)
    assert int(row["beast_dice"]) == 4
    assert Fraction(row["p_success"]) == want.p_success
    assert Fraction(row["exceptional_success"]) == want.exceptional_success
    code, out, _ = run(capsys, "beast", "--pool", "3", "--soif", "1", "--again", "none", "--format", "csv")
    (row,) = csv.DictReader(io.StringIO(out))
    assert float(row["exceptional_success"]) == 0.0  # 3 dice, no again, a beastly 10 worth 2: at most 4


def test_beast_distribution(capsys):
    code, out, _ = run(
        capsys, "beast", "--pool", "4", "--soif", "2", "--distribution", "10", "--format", "csv", "--exact"
    )
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 11
    assert sum(Fraction(r["p_exactly"]) for r in rows) + Fraction(rows[-1]["p_more"]) == 1


def test_beast_terminal_table(capsys):
    code, out, _ = run(capsys, "beast", "--pool", "4", "--soif", "5", "--percent")
    assert code == 0
    assert out.split("\n")[0].split() == CSV_COLUMNS
    assert out.split("\n")[1].split()[:3] == ["4", "5", "4"]  # too many dice: four Beast dice


@pytest.mark.parametrize(
    "argv,ladder",
    [
        (["--max-vitae", "11", "--resolve", "3", "--composure", "2", "--blood-potency", "2"], "5/4/3/3/2/2/1/1"),
        (
            ["--max-vitae", "20", "--resolve", "4", "--composure", "4", "--blood-potency", "6"],
            "5/5/5/4/4/4/3/3/3/3/2/2/2/2/1/1/1/1",
        ),
        (
            ["--max-vitae", "20", "--resolve", "2", "--composure", "2", "--blood-potency", "6", "--mode", "printed"],
            "5/5/5/5/5/4/4/4/4/4/3/3/3/3/2/2/2/2/1/1",
        ),
        (
            ["--max-vitae", "20", "--resolve", "2", "--composure", "2", "--blood-potency", "6"],
            "5/5/5/5/4/4/4/4/3/3/3/3/2/2/2/2/2/1/1/1",
        ),
        (["--ghoul", "--stamina", "3", "--size", "5", "--resolve", "2", "--composure", "3"], "3/2/1"),
    ],
)
def test_soif_ladder(capsys, argv, ladder):
    code, out, err = run(capsys, "soif", *argv)
    assert code == 0 and not err
    first = out.split("\n")[0]
    assert f": {ladder}  (" in first
    assert out.split("\n")[1].split() == ["vitae", "soif"]
    code, out, _ = run(capsys, "soif", *argv, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    levels = [int(r["soif"]) for r in rows if 0 < int(r["vitae"]) <= len(ladder.split("/"))]
    assert "/".join(map(str, levels[::-1])) == ladder


def test_soif_character_view(capsys):
    code, out, _ = run(
        capsys,
        "soif",
        "--max-vitae",
        "11",
        "--resolve",
        "3",
        "--composure",
        "2",
        "--blood-potency",
        "2",
        "--pool",
        "6",
        "--format",
        "csv",
        "--exact",
    )
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [int(r["vitae"]) for r in rows] == list(range(11, -1, -1))
    assert list(rows[0])[:3] == ["vitae", "soif", "beast_dice"]
    assert Fraction(rows[-1]["p_beastly_critical"]) == beast.odds(6, 5).p_beastly_critical


@pytest.mark.parametrize(
    "argv,message",
    [
        (["beast", "--pool", "3", "--soif", "7"], "soif must be 0..5, got 7"),
        (["beast", "--pool", "three"], "pool: 'three' is not a whole number"),
        (["beast", "--pool", "3", "--tempt", "--frenzy"], "tempt and frenzy cannot be combined"),
        (["beast", "--pool", "3", "--distribution", "x"], "--distribution must be a whole number"),
        (
            ["soif", "--max-vitae", "-3", "--resolve", "3", "--composure", "2", "--blood-potency", "2"],
            "--max-vitae must be 1..1000, got -3",
        ),
        (
            ["soif", "--max-vitae", "11", "--resolve", "9", "--composure", "2", "--blood-potency", "2"],
            "resolve must be 1..5, got 9",
        ),
        (
            ["soif", "--max-vitae", "11", "--resolve", "3", "--composure", "2", "--blood-potency", "12"],
            "--blood-potency must be 1..10, got 12",
        ),
        (["soif", "--resolve", "3", "--composure", "2"], "needs --blood-potency"),
        (["soif", "--ghoul", "--stamina", "3", "--resolve", "2", "--composure", "3"], "needs --stamina and --size"),
        (
            [
                "soif",
                "--ghoul",
                "--stamina",
                "3",
                "--size",
                "5",
                "--resolve",
                "2",
                "--composure",
                "3",
                "--blood-potency",
                "2",
            ],
            "--blood-potency is for vampires",
        ),
        (
            ["soif", "--stamina", "3", "--resolve", "2", "--composure", "3", "--blood-potency", "2"],
            "--stamina is for ghouls",
        ),
        (
            [
                "soif",
                "--max-vitae",
                "11",
                "--resolve",
                "3",
                "--composure",
                "2",
                "--blood-potency",
                "2",
                "--pool",
                "six",
            ],
            "--pool must be a whole number",
        ),
        (
            ["soif", "--max-vitae", "11", "--resolve", "3", "--composure", "2", "--blood-potency", "2", "--exact"],
            "need --pool",
        ),
    ],
)
def test_bad_input_exits_2_with_one_sentence(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert not out
    assert err.startswith("beastodds: error: ") and err.count("\n") == 1
    assert message in err


def test_argparse_choices_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["beast", "--pool", "3", "--again", "7"])
    assert exc.value.code == 2
    assert "invalid choice: '7'" in capsys.readouterr().err
