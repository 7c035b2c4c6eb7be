"""Sweeps over big grids: a system's odds table in chunks, on several cores, with a progress bar.

The exact answer does not depend on how the grid is cut: every cell is
counted on its own, so ``jobs=4`` gives the very same table (the same
Fractions, the same floats) as ``jobs=1``.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import shutil
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool

import numpy as np
import pandas as pd

from . import rulesets
from .validate import as_values, check_int

#: Grids above this many cells are refused: a bigger table has no use and
#: would not fit in memory as exact Fractions.
MAX_CELLS = 1_000_000
#: At most this many jobs (processes).
MAX_JOBS = 64
#: A grid is cut into at most this many chunks per job (for the progress bar
#: and an even load; one chunk is one call of the system's table function).
CHUNKS_PER_JOB = 8


def resolve_grid(system, grid=None) -> dict:
    """``{axis: [values]}`` for every axis of ``system``: given SPECs, else the defaults.

    Raises ValueError for an axis the system does not have, a malformed
    SPEC, or a grid of more than ``MAX_CELLS`` cells.
    """
    system = rulesets.system(system)
    grid = {} if grid is None else dict(grid)
    unknown = [k for k in grid if k not in system.axis_names]
    if unknown:
        raise ValueError(f"a {system.name} grid has no axis {unknown[0]!r}; its axes are "
                         f"{', '.join(system.axis_names)}")
    out = {}
    for axis, default in system.axes:
        spec = grid.get(axis)
        # no upper bound here: the system's table refuses a value with its own range
        values = as_values(axis, default if spec is None else spec, 0, math.inf)
        out[axis] = list(dict.fromkeys(values))
    cells = math.prod(len(v) for v in out.values())
    if cells > MAX_CELLS:
        raise ValueError(f"the grid has {cells} cells, more than {MAX_CELLS}; narrow a SPEC")
    return out


def check_jobs(jobs) -> int:
    """Processes to use: ``jobs`` (1..64), or every core the process may use for 0."""
    jobs = check_int("jobs", jobs, 0, MAX_JOBS)
    if jobs == 0:
        try:
            jobs = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            jobs = os.cpu_count() or 1
    return jobs


def progress_bar(total: int, desc: str, unit: str, show: bool):
    """A tqdm bar on stderr (``show=False``: a silent one).

    The terminal's size comes from ``shutil`` (80 x 24 when the terminal
    reports none), since tqdm hides its bar on a terminal that says it has
    no lines.
    """
    from tqdm import tqdm

    size = shutil.get_terminal_size()
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=not show,
                ncols=min(size.columns, 100), nrows=max(size.lines, 2))


def _chunks(grid: dict, n: int) -> list:
    """Cut the grid along its longest axis into ``n`` interleaved chunks (an even load)."""
    axis = max(grid, key=lambda a: len(grid[a]))
    n = max(1, min(n, len(grid[axis])))
    return [{**grid, axis: grid[axis][i::n]} for i in range(n)]


def _table(system, rules, grid: dict, exact: bool) -> pd.DataFrame:
    """One chunk: the system's table function over a grid (runs in a worker process)."""
    return system.table_function(*(grid[a] for a in system.axis_names), rules=rules, exact=exact)


def _in_grid_order(frames: list, grid: dict) -> pd.DataFrame:
    df = pd.concat(frames, ignore_index=True)
    missing = [a for a in grid if a not in df.columns]
    if missing:
        raise RuntimeError(f"the table has no column for the axis {missing[0]!r}")
    keys = [df[a].map({v: i for i, v in enumerate(vals)}).to_numpy() for a, vals in grid.items()]
    order = np.lexsort(keys[::-1])
    return df.iloc[order].reset_index(drop=True)


def tables(system, rules_list, grid=None, *, exact: bool = False, jobs: int = 1,
           progress: bool = False, desc: str | None = None) -> list:
    """The tidy tables of several rule sets of one system over one grid.

    Parameters
    ----------
    system : str or rulesets.System
    rules_list : sequence of rules dataclass instances (or RuleSets)
    grid : dict, optional
        ``{axis: SPEC}``; missing axes take the system's defaults.
    exact : bool
        Fractions instead of floats.
    jobs : int
        Processes: 1 (default) runs here; N > 1 spreads the chunks over N
        worker processes; 0 uses every core.  The result is identical.
    progress : bool
        A tqdm progress bar on stderr.
    desc : str, optional
        The progress bar's label.

    Returns
    -------
    list of DataFrame
        One per rule set, each exactly what one call of the system's table
        function over the whole grid returns (rows in grid order).
    """
    system = rulesets.system(system)
    grid = resolve_grid(system, grid)
    jobs = check_jobs(jobs)
    rules_list = [r.rules if isinstance(r, rulesets.RuleSet) else r for r in rules_list]
    for r in rules_list:
        if type(r) is not system.rules_class:
            raise ValueError(f"a {system.name} sweep needs {system.rules_class.__name__} rules, "
                             f"got {type(r).__name__}")
    chunks = _chunks(grid, CHUNKS_PER_JOB * jobs)
    tasks = [(i, c) for i in range(len(rules_list)) for c in chunks]
    results = [None] * len(tasks)
    bar = progress_bar(len(tasks), desc or system.name, "chunk", progress)
    try:
        if jobs == 1 or len(tasks) == 1:
            for k, (i, c) in enumerate(tasks):
                results[k] = _table(system, rules_list[i], c, exact)
                bar.update()
        else:
            # spawn, not fork: numba and tqdm may hold threads in this process
            ctx = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=ctx) as pool:
                futures = {pool.submit(_table, system, rules_list[i], c, exact): k
                           for k, (i, c) in enumerate(tasks)}
                try:
                    for fut in as_completed(futures):
                        results[futures[fut]] = fut.result()
                        bar.update()
                except BrokenProcessPool:
                    raise ValueError(f"the {jobs} worker processes stopped before the end (out of "
                                     f"memory, or a program read from stdin that they cannot "
                                     f"re-import); try fewer jobs, a smaller grid or jobs=1") from None
                except BaseException:
                    for fut in futures:
                        fut.cancel()
                    raise
    finally:
        bar.close()
    n = len(chunks)
    return [_in_grid_order(results[i * n:(i + 1) * n], grid) for i in range(len(rules_list))]


def table(rules, grid=None, *, exact: bool = False, jobs: int = 1, progress: bool = False) -> pd.DataFrame:
    """The tidy odds table of one rule set (a shipped name, a TOML path or a rules object) over a grid."""
    rs = rulesets.load(rules)
    return tables(rs.system, [rs.rules], grid, exact=exact, jobs=jobs, progress=progress,
                  desc=rs.name)[0]
