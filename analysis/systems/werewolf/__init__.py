"""Werewolf (Werewolf: the Apocalypse 5th edition): Rage dice, Brutal outcomes and Rage checks.

Modules: ``rage`` (the roll, its rules, odds tables, reading a landed roll
and Rage checks; re-exported here), ``willpower`` (the Willpower strategies
by name).  The dice are counted from ``mechanic.toml`` by the mechanic
engine.
"""

from analysis.model.system import System, exports
from analysis.systems.werewolf.rage import TABLE_COLUMNS, distribution_table, odds, table, WerewolfRules
from analysis.systems.werewolf.willpower import STRATEGIES
from analysis.systems.werewolf import rage

SYSTEM = System(
    name="werewolf",
    order=20,
    title="Werewolf: Rage dice (Werewolf: the Apocalypse 5th edition)",
    rules=WerewolfRules,
    table=table,
    odds=odds,
    distribution=distribution_table,
    strategies=STRATEGIES,
    axes={"pool": "1-10", "rage": "0-5", "difficulty": "1-5", "violent": "0-1"},
    limits={"pool": (0, 1000), "rage": (0, 5), "difficulty": (0, None), "violent": (0, 1)},
    classes={
        "total_failure": "no success, not Brutal",
        "failure": "some successes but fewer than the Difficulty, not Brutal: a failure, though the "
        "Storyteller may offer a win at a cost",
        "plain_win": "successes reach the Difficulty, no pair of 10s, not Brutal",
        "critical_win": "a win with a pair of 10s, not Brutal",
        "brutal_win": "a violent action, at least two Rage dice show 1 or 2, and with its 4 added "
        "successes it wins (also when it would win without them, a pair of 10s "
        "included)",
        "brutal_failure": "two Rage dice show 1 or 2 and the roll fails (any action not violent, "
        "or a violent one still short)",
    },
    outcomes=(
        "total_failure",
        "failure",
        "plain_win",
        "critical_win",
        "brutal_win",
        "brutal_failure",
        "p_win",
        "p_brutal",
    ),
    terms={
        "rage": "the werewolf's Rage, 0..5: that many dice of the pool are Rage dice",
        "violent": "1 for a violent action (a Brutal outcome adds successes), 0 otherwise",
        "p_brutal": "chance of a Brutal outcome (brutal_win + brutal_failure)",
    },
    columns=TABLE_COLUMNS,
    package=__name__,
)

__getattr__ = exports(rage)
