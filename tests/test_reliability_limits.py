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
