"""Classic (V20-style) d10 pools against a difficulty, damage and soak, and the seven-level health track.

Modules: ``pools`` (successes, botches; re-exported here), ``damage`` (the
damage rules, soak and one attack), ``track`` (the health track and torpor)
and ``fights`` (blows and fights on the track); ``health`` gives the last
three under one name.  The command line builds ``beastodds classic``, ``damage`` and
``blows``.
"""

from analysis.model.system import System, exports
from analysis.systems.classic.damage import DamageRules
from analysis.systems.classic.pools import TABLE_COLUMNS, ClassicRules, distribution_table, odds, table
from analysis.systems.classic import pools

SYSTEM = System(
    name="classic",
    order=40,
    title="Classic d10 pools, damage and health",
    rules=ClassicRules,
    sub_rules={"damage": DamageRules},
    table=table,
    odds=odds,
    distribution=distribution_table,
    axes={"pool": "1-10", "difficulty": "3-9"},
    limits={"pool": (0, 200), "difficulty": (2, 10)},
    classes={
        "botch": "no success rolled and at least one 1",
        "failure": "no success left after 1s cancel, not a botch",
        "success": "at least one success left",
    },
    outcomes=("botch", "failure", "success"),
    columns=TABLE_COLUMNS,
    package=__name__,
)

__getattr__ = exports(pools)
