"""V5 on the 5th-edition engine (``kernels.special``): Hunger dice and the six V5 classes.

A Hunger die is a special die whose mark is its 1 (faces ``(1, 4, 4, 1)``
under the official success face 6).  This module holds only what is V5's:
the class indices and the class table built from the V5 rule knobs, plus
the V5-named entry points that the rules layer calls.
"""
import numpy as np

from ._jit import kernel
from .special import (special_grid_class_ways_bound, special_pool_ways_bound,
                      BAND_NONE, BAND_SHORT, BAND_WIN, CAP, special_classify, special_grid_class_ways,
                      special_pool_ways)

#: Class columns of :func:`v5_classify`'s output, in order.
TOTAL_FAILURE, WIN_AT_COST, WIN, CRITICAL_WIN, MESSY_CRITICAL, BESTIAL_FAILURE = range(6)
N_CLASSES = 6

#: Ways by (successes, pair of tens, Hunger tens, Hunger ones): the engine's count.
v5_pool_ways = special_pool_ways


@kernel
def v5_mark_bonus():
    """V5 adds no successes for Hunger ones: ``int64[CAP + 1]`` of zeros."""
    return np.zeros(CAP + 1, dtype=np.int64)


@kernel
def v5_class_table(messy_tens, bestial_ones, taint_win):
    """The V5 class table (see ``kernels.special``) for the given rule knobs.

    Parameters
    ----------
    messy_tens : int64
        Hunger tens (1 or 2) that make a critical win messy.
    bestial_ones : int64
        Hunger ones (1 or 2) that make a failure bestial.
    taint_win : int64
        1 if a non-critical win showing that many Hunger ones is only a
        win at a cost (a house rule), else 0.

    Returns
    -------
    int64[3, 2, CAP + 1, CAP + 1]
        Class index by (band, pair, Hunger tens, Hunger ones).
    """
    table = np.empty((3, 2, CAP + 1, CAP + 1), dtype=np.int64)
    for pair in range(2):
        for ec in range(CAP + 1):
            for oc in range(CAP + 1):
                if pair == 1:
                    win = MESSY_CRITICAL if ec >= messy_tens else CRITICAL_WIN
                elif taint_win == 1 and oc >= bestial_ones:
                    win = WIN_AT_COST
                else:
                    win = WIN
                table[BAND_WIN, pair, ec, oc] = win
                bestial = oc >= bestial_ones
                table[BAND_NONE, pair, ec, oc] = BESTIAL_FAILURE if bestial else TOTAL_FAILURE
                table[BAND_SHORT, pair, ec, oc] = BESTIAL_FAILURE if bestial else WIN_AT_COST
    return table


@kernel
def v5_classify(ways, difficulties, messy_tens, bestial_ones, taint_win, mod, out):
    """Sum a pool's ways into the six V5 outcome classes, per Difficulty.

    Parameters
    ----------
    ways : int64[S, 2, 3, 3]
        Output of :func:`v5_pool_ways`.
    difficulties : int64[D]
        Difficulties (>= 0) to classify against.
    messy_tens, bestial_ones, taint_win
        As for :func:`v5_class_table`.
    mod : int64
        As for :func:`v5_pool_ways`.
    out : int64[D, 6]
        Overwritten: ways per class, in the order of the module constants.
    """
    special_classify(ways, difficulties, v5_mark_bonus(),
                     v5_class_table(messy_tens, bestial_ones, taint_win), mod, out)


@kernel
def v5_grid_class_ways(pools, hungers, difficulties, w_normal, w_hunger, crit_bonus,
                       messy_tens, bestial_ones, taint_win, hunger_replaces, mod, binom, out):
    """Class ways for a whole grid of (pool, Hunger, Difficulty) in one call.

    Parameters
    ----------
    pools, hungers, difficulties : int64[P], int64[H], int64[D]
    w_normal, w_hunger, crit_bonus
        As for :func:`v5_pool_ways`.
    messy_tens, bestial_ones, taint_win
        As for :func:`v5_class_table`.
    hunger_replaces : int64
        1: Hunger dice replace normal dice (``min(hunger, pool)`` of them);
        0: they are added to the pool.
    mod : int64
        As for :func:`v5_pool_ways`; the caller checked every pool's total.
    binom : int64[M, M]
        Binomial table with ``M`` above the largest number of dice.
    out : int64[P, H, D, 6]
        Overwritten with the ways per class.
    """
    special_grid_class_ways(pools, hungers, difficulties, w_normal, w_hunger, crit_bonus,
                            v5_mark_bonus(), v5_class_table(messy_tens, bestial_ones, taint_win),
                            hunger_replaces, mod, binom, out)


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted): the engine's bounds (``kernels.special``) under
# the V5 names, for ``analysis.exact.count``.

def v5_pool_ways_bound(n_normal, n_hunger, w_normal, w_hunger, binom_size=None) -> int:
    """Upper bound on every number :func:`v5_pool_ways` and :func:`v5_classify` hold
    (:func:`kernels.special.special_pool_ways_bound` with Hunger dice as the special dice)."""
    return special_pool_ways_bound(n_normal, n_hunger, w_normal, w_hunger, binom_size)


def v5_grid_class_ways_bound(pools, hungers, hunger_replaces, w_normal, w_hunger,
                             binom_size=None) -> int:
    """Upper bound on every number :func:`v5_grid_class_ways` holds
    (:func:`kernels.special.special_grid_class_ways_bound`)."""
    return special_grid_class_ways_bound(pools, hungers, hunger_replaces, w_normal, w_hunger, binom_size)
