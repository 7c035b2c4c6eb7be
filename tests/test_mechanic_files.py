"""Hostile and broken mechanic files on the command line: each refused with exit 2 and one sentence
naming the file, nothing in them ever run.

A mechanic file is untrusted input (files are shared): ``beastodds table FILE``
parses and checks it, never executes it.  Each test writes a file to a
temporary folder and runs the command in-process (:func:`analysis.cli.main`),
as the other CLI tests do; the mechanics a test registers are taken out again
(``tests/conftest.py``).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analysis import cli
from analysis.workbench import rulesets

ROOT = Path(__file__).resolve().parents[1]

#: A small valid mechanic; the tests below break one part of it.
GOOD = """\
[mechanic]
name = "{name}"
title = "{title}"
successes = "hits"

[parameters]
need = {{ default = 1, range = [1, 3], help = "hits a win needs" }}

[axes]
pool = {{ default = "1-3", range = [0, 10], help = "dice rolled" }}

[kinds.die]
dice = "pool"
faces = {{ one = "1", fail = "2 .. 5", hit = "6 .. 10" }}

[counts]
hits = "{count}"

[[outcomes]]
name = "win"
when = "hits >= need"
win = true
meaning = "{meaning}"

[[outcomes]]
name = "loss"
{catch_all}meaning = "fewer than {{need}} hits"
"""


def mechanic(
    name="hostile", title="A hostile file", count="hit", meaning="at least {need} hits", catch_all="", **replace
) -> str:
    text = GOOD.format(name=name, title=title, count=count, meaning=meaning, catch_all=catch_all)
    for old, new in replace.items():
        text = text.replace(old.replace("_", " "), new)
    return text


def run(capsys, *argv):
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as stop:  # argparse's own checks
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, path, *extra) -> str:
    """Run ``beastodds table PATH``; check exit 2 and one sentence naming the file; return it."""
    code, out, err = run(capsys, "table", path, *extra)
    assert code == 2, (code, out, err)
    assert out == ""
    assert err.startswith("beastodds: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert Path(path).name in err, err
    return err


def write(tmp_path, text, name="hostile.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_the_good_file_works(capsys, tmp_path):
    path = write(tmp_path, mechanic(catch_all=""))
    code, out, err = run(capsys, "table", path, "--pool", "1-2", "--exact")
    assert code == 0, err
    assert "1/2" in out  # one die: a hit on 6..10


@pytest.mark.parametrize(
    "count, said",
    [
        ("__import__('os').system('touch {marker}')", ""),
        ("hit + __import__('os').system('touch {marker}')", ""),
        ("().__class__.__bases__[0].__subclasses__()", ""),
        ("hit.__class__.__mro__", ""),
        ("(lambda: 1)()", "lambda"),
        ("10**10**10", ""),
        ("eval('1')", ""),
        ("open('{marker}', 'w')", ""),
        ("[x for x in range(10)]", "comprehension"),
    ],
)
def test_code_in_a_count_is_refused_and_never_run(capsys, tmp_path, count, said):
    marker = tmp_path / "pwned"
    path = write(tmp_path, mechanic(count=count.format(marker=marker)))
    err = refused(capsys, path)
    assert said in err
    assert "count 'hits'" in err
    assert not marker.exists()


def test_code_in_an_outcome_and_in_the_dice_is_refused(capsys, tmp_path):
    marker = tmp_path / "pwned"
    text = mechanic().replace('when = "hits >= need"', f"when = \"__import__('os').system('touch {marker}') == 0\"")
    refused(capsys, write(tmp_path, text))
    text = mechanic().replace('dice = "pool"', f"dice = \"__import__('os').system('touch {marker}')\"")
    refused(capsys, write(tmp_path, text))
    assert not marker.exists()


def test_deep_long_and_big_expressions_are_refused(capsys, tmp_path):
    err = refused(capsys, write(tmp_path, mechanic(count="(" * 10_000 + "hit" + ")" * 10_000)))
    assert "nest" in err or "long" in err
    err = refused(capsys, write(tmp_path, mechanic(count="hit + " + "1 + " * 250_000 + "1")))
    assert "2000" in err  # a 1 MB expression: longer than any expression may be
    err = refused(capsys, write(tmp_path, mechanic(count="hit * 1000001")))
    assert "1000000" in err or "1,000,000" in err or "1_000_000" in err


def test_a_file_over_a_megabyte_is_refused_before_it_is_read(capsys, tmp_path):
    err = refused(capsys, write(tmp_path, mechanic(count="hit") + "# " + "x" * (1 << 20) + "\n"))
    assert "bytes" in err


def test_a_face_with_two_marks_or_none(capsys, tmp_path):
    err = refused(capsys, write(tmp_path, mechanic(**{'hit = "6 .. 10"': 'hit = "5 .. 10"'})))
    assert "face 5 two marks" in err
    err = refused(capsys, write(tmp_path, mechanic(**{'hit = "6 .. 10"': 'hit = "7 .. 10"'})))
    assert "face 6 no mark" in err
    err = refused(capsys, write(tmp_path, mechanic(**{'hit = "6 .. 10"': 'hit = "6 .. 11"'})))
    assert "11" in err


def test_a_roll_no_outcome_classifies_is_refused_with_its_counts(capsys, tmp_path):
    path = write(tmp_path, mechanic(catch_all='when = "hits == 0"\n'))
    # the loss rule only catches rolls with no hit: one hit against need = 2 is left over
    err = refused(capsys, path, "--pool", "2", "--set", "need=2")
    assert "no outcome rule matches" in err
    assert "hit=1" in err and "need=2" in err


@pytest.mark.parametrize(
    "old, new, said",
    [
        ('[kinds.die]\ndice', '[kinds.die]\ndise', "did you mean dice?"),
        ('faces = {', 'face = {', "did you mean faces?"),
        ('successes = "hits"', 'sucesses = "hits"', "did you mean successes?"),
        ('when = "hits >= need"', 'whne = "hits >= need"', "did you mean when?"),
        ('when = "hits >= need"', 'when = "hitz >= need"', "unknown name 'hitz'"),
        ('[counts]', '[count]', "did you mean counts?"),
    ],
)
def test_unknown_keys_and_names_get_a_did_you_mean(capsys, tmp_path, old, new, said):
    text = mechanic()
    assert old in text
    err = refused(capsys, write(tmp_path, text.replace(old, new, 1)))
    assert said in err


def _taken_names() -> dict:
    """``{name: what it names, in the refusal's words}``: every shipped system, other name and command."""
    from analysis.cli import command_names

    taken = {name: f"the command beastodds {name}" for name in command_names()}
    for s in rulesets.SYSTEMS.values():
        if s.package:
            taken[s.name] = f"the shipped system {s.name}"
            taken.update({alias: f"the shipped system {s.name} (its other name)" for alias in s.aliases})
    return taken


@pytest.mark.parametrize("name", sorted(_taken_names()))
def test_a_file_that_takes_a_system_or_command_name_is_refused_saying_which(capsys, tmp_path, name):
    from analysis.model.spec import RESERVED

    err = refused(capsys, write(tmp_path, mechanic(name=name)))
    if name in RESERVED:  # a word of the format itself (rules), refused as such before
        assert f"[mechanic] name: {name!r} is a reserved word" in err
        return
    assert f"{name!r} is the name of {_taken_names()[name]}" in err
    assert "give the mechanic another name in [mechanic] name" in err


def test_every_command_of_the_parser_is_a_taken_name():
    """The names a mechanic may not take are every command the parser has (none left out)."""
    from analysis.cli import command_names, commands

    assert set(commands()) == command_names()


def test_the_api_refuses_a_shipped_systems_other_name(tmp_path):
    """From Python too: a file named as a shipped system's other name (beast, of requiem) is refused."""
    with pytest.raises(ValueError, match=r"'beast' is the name of the shipped system requiem \(its other name\)"):
        rulesets.load(write(tmp_path, mechanic(name="beast")))


def test_two_different_files_of_one_name(capsys, tmp_path):
    a = write(tmp_path, mechanic(name="twin"), "a.toml")
    b = write(tmp_path, mechanic(name="twin", meaning="a different meaning"), "b.toml")
    code, out, err = run(capsys, "compare", a, b, "--pool", "1")
    assert code == 2 and err.count("\n") == 1 and "b.toml" in err and "already exists" in err


def test_the_same_file_read_again_after_an_edit_gives_the_edit(capsys, tmp_path):
    """A notebook reads a file, the designer edits it, the notebook reads it again: the edited rules
    (another file of that name stays refused, as above)."""
    path = write(tmp_path, mechanic(name="edited"), "mine.toml")
    before = rulesets.load(path)
    path.write_text(mechanic(name="edited", meaning="a meaning written since"))
    after = rulesets.load(path)
    assert after.rules.MECHANIC != before.rules.MECHANIC
    assert rulesets.SYSTEMS["edited"].rules is type(after.rules)
    assert "a meaning written since" in str(after.rules.MECHANIC.meanings())
    other = write(tmp_path, mechanic(name="edited", meaning="a third meaning"), "other.toml")
    with pytest.raises(ValueError, match="a system named 'edited' already exists"):
        rulesets.load(other)


def test_a_meaning_that_names_no_parameter(capsys, tmp_path):
    err = refused(capsys, write(tmp_path, mechanic(meaning="at least {not_a_param} hits")))
    assert "not_a_param" in err and "is not a parameter" in err


@pytest.mark.parametrize(
    "title, said",
    [
        ("red \x1b[31m alert", "not valid TOML"),  # TOML itself refuses a raw ESC: shown escaped
        ("bell \x07", "not valid TOML"),
        ("escape \\u001b[31m written as TOML", "[mechanic] title"),
        ("null \\u0000 byte", "[mechanic] title"),
        ("right-to-left \\u202e override", "[mechanic] title"),
        ("line\\nbreak", "[mechanic] title"),
    ],
)
def test_control_characters_in_a_title(capsys, tmp_path, title, said):
    err = refused(capsys, write(tmp_path, mechanic(title=title)))
    assert said in err
    assert not any(c in err for c in "\x1b\x07\x00\u202e")


def test_not_utf8_a_directory_and_a_device(capsys, tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(mechanic(title="caf\u00e9").encode("latin-1"))
    assert "not UTF-8" in refused(capsys, path)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    assert "directory" in refused(capsys, folder)
    if os.path.exists("/dev/zero"):
        assert "not a regular file" in refused(capsys, "/dev/zero")


def test_not_toml_and_not_a_mechanic(capsys, tmp_path):
    err = refused(capsys, write(tmp_path, "[mechanic]\nname = \n"))
    assert "not valid TOML" in err
    err = refused(capsys, write(tmp_path, '[mechanic]\nname = "nokinds"\n'))
    assert "needs 'kinds'" in err


@pytest.mark.parametrize(
    "old, new, said",
    [
        ('name = "loss"', 'name = "pool"', "axis 'pool'"),
        ("need", "to_dict", "taken by the rules"),
        ("need", "changes", "taken by the rules"),
        ("need", "format", "reserved"),
        ("need", "mechanic", "reserved"),
        ("pool", "Pool", "lowercase"),
    ],
)
def test_names_that_would_clash(capsys, tmp_path, old, new, said):
    text = mechanic().replace(old, new, 1) if old.startswith("name") else mechanic().replace(old, new)
    err = refused(capsys, write(tmp_path, text))
    assert said in err


def test_a_rule_set_naming_a_broken_or_missing_mechanic(capsys, tmp_path):
    variant = write(tmp_path, 'system = "hostile"\nmechanic = "missing.toml"\nneed = 2\n', "variant.toml")
    err = refused(capsys, variant)
    assert "missing.toml" in err and "no such mechanic file" in err
    write(tmp_path, mechanic(count="(lambda: 1)()"), "broken.toml")
    variant.write_text('system = "hostile"\nmechanic = "broken.toml"\n')
    err = refused(capsys, variant)
    assert "broken.toml" in err and "calls are limited" in err
    write(tmp_path, 'system = "v5"\n', "plain.toml")
    variant.write_text('mechanic = "plain.toml"\n')
    err = refused(capsys, variant)
    assert "not a mechanic file" in err
    write(tmp_path, mechanic(), "good.toml")
    variant.write_text('system = "v5"\nmechanic = "good.toml"\n')
    err = refused(capsys, variant)
    assert "names the system 'hostile'" in err


def test_bad_values_on_the_command_line_are_one_sentence(capsys, tmp_path):
    path = write(tmp_path, mechanic())
    for extra, said in (
        (("--set", "need=9"), "need must be 1..3"),
        (("--set", "nede=2"), "did you mean need"),
        (("--pool", "11"), "--pool"),
        (("--hunger", "1"), "not an axis of hostile"),
        (("--at-least", "x"), "at-least"),
    ):
        code, out, err = run(capsys, "table", path, *extra)
        assert code == 2 and err.count("\n") == 1 and said in err, (extra, err)


@pytest.mark.slow
def test_a_payload_is_not_run_by_the_real_command(tmp_path):
    """The installed command, as a user runs it, in its own process."""
    marker = tmp_path / "pwned"
    path = write(tmp_path, mechanic(count=f"__import__('os').system('touch {marker}')"))
    proc = subprocess.run(
        [sys.executable, "-m", "analysis.cli", "table", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "hostile.toml" in proc.stderr and "Traceback" not in proc.stderr
    assert not marker.exists()


@pytest.mark.parametrize(
    "command",
    [
        ("table", "{f}", "--help"),
        ("compare", "{f}", "{f}"),
        ("compare", "v5-official", "{f}"),
        ("rules", "{f}"),
        ("booklet", "{f}", "-o", "{out}"),
        ("page", "{f}", "-o", "{out}"),
    ],
)
def test_every_command_that_takes_a_file_refuses_a_hostile_one(capsys, tmp_path, command):
    marker = tmp_path / "pwned"
    path = write(tmp_path, mechanic(count=f"__import__('os').system('touch {marker}')"))
    out_file = tmp_path / "booklet.html"
    code, out, err = run(capsys, *(w.format(f=path, out=out_file) for w in command))
    assert code == 2 and out == "" and err.count("\n") == 1 and "hostile.toml" in err, err
    assert not marker.exists() and not out_file.exists()
