"""Brute-force references for the ten-card tests (docs/rules.md).

Nothing here imports ``kernels`` or ``analysis``: the rules are restated
directly and every ordered draw is enumerated with itertools (or, for scenes
whose deck runs out, by a memoised recursion over the cards left), so that
agreement with the kernels means something.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache

ACE = "A"
#: The deck: Ace, 2..10 of one suit.
DECK = (ACE, 2, 3, 4, 5, 6, 7, 8, 9, 10)
CLASSES = ("success", "failure", "bestial_success", "bestial_failure")


def calls_the_beast(card) -> bool:
    """A 10 or an Ace: calls for a confirmation card, and confirms one."""
    return card == 10 or card == ACE


def wins(card, base, target, *, ace="fails", ties="initiator") -> bool:
    """Does ``base + card`` reach ``target``?  An Ace fails under the official rule."""
    if card == ACE:
        if ace == "fails":
            return False
        value = 1 if ace == "low" else 11
    else:
        value = card
    total = base + value
    return total >= target if ties == "initiator" else total > target


def opposed_wins(card, defender_card, base, defense, *, ace="fails", ties="initiator") -> bool:
    """Does the initiator win?  An Ace fails its drawer; both Aces: the initiator doesn't win."""
    if ace == "fails":
        if card == ACE:
            return False
        if defender_card == ACE:
            return True
    value = {ACE: 1 if ace == "low" else 11}.get(defender_card, defender_card)
    return wins(card, base, defense + value, ace=ace, ties=ties)


def outcome(won: bool, bestial: bool) -> str:
    if bestial:
        return "bestial_success" if won else "bestial_failure"
    return "success" if won else "failure"


def _first_and_confirmation(confirmation):
    """Every ordered (first card, confirmation card), equally likely."""
    if confirmation == "same_deck":
        return itertools.permutations(DECK, 2)
    return itertools.product(DECK, DECK)


def brute_static(base, difficulty, hunger, *, ace="fails", ties="initiator", confirmation="same_deck") -> dict:
    """Class probabilities of one static test over every ordered draw."""
    counts = Counter()
    total = 0
    for first, second in _first_and_confirmation(confirmation):
        won = wins(first, base, difficulty, ace=ace, ties=ties)
        bestial = hunger >= 1 and calls_the_beast(first) and calls_the_beast(second)
        counts[outcome(won, bestial)] += 1
        total += 1
    return {c: Fraction(counts[c], total) for c in CLASSES}


def brute_opposed(base, defense, hunger, *, ace="fails", ties="initiator", confirmation="same_deck") -> dict:
    """Class probabilities of the initiator's side of an opposed test.

    The two sides draw from independent full decks.
    """
    counts = Counter()
    total = 0
    for (first, second), theirs in itertools.product(_first_and_confirmation(confirmation), DECK):
        won = opposed_wins(first, theirs, base, defense, ace=ace, ties=ties)
        bestial = hunger >= 1 and calls_the_beast(first) and calls_the_beast(second)
        counts[outcome(won, bestial)] += 1
        total += 1
    return {c: Fraction(counts[c], total) for c in CLASSES}


# ------------------------------------------------------------------ scenes


def _play(tests, scene_cards, fresh_cards, *, ace, ties, confirmation):
    """The classes of a scene, drawing from iterators of cards."""
    result = []
    for base, difficulty, hunger in tests:
        first = next(scene_cards)
        won = wins(first, base, difficulty, ace=ace, ties=ties)
        bestial = False
        if hunger >= 1 and calls_the_beast(first):
            second = next(scene_cards) if confirmation == "same_deck" else next(fresh_cards)
            bestial = calls_the_beast(second)
        result.append(outcome(won, bestial))
    return tuple(result)


def brute_scene(tests, *, ace="fails", ties="initiator", confirmation="same_deck", reshuffle=True) -> dict:
    """``{tuple of classes: Fraction}`` over every ordered draw of a scene.

    Not reshuffled: one deck, its first cards enumerated with
    ``itertools.permutations`` (the scene must need at most ten cards of it);
    reshuffled: each test's own deck.  Fresh confirmation cards come from
    decks of their own (``itertools.product``).
    """
    tests = [tuple(t) + (0,) * (3 - len(t)) for t in tests]
    hungry = sum(1 for t in tests if t[2] >= 1)
    fresh = hungry if confirmation == "fresh_deck" else 0
    per_test = 2 if confirmation == "same_deck" else 1
    counts = Counter()
    if reshuffle:
        decks = [itertools.permutations(DECK, per_test if t[2] >= 1 else 1) for t in tests]
        for draws in itertools.product(*decks, itertools.product(DECK, repeat=fresh)):
            *own, fresh_cards = draws
            fresh_iter = iter(fresh_cards)
            classes = ()
            for t, cards in zip(tests, own):  # each test reads its own full deck
                classes += _play([t], iter(cards), fresh_iter, ace=ace, ties=ties, confirmation=confirmation)
            counts[classes] += 1
    else:
        needed = sum(per_test if t[2] >= 1 else 1 for t in tests)
        if needed > len(DECK):
            raise ValueError("the scene can need more cards than the deck holds; use recursive_scene")
        for prefix in itertools.permutations(DECK, needed):
            for fresh_cards in itertools.product(DECK, repeat=fresh):
                counts[
                    _play(tests, iter(prefix), iter(fresh_cards), ace=ace, ties=ties, confirmation=confirmation)
                ] += 1
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}


def recursive_scene(tests, *, ace="fails", ties="initiator", confirmation="same_deck") -> dict:
    """A scene from one deck that is not reshuffled, by recursion over the cards left.

    Each draw takes one of the cards left with equal chance; a deck that is
    empty when a card is needed gets all ten cards back.  For scenes too
    long for :func:`brute_scene`.  Returns ``{tuple of classes: Fraction}``.
    """
    tests = tuple(tuple(t) + (0,) * (3 - len(t)) for t in tests)

    def draws(left):
        deck = left if left else frozenset(DECK)
        for card in deck:
            yield card, deck - {card}, Fraction(1, len(deck))

    @lru_cache(maxsize=None)
    def rest(i, left):
        if i == len(tests):
            return {(): Fraction(1)}
        base, difficulty, hunger = tests[i]
        dist = Counter()
        for first, left1, p1 in draws(left):
            won = wins(first, base, difficulty, ace=ace, ties=ties)
            if hunger >= 1 and calls_the_beast(first):
                if confirmation == "same_deck":
                    branches = [(calls_the_beast(c), l2, p2) for c, l2, p2 in draws(left1)]
                else:
                    branches = [(calls_the_beast(c), left1, Fraction(1, len(DECK))) for c in DECK]
            else:
                branches = [(False, left1, Fraction(1))]
            for bestial, left2, p2 in branches:
                head = outcome(won, bestial)
                for tail, q in rest(i + 1, left2).items():
                    dist[(head,) + tail] += p1 * p2 * q
        return dict(dist)

    return rest(0, frozenset(DECK))


def scene_summary(dist: dict, n_tests: int):
    """From ``{classes: Fraction}``: per-test class marginals, consecutive pairs,
    and the joint distribution of (tests won, bestial results)."""
    marginals = [dict.fromkeys(CLASSES, Fraction(0)) for _ in range(n_tests)]
    pairs = [{(a, b): Fraction(0) for a in CLASSES for b in CLASSES} for _ in range(n_tests - 1)]
    counts = Counter()
    for seq, p in dist.items():
        for t, c in enumerate(seq):
            marginals[t][c] += p
        for t in range(n_tests - 1):
            pairs[t][(seq[t], seq[t + 1])] += p
        won = sum(1 for c in seq if c in ("success", "bestial_success"))
        bestial = sum(1 for c in seq if c.startswith("bestial"))
        counts[(won, bestial)] += p
    return marginals, pairs, dict(counts)
