"""Werewolf Willpower rerolls: the strategies a player picks by name, counted by the one Willpower engine.

After the dice land a player may spend Willpower to reroll up to three
dice: normal dice, or Rage dice that do not show a 1 or a 2 (the Brutal
faces stay).  A rerolled Rage die is still a Rage die and may land a 1 or a
2.  The rules of the reroll are in this package's ``mechanic.toml``
(``[willpower]``) and :mod:`analysis.engine.willpower` counts the odds
after it exactly; this module only names the Werewolf strategies:

``reroll_failures``
    A roll that is not a win rerolls up to three failed dice (normal dice
    first, then Rage dice showing 3 to 5); a win keeps its dice.
``maximize_win``
    The reroll of normal or Rage dice with the highest exact chance to win
    (ties: no reroll, then fewer dice).
``normal_dice_only``
    The same, never rerolling a Rage die (``kinds=("normal",)``).

Each is the one :class:`analysis.engine.strategy.Strategy` every mechanic takes.
"""

from __future__ import annotations

from analysis.engine.strategy import Strategy, offered

__all__ = ["MAX_REROLL", "STRATEGIES", "Strategy"]

#: Dice a Willpower reroll may take.
MAX_REROLL = 3

STRATEGIES = offered("reroll_failures", "maximize_win", "normal_dice_only")
