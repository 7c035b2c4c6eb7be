"""Issue 18's bounds: no negative pool, no unbounded option, no iterable read past its limit.

Each test reproduces one item of the issue and checks that the refusal
comes at once, in one sentence, before any counting: the counting functions
are replaced by ones that fail the test, or the refusal is checked against
the work estimate that decides it.
"""
from __future__ import annotations

import pytest

from analysis import cli
from analysis.systems.requiem import beast
from analysis.systems.requiem import dice as requiem


def run(capsys, *argv):
    """``beastodds ARGV``: (exit code, stdout, stderr)."""
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv) -> str:
    """The one error line of a refused command (exit 2, no traceback, nothing on stdout)."""
    code, out, err = run(capsys, *argv)
    assert code == 2, (argv, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("beastodds: error: "), err
    return lines[0][len("beastodds: error: "):]


def one_sentence(exc) -> str:
    text = str(exc.value)
    assert "\n" not in text and text.count(". ") == 0, text
    return text


# ------------------------------------------------------------ 7. negative pools

@pytest.mark.parametrize("call", [
    lambda: beast.odds(-1, 3),
    lambda: beast.table([-1], 3),
    lambda: beast.table([3, -1], 3),
    lambda: beast.distribution_table([-1], 3),
    lambda: beast.character_table(beast.soif_ladder(None, 3, 2, 1), -1),
    lambda: requiem.odds(-1),
    lambda: requiem.table([-1]),
    lambda: requiem.distribution_table(-1),
])
def test_a_negative_requiem_pool_is_refused(call):
    with pytest.raises(ValueError) as exc:
        call()
    assert one_sentence(exc) == "pool must be 0..200, got -1"


def test_soif_refuses_a_negative_pool(capsys):
    assert refused(capsys, "soif", "--resolve", 3, "--composure", 2, "--blood-potency", 1,
                   "--pool", -1) == "--pool must be 0..200, got -1"


@pytest.mark.parametrize("argv", [
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
])
def test_every_pool_and_count_option_refuses_minus_one(capsys, monkeypatch, argv):
    """Every number a command takes (but --jobs, --digits and --top, checked elsewhere)
    refuses -1, naming the option."""
    from analysis import markov, sweep
    from analysis.cli import build_parser
    import argparse

    def no_work(*args, **kwargs):
        raise AssertionError("work started on a negative number")

    monkeypatch.setattr(sweep, "_table", no_work)
    monkeypatch.setattr(markov, "count", no_work)
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    parser = sub.choices[argv[0]]
    numbers = [a.option_strings[-1] for a in parser._actions
               if a.option_strings and a.metavar in ("N", "SPEC")
               and a.option_strings[-1] not in ("--jobs", "--digits", "--top", "--defense",
                                                "--stamina", "--size")]
    assert numbers
    for option in numbers:
        line = list(argv)
        if option in line:
            line[line.index(option) + 1] = "-1"
        else:
            line += [option, "-1"]
        message = refused(capsys, *line)
        assert option in message or option.lstrip("-").replace("-", "_") in message, (line, message)


# ------------------------------------------------------------ 9. --at-least

@pytest.fixture
def no_work(monkeypatch):
    """Any cell counted by a sweep fails the test."""
    from analysis import sweep

    def refuse(*args, **kwargs):
        raise AssertionError("work started before the input was checked")

    monkeypatch.setattr(sweep, "_table", refuse)


@pytest.mark.parametrize("argv, words", [
    (["v5", "--pool", "0-1000", "--hunger", "0-5", "--difficulty", "1-5", "--at-least", "0-100"],
     "--at-least asks for 101 columns over 30,030 cells, 3,033,030 values (limit 1,000,000)"),
    (["classic", "--pool", "0-200", "--difficulty", "2-10", "--at-least", "0-1000"],
     "--at-least asks for 1,001 columns over 1,809 cells"),
    (["werewolf", "--pool", "0-200", "--at-least", "0-1000"], "--at-least asks for 1,001 columns"),
    (["v5", "--pool", "3", "--difficulty", "2", "--at-least", "10001"], "--at-least must be 0..10000"),
    (["requiem", "--pool", "3", "--at-least", "-1"], "--at-least"),
])
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
        code, out, err = run(capsys, "v5", "--pool", "3", "--hunger", "0-5", "--difficulty", "2", "--at-least", "0-3000",
                             "--format", "csv")
    assert code == 0 and err == ""
    header, *rows = out.splitlines()
    assert header.count("p_at_least_") == 3001 and len(rows) == 6
    # three dice count at most 5 successes (a pair of 10s is 4): every N above is exactly 0
    assert all(set(r.split(",")[10 + 6:-1]) == {"0.0"} and r.split(",")[10 + 5] != "0.0" for r in rows)


def test_ways_at_least_is_one_pass():
    from analysis import at_least

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
