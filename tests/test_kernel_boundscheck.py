"""Every kernel module runs with numba's bounds checking on, through the public API, on small inputs.

The kernels are compiled without bounds checks for speed, so an index past
an array's end would read or write memory silently.  Here a fresh process,
with ``NUMBA_BOUNDSCHECK=1`` and an empty numba cache of its own (so that no
kernel compiled without the checks is loaded), makes the small tables, odds,
chains and readings of every system, plus the reference Willpower kernel the
engine tests use; an index out of bounds raises IndexError and fails it.
Afterwards each module of ``kernels/`` must have had kernels of its own
compiled, so that none is left out.  Compiling every kernel afresh takes
about half a minute: the slow tier.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Every module of kernels (kernels.shapes holds numbers only, no kernel).
KERNEL_MODULES = sorted(
    p.stem for p in (ROOT / "kernels").glob("*.py") if not p.stem.startswith("_") and p.stem != "shapes"
)

_SCRIPT = textwrap.dedent('''
    import importlib, json, sys

    import numba
    import numpy as np

    assert numba.config.BOUNDSCHECK, "bounds checking is off"

    @numba.njit
    def _past_the_end(a):
        return a[len(a)]

    try:  # the checks are really on: an index past the end raises
        _past_the_end(np.zeros(3, dtype=np.int64))
        raise SystemExit("an index past the end was not caught")
    except IndexError:
        pass

    from analysis.systems.v5 import roll, rouse, conflict, dice as v5dice, fight
    from analysis.systems.v5.dice import V5Rules
    from analysis.systems.werewolf import rage
    from analysis.systems.hunter import desperation
    from analysis.systems.requiem import beast, dice as requiem
    from analysis.systems.cards import deck
    from analysis.systems.classic import pools, health
    from tests.test_mechanic_willpower import _KernelOdds

    roll.table("0-8", "0-5", "0-5", exact=True)
    roll.table("0-4", "0-3", "1-3", strategy="none,reroll_failures,maximize_win", at_least="0-6")
    roll.odds(60, 3, 4)
    v5dice.read_roll([6, 10], [10, 1], 2)
    rage.table("0-5", "0-3", "0-3", "0-1", at_least="0-5")
    rage.table("0-3", "0-2", "1-2", strategy="maximize_win")
    desperation.table("0-5", "0-2", "1-3", strategy="none,maximize_win")
    beast.table("0-6", "0-3", at_least="1-6")
    requiem.distribution_table("0-4", 8)
    deck.table("0-12", "5-14", "0-2")
    deck.opposed(6, 7, 1)
    deck.scene([(5, 7), (6, 8, 1)])
    pools.table("0-6", "2-10", at_least="0-6")
    health.damage(4, 1, 2, "lethal", "mortal")
    health.blows(health.Attack(3, "lethal", 1, attack_pool=3), health.Fighter("mortal", stamina=2), max_blows=3)
    conflict.conflict_table(conflict.Combatant(3, 1), conflict.Combatant(2))
    fight.fight(conflict.Combatant(3, 1), conflict.Combatant(2), 3)
    rouse.rouse(1, 5)
    rouse.night(2, ["wake", "rouse+reroll", "feed:2"])
    _KernelOdds(3, 1, 2, V5Rules(), "maximize_win")  # the reference Willpower kernel (kernels.willpower)

    report = {}
    for name in sys.argv[1:]:
        module = importlib.import_module(f"kernels.{name}")
        report[name] = sorted(a for a, f in vars(module).items()
                              if getattr(f, "signatures", None)
                              and getattr(getattr(f, "py_func", None), "__module__", "") == module.__name__)
    print(json.dumps(report))
''')


@pytest.mark.slow
def test_every_kernel_module_runs_with_bounds_checking(tmp_path):
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, *KERNEL_MODULES], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    compiled = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(compiled) == set(KERNEL_MODULES)
    left_out = [name for name, kernels in compiled.items() if not kernels]
    assert not left_out, f"kernel modules not run with bounds checking: {left_out}"
