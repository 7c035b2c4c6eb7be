"""Rendering: every float is float() of the exact fraction, percentages and rounding are exact, and the
designer's options (--pivot, --columns, --digits), legends and rule-set names work on every output."""

import csv
import io
import itertools
import json
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import pandas as pd
import pytest

from analysis import cli
from analysis.workbench import rulesets
from analysis.present import tables
from analysis.present.tables import compare, legend, pivot, render


def run(capsys, *argv):
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as exc:  # refused by the parser
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def small_grid(system) -> dict:
    """The first two values of each axis's default SPEC (a few cells, every system)."""
    from analysis.model.validate import parse_spec

    grid = {}
    for axis, spec in system.axes:
        values = parse_spec(axis, spec)
        grid[axis] = values[:2] if axis != "pool" else values[1:3]
    return grid


def table_pair(system, grid):
    rules = system.rules()
    values = [grid[a] for a in system.axis_names]
    return (
        system.table(*values, rules=rules, exact=False),
        system.table(*values, rules=rules, exact=True),
    )


def value_cells(floats: pd.DataFrame, exact: pd.DataFrame, keys):
    """``(column, float cell, Fraction cell)`` of every value cell of a float and an exact table."""
    assert list(floats.columns) == list(exact.columns)
    for c in floats.columns:
        if c in keys:
            continue
        for x, f in zip(floats[c], exact[c]):
            if isinstance(x, str):
                continue
            yield c, x, Fraction(f)


def rounded(q: Fraction, digits: int) -> str:
    """An independent exact rounding (half up) through Decimal."""
    with localcontext() as ctx:
        ctx.prec = 80
        d = Decimal(q.numerator) / Decimal(q.denominator)
        return str(d.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def keys_of(system, df):
    return [c for c in df.columns if c in system.axis_names or pd.api.types.is_integer_dtype(df[c])]


# ------------------------------------------------------------------ floats are exact


@pytest.mark.parametrize("name", list(rulesets.SYSTEMS))
def test_every_float_of_every_system_table_is_the_exact_fraction_rounded(name):
    system = rulesets.SYSTEMS[name]
    floats, exact = table_pair(system, small_grid(system))
    keys = keys_of(system, floats)
    cells = list(value_cells(floats, exact, keys))
    assert cells
    bad = [(c, x, f) for c, x, f in cells if x != float(f)]
    assert not bad, f"{name}: float cells that are not float(Fraction): {bad[:3]}"


def _family_tables():
    """The tables of the commands that print more than a system's grid table, as (name, f(exact), keys)."""
    from analysis.systems.classic import health
    from analysis.systems.requiem import beast
    from analysis.versus import requiem_v5
    from analysis.systems.v5 import conflict, fight, rouse

    a, b = conflict.Combatant(3, hunger=1), conflict.Combatant(2)
    yield "rouse", lambda e: rouse.table("0-5", "1-2", True, exact=e), ("start_hunger", "checks", "reroll")
    yield (
        "conflict",
        lambda e: conflict.conflict_table(a, b, exact=e),
        ("margin", "winner", "damage_to_a", "damage_to_b"),
    )
    yield "fight", lambda e: fight.fight(a, b, turns=2).table(exact=e), ("turn",)
    yield "damage", lambda e: health.damage(4, 1, 2, "lethal", "mortal").table(exact=e), ("levels",)
    yield (
        "blows",
        lambda e: health.blows(health.Attack(3, "lethal"), health.Fighter("mortal", 2), 3).table(exact=e),
        ("blows",),
    )
    yield (
        "beast_distribution",
        lambda e: beast.distribution_table("1-3", "0-1", 3, exact=e),
        ("pool", "soif", "beast_dice", "successes"),
    )
    yield "beast_compare_table", lambda e: requiem_v5.compare_table("1-4", "0-2", exact=e), ("pool", "level")


@pytest.mark.parametrize("name,make,keys", list(_family_tables()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_float_of_the_other_tables_is_the_exact_fraction_rounded(name, make, keys):
    floats, exact = make(False), make(True)
    bad = [(c, x, f) for c, x, f in value_cells(floats, exact, keys) if x != float(f)]
    assert not bad, f"{name}: {bad[:3]}"


def test_la_soif_compare_table_sums_are_exact():
    from analysis.versus import requiem_v5

    floats, exact = requiem_v5.compare_table(3, 0), requiem_v5.compare_table(3, 0, exact=True)
    assert exact.v5_critical[0] == Fraction(7, 250) and floats.v5_critical[0] == 0.028
    text = render(floats, "csv", key_columns=("pool", "level"))
    assert ",0.028," in text and "0.027999999999999997" not in text


def _pairs():
    for system in rulesets.SYSTEMS.values():
        names = [rs.name for rs in rulesets.variants(system.name)]
        for a, b in itertools.combinations(names, 2):
            yield system.name, a, b


@pytest.mark.parametrize("system,a,b", list(_pairs()))
def test_compare_of_every_shipped_pair_is_exact(system, a, b):
    grid = small_grid(rulesets.system(system))
    fl, ex = compare(a, b, grid), compare(a, b, grid, exact=True)
    for c in ("a", "b", "difference"):
        assert list(fl.table[c]) == [float(Fraction(f)) for f in ex.table[c]], c
    assert list(ex.table.difference) == [Fraction(y) - Fraction(x) for x, y in zip(ex.table.a, ex.table.b)]
    keys = fl.key_columns
    for fmt in ("csv", "json"):
        text = render(fl.table, fmt, key_columns=keys, percent=True)
        assert "0000000000" not in text and "9999999999" not in text, fmt


def test_compare_difference_of_one_tenth(capsys):
    code, out, _ = run(
        capsys,
        "compare",
        "v5-official",
        "v5-two-hunger-ones-for-bestial",
        "--pool",
        1,
        "--hunger",
        1,
        "--difficulty",
        1,
        "--format",
        "csv",
    )
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["difference"] for r in rows} == {"0.1", "-0.1", "0.0"}
    assert "0.09999999999999998" not in out


# ------------------------------------------------------------------ rendered strings


def _render_cases():
    for name in ("v5", "classic", "cards", "requiem"):
        yield name


@pytest.mark.parametrize("name", list(_render_cases()))
def test_rendered_csv_json_percent_and_digits_have_no_noise(name):
    system = rulesets.SYSTEMS[name]
    floats, exact = table_pair(system, small_grid(system))
    keys = keys_of(system, floats)
    values = [c for c in floats.columns if c not in keys]
    for source in (floats, exact):
        # plain CSV: the shortest text of float(Fraction)
        rows = list(csv.DictReader(io.StringIO(render(source, "csv", key_columns=keys))))
        for c in values:
            assert [r[c] for r in rows] == [repr(float(Fraction(f))) for f in exact[c]], c
        # JSON: numbers equal to float(Fraction)
        records = json.loads(render(source, "json", key_columns=keys))
        for c in values:
            assert [r[c] for r in records] == [float(Fraction(f)) for f in exact[c]], c
        # percent: exact times 100 (from floats: the shortest decimal with the point moved)
        rows = list(csv.DictReader(io.StringIO(render(source, "csv", key_columns=keys, percent=True))))
        for c in values:
            for r, f, x in zip(rows, exact[c], floats[c]):
                f = Fraction(f)
                if not tables.is_probability(c):
                    assert r[c] == repr(float(f)), c
                elif source is exact:
                    assert r[c] == repr(float(f * 100)), c
                else:
                    assert Fraction(r[c]) == Fraction(repr(x)) * 100 and r[c] == repr(float(r[c])), c
        # digits: exact rounding, in CSV and in the terminal table
        for digits in (0, 2, 5):
            rows = list(csv.DictReader(io.StringIO(render(source, "csv", key_columns=keys, digits=digits))))
            for c in values:
                assert [r[c] for r in rows] == [rounded(Fraction(f), digits) for f in exact[c]], c
        text = render(source, "table", key_columns=keys, percent=True, digits=3)
        assert "000000000" not in text and "99999999" not in text


def test_percent_leaves_means_alone(capsys):
    code, out, _ = run(capsys, "table", "classic-official", "--pool", 3, "--difficulty", 6, "--percent")
    assert code == 0
    assert "%" in out and "129" not in out and "1.29" in out
    code, out, _ = run(
        capsys, "table", "classic-official", "--pool", 3, "--difficulty", 6, "--percent", "--format", "csv"
    )
    row = next(csv.DictReader(io.StringIO(out)))
    assert row["mean_successes"] == "1.29" and row["success"] == "74.0"


def test_percent_csv_of_a_tricky_value():
    df = pd.DataFrame({"pool": [1, 2], "p": [0.661, Fraction(1, 3)]})
    rows = list(csv.DictReader(io.StringIO(render(df, "csv", key_columns=("pool",), percent=True))))
    assert rows[0]["p"] == "66.1" and rows[1]["p"] == repr(float(Fraction(100, 3)))
    assert json.loads(render(df, "json", key_columns=("pool",), percent=True))[0]["p"] == 66.1


def test_fixed_rounds_exactly():
    assert tables.fixed(Fraction(2, 3), 3) == "0.667"
    assert tables.fixed(Fraction(1, 8), 2) == "0.13"  # half up, on the exact value
    assert tables.fixed(Fraction(1, 160), 4) == "0.0063"  # 0.00625 (float formatting gives 0.0062 or 0.0063)
    assert tables.fixed(Fraction(-1, 10), 1) == "-0.1"
    assert tables.fixed(Fraction(-1, 1000), 1) == "0.0"
    assert tables.fixed(Fraction(1, 2), 0) == "1"
    assert tables.fixed(0.1, 20) == "0.10000000000000000000"


def test_a_float_is_rounded_as_its_shortest_decimal_exactly():
    """A float takes a faster road than a Fraction (decimal arithmetic on its shortest decimal): the same
    text as the Fraction of that decimal, on ties, signs, zeros, the smallest and largest floats, numpy
    floats, and thousands of random values and bit patterns."""
    import random
    import struct

    import numpy as np

    rng = random.Random(7)
    values = [0.0, -0.0, 0.5, -0.5, 2.5, -2.5, 0.125, 0.0005, -0.0005, 1e22, 1e-20, 5e-324, 1.7976931348623157e308]
    values += [0.045, 123.4445, 1 / 3, -2 / 3] + [rng.uniform(-1000, 1000) for _ in range(2000)]
    values += [round(rng.uniform(-10, 10), rng.randint(0, 6)) + 5 * 10.0 ** -rng.randint(1, 8) for _ in range(2000)]
    bits = (struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0] for _ in range(4000))
    values += [v for v in bits if v == v and abs(v) != float("inf")]
    for v in values:
        for digits in (0, 1, 2, 3, 6, 20):
            assert tables.fixed(v, digits) == tables.fixed(Fraction(repr(v)), digits), (v, digits)
    assert tables.fixed(np.float64(0.0625), 3) == "0.063" and tables.fixed(-0.0004, 3) == "0.000"
    # and a Fraction (integer arithmetic) against the definition, half away from zero on the exact value
    for _ in range(3000):
        q = Fraction(rng.randint(-(10**12), 10**12), rng.randint(1, 10 ** rng.randint(0, 14)))
        digits = rng.choice((0, 1, 2, 5, 20))
        n = int(abs(q) * 10**digits + Fraction(1, 2))
        text = str(n).rjust(digits + 1, "0")
        want = ("-" if q < 0 and n else "") + (text[:-digits] + "." + text[-digits:] if digits else text)
        assert tables.fixed(q, digits) == want, (q, digits)
    assert tables.fixed(float("nan"), 2) == "nan"


# ------------------------------------------------------------------ pivot, columns, digits


def test_pivot_puts_rows_down_and_columns_across():
    from analysis.systems import v5

    t = v5.table("1-3", "0-2", "2-3")
    grid = pivot(t, "pool", "hunger", "p_win")
    assert grid.index.names == ["difficulty", "pool"] and list(grid.columns) == [0, 1, 2]
    assert grid.loc[(3, 2), 1] == t[(t.pool == 2) & (t.hunger == 1) & (t.difficulty == 3)].p_win.item()
    fixed = pivot(t[t.difficulty == 2], "pool", "hunger", "plain_win")
    assert fixed.index.name == "pool" and fixed.shape == (3, 3)
    two = pivot(t, ["pool"], ["difficulty", "hunger"], "p_win")
    assert two.shape == (3, 6)


@pytest.mark.parametrize(
    "args,words",
    [
        (("pol", "hunger", "p_win"), "did you mean pool"),
        (("pool", "hunger", "p_wn"), "did you mean p_win"),
        (("pool", "pool", "p_win"), "twice"),
        (("pool", "hunger", "difficulty"), "key column"),
        (("pool", "p_win", "plain_win"), "value column, not an axis"),
    ],
)
def test_pivot_refuses_in_one_sentence(args, words):
    from analysis.systems import v5

    t = v5.table("1-2", "0-1", 2)
    with pytest.raises(ValueError, match=words) as info:
        pivot(t, *args)
    assert "\n" not in str(info.value)


def test_pivot_refuses_ambiguity():
    t = pd.DataFrame({"pool": [1, 1], "hunger": [0, 0], "p_win": [0.5, 0.4]})
    with pytest.raises(ValueError, match="several rows per cell"):
        pivot(t, "pool", "hunger", "p_win")


def test_cli_pivot_every_format(capsys):
    base = [
        "v5",
        "--pool",
        "1-4",
        "--hunger",
        "0-2",
        "--difficulty",
        "2",
        "--pivot",
        "pool x hunger",
        "--value",
        "p_win",
    ]
    code, out, _ = run(capsys, *base, "--format", "csv", "--exact")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["pool", "hunger=0", "hunger=1", "hunger=2", "rule_set"] and len(rows) == 4
    from analysis.systems import v5

    want = v5.table(3, 1, 2, exact=True).p_win[0]
    assert Fraction(rows[2]["hunger=1"]) == want
    for fmt in ("table", "markdown", "json", "latex", "html"):
        code, out, err = run(capsys, *base, "--format", fmt, "--percent", "--digits", "1")
        assert code == 0, err
        assert f"{float(want * 100):.1f}" in out


def test_cli_pivot_of_compare_and_family_commands(capsys):
    code, out, err = run(
        capsys,
        "compare",
        "v5-official",
        "v5-two-hunger-ones-for-bestial",
        "--pool",
        "1-3",
        "--hunger",
        "1-2",
        "--difficulty",
        1,
        "--pivot",
        "pool x hunger",
        "--value",
        "difference",
        "--format",
        "csv",
    )
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0])[:4] == ["outcome", "pool", "hunger=1", "hunger=2"]
    code, out, err = run(
        capsys,
        "rouse",
        "--hunger",
        "0-2",
        "--checks",
        "1-3",
        "--pivot",
        "start_hunger x checks",
        "--value",
        "frenzy_test",
        "--format",
        "csv",
    )
    assert code == 0, err
    assert (
        out.splitlines()[0] == "start_hunger,reroll,checks=1,checks=2,checks=3,rule_set"
        or out.splitlines()[0] == "start_hunger,checks=1,checks=2,checks=3,rule_set"
    )


def test_cli_columns_choose_and_order(capsys):
    code, out, _ = run(
        capsys,
        "v5",
        "--pool",
        2,
        "--hunger",
        1,
        "--difficulty",
        2,
        "--columns",
        "p_win,total_failure",
        "--format",
        "csv",
    )
    assert code == 0
    assert out.splitlines()[0] == "pool,hunger,difficulty,p_win,total_failure,rule_set"
    code, out, _ = run(
        capsys,
        "damage",
        "--dice",
        3,
        "--kind",
        "lethal",
        "--target",
        "mortal",
        "--columns",
        "probability",
        "--digits",
        3,
    )
    assert code == 0 and "levels" in out and "probability" in out


def test_columns_of_a_listing(capsys):
    code, out, _ = run(capsys, "rules", "--format", "csv", "--columns", "system,name")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "system,name" and lines[1] == "v5,v5-official"


@pytest.mark.parametrize(
    "argv,words",
    [
        (("--columns", "p_wn"), "did you mean p_win"),
        (("--pivot", "pool x hungr", "--value", "p_win"), "did you mean hunger"),
        (("--pivot", "pool x hunger", "--value", "pwin"), "did you mean p_win"),
        (("--pivot", "pool x hunger"), "go together"),
        (("--value", "p_win"), "go together"),
        (("--pivot", "pool hunger", "--value", "p_win"), "ROWS x COLS"),
        (("--pivot", "pool x hunger", "--value", "p_win", "--columns", "plain_win"), "cannot be combined"),
        (("--digits", "3", "--exact"), "cannot be combined"),
        (("--digits", "-1"), "--digits"),
        (("--digits", "many"), "--digits"),
    ],
)
def test_bad_output_options_get_one_sentence(capsys, argv, words):
    code, out, err = run(capsys, "v5", "--pool", "1-2", "--hunger", "0-1", "--difficulty", 2, *argv)
    assert code == 2 and out == ""
    assert err.startswith("beastodds: error:") and err.count("\n") == 1 and words in err


def test_digits_rounds_every_format(capsys):
    for fmt in ("csv", "json", "table", "markdown"):
        code, out, _ = run(capsys, "v5", "--pool", 3, "--hunger", 1, "--difficulty", 2, "--digits", 2, "--format", fmt)
        assert code == 0
        assert "0.01" in out or "0.0" in out
        assert "0.0130" not in out


def test_top_says_when_no_cell_differs(capsys):
    code, out, _ = run(capsys, "compare", "v5-official", "v5-official", "--pool", 1, "--top", 3)
    assert code == 0 and "no cell differs" in out and "Empty DataFrame" not in out


# ------------------------------------------------------------------ legends and rule sets


def test_legend_one_line_per_column():
    from analysis.systems import v5

    system = rulesets.system("v5")
    cols = list(v5.table(1, 0, 1).columns)
    lines = legend(cols, system)
    assert len(lines) == len(cols)
    for c, line in zip(cols, lines):
        assert line.startswith(f"{c}: ") and "no meaning" not in line
    meanings = dict(system.classes)
    first = next(iter(meanings))
    assert f"{first}: {meanings[first]}" in lines
    assert legend(["difference"])[0].startswith("difference: ")


@pytest.mark.parametrize("name", list(rulesets.SYSTEMS))
def test_markdown_and_html_carry_a_caption_and_a_legend(capsys, name):
    system = rulesets.system(name)
    official = rulesets.official(system)
    grid = []
    for axis, values in small_grid(system).items():
        grid += [
            f"--axis-{axis}" if axis in ("format",) else "--" + axis.replace("_", "-"),
            ",".join(str(v) for v in values),
        ]
    for fmt in ("markdown", "html"):
        code, out, err = run(capsys, "table", official.name, *grid, "--format", fmt)
        assert code == 0, err
        assert f"Rule set: {official.name}" in out
        for cls, _ in system.classes:
            assert (f"- {cls}: " in out) if fmt == "markdown" else (f"<code>{cls}</code>: " in out)


def test_exports_name_their_rule_set(capsys):
    variant = next(rs for rs in rulesets.variants("v5") if rs.changes())
    code, out, _ = run(capsys, "v5", "--pool", 2, "--difficulty", 1, "--rules", variant.name, "--format", "json")
    assert code == 0 and {r["rule_set"] for r in json.loads(out)} == {variant.name}
    code, out, _ = run(capsys, "v5", "--pool", 2, "--difficulty", 1, "--rules", variant.name, "--format", "markdown")
    assert out.splitlines()[0].startswith(f"Rule set: {variant.name} (")  # not official: described
    code, out, _ = run(capsys, "v5", "--pool", 2, "--difficulty", 1, "--format", "latex")
    assert r"\caption{Rule set: v5-official}" in out and r"\begin{tabular}" in out
    code, out, _ = run(capsys, "v5", "--pool", 2, "--difficulty", 1, "--set", "crit_bonus=3", "--format", "csv")
    assert out.splitlines()[1].endswith(",v5-official-custom")
    code, out, _ = run(capsys, "v5", "--pool", 2, "--difficulty", 1, "--set", "crit_bonus=3", "--format", "markdown")
    assert out.splitlines()[0] == "Rule set: v5-official-custom (v5-official with crit_bonus = 3)"
    code, out, _ = run(capsys, "classic", "--pool", 2, "--ones-dont-cancel", "--format", "csv")
    shipped = next(rs.name for rs in rulesets.variants("classic") if not rs.rules.ones_cancel)
    assert out.splitlines()[1].endswith("," + shipped)


def test_a_rule_set_given_as_a_function_is_found_only_by_a_format_that_names_it():
    """The command line passes its rule set as a function (naming it may read every shipped rule set):
    the terminal table, which names no rule set, never calls it; every export calls it once."""
    df = pd.DataFrame({"pool": [1, 2], "p_win": [Fraction(1, 2), Fraction(3, 4)]})
    calls = []

    def later():
        calls.append(1)
        return rulesets.load("v5-official")

    assert render(df, "table", key_columns=("pool",), rule_set=later) == render(df, "table", key_columns=("pool",))
    assert calls == []
    for fmt in ("csv", "json", "markdown", "latex", "html"):
        named = render(df, fmt, key_columns=("pool",), rule_set=rulesets.load("v5-official"))
        assert render(df, fmt, key_columns=("pool",), rule_set=later) == named
    assert len(calls) == 5


def test_family_commands_name_their_rule_set(capsys):
    code, out, _ = run(capsys, "rouse", "--hunger", 1, "--checks", 1, "--format", "csv")
    assert code == 0 and out.splitlines()[0].endswith(",rule_set")
    code, out, _ = run(
        capsys,
        "soif",
        "--resolve",
        3,
        "--composure",
        3,
        "--blood-potency",
        1,
        "--pool",
        2,
        "--format",
        "csv",
        "--digits",
        3,
        "--columns",
        "p_success",
    )
    assert code == 0 and out.splitlines()[0] == "vitae,soif,beast_dice,p_success,rule_set"


@pytest.mark.parametrize(
    "command",
    [
        "v5",
        "rouse",
        "conflict",
        "fight",
        "damage",
        "blows",
        "soif",
        "beast",
        "requiem",
        "cards",
        "classic",
        "werewolf",
        "hunter",
        "compare",
        "table",
        "rules",
    ],
)
def test_help_lists_the_columns_with_their_meanings(command):
    text = cli.commands()[command].format_help()
    assert "\ncolumns" in text and "no meaning recorded" not in text
    if command in rulesets.SYSTEMS:
        for cls, _ in rulesets.SYSTEMS[command].classes:
            assert f"  {cls}: " in text


def test_a_pivot_says_where_the_axes_it_drops_stand(capsys):
    from analysis import cli

    argv = [
        "v5",
        "--pool",
        "1-3",
        "--hunger",
        "0-1",
        "--difficulty",
        "3",
        "--pivot",
        "pool x hunger",
        "--value",
        "p_win",
    ]
    assert cli.main(argv) == 0
    assert capsys.readouterr().out.splitlines()[0] == "p_win at difficulty 3"
    assert cli.main(argv + ["--format", "markdown"]) == 0
    assert "\n- difficulty: 3 throughout (" in capsys.readouterr().out
