"""V5 (Vampire: The Masquerade 5th edition): Hunger dice, Willpower rerolls, Rouse checks, conflicts and fights.

Modules, each importing only those before it: ``dice`` (the rules, the
outcome classes, their mechanic file ``mechanic.toml`` for the engine,
reading rolled dice), ``willpower`` (reroll strategies), ``roll`` (odds and
tables with or without a strategy, counted by :mod:`analysis.engine.count`
and :mod:`analysis.engine.willpower`, Remorse, frenzy; re-exported here
with ``dice``), ``rouse``
(Rouse checks, nights, Blood Potency), ``conflict`` (opposed rolls,
trackers, fights).  The command line builds its commands (``beastodds v5``, ``rouse``,
``conflict``, ``fight``, and ``versus`` against it).
"""

from analysis.model.system import System, exports
from analysis.systems.v5.conflict import ConflictRules
from analysis.systems.v5.dice import TABLE_COLUMNS, V5Rules
from analysis.systems.v5.roll import distribution_table, odds, table
from analysis.systems.v5.rouse import RouseRules
from analysis.systems.v5.willpower import STRATEGIES
from analysis.systems.v5 import roll

SYSTEM = System(
    name="v5",
    order=10,
    title="V5: Hunger dice (Vampire: The Masquerade 5th edition)",
    rules=V5Rules,
    sub_rules={"rouse": RouseRules, "conflict": ConflictRules},
    table=table,
    odds=odds,
    distribution=distribution_table,
    axes={"pool": "1-10", "hunger": "0-5", "difficulty": "1-5"},
    limits={"pool": (0, 1000), "hunger": (0, 5), "difficulty": (0, None)},
    classes={
        "total_failure": "no success, and no Hunger die shows a bestial 1",
        "failure": "some successes but fewer than the Difficulty, not bestial: a failure, though the "
        "Storyteller may offer a win at a cost",
        "plain_win": "successes reach the Difficulty, no pair of 10s",
        "critical_win": "a win with a pair of 10s and no Hunger 10 among them",
        "messy_critical": "a win with a pair of 10s, a Hunger die showing 10",
        "bestial_failure": "not a win, and a Hunger die shows 1",
    },
    strategies=STRATEGIES,
    column_prefixes={"v5_": "V5"},
    columns=TABLE_COLUMNS,
    package=__name__,
)

__getattr__ = exports(roll)
