"""Start-up: a second `beastodds` process against bare `import numpy, pandas, numba`, in one run.

Each command runs once to warm every cache (numba's kernels, Python's
bytecode).  Then, for several rounds, each command is paired with a bare
import run right beside it (the order alternating), so that both meet the
same load on a shared machine; each pair gives a ratio, of wall time and of
CPU time (user + system).  The report is the median over the rounds of each
ratio, and the median times; the target is a median of at most 1.3.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

COMMANDS = {
    "v5": ["v5", "--pool", "3", "--hunger", "1", "--difficulty", "2"],
    "rouse": ["rouse", "--hunger", "1", "--checks", "3"],
    "compare": ["compare", "v5-official", "v5-hunger-dice-added", "--pool", "3", "--hunger", "1", "--difficulty", "2"],
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
    """``{command: [(wall, cpu, bare wall, bare cpu) per round]}``: each run paired with bare imports."""
    exe = shutil.which("beastodds", path=os.path.dirname(sys.executable))
    base = [exe] if exe else [sys.executable, "-m", "analysis.cli"]
    bare = [sys.executable, "-c", "import numpy, pandas, numba"]
    runs = {f"beastodds {name}": base + argv for name, argv in (commands or COMMANDS).items()}
    env = _env()
    for argv in [bare, *runs.values()]:  # warm every cache
        subprocess.run(argv, check=True, capture_output=True, env=env)
    pairs = {name: [] for name in runs}
    for i in range(rounds):
        for name, argv in runs.items():
            if i % 2:
                wall, cpu = _run(argv, env)
                bare_wall, bare_cpu = _run(bare, env)
            else:
                bare_wall, bare_cpu = _run(bare, env)
                wall, cpu = _run(argv, env)
            pairs[name].append((wall, cpu, bare_wall, bare_cpu))
    return pairs


def main():
    rounds = 7
    pairs = measure(rounds)
    print(
        f"start-up of a second process, median of {rounds} runs each paired with bare imports "
        f"(wall, and CPU user+system)"
    )
    for name, runs in pairs.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        wall_ratio = statistics.median(r[0] / r[2] for r in runs)
        cpu_ratio = statistics.median(r[1] / r[3] for r in runs)
        bare = statistics.median(r[2] for r in runs)
        print(
            f"  {name:22s} {wall:6.3f} s wall ({wall_ratio:4.2f}x)   {cpu:6.3f} s CPU ({cpu_ratio:4.2f}x)"
            f"   [bare imports {bare:.3f} s wall]"
        )
    print(f"  target: a median of at most {TARGET}x the bare imports")


if __name__ == "__main__":
    main()
