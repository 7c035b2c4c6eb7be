"""V5's own kernels, kept in the tests as an independent reference for the one engine.

V5 was once counted by these kernels: a V5 class table written by hand
from the V5 rule fields (:func:`v5_class_table`) and V5's own Willpower
kernel (:func:`v5_willpower_ways`), which walks every landed roll and every
reroll.  The library now counts V5 from its mechanic file, by the engine's
pair-of-tens path and the one Willpower engine (``analysis.engine``); the
tests compare the two.  The kernels are numba-compiled like the library's
(``kernels._jit``) and built on the same shared kernels
(``kernels.special``, ``kernels.multiset``).

The Willpower kernel, as it was documented:
Willpower rerolls on the 5th-edition engine: the exact outcome of a rolled pool after a strategy's reroll.

After the dice land a player may reroll up to three normal dice (never the
special dice: Hunger in V5), once.  The kernel walks
every landed roll as a category-count vector (normal dice: failures,
successes below ten, tens; special dice: successes below ten, tens, marks
capped at 2), picks the strategy's reroll for it, and adds the ways of
every reroll outcome.  Since rerolled dice are exchangeable within a
category, a reroll is a vector (failures, successes, tens) to reroll, at
most ``max_reroll`` dice in all.  Every roll is classified by the engine's
one class lookup (``kernels.special.classify_one``) with the system's
``mark_bonus`` and class ``table``.

Decisions compare expected values in exact small integers (ways of the
rerolled dice times integer values of the outcome classes), whatever the
arithmetic (``mod``) used to accumulate the ways of the landed rolls.
"""

import numpy as np

from kernels._jit import kernel
from kernels.multiset import addmod, mulmod
from kernels.special import (
    BAND_NONE,
    BAND_SHORT,
    BAND_WIN,
    CAP,
    classify_one,
    normal_part_ways,
    special_classify,
    special_grid_class_ways,
    special_grid_class_ways_bound,
    special_part_ways,
    special_pool_ways,
    special_pool_ways_bound,
)

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
    special_classify(ways, difficulties, v5_mark_bonus(), v5_class_table(messy_tens, bestial_ones, taint_win), mod, out)


@kernel
def v5_grid_class_ways(
    pools,
    hungers,
    difficulties,
    w_normal,
    w_hunger,
    crit_bonus,
    messy_tens,
    bestial_ones,
    taint_win,
    hunger_replaces,
    mod,
    binom,
    out,
):
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
    special_grid_class_ways(
        pools,
        hungers,
        difficulties,
        w_normal,
        w_hunger,
        crit_bonus,
        v5_mark_bonus(),
        v5_class_table(messy_tens, bestial_ones, taint_win),
        hunger_replaces,
        mod,
        binom,
        out,
    )


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted): the engine's bounds (``kernels.special``) under
# the V5 names, for ``analysis.engine.exact.count``.


def v5_pool_ways_bound(n_normal, n_hunger, w_normal, w_hunger, binom_size=None) -> int:
    """Upper bound on every number :func:`v5_pool_ways` and :func:`v5_classify` hold
    (:func:`kernels.special.special_pool_ways_bound` with Hunger dice as the special dice)."""
    return special_pool_ways_bound(n_normal, n_hunger, w_normal, w_hunger, binom_size)


def v5_grid_class_ways_bound(pools, hungers, hunger_replaces, w_normal, w_hunger, binom_size=None) -> int:
    """Upper bound on every number :func:`v5_grid_class_ways` holds
    (:func:`kernels.special.special_grid_class_ways_bound`)."""
    return special_grid_class_ways_bound(pools, hungers, hunger_replaces, w_normal, w_hunger, binom_size)


# ------------------------------------------------------------------ Willpower

#: Strategy modes
MODE_OPTIMAL = 0  #: maximise the expected value of the final class
MODE_REROLL_FAILURES = 1  #: rule of thumb: a failing roll rerolls up to three failed normal dice


@kernel
def _successes(b, t, g, crit_bonus):
    return b + g + t + crit_bonus * (t // 2)


@kernel
def special_willpower_ways(
    n_normal,
    n_special,
    w_normal,
    w_special,
    crit_bonus,
    difficulty,
    mark_bonus,
    table,
    wins,
    mode,
    values,
    forbidden_class,
    max_reroll,
    mod,
    binom,
    out,
    spent,
):
    """Ways of every final roll after a Willpower strategy, at one Difficulty.

    Parameters
    ----------
    n_normal, n_special, w_normal, w_special, crit_bonus
        As for ``kernels.special.special_pool_ways``.
    difficulty : int64
        Successes needed.
    mark_bonus, table
        The system's rules, as for ``kernels.special.classify_one``.
    wins : int64[K]
        1 for each class that is a win (``MODE_REROLL_FAILURES`` keeps a
        win's dice), else 0.
    mode : int64
        ``MODE_OPTIMAL`` or ``MODE_REROLL_FAILURES``.
    values : int64[K]
        Value of each final class (``MODE_OPTIMAL``); the reroll with the
        highest expected value is taken, ties going to no reroll, then to
        fewer dice, then to rerolling failures before successes before tens.
    forbidden_class : int64
        A class (-1: none) that a reroll must never risk making of a roll
        that is not of that class already (V5: the messy critical).
    max_reroll : int64
        Dice a reroll may take (3 in V5); the caller passes
        ``R = min(max_reroll, n_normal)``.
    mod : int64
        0 for int64 (caller checked ``10 ** (n + R)`` fits), else a prime
        below 2**31.
    binom : int64[M, M]
        Binomial table, ``M > max(n_normal, n_special, R)``.
    out : int64[S, 2, 3, 3]
        Zeroed by the caller; receives the ways by final (successes before
        the mark bonus, pair of tens, special tens capped at 2, special
        marks capped at 2), over the denominator
        ``10 ** (n_normal + n_special + R)``.
    spent : int64[1]
        Zeroed by the caller; receives the ways in which Willpower was spent.
    """
    nn = n_normal
    nh = n_special
    R = max_reroll
    # exact small powers of ten to bring k rerolled dice to the denominator 10**R
    scale = np.empty(R + 1, dtype=np.int64)
    for k in range(R + 1):
        scale[k] = 10 ** (R - k)
    # reroll outcomes of k dice: (fails, successes, tens) with exact small ways
    n_out = np.zeros(R + 1, dtype=np.int64)
    out_b = np.zeros((R + 1, 10), dtype=np.int64)
    out_c = np.zeros((R + 1, 10), dtype=np.int64)
    out_w = np.zeros((R + 1, 10), dtype=np.int64)
    for k in range(R + 1):
        j = 0
        for c2 in range(k + 1):
            for b2 in range(k - c2 + 1):
                a2 = k - c2 - b2
                # multinomial k! / (a2! b2! c2!) with exact small ints
                m = 1
                for x in range(2, k + 1):
                    m *= x
                for x in range(2, a2 + 1):
                    m //= x
                for x in range(2, b2 + 1):
                    m //= x
                for x in range(2, c2 + 1):
                    m //= x
                out_b[k, j] = b2
                out_c[k, j] = c2
                out_w[k, j] = m * w_normal[0] ** a2 * w_normal[1] ** b2 * w_normal[2] ** c2
                j += 1
        n_out[k] = j

    special_ways = np.zeros((nh + 1, nh + 1, CAP + 1), dtype=np.int64)
    special_part_ways(nh, w_special, mod, binom, special_ways)
    normal_ways = np.zeros((nn + 1, nn + 1), dtype=np.int64)
    normal_part_ways(nn, w_normal, mod, binom, normal_ways)

    full = scale[0] % mod if mod > 0 else scale[0]
    for c in range(nn + 1):
        for b in range(nn - c + 1):
            a = nn - c - b
            wn = normal_ways[b, c]
            for e in range(nh + 1):
                ec = min(e, CAP)
                for g in range(nh - e + 1):
                    for oc in range(CAP + 1):
                        wh = special_ways[g, e, oc]
                        if wh == 0:
                            continue
                        w = mulmod(wn, wh, mod)
                        t = c + e
                        s0 = _successes(b, t, g, crit_bonus)
                        pair0 = 1 if t >= 2 else 0
                        cls0 = classify_one(s0, pair0, ec, oc, difficulty, mark_bonus, table)
                        won0 = wins[cls0] == 1
                        # choose the reroll (rf failures, rs successes, rt tens)
                        best_rf = 0
                        best_rs = 0
                        best_k = 0
                        if mode == MODE_REROLL_FAILURES:
                            if not won0 and a > 0:
                                best_rf = min(a, R)
                                best_k = best_rf
                        else:
                            best_ev = values[cls0] * scale[0]
                            for k in range(1, R + 1):
                                for rf in range(min(a, k), -1, -1):
                                    for rs in range(min(b, k - rf), -1, -1):
                                        rt = k - rf - rs
                                        if rt > c:
                                            continue
                                        ev = 0
                                        makes_forbidden = False
                                        for j in range(n_out[k]):
                                            bf = b - rs + out_b[k, j]
                                            tf = c - rt + out_c[k, j] + e
                                            cls = classify_one(
                                                _successes(bf, tf, g, crit_bonus),
                                                1 if tf >= 2 else 0,
                                                ec,
                                                oc,
                                                difficulty,
                                                mark_bonus,
                                                table,
                                            )
                                            if cls == forbidden_class:
                                                makes_forbidden = True
                                            ev += values[cls] * out_w[k, j] * scale[k]
                                        if makes_forbidden and cls0 != forbidden_class:
                                            continue
                                        if ev > best_ev:
                                            best_ev = ev
                                            best_rf = rf
                                            best_rs = rs
                                            best_k = k
                        if best_k == 0:
                            out[s0, pair0, ec, oc] = addmod(out[s0, pair0, ec, oc], mulmod(w, full, mod), mod)
                            continue
                        spent[0] = addmod(spent[0], mulmod(w, full, mod), mod)
                        rt = best_k - best_rf - best_rs
                        for j in range(n_out[best_k]):
                            bf = b - best_rs + out_b[best_k, j]
                            tf = c - rt + out_c[best_k, j] + e
                            sf = _successes(bf, tf, g, crit_bonus)
                            pair = 1 if tf >= 2 else 0
                            wj = out_w[best_k, j] * scale[best_k]
                            if mod > 0:
                                wj %= mod
                            out[sf, pair, ec, oc] = addmod(out[sf, pair, ec, oc], mulmod(w, wj, mod), mod)


@kernel
def v5_willpower_ways(
    n_normal,
    n_hunger,
    w_normal,
    w_hunger,
    crit_bonus,
    difficulty,
    messy_tens,
    bestial_ones,
    taint_win,
    mode,
    values,
    forbid_new_messy,
    max_reroll,
    mod,
    binom,
    out,
    spent,
):
    """V5's Willpower reroll: :func:`special_willpower_ways` with the V5 class table.

    Parameters
    ----------
    messy_tens, bestial_ones, taint_win
        As for ``kernels.v5.v5_class_table``.
    forbid_new_messy : int64
        1: never take a reroll that could make a messy critical of a roll
        that is not one already.
    others
        As for :func:`special_willpower_ways` (Hunger dice are its special dice).
    """
    wins = np.zeros(N_CLASSES, dtype=np.int64)
    wins[WIN] = 1
    wins[CRITICAL_WIN] = 1
    wins[MESSY_CRITICAL] = 1
    forbidden = MESSY_CRITICAL if forbid_new_messy == 1 else -1
    special_willpower_ways(
        n_normal,
        n_hunger,
        w_normal,
        w_hunger,
        crit_bonus,
        difficulty,
        v5_mark_bonus(),
        v5_class_table(messy_tens, bestial_ones, taint_win),
        wins,
        mode,
        values,
        forbidden,
        max_reroll,
        mod,
        binom,
        out,
        spent,
    )


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted): an upper bound on every number the kernel above
# holds, for ``analysis.engine.exact.count``.


def v5_willpower_ways_bound(n_normal, n_hunger, w_normal, w_hunger, max_reroll, values, binom_size=None) -> int:
    """Upper bound on every number :func:`v5_willpower_ways` holds.

    Parameters
    ----------
    n_normal, n_hunger, w_normal, w_hunger, max_reroll, values
        As for :func:`v5_willpower_ways` (``max_reroll`` is the ``R`` the
        caller passes).
    binom_size : int, optional
        Rows of the binomial table; default ``max(n_normal, n_hunger, R) + 1``.

    Returns
    -------
    int
        The ways of the landed roll (:func:`kernels.v5.v5_pool_ways_bound`)
        times the ways of a reroll brought to ``10 ** R``: the number of
        ordered outcomes, ``10 ** (n_normal + n_hunger + R)`` for d10 faces.

    Raises
    ------
    ValueError
        If the expected values that decide the reroll would not fit in
        int64: they are compared exactly and never reduced modulo a prime,
        so the exact path cannot help.
    """
    from math import factorial

    nn, nh, r = int(n_normal), int(n_hunger), int(max_reroll)
    side = sum(int(w) for w in w_normal)
    size = max(nn, nh, r) + 1 if binom_size is None else int(binom_size)
    landed = v5_pool_ways_bound(nn, nh, w_normal, w_hunger, size)
    # never reduced: the multinomials and ways of a reroll (at most
    # r! * side**r), and the expected values, |value| * side**k * 10**(r - k)
    top = max([1] + [abs(int(v)) for v in values])
    plain = top * max(side + 2, 10) ** r * factorial(r)
    if plain > 2**63 - 1:
        raise ValueError(
            f"a Willpower reroll of {r} dice with outcome values as large as {top} is too big "
            "to weigh exactly; use fewer dice or simpler values"
        )
    return max(landed * max(side, 10) ** r, plain)
