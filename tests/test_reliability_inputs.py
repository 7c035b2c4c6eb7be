"""Bad input never gives a wrong number or a traceback: API checks, huge integers, messages, warnings.

Each test reproduces one way input went wrong (a truthy text taken as True,
a generator consumed by a check, 6 Hunger dice read, a dict read by its
keys, 2**63 reaching a 64-bit kernel, an error naming the API's parameter
instead of the option typed, an option silently ignored) and checks the
one-sentence refusal or the warning that replaces it.
"""

import json
from fractions import Fraction

import numpy as np
import pytest

from analysis.model.rules import Rules, rule
from analysis.systems.cards import deck
from analysis.versus import cards_v5
from analysis.systems.classic import health, pools
from analysis.systems.hunter import desperation
from analysis.systems.requiem import beast
from analysis.systems.v5 import dice as v5dice, roll, rouse, willpower
from analysis.systems.werewolf import rage
from analysis.model.validate import MAX_WHOLE, as_values, check_bool, check_int, check_probability
from tests.conftest import refused, run_cli

BIG = 2**63


run = run_cli  # beastodds ARGV: (exit code, stdout, stderr)


# ------------------------------------------------------------ booleans


@pytest.mark.parametrize("bad", ["no", "yes", 1, 0, None, 2.0])
def test_rouse_reroll_must_be_a_real_bool(bad):
    with pytest.raises(ValueError, match="reroll must be True or False"):
        rouse.rouse(0, 3, bad)
    with pytest.raises(ValueError, match="reroll must be True or False"):
        rouse.table(0, 3, bad)


def test_rouse_reroll_no_longer_rerolls_for_a_truthy_text():
    plain = rouse.rouse(0, 3, False)
    assert rouse.rouse(0, 3, np.bool_(False)) == plain  # a numpy bool is the bool it holds
    assert rouse.rouse(0, 3, True) != plain


@pytest.mark.parametrize(
    "call",
    [
        lambda e: roll.table(3, 0, 2, exact=e),
        lambda e: rouse.table(0, 2, exact=e),
        lambda e: rouse.night(0, ["wake"], exact=e),
        lambda e: deck.table(10, 12, exact=e),
        lambda e: deck.opposed_table(10, 12, exact=e),
        lambda e: deck.scene_table([(10, 12)], exact=e),
        lambda e: pools.table(3, 6, exact=e),
        lambda e: desperation.table(3, 1, 2, exact=e),
        lambda e: rage.table(3, 1, 2, exact=e),
        lambda e: beast.table(3, 1, exact=e),
        lambda e: beast.distribution_table(3, 1, 4, exact=e),
        lambda e: health.damage(3, 0, 2, "bashing", "vampire").table(exact=e),
    ],
    ids=[
        "v5",
        "rouse",
        "night",
        "cards",
        "opposed",
        "scene",
        "classic",
        "hunter",
        "werewolf",
        "beast",
        "beast-distribution",
        "damage",
    ],
)
def test_exact_yes_is_refused_everywhere(call):
    with pytest.raises(ValueError, match="exact must be True or False, got 'yes'"):
        call("yes")
    with pytest.raises(ValueError, match="exact must be True or False"):
        call(1)
    assert call(np.bool_(True)).equals(call(True))


def test_check_bool_and_rules_bool_fields_take_numpy_bools_only():
    assert check_bool("x", np.bool_(True)) is True
    for bad in (1, "no", np.int64(1)):
        with pytest.raises(ValueError, match="x must be True or False"):
            check_bool("x", bad)
    rules = v5dice.V5Rules(hunger_one_taints_win=np.bool_(True))
    assert rules.hunger_one_taints_win is True
    with pytest.raises(ValueError, match="hunger_one_taints_win must be True or False"):
        v5dice.V5Rules(hunger_one_taints_win="no")


# ----------------------------------------------------- iterables read once


def test_decide_reads_a_generator_once():
    d = willpower.decide((f for f in [4, 3]), (f for f in [6, 1, 2]), 2)
    assert d.reroll == (4, 3) and d.p_win == Fraction(3, 4)
    assert d == willpower.decide([4, 3], [6, 1, 2], 2)


@pytest.mark.parametrize(
    "call",
    [
        lambda g: v5dice.read_roll(g([10, 5, 7, 2]), [10, 1], 4),
        lambda g: rage.read_roll(g([7, 3]), [1, 2, 9], 3),
        lambda g: desperation.read_roll(g([7, 3]), [1, 2], 2),
        lambda g: pools.read_pool(g([3, 7, 10]), 6),
        lambda g: rouse.night(0, g(["wake", "rouse"])),
        lambda g: rouse.table(g([0, 1]), 2),
        lambda g: roll.table(g([1, 2]), 0, 1),
        lambda g: deck.scene(g([(10, 12, 1), (10, 12)])),
    ],
    ids=["v5", "werewolf", "hunter", "classic", "night", "rouse-table", "v5-table", "scene"],
)
def test_generators_give_what_lists_give(call):
    def gen(items):
        return (x for x in items)

    a, b = call(gen), call(list)
    assert a.equals(b) if hasattr(a, "equals") else a == b


# ------------------------------------------------------ special dice caps


@pytest.mark.parametrize(
    "call, what",
    [
        (lambda n: v5dice.read_roll([7], [2] * n, 1), "Hunger"),
        (lambda n: willpower.decide([7], [2] * n, 1), "Hunger"),
        (lambda n: rage.read_roll([7], [2] * n, 1), "Rage"),
        (lambda n: desperation.read_roll([7], [2] * n, 1), "Desperation"),
    ],
)
def test_six_special_dice_are_refused(call, what):
    call(5)  # five is the most the rules allow
    for n in (6, 10):
        with pytest.raises(ValueError, match=f"holds {n} {what} dice; a roll has at most 5"):
            call(n)


# ---------------------------------------------------------- axis values


@pytest.mark.parametrize("bad", [{1: 2}, {1, 2}, frozenset({3}), [3.0], [3.5], [True], 3.0, "x", [[1, 2]], None, b"3"])
def test_axis_values_refuse_dicts_sets_floats_and_bools(bad):
    with pytest.raises(ValueError, match="^pool"):
        roll.table(bad, 0, 1)


def test_axis_values_accept_int_range_spec_list_tuple_and_array():
    expected = roll.table([3, 4, 5], 0, 1)
    for good in (range(3, 6), "3-5", (3, 4, 5), np.array([3, 4, 5]), (x for x in (3, 4, 5))):
        assert roll.table(good, 0, 1).equals(expected)
    assert as_values("pool", np.int64(4)) == [4]
    assert as_values("pool", np.array(4)) == [4]


@pytest.mark.parametrize("bad", [3.0, 3.5, True, "3", None, Fraction(3)])
@pytest.mark.parametrize(
    "call",
    [
        lambda v: roll.odds(v, 0, 1),
        lambda v: rouse.rouse(0, v),
        lambda v: deck.odds(v, 12),
        lambda v: pools.odds(v),
        lambda v: beast.odds(v, 1),
        lambda v: health.blows(health.Attack(3, "lethal"), health.Fighter("mortal", 2), v),
    ],
    ids=["v5", "rouse", "cards", "classic", "beast", "blows"],
)
def test_counts_must_be_whole_numbers(call, bad):
    with pytest.raises(ValueError, match="must be a whole number"):
        call(bad)


@pytest.mark.parametrize("p", [2, -1, Fraction(3, 2), float("nan"), float("inf"), "0.5", True])
def test_nearest_card_test_refuses_probabilities_outside_0_1(p):
    with pytest.raises(ValueError, match="p must be a probability 0..1"):
        cards_v5.nearest_card_test(p, 12)


def test_nearest_card_test_takes_a_float_at_its_exact_value():
    assert cards_v5.nearest_card_test(0.5, 12) == cards_v5.nearest_card_test(Fraction(1, 2), 12)
    assert check_probability("p", 0) == 0 and check_probability("p", 1) == 1


# ------------------------------------------------------- huge integers


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: roll.odds(5, 0, BIG), "difficulty"),
        (lambda: roll.odds(5, 0, 2**64), "difficulty"),
        (lambda: willpower.decide([4, 3], [6], 2**64), "difficulty"),
        (
            lambda: roll.odds(5, 0, 2, strategy="maximize_win") and roll.odds(5, 0, BIG, strategy="maximize_win"),
            "difficulty",
        ),
        (lambda: rage.odds(5, 1, BIG), "difficulty"),
        (lambda: desperation.odds(5, 1, BIG), "difficulty"),
        (lambda: roll.table(3, 0, [1, BIG]), "difficulty"),
        (lambda: rage.table(3, 0, BIG), "difficulty"),
        (lambda: desperation.table(3, 0, -BIG), "difficulty"),
        (lambda: rouse.rouse(0, BIG), "checks"),
        (lambda: health.take_damage(health.Health(), BIG, "lethal", "mortal"), "levels"),
    ],
)
def test_integers_past_64_bits_are_refused_with_the_range(call, name):
    with pytest.raises(ValueError, match=rf"^{name} must be (-?\d+\.\.\d+|at least 0), got"):
        call()


def test_check_int_caps_unbounded_values():
    assert check_int("n", MAX_WHOLE) == MAX_WHOLE
    with pytest.raises(ValueError, match=f"n must be 0..{MAX_WHOLE}, got {BIG}"):
        check_int("n", BIG, 0)
    with pytest.raises(ValueError, match="n must be at least 0, got -1"):
        check_int("n", -1, 0)
    with pytest.raises(ValueError, match="a number of 40 digits"):
        check_int("n", 10**39, 0, 5)


def test_rules_int_fields_without_a_range_are_capped():
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Knob(Rules):
        n: int = rule(1, help="A number with no range of its own.")

    assert Knob(n=10**6).n == 10**6
    with pytest.raises(ValueError, match=f"n must be -{MAX_WHOLE}..{MAX_WHOLE}"):
        Knob(n=BIG)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["v5", "--pool", 5, "--difficulty", BIG], f"--difficulty must be 0..{MAX_WHOLE}, got {BIG}"),
        (["v5", "--pool", BIG, "--difficulty", 2], f"--pool must be 0..1000, got {BIG}"),
        (["v5", "--pool", 5, "--difficulty", BIG, "--strategy", "maximize_win"], "--difficulty must be"),
        (["werewolf", "--difficulty", BIG], "--difficulty must be"),
        (["hunter", "--difficulty", BIG], "--difficulty must be"),
        (["cards", "--base", 3, "--difficulty", BIG], f"--difficulty must be 0..1000, got {BIG}"),
        (["rouse", "--hunger", 1, "--checks", BIG], "--checks must be 0..10000"),
        (["rouse", "--hunger", BIG, "--checks", 1], "--hunger must be 0..5"),
        (["conflict", "--pool-a", BIG, "--pool-b", 3], "--pool-a must be 0..100"),
        (["conflict", "--pool-a", 3, "--pool-b", 3, "--weapon-b", BIG], "--weapon-b must be 0..10"),
        (["fight", "--pool-a", 3, "--pool-b", 3, "--stamina-a", BIG], "--stamina-a must be 1..17"),
        (["fight", "--pool-a", 3, "--pool-b", 3, "--turns", BIG], "--turns must be 1..100"),
        (["beast", "--pool", 3, "--distribution", BIG], "--distribution must be 0..200"),
        (["classic", "--pool", 3, "--difficulty", BIG], "--difficulty must be 2..10"),
        (
            ["blows", "--dice", 3, "--kind", "lethal", "--target", "mortal", "--max-blows", BIG],
            "--max-blows must be 0..1000",
        ),
        (["table", "v5-official", "--difficulty", BIG], "--difficulty must be"),
        (["compare", "v5-official", "v5-official", "--pool", BIG], "--pool must be 0..1000"),
        (["v5", "--pool", 3, "--difficulty", 2, "--jobs", BIG], "--jobs must be 0..64"),
    ],
)
def test_cli_refuses_huge_integers_naming_the_option(capsys, argv, message):
    assert refused(capsys, *argv).startswith(message)


# ----------------------------------------------------- option names


@pytest.mark.parametrize(
    "argv, message",
    [
        (["blows", "--dice", 999, "--kind", "lethal", "--target", "mortal"], "--dice must be 0..200"),
        (
            [
                "blows",
                "--dice",
                3,
                "--kind",
                "lethal",
                "--target",
                "mortal",
                "--attack-pool",
                3,
                "--attack-difficulty",
                11,
            ],
            "--attack-difficulty must be 2..10, got 11",
        ),
        (
            ["blows", "--dice", 3, "--kind", "bashing", "--target", "vampire", "--stamina", 99],
            "--stamina must be 0..50",
        ),
        (["damage", "--dice", 3, "--kind", "bashing", "--target", "vampire", "--soak", 99], "--soak must be 0..50"),
        (["beast", "--pool", 3, "--distribution", 999], "--distribution must be 0..200"),
        (["beast", "--pool", 1000], "--pool must be 0..200, got 1000"),
        (["requiem", "--pool", 1000], "--pool must be 0..200, got 1000"),
        (
            ["soif", "--resolve", 2, "--composure", 2, "--blood-potency", 1, "--pool", 1000],
            "--pool must be -200..200, got 1000",
        ),
        (["fight", "--pool-a", 3, "--pool-b", 3, "--composure-b", 0], "--composure-b must be 1..10"),
        (["conflict", "--pool-a", 3, "--pool-b", 3, "--hunger-b", 6], "--hunger-b must be 0..5"),
        (["rouse", "--hunger", 6, "--checks", 1], "--hunger must be 0..5"),
        (["werewolf", "--violent", 2], "--violent must be 0..1"),
    ],
)
def test_cli_errors_name_the_option_typed(capsys, argv, message):
    assert refused(capsys, *argv).startswith(message)


def test_single_number_options_do_not_describe_ranges(capsys):
    text = refused(capsys, "beast", "--pool", 3, "--distribution", "1-3")
    assert text == "--distribution takes one number, got 3 values"
    text = refused(capsys, "blows", "--dice", 3, "--kind", "lethal", "--target", "mortal", "--max-blows", "x")
    assert text.startswith("--max-blows must be a whole number") and "SPEC" not in text


def test_an_api_error_names_the_option_by_its_parameter_alone():
    """The command line puts an API message in the option's words by the parameter the message names
    (an InputError's name), exactly: never a word inside it, nor a longer name sharing its start."""
    from analysis.cli import error_message
    from analysis.systems.v5.conflict import Combatant

    names = {"difficulty": "--attack-difficulty", "side A: pool": "--pool-a", "pool": "--pool"}

    def said(call):
        with pytest.raises(ValueError) as exc:
            call()
        return error_message(exc.value, names)

    assert said(lambda: check_int("difficulty", 11, 2, 10)) == "--attack-difficulty must be 2..10, got 11"
    assert said(lambda: Combatant(101, name="side A")) == "--pool-a must be 0..100, got 101"
    assert said(lambda: check_int("pooled dice", 6, 0, 5)) == "pooled dice must be 0..5, got 6"
    assert error_message(ValueError("the pool must be 0..5, got 6"), names) == "the pool must be 0..5, got 6"


def test_heatmap_name_without_a_stem_is_refused(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in (".png", "dir/.svg", "x.gif", "png"):
        text = refused(capsys, "compare", "v5-official", "v5-official", "--pool", 1, "--heatmap", name, "--quiet")
        assert text.startswith("--heatmap must name a .png, .svg, .pdf file")
    assert list(tmp_path.iterdir()) == []


def test_rules_format_json_prints_the_rule_set(capsys):
    code, out, err = run(capsys, "rules", "v5-official", "--format", "json", "--set", "crit_bonus=3")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["system"] == "v5" and data["crit_bonus"] == 3 and data["rouse"]["success_face"] == 6
    assert "--format json" in refused(capsys, "rules", "v5-official", "--format", "csv")
    assert "--exact" in refused(capsys, "rules", "v5-official", "--exact")


# -------------------------------------------------- exact output of any size


def test_exact_fractions_past_the_int_str_limit_print(capsys):
    """Python refuses int->str past 4300 digits by default; the command prints any size.

    The limit is lowered to its least (640 digits) so that a quick table
    crosses it: the mechanism is the same as for 4300.
    """
    import sys

    limit = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(640)
        code, out, err = run(
            capsys,
            "blows",
            "--dice",
            30,
            "--attack-pool",
            30,
            "--max-blows",
            40,
            "--kind",
            "lethal",
            "--target",
            "mortal",
            "--exact",
            "--format",
            "csv",
        )
        sys.set_int_max_str_digits(0)
        assert code == 0, err
        last = out.strip().splitlines()[-1].split(",")
        num, den = last[1].split("/")
        assert len(den) > 1000
        expected = health.blows(health.Attack(30, "lethal", 0, 30), health.Fighter("mortal", 0), 40).at_least(
            "incapacitated", 40
        )
        assert Fraction(int(num), int(den)) == expected
    finally:
        sys.set_int_max_str_digits(limit)


# ------------------------------------------------------------- warnings


def test_stamina_against_aggravated_warns_and_changes_nothing(capsys):
    base = ["blows", "--dice", 3, "--kind", "aggravated", "--target", "vampire", "--max-blows", 3]
    code, out, err = run(capsys, *base, "--stamina", 3)
    assert code == 0
    assert err.strip() == (
        "beastodds: warning: --soak/--stamina 3 has no effect on aggravated "
        "damage to a vampire: a vampire soaks aggravated damage with Fortitude alone"
    )
    code, plain, err0 = run(capsys, *base)
    assert code == 0 and err0 == "" and plain == out


def test_mortal_soaking_lethal_warns(capsys):
    code, out, err = run(capsys, "damage", "--dice", 3, "--soak", 2, "--kind", "lethal", "--target", "mortal")
    assert code == 0 and "beastodds: warning: --soak/--stamina 2 has no effect on lethal" in err
    code, out, err = run(capsys, "damage", "--dice", 3, "--soak", 2, "--kind", "bashing", "--target", "mortal")
    assert code == 0 and err == ""


@pytest.mark.parametrize("command", ["damage", "blows"])
@pytest.mark.parametrize("kind", ["bashing", "lethal", "aggravated"])
@pytest.mark.parametrize("target", ["vampire", "mortal"])
def test_soak_warning_only_when_stamina_changes_nothing(capsys, command, kind, target):
    """The Stamina warning is given exactly when Stamina 3 and Stamina 0 give the same table.

    It was given for lethal damage to a vampire, whose Stamina soaks it (Stamina 0 against 3:
    50.1% against 12.2% torpor after the blows).
    """
    base = [command, "--dice", 6, "--kind", kind, "--target", target, "--exact", "--format", "csv"]
    if command == "blows":
        base += ["--max-blows", 3]
    code, with_soak, err = run(capsys, *base, "--stamina", 3)
    assert code == 0
    code, without, err0 = run(capsys, *base)
    assert code == 0 and err0 == ""
    same = with_soak == without
    assert ("has no effect on" in err) == same, (kind, target, err)
    assert (kind, target) in {("aggravated", "vampire"), ("lethal", "mortal"), ("aggravated", "mortal")} or not same


def test_stamina_against_lethal_to_a_vampire_gives_no_warning(capsys):
    code, out, err = run(capsys, "damage", "--dice", 6, "--soak", 2, "--kind", "lethal", "--target", "vampire")
    assert code == 0 and err == ""


def test_attack_difficulty_without_attack_pool_warns(capsys):
    code, out, err = run(
        capsys,
        "blows",
        "--dice",
        3,
        "--kind",
        "lethal",
        "--target",
        "mortal",
        "--max-blows",
        1,
        "--attack-difficulty",
        7,
    )
    assert code == 0
    assert err.strip() == (
        "beastodds: warning: --attack-difficulty 7 has no effect without --attack-pool: every blow hits"
    )


def test_heatmap_of_three_varying_axes_draws_a_panel_per_value_and_four_warn_naming_the_slice(capsys, tmp_path):
    path = tmp_path / "d.png"
    argv = ["compare", "v5-official", "v5-hunger-one-taints-win", "--pool", "1-2", "--hunger", "0-1"]
    code, out, err = run(capsys, *argv, "--difficulty", "1-2", "--heatmap", path, "--quiet")
    assert code == 0 and path.exists() and "warning" not in err  # one panel per Difficulty: nothing left out
    code, out, err = run(capsys, *argv, "--difficulty", "1-2", "--heatmap", path, "--heatmap-at", "difficulty=2")
    assert code == 0 and "warning" not in err  # the slice asked for
    code, out, err = run(capsys, *argv, "--difficulty", "2", "--heatmap", path, "--quiet")
    assert code == 0 and "warning" not in err
    ww = ["compare", "werewolf-official", "werewolf-brutal-adds-two", "--pool", "3-4", "--rage", "0-2"]
    code, out, err = run(capsys, *ww, "--difficulty", "2-3", "--violent", "0-1", "--heatmap", path, "--quiet")
    warning = [line for line in err.splitlines() if line.startswith("beastodds: warning:")]
    assert code == 0 and len(warning) == 1
    assert warning[0].startswith(
        "beastodds: warning: the heatmap draws --pool x --rage (one panel per --difficulty) at --violent "
    )
    for bad, said in (
        (["--heatmap-at", "violent=7"], "--heatmap-at --violent 7: not a value compared here"),
        (["--heatmap-at", "soif=1"], "--heatmap-at: 'soif' is not an axis compared here"),
        (["--heatmap-at", "violent"], "--heatmap-at takes AXIS=VALUE"),
        (["--heatmap-by", "soif"], "--heatmap-by: 'soif' is not an axis compared here"),
    ):
        code, out, err = run(capsys, *ww, "--difficulty", "2", "--violent", "0-1", "--heatmap", path, *bad)
        assert code == 2 and out == "" and said in err and err.count("\n") == 1, err
    code, out, err = run(capsys, *ww, "--heatmap-at", "violent=1")
    assert code == 2 and "give --heatmap FILE too" in err


def test_rules_fields_a_command_does_not_use_warn(capsys):
    code, out, err = run(capsys, "rouse", "--hunger", 1, "--checks", 1, "--rules", "v5-hunger-dice-added")
    assert code == 0 and out
    assert err.strip() == (
        "beastodds: warning: --rules v5-hunger-dice-added: hunger_replaces_dice "
        "= false is not used here: the Rouse check rules come from its [rouse] "
        "table alone"
    )
    code, out, err = run(capsys, "rouse", "--hunger", 1, "--checks", 1, "--rules", "v5-rouse-no-frenzy-test-at-max")
    assert code == 0 and err == ""


def test_an_error_is_not_preceded_by_a_warning(capsys):
    text = refused(
        capsys, "blows", "--dice", 3, "--stamina", 3, "--kind", "aggravated", "--target", "vampire", "--max-blows", 5000
    )
    assert text.startswith("--max-blows must be 0..1000")


def test_a_number_of_thousands_of_digits_is_refused_by_its_size(capsys):
    text = refused(capsys, "v5", "--pool", 3, "--difficulty", "9" * 5000)
    assert text.startswith(f"--difficulty must be 0..{MAX_WHOLE}, got a number of about ")
    assert len(text) < 200
    text = refused(capsys, "fight", "--pool-a", 3, "--pool-b", 3, "--turns", -(10**49))
    assert text == "--turns must be 1..100, got a negative number of 50 digits"


@pytest.mark.parametrize(
    "extra, warning",
    [
        (
            ["--kind", "lethal", "--target", "vampire", "--aim", "head"],
            "--aim head changes nothing here: lethal damage to a vampire is lethal wherever it is aimed",
        ),
        (
            ["--kind", "lethal", "--target", "mortal", "--firearm"],
            "--firearm changes nothing here: lethal damage to a mortal is lethal from any weapon",
        ),
        (
            ["--kind", "bashing", "--target", "mortal", "--aim", "vital"],
            "--aim vital changes nothing here: bashing damage to a mortal is bashing wherever it is "
            "aimed (--vital-spot-lethal makes a blunt blow to a vital spot lethal)",
        ),
        (["--kind", "lethal", "--target", "vampire", "--aim", "head", "--firearm"], None),
        (["--kind", "lethal", "--target", "vampire", "--firearm"], None),
        (["--kind", "bashing", "--target", "mortal", "--aim", "vital", "--vital-spot-lethal", "mortals"], None),
    ],
)
def test_aim_and_firearm_that_change_nothing_warn(capsys, extra, warning):
    code, out, err = run(capsys, "damage", "--dice", 3, *extra)
    assert code == 0 and out
    assert err.strip() == ("" if warning is None else f"beastodds: warning: {warning}")


# ------------------------------------------------------- not a table at all


@pytest.mark.parametrize("bad", [None, [1, 2], "pool,p_win", {"pool": [1]}])
def test_render_and_pivot_of_what_is_not_a_table_is_one_sentence(bad):
    """``tables.render(None)`` raised AttributeError ('NoneType' object has no attribute 'columns')."""
    from analysis.present import tables

    with pytest.raises(TypeError) as caught:
        tables.render(bad)
    text = str(caught.value)
    assert text.startswith("render takes an odds table (a pandas DataFrame") and "\n" not in text
    assert text.endswith(f"got {type(bad).__name__}")
    with pytest.raises(TypeError, match=r"^pivot takes an odds table"):
        tables.pivot(bad, "pool", "hunger", "p_win")


# ------------------------------------------------- --set: one field per option


@pytest.mark.parametrize(
    "text",
    [
        "crit_bonus=1\nsuccess_face=9",
        "crit_bonus=1\r\nsuccess_face=9",
        "crit_bonus=1\rsuccess_face=9",
        "crit_bonus=1\x1b[2J",
        "crit_bonus=\x001",
    ],
)
def test_set_with_a_line_break_or_control_character_is_refused(capsys, text):
    """``--set $'crit_bonus=1\\nsuccess_face=9'`` set crit_bonus and silently dropped the second line."""
    message = refused(capsys, "v5", "--pool", 3, "--hunger", 1, "--difficulty", 2, "--set", text)
    assert message == (
        "--set takes one FIELD=VALUE on one line, without line breaks or other control "
        f"characters (give --set once per field), got {text!r}"
    )
    message = refused(
        capsys, "compare", "v5-official", "v5-official", "--pool", 3, "--hunger", 1, "--difficulty", 2, "--set-b", text
    )
    assert "without line breaks" in message


def test_set_given_once_per_field_sets_both(capsys):
    code, out, err = run(capsys, "rules", "v5-official", "--set", "crit_bonus=1", "--set", "success_face=9")
    assert code == 0 and err == ""
    from analysis.options.common import sets_of

    assert sets_of(["crit_bonus=1", "success_face=9"]) == {"crit_bonus": 1, "success_face": 9}


# ------------------------------------------ a SPEC of thousands of digits


@pytest.mark.parametrize("spec", ["1" * 5000, "1-" + "1" * 5000, "1" * 5000 + "-1,2", "1" * 31])
def test_a_spec_of_thousands_of_digits_names_its_axis(spec):
    """Past 4,300 digits Python's int() said "Exceeds the limit (4300 digits) ..." naming no option."""
    import re as _re

    from analysis.systems import v5

    with pytest.raises(ValueError) as caught:
        v5.table(spec, 1, 2)
    digits = len(max(_re.findall(r"\d+", spec), key=len))
    size = digits if digits <= 4000 else f"about {digits}"
    assert str(caught.value) == f"pool must be 0..1000, got a number of {size} digits"
    with pytest.raises(
        ValueError,
        match=r"^difficulty must be 0\.\.1000000000, got a number of about 5000 "
        r"digits$",
    ):
        desperation.table(1, 1, "9" * 5000)


def test_a_spec_of_thousands_of_digits_on_the_command_line(capsys):
    message = refused(capsys, "v5", "--pool", "2", "--hunger", "1", "--difficulty", "1-" + "7" * 6000)
    assert message == "--difficulty must be 0..1000000000, got a number of about 6000 digits"
    code, out, err = run(capsys, "v5", "--pool", "0" * 6000 + "2", "--hunger", 1, "--difficulty", 1)
    assert code == 0 and err == ""  # leading zeros are no size


def test_a_spec_without_a_bound_reads_big_numbers_up_to_its_digit_limit():
    import math

    from analysis.model.validate import parse_spec

    assert parse_spec("x", "1" * 40, 0, math.inf) == [int("1" * 40)]
    with pytest.raises(ValueError, match=r"^x must be a number of at most 4,000 digits, got one of 4001 digits$"):
        parse_spec("x", "1" * 4001, 0, math.inf)
