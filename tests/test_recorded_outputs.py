"""Every recorded command prints what it printed when it was recorded, byte for byte.

The commands below cover each system's command, the workbench (table, compare, solve, rules, page), mechanic
files, the output formats and a few refusals. Their outputs were recorded before the house was rearranged
(moving a module must change no number, no word and no exit code), and stay recorded: a change to an output
is made on purpose, by recording again::

    .venv/bin/python -m tests.test_recorded_outputs --record

and the diff of ``tests/recorded/`` shows what changed. A file the command writes (``page``) is recorded by its
SHA-256.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORDED = Path(__file__).resolve().parent / "recorded"
EXAMPLES = "analysis/model/examples"
WRITTEN = "{written.html}"  # stands for a file the command writes; its SHA-256 is recorded

COMMANDS: dict[str, list[str]] = {
    "v5-grid": ["v5", "--pool", "1-6", "--hunger", "0-3", "--difficulty", "2-3"],
    "v5-strategies": [
        "v5",
        "--pool",
        "4",
        "--hunger",
        "2",
        "--difficulty",
        "3",
        "--strategy",
        "none,reroll_failures,maximize_win,avoid_messy",
        "--exact",
    ],
    "v5-distribution": ["v5", "--pool", "3", "--hunger", "1", "--difficulty", "2", "--distribution", "--exact"],
    "v5-pivot": [
        "v5",
        "--pool",
        "1-4",
        "--hunger",
        "1-3",
        "--difficulty",
        "3",
        "--pivot",
        "pool x hunger",
        "--value",
        "p_win,bestial_failure,messy_critical",
        "--percent",
        "--digits",
        "1",
    ],
    "v5-csv": ["v5", "--pool", "3", "--hunger", "3", "--difficulty", "3", "--format", "csv", "--exact"],
    "rouse": ["rouse", "--hunger", "0-2", "--checks", "1-3", "--exact"],
    "conflict": ["conflict", "--pool-a", "5", "--hunger-a", "2", "--pool-b", "4", "--exact"],
    "fight": [
        "fight",
        "--pool-a",
        "7",
        "--hunger-a",
        "2",
        "--damage-a",
        "aggravated",
        "--pool-b",
        "6",
        "--mortal-b",
        "--stamina-b",
        "3",
        "--weapon-b",
        "2",
        "--turns",
        "3",
        "--percent",
    ],
    "requiem-default": ["requiem"],
    "requiem-tempt": ["requiem", "--pool", "2", "--soif", "2", "--tempt", "--format", "csv", "--exact"],
    "soif": ["soif", "--max-vitae", "11", "--resolve", "3", "--composure", "2", "--blood-potency", "2"],
    "cards": ["cards", "--base", "5", "--difficulty", "12", "--hunger", "0-2", "--exact"],
    "werewolf": ["werewolf", "--pool", "6", "--rage", "2-4", "--difficulty", "3", "--violent", "0-1"],
    "hunter": ["hunter", "--pool", "4", "--desperation", "0-3", "--difficulty", "3", "--exact"],
    "classic": ["classic", "--pool", "3-5", "--difficulty", "6", "--exact"],
    "damage": [
        "damage",
        "--dice",
        "4",
        "--auto",
        "2",
        "--soak",
        "2",
        "--kind",
        "bashing",
        "--target",
        "vampire",
        "--format",
        "csv",
        "--exact",
    ],
    "blows": [
        "blows",
        "--dice",
        "5",
        "--soak",
        "2",
        "--kind",
        "lethal",
        "--target",
        "mortal",
        "--max-blows",
        "3",
        "--exact",
    ],
    "versus": [
        "versus",
        "requiem",
        "v5",
        "--difficulty",
        "3",
        "--pairing",
        "chance",
        "--pool",
        "4-6",
        "--hunger",
        "2",
        "--exact",
    ],
    "versus-cards": [
        "versus",
        "cards",
        "v5",
        "--difficulty",
        "2",
        "--pairing",
        "rating",
        "--attribute",
        "3",
        "--skill",
        "1-3",
        "--hunger",
        "1",
        "--card-difficulty",
        "10,12",
        "--percent",
    ],
    "compare": [
        "compare",
        "v5-official",
        "v5-two-hunger-ones-for-bestial",
        "--pool",
        "1-10",
        "--hunger",
        "0-5",
        "--difficulty",
        "3",
        "--top",
        "3",
        "--percent",
    ],
    "compare-files": [
        "compare",
        "v5-official",
        f"{EXAMPLES}/hunger-one-cancels.toml",
        "--pool",
        "4",
        "--hunger",
        "2",
        "--difficulty",
        "3",
        "--strategy",
        "none,maximize_win",
        "--outcome",
        "p_win,willpower_spent,p_win_gain",
        "--exact",
    ],
    "table-file": [
        "table",
        f"{EXAMPLES}/three-kinds.toml",
        "--pool",
        "2-4",
        "--hunger",
        "1",
        "--blood",
        "0-2",
        "--difficulty",
        "3",
        "--exact",
    ],
    "table-again": [
        "table",
        f"{EXAMPLES}/nine-again-rerolled-ones.toml",
        "--pool",
        "1-4",
        "--at-least",
        "2,3",
        "--exact",
    ],
    "table-requiem-file": [
        "table",
        "analysis/systems/requiem/dice.toml",
        "--pool",
        "0-3",
        "--set",
        "rote=true",
        "--exact",
    ],
    "table-distribution": [
        "table",
        "analysis/systems/requiem/soif.toml",
        "--pool",
        "3",
        "--soif",
        "2",
        "--distribution",
        "--exact",
    ],
    "table-markdown": [
        "table",
        f"{EXAMPLES}/three-kinds.toml",
        "--pool",
        "4",
        "--hunger",
        "2",
        "--blood",
        "0-2",
        "--difficulty",
        "3",
        "--set",
        "surge_bonus=2",
        "--format",
        "markdown",
    ],
    "solve-pool": [
        "solve",
        "v5",
        "--hunger",
        "2",
        "--difficulty",
        "4",
        "--find",
        "pool",
        "--target",
        "p_win>=0.7",
        "--exact",
    ],
    "solve-field": [
        "solve",
        "werewolf",
        "--pool",
        "7",
        "--rage",
        "3",
        "--difficulty",
        "4",
        "--violent",
        "1",
        "--find",
        "brutal_bonus",
        "--target",
        "p_win~0.75",
    ],
    "rules": ["rules"],
    "rules-show": ["rules", "requiem-la-soif"],
    "page": [
        "page",
        "v5-official",
        "v5-two-hunger-ones-for-bestial",
        "--pool",
        "1-6",
        "--hunger",
        "0-3",
        "--difficulty",
        "2-3",
        "--output",
        WRITTEN,
    ],
    "refuse-hunger": ["v5", "--pool", "3", "--hunger", "7", "--difficulty", "2"],
    "refuse-file": ["table", f"{EXAMPLES}/missing.toml"],
    "refuse-option": ["requiem", "--soif", "9"],
}


def _run(argv: list[str], tmp: Path) -> str:
    """What one command shows: its exit code, its output, its errors, and the SHA-256 of a file it writes."""
    from analysis import cli

    written = tmp / "written.html"
    argv = [str(written) if a == WRITTEN else a for a in argv]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as stop:
            code = stop.code
    text = f"$ beastodds {' '.join(argv)}\nexit {code}\n--- stdout\n{out.getvalue()}--- stderr\n{err.getvalue()}"
    if WRITTEN in text or written.exists():
        text = text.replace(str(written), WRITTEN)
        digest = hashlib.sha256(written.read_bytes()).hexdigest() if written.exists() else "none"
        text += f"--- {WRITTEN} sha256\n{digest}\n"
    return text


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_output_is_as_recorded(name, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    recorded = (RECORDED / f"{name}.txt").read_text(encoding="utf-8")
    assert _run(COMMANDS[name], tmp_path) == recorded


def test_every_recording_has_its_command():
    assert sorted(p.stem for p in RECORDED.glob("*.txt")) == sorted(COMMANDS)


def _record() -> None:
    import os
    import tempfile

    os.chdir(ROOT)
    RECORDED.mkdir(exist_ok=True)
    for name, argv in COMMANDS.items():
        with tempfile.TemporaryDirectory() as tmp:
            (RECORDED / f"{name}.txt").write_text(_run(argv, Path(tmp)), encoding="utf-8")
        print(name, file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python -m tests.test_recorded_outputs --record")
    _record()
