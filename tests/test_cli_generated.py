"""The generated parts of the beastodds command: a grid command per system, --rules and --set everywhere."""

import csv
import dataclasses
import io
import re
from fractions import Fraction
from math import comb
from pathlib import Path

import pandas as pd
import pytest

from analysis import cli
from analysis.workbench import rulesets
from analysis.cli.v5 import CONFLICT_RULES
from analysis.model.system import System
from analysis.systems.cards import deck as cards
from analysis.systems.classic import health as hl
from analysis.systems.classic import pools as classic
from analysis.systems.requiem import beast
from analysis.systems.v5 import conflict as c
from analysis.systems.v5 import roll as v5
from analysis.systems.v5 import rouse


def run(capsys, *argv):
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as stop:  # argparse's own checks
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def rows(capsys, *argv):
    code, out, err = run(capsys, *argv, "--format", "csv", "--exact")
    assert code == 0, err
    # the rule_set column names the rule set as given (a file's name, a shipped name, NAME-custom)
    return [{k: v for k, v in r.items() if not k.startswith("rule_set")} for r in csv.DictReader(io.StringIO(out))]


def subcommands() -> tuple:
    commands = cli.commands()
    return commands, {name: parser.summary for name, parser in commands.items()}


# ------------------------------------------------------------- the command list


def test_help_lists_every_command_with_one_line(capsys):
    choices, helps = subcommands()
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for name in choices:
        assert helps.get(name), f"{name} has no help line"
        assert "\n" not in helps[name]
        assert re.search(rf"^    {name} +\S", out, flags=re.M), f"{name} is not listed with its help"
    for name in (
        "v5",
        "rouse",
        "conflict",
        "fight",
        "cards",
        "requiem",
        "beast",
        "soif",
        "classic",
        "damage",
        "blows",
        "compare",
        "table",
        "rules",
    ):
        assert name in choices


def test_every_system_has_its_command_with_axes_rules_and_set():
    choices, _ = subcommands()
    for system in rulesets.SYSTEMS.values():
        assert system.name in choices, f"no command for the {system.name} system"
        options = cli.option_strings(choices[system.name])
        for axis in system.axis_names:
            assert f"--{axis.replace('_', '-')}" in options
        assert {"--rules", "--set", "--format", "--exact", "--percent"} <= options


def test_every_command_takes_set_and_the_rule_set_ones_take_rules():
    choices, _ = subcommands()
    for name, parser in choices.items():
        if name in ("compare", "versus", "booklet", "page"):  # several rule sets: give them as files or names
            continue
        options = cli.option_strings(parser)
        assert "--set" in options, name
        if name not in ("rouse", "damage", "blows", "table", "rules"):  # no rule-set file yet / positional
            assert "--rules" in options, name


#: A small run of each command whose --help lists its own columns (the workbench's list placeholders).
SMALL_RUNS = {
    "v5": ["--pool", "1", "--difficulty", "1"],
    "cards": ["--base", "1", "--difficulty", "5"],
    "werewolf": ["--pool", "1", "--rage", "0", "--difficulty", "1", "--violent", "0"],
    "hunter": ["--pool", "1", "--desperation", "0", "--difficulty", "1"],
    "requiem": ["--pool", "1", "--soif", "0"],
    "beast": ["--pool", "1", "--soif", "0"],
    "classic": ["--pool", "1", "--difficulty", "6"],
    "rouse": ["--hunger", "1", "--checks", "1"],
    "conflict": ["--pool-a", "1", "--pool-b", "1"],
    "fight": ["--pool-a", "1", "--pool-b", "1", "--turns", "1"],
    "soif": ["--resolve", "3", "--composure", "3", "--blood-potency", "1", "--pool", "1"],
    "damage": ["--dice", "1", "--kind", "lethal", "--target", "mortal"],
    "blows": ["--dice", "1", "--kind", "lethal", "--target", "mortal", "--max-blows", "1"],
}


def legend_columns(parser) -> list:
    return [line.strip().split(":")[0] for line in parser.legend()[1:]]


@pytest.mark.parametrize("command", SMALL_RUNS)
def test_help_lists_the_columns_a_run_prints(capsys, command):
    """--help takes its legend from what the command and its system declare; a run prints those columns."""
    code, out, err = run(capsys, command, *SMALL_RUNS[command], "--format", "csv")
    assert code == 0, err
    printed = [c for c in out.splitlines()[0].split(",") if not c.startswith("rule_set")]
    assert legend_columns(cli.commands()[command]) == printed


def test_help_counts_nothing(capsys):
    """No command runs anything to print its help: its columns come from declarations alone."""

    def counted(args):
        raise AssertionError("--help ran the command")

    for name, parser in cli.commands().items():
        parser.set_defaults(run=counted)
        text = parser.format_help()
        assert ("\ncolumns" in text) == (parser.legend is not None), name
    for command in SMALL_RUNS:
        assert legend_columns(cli.commands()[command])


# ------------------------------------------------------------- the grid command


def test_requiem_grid_command_is_the_table():
    got = pd.read_csv(
        io.StringIO(_out(["requiem", "--pool", "0-3", "--soif", "0,2", "--format", "csv", "--exact"])), dtype=str
    )
    want = beast.table([0, 1, 2, 3], [0, 2], exact=True)
    assert list(got.columns) == list(want.columns) + ["rule_set"]
    for col in beast.CLASSES + ("p_success", "p_beastly_critical"):
        assert [Fraction(x) for x in got[col]] == list(want[col])


def _out(argv):
    import contextlib

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert cli.main(argv) == 0
    return buf.getvalue()


def test_grid_command_defaults_are_the_systems(capsys):
    got = rows(capsys, "requiem", "--pool", "2")
    assert [int(r["soif"]) for r in got] == list(range(0, 6))  # the system's soif SPEC 0-5
    got = rows(capsys, "requiem", "--soif", "1")
    assert [int(r["pool"]) for r in got] == list(range(0, 11))


def test_grid_command_rules_and_set(capsys, tmp_path):
    file = tmp_path / "nine.toml"
    file.write_text('system = "requiem"\nagain = 9\n')
    by_file = rows(capsys, "requiem", "--pool", "3", "--soif", "1", "--rules", file)
    by_set = rows(capsys, "requiem", "--pool", "3", "--soif", "1", "--set", "again=9")
    want = beast.odds(3, 1, beast.BeastRules(again=9))
    assert by_file == by_set
    assert Fraction(by_set[0]["exceptional_success"]) == want.exceptional_success
    both = rows(
        capsys,
        "requiem",
        "--pool",
        "3",
        "--soif",
        "1",
        "--rules",
        file,
        "--set",
        "rote=true",
        "--set",
        "beastly_ten_successes=3",
    )
    want = beast.odds(3, 1, beast.BeastRules(again=9, rote=True, beastly_ten_successes=3))
    assert Fraction(both[0]["p_success"]) == want.p_success
    none = rows(capsys, "requiem", "--pool", "3", "--soif", "1", "--set", "again=none")
    assert Fraction(none[0]["p_success"]) == beast.odds(3, 1, beast.BeastRules(again=None)).p_success


try:  # the rules base class, where there is one: a system's rules then derive from it
    from analysis.model.rules import Rules, rule
except ImportError:
    Rules = None

if Rules is not None:

    @dataclasses.dataclass(frozen=True)
    class CoinRules(Rules):
        """Rules of a toy coin system (a system with no CLI code of its own)."""

        heads_in: int = rule(5, range=(1, 9), help="A coin shows heads in this many of its 10 faces.")
else:

    @dataclasses.dataclass(frozen=True)
    class CoinRules:
        """Rules of a toy coin system (a system with no CLI code of its own).

        Attributes
        ----------
        heads_in : int
            A coin shows heads in ``heads_in`` of its 10 faces (1..9); default 5.
        """

        heads_in: int = 5

        def __post_init__(self):
            if isinstance(self.heads_in, bool) or not 1 <= self.heads_in <= 9:
                raise ValueError(f"heads_in must be 1..9, got {self.heads_in!r}")


def coin_table(coins, needed, rules=CoinRules(), exact=False):
    out = []
    p = Fraction(rules.heads_in, 10)
    for n in coins:
        for k in needed:
            v = sum(comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1))
            out.append(
                {
                    "coins": n,
                    "needed": k,
                    "success": v if exact else float(v),
                    "failure": 1 - v if exact else float(1 - v),
                }
            )
    return pd.DataFrame(out)


def coin_table_with_willpower(coins, needed, rules=CoinRules(), exact=False, strategy=None):
    if strategy not in (None, "reflip_tails"):
        raise ValueError(f"unknown Willpower strategy {strategy!r}")
    if strategy is not None:  # every tail flipped once more: heads in 1 - (1 - p)**2 of the coins
        tails = Fraction(10 - rules.heads_in, 10)
        rules = _Odds(heads=1 - tails * tails)
    return coin_table(coins, needed, rules, exact)


@dataclasses.dataclass(frozen=True)
class _Odds:
    heads: Fraction

    @property
    def heads_in(self):
        return self.heads * 10


@pytest.fixture
def coin_system(monkeypatch):
    system = System(
        "coin",
        CoinRules,
        coin_table,
        {"coins": "1-3", "needed": "1"},
        "Coins",
        classes={"success": "enough heads", "failure": "too few heads"},
    )
    monkeypatch.setitem(rulesets.SYSTEMS, "coin", system)
    return system


def test_a_new_system_gets_its_command_from_system_alone(capsys, coin_system, tmp_path):
    got = rows(capsys, "coin")
    assert [(r["coins"], r["needed"], r["success"]) for r in got] == [
        ("1", "1", "1/2"),
        ("2", "1", "3/4"),
        ("3", "1", "7/8"),
    ]
    got = rows(capsys, "coin", "--coins", "2", "--needed", "1-2", "--set", "heads_in=3")
    assert [Fraction(r["success"]) for r in got] == [1 - Fraction(7, 10) ** 2, Fraction(9, 100)]
    file = tmp_path / "loaded.toml"
    file.write_text('system = "coin"\nname = "loaded"\nheads_in = 9\n')
    got = rows(capsys, "coin", "--coins", "1", "--rules", file)
    assert got[0]["success"] == "9/10"
    code, out, err = run(capsys, "coin", "--set", "head_in=3")
    assert code == 2 and out == "" and "did you mean heads_in?" in err and err.count("\n") == 1
    code, _, err = run(capsys, "coin", "--set", "heads_in=10")
    assert code == 2 and "heads_in must be 1..9, got 10" in err
    code, _, err = run(capsys, "coin", "--pool", "3")
    assert code == 2 and "--pool" in err
    code, out, _ = run(capsys, "--help")
    assert re.search(r"^    coin +Coins: odds over coins x needed$", out, flags=re.M)
    code, _, err = run(capsys, "coin", "--strategy", "reflip_tails")
    assert code == 2 and "unrecognized arguments: --strategy" in err  # its table takes none


def test_a_system_whose_table_takes_willpower_gets_the_option(capsys, monkeypatch):
    system = System("coin", CoinRules, coin_table_with_willpower, {"coins": "1-3", "needed": "1"}, "Coins")
    monkeypatch.setitem(rulesets.SYSTEMS, "coin", system)
    got = rows(capsys, "coin", "--coins", "2", "--needed", "2", "--strategy", "reflip_tails")
    assert Fraction(got[0]["success"]) == Fraction(3, 4) ** 2
    assert rows(capsys, "coin", "--coins", "2", "--needed", "2")[0]["success"] == "1/4"
    code, _, err = run(capsys, "coin", "--strategy", "pray")
    assert code == 2 and "unknown Willpower strategy 'pray'" in err


# --------------------------------------------------- --rules and --set, command by command


def test_v5_rules_and_set(capsys):
    argv = ("v5", "--pool", "4", "--hunger", "2", "--difficulty", "1-3")
    got = rows(capsys, *argv, "--rules", "v5-two-hunger-ones-for-bestial", "--set", "crit_bonus=3")
    want = v5.table(4, 2, "1-3", rules=v5.V5Rules(bestial_hunger_ones=2, crit_bonus=3), exact=True)
    for col in v5.CLASSES:
        assert [Fraction(r[col]) for r in got] == list(want[col])
    assert got != rows(capsys, *argv)
    wp = rows(capsys, *argv, "--set", "success_face=7", "--strategy", "maximize_win")
    want = v5.odds(4, 2, 2, rules=v5.V5Rules(success_face=7), strategy="maximize_win")
    assert Fraction(wp[1]["p_win"]) == want.p_win


def test_cards_set_is_the_flags(capsys):
    argv = ("cards", "--base", "5", "--difficulty", "12", "--hunger", "1")
    by_flags = rows(capsys, *argv, "--ace", "high", "--ties", "defender", "--confirmation", "fresh-deck")
    by_set = rows(capsys, *argv, "--set", "ace=high", "--set", 'ties="defender"', "--set", "confirmation=fresh_deck")
    by_file = rows(capsys, *argv, "--rules", "cards-ace-high", "--set", "ties=defender", "--confirmation", "fresh-deck")
    assert by_flags == by_set == by_file
    opposed = rows(capsys, "cards", "--opposed", "--base", "7", "--defense", "6-7", "--set", "ace=low")
    want = cards.opposed_table(7, "6-7", 0, rules=cards.CardRules(ace="low"), exact=True)
    assert [Fraction(r["initiator_wins"]) for r in opposed] == list(want.initiator_wins)


def test_classic_set_is_the_flag(capsys):
    argv = ("classic", "--pool", "2-4", "--difficulty", "7")
    assert rows(capsys, *argv, "--set", "ones_cancel=false") == rows(capsys, *argv, "--ones-dont-cancel")
    got = rows(capsys, *argv, "--rules", "classic-ones-do-not-cancel")
    want = classic.table("2-4", 7, rules=classic.ClassicRules(ones_cancel=False), exact=True)
    assert [Fraction(r["success"]) for r in got] == list(want.success)


def test_beast_and_soif_rules_and_set(capsys, tmp_path):
    file = tmp_path / "eight.toml"
    file.write_text('system = "beast"\nagain = 8\n')  # the requiem system's alias
    got = rows(capsys, "beast", "--pool", "4", "--soif", "2", "--tempt", "--rules", file)
    assert got == rows(capsys, "beast", "--pool", "4", "--soif", "2", "--tempt", "--again", "8")
    assert Fraction(got[0]["p_success"]) == beast.odds(4, 2, beast.BeastRules(again=8), tempt=True).p_success
    ladder = ("soif", "--max-vitae", "11", "--resolve", "3", "--composure", "2", "--blood-potency", "2")
    house = rows(capsys, *ladder, "--pool", "0", "--set", "chance_die_is_beast=false")
    plain = rows(capsys, *ladder, "--pool", "0")
    assert house[-1]["vitae"] == plain[-1]["vitae"] == "0"
    for got, rules in ((house, beast.BeastRules(chance_die_is_beast=False)), (plain, beast.BeastRules())):
        want = beast.odds(0, 5, rules)
        assert Fraction(got[-1]["bestial_failure"]) == want.bestial_failure
        assert Fraction(got[-1]["dramatic_failure"]) == want.dramatic_failure
    assert house[-1]["p_beastly_critical"] != plain[-1]["p_beastly_critical"]
    code, _, err = run(capsys, *ladder, "--set", "rote=true")
    assert code == 2 and "need --pool" in err


def test_rouse_set(capsys):
    got = rows(
        capsys, "rouse", "--hunger", "1", "--checks", "0-3", "--set", "success_face=7", "--set", "frenzy_at_max=false"
    )
    want = rouse.table(1, "0-3", rules=rouse.RouseRules(success_face=7, frenzy_at_max=False), exact=True)
    for h in rouse.HUNGER_COLUMNS:
        assert [Fraction(r[h]) for r in got] == list(want[h])
    code, _, err = run(capsys, "rouse", "--hunger", "1", "--checks", "2", "--set", "succes_face=7")
    assert code == 2 and "did you mean success_face?" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "command, table, setting",
    [
        (("rouse", "--hunger", "1", "--checks", "0-3"), "rouse", "success_face = 7"),
        (("conflict", "--pool-a", "4", "--pool-b", "3"), "conflict", "tie_damage = 3"),
        (
            ("damage", "--dice", "4", "--soak", "1", "--kind", "bashing", "--target", "vampire"),
            "damage",
            'vampire_bashing = "full"',
        ),
    ],
)
def test_rules_of_a_mechanic_from_its_rule_set_table_once_files_carry_one(capsys, tmp_path, command, table, setting):
    """rouse, conflict and damage read --rules from a rule set's [rouse], [conflict], [damage] table
    when the system's rule sets carry that table; until then rouse and damage take --set only."""
    system = {"rouse": "v5", "conflict": "v5", "damage": "classic"}[table]
    field, value = (x.strip() for x in setting.split("="))
    if table in getattr(rulesets.system(system), "sub_rule_names", ()):
        file = tmp_path / "table.toml"
        file.write_text(f'system = "{system}"\n[{table}]\n{setting}\n')
        assert rows(capsys, *command, "--rules", file) == rows(capsys, *command, "--set", f"{field}={value}")
    elif table != "conflict":
        code, _, err = run(capsys, *command, "--rules", f"{system}-official")
        assert code == 2 and "unrecognized arguments: --rules" in err


def test_conflict_and_fight_rules_and_set(capsys, tmp_path):
    argv = ("conflict", "--pool-a", "3", "--pool-b", "0")
    assert rows(capsys, *argv, "--set", "halve_rounding=down") == rows(capsys, *argv, "--round-down")
    file = tmp_path / "dice.toml"
    if CONFLICT_RULES.reads_table():  # the rule set's [conflict] table, its dice a table of their own
        file.write_text('system = "v5"\n[conflict.dice]\nsuccess_face = 8\n')
    else:  # until rule sets carry one: the v5 rule set's rules are the dice
        file.write_text('system = "v5"\nsuccess_face = 8\n')
    got = rows(
        capsys,
        "conflict",
        "--pool-a",
        "4",
        "--pool-b",
        "3",
        "--rules",
        file,
        "--set",
        "dice.crit_bonus=4",
        "--set",
        "tie_damage=2",
    )
    rules = c.ConflictRules(tie_damage=2, dice=v5.V5Rules(success_face=8, crit_bonus=4))
    want = c.conflict_table(c.Combatant(4), c.Combatant(3), rules, exact=True)
    assert [Fraction(r["probability"]) for r in got] == list(want.probability)
    assert [int(r["damage_to_a"]) for r in got] == list(want.damage_to_a)
    fight = ("fight", "--pool-a", "4", "--pool-b", "4", "--turns", "3")
    assert rows(capsys, *fight, "--set", "tie_damage=0", "--set", "impairment_penalty=1") == rows(
        capsys, *fight, "--tie-damage", "0", "--impairment-penalty", "1"
    )


def test_damage_and_blows_set(capsys):
    argv = ("damage", "--dice", "4", "--soak", "1", "--kind", "bashing", "--target", "vampire")
    assert rows(capsys, *argv, "--set", "vampire_bashing=full") == rows(capsys, *argv, "--vampire-bashing", "full")
    got = rows(capsys, *argv, "--set", "soak_difficulty=8", "--set", "damage_ones_cancel=true")
    want = hl.damage(
        4, 0, 1, "bashing", "vampire", rules=hl.DamageRules(soak_difficulty=8, damage_ones_cancel=True)
    ).table(exact=True)
    assert [Fraction(r["probability"]) for r in got] == list(want.probability)
    got = rows(
        capsys,
        "blows",
        "--dice",
        "2",
        "--auto",
        "1",
        "--soak",
        "1",
        "--kind",
        "lethal",
        "--target",
        "mortal",
        "--max-blows",
        "3",
        "--set",
        "penalties=[0, 0, 0, 0, 0, 0]",
    )
    want = hl.blows(
        hl.Attack(2, "lethal", 1), hl.Fighter("mortal", 1), 3, rules=hl.DamageRules(penalties=(0,) * 6)
    ).table(exact=True)
    assert [Fraction(r["incapacitated_or_worse"]) for r in got] == list(want.incapacitated_or_worse)


def test_damage_sweeps_its_spec_options(capsys):
    got = rows(capsys, "damage", "--dice", "3-4", "--soak", "1,3", "--kind", "lethal", "--target", "vampire")
    assert list(got[0])[:4] == ["dice", "stamina", "levels", "probability"]
    for dice in (3, 4):
        for soak in (1, 3):
            want = hl.damage(dice, 0, soak, "lethal", "vampire").levels
            cell = {
                int(r["levels"]): Fraction(r["probability"])
                for r in got
                if (r["dice"], r["stamina"]) == (str(dice), str(soak))
            }
            assert cell == {k: v for k, v in want.items() if v}
    single = rows(capsys, "damage", "--dice", "3", "--soak", "1", "--kind", "lethal", "--target", "vampire")
    assert list(single[0]) == ["levels", "probability"]


def test_workbench_set(capsys, tmp_path):
    code, out, _ = run(capsys, "rules", "v5-official", "--set", "crit_bonus=3")
    assert code == 0 and "crit_bonus = 3" in out
    copy = tmp_path / "copy.toml"
    copy.write_text(out)
    assert rulesets.load(copy).rules == v5.V5Rules(crit_bonus=3)
    got = rows(
        capsys,
        "table",
        "cards-ace-high",
        "--base",
        "4",
        "--difficulty",
        "10",
        "--hunger",
        "1",
        "--set",
        "ties=defender",
    )
    want = cards.table(4, 10, 1, rules=cards.CardRules(ace="high", ties="defender"), exact=True)
    assert Fraction(got[0]["success"]) == want.success[0]


def test_compare_set_a_and_set_b(capsys, tmp_path):
    file = tmp_path / "crit3.toml"
    file.write_text('system = "v5"\nname = "crit3"\ncrit_bonus = 3\n')
    grid = ("--pool", "4-6", "--hunger", "2", "--difficulty", "4-5")
    by_set = rows(capsys, "compare", "v5-official", "v5-official", "--set-b", "crit_bonus=3", *grid)
    by_file = rows(capsys, "compare", "v5-official", file, *grid)
    assert by_set == by_file and any(Fraction(r["difference"]) for r in by_set)
    both = rows(
        capsys, "compare", "v5-official", "v5-official", "--set-a", "crit_bonus=3", "--set-b", "crit_bonus=3", *grid
    )
    assert all(Fraction(r["difference"]) == 0 for r in both)
    code, out, _ = run(
        capsys,
        "compare",
        "v5-official",
        "v5-official",
        "--set-b",
        "crit_bonus=3",
        "--pool",
        "4",
        "--hunger",
        "2",
        "--difficulty",
        "5",
    )
    assert code == 0 and "changed: crit_bonus 2 -> 3" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["v5", "--pool", "3", "--difficulty", "2", "--set", "crit_bonsu=3"], "did you mean crit_bonus?"),
        (["v5", "--pool", "3", "--difficulty", "2", "--set", "crit_bonus"], "--set takes FIELD=VALUE"),
        (
            ["v5", "--pool", "3", "--difficulty", "2", "--set", "crit_bonus=true"],
            "field 'crit_bonus' must be a whole number, got the boolean true",
        ),
        (["v5", "--pool", "3", "--difficulty", "2", "--set", "system=cards"], "system is not a field"),
        (["v5", "--pool", "3", "--difficulty", "2", "--set", "crit_bonus=2", "--set", "crit_bonus=3"], "twice"),
        (
            ["v5", "--pool", "3", "--difficulty", "2", "--rules", "cards-official"],
            "cards-official is a cards rule set; --rules here takes a v5 rule set",
        ),
        (["v5", "--pool", "3", "--difficulty", "2", "--rules", "v5-offical"], "did you mean v5-official?"),
        (
            ["cards", "--base", "3", "--difficulty", "5", "--ace", "low", "--set", "ace=high"],
            "--ace and --set ace=... both set ace",
        ),
        (["conflict", "--pool-a", "3", "--pool-b", "3", "--set", "dice=2"], "dice is a group of rules"),
        (["conflict", "--pool-a", "3", "--pool-b", "3", "--set", "dice.crit_bonsu=2"], "did you mean crit_bonus?"),
        (
            ["damage", "--dice", "3", "--kind", "lethal", "--target", "mortal", "--set", "vampire_bashing=half"],
            "vampire_bashing must be one of",
        ),
        (["damage", "--dice", "0-300", "--soak", "0-60", "--kind", "lethal", "--target", "mortal"], "narrow a SPEC"),
        (["rules", "--set", "crit_bonus=3"], "name one"),
        (["requiem", "--pool", "3", "--soif", "9"], "soif"),
    ],
)
def test_bad_rules_one_sentence_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert words in err, err
    assert err.startswith("beastodds: error:") and err.count("\n") == 1


def test_domain_modules_know_nothing_of_the_command_line():
    """No module of a system knows the command line (a system's own commands are modules of ``analysis.cli``)."""
    root = Path(__file__).resolve().parent.parent / "analysis" / "systems"
    for path in root.rglob("*.py"):
        text = path.read_text()
        assert "analysis.cli" not in text and "add_cli" not in text and "_run_cli" not in text, path
        assert ".cli import" not in text and "import cli" not in text, path
    assert "commands" not in {f.name for f in dataclasses.fields(System)}


@pytest.mark.slow
def test_bespoke_options_reach_every_chunk_of_a_sweep():
    """--strategy, --tempt, --specialty and --distribution with --jobs 2 (two worker processes)."""
    import subprocess
    import sys

    def csv_of(*argv):
        done = subprocess.run(
            [sys.executable, "-m", "analysis.cli", *argv, "--format", "csv", "--exact", "--jobs", "2"],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return pd.read_csv(io.StringIO(done.stdout), dtype=str).drop(columns="rule_set")

    got = csv_of("beast", "--pool", "0-5", "--soif", "0-2", "--tempt", "--distribution", "4")
    want = beast.distribution_table("0-5", "0-2", 4, tempt=True, exact=True)
    assert (got.values == want.astype(str).values).all()
    got = csv_of("v5", "--pool", "2-4", "--hunger", "1", "--difficulty", "2", "--strategy", "avoid_messy")
    want = v5.table("2-4", 1, 2, strategy="avoid_messy", exact=True)
    assert [Fraction(x) for x in got.messy_critical] == list(want.messy_critical)
    assert [Fraction(x) for x in got.willpower_spent] == list(want.willpower_spent)
    got = csv_of("classic", "--pool", "1-6", "--difficulty", "8", "--specialty")
    want = classic.table("1-6", 8, specialty=True, exact=True)
    assert [Fraction(x) for x in got.success] == list(want.success)
