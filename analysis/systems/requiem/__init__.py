"""Requiem (Vampire: The Requiem 1st edition) 10-again dice, and the La Soif Beast-dice house rule on them.

Modules: ``dice`` (plain Requiem again-dice, the chance die, rote),
``beast`` (La Soif: Beast dice, a character's odds down the Soif ladder;
re-exported here) and ``ladder`` (the Soif ladders, re-exported by ``beast``).  The command
line builds ``beastodds requiem``, ``beast`` and ``soif``.
"""

from analysis.model.system import System, exports
from analysis.systems.requiem.beast import TABLE_COLUMNS, BeastRules, distribution_table, odds, table
from analysis.systems.requiem import beast

SYSTEM = System(
    name="requiem",
    order=30,
    aliases=("beast",),
    title="Beast dice on Requiem (La Soif house rule)",
    rules=BeastRules,
    table=table,
    odds=odds,
    distribution=distribution_table,
    axes={"pool": "0-10", "soif": "0-5"},
    limits={"pool": (-200, 200), "soif": (0, 5)},
    classes={
        "dramatic_failure": "the chance die shows 1",
        "bestial_failure": "no success, and a Beast die shows 1",
        "failure": "no success, not dramatic nor bestial",
        "plain_success": "1 to 4 successes",
        "exceptional_success": "5 or more successes",
    },
    terms={"p_success": "chance to succeed: plain + exceptional success"},
    whole_first_axis=True,  # counted by the engine's walk: every pool for the cost of the largest
    column_prefixes={"la_soif_": "La Soif", "requiem_": "plain Requiem"},
    columns=TABLE_COLUMNS,
    package=__name__,
)

__getattr__ = exports(beast)
