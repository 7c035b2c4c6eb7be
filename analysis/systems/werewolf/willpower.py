"""Werewolf Willpower rerolls: the strategies a player picks by name, counted by the one Willpower engine.

After the dice land a player may spend Willpower to reroll up to three
dice: normal dice, or Rage dice that do not show a 1 or a 2 (the Brutal
faces stay).  A rerolled Rage die is still a Rage die and may land a 1 or a
2.  The rules of the reroll are in this package's ``mechanic.toml``
(``[willpower]``) and :mod:`analysis.mechanic.willpower` counts the odds
after it exactly; this module only names the Werewolf strategies:

``reroll_failures``
    A roll that is not a win rerolls up to three failed dice (normal dice
    first, then Rage dice showing 3 to 5); a win keeps its dice.
``maximize_win``
    The reroll of normal or Rage dice with the highest exact chance to win
    (ties: no reroll, then fewer dice).
``normal_dice_only``
    The same, never rerolling a Rage die.
"""

from __future__ import annotations

from dataclasses import dataclass

from analysis.mechanic import willpower as _mw
from analysis.strategies import named

#: Dice a Willpower reroll may take.
MAX_REROLL = 3


@dataclass(frozen=True)
class Strategy(_mw.Strategy):
    """A Willpower strategy of the one engine (:class:`analysis.mechanic.willpower.Strategy`), with the
    Werewolf switch ``rage_rerolls``.

    Attributes
    ----------
    rage_rerolls : bool
        True: Rage dice not showing 1-2 may be rerolled too; False: normal
        dice only (a Rage die is never risked; the same as
        ``kinds=("normal",)``).
    """

    rage_rerolls: bool = True

    def __post_init__(self):
        super().__post_init__()
        if not isinstance(self.rage_rerolls, bool):
            raise ValueError(f"rage_rerolls must be true or false, got {self.rage_rerolls!r}")
        if not self.rage_rerolls:
            if self.kinds not in (None, ("normal",)):
                raise ValueError("rage_rerolls=False rerolls normal dice only; kinds cannot name others")
            object.__setattr__(self, "kinds", ("normal",))


STRATEGIES = {
    "reroll_failures": _mw.STRATEGIES["reroll_failures"],
    "maximize_win": _mw.STRATEGIES["maximize_win"],
    "normal_dice_only": Strategy("normal_dice_only", win=True, rage_rerolls=False),
}


def strategy_of(strategy) -> _mw.Strategy:
    """A strategy from a name in ``STRATEGIES`` or a strategy itself."""
    return named(strategy, STRATEGIES, _mw.Strategy)
