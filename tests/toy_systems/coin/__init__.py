"""Coins: flip some fair (or loaded) coins, win on enough heads. A toy system in one folder."""

from analysis.model.system import System, exports
from .flips import CoinRules, odds, table
from . import flips

SYSTEM = System(
    name="coin",
    title="Coins (a toy system)",
    rules=CoinRules,
    table=table,
    odds=odds,
    axes={"coins": "1-4", "needed": "0-2"},
    classes={"heads_enough": "at least the needed heads", "too_few": "fewer heads than needed"},
    terms={"coins": "coins flipped", "needed": "heads needed"},
    column_prefixes={"coin_": "coin toss"},
    package=__name__,
)

__getattr__ = exports(flips)
