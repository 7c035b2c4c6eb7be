"""Sweeps over big grids: a system's odds table in chunks, on several cores, with a progress bar.

The exact answer does not depend on how the grid is cut: every cell is
counted on its own, so ``jobs=4`` gives the very same table (the same
Fractions, the same floats) as ``jobs=1``.
"""

from __future__ import annotations

import dataclasses
import gc
import itertools
import math
import os
import signal
import time
from concurrent.futures import as_completed

import numpy as np
import pandas as pd

from analysis.workbench import rulesets
from analysis.engine.distribution import no_count
from analysis.engine.progress import progress_bar
from analysis.model.validate import as_values, check_bool, check_cells, check_int
from analysis.engine import seam

#: At most this many jobs (processes).
MAX_JOBS = 64
#: With worker processes, a grid is cut into this many chunks per job (one
#: chunk is one call of the system's table function), at most ``MAX_CHUNKS``.
CHUNKS_PER_JOB = 32
MAX_CHUNKS = 2000
#: In this process, the grid is counted in calls of about this many seconds
#: (the progress bar moves, and Ctrl-C is seen, between calls).
CALL_SECONDS = 0.25
#: Memory a worker process takes (numba, numpy, pandas and its tables): the
#: number of jobs is capped by the available memory over this.
WORKER_MEMORY = 250 * 2**20


def resolve_grid(system, grid=None, names: dict | None = None) -> dict:
    """``{axis: [values]}`` for every axis of ``system``: given SPECs, else the defaults.

    Every value is checked against the system's axis limits
    (``System.limits``; from 0 at least for a SPEC, which writes no minus)
    and the size against ``MAX_CELLS`` here, before any
    cell is counted; a range is checked before it is expanded.  ``names``
    (``{axis: "--pool"}``) says how messages name an axis (default: its
    name).

    Raises ValueError for an axis the system does not have, a malformed
    SPEC, a value out of the axis' limits, or a grid of more than
    ``MAX_CELLS`` cells.
    """
    system = rulesets.system(system)
    grid = {} if grid is None else dict(grid)
    names = {} if names is None else names
    unknown = [k for k in grid if k not in system.axis_names]
    if unknown:
        raise ValueError(
            f"a {system.name} grid has no axis {unknown[0]!r}; its axes are {', '.join(system.axis_names)}"
        )
    limits = dict(system.limits)
    out = {}
    for axis, default in system.axes:
        spec = grid.get(axis)
        lo, hi = limits.get(axis, (0, None))
        if spec is None or isinstance(spec, str):  # a SPEC writes no minus: its range reads from 0 at least
            lo = max(lo, 0)
        values = as_values(names.get(axis, axis), default if spec is None else spec, lo, hi)
        out[axis] = list(dict.fromkeys(values))
    check_cells({names.get(a, a): len(v) for a, v in out.items()})
    return out


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def available_memory() -> int | None:
    """Bytes of memory available to new processes (``MemAvailable``), or None when unknown."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def jobs_cap() -> int:
    """The most worker processes worth starting: one per usable core, and as many as
    ``WORKER_MEMORY`` each fits in the available memory (at least 1)."""
    cap = usable_cores()
    memory = available_memory()
    if memory is not None:
        cap = min(cap, memory // WORKER_MEMORY)
    return max(1, min(cap, MAX_JOBS))


def check_jobs(jobs) -> int:
    """Processes to use: ``jobs`` (0..64; 0: every usable core), capped by :func:`jobs_cap`.

    More processes than cores gain nothing and each worker takes about
    ``WORKER_MEMORY``: a request above the cap runs with the cap (the
    command line says so in one line).
    """
    jobs = check_int("jobs", jobs, 0, MAX_JOBS)
    cap = jobs_cap()
    return cap if jobs == 0 else min(jobs, cap)


def _chunks(grid: dict, most: int = MAX_CHUNKS) -> list:
    """Cut the grid into chunks for worker processes: one value of each axis but the
    last, as far as ``most`` chunks allow (an axis with more values than that is cut
    into interleaved groups, an even load).  The first axes are the costly ones (the
    pool, the Hunger)."""
    axes = list(grid)
    groups = {a: [grid[a]] for a in axes}
    n = 1
    for a in axes[:-1] if len(axes) > 1 else axes:
        k = max(1, min(len(grid[a]), most // n))
        groups[a] = [grid[a][i::k] for i in range(k)]
        n *= k
    return [dict(zip(axes, combo)) for combo in itertools.product(*(groups[a] for a in axes))]


def _table(system, rules, grid: dict, exact: bool) -> pd.DataFrame:
    """One chunk: the system's table function over a grid (runs in a worker process)."""
    return system.table(*(grid[a] for a in system.axis_names), rules=rules, exact=exact)


@dataclasses.dataclass(frozen=True)
class _ForWorkers:
    """What a worker process needs of a system: its table function and axis names.  The system itself
    is not sent: a mechanic file's holds a rules class made at run time, which a worker cannot import."""

    table: object
    axis_names: tuple


def _ignore_interrupt() -> None:
    """A worker ignores Ctrl-C: the main process sees it and stops the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_workers(system, rules_list, tasks, results, exact, jobs, bar) -> None:
    """Count ``tasks`` in ``jobs`` worker processes, filling ``results``.

    On Ctrl-C (or any error) the queued chunks are dropped and the workers
    are terminated at once, rather than left to finish the chunks they hold.
    """
    # multiprocessing only here (through the seam): a grid counted in this process needs none of it;
    # spawn, not fork: numba and tqdm may hold threads in this process
    ctx = seam.multiprocessing.get_context("spawn")
    _quiet_tracker()
    pool = seam.process_pool.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_ignore_interrupt)
    try:
        sent = _ForWorkers(system.table, tuple(system.axis_names))
        futures = {pool.submit(_table, sent, rules_list[i], c, exact): k for k, (i, c) in enumerate(tasks)}
        for fut in as_completed(futures):
            results[futures[fut]] = fut.result()
            bar.update()
    except seam.process_pool.BrokenProcessPool:
        _stop(pool)
        del pool  # dropped before the error travels up
        raise ValueError(
            f"the {jobs} worker processes stopped before the end (out of "
            f"memory, or a program read from stdin that they cannot "
            f"re-import); try fewer jobs, a smaller grid or jobs=1"
        ) from None
    except BaseException:
        _stop(pool)
        del pool
        raise
    pool.shutdown()


def _quiet_tracker() -> None:
    """Start multiprocessing's resource tracker told not to warn of the semaphores of
    workers stopped by Ctrl-C (it frees them all the same): one line on Ctrl-C, no more."""
    old = os.environ.get("PYTHONWARNINGS")
    os.environ["PYTHONWARNINGS"] = ",".join(filter(None, [old, "ignore:resource_tracker:UserWarning"]))
    try:
        seam.resource_tracker.ensure_running()  # a tracker already running is kept as it is
    finally:
        if old is None:
            del os.environ["PYTHONWARNINGS"]
        else:
            os.environ["PYTHONWARNINGS"] = old


def _stop(pool) -> None:  # the caller drops its reference to the pool then
    """Drop a pool's queued work and terminate its worker processes now."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(timeout=5)
    # the workers are gone: the pool notices at once; its queues are freed now
    # (not at exit, where multiprocessing would warn of leaked semaphores)
    pool.shutdown(wait=True, cancel_futures=True)
    for queue in (getattr(pool, "_call_queue", None), getattr(pool, "_result_queue", None)):
        if queue is not None:
            queue.close()
            if hasattr(queue, "join_thread"):
                queue.join_thread()
    del pool, processes
    gc.collect()


def _in_grid_order(frames: list, grid: dict) -> pd.DataFrame:
    df = pd.concat(frames, ignore_index=True)
    missing = [a for a in grid if a not in df.columns]
    if missing:
        raise RuntimeError(f"the table has no column for the axis {missing[0]!r}")
    keys = [df[a].map({v: i for i, v in enumerate(vals)}).to_numpy() for a, vals in grid.items()]
    order = np.lexsort(keys[::-1])
    return df.iloc[order].reset_index(drop=True)


def tables(
    system,
    rules_list,
    grid=None,
    *,
    exact: bool = False,
    jobs: int = 1,
    progress: bool = False,
    desc: str | None = None,
    names: dict | None = None,
) -> list:
    """The tidy tables of several rule sets of one system over one grid.

    Everything (the axis values and their limits, the grid's size, the
    rules, ``jobs``, and the work of the whole grid where the table function
    can size it: its ``check_only``) is checked before the first cell is counted.  The grid
    is counted in small chunks (about one kernel call each), so the progress
    bar moves and Ctrl-C stops the sweep within about a second, worker
    processes included.

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
    names : dict, optional
        ``{axis: "--pool"}``: how messages name an axis (default: its name).

    Returns
    -------
    list of DataFrame
        One per rule set, each exactly what one call of the system's table
        function over the whole grid returns (rows in grid order).
    """
    exact, progress = check_bool("exact", exact), check_bool("progress", progress)
    system = rulesets.system(system)
    grid = resolve_grid(system, grid, names)
    jobs = check_jobs(jobs)
    rules_list = [r.rules if isinstance(r, rulesets.RuleSet) else r for r in rules_list]
    for r in rules_list:
        if type(r) is not system.rules:
            raise ValueError(f"a {system.name} sweep needs {system.rules.__name__} rules, got {type(r).__name__}")
    if system.takes("check_only"):  # the work of the whole grid, first
        for r in rules_list:
            system.table(*(grid[a] for a in system.axis_names), rules=r, exact=exact, check_only=True)
    if jobs == 1:
        out = []
        for r in rules_list:
            frames = _here(system, r, grid, exact, progress, desc or system.name)
            out.append(_in_grid_order(frames, grid))
        return out
    chunks = _chunks(grid, CHUNKS_PER_JOB * jobs)
    tasks = [(i, c) for i in range(len(rules_list)) for c in chunks]
    results = [None] * len(tasks)
    bar = progress_bar(len(tasks), desc or system.name, "chunk", progress)
    try:
        _in_workers(system, rules_list, tasks, results, exact, min(jobs, len(tasks)), bar)
    finally:
        bar.close()
    n = len(chunks)
    return [_in_grid_order(results[i * n : (i + 1) * n], grid) for i in range(len(rules_list))]


def _here(system, rules, grid: dict, exact: bool, show: bool, desc: str) -> list:
    """Count a grid in this process in calls of about ``CALL_SECONDS`` each.

    The grid is walked along its first axis (the costly one: the pool): a
    call takes a batch of its values, the batch doubling while calls are
    quick and halving when they are slow; once one value alone is slow, each
    value of the second axis (the Hunger) gets its own call.  The bar moves
    and Ctrl-C is seen between calls, and a cheap grid still takes few calls.
    A system that counts the whole first axis for the cost of its largest value
    (``whole_first_axis``) gets it whole in each call, one call per value of the
    second axis.
    """
    axes = list(grid)
    first, values = axes[0], grid[axes[0]]
    per_value = math.prod(len(grid[a]) for a in axes[1:])
    frames = []
    size, split = 1, False
    if system.whole_first_axis:
        size, split = len(values), len(axes) > 1
    bar = progress_bar(len(values) * per_value, desc, "cell", show)
    try:
        i = 0
        while i < len(values):
            batch = values[i : i + size]
            parts = (
                [{**grid, first: batch, axes[1]: [v]} for v in grid[axes[1]]]
                if split and (len(axes) > 2 or system.whole_first_axis)
                else [{**grid, first: batch}]
            )
            start = time.monotonic()
            for part in parts:
                frames.append(_table(system, rules, part, exact))
                bar.update(math.prod(len(v) for v in part.values()))
            took = time.monotonic() - start
            i += len(batch)
            if took < CALL_SECONDS / 4:
                size *= 2
            elif took > CALL_SECONDS:
                size = max(1, size // 2)
                split = split or (len(batch) == 1 and len(parts) == 1 and took > 4 * CALL_SECONDS)
    finally:
        bar.close()
    return frames


def table(rules, grid=None, *, exact: bool = False, jobs: int = 1, progress: bool = False) -> pd.DataFrame:
    """The tidy odds table of one rule set over a grid.

    Parameters
    ----------
    rules : str, Path, RuleSet or rules object
        A shipped rule set's name (``"v5-official"``), a rule-set TOML file,
        a mechanic file or a rules dataclass instance.
    grid : dict, optional
        ``{axis: SPEC}`` (``{"pool": "1-10", "hunger": "0-5", "difficulty":
        3}``); an axis left out takes the system's default SPEC.
    exact : bool
        Fractions instead of floats (each float is ``float()`` of its Fraction).
    jobs, progress
        As in :func:`tables`.

    Returns
    -------
    pandas.DataFrame
        One row per cell: the axes, every outcome class and the system's other columns.

    Examples
    --------
    >>> table("v5-official", {"pool": "7", "hunger": "2", "difficulty": "3"}, exact=True)["p_win"].iloc[0]
    Fraction(39, 50)
    """
    rs = rulesets.load(rules)
    return tables(rs.system, [rs.rules], grid, exact=exact, jobs=jobs, progress=progress, desc=rs.name)[0]


def distribution_table(rules, grid=None, *, exact: bool = False, max_successes=None) -> pd.DataFrame:
    """The exact distribution of successes of one rule set over a grid: one row per cell and success count.

    Parameters
    ----------
    rules : str, Path, RuleSet or rules object
        As for :func:`table`; its system must count successes (V5, Werewolf,
        Hunter, Requiem, classic pools, a mechanic file naming ``successes``).
    grid : dict, optional
        ``{axis: SPEC}``; an axis left out takes the system's default SPEC.
    exact : bool
        Fractions instead of floats.
    max_successes : int, optional
        The last count listed, its ``p_more`` the exact chance of more (dice
        that roll again are listed to 20 by default); None: every count.

    Returns
    -------
    pandas.DataFrame
        The axes, ``successes``, ``p_exactly``, ``p_at_least``, ``p_more`` and,
        where it is exact, ``mean_successes``.

    Examples
    --------
    >>> df = distribution_table("v5-official", {"pool": "2", "hunger": "0", "difficulty": "1"}, exact=True)
    >>> df[["successes", "p_exactly"]].values.tolist()
    [[0, Fraction(1, 4)], [1, Fraction(1, 2)], [2, Fraction(6, 25)], [3, Fraction(0, 1)], [4, Fraction(1, 100)]]
    """
    rs = rulesets.load(rules)
    system = rulesets.system(rs.system)
    function = system.distribution
    if function is None:
        raise no_count(system)
    resolved = resolve_grid(system, grid)
    return function(*(resolved[a] for a in system.axis_names), rules=rs.rules, exact=exact, max_successes=max_successes)
