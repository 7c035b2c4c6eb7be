"""Card-deck engine: exact ways of tests drawn without replacement from a small deck."""

from __future__ import annotations

import math
from functools import lru_cache, reduce
from typing import TYPE_CHECKING, cast

import numpy as np


from analysis.engine import exact as _exact
from analysis.engine import seam

if TYPE_CHECKING:  # (the kernels are imported when first counted, through the seam)
    from kernels._jit import IntArray

#: Outcome classes of a test (columns of the engine's outputs), in order.
SUCCESS, FAILURE, BESTIAL_SUCCESS, BESTIAL_FAILURE = (
    seam.shapes.SUCCESS,
    seam.shapes.FAILURE,
    seam.shapes.BESTIAL_SUCCESS,
    seam.shapes.BESTIAL_FAILURE,
)
#: Number of outcome classes.
N_CLASSES = seam.shapes.N_CLASSES
#: A deck: ``(values, auto_fail, triggers)``, tuples of int indexed by card (see :func:`grid_ways`).
Deck = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def weight_base(n_cards: int) -> int:
    """lcm(1..n_cards): each draw from r cards gives each card ``weight_base // r`` equal shares.

    Parameters
    ----------
    n_cards : int
        Cards in a full deck.

    Returns
    -------
    int
    """
    return reduce(lambda a, b: a * b // math.gcd(a, b), range(1, n_cards + 1))


def denominator(n_cards: int, fresh_confirmation: int, opposed: bool = False) -> int:
    """The ordered draws one test (or an opposed test) is counted over.

    Parameters
    ----------
    n_cards : int
        Cards in a full deck.
    fresh_confirmation : int
        1 if the confirmation card comes from a fresh deck, 0 if from the
        cards left after the first draw.
    opposed : bool
        True for an opposed test: the defender draws a card of a full deck too.

    Returns
    -------
    int
    """
    n = n_cards
    den = n * (n if fresh_confirmation else n - 1)
    return den * n if opposed else den


def _arrays(deck: Deck) -> tuple[IntArray, IntArray, IntArray]:
    return cast("tuple[IntArray, IntArray, IntArray]", tuple(np.array(a, dtype=np.int64) for a in deck))


@lru_cache(maxsize=256)
def grid_ways(
    opposed: bool,
    deck: Deck,
    bases: tuple[int, ...],
    others: tuple[int, ...],
    hungry: tuple[int, ...],
    win_on_tie: int,
    fresh_confirmation: int,
) -> np.ndarray:
    """Ways per class over (base, difficulty or defense, hungry): the static
    or the opposed grid kernel.

    Parameters
    ----------
    opposed : bool
        True: opposed tests against a defense; False: static tests against a difficulty.
    deck : tuple
        ``(values, auto_fail, triggers)``, tuples of int indexed by card: what
        each card adds, 1 for a card that fails its drawer whatever the total,
        1 for a card that calls for (and confirms) a confirmation draw.
    bases, others : tuple of int
        The drawer's bases; the difficulties (static) or defenses (opposed).
    hungry : tuple of int
        1 for a test with a confirmation slot, else 0.
    win_on_tie : int
        1 if the initiator wins a tie.
    fresh_confirmation : int
        1 if the confirmation card comes from a fresh deck.

    Returns
    -------
    numpy.ndarray
        Read-only int64 ways of shape ``(len(bases), len(others), len(hungry),
        N_CLASSES)``, over :func:`denominator`.
    """
    grid_kernel = seam.cards.opposed_grid_ways if opposed else seam.cards.static_grid_ways
    bound = (seam.cards.opposed_grid_ways_bound if opposed else seam.cards.static_grid_ways_bound)(len(deck[0]))

    def compute(mod: int) -> np.ndarray:
        out = np.empty((len(bases), len(others), len(hungry), N_CLASSES), dtype=np.int64)
        grid_kernel(
            *_arrays(deck),
            np.array(bases, dtype=np.int64),
            np.array(others, dtype=np.int64),
            np.array(hungry, dtype=np.int64),
            win_on_tie,
            fresh_confirmation,
            out,
        )
        return out

    out = _exact.int64_counts(compute, bound)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def scene_counts(
    deck: Deck, tests: tuple[tuple[int, int, int], ...], win_on_tie: int, fresh_confirmation: int, reshuffle: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, ...]]:
    """Exact ways of a scene: tests drawn one after another from one deck.

    Parameters
    ----------
    deck : tuple
        ``(values, auto_fail, triggers)`` as for :func:`grid_ways`.
    tests : tuple of (base, difficulty, hungry)
        ``hungry``: 1 for a test with a confirmation slot, else 0.
    win_on_tie : int
        1 if the drawer wins a tie.
    fresh_confirmation : int
        1 if the confirmation card comes from a fresh deck.
    reshuffle : int
        1 if the deck is reshuffled when it runs out.

    Returns
    -------
    tuple
        ``(marginal, pair, count, denominators)``: the ways of each test's
        class, of each pair of consecutive tests' classes, of the number of
        tests won, and the denominator of each test (``weight_base ** slots``
        of the tests so far).
    """
    n = len(tests)
    weight = weight_base(len(deck[0]))
    slots = [2 if h >= 1 else 1 for _, _, h in tests]
    dens = [weight ** sum(slots[: t + 1]) for t in range(n)]
    bases = np.array([t[0] for t in tests], dtype=np.int64)
    diffs = np.array([t[1] for t in tests], dtype=np.int64)
    hungry = np.array([1 if t[2] >= 1 else 0 for t in tests], dtype=np.int64)
    n_pairs = max(n - 1, 1)
    sizes = (n * N_CLASSES, n_pairs * N_CLASSES**2, (n + 1) ** 2)

    def compute(mod: int) -> np.ndarray:
        marg = np.empty((n, N_CLASSES), dtype=np.int64)
        pair = np.empty((n_pairs, N_CLASSES, N_CLASSES), dtype=np.int64)
        count = np.empty((n + 1, n + 1), dtype=np.int64)
        seam.cards.scene_ways(
            *_arrays(deck),
            bases,
            diffs,
            hungry,
            win_on_tie,
            fresh_confirmation,
            int(reshuffle),
            weight,
            mod,
            marg,
            pair,
            count,
        )
        return np.concatenate([marg.ravel(), pair.ravel(), count.ravel()])

    flat = _exact.count(compute, seam.cards.scene_ways_bound(hungry, weight))
    marg = flat[: sizes[0]].reshape(n, N_CLASSES)
    pair = flat[sizes[0] : sizes[0] + sizes[1]].reshape(n_pairs, N_CLASSES, N_CLASSES)
    count = flat[sizes[0] + sizes[1] :].reshape(n + 1, n + 1)
    return marg, pair, count, tuple(dens)
