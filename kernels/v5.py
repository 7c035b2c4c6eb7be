"""V5 pools: ways for each (successes, pair of tens, Hunger tens, Hunger ones).

A V5 roll's outcome depends only on how many dice fall in each category,
so the kernels walk category-count vectors (compositions of the pool) and
weight each by its multinomial coefficient times the face counts raised to
the category counts, never the 10**n ordered rolls.

Normal dice fall in 3 categories (fail, success below ten, ten), Hunger dice
in 4 (one, fail, success below ten, ten).  The two parts are enumerated
separately and combined, since only the successes, the total number of tens,
and the Hunger tens and Hunger ones (each capped at 2) matter.
"""
import numpy as np

from ._jit import kernel
from .multiset import addmod, fill_powers, mulmod

#: Class columns of :func:`v5_classify`'s output, in order.
TOTAL_FAILURE, WIN_AT_COST, WIN, CRITICAL_WIN, MESSY_CRITICAL, BESTIAL_FAILURE = range(6)
N_CLASSES = 6
#: Hunger tens and Hunger ones are counted up to this cap (0, 1, 2 or more).
CAP = 2


@kernel
def normal_part_ways(n_normal, w_normal, mod, binom, out):
    """Ways of the normal dice alone, by successes below ten and tens.

    Parameters
    ----------
    n_normal : int64
    w_normal, mod, binom
        As for :func:`v5_pool_ways`.
    out : int64[n_normal + 1, n_normal + 1]
        Zeroed by the caller; ``out[b, c]``: ways to roll ``b`` successes
        below ten and ``c`` tens (the rest fail).
    """
    nn = n_normal
    pn = np.empty((3, nn + 1), dtype=np.int64)
    for i in range(3):
        fill_powers(w_normal[i], mod, pn[i])
    for c in range(nn + 1):
        wc = mulmod(binom[nn, c], pn[2, c], mod)
        r = nn - c
        for b in range(r + 1):
            wb = mulmod(binom[r, b], mulmod(pn[1, b], pn[0, r - b], mod), mod)
            out[b, c] = mulmod(wc, wb, mod)


@kernel
def hunger_part_ways(n_hunger, w_hunger, mod, binom, out):
    """Ways of the Hunger dice alone, by successes below ten, tens and ones.

    Parameters
    ----------
    n_hunger : int64
    w_hunger, mod, binom
        As for :func:`v5_pool_ways`.
    out : int64[n_hunger + 1, n_hunger + 1, 3]
        Zeroed by the caller; ``out[g, e, o]``: ways to roll ``g`` successes
        below ten, ``e`` tens and ``min(ones, 2) = o``.
    """
    nh = n_hunger
    ph = np.empty((4, nh + 1), dtype=np.int64)
    for i in range(4):
        fill_powers(w_hunger[i], mod, ph[i])
    for e in range(nh + 1):
        we = mulmod(binom[nh, e], ph[3, e], mod)
        r1 = nh - e
        for o in range(r1 + 1):
            wo = mulmod(we, mulmod(binom[r1, o], ph[0, o], mod), mod)
            r2 = r1 - o
            oc = min(o, CAP)
            for g in range(r2 + 1):
                wg = mulmod(binom[r2, g], mulmod(ph[2, g], ph[1, r2 - g], mod), mod)
                out[g, e, oc] = addmod(out[g, e, oc], mulmod(wo, wg, mod), mod)



@kernel
def v5_pool_ways(n_normal, n_hunger, w_normal, w_hunger, crit_bonus, mod, binom, out):
    """Add the ways of every V5 roll of the given dice into ``out``.

    Parameters
    ----------
    n_normal, n_hunger : int64
        Number of normal and of Hunger dice.
    w_normal : int64[3]
        Faces of a normal die that are a failure, a success below ten, a ten.
    w_hunger : int64[4]
        Faces of a Hunger die that are a one, another failure, a success
        below ten, a ten.
    crit_bonus : int64
        Bonus successes for each pair of tens (any dice).
    mod : int64
        0 for plain int64 (caller checked the total fits), else a prime
        below 2**31 (see ``kernels.multiset``).
    binom : int64[M, M]
        Binomial table from ``fill_binomials`` with ``M > max(n_normal, n_hunger)``.
    out : int64[S, 2, 3, 3]
        Zeroed by the caller; ``S >= n + crit_bonus * (n // 2) + 1`` with
        ``n = n_normal + n_hunger``.  ``out[s, p, e, o]`` receives the ways to
        roll ``s`` successes, with (``p = 1``) or without a pair of tens,
        ``min(hunger tens, 2) = e`` and ``min(hunger ones, 2) = o``.
    """
    nn = n_normal
    nh = n_hunger
    normal_ways = np.zeros((nn + 1, nn + 1), dtype=np.int64)
    normal_part_ways(nn, w_normal, mod, binom, normal_ways)
    hunger_ways = np.zeros((nh + 1, nh + 1, CAP + 1), dtype=np.int64)
    hunger_part_ways(nh, w_hunger, mod, binom, hunger_ways)

    for c in range(nn + 1):
        for b in range(nn + 1 - c):
            x = normal_ways[b, c]
            if x == 0:
                continue
            for e in range(nh + 1):
                t = c + e
                pair = 1 if t >= 2 else 0
                ec = min(e, CAP)
                base = b + t + crit_bonus * (t // 2)
                for g in range(nh + 1 - e):
                    for oc in range(CAP + 1):
                        y = hunger_ways[g, e, oc]
                        if y == 0:
                            continue
                        s = base + g
                        out[s, pair, ec, oc] = addmod(out[s, pair, ec, oc], mulmod(x, y, mod), mod)


@kernel
def v5_classify(ways, difficulties, messy_tens, bestial_ones, taint_win, mod, out):
    """Sum a pool's ways into the six V5 outcome classes, per Difficulty.

    Parameters
    ----------
    ways : int64[S, 2, 3, 3]
        Output of :func:`v5_pool_ways`.
    difficulties : int64[D]
        Difficulties (>= 0) to classify against.
    messy_tens : int64
        Hunger tens (1 or 2) that make a critical win messy.
    bestial_ones : int64
        Hunger ones (1 or 2) that make a failure bestial.
    taint_win : int64
        1 if a non-critical win showing that many Hunger ones is only a
        win at a cost (a house rule), else 0.
    mod : int64
        As for :func:`v5_pool_ways`.
    out : int64[D, 6]
        Overwritten: ways per class, in the order of the module constants.
    """
    n_s = ways.shape[0]
    # win_ways[s]: classes of the rolls with s successes if s >= Difficulty;
    # fail_ways[s]: their classes if s < Difficulty.
    win_ways = np.zeros((n_s + 1, N_CLASSES), dtype=np.int64)
    fail_ways = np.zeros((n_s + 1, N_CLASSES), dtype=np.int64)
    for s in range(n_s):
        for pair in range(2):
            for ec in range(CAP + 1):
                for oc in range(CAP + 1):
                    w = ways[s, pair, ec, oc]
                    if w == 0:
                        continue
                    if pair == 1:
                        cls = MESSY_CRITICAL if ec >= messy_tens else CRITICAL_WIN
                    elif taint_win == 1 and oc >= bestial_ones:
                        cls = WIN_AT_COST
                    else:
                        cls = WIN
                    win_ways[s, cls] = addmod(win_ways[s, cls], w, mod)
                    if oc >= bestial_ones:
                        cls = BESTIAL_FAILURE
                    elif s == 0:
                        cls = TOTAL_FAILURE
                    else:
                        cls = WIN_AT_COST
                    fail_ways[s, cls] = addmod(fail_ways[s, cls], w, mod)
    # suffix sums of wins (s >= d), prefix sums of failures (s < d)
    for s in range(n_s - 1, -1, -1):
        for k in range(N_CLASSES):
            win_ways[s, k] = addmod(win_ways[s, k], win_ways[s + 1, k], mod)
    for s in range(n_s, 0, -1):
        for k in range(N_CLASSES):
            fail_ways[s, k] = fail_ways[s - 1, k]
    for k in range(N_CLASSES):
        fail_ways[0, k] = 0
    for s in range(1, n_s + 1):
        for k in range(N_CLASSES):
            fail_ways[s, k] = addmod(fail_ways[s, k], fail_ways[s - 1, k], mod)
    for di in range(difficulties.shape[0]):
        d = min(difficulties[di], n_s)
        for k in range(N_CLASSES):
            out[di, k] = addmod(win_ways[d, k], fail_ways[d, k], mod)


@kernel
def v5_grid_class_ways(pools, hungers, difficulties, w_normal, w_hunger, crit_bonus,
                       messy_tens, bestial_ones, taint_win, hunger_replaces, mod, binom, out):
    """Class ways for a whole grid of (pool, Hunger, Difficulty) in one call.

    Parameters
    ----------
    pools, hungers, difficulties : int64[P], int64[H], int64[D]
    w_normal, w_hunger, crit_bonus, messy_tens, bestial_ones, taint_win
        As for :func:`v5_pool_ways` and :func:`v5_classify`.
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
    for pi in range(pools.shape[0]):
        pool = pools[pi]
        for hi in range(hungers.shape[0]):
            if hunger_replaces == 1:
                nh = min(hungers[hi], pool)
                nn = pool - nh
            else:
                nh = hungers[hi]
                nn = pool
            n = nn + nh
            ways = np.zeros((n + crit_bonus * (n // 2) + 1, 2, CAP + 1, CAP + 1), dtype=np.int64)
            v5_pool_ways(nn, nh, w_normal, w_hunger, crit_bonus, mod, binom, ways)
            v5_classify(ways, difficulties, messy_tens, bestial_ones, taint_win, mod, out[pi, hi])


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
