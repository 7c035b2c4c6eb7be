"""Kernels are cached on disk: a user's second process loads them and compiles nothing."""

import os
import subprocess
import sys

import pytest

COMMANDS = [
    ["v5", "--pool", "7", "--hunger", "3", "--difficulty", "3"],
    ["v5", "--pool", "25", "--hunger", "2", "--difficulty", "9", "--strategy", "maximize_win"],
    ["rouse", "--hunger", "1", "--checks", "3"],
    ["cards", "--base", "5", "--difficulty", "12", "--hunger", "1"],
    ["classic", "--pool", "5", "--difficulty", "6"],
    ["beast", "--pool", "5", "--soif", "2"],
    ["conflict", "--pool-a", "3", "--pool-b", "2"],
    ["werewolf", "--pool", "5", "--rage", "3", "--difficulty", "3", "--violent", "0-1", "--strategy", "maximize_win"],
    ["hunter", "--pool", "25", "--desperation", "2", "--difficulty", "9"],
]


def run_all():
    env = dict(os.environ, NUMBA_DEBUG_CACHE="1")
    log = []
    for argv in COMMANDS:
        done = subprocess.run(
            [sys.executable, "-m", "analysis.cli", *argv], env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr
        log.append(done.stdout + done.stderr)
    return "\n".join(log)


@pytest.mark.slow
def test_second_process_compiles_nothing():
    run_all()  # compiles (and saves) whatever this machine has not cached yet
    second = run_all()
    assert "[cache] data loaded from" in second
    saved = [line for line in second.splitlines() if "[cache] data saved to" in line]
    assert not saved, "a kernel was compiled again in a second process:\n" + "\n".join(saved[:5])
