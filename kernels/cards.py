"""Card decks drawn without replacement: ways of one test, an opposed test and a scene.

A deck is described by three arrays indexed by card (for the ten-card deck
of the ten-card test rules: Ace, 2, ..., 10):

* ``values``: what the card adds to the total;
* ``auto_fail``: 1 if the card fails its drawer whatever the total (the Ace);
* ``triggers``: 1 if the card calls for (and, drawn second, confirms) a
  Hunger confirmation draw (the 10 and the Ace).

A single or opposed test is counted over every ordered draw (first card,
then the card the confirmation would take), so its counts are tiny and the
kernels work in int64 without a ``mod`` argument.  A scene of several tests
from one deck is counted over the deck's states (the bitmask of the cards
still in it), which needs the ``mod`` argument for long scenes.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from kernels._jit import IntArray, kernel
from kernels.multiset import addmod, mulmod
from kernels.shapes import BESTIAL_FAILURE, BESTIAL_SUCCESS, FAILURE, N_CLASSES, SUCCESS  # noqa: F401 (kernels.shapes)

#: Decks are bitmasks in an int64; a scene's state table has 2**n rows.
MAX_CARDS = 16


@kernel
def popcount(mask: int) -> int:
    """Number of set bits of ``mask`` (cards left in a deck)."""
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


@kernel
def card_wins(card: int, base: int, target: int, values: IntArray, auto_fail: IntArray, win_on_tie: int) -> bool:
    """True if drawing ``card`` wins a test of ``base`` against ``target``.

    Parameters
    ----------
    card : int64
        Index of the drawn card.
    base, target : int64
        The drawer's total before the card, and the total to reach.
    values, auto_fail : int64[N]
        The deck (see the module docstring).
    win_on_tie : int64
        1: a total equal to the target wins; 0: it must be higher.
    """
    if auto_fail[card] == 1:
        return False
    total = base + values[card]
    if win_on_tie == 1:
        return total >= target
    return total > target


@kernel
def classify(won: bool, bestial: bool) -> int:
    """Outcome class (module constants) of a test that was won or lost, bestial or not."""
    if bestial:
        return BESTIAL_SUCCESS if won else BESTIAL_FAILURE
    return SUCCESS if won else FAILURE


@kernel
def static_grid_ways(
    values: IntArray,
    auto_fail: IntArray,
    triggers: IntArray,
    bases: IntArray,
    difficulties: IntArray,
    hungry: IntArray,
    win_on_tie: int,
    fresh_confirmation: int,
    out: IntArray,
) -> None:
    """Ways of each outcome class of a static test, for a grid of tests.

    Every ordered draw from a full deck is counted once: the first card,
    then the confirmation card (another card of the same deck, or any card
    of a fresh deck).  The confirmation card only matters when the tester
    is hungry and the first card triggers; counting it always gives every
    test the same denominator, ``N * (N - 1)`` (same deck) or ``N * N``
    (fresh deck).

    Parameters
    ----------
    values, auto_fail, triggers : int64[N]
        The deck (see the module docstring).
    bases, difficulties : int64[B], int64[D]
        Totals before the card, and the difficulties to reach.
    hungry : int64[H]
        1 if the tester's Hunger calls for confirmation draws, else 0.
    win_on_tie : int64
        1: a total equal to the difficulty succeeds; 0: it must be higher.
    fresh_confirmation : int64
        0: the confirmation card comes from the same deck's remaining
        cards; 1: from a fresh full deck.
    out : int64[B, D, H, 4]
        Overwritten with the ways per class (module constants).
    """
    n = values.shape[0]
    for bi in range(bases.shape[0]):
        for di in range(difficulties.shape[0]):
            for hi in range(hungry.shape[0]):
                for k in range(N_CLASSES):
                    out[bi, di, hi, k] = 0
                for a in range(n):
                    won = card_wins(a, bases[bi], difficulties[di], values, auto_fail, win_on_tie)
                    for c in range(n):
                        if c == a and fresh_confirmation == 0:
                            continue
                        bestial = hungry[hi] == 1 and triggers[a] == 1 and triggers[c] == 1
                        out[bi, di, hi, classify(won, bestial)] += 1


@kernel
def opposed_grid_ways(
    values: IntArray,
    auto_fail: IntArray,
    triggers: IntArray,
    bases: IntArray,
    defenses: IntArray,
    hungry: IntArray,
    win_on_tie: int,
    fresh_confirmation: int,
    out: IntArray,
) -> None:
    """Ways of each outcome class of an opposed test, for a grid of tests.

    The initiator and the defender draw from two independent full decks.
    Counted over every ordered draw: the initiator's card, the initiator's
    confirmation card (as in :func:`static_grid_ways`) and the defender's
    card, so the denominator is ``N * (N - 1) * N`` (same-deck confirmation)
    or ``N ** 3`` (fresh deck).  An auto-failing card fails its drawer: the
    initiator's loses (even against the defender's), the defender's alone
    hands the initiator the win.  The classes are the initiator's: won or
    lost, bestial or not.

    Parameters
    ----------
    values, auto_fail, triggers : int64[N]
        The deck, the same for both sides.
    bases, defenses : int64[B], int64[E]
        The initiator's and the defender's totals before their cards.
    hungry : int64[H]
        1 if the initiator's Hunger calls for confirmation draws, else 0.
    win_on_tie : int64
        1: equal totals go to the initiator; 0: to the defender.
    fresh_confirmation : int64
        As for :func:`static_grid_ways`.
    out : int64[B, E, H, 4]
        Overwritten with the ways per class (module constants).
    """
    n = values.shape[0]
    for bi in range(bases.shape[0]):
        for ei in range(defenses.shape[0]):
            for hi in range(hungry.shape[0]):
                for k in range(N_CLASSES):
                    out[bi, ei, hi, k] = 0
                for a in range(n):
                    for d in range(n):
                        if auto_fail[a] == 1:
                            won = False
                        elif auto_fail[d] == 1:
                            won = True
                        else:
                            won = card_wins(a, bases[bi], defenses[ei] + values[d], values, auto_fail, win_on_tie)
                        for c in range(n):
                            if c == a and fresh_confirmation == 0:
                                continue
                            bestial = hungry[hi] == 1 and triggers[a] == 1 and triggers[c] == 1
                            out[bi, ei, hi, classify(won, bestial)] += 1


@kernel
def scene_ways(
    values: IntArray,
    auto_fail: IntArray,
    triggers: IntArray,
    bases: IntArray,
    difficulties: IntArray,
    hungry: IntArray,
    win_on_tie: int,
    fresh_confirmation: int,
    reshuffle: int,
    weight_base: int,
    mod: int,
    marginal_out: IntArray,
    pair_out: IntArray,
    count_out: IntArray,
) -> None:
    """Ways of a scene: static tests one after another, over the deck's states.

    The state is the set of cards still in the scene deck (a bitmask), the
    class of the previous test, and the running numbers of wins and of
    bestial results.  A deck that is empty when a card is needed is
    reshuffled whole.  With ``reshuffle == 1`` every test draws from a full
    deck (the tests are independent).

    Each draw is a "slot" of ``weight_base`` equally likely values: drawing
    from ``r`` cards gives each card ``weight_base // r`` of them
    (``weight_base`` is a common multiple of 1..N, e.g. 2520 for N = 10).
    A hungry test has two slots (its confirmation slot, when the first card
    does not trigger, takes all ``weight_base`` values without a draw), any
    other test one; so after test ``t`` every count is out of
    ``weight_base ** (slots of tests 0..t)``.

    Parameters
    ----------
    values, auto_fail, triggers : int64[N]
        The deck (see the module docstring), ``N <= MAX_CARDS``.
    bases, difficulties, hungry : int64[T]
        Each test's total before the card, its difficulty, and 1 if it
        calls for confirmation draws.
    win_on_tie : int64
        1: a total equal to the difficulty succeeds; 0: it must be higher.
    fresh_confirmation : int64
        0: the confirmation card comes from the scene deck (and leaves
        it); 1: from a fresh full deck (the scene deck keeps its cards).
    reshuffle : int64
        1: the deck is reshuffled whole before every test; 0: not.
    weight_base : int64
        A common multiple of 1..N.
    mod : int64
        0 for plain int64 (the caller checked :func:`scene_ways_bound`,
        ``weight_base ** slots``, fits), else a prime below 2**31 (see
        ``kernels.multiset``).
    marginal_out : int64[T, 4]
        Overwritten: ways of each class of test ``t``.
    pair_out : int64[max(T - 1, 1), 4, 4]
        Overwritten: ``pair_out[t, i, j]`` = ways that test ``t`` ends in
        class ``i`` and test ``t + 1`` in class ``j``.
    count_out : int64[T + 1, T + 1]
        Overwritten: ways of ``w`` won tests (bestial or not) and ``b``
        bestial results in the whole scene, ``count_out[w, b]``.
    """
    n = values.shape[0]
    full = (1 << n) - 1
    n_tests = bases.shape[0]
    marginal_out[:, :] = 0
    pair_out[:, :, :] = 0
    count_out[:, :] = 0
    cur = np.zeros((full + 1, N_CLASSES, n_tests + 1, n_tests + 1), dtype=np.int64)
    cur[full, 0, 0, 0] = 1
    for t in range(n_tests):
        nxt = np.zeros_like(cur)
        for mask in range(full + 1):
            for pc in range(N_CLASSES):
                for s in range(t + 1):
                    for b in range(t + 1):
                        w = cur[mask, pc, s, b]
                        if w == 0:
                            continue
                        deck = full if reshuffle == 1 or mask == 0 else mask
                        w1 = mulmod(w, weight_base // popcount(deck), mod)
                        for a in range(n):
                            if (deck >> a) & 1 == 0:
                                continue
                            left = deck & ~(1 << a)
                            won = card_wins(a, bases[t], difficulties[t], values, auto_fail, win_on_tie)
                            s2 = s + 1 if won else s
                            if hungry[t] == 1 and triggers[a] == 1:
                                if fresh_confirmation == 1:
                                    deck2 = full
                                else:
                                    deck2 = left if left != 0 else full
                                w2 = mulmod(w1, weight_base // popcount(deck2), mod)
                                for c in range(n):
                                    if (deck2 >> c) & 1 == 0:
                                        continue
                                    bestial = triggers[c] == 1
                                    after = left if fresh_confirmation == 1 else deck2 & ~(1 << c)
                                    if reshuffle == 1:
                                        after = full
                                    cls = classify(won, bestial)
                                    b2 = b + 1 if bestial else b
                                    nxt[after, cls, s2, b2] = addmod(nxt[after, cls, s2, b2], w2, mod)
                                    marginal_out[t, cls] = addmod(marginal_out[t, cls], w2, mod)
                                    if t > 0:
                                        pair_out[t - 1, pc, cls] = addmod(pair_out[t - 1, pc, cls], w2, mod)
                            else:
                                w2 = mulmod(w1, weight_base, mod) if hungry[t] == 1 else w1
                                cls = SUCCESS if won else FAILURE
                                if reshuffle == 1:
                                    left = full
                                nxt[left, cls, s2, b] = addmod(nxt[left, cls, s2, b], w2, mod)
                                marginal_out[t, cls] = addmod(marginal_out[t, cls], w2, mod)
                                if t > 0:
                                    pair_out[t - 1, pc, cls] = addmod(pair_out[t - 1, pc, cls], w2, mod)
        cur = nxt
    for mask in range(full + 1):
        for pc in range(N_CLASSES):
            for s in range(n_tests + 1):
                for b in range(n_tests + 1):
                    if cur[mask, pc, s, b] != 0:
                        count_out[s, b] = addmod(count_out[s, b], cur[mask, pc, s, b], mod)


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted): upper bounds on every number the kernels above
# hold, for ``analysis.engine.exact.count`` (the grid kernels, tiny, work in int64
# only; their bounds let a caller check so).


def static_grid_ways_bound(n_cards: int) -> int:
    """Upper bound on every count of :func:`static_grid_ways`: ``N * N`` ordered draws."""
    return int(n_cards) ** 2


def opposed_grid_ways_bound(n_cards: int) -> int:
    """Upper bound on every count of :func:`opposed_grid_ways`: ``N ** 3`` ordered draws."""
    return int(n_cards) ** 3


def scene_ways_bound(hungry: Iterable[int], weight_base: int) -> int:
    """Upper bound on every number :func:`scene_ways` holds.

    Parameters
    ----------
    hungry : sequence of int
        As for :func:`scene_ways`: 1 for a test with a confirmation slot.
    weight_base : int
        As for :func:`scene_ways`.

    Returns
    -------
    int
        ``weight_base ** slots``, the slots of the whole scene (two for a
        hungry test, one for any other): each draw shares out at most
        ``weight_base`` values, so after any slot the ways of all the states
        together are at most ``weight_base`` to the slots so far.
    """
    slots = sum(2 if int(h) == 1 else 1 for h in hungry)
    return max(int(weight_base), 1) ** max(slots, 1)
