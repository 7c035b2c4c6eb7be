"""Issue 18's bounds: no negative number but a Requiem pool, no unbounded option, no iterable read past its limit.

Each test reproduces one item of the issue and checks that the refusal
comes at once, in one sentence, before any counting: the counting functions
are replaced by ones that fail the test, or the refusal is checked against
the work estimate that decides it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from analysis.systems.requiem import beast, dice as requiem
from tests.conftest import d6_mechanic, refused, run_cli

run = run_cli  # beastodds ARGV: (exit code, stdout, stderr)


def one_sentence(exc) -> str:
    text = str(exc.value)
    assert "\n" not in text and text.count(". ") == 0, text
    return text


# ------------------------------------------------------------ 7. negative pools


def test_a_requiem_pool_below_zero_is_a_rule_not_an_error():
    """Requiem's pools stay -200..200: a pool that penalties take to 0 or below rolls a chance die, and
    Tempting the Beast adds Soif dice to the pool as penalised (pool -2 at Soif 3 rolls one die, not
    the three of pool 0), so a negative pool has answers of its own and is never refused or clamped."""
    assert beast.odds(-1, 3).classes() == beast.odds(0, 3).classes()
    assert requiem.odds(-1).classes() == requiem.odds(0).classes()
    assert beast.odds(-2, 3, tempt=True).classes() == beast.odds(1, 3).classes()
    assert beast.odds(-2, 3, tempt=True).classes() != beast.odds(0, 3, tempt=True).classes()
    for call in (lambda: beast.odds(-201, 3), lambda: requiem.odds(-201), lambda: beast.table([-201], 3)):
        with pytest.raises(ValueError) as exc:
            call()
        assert one_sentence(exc) == "pool must be -200..200, got -201"


@pytest.mark.parametrize(
    "argv",
    [
        ["v5", "--pool", "3", "--difficulty", "2"],
        ["werewolf", "--pool", "3", "--rage", "1", "--difficulty", "2"],
        ["hunter", "--pool", "3", "--desperation", "1", "--difficulty", "2"],
        ["requiem", "--pool", "3", "--soif", "1"],
        ["beast", "--pool", "3", "--soif", "1"],
        ["classic", "--pool", "3", "--difficulty", "6"],
        ["cards", "--base", "5", "--difficulty", "7", "--hunger", "1"],
        ["conflict", "--pool-a", "3", "--pool-b", "3"],
        ["fight", "--pool-a", "3", "--pool-b", "3", "--turns", "2"],
        ["soif", "--resolve", "3", "--composure", "2", "--blood-potency", "1", "--pool", "2"],
        ["damage", "--dice", "3", "--stamina", "2", "--kind", "lethal", "--target", "mortal"],
        ["blows", "--dice", "3", "--stamina", "2", "--kind", "lethal", "--target", "mortal"],
        ["rouse", "--hunger", "1", "--checks", "2"],
    ],
)
def test_every_pool_and_count_option_refuses_minus_one(capsys, monkeypatch, argv):
    """Every number a command takes (but --jobs, --digits and --top, checked elsewhere)
    refuses -1, naming the option."""
    from analysis import cli
    from analysis.engine import markov
    from analysis.workbench import sweep

    def no_work(*args, **kwargs):
        raise AssertionError("work started on a negative number")

    monkeypatch.setattr(sweep, "_table", no_work)
    monkeypatch.setattr(markov, "count", no_work)
    parser = cli.commands()[argv[0]]
    numbers = [
        a.option_strings[-1]
        for a in parser.options
        if a.option_strings
        and a.metavar in ("N", "SPEC")
        and a.option_strings[-1] not in ("--jobs", "--digits", "--top", "--defense", "--stamina", "--size")
        # a Requiem pool below 0 is a rule (a chance die; Tempting adds to it)
        and not (argv[0] in ("requiem", "beast", "soif") and a.option_strings[-1] == "--pool")
    ]
    assert numbers
    for option in numbers:
        line = list(argv)
        if option in line:
            line[line.index(option) + 1] = "-1"
        else:
            line += [option, "-1"]
        message = refused(capsys, *line)
        assert option in message, (line, message)


# ------------------------------------------------------------ 9. --at-least


@pytest.fixture
def no_work(monkeypatch):
    """Any cell counted by a sweep fails the test."""
    from analysis.workbench import sweep

    def refuse(*args, **kwargs):
        raise AssertionError("work started before the input was checked")

    monkeypatch.setattr(sweep, "_table", refuse)


@pytest.mark.parametrize(
    "argv, words",
    [
        (
            ["v5", "--pool", "0-1000", "--hunger", "0-5", "--difficulty", "1-5", "--at-least", "0-100"],
            "--at-least asks for 101 columns over 30,030 cells, 3,033,030 values (limit 1,000,000)",
        ),
        (
            ["classic", "--pool", "0-200", "--difficulty", "2-10", "--at-least", "0-1000"],
            "--at-least asks for 1,001 columns over 1,809 cells",
        ),
        (["werewolf", "--pool", "0-200", "--at-least", "0-1000"], "--at-least asks for 1,001 columns"),
        (["v5", "--pool", "3", "--difficulty", "2", "--at-least", "10001"], "--at-least must be 0..10000"),
        (["requiem", "--pool", "3", "--at-least", "-1"], "--at-least"),
    ],
)
def test_at_least_is_in_the_size_check(capsys, no_work, argv, words):
    assert words in refused(capsys, *argv)


def test_at_least_values_are_counted_against_the_api_tables_before_work():
    from analysis.systems.hunter import desperation as hunter
    from analysis.systems.v5 import roll as v5

    with pytest.raises(ValueError, match="limit 1,000,000"):
        v5.table("0-100", "0-5", "1-5", at_least="0-1000")
    with pytest.raises(ValueError, match="limit 1,000,000"):
        hunter.table("0-100", "0-5", "1-5", at_least="0-1000")


def test_requiem_at_least_stops_where_its_distributions_do(capsys):
    """Again-dice have no largest count: their distribution is counted up to N, at most 200
    (it was refused as "max_successes", a name the command line does not have)."""
    with pytest.raises(ValueError, match="at_least must be 0..200, got 300"):
        beast.table(3, 0, at_least=300)
    assert refused(capsys, "requiem", "--pool", "3", "--at-least", "300") == "--at-least must be 0..200, got 300"


def test_many_at_least_columns_are_quick_and_warn_of_nothing(capsys):
    """Thousands of N: one pass over each distribution and one frame made at once (a column
    added at a time was quadratic, and pandas warned of a fragmented frame on stderr)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code, out, err = run(
            capsys,
            "v5",
            "--pool",
            "3",
            "--hunger",
            "0-5",
            "--difficulty",
            "2",
            "--at-least",
            "0-3000",
            "--format",
            "csv",
        )
    assert code == 0 and err == ""
    header, *rows = out.splitlines()
    assert header.count("p_at_least_") == 3001 and len(rows) == 6
    # three dice count at most 5 successes (a pair of 10s is 4): every N above is exactly 0
    assert all(set(r.split(",")[10 + 6 : -1]) == {"0.0"} and r.split(",")[10 + 5] != "0.0" for r in rows)


def test_ways_at_least_is_one_pass():
    from analysis.engine import at_least

    ways = {0: 3, 1: 4, 5: 2}
    assert at_least.ways_at_least(ways, [6, 0, 5, 1, 2, 10_000]) == [0, 9, 2, 6, 2, 0]
    assert at_least.ways_at_least({0: 1}, [2], total=10) == [9]  # a distribution cut off above 1

    class Counting(dict):
        reads = 0

        def items(self):
            Counting.reads += 1
            return super().items()

    at_least.ways_at_least(Counting(ways), list(range(10_000)))
    assert Counting.reads == 1


def test_classic_at_least_counts_nothing_again(monkeypatch):
    """The table's own ways give the at-least columns: no roll is counted a second time."""
    from analysis.systems.classic import pools

    def refuse(*args, **kwargs):
        raise AssertionError("a cell counted again")

    want = pools.table("0-6", "2-10", exact=True, at_least="0-8")
    monkeypatch.setattr(pools, "odds", refuse)
    got = pools.table("0-6", "2-10", exact=True, at_least="0-8")
    assert got.equals(want)
    monkeypatch.undo()
    for row in want.itertuples():
        o = pools.odds(row.pool, row.difficulty)
        assert [getattr(row, f"p_at_least_{n}") for n in range(9)] == [o.at_least(n) for n in range(9)]


# ------------------------------------------------------------ 8. --strategy


@pytest.mark.parametrize(
    "argv, words",
    [
        (
            ["v5", "--pool", "1000", "--hunger", "5", "--difficulty", "3", "--strategy", "maximize_win"],
            "--strategy maximize_win: 1000 dice make 36,072,036 count states",
        ),
        (
            ["werewolf", "--pool", "1000", "--rage", "5", "--difficulty", "3", "--strategy", "maximize_win"],
            "--strategy maximize_win: 1000 dice make 6,012,006 count states",
        ),
        # every pool below the one-pool limit, the grid's sum past the table's: refused before pool 100
        (
            ["v5", "--pool", "100-330", "--hunger", "0-5", "--difficulty", "3", "--strategy", "maximize_win"],
            "--strategy maximize_win: the Willpower reroll over these 1,386 cells would take about",
        ),
        # the first pools fit, a later one does not: refused before the first is counted
        (
            ["werewolf", "--pool", "100-200", "--rage", "5", "--difficulty", "3", "--strategy", "maximize_win"],
            "--strategy maximize_win: the Willpower reroll at 133 normal + 5 rage dice would take about",
        ),
        (
            ["hunter", "--pool", "100-300", "--strategy", "none,maximize_win"],
            "--strategy none,maximize_win: the Willpower reroll at 264 normal + 5 desperation dice",
        ),
    ],
)
def test_strategy_work_is_estimated_over_the_grid_before_the_sweep(capsys, monkeypatch, no_work, argv, words):
    from analysis.engine import willpower

    def refuse(*args, **kwargs):
        raise AssertionError("a plan was built before the work was checked")

    monkeypatch.setattr(willpower, "_plan_cached", refuse)
    assert words in refused(capsys, *argv)


def test_api_strategy_tables_check_the_work_before_counting(monkeypatch):
    from analysis.engine import count as engine, pairs, willpower
    from analysis.systems.hunter import desperation as hunter
    from analysis.systems.v5 import roll as v5
    from analysis.systems.werewolf import rage as werewolf

    def refuse(*args, **kwargs):
        raise AssertionError("counting started before the work was checked")

    for module, name in ((engine, "count_cells"), (willpower, "_plan_cached"), (pairs, "class_grid")):
        monkeypatch.setattr(module, name, refuse)
    for call in (
        lambda: v5.table("100-330", "0-5", 3, strategy="none,maximize_win"),
        lambda: werewolf.table("100-200", 5, 3, strategy="maximize_win"),
        lambda: hunter.table("100-300", "0-5", "1-5", strategy=["maximize_win", None]),
    ):
        with pytest.raises(ValueError, match="Willpower reroll") as exc:
            call()
        assert "\n" not in str(exc.value)


def test_the_work_estimate_is_the_plans_own():
    """The estimate made without building a plan is the step count the plan itself reports."""
    from analysis.engine import willpower
    from analysis.systems.v5.dice import V5Rules, mechanic_rules
    from analysis.systems.v5.roll import engine_strategy
    from analysis.systems.werewolf.rage import WerewolfRules

    for rules, strategy, cell in (
        (mechanic_rules(V5Rules()), engine_strategy("maximize_win"), dict(pool=7, hunger=2, difficulty=3)),
        (WerewolfRules().mechanic(), "reroll_failures", dict(pool=6, rage=3, difficulty=2, violent=1)),
    ):
        strategy = willpower.strategy_of(strategy)
        full = willpower.work(rules, strategy, **cell)
        assert full > 0
        assert willpower.check_work(rules, strategy, [cell]) == full


def test_fast_strategy_tables_still_run(capsys):
    code, out, err = run(
        capsys,
        "werewolf",
        "--pool",
        "1-12",
        "--rage",
        "0-5",
        "--difficulty",
        "1-4",
        "--strategy",
        "none,maximize_win",
        "--format",
        "csv",
    )
    assert code == 0 and err == ""
    assert len(out.splitlines()) == 1 + 12 * 6 * 4 * 2 * 2  # two violent values, two strategies


# ------------------------------------------------------------ 10. iterables read before a limit


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: __import__("analysis.systems.v5.roll", fromlist=["x"]).table(range(10**12), 1, 2),
            "pool has 1,000,000,000,000 items (at most 100,000)",
        ),
        (
            lambda: __import__("analysis.systems.v5.roll", fromlist=["x"]).table(range(10**30), 1, 2),
            "pool has more than 100,000 items",
        ),
        (
            lambda: __import__("analysis.systems.v5.roll", fromlist=["x"]).table(range(10**8), 1, 2),
            "pool has 100,000,000 items",
        ),
        (
            lambda: __import__("analysis.systems.v5.willpower", fromlist=["x"]).decide(
                normal=[4] * 10**6, hunger=[1], difficulty=3
            ),
            "normal has 1,000,000 items (at most 1,000)",
        ),
        (
            lambda: __import__("analysis.systems.v5.rouse", fromlist=["x"]).night(1, ["wake"] * 100_000),
            "steps has 100,000 items (at most 10,000)",
        ),
        (
            lambda: __import__("analysis.systems.cards.deck", fromlist=["x"]).scene([(5, 7)] * 10**6),
            "a scene must have 1..20 tests, got 1,000,000",
        ),
        (
            lambda: __import__("analysis.systems.classic.pools", fromlist=["x"]).read_pool([6] * 10**6),
            "dice has 1,000,000 items (at most 200)",
        ),
    ],
)
def test_big_iterables_are_refused_by_their_size(call, words):
    with pytest.raises(ValueError) as exc:
        call()
    assert words in one_sentence(exc)


def test_an_endless_iterator_is_read_one_item_past_the_limit():
    import itertools

    from analysis.systems.v5 import roll as v5
    from analysis.model.validate import MAX_SPEC_VALUES

    endless = itertools.count()
    with pytest.raises(ValueError, match="pool has more than 100,000 items"):
        v5.table(endless, 1, 2)
    assert next(endless) == MAX_SPEC_VALUES + 1
    faces = itertools.repeat(4)
    with pytest.raises(ValueError, match="at most 1,000"):
        __import__("analysis.systems.v5.dice", fromlist=["x"]).read_roll(faces, [], 2)


def test_the_mechanic_engine_refuses_a_huge_grid_before_listing_its_cells():
    from analysis.engine import count as engine
    from analysis.systems.v5.dice import V5Rules, mechanic_rules

    with pytest.raises(ValueError, match="this grid has 600,600,000 cells"):
        engine.table(mechanic_rules(V5Rules()), pool="0-1000", hunger="0-5", difficulty="0-99999")


# ------------------------------------------------------------ 11. duplicates, linearly


class _Name(str):
    """A column name that counts how often it is compared: a quadratic check compares n * n times."""

    compared = 0

    def __eq__(self, other):
        _Name.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_duplicate_checks_are_linear():
    from analysis.present import tables
    from analysis.systems.v5 import roll as v5

    df = v5.table(3, 0, 2)
    n = 20_000
    for names, words in (
        ([_Name("p_win")] * n, "--columns names 'p_win' twice"),
        ([_Name("failure"), _Name("p_win")] + [_Name("p_win")] * n, "'p_win' twice"),
    ):
        _Name.compared = 0
        with pytest.raises(ValueError, match=words):
            tables.render(df, "csv", columns=names)
        assert _Name.compared < 10 * n
    _Name.compared = 0
    with pytest.raises(ValueError, match="twice"):
        tables.pivot(df, [_Name("pool")] * n, "hunger", "p_win")
    assert _Name.compared < 10 * n
    assert tables.first_repeat([1, 2, 3, 2, 1]) == 2 and tables.first_repeat("abc") is None


def test_columns_with_20000_entries_are_refused_at_once(capsys):
    assert (
        refused(capsys, "v5", "--pool", "3", "--difficulty", "2", "--columns", ",".join(["p_win"] * 20_000))
        == "--columns names 'p_win' twice"
    )


# ------------------------------------------------------------ 18. every flag is a real bool


def _bool_calls():
    from analysis.workbench import sweep
    from analysis.present import tables
    from analysis.systems.cards import deck
    from analysis.systems.v5 import roll as v5, rouse
    from analysis.systems.v5.dice import V5Rules
    from analysis.systems.werewolf import rage

    small = v5.table(3, 0, 2)
    return [
        ("progress", lambda v: v5.table(3, 0, 2, progress=v)),
        ("check_only", lambda v: v5.table(3, 0, 2, check_only=v)),
        ("exact", lambda v: tables.compare("v5-official", "v5-official", {"pool": "3"}, exact=v)),
        ("progress", lambda v: tables.compare("v5-official", "v5-official", {"pool": "3"}, progress=v)),
        ("progress", lambda v: sweep.tables("v5", [V5Rules()], {"pool": "3"}, progress=v)),
        ("violent", lambda v: rage.odds(3, 1, 2, violent=v)),
        ("violent", lambda v: rage.read_roll([6, 7], [1], 2, violent=v)),
        ("exact", lambda v: tables.render(small, "csv", exact=v)),
        ("percent", lambda v: tables.render(small, "csv", percent=v)),
        ("legend", lambda v: tables.render(small, "markdown", legend=v)),
        ("reroll", lambda v: rouse.table(1, 2, reroll=v)),
        ("tests", lambda v: deck.scene(v)),
    ]


@pytest.mark.parametrize("name, call", _bool_calls())
@pytest.mark.parametrize("bad", [1, "yes", None, []])
def test_flags_refuse_anything_but_true_and_false(name, call, bad):
    if name == "tests":
        bad = {(5, 7)} if bad == 1 else bad  # a set of tests: no order
    with pytest.raises((ValueError, TypeError)) as exc:
        call(bad)
    assert name in one_sentence(exc)


# ------------------------------------------------------------ 20. rules --value


@pytest.mark.parametrize(
    "argv",
    [
        ["rules", "v5-official", "--value", "p_win"],
        ["rules", "--value", "p_win"],
        ["rules", "v5-official", "--value", "p_win", "--format", "json"],
    ],
)
def test_rules_refuses_value(capsys, argv):
    assert refused(capsys, *argv).startswith("--value shapes the list of rule sets")


def test_rules_value_in_a_shaped_list_needs_pivot(capsys):
    assert "--pivot and --value go together" in refused(capsys, "rules", "--value", "name", "--format", "csv")


def test_la_soif_at_least_work_is_checked_over_the_grid(capsys, no_work):
    """Again-dice are counted up to the largest N: the dice times that N, over the whole grid, before
    the sweep's first chunk (each chunk alone would pass)."""
    assert "5,000,000" in refused(capsys, "requiem", "--pool", "0-200", "--soif", "0-5", "--at-least", "0-200")
    with pytest.raises(ValueError, match="dice x successes"):
        beast.table("0-200", "0-5", at_least="0-200", check_only=True)
    assert beast.table("0-200", "0-5", at_least="0-20", check_only=True) is None


def test_successes_far_apart_are_counted_by_the_values_reached(capsys, tmp_path):
    """A file whose successes jump by a million per die: the histogram holds the counts reached (31 at
    pool 30, not 30,000,001), so its odds are exact and a distribution of 30,000,001 rows is refused in
    one sentence naming how far the successes reach, before a table is made."""
    from math import comb

    from analysis.engine import count as engine
    from analysis.model import spec

    path = tmp_path / "far.toml"
    path.write_text(d6_mechanic("far", "a1 * 1000000", pool="1-5", top="100"))
    rules = spec.rules_of(spec.load(path))
    got = engine.odds(rules, pool=30)
    assert got.successes == {k * 1_000_000: Fraction(comb(30, k), 2**30) for k in range(31)}
    table = engine.table(rules, exact=True, pool="30", at_least=[0, 1, 10_000])
    assert list(table.iloc[0, -3:]) == [1] + [1 - Fraction(1, 2**30)] * 2
    line = refused(capsys, "table", path, "--distribution", "--pool", "30")
    assert "30,000,001 rows" in line and "the successes reaching 30,000,000" in line
