"""Unbounded work is refused up front, checked before it starts, shown and interruptible.

None of these tests runs a long job: a refusal must come before any cell is
counted (the worker is replaced by one that fails the test), and Ctrl-C is
tried on a sweep whose chunks are made slow on purpose.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from analysis.engine import markov, progress
from analysis.workbench import sweep
from analysis.workbench import rulesets
from analysis.cli import main
from analysis.options import common
from analysis.engine.progress import NoBar
from analysis.model.validate import MAX_SPEC_VALUES, check_cells, parse_spec

ROOT = Path(__file__).resolve().parent.parent


def _no_work(*args, **kwargs):
    raise AssertionError("work started before the input was checked")


@pytest.fixture
def no_work(monkeypatch):
    """Any cell counted by a sweep, a chain or a conflict fails the test."""
    from analysis.systems.v5 import conflict, rouse

    monkeypatch.setattr(sweep, "_table", _no_work)
    monkeypatch.setattr(markov, "count", _no_work)
    monkeypatch.setattr(conflict, "conflict_table", _no_work)
    monkeypatch.setattr(rouse, "table", _no_work)
    from analysis.systems.cards import deck

    monkeypatch.setattr(deck, "opposed_table", _no_work)


def _error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("beastodds: error: ") and err.count("\n") == 1, err
    return err


# ----------------------------------------------------------- 1. size checks


@pytest.mark.parametrize(
    "argv, words",
    [
        (
            ["v5", "--pool", "0-100", "--hunger", "0-5", "--difficulty", "0-30000"],
            "this grid has 18,180,606 cells (limit 1,000,000); narrow a SPEC (--difficulty has 30,001",
        ),
        (
            ["cards", "--base", "0-1000", "--difficulty", "0-1000", "--hunger", "0-5"],
            "this grid has 6,012,006 cells (limit 1,000,000); narrow a SPEC (--base has 1,001",
        ),
        (["table", "v5-official", "--pool", "0-1000", "--difficulty", "0-1000"], "this grid has 6,012,006 cells"),
        (
            ["compare", "v5-official", "v5-official", "--pool", "0-1000", "--difficulty", "0-1000"],
            "this grid has 6,012,006 cells",
        ),
        (
            ["conflict", "--pool-a", "1-100", "--pool-b", "1-100", "--hunger-a", "0-5"],
            "this conflict has 60,000 cells (limit 20,000)",
        ),
        (
            ["cards", "--opposed", "--base", "0-1000", "--defense", "0-1000", "--hunger", "0-5"],
            "this grid has 6,012,006 cells (limit 1,000,000); narrow a SPEC (--base has 1,001",
        ),
        (
            ["damage", "--dice", "0-200", "--soak", "0-50", "--kind", "lethal", "--target", "mortal"],
            "has 10,251 cells (limit 10,000); narrow a SPEC (--dice has 201 values)",
        ),
        (["blows", "--dice", "0-200", "--soak", "0-50", "--kind", "lethal", "--target", "mortal"], "has 10,251 cells"),
    ],
)
def test_every_command_refuses_a_huge_grid_before_work(capsys, no_work, argv, words):
    assert words in _error(capsys, argv)


def test_check_cells_counts_without_expanding():
    assert check_cells({"a": 10, "b": 3}) == 30
    with pytest.raises(
        ValueError,
        match=r"1,000,000,000,000 cells \(limit 1,000,000\); "
        r"narrow a SPEC \(x has 1,000,000 values\)",
    ):
        check_cells({"x": 10**6, "y": 10**6})


# ------------------------------------------------------------ 2. SPEC parsing


def test_spec_range_is_checked_against_limits_before_expanding(capsys, no_work):
    # a range of 10**12 values is refused by its ends, never expanded
    assert "--pool must be 0..1000, got 1000000000000" in _error(
        capsys, ["v5", "--pool", "0-1000000000000", "--difficulty", "1"]
    )
    with pytest.raises(ValueError, match="pool must be 0..1000, got 10000000000000"):
        parse_spec("pool", "0-10000000000000", 0, 1000)


def test_spec_is_linear_and_capped():
    values = parse_spec("difficulty", f"0-{MAX_SPEC_VALUES - 1}")
    assert values == list(range(MAX_SPEC_VALUES))
    assert parse_spec("x", "5,1-3,2,5") == [5, 1, 2, 3]
    with pytest.raises(ValueError, match="too long"):
        parse_spec("x", f"0-{MAX_SPEC_VALUES}")
    with pytest.raises(ValueError, match="the SPEC is too long"):
        parse_spec("x", ",".join(["0-60000", "70000-130000"]))


# ---------------------------------------------------------- 3. validate first


@pytest.mark.parametrize(
    "argv, words",
    [
        (["v5", "--pool", "0-2000", "--difficulty", "1"], "--pool must be 0..1000, got 2000"),
        (["table", "v5-official", "--pool", "1-1001", "--difficulty", "1-5"], "--pool must be 0..1000, got 1001"),
        (["compare", "v5-official", "v5-official", "--pool", "1-1001"], "--pool must be 0..1000, got 1001"),
        (["werewolf", "--violent", "0-2"], "--violent must be 0..1, got 2"),
        (["classic", "--pool", "1-5", "--difficulty", "3,11"], "--difficulty must be 2..10, got 11"),
        (["conflict", "--pool-a", "1-3", "--pool-b", "1-2", "--hunger-b", "0,9"], "--hunger-b must be 0..5, got 9"),
        (["rouse", "--hunger", "0-5", "--checks", "0-20000"], "checks must be 0..10000, got 20000"),
        (["damage", "--dice", "1-3", "--soak", "0,99", "--kind", "lethal", "--target", "mortal"], "99"),
        (
            ["blows", "--dice", "3", "--kind", "lethal", "--target", "mortal", "--max-blows", "5000"],
            "--max-blows must be 0..1000",
        ),
    ],
)
def test_bad_values_are_refused_before_any_cell(capsys, no_work, argv, words):
    assert words in _error(capsys, argv)


def test_sweep_checks_everything_before_the_first_chunk(monkeypatch):
    monkeypatch.setattr(sweep, "_table", _no_work)
    v5 = rulesets.system("v5")
    with pytest.raises(ValueError, match="pool must be 0..1000, got 1001"):
        sweep.tables(v5, [v5.rules()], {"pool": "1-1001", "difficulty": 1})
    with pytest.raises(ValueError, match="needs V5Rules rules"):
        sweep.tables(v5, [object()], {"pool": 3, "difficulty": 1})
    from analysis.present.tables import compare

    with pytest.raises(ValueError, match="pool must be 0..1000"):
        compare("v5-official", "v5-official", {"pool": "1000-1001"})


def test_system_limits_match_the_table_functions():
    """The declared limits are the table functions' own: one past them is refused by both."""
    for system in rulesets.SYSTEMS.values():
        limits = dict(system.limits)
        assert set(limits) == set(system.axis_names), system.name
        first = {a: sweep.resolve_grid(system)[a][:1] for a in system.axis_names}
        for axis, (lo, hi) in limits.items():
            for bad in ([hi + 1] if hi is not None else []) + ([lo - 1] if lo > 0 else []):
                with pytest.raises(ValueError):
                    system.table(*({**first, axis: [bad]}[a] for a in system.axis_names), rules=system.rules())
                with pytest.raises(ValueError, match=f"{axis}.* must be"):
                    sweep.resolve_grid(system, {axis: [bad]})


# ----------------------------------------------------------------- 4. chains


def test_a_chain_result_too_big_is_refused_with_the_largest_that_fits(capsys, monkeypatch):
    monkeypatch.setattr(markov, "MAX_DIGITS", 100_000)
    monkeypatch.setattr(markov, "count", _no_work)
    err = _error(capsys, ["rouse", "--hunger", "1", "--checks", "0-2000", "--reroll"])
    assert "would hold about" in err and "(limit 100,000); ask for at most" in err
    fits = int(err.split("ask for at most ")[1].split()[0])
    assert 0 < fits < 2000


def test_a_chain_keeps_only_the_asked_steps():
    from analysis.systems.v5 import rouse

    step = rouse._check_step(True, rouse.OFFICIAL, "rouse")
    every = markov.run({1: 1}, [step] * 30, rouse.N_STATES)
    some = markov.run({1: 1}, [step] * 30, rouse.N_STATES, keep=[0, 7, 30])
    assert [t for t, d in enumerate(some) if d is not None] == [0, 7, 30]
    assert all(list(some[t]) == list(every[t]) for t in (0, 7, 30))


def test_reporting_draws_one_bar_update_per_pass_and_step(monkeypatch):
    from analysis.systems.v5 import rouse

    updates = []

    class Bar:
        def __init__(self, total, desc, unit, show):
            self.unit = unit

        def update(self, n=1):
            updates.append(self.unit)

        def close(self):
            pass

    monkeypatch.setattr(progress, "progress_bar", Bar)
    step = rouse._check_step(True, rouse.OFFICIAL, "rouse")
    with markov.reporting(True, "rouse"):
        markov.run({1: 1}, [step] * 40, rouse.N_STATES, keep=range(41))
    assert updates.count("step") == 41 and updates.count("pass") >= 2
    updates.clear()
    markov.run({1: 1}, [step] * 40, rouse.N_STATES)  # outside a reporting block: no bar
    assert updates == []


# ------------------------------------------------------ 4. chunks and Ctrl-C


def test_a_grid_is_cut_per_kernel_call():
    grid = {"pool": list(range(1, 1001)), "hunger": list(range(6)), "difficulty": [1, 2]}
    chunks = sweep._chunks(grid)  # for worker processes
    assert len(chunks) <= sweep.MAX_CHUNKS
    assert all(len(c["pool"]) == 1 for c in chunks)
    small = sweep._chunks({"pool": [1, 2], "hunger": [0, 1, 2], "difficulty": [1, 2, 3]})
    assert len(small) == 6 and all(c["difficulty"] == [1, 2, 3] for c in small)


def test_in_process_calls_grow_while_quick_and_split_when_slow(monkeypatch):
    v5 = rulesets.system("v5")
    grid = sweep.resolve_grid(v5, {"pool": "1-12", "hunger": "0-2", "difficulty": "1-2"})
    whole = v5.table(*grid.values(), rules=v5.rules())
    calls = []
    real = sweep._table
    clock = [0.0]

    def timed(system, rules, part, exact):
        calls.append({a: list(v) for a, v in part.items()})
        clock[0] += cost(part)
        return real(system, rules, part, exact)

    monkeypatch.setattr(sweep, "_table", timed)
    monkeypatch.setattr(sweep.time, "monotonic", lambda: clock[0])
    cost = lambda part: 0.0  # quick calls: batches of 1, 2, 4, 8 pools
    quick = sweep.tables(v5, [v5.rules()], grid)[0]
    assert [len(c["pool"]) for c in calls] == [1, 2, 4, 5]
    assert quick.equals(whole)
    calls.clear()
    cost = lambda part: 10.0  # slow calls: one pool, then one pool and one Hunger a call
    slow = sweep.tables(v5, [v5.rules()], grid)[0]
    assert len(calls[0]["hunger"]) == 3
    assert all(len(c["pool"]) == 1 and len(c["hunger"]) == 1 for c in calls[1:])
    assert len(calls) == 1 + 11 * 3
    assert slow.equals(whole)


_SLOW_SWEEP = textwrap.dedent("""
    import sys, time
    from analysis.workbench import rulesets, sweep

    _real = sweep._table

    def slow(system, rules, grid, exact):
        print("chunk", flush=True)  # from the worker too: its stdout is the same pipe
        time.sleep(1.0)
        return _real(system, rules, grid, exact)

    if __name__ == "__main__":
        sweep._table = slow
        print("ready", flush=True)
        v5 = rulesets.system("v5")
        sweep.tables(v5, [v5.rules()], {"pool": "1-40", "hunger": "0-5", "difficulty": 1},
                     jobs=int(sys.argv[1]))
        print("finished", flush=True)
""")


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_a_sweep_and_its_workers(jobs, tmp_path):
    script = tmp_path / "slow_sweep.py"
    script.write_text(_SLOW_SWEEP)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with subprocess.Popen(
        [sys.executable, str(script), str(jobs)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as proc:
        try:
            assert proc.stdout.readline().strip() == "ready"
            # the first chunk has started (in a worker with --jobs; two workers may print at
            # once): the sweep is under way, far from done
            assert proc.stdout.readline().startswith("chunk")
            os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
            try:
                out, err = proc.communicate(timeout=60)  # generous for a loaded machine
            except subprocess.TimeoutExpired:
                pytest.fail("Ctrl-C was not honoured")
        finally:
            left = subprocess.run(
                ["pgrep", "-s", str(proc.pid), "-f", "spawn_main"], capture_output=True, text=True
            ).stdout.split()
            for pid in subprocess.run(["pgrep", "-s", str(proc.pid)], capture_output=True, text=True).stdout.split():
                os.kill(int(pid), signal.SIGKILL)
    assert "finished" not in out and "KeyboardInterrupt" in err
    # no worker outlives the sweep (the resource tracker of multiprocessing leaves on its own)
    assert left == []


def _worker_dies(*args, **kwargs):
    os._exit(1)  # in the worker process: as if it were killed, out of memory


def test_a_dead_worker_stops_the_sweep_in_one_sentence_and_leaves_no_worker():
    import multiprocessing
    from types import SimpleNamespace

    system = SimpleNamespace(table=_worker_dies, axis_names=("pool",))
    with pytest.raises(ValueError, match=r"^the 1 worker processes stopped before the end"):
        sweep._in_workers(system, [None], [(0, {"pool": [1]})], [None], False, 1, NoBar())
    assert not multiprocessing.active_children()


def test_cli_ctrl_c_exits_130(capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sweep, "_table", interrupted)
    assert main(["v5", "--pool", "3", "--difficulty", "1"]) == 130


# ------------------------------------------------------------------ 5. jobs


def test_jobs_are_capped_by_cores_and_memory(capsys, monkeypatch):
    monkeypatch.setattr(sweep, "usable_cores", lambda: 2)
    monkeypatch.setattr(sweep, "available_memory", lambda: 100 * 2**30)
    assert sweep.check_jobs(64) == 2 and sweep.check_jobs(0) == 2 and sweep.check_jobs(1) == 1
    monkeypatch.setattr(sweep, "usable_cores", lambda: 32)
    monkeypatch.setattr(sweep, "available_memory", lambda: 3 * sweep.WORKER_MEMORY + 1)
    assert sweep.check_jobs(64) == 3
    monkeypatch.setattr(sweep, "available_memory", lambda: 0)
    assert sweep.check_jobs(8) == 1


def test_cli_says_when_it_caps_jobs(capsys, monkeypatch):
    import argparse

    monkeypatch.setattr(sweep, "usable_cores", lambda: 2)
    monkeypatch.setattr(sweep, "available_memory", lambda: 100 * 2**30)
    assert common.jobs(argparse.Namespace(jobs=64, quiet=False)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--jobs 64 is more than this machine can use" in err
    assert "using 2" in err
    assert common.jobs(argparse.Namespace(jobs=2, quiet=False)) == 2
    assert capsys.readouterr().err == ""
    with pytest.raises(ValueError, match="--jobs must be 0..64, got 65"):
        common.jobs(argparse.Namespace(jobs=65, quiet=False))


def test_progress_option():
    import argparse

    assert common.progress(argparse.Namespace(progress=True, quiet=False))
    assert not common.progress(argparse.Namespace(progress=True, quiet=True))
