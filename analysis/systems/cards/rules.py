"""The rules of a ten-card test: the deck, the outcome classes, :class:`CardRules` and what the engine takes.

:mod:`analysis.systems.cards.deck` counts one test (static or opposed),
:mod:`analysis.systems.cards.scenes` a scene of tests, both from these rules.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.engine import decks as _decks
from analysis.model.rules import Rules, rule

#: The deck, in kernel order: Ace, 2..10 of one suit.
CARDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
#: The four outcome classes of a test, mutually exclusive, in table-column order.
CLASSES = ("success", "failure", "bestial_success", "bestial_failure")
#: ``CardRules.ace`` choices: ``fails`` (the card rules: an Ace always fails its
#: drawer), ``low`` (the Ace counts 1 and does not fail by itself), ``high``
#: (the Ace counts 11 and does not fail by itself).
ACE_RULES = ("fails", "low", "high")
#: ``CardRules.ties`` choices: who a tie goes to (the card rules: the initiator;
#: in a static test, a total equal to the difficulty succeeds).
TIE_RULES = ("initiator", "defender")
#: ``CardRules.confirmation`` choices: where the Hunger confirmation card
#: comes from (the card rules: the same deck's remaining nine cards).
CONFIRMATIONS = ("same_deck", "fresh_deck")
MAX_HUNGER = 5
#: Totals and difficulties above this are refused (no table needs them).
MAX_VALUE = 1000
#: Longest scene :func:`scene` counts (the state count grows as tests**2).
MAX_SCENE = 20


@dataclass(frozen=True)
class CardRules(Rules):
    """A ten-card rule set.  The defaults are the ten-card test rules as ruled in docs/rules.md.

    Attributes
    ----------
    ace : str
        ``"fails"`` (default): a drawn Ace always fails its drawer.
        ``"low"``: the Ace counts 1, ``"high"``: it counts 11; either way it
        no longer fails by itself.  The Ace calls for and confirms Hunger
        confirmation draws under every rule.
    ties : str
        ``"initiator"`` (default): a total equal to the difficulty succeeds,
        and equal totals in an opposed test go to the initiator.
        ``"defender"``: the initiator must beat the difficulty or the
        defender's total.
    confirmation : str
        ``"same_deck"`` (default): the Hunger confirmation card is drawn from
        the same deck's remaining nine cards.  ``"fresh_deck"``: from a full
        deck of its own (a 10 or an Ace then confirms 2 times in 10).
    reshuffle : bool
        Scenes only.  True (default): the deck is whole again for every
        test.  False: one scene deck is not reshuffled between tests (until
        it runs out, when all ten cards are shuffled back).
    """

    ace: str = rule(
        "fails",
        choices=ACE_RULES,
        help="fails (default): a drawn Ace always fails its drawer; low: it counts 1, high: 11, "
        "and no longer fails by itself.",
    )
    ties: str = rule(
        "initiator",
        choices=TIE_RULES,
        help="initiator (default): a total equal to the difficulty or the defender's succeeds; "
        "defender: the initiator must beat it.",
    )
    confirmation: str = rule(
        "same_deck",
        choices=CONFIRMATIONS,
        help="Where the Hunger confirmation card comes from: same_deck (default, the remaining nine) or fresh_deck.",
    )
    reshuffle: bool = rule(
        True, help="Scenes only: the deck is whole again for every test (default true); false: one scene deck."
    )

    @property
    def values(self) -> tuple:
        """What each card (Ace, 2..10) adds to the total."""
        ace = {"fails": 1, "low": 1, "high": 11}[self.ace]
        return (ace,) + tuple(range(2, 11))

    @property
    def auto_fail(self) -> tuple:
        """1 for the cards that fail their drawer whatever the total."""
        return (1 if self.ace == "fails" else 0,) + (0,) * 9

    @property
    def triggers(self) -> tuple:
        """1 for the cards that call for (and confirm) a confirmation draw: Ace and 10."""
        return (1,) + (0,) * 8 + (1,)

    def deck(self):
        """The deck as the kernels take it: (values, auto_fail, triggers) int64 arrays."""
        return tuple(np.array(a, dtype=np.int64) for a in (self.values, self.auto_fail, self.triggers))

    @property
    def win_on_tie(self) -> int:
        return 1 if self.ties == "initiator" else 0

    @property
    def fresh_confirmation(self) -> int:
        return 1 if self.confirmation == "fresh_deck" else 0


OFFICIAL = CardRules()


def engine_deck(rules: CardRules) -> tuple:
    """The deck as the engine takes it: (values, auto_fail, triggers) tuples."""
    return (rules.values, rules.auto_fail, rules.triggers)


def hunger_slots(hungers) -> tuple:
    """1 for a Hunger of 1 or more (a confirmation slot), else 0."""
    return tuple(1 if h >= 1 else 0 for h in hungers)


def denominator(rules: CardRules, opposed: bool = False) -> int:
    return _decks.denominator(len(CARDS), rules.fresh_confirmation, opposed)
