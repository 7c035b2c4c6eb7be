"""Ten-card tests beside V5: for each V5 pool, Difficulty and Hunger, the card test that wins about as often.

:func:`nearest_card_test` finds the base whose card test wins nearest to a
chance; :func:`compare_v5` sets V5's odds beside the matching card test's,
bestial chances included.  (``beastodds versus``, :mod:`analysis.versus.against_v5`,
asks the same question for every system.)
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.engine import decks as _decks
from analysis.systems.cards.deck import odds, static_ways
from analysis.systems.cards.rules import MAX_VALUE, OFFICIAL, CardRules, denominator
from analysis.systems.v5 import roll as v5
from analysis.model.validate import check_bool, check_int, check_probability

COMPARE_COLUMNS = (
    "pool",
    "difficulty",
    "hunger",
    "v5_win",
    "card_base",
    "card_difficulty",
    "card_win",
    "v5_messy_critical",
    "v5_bestial_failure",
    "card_bestial_success",
    "card_bestial_failure",
)


def nearest_card_test(p: Fraction, card_difficulty: int, rules: CardRules = OFFICIAL) -> int:
    """The base whose card test against ``card_difficulty`` wins nearest to ``p``.

    Candidates are the bases from the one no card can lift to the difficulty
    up to the difficulty itself (never below 0).  Equal distances go to the
    lower chance; bases with the same chance to the smallest base.
    """
    p = check_probability("p", p)
    card_difficulty = check_int("card_difficulty", card_difficulty, 0, MAX_VALUE)
    rules = CardRules.require(rules)
    lo = max(0, card_difficulty - max(rules.values) - 1)
    bases = tuple(range(lo, card_difficulty + 1))
    ways = static_ways(bases, (card_difficulty,), (0,), rules)[:, 0, 0]
    den = denominator(rules)
    best: tuple[Fraction, Fraction, int] | None = None
    for b, w in zip(bases, ways):
        q = Fraction(int(w[_decks.SUCCESS] + w[_decks.BESTIAL_SUCCESS]), den)
        key = (abs(q - p), q, b)
        if best is None or key < best:
            best = key
    assert best is not None  # bases runs up to the card difficulty: never empty
    return best[2]


def compare_v5(
    pools=range(1, 11),
    difficulties=range(1, 6),
    hungers=range(0, 6),
    card_difficulty: int = 12,
    rules: CardRules = OFFICIAL,
    v5_rules=None,
    exact: bool = False,
) -> pd.DataFrame:
    """For each V5 pool, Difficulty and Hunger: the card test that wins about as often.

    The card test is ``card_base`` vs ``card_difficulty`` with the success
    chance nearest to V5's chance to win (see :func:`nearest_card_test`; any
    card difficulty gives the same chances, shifted).  Beside it, the
    bestial chances of both systems at that Hunger: V5's messy critical and
    bestial failure, the card test's bestial success and bestial failure.

    Parameters
    ----------
    pools, difficulties, hungers : int, SPEC string or iterable of ints
        V5 pools (0..1000), Difficulties (>= 0) and Hunger (0..5).
    card_difficulty : int
        The card difficulty to express the matching test against (default 12).
    rules : CardRules
        Card rules (the ten-card test rules by default).
    v5_rules : analysis.systems.v5.dice.V5Rules, optional
        V5 rules (official by default).
    exact : bool
        False: float64 probabilities.  True: ``Fraction`` objects.

    Returns
    -------
    pandas.DataFrame
        Columns ``pool, difficulty, hunger, v5_win, card_base,
        card_difficulty, card_win, v5_messy_critical, v5_bestial_failure,
        card_bestial_success, card_bestial_failure``.
    """
    exact = check_bool("exact", exact)

    rules = CardRules.require(rules)
    card_difficulty = check_int("card_difficulty", card_difficulty, 0, MAX_VALUE)
    kwargs = {} if v5_rules is None else {"rules": v5_rules}
    v5df = v5.table(pools, hungers, difficulties, exact=True, **kwargs)
    rows = []
    for r in v5df.itertuples(index=False):
        base = nearest_card_test(r.p_win, card_difficulty, rules)
        card = odds(base, card_difficulty, int(r.hunger), rules)
        rows.append(
            {
                "pool": r.pool,
                "difficulty": r.difficulty,
                "hunger": r.hunger,
                "v5_win": r.p_win,
                "card_base": base,
                "card_difficulty": card_difficulty,
                "card_win": card.p_win,
                "v5_messy_critical": r.messy_critical,
                "v5_bestial_failure": r.bestial_failure,
                "card_bestial_success": card.bestial_success,
                "card_bestial_failure": card.bestial_failure,
            }
        )
    df = pd.DataFrame(rows, columns=list(COMPARE_COLUMNS))
    df = df.sort_values(["pool", "difficulty", "hunger"], kind="stable").reset_index(drop=True)
    for c in ("pool", "difficulty", "hunger", "card_base", "card_difficulty"):
        df[c] = df[c].astype(np.int64)
    if not exact:
        for c in (
            "v5_win",
            "card_win",
            "v5_messy_critical",
            "v5_bestial_failure",
            "card_bestial_success",
            "card_bestial_failure",
        ):
            df[c] = df[c].astype(float)
    return df
