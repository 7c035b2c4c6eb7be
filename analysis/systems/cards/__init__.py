"""Ten-card tests: attribute + 2 x skill + a card from a ten-card deck, with Hunger confirmation draws.

Modules: ``rules`` (the deck, the classes, ``CardRules``), ``deck`` (static and
opposed tests and their tables; it re-exports the names of the others, and is
re-exported here) and ``scenes`` (several tests one after another); the command line builds
``beastodds cards``.  The card test
that wins as often as a V5 roll is across systems: :mod:`analysis.versus.cards_v5`.
"""

from analysis.model.system import System, exports
from analysis.systems.cards.deck import TABLE_COLUMNS, CardRules, odds, table
from analysis.systems.cards import deck

SYSTEM = System(
    name="cards",
    order=20,
    title="Ten-card tests",
    rules=CardRules,
    table=table,
    odds=odds,
    axes={"base": "0-15", "difficulty": "5-20", "hunger": "0-1"},
    limits={"base": (0, 1000), "difficulty": (0, 1000), "hunger": (0, 5)},
    classes={
        "success": "the total reaches the difficulty, not bestial",
        "failure": "the total falls short (or an Ace), not bestial",
        "bestial_success": "a success with a 10 or Ace on the Hunger confirmation card",
        "bestial_failure": "a failure with a 10 or Ace on the Hunger confirmation card",
    },
    terms={
        "base": "attribute + 2 x skill - penalties, before the card",
        "difficulty": "the total to reach: base + the card drawn",
        "hunger": "the vampire's Hunger, 0..5: from 1 on, a 10 or an Ace calls for a Hunger "
        "confirmation card (Hunger 1 to 5 count alike)",
        "p_success": "chance to succeed: success + bestial_success",
    },
    column_prefixes={"card_": "ten-card test"},
    columns=TABLE_COLUMNS,
    package=__name__,
)

__getattr__ = exports(deck)
