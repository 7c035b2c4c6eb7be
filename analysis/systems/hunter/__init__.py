"""Hunter (Hunter: the Reckoning 5th edition): Desperation dice, Overreach and Despair.

Modules: ``desperation`` (the roll, its rules, odds tables with or without
a Willpower strategy, and reading a landed roll; re-exported here).  The
dice are counted from ``mechanic.toml`` by the mechanic engine.
"""

from analysis.model.system import System, exports
from analysis.systems.hunter.desperation import STRATEGIES, TABLE_COLUMNS, distribution_table, HunterRules, odds, table
from analysis.systems.hunter import desperation

SYSTEM = System(
    name="hunter",
    order=25,
    title="Hunter: Desperation dice (Hunter: the Reckoning 5th edition)",
    rules=HunterRules,
    table=table,
    odds=odds,
    distribution=distribution_table,
    strategies=STRATEGIES,
    axes={"pool": "1-10", "desperation": "0-5", "difficulty": "1-5"},
    limits={"pool": (0, 1000), "desperation": (0, 5), "difficulty": (0, None)},
    classes={
        "total_failure": "no success, and no Desperation die shows 1",
        "failure": "some successes but fewer than the Difficulty, no Desperation 1: a failure, though "
        "the Storyteller may offer a win at a cost",
        "plain_win": "successes reach the Difficulty, no pair of 10s, no Desperation 1",
        "critical_win": "a win with a pair of 10s and no Desperation 1",
        "overreach_or_despair": "a win with a Desperation die showing 1: the player chooses "
        "Overreach (keep the win) or Despair",
        "despair": "not a win, and a Desperation die shows 1",
    },
    outcomes=(
        "total_failure",
        "failure",
        "plain_win",
        "critical_win",
        "overreach_or_despair",
        "despair",
        "p_win",
        "p_desperation_one",
    ),
    terms={
        "desperation": "Desperation dice added to the pool, 0..5",
        "p_desperation_one": "chance that the Desperation dice bring Overreach or Despair "
        "(overreach_or_despair + despair); under the official rules, the chance "
        "that a Desperation die shows 1",
    },
    columns=TABLE_COLUMNS,
    package=__name__,
)

__getattr__ = exports(desperation)
