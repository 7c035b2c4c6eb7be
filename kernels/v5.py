"""V5 on the 5th-edition engine (``kernels.special``): Hunger dice and the six V5 classes.

A Hunger die is a special die whose mark is its 1 (faces ``(1, 4, 4, 1)``
under the official success face 6).  This module holds only what is V5's:
the class indices and the class table built from the V5 rule knobs, plus
the V5-named entry points that the rules layer calls.
"""
import numpy as np

from ._jit import kernel
from .special import (BAND_NONE, BAND_SHORT, BAND_WIN, CAP, special_classify, special_grid_class_ways,
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
# Plain Python (not jitted): upper bounds on every number the kernels above
# hold, for ``analysis.exact.count``.

from .multiset import binomials_bound, powers_bound  # noqa: E402


def _part_base(faces, tails) -> int:
    """Base ``B`` with every count of a part of ``k`` dice at most ``B ** k``.

    A partial product of a part (a multinomial coefficient times powers of
    the categories enumerated so far) is at most the ways of the dice left
    falling in the other categories, i.e. ``sum(faces) ** k``, provided the
    categories still to enumerate have a face between them; ``tails`` are
    their face sums.  If one is empty the binomial stands alone, and
    ``sum(faces) + 1`` bounds it (``C(k, j) a**j <= (a + 1)**k``).
    """
    total = sum(int(f) for f in faces)
    return total if all(int(t) >= 1 for t in tails) else total + 1


def v5_pool_ways_bound(n_normal, n_hunger, w_normal, w_hunger, binom_size=None) -> int:
    """Upper bound on every number :func:`v5_pool_ways` and :func:`v5_classify` hold.

    Parameters
    ----------
    n_normal, n_hunger, w_normal, w_hunger
        As for :func:`v5_pool_ways`.
    binom_size : int, optional
        Rows of the binomial table passed as ``binom``; default
        ``max(n_normal, n_hunger) + 1``, the smallest the kernel accepts.

    Returns
    -------
    int
        The number of ordered rolls (``10 ** (n_normal + n_hunger)`` for d10
        faces), or more where a face power or a binomial of the table is
        larger (only for pools of a few dice).
    """
    nn, nh = int(n_normal), int(n_hunger)
    w_normal = [int(w) for w in w_normal]
    w_hunger = [int(w) for w in w_hunger]
    # enumeration order: normal tens, then successes and failures together;
    # Hunger tens, then ones, then successes and failures together
    normal = _part_base(w_normal, (w_normal[0] + w_normal[1],))
    hunger = _part_base(w_hunger, (w_hunger[0] + w_hunger[1] + w_hunger[2],
                                   w_hunger[1] + w_hunger[2]))
    size = max(nn, nh) + 1 if binom_size is None else int(binom_size)
    return max(normal ** nn * hunger ** nh,
               max(powers_bound(w, nn + 1) for w in w_normal),
               max(powers_bound(w, nh + 1) for w in w_hunger),
               binomials_bound(size))


def v5_grid_class_ways_bound(pools, hungers, hunger_replaces, w_normal, w_hunger,
                             binom_size=None) -> int:
    """Upper bound on every number :func:`v5_grid_class_ways` holds.

    Parameters
    ----------
    pools, hungers, hunger_replaces, w_normal, w_hunger
        As for :func:`v5_grid_class_ways`.
    binom_size : int, optional
        Rows of the binomial table; default one more than the most dice
        of the grid.

    Returns
    -------
    int
        The largest :func:`v5_pool_ways_bound` over the grid's pools.
    """
    dice = []
    for pool in pools:
        for hunger in hungers:
            pool, hunger = int(pool), int(hunger)
            if int(hunger_replaces) == 1:
                nh = min(hunger, pool)
                dice.append((pool - nh, nh))
            else:
                dice.append((pool, hunger))
    if not dice:
        return 1
    size = max(nn + nh for nn, nh in dice) + 1 if binom_size is None else binom_size
    return max(v5_pool_ways_bound(nn, nh, w_normal, w_hunger, size) for nn, nh in dice)
