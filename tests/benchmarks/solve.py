"""solve stops at its answer: a search with a Willpower strategy against the table of the values it counted.

``solve`` counts the values of the axis searched in order, each over the
cells still without an answer, and stops once every cell has its answer.
This times, in one process after a warm-up (numba's kernels loaded), the
issue's own search, a designer's copy of V5's mechanic file under another
name (``--hunger 0-3 --difficulty 3 --find pool --target 'p_win>=0.7'
--strategy maximize_win``), and the same search on the shipped V5, each
paired round by round with the table of the pools it counted over the same
cells and strategy, the order alternating.  The report is the median of
each time and of the ratios; the target is a median ratio of at most 2.
"""

from __future__ import annotations

import re
import statistics
import tempfile
import time
from pathlib import Path

from analysis.workbench import rulesets
from analysis.engine import strategy_lists as strategies
from analysis.workbench import sweep
from analysis.workbench.solve import solve

TARGET = 2.0
ROOT = Path(__file__).resolve().parents[2]
CELLS = {"hunger": "0-3", "difficulty": "3"}


def _copy_of_v5(folder: Path) -> Path:
    text = (ROOT / "analysis" / "systems" / "v5" / "mechanic.toml").read_text(encoding="utf-8")
    path = folder / "myrule.toml"
    path.write_text(re.sub(r'(?m)^name = "v5"', 'name = "myrule"', text, count=1), encoding="utf-8")
    return path


def _timed(f) -> tuple:
    t = time.process_time()
    out = f()
    return time.process_time() - t, out


def measure(rules, rounds: int = 5) -> dict:
    """CPU seconds of the search and of the table of the values it counted, per round, and those values."""
    rs = rulesets.load(rules)

    def search():
        return solve(rs, "pool", "p_win>=0.7", strategy="maximize_win", **CELLS)

    _, found = _timed(search)  # warm-up
    counted = found.attrs["counted"]
    system = strategies.bound(rulesets.system(rs.system), "maximize_win", rs.name)
    grid = {"pool": counted, **CELLS}

    def table():
        return sweep.tables(system, [rs.rules], grid, exact=True)[0]

    table()
    runs = []
    for i in range(rounds):
        if i % 2:
            s, _ = _timed(search)
            t, _ = _timed(table)
        else:
            t, _ = _timed(table)
            s, _ = _timed(search)
        runs.append((s, t))
    return {"runs": runs, "counted": counted, "answers": found["pool"].tolist()}


def main():
    rounds = 5
    with tempfile.TemporaryDirectory() as folder:
        for label, rules in (("myrule.toml (V5's file, renamed)", _copy_of_v5(Path(folder))), ("v5", "v5-official")):
            got = measure(str(rules), rounds)
            s = statistics.median(r[0] for r in got["runs"])
            t = statistics.median(r[1] for r in got["runs"])
            ratio = statistics.median(r[0] / r[1] for r in got["runs"])
            pools = got["counted"]
            print(
                f"solve {label} --hunger 0-3 --difficulty 3 --find pool --target 'p_win>=0.7' "
                f"--strategy maximize_win: answers {got['answers']}, counted pools {pools[0]}-{pools[-1]}"
            )
            print(
                f"  median of {rounds} (CPU): solve {s * 1000:.0f} ms, the table of those pools {t * 1000:.0f} ms, "
                f"ratio {ratio:.2f} (target <= {TARGET}) {'ok' if ratio <= TARGET else 'OVER'}"
            )
