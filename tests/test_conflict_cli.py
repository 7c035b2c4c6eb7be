"""`beastodds conflict` and `beastodds fight`: the API's numbers, and one clear sentence with exit 2."""

import csv
import io
from fractions import Fraction

import pytest

from analysis import cli
from analysis.systems.v5 import conflict as c, fight


def run(capsys, *argv):
    try:
        code = cli.main(list(argv))
    except SystemExit as stop:  # argparse's own checks exit through parser.error
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def test_conflict_csv_is_the_api_table(capsys):
    code, out, _ = run(
        capsys,
        "conflict",
        "--pool-a",
        "5",
        "--hunger-a",
        "2",
        "--pool-b",
        "4",
        "--weapon-a",
        "2",
        "--mortal-b",
        "--damage-b",
        "aggravated",
        "--format",
        "csv",
        "--exact",
    )
    assert code == 0
    got = rows(out)
    assert tuple(got[0]) == ("pool_a", "hunger_a", "pool_b", "hunger_b") + c.CONFLICT_COLUMNS + ("rule_set",)
    want = c.conflict_table(
        c.Combatant(5, hunger=2, weapon=2), c.Combatant(4, vampire=False, damage="aggravated"), exact=True
    )
    assert [int(r["margin"]) for r in got] == want.margin.tolist()
    assert [int(r["damage_to_b"]) for r in got] == want.damage_to_b.tolist()
    assert [Fraction(r["probability"]) for r in got] == want.probability.tolist()
    assert sum(Fraction(r["probability"]) for r in got) == 1


def test_conflict_grid_of_pools(capsys):
    code, out, _ = run(capsys, "conflict", "--pool-a", "2-3", "--pool-b", "1,4", "--format", "csv")
    assert code == 0
    got = rows(out)
    assert {(r["pool_a"], r["pool_b"]) for r in got} == {("2", "1"), ("2", "4"), ("3", "1"), ("3", "4")}
    for pa in (2, 3):
        for pb in (1, 4):
            total = sum(float(r["probability"]) for r in got if (r["pool_a"], r["pool_b"]) == (str(pa), str(pb)))
            assert total == pytest.approx(1, abs=1e-12)


def test_conflict_house_rules_reach_the_table(capsys):
    def margin3(*extra):
        code, out, _ = run(capsys, "conflict", "--pool-a", "3", "--pool-b", "0", "--format", "csv", *extra)
        assert code == 0
        return next(r for r in rows(out) if r["margin"] == "3")["damage_to_b"]

    assert margin3() == "2"
    assert margin3("--round-down") == "1"
    assert margin3("--no-halving") == "3"
    assert margin3("--mortal-b") == "3"
    assert margin3("--defends-a") == "0"
    assert margin3("--track", "willpower") == "3"


def test_fight_table_is_the_api_table(capsys):
    code, out, _ = run(
        capsys,
        "fight",
        "--pool-a",
        "6",
        "--hunger-a",
        "2",
        "--pool-b",
        "5",
        "--mortal-b",
        "--weapon-b",
        "2",
        "--stamina-b",
        "3",
        "--turns",
        "6",
        "--format",
        "csv",
        "--exact",
    )
    assert code == 0
    got = rows(out)
    assert tuple(got[0]) == c.FIGHT_COLUMNS + ("rule_set",) and len(got) == 7
    r = fight.fight(c.Combatant(6, hunger=2), c.Combatant(5, vampire=False, weapon=2, stamina=3), turns=6)
    for col in c.FIGHT_COLUMNS[1:]:
        assert [Fraction(x[col]) for x in got] == list(r.columns[col])


def test_fight_options(capsys):
    code, out, _ = run(
        capsys,
        "fight",
        "--pool-a",
        "4",
        "--pool-b",
        "4",
        "--until",
        "impaired",
        "--tie-damage",
        "0",
        "--impairment-penalty",
        "1",
        "--turns",
        "3",
        "--format",
        "csv",
        "--exact",
    )
    assert code == 0
    r = fight.fight(
        c.Combatant(4),
        c.Combatant(4),
        turns=3,
        until="impaired",
        rules=c.ConflictRules(tie_damage=0, impairment_penalty=1),
    )
    assert [Fraction(x["over"]) for x in rows(out)] == list(r.columns["over"])
    code, out, _ = run(
        capsys,
        "fight",
        "--pool-a",
        "4",
        "--pool-b",
        "3",
        "--track",
        "willpower",
        "--composure-b",
        "1",
        "--resolve-b",
        "2",
        "--turns",
        "4",
        "--joint",
        "--format",
        "csv",
        "--exact",
    )
    assert code == 0
    got = rows(out)
    r = fight.fight(c.Combatant(4), c.Combatant(3, composure=1, resolve=2), turns=4, track="willpower", joint=True)
    assert {
        (
            (int(x["a_superficial"]), int(x["a_aggravated"])),
            (int(x["b_superficial"]), int(x["b_aggravated"])),
        ): Fraction(x["probability"])
        for x in got
    } == r.joint
    assert max(int(x["b_superficial"]) + int(x["b_aggravated"]) for x in got) <= 3
    code, out, _ = run(capsys, "fight", "--pool-a", "4", "--pool-b", "3", "--turns", "2", "--percent")
    assert code == 0 and "%" in out and "a_out_first" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["conflict", "--pool-a", "-1", "--pool-b", "3"], "--pool-a"),
        (["conflict", "--pool-a", "101", "--pool-b", "3"], "--pool-a must be 0..100, got 101"),
        (["conflict", "--pool-a", "3", "--pool-b", "3", "--hunger-b", "6"], "--hunger-b must be 0..5, got 6"),
        (
            ["conflict", "--pool-a", "3", "--pool-b", "3", "--hunger-b", "2", "--mortal-b"],
            "side B: a mortal has no Hunger",
        ),
        (["conflict", "--pool-a", "3", "--pool-b", "3", "--weapon-a", "1,2"], "--weapon-a takes one number"),
        (["conflict", "--pool-a", "3", "--pool-b", "3", "--damage-a", "fire"], "--damage-a"),
        (["conflict", "--pool-a", "3"], "--pool-b"),
        (["conflict", "--pool-a", "3", "--pool-b", "3", "--tie-damage", "11"], "--tie-damage must be 0..10"),
        (["fight", "--pool-a", "3-4", "--pool-b", "3"], "--pool-a takes one number, got 2 values"),
        (["fight", "--pool-a", "3", "--pool-b", "3", "--turns", "0"], "turns must be 1..100, got 0"),
        (["fight", "--pool-a", "3", "--pool-b", "3", "--turns", "x"], "--turns"),
        (["fight", "--pool-a", "3", "--pool-b", "3", "--stamina-a", "0"], "--stamina-a must be 1..17"),
        (["fight", "--pool-a", "3", "--pool-b", "3", "--until", "dawn"], "--until"),
        (["fight", "--pool-a", "3", "--pool-b", "3", "--exact", "--percent"], "cannot be combined"),
        (
            ["fight", "--pool-a", "100", "--pool-b", "100", "--stamina-a", "17", "--stamina-b", "17", "--turns", "100"],
            "would take too long",
        ),
    ],
)
def test_bad_input_one_sentence_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert words in err
    assert err.startswith("beastodds: error:") and err.count("\n") == 1
    assert "Traceback" not in err


def test_a_v5_rule_set_s_dice_roll_its_conflicts(capsys):
    """--rules with changed V5 dice: the conflict rolls those dice (its [conflict] table names none)."""
    from analysis.cli import main
    from analysis.systems.v5 import conflict as cf
    from analysis.systems.v5.dice import V5Rules

    argv = ["conflict", "--pool-a", "3", "--pool-b", "2", "--format", "csv", "--exact"]
    assert main(argv + ["--rules", "v5-critical-pairs-add-one"]) == 0
    out, err = capsys.readouterr()
    assert "warning" not in err
    rows = [line.split(",") for line in out.splitlines()[1:]]
    got = {int(r[4]): Fraction(r[8]) for r in rows}
    want = cf.margin_distribution(3, 2, 0, 0, cf.ConflictRules(dice=V5Rules(crit_bonus=1)))
    assert got == {m: p for m, p in want.items() if p}
    assert main(argv) == 0
    official = {
        int(r[4]): Fraction(r[8]) for r in (line.split(",") for line in capsys.readouterr().out.splitlines()[1:])
    }
    assert official != got
