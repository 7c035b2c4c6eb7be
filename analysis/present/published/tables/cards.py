"""The ten-card odds tables (the ten-card test rules): static and opposed tests, scenes, and the V5 comparison."""

from __future__ import annotations

import pandas as pd

from analysis.systems.cards import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.systems.cards import deck as cards
from analysis.versus import cards_v5

#: The scene of the published tables: five hungry tests, base 6 against 12.
SCENE_TEST = (6, 12, 1)
SCENE_LENGTH = 5


def by_card_needed(hunger: int = 1) -> pd.DataFrame:
    """The four classes by the card a test needs (difficulty - base), at one Hunger."""
    base = 20
    df = cards.table(base, range(base, base + 12), hunger)
    df.insert(0, "card_needed", df["difficulty"] - base)
    return df.drop(columns=["base", "difficulty"])


def _scene_frames(test, length):
    frames = []
    for name, rules in (("reshuffled", cards.CardRules()), ("scene deck", cards.CardRules(reshuffle=False))):
        df = cards.scene_table([test] * length, rules)
        df.insert(0, "deck", name)
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


_AFTER = ["win_after_win", "win_after_loss", "bestial_after_bestial"]


def scene_odds(test=SCENE_TEST, length: int = SCENE_LENGTH) -> pd.DataFrame:
    """Each test of a scene, with the deck reshuffled and with one scene deck."""
    return _scene_frames(test, length).drop(columns=_AFTER)


def scene_after(test=SCENE_TEST, length: int = SCENE_LENGTH) -> pd.DataFrame:
    """Each test of a scene from the second on, given how the test before it ended."""
    df = _scene_frames(test, length)
    return df[df["test"] >= 2][["deck", "test", "base", "difficulty", "hunger", "p_win"] + _AFTER]


def compulsions(test=SCENE_TEST, lengths=range(1, 11)) -> pd.DataFrame:
    """How many Compulsions a scene of hungry tests brings, by its length and deck."""
    rows = []
    for n in lengths:
        for name, rules in (("reshuffled", cards.CardRules()), ("scene deck", cards.CardRules(reshuffle=False))):
            dist = cards.scene([test] * n, rules).compulsions
            rows.append(
                {
                    "tests": n,
                    "deck": name,
                    "none": float(dist.get(0, 0)),
                    "one": float(dist.get(1, 0)),
                    "two_or_more": float(sum(p for b, p in dist.items() if b >= 2)),
                }
            )
    return pd.DataFrame(rows)


#: The rule set stated above each table in the booklet (``analysis.present.booklet``).
_SCENES = [
    "cards-official",
    "In two decks, as the column deck says: reshuffled between tests "
    "(reshuffle = true, the default) and one scene deck that is not (reshuffle = false).",
]
RULE_SETS = {
    "cards_scene": _SCENES,
    "cards_scene_after": _SCENES,
    "cards_scene_compulsions": _SCENES,
    "cards_vs_v5": ["cards-official", "v5-official"],
}


def make_tables() -> dict:
    return {
        "cards_static": (cards.table(range(0, 16), range(0, 26), (0, 1)), ("base", "difficulty", "hunger")),
        "cards_by_card_needed": (by_card_needed(), ("card_needed", "hunger")),
        "cards_opposed": (cards.opposed_table(range(0, 16), range(0, 16), (0, 1)), ("base", "defense", "hunger")),
        "cards_scene": (scene_odds(), ("deck", "test", "base", "difficulty", "hunger")),
        "cards_scene_after": (scene_after(), ("deck", "test", "base", "difficulty", "hunger")),
        "cards_scene_compulsions": (compulsions(), ("tests", "deck")),
        "cards_vs_v5": (
            cards_v5.compare_v5(range(1, 11), range(1, 6), range(0, 6)),
            ("pool", "difficulty", "hunger", "card_base", "card_difficulty"),
        ),
    }


#: Legend lines of columns that mean something else here than in a card test (the booklet and the
#: Markdown tables): beside V5, the pool, Difficulty and Hunger are V5's.
LEGENDS = {
    "cards_vs_v5": {
        "pool": "V5: dice in the pool after modifiers",
        "difficulty": "V5: successes needed to win",
        "hunger": "the vampire's Hunger, 0..5: that many of the V5 dice are Hunger dice; in the card test, "
        "from Hunger 1 on, a 10 or an Ace calls for a Hunger confirmation card",
    }
}

#: Readable headings of these tables in the booklet (``analysis.present.booklet``).
TITLES = {
    "cards_static": "A test against a difficulty: every outcome by base and difficulty",
    "cards_by_card_needed": "By the card needed",
    "cards_opposed": "Opposed tests: by base and defense",
    "cards_scene": "A scene of tests: each test's odds, reshuffled or from one scene deck",
    "cards_scene_after": "A scene of tests: a win after a win, after a loss",
    "cards_scene_compulsions": "Compulsions over a scene",
    "cards_vs_v5": "Ten-card tests beside V5 dice",
}
