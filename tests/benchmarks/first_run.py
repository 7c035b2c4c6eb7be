"""The first run after an install: CPU seconds of each command with numba's cache empty, then of the second run.

Each command runs in a fresh process with ``NUMBA_CACHE_DIR`` set to a new
empty folder, so it compiles every kernel it needs (as a user's first run
does), then once more with that folder kept (a later command).  CPU time is
user + system of the process.  The report is the median over the rounds;
the target for the first V5 table is at most 5 CPU-seconds.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MECHANIC = ROOT / "analysis" / "model" / "examples" / "three-kinds.toml"

COMMANDS = {
    "v5": ["v5", "--pool", "7", "--hunger", "3", "--difficulty", "3"],
    "v5 --strategy maximize_win": [
        "v5",
        "--pool",
        "7",
        "--hunger",
        "3",
        "--difficulty",
        "3",
        "--strategy",
        "maximize_win",
    ],
    "werewolf": ["werewolf", "--pool", "7", "--rage", "2", "--difficulty", "3"],
    "requiem": ["requiem", "--pool", "7", "--soif", "2"],
    "cards": ["cards", "--base", "5", "--difficulty", "12", "--hunger", "1"],
    "classic": ["classic", "--pool", "5", "--difficulty", "6"],
    "a mechanic file": ["table", str(MECHANIC), "--pool", "4"],
}
TARGET = 5.0


def _cpu(argv, env) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, capture_output=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def measure(rounds: int = 3, commands=None) -> dict:
    """``{name: [(first cpu, second cpu) per round]}``, each round with a new empty numba cache."""
    exe = shutil.which("beastodds", path=os.path.dirname(sys.executable))
    base = [exe] if exe else [sys.executable, "-m", "analysis.cli"]
    out: dict = {}
    for _ in range(rounds):
        for name, argv in (commands or COMMANDS).items():
            with tempfile.TemporaryDirectory() as cache:
                env = dict(os.environ, NUMBA_CACHE_DIR=cache)
                first = _cpu(base + argv, env)
                second = _cpu(base + argv, env)
            out.setdefault(name, []).append((first, second))
    return out


def main(rounds: int = 3) -> None:
    print(f"each command with numba's cache empty, then again (CPU s = user + system; medians of {rounds} rounds)")
    for name, runs in measure(rounds).items():
        first = statistics.median(r[0] for r in runs)
        second = statistics.median(r[1] for r in runs)
        target = f"  (target <= {TARGET:.0f} s)" if name == "v5" else ""
        print(f"  beastodds {name:28s} first run {first:5.1f} CPU s, second {second:4.1f} CPU s{target}")


if __name__ == "__main__":
    main()
