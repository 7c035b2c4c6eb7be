"""Start-up: a second `beastodds` process against bare `import numpy, pandas, numba`, in one run.

Each command runs once to warm every cache (numba's kernels, Python's
bytecode), then the contenders take turns for several rounds and each keeps
its best wall time and its best CPU time (user + system, which a busy
machine disturbs less).  The ratio is the command's cost over the bare
imports'; the target is at most 1.3.
"""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time

COMMANDS = {
    "v5": ["v5", "--pool", "3", "--hunger", "1", "--difficulty", "2"],
    "rouse": ["rouse", "--hunger", "1", "--checks", "3"],
    "compare": ["compare", "v5-official", "v5-hunger-dice-added", "--pool", "3", "--hunger", "1",
                "--difficulty", "2"],
}
TARGET = 1.3


def _env():
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's Python keeps its bytecode
    return env


def _run(argv, env):
    """Wall and CPU seconds of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def measure(rounds: int = 7, commands=None) -> dict:
    """``{name: (best wall, best cpu)}`` for the bare imports and each command."""
    exe = shutil.which("beastodds", path=os.path.dirname(sys.executable))
    base = [exe] if exe else [sys.executable, "-m", "analysis.cli"]
    runs = {"bare imports": [sys.executable, "-c", "import numpy, pandas, numba"]}
    for name, argv in (commands or COMMANDS).items():
        runs[f"beastodds {name}"] = base + argv
    env = _env()
    for argv in runs.values():  # warm every cache
        subprocess.run(argv, check=True, capture_output=True, env=env)
    best = {name: (float("inf"), float("inf")) for name in runs}
    for _ in range(rounds):
        for name, argv in runs.items():
            wall, cpu = _run(argv, env)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


def main():
    best = measure()
    bare_wall, bare_cpu = best["bare imports"]
    print("start-up of a second process, best of 7 (wall, and CPU user+system)")
    for name, (wall, cpu) in best.items():
        print(f"  {name:22s} {wall:6.2f} s wall ({wall / bare_wall:4.2f}x)   "
              f"{cpu:6.2f} s CPU ({cpu / bare_cpu:4.2f}x)")
    print(f"  target: at most {TARGET}x the bare imports")


if __name__ == "__main__":
    main()
