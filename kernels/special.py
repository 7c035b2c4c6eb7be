"""The 5th-edition dice engine: normal dice plus "special" dice, counted exactly.

Vampire (Hunger dice), Werewolf (Rage dice) and Hunter (Desperation dice)
roll the same way: every d10 showing the success face or more is a
success, each pair of 10s on any dice adds bonus successes, and the special
dice may show a *mark* (a Hunger 1, a Rage 1 or 2, a Desperation 1) or a
special 10 that colours the outcome.  A roll's outcome therefore depends
only on four features:

* ``s``: successes (pairs of 10s counted with their bonus);
* ``pair``: 1 if the roll shows two or more 10s, else 0;
* ``ec``: special dice showing 10, capped at :data:`CAP`;
* ``oc``: special dice showing a mark, capped at :data:`CAP`.

The faces are data.  A normal die is ``w_normal = (failures, successes below
ten, tens)``; a special die is ``w_special = (marks, other failures,
successes below ten, tens)``: Hunger ``(1, 4, 4, 1)``, Rage ``(2, 3, 4, 1)``,
Desperation ``(1, 4, 4, 1)`` under the official success face 6.

The rules of a system are data too, read by ONE class lookup
(:func:`class_of` / :func:`classify_one`) that the grid kernel, the
Willpower kernel and the Python ``read_roll`` of every system share:

* ``mark_bonus : int64[CAP + 1]``: successes added to a roll by its capped
  mark count (Werewolf: a Brutal outcome on a violent action adds 4);
* ``table : int64[3, 2, CAP + 1, CAP + 1]``: the class index of a roll by
  ``(band, pair, ec, oc)``, where ``band`` is :data:`BAND_NONE` (no success,
  short of the Difficulty), :data:`BAND_SHORT` (some successes, short) or
  :data:`BAND_WIN` (the successes reach the Difficulty).

The kernels walk category-count vectors (compositions of the pool) weighted
by multinomial coefficients times face counts, never the 10**n ordered rolls.
"""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np
import numpy.typing as npt

from ._jit import IntArray, kernel
from .multiset import addmod, fill_powers, mulmod

#: Special tens and special marks are counted up to this cap (0, 1, 2 or more).
CAP = 2
#: Bands of a roll's successes against the Difficulty (first axis of a class table).
BAND_NONE, BAND_SHORT, BAND_WIN = range(3)


@kernel
def band_of(s: int, difficulty: int) -> int:
    """The band of ``s`` successes against ``difficulty``: win, short with successes, or none."""
    if s >= difficulty:
        return BAND_WIN
    if s == 0:
        return BAND_NONE
    return BAND_SHORT


@kernel
def class_of(s: int, pair: int, ec: int, oc: int, difficulty: int, table: IntArray) -> int:
    """The class of a roll whose successes ``s`` already include the mark bonus."""
    return table[band_of(s, difficulty), pair, ec, oc]


@kernel
def classify_one(s: int, pair: int, ec: int, oc: int, difficulty: int, mark_bonus: IntArray, table: IntArray) -> int:
    """The class index of one roll's features (see the module docstring).

    Parameters
    ----------
    s : int64
        Successes, pairs of 10s counted, before the mark bonus.
    pair : int64
        1 if the roll shows two or more 10s, else 0.
    ec, oc : int64
        Special tens and special marks, each capped at :data:`CAP`.
    difficulty : int64
        Successes needed.
    mark_bonus : int64[CAP + 1]
        Successes added by the capped mark count.
    table : int64[3, 2, CAP + 1, CAP + 1]
        Class index by (band, pair, ec, oc).
    """
    return class_of(s + mark_bonus[oc], pair, ec, oc, difficulty, table)


@kernel
def normal_part_ways(n_normal: int, w_normal: IntArray, mod: int, binom: IntArray, out: IntArray) -> None:
    """Ways of the normal dice alone, by successes below ten and tens.

    Parameters
    ----------
    n_normal : int64
    w_normal, mod, binom
        As for :func:`special_pool_ways`.
    out : int64[n_normal + 1, n_normal + 1]
        Zeroed by the caller; ``out[b, c]``: ways to roll ``b`` successes
        below ten and ``c`` tens (the rest fail).
    """
    normal_part_ways_into(n_normal, w_normal, mod, binom, out, np.empty((3, n_normal + 1), dtype=np.int64))


@kernel
def normal_part_ways_into(
    n_normal: int, w_normal: IntArray, mod: int, binom: IntArray, out: IntArray, pn: IntArray
) -> None:
    """:func:`normal_part_ways` with its scratch given: ``pn`` int64[3, >= n_normal + 1] (overwritten)."""
    nn = n_normal
    for i in range(3):
        fill_powers(w_normal[i], mod, pn[i, : nn + 1])
    for c in range(nn + 1):
        wc = mulmod(binom[nn, c], pn[2, c], mod)
        r = nn - c
        for b in range(r + 1):
            wb = mulmod(binom[r, b], mulmod(pn[1, b], pn[0, r - b], mod), mod)
            out[b, c] = mulmod(wc, wb, mod)


@kernel
def special_part_ways(n_special: int, w_special: IntArray, mod: int, binom: IntArray, out: IntArray) -> None:
    """Ways of the special dice alone, by successes below ten, tens and marks.

    Parameters
    ----------
    n_special : int64
    w_special, mod, binom
        As for :func:`special_pool_ways`.
    out : int64[n_special + 1, n_special + 1, CAP + 1]
        Zeroed by the caller; ``out[g, e, o]``: ways to roll ``g`` successes
        below ten, ``e`` tens and ``min(marks, CAP) = o``.
    """
    special_part_ways_into(n_special, w_special, mod, binom, out, np.empty((4, n_special + 1), dtype=np.int64))


@kernel
def special_part_ways_into(
    n_special: int, w_special: IntArray, mod: int, binom: IntArray, out: IntArray, ph: IntArray
) -> None:
    """:func:`special_part_ways` with its scratch given: ``ph`` int64[4, >= n_special + 1] (overwritten)."""
    nh = n_special
    for i in range(4):
        fill_powers(w_special[i], mod, ph[i, : nh + 1])
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
def special_pool_ways(
    n_normal: int,
    n_special: int,
    w_normal: IntArray,
    w_special: IntArray,
    crit_bonus: int,
    mod: int,
    binom: IntArray,
    out: IntArray,
) -> None:
    """Add the ways of every roll of the given dice into ``out``.

    Parameters
    ----------
    n_normal, n_special : int64
        Number of normal and of special dice.
    w_normal : int64[3]
        Faces of a normal die that are a failure, a success below ten, a ten.
    w_special : int64[4]
        Faces of a special die that are a mark, another failure, a success
        below ten, a ten.
    crit_bonus : int64
        Bonus successes for each pair of tens (any dice).
    mod : int64
        0 for plain int64 (caller checked the total fits), else a prime
        below 2**31 (see ``kernels.multiset``).
    binom : int64[M, M]
        Binomial table from ``fill_binomials`` with ``M > max(n_normal, n_special)``.
    out : int64[S, 2, CAP + 1, CAP + 1]
        Zeroed by the caller; ``S >= n + crit_bonus * (n // 2) + 1`` with
        ``n = n_normal + n_special``.  ``out[s, p, e, o]`` receives the ways
        to roll ``s`` successes, with (``p = 1``) or without a pair of tens,
        ``min(special tens, 2) = e`` and ``min(special marks, 2) = o``.
    """
    special_pool_ways_into(
        n_normal,
        n_special,
        w_normal,
        w_special,
        crit_bonus,
        mod,
        binom,
        out,
        np.zeros((n_normal + 1, n_normal + 1), dtype=np.int64),
        np.zeros((n_special + 1, n_special + 1, CAP + 1), dtype=np.int64),
        np.empty((3, n_normal + 1), dtype=np.int64),
        np.empty((4, n_special + 1), dtype=np.int64),
    )


@kernel
def special_pool_ways_into(
    n_normal: int,
    n_special: int,
    w_normal: IntArray,
    w_special: IntArray,
    crit_bonus: int,
    mod: int,
    binom: IntArray,
    out: IntArray,
    normal_buf: IntArray,
    special_buf: IntArray,
    pn: IntArray,
    ph: IntArray,
) -> None:
    """:func:`special_pool_ways` with its scratch given, allocating nothing.

    ``normal_buf`` int64[>= n_normal + 1, >= n_normal + 1] and
    ``special_buf`` int64[>= n_special + 1, >= n_special + 1, CAP + 1]
    (the parts used are zeroed here), ``pn`` and ``ph`` as for
    :func:`normal_part_ways_into` and :func:`special_part_ways_into`.
    """
    nn = n_normal
    nh = n_special
    for i in range(nn + 1):
        for j in range(nn + 1):
            normal_buf[i, j] = 0
    for i in range(nh + 1):
        for j in range(nh + 1):
            for k in range(CAP + 1):
                special_buf[i, j, k] = 0
    normal_ways = normal_buf[: nn + 1, : nn + 1]
    special_ways = special_buf[: nh + 1, : nh + 1]
    normal_part_ways_into(nn, w_normal, mod, binom, normal_ways, pn)
    special_part_ways_into(nh, w_special, mod, binom, special_ways, ph)

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
                        y = special_ways[g, e, oc]
                        if y == 0:
                            continue
                        s = base + g
                        out[s, pair, ec, oc] = addmod(out[s, pair, ec, oc], mulmod(x, y, mod), mod)


@kernel
def special_classify(
    ways: IntArray, difficulties: IntArray, mark_bonus: IntArray, table: IntArray, mod: int, out: IntArray
) -> None:
    """Sum a pool's ways into outcome classes, per Difficulty.

    Parameters
    ----------
    ways : int64[S, 2, CAP + 1, CAP + 1]
        Output of :func:`special_pool_ways`.
    difficulties : int64[D]
        Difficulties (>= 0) to classify against.
    mark_bonus, table
        The system's rules, as for :func:`classify_one`.
    mod : int64
        As for :func:`special_pool_ways`.
    out : int64[D, K]
        Overwritten: ways per class (``K`` classes, the values of ``table``).
    """
    top = 0
    for i in range(CAP + 1):
        top = max(top, mark_bonus[i])
    n_s = ways.shape[0] + top
    special_classify_into(
        ways,
        difficulties,
        mark_bonus,
        table,
        mod,
        out,
        np.empty((n_s + 1, out.shape[1]), dtype=np.int64),
        np.empty((n_s + 1, out.shape[1]), dtype=np.int64),
    )


@kernel
def special_classify_into(
    ways: IntArray,
    difficulties: IntArray,
    mark_bonus: IntArray,
    table: IntArray,
    mod: int,
    out: IntArray,
    win_buf: IntArray,
    fail_buf: IntArray,
) -> None:
    """:func:`special_classify` with its scratch given, allocating nothing: ``win_buf`` and
    ``fail_buf`` int64[>= S + max(mark_bonus) + 1, K] (overwritten)."""
    n_classes = out.shape[1]
    top = 0
    for i in range(CAP + 1):
        top = max(top, mark_bonus[i])
    n_s = ways.shape[0] + top
    # win_ways[s]: classes of the rolls with s successes (bonus included) if
    # s >= Difficulty; fail_ways[s]: their classes if s < Difficulty.
    for s in range(n_s + 1):
        for k in range(n_classes):
            win_buf[s, k] = 0
            fail_buf[s, k] = 0
    win_ways = win_buf[: n_s + 1, :n_classes]
    fail_ways = fail_buf[: n_s + 1, :n_classes]
    for s0 in range(ways.shape[0]):
        for pair in range(2):
            for ec in range(CAP + 1):
                for oc in range(CAP + 1):
                    w = ways[s0, pair, ec, oc]
                    if w == 0:
                        continue
                    s = s0 + mark_bonus[oc]
                    cls = class_of(s, pair, ec, oc, 0, table)
                    win_ways[s, cls] = addmod(win_ways[s, cls], w, mod)
                    cls = class_of(s, pair, ec, oc, s + 1, table)  # the class if it fails
                    fail_ways[s, cls] = addmod(fail_ways[s, cls], w, mod)
    # suffix sums of wins (s >= d), prefix sums of failures (s < d)
    for s in range(n_s - 1, -1, -1):
        for k in range(n_classes):
            win_ways[s, k] = addmod(win_ways[s, k], win_ways[s + 1, k], mod)
    for s in range(n_s, 0, -1):
        for k in range(n_classes):
            fail_ways[s, k] = fail_ways[s - 1, k]
    for k in range(n_classes):
        fail_ways[0, k] = 0
    for s in range(1, n_s + 1):
        for k in range(n_classes):
            fail_ways[s, k] = addmod(fail_ways[s, k], fail_ways[s - 1, k], mod)
    for di in range(difficulties.shape[0]):
        d = min(difficulties[di], n_s)
        for k in range(n_classes):
            out[di, k] = addmod(win_ways[d, k], fail_ways[d, k], mod)


@kernel
def special_grid_class_ways(
    pools: IntArray,
    specials: IntArray,
    difficulties: IntArray,
    w_normal: IntArray,
    w_special: IntArray,
    crit_bonus: int,
    mark_bonus: IntArray,
    table: IntArray,
    special_replaces: int,
    mod: int,
    binom: IntArray,
    out: IntArray,
) -> None:
    """Class ways for a whole grid of (pool, special dice, Difficulty) in one call.

    Parameters
    ----------
    pools, specials, difficulties : int64[P], int64[H], int64[D]
        Pools, special-dice ratings (Hunger, Rage, Desperation) and Difficulties.
    w_normal, w_special, crit_bonus
        As for :func:`special_pool_ways`.
    mark_bonus, table
        As for :func:`classify_one`.
    special_replaces : int64
        1: special dice replace normal dice (``min(special, pool)`` of them);
        0: they are added to the pool.
    mod : int64
        As for :func:`special_pool_ways`; the caller checked every pool's total.
    binom : int64[M, M]
        Binomial table with ``M`` above the largest number of dice.
    out : int64[P, H, D, K]
        Overwritten with the ways per class.
    """
    n, s_top, top = grid_scratch_sizes(pools, specials, special_replaces, crit_bonus, mark_bonus)
    special_grid_class_ways_into(
        pools,
        specials,
        difficulties,
        w_normal,
        w_special,
        crit_bonus,
        mark_bonus,
        table,
        special_replaces,
        mod,
        binom,
        out,
        np.empty((s_top, 2, CAP + 1, CAP + 1), dtype=np.int64),
        np.empty((n + 1, n + 1), dtype=np.int64),
        np.empty((n + 1, n + 1, CAP + 1), dtype=np.int64),
        np.empty((3, n + 1), dtype=np.int64),
        np.empty((4, n + 1), dtype=np.int64),
        np.empty((s_top + top + 1, out.shape[3]), dtype=np.int64),
        np.empty((s_top + top + 1, out.shape[3]), dtype=np.int64),
    )


@kernel
def grid_scratch_sizes(
    pools: IntArray, specials: IntArray, special_replaces: int, crit_bonus: int, mark_bonus: IntArray
) -> tuple[int, int, int]:
    """``(n, s_top, top)`` for :func:`special_grid_class_ways_into`'s scratch: the most dice of a
    (pool, special dice) of the grid, the most successes plus one (pairs of 10s with their bonus),
    and the largest mark bonus."""
    n = 0
    for pi in range(pools.shape[0]):
        for hi in range(specials.shape[0]):
            dice = pools[pi] if special_replaces == 1 else pools[pi] + specials[hi]
            n = max(n, dice)
    top = 0
    for i in range(CAP + 1):
        top = max(top, mark_bonus[i])
    return n, n + crit_bonus * (n // 2) + 1, top


@kernel
def special_grid_class_ways_into(
    pools: IntArray,
    specials: IntArray,
    difficulties: IntArray,
    w_normal: IntArray,
    w_special: IntArray,
    crit_bonus: int,
    mark_bonus: IntArray,
    table: IntArray,
    special_replaces: int,
    mod: int,
    binom: IntArray,
    out: IntArray,
    ways_buf: IntArray,
    normal_buf: IntArray,
    special_buf: IntArray,
    pn: IntArray,
    ph: IntArray,
    win_buf: IntArray,
    fail_buf: IntArray,
) -> None:
    """:func:`special_grid_class_ways` with its scratch given, allocating nothing (so that loading it
    from numba's cache imports none of numba's array-creation code: a quicker start-up).

    The scratch, its sizes from :func:`grid_scratch_sizes` ``(n, s_top, top)``
    and ``K`` classes: ``ways_buf`` int64[s_top, 2, CAP + 1, CAP + 1],
    ``normal_buf`` int64[n + 1, n + 1], ``special_buf`` int64[n + 1, n + 1,
    CAP + 1], ``pn`` int64[3, n + 1], ``ph`` int64[4, n + 1], ``win_buf``
    and ``fail_buf`` int64[s_top + top + 1, K].  All overwritten.
    """
    for pi in range(pools.shape[0]):
        pool = pools[pi]
        for hi in range(specials.shape[0]):
            if special_replaces == 1:
                nh = min(specials[hi], pool)
                nn = pool - nh
            else:
                nh = specials[hi]
                nn = pool
            n = nn + nh
            ways = ways_buf[: n + crit_bonus * (n // 2) + 1]
            for s in range(ways.shape[0]):
                for p in range(2):
                    for e in range(CAP + 1):
                        for o in range(CAP + 1):
                            ways[s, p, e, o] = 0
            special_pool_ways_into(
                nn, nh, w_normal, w_special, crit_bonus, mod, binom, ways, normal_buf, special_buf, pn, ph
            )
            special_classify_into(ways, difficulties, mark_bonus, table, mod, out[pi, hi], win_buf, fail_buf)


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted): upper bounds on every number the kernels above
# hold, for ``analysis.exact.count``.

from .multiset import binomials_bound, powers_bound  # noqa: E402


def _part_base(faces: Iterable[int], tails: Iterable[int]) -> int:
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


def special_pool_ways_bound(
    n_normal: int, n_hunger: int, w_normal: Iterable[int], w_hunger: Iterable[int], binom_size: int | None = None
) -> int:
    """Upper bound on every number :func:`special_pool_ways` and :func:`special_classify` hold
    (``n_hunger``, ``w_hunger``: the special dice).

    Parameters
    ----------
    n_normal, n_hunger, w_normal, w_hunger
        As for :func:`special_pool_ways`.
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
    hunger = _part_base(w_hunger, (w_hunger[0] + w_hunger[1] + w_hunger[2], w_hunger[1] + w_hunger[2]))
    size = max(nn, nh) + 1 if binom_size is None else int(binom_size)
    return max(
        normal**nn * hunger**nh,
        max(powers_bound(w, nn + 1) for w in w_normal),
        max(powers_bound(w, nh + 1) for w in w_hunger),
        binomials_bound(size),
    )


def special_grid_class_ways_bound(
    pools: Iterable[int],
    hungers: Iterable[int],
    hunger_replaces: int,
    w_normal: Iterable[int],
    w_hunger: Iterable[int],
    binom_size: int | None = None,
) -> int:
    """Upper bound on every number :func:`special_grid_class_ways` holds (``hungers``: special dice).

    Parameters
    ----------
    pools, hungers, hunger_replaces, w_normal, w_hunger
        As for :func:`special_grid_class_ways`.
    binom_size : int, optional
        Rows of the binomial table; default one more than the most dice
        of the grid.

    Returns
    -------
    int
        The largest :func:`special_pool_ways_bound` over the grid's pools.
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
    return max(special_pool_ways_bound(nn, nh, w_normal, w_hunger, size) for nn, nh in dice)


def special_grid_pool_bounds(
    pools: Iterable[int], hungers: Iterable[int], hunger_replaces: int, w_normal: Iterable[int], w_hunger: Iterable[int]
) -> list[int]:
    """``[special_grid_class_ways_bound([p], hungers, ...) for p in pools]``, computed in one pass.

    The same bound, term for term (:func:`special_pool_ways_bound` with each
    pool's own binomial table), with each power of the part bases, each face
    power and each central binomial formed once for the whole grid instead
    of once per (pool, special dice): the first table of a rule set checks
    its bounds in microseconds.  A test holds it equal to the per-pool form.
    """
    from math import comb

    w_normal = [int(w) for w in w_normal]
    w_hunger = [int(w) for w in w_hunger]
    normal = _part_base(w_normal, (w_normal[0] + w_normal[1],))
    hunger = _part_base(w_hunger, (w_hunger[0] + w_hunger[1] + w_hunger[2], w_hunger[1] + w_hunger[2]))
    top_n, top_h = max(abs(w) for w in w_normal), max(abs(w) for w in w_hunger)
    hungers = [int(h) for h in hungers]
    out = []
    for pool in (int(p) for p in pools):
        if not hungers:
            out.append(1)
            continue
        dice = [(pool - min(h, pool), min(h, pool)) if int(hunger_replaces) == 1 else (pool, h) for h in hungers]
        m = max(nn + nh for nn, nh in dice)  # the binomial table's rows, less one
        out.append(
            max(
                comb(m, m // 2),
                *(max(normal**nn * hunger**nh, top_n ** (nn + 1), top_h ** (nh + 1), 1) for nn, nh in dice),
            )
        )
    return out


# ------------------------------------------------------------------ one pass in two limbs
# The grid of a table, counted die by die in a third arithmetic: each count
# is two int64 limbs, ``hi * 2**LIMB_BITS + lo`` with ``0 <= lo < 2**LIMB_BITS``,
# carried after every die.  Every count of a pool is at most its number of
# ordered rolls, so ``hi`` stays below that number over 2**LIMB_BITS, and a
# pool below 2**(62 + LIMB_BITS) ordered rolls (28 d10s) is counted exactly
# in one pass, where the modular path would take one pass per prime.
#
# A state is ``(ec, oc, t, s)``: special tens and special marks (each capped
# at CAP), the tens state ``t`` (0 tens, 1 ten, an even number >= 2, an odd
# number >= 3) and the successes ``s`` so far (each completed pair of 10s
# counted with its bonus).  A row of the state arrays holds one (ec, oc, t)
# along ``s``, so one die is a few shifted multiply-adds of whole rows.

#: float64 arrays (the quotients).
FloatArray = npt.NDArray[np.float64]
#: Bits of the low limb (``analysis.exact.LIMB_BITS`` says the same; a test holds them equal).
LIMB_BITS = 32
#: The low limb's mask.
LIMB_MASK = (1 << LIMB_BITS) - 1
#: Rows of the chain's state arrays: ``(ec * (CAP + 1) + oc) * 4 + t``.
STATE_ROWS = (CAP + 1) * (CAP + 1) * 4


@kernel
def special_chain_step(
    is_special: int,
    w_normal: IntArray,
    w_special: IntArray,
    crit_bonus: int,
    s_top: int,
    new_top: int,
    live: int,
    wide: int,
    cur_hi: IntArray,
    cur_lo: IntArray,
    new_hi: IntArray,
    new_lo: IntArray,
) -> int:
    """Roll one more die (a special one if ``is_special``) onto the states ``cur`` (successes below
    ``s_top``) into ``new`` (successes below ``new_top``, which must hold them all), zeroed here;
    ``new`` has at least ``s_top + crit_bonus + 1`` columns (the zeros past the last successes are
    added there too).

    The arrays are int64[STATE_ROWS, S]: row ``(ec * (CAP + 1) + oc) * 4 + t``, column ``s``.
    ``live`` has bit ``ec * (CAP + 1) + oc`` set where that slice of ``cur``
    may hold a count (its rows are stale elsewhere); returns ``new``'s.  With
    ``wide`` the counts are two limbs, carried here; without, the low limb
    holds each count whole (the caller checked they fit int64) and the high
    limb is neither read nor written.
    """
    if is_special == 1:
        w_mark, w_fail, w_succ, w_ten = w_special[0], w_special[1], w_special[2], w_special[3]
    else:
        w_mark, w_fail, w_succ, w_ten = 0, w_normal[0], w_normal[1], w_normal[2]
    grown = 0
    for e in range(CAP + 1):
        for o in range(CAP + 1):
            if (live >> (e * (CAP + 1) + o)) & 1 == 1:
                grown |= 1 << (e * (CAP + 1) + o)
                if w_ten != 0:
                    grown |= 1 << (min(e + is_special, CAP) * (CAP + 1) + o)
                if w_mark != 0:
                    grown |= 1 << (e * (CAP + 1) + min(o + 1, CAP))
    for g in range((CAP + 1) * (CAP + 1)):
        if (grown >> g) & 1 == 0:
            continue
        for r in range(4 * g, 4 * g + 4):
            row = new_lo[r]
            for s in range(new_top):
                row[s] = 0
            if wide == 1:
                row = new_hi[r]
                for s in range(new_top):
                    row[s] = 0
    for e in range(CAP + 1):
        for o in range(CAP + 1):
            if (live >> (e * (CAP + 1) + o)) & 1 == 0:
                continue
            e2 = min(e + is_special, CAP)
            o2 = min(o + 1, CAP)
            for t in range(4):
                shift = 1 + (crit_bonus if (t == 1 or t == 3) else 0)  # a ten completing a pair
                t2 = 1 if t == 0 else (2 if (t == 1 or t == 3) else 3)
                r = (e * (CAP + 1) + o) * 4 + t
                r_ten = (e2 * (CAP + 1) + o) * 4 + t2
                r_mark = (e * (CAP + 1) + o2) * 4 + t
                src = cur_lo[r]
                same = new_lo[r]
                ten = new_lo[r_ten]
                mark = new_lo[r_mark]
                if w_mark == 0:  # a normal die
                    for s in range(s_top):
                        v = src[s]
                        same[s] += w_fail * v
                        same[s + 1] += w_succ * v
                        ten[s + shift] += w_ten * v
                else:
                    for s in range(s_top):
                        v = src[s]
                        same[s] += w_fail * v
                        same[s + 1] += w_succ * v
                        ten[s + shift] += w_ten * v
                        mark[s] += w_mark * v
                if wide == 1:
                    src = cur_hi[r]
                    same = new_hi[r]
                    ten = new_hi[r_ten]
                    mark = new_hi[r_mark]
                    for s in range(s_top):
                        v = src[s]
                        same[s] += w_fail * v
                        same[s + 1] += w_succ * v
                        ten[s + shift] += w_ten * v
                        mark[s] += w_mark * v
    if wide == 1:
        for g in range((CAP + 1) * (CAP + 1)):
            if (grown >> g) & 1 == 0:
                continue
            for r in range(4 * g, 4 * g + 4):
                row_hi = new_hi[r]
                row_lo = new_lo[r]
                for s in range(new_top):
                    w = row_lo[s]
                    row_hi[s] += w >> LIMB_BITS
                    row_lo[s] = w & LIMB_MASK
    return grown


@kernel
def special_chain_widen(s_top: int, live: int, hi: IntArray, lo: IntArray) -> None:
    """Split the whole counts held in the low limb (successes below ``s_top``, the ``live`` slices)
    into two limbs."""
    for g in range((CAP + 1) * (CAP + 1)):
        if (live >> g) & 1 == 0:
            continue
        for r in range(4 * g, 4 * g + 4):
            for s in range(s_top):
                w = lo[r, s]
                hi[r, s] = w >> LIMB_BITS
                lo[r, s] = w & LIMB_MASK


@kernel
def special_chain_groups(mark_bonus: IntArray, table: IntArray, group_of: IntArray, groups: IntArray) -> int:
    """Group the rows of the chain's states by what the classification reads of them: rows whose
    ``(pair, ec, oc)`` give the same classes (won, failed with no success, failed short) and the
    same mark bonus are summed before they are classified.

    Fills ``group_of`` int64[2, CAP + 1, CAP + 1] (the group of each ``(pair,
    ec, oc)``) and ``groups`` int64[>= 2 * (CAP + 1) ** 2, 4] (each group's
    win, none and short classes and its bonus); returns the number of groups.
    """
    n = 0
    for pair in range(2):
        for e in range(CAP + 1):
            for o in range(CAP + 1):
                k_win = table[BAND_WIN, pair, e, o]
                k_none = table[BAND_NONE, pair, e, o]
                k_short = table[BAND_SHORT, pair, e, o]
                b = mark_bonus[o]
                g = 0
                while g < n:
                    if groups[g, 0] == k_win and groups[g, 1] == k_none and groups[g, 2] == k_short and groups[g, 3] == b:
                        break
                    g += 1
                if g == n:
                    groups[g, 0] = k_win
                    groups[g, 1] = k_none
                    groups[g, 2] = k_short
                    groups[g, 3] = b
                    n += 1
                group_of[pair, e, o] = g
    return n


@kernel
def special_chain_classify(
    s_top: int,
    live: int,
    wide: int,
    hi: IntArray,
    lo: IntArray,
    difficulties: IntArray,
    group_of: IntArray,
    groups: IntArray,
    n_groups: int,
    picks: IntArray,
    out_hi: IntArray,
    out_lo: IntArray,
    suf_hi: IntArray,
    suf_lo: IntArray,
) -> None:
    """The class ways per Difficulty (``out`` int64[D, K + E], two limbs, carried: the K classes, then
    the ways of each pick's classes together, ``picks`` int64[E, K] of 0 and 1) of the chain's states
    ``(hi, lo)`` (successes below ``s_top``, the ``live`` slices, two limbs if ``wide`` else whole
    counts in ``lo``, as for :func:`special_chain_step`): the sums :func:`special_classify_into` makes.

    The rows are first summed by group (:func:`special_chain_groups`) into
    ``suf`` (scratch int64[>= n_groups, > s_top]).  A state of ``s``
    successes before its mark bonus ``b`` wins against ``d`` when ``s >= d -
    b``, so a group's wins are one of its suffix sums; the rest fail, with no
    success (``s + b == 0``) or short of the Difficulty.
    """
    n_classes = picks.shape[1]
    for g in range(n_groups):
        for s in range(s_top + 1):
            suf_lo[g, s] = 0
            suf_hi[g, s] = 0
    for e in range(CAP + 1):
        for o in range(CAP + 1):
            if (live >> (e * (CAP + 1) + o)) & 1 == 0:
                continue
            for t in range(4):
                g = group_of[1 if t >= 2 else 0, e, o]
                r = (e * (CAP + 1) + o) * 4 + t
                row = lo[r]
                acc = suf_lo[g]
                for s in range(s_top):
                    acc[s] += row[s]
                if wide == 1:
                    row = hi[r]
                    acc = suf_hi[g]
                    for s in range(s_top):
                        acc[s] += row[s]
    for di in range(difficulties.shape[0]):
        for k in range(out_hi.shape[1]):
            out_hi[di, k] = 0
            out_lo[di, k] = 0
    for g in range(n_groups):
        s_hi = suf_hi[g]
        s_lo = suf_lo[g]
        none_hi = s_hi[0]  # the rolls with no success, before the suffix sums
        none_lo = s_lo[0]
        if wide == 1:
            for s in range(s_top - 1, -1, -1):
                w = s_lo[s + 1] + s_lo[s]
                s_hi[s] += s_hi[s + 1] + (w >> LIMB_BITS)
                s_lo[s] = w & LIMB_MASK
        else:
            for s in range(s_top - 1, -1, -1):
                s_lo[s] += s_lo[s + 1]
        if s_hi[0] == 0 and s_lo[0] == 0:
            continue
        k_win, k_none, k_short, b = groups[g, 0], groups[g, 1], groups[g, 2], groups[g, 3]
        if b != 0:  # every roll has a success
            none_hi = 0
            none_lo = 0
        for di in range(difficulties.shape[0]):
            j = max(0, difficulties[di] - b)
            win_hi = s_hi[j] if j < s_top else 0
            win_lo = s_lo[j] if j < s_top else 0
            out_hi[di, k_win] += win_hi
            out_lo[di, k_win] += win_lo
            if j > 0:  # some rolls fail
                out_hi[di, k_none] += none_hi
                out_lo[di, k_none] += none_lo
                out_hi[di, k_short] += s_hi[0] - win_hi - none_hi
                out_lo[di, k_short] += s_lo[0] - win_lo - none_lo
    for di in range(difficulties.shape[0]):
        for e in range(picks.shape[0]):
            for k in range(n_classes):
                if picks[e, k] != 0:
                    out_hi[di, n_classes + e] += out_hi[di, k]
                    out_lo[di, n_classes + e] += out_lo[di, k]
        for k in range(out_hi.shape[1]):
            w = out_lo[di, k]
            c = w >> LIMB_BITS  # floor: a negative low limb borrows from the high one
            out_hi[di, k] += c
            out_lo[di, k] = w - (c << LIMB_BITS)


#: Denominators ``5 ** n`` the exact quotient of :func:`limb_ratio` divides by: below 2**47,
#: so that a remainder shifted by 16 bits or more still fits int64.
RATIO_MAX_DICE = 20
#: ``10.0 ** n`` for ``n <= 22``, each exact in float64; ``5 ** n`` and its bits for ``n <= 20``.
TEN_POWERS = np.array([float(10**n) for n in range(23)])
FIVE_POWERS = np.array([5**n for n in range(RATIO_MAX_DICE + 1)], dtype=np.int64)
FIVE_BITS = np.array([(5**n).bit_length() for n in range(RATIO_MAX_DICE + 1)], dtype=np.int64)


@kernel
def _bit_length(x: int) -> int:
    """Bits of ``0 <= x < 2**62`` (float64's exponent, less one where rounding carried up)."""
    if x == 0:
        return 0
    n = math.frexp(float(x))[1]
    if x >> (n - 1) == 0:
        n -= 1
    return n


@kernel
def limb_ratio(hi: int, lo: int, dice: int, ten_powers: FloatArray, five_powers: IntArray, five_bits: IntArray) -> float:
    """``float(Fraction(hi * 2**LIMB_BITS + lo, 10 ** dice))``, correctly rounded (to nearest,
    ties to even), or NaN where ``dice > RATIO_MAX_DICE`` and the quotient is not an exact
    float division (the caller divides in Python ints).

    ``lo`` may hold more than LIMB_BITS bits (it is carried here); the count
    is non-negative and below 2**94.  A count below 2**53 over ``10 ** dice``
    (exact in float64 up to 22 dice) is one IEEE division, correctly rounded.
    Otherwise the quotient by ``5 ** dice`` is worked out by long division
    in int64 to 55 or more significant bits, a few bits at a time so that
    no shifted remainder (below ``5 ** dice``) passes 2**62; each partial
    quotient is estimated by a float product and corrected to the exact one.
    Rounding those bits to 53, with the last remainder as the sticky bit,
    gives the correctly rounded quotient, which ``2 ** -dice`` scales exactly.
    ``ten_powers``, ``five_powers``, ``five_bits``: :data:`TEN_POWERS`,
    :data:`FIVE_POWERS`, :data:`FIVE_BITS`.
    """
    hi += lo >> LIMB_BITS
    lo &= LIMB_MASK
    if hi < (1 << (53 - LIMB_BITS)) and dice <= 22:
        return (hi * float(1 << LIMB_BITS) + lo) / ten_powers[dice]
    if dice > RATIO_MAX_DICE:
        return np.nan
    d = five_powers[dice]
    step_max = 62 - five_bits[dice]  # r < d: r << step_max < 2**62
    # the integer part: at once below 2**63, else from the top (hi, then lo in two 16-bit chunks)
    if hi < (1 << (63 - LIMB_BITS)):
        v = (hi << LIMB_BITS) | lo
        m = v // d
        r = v - m * d
    else:
        m = hi // d
        r = hi - m * d
        for shift in (16, 0):
            r = (r << 16) | ((lo >> shift) & 0xFFFF)
            q = r // d
            r -= q * d
            m = (m << 16) | q
    # then bits after the point until 55 or more are known
    inv = 1.0 / d
    frac = 0
    n = _bit_length(m)
    while n < 55:
        step = min(step_max, 61 - n)
        r <<= step
        q = int(r * inv)  # within one of the quotient, below 2**step
        r -= q * d
        while r < 0:
            q -= 1
            r += d
        while r >= d:
            q += 1
            r -= d
        n = n + step if m != 0 else _bit_length(q)
        m = (m << step) | q
        frac += step
    extra = n - 53
    keep = m >> extra
    rest = m & ((1 << extra) - 1)
    half = 1 << (extra - 1)
    if rest > half or (rest == half and (r != 0 or keep & 1 == 1)):
        keep += 1
    return math.ldexp(float(keep), extra - frac - dice)


@kernel
def limb_ratios_into(
    hi: IntArray,
    lo: IntArray,
    dice: IntArray,
    ten_powers: FloatArray,
    five_powers: IntArray,
    five_bits: IntArray,
    out: FloatArray,
) -> int:
    """:func:`limb_ratio` elementwise over flat arrays; returns how many are NaN (left to the caller)."""
    left = 0
    for i in range(hi.shape[0]):
        out[i] = limb_ratio(hi[i], lo[i], dice[i], ten_powers, five_powers, five_bits)
        if out[i] != out[i]:
            left += 1
    return left


@kernel
def special_grid_class_limbs_into(
    pools: IntArray,
    specials: IntArray,
    difficulties: IntArray,
    w_normal: IntArray,
    w_special: IntArray,
    crit_bonus: int,
    mark_bonus: IntArray,
    table: IntArray,
    special_replaces: int,
    narrow_steps: int,
    picks: IntArray,
    floats: int,
    out_hi: IntArray,
    out_lo: IntArray,
    out_float: FloatArray,
    a_hi: IntArray,
    a_lo: IntArray,
    b_hi: IntArray,
    b_lo: IntArray,
    suf_hi: IntArray,
    suf_lo: IntArray,
    group_of: IntArray,
    groups: IntArray,
) -> int:
    """:func:`special_grid_class_ways` in two limbs and one pass: the class ways of every (pool,
    special dice, Difficulty) of a grid, then the ways of each pick's classes together (``picks``
    int64[E, K] of 0 and 1), are ``out_hi * 2**LIMB_BITS + out_lo`` (int64[P, H, D, K + E]).
    With ``floats``, ``out_float`` (float64[P, H, D, K + E]) receives their chances, correctly
    rounded by :func:`limb_ratio` (NaN where it declines); returns how many are NaN.

    For each special-dice rating the dice are rolled one at a time, the
    special ones first, so that each pool of the grid is a prefix of one
    chain: ``pool`` dice (``pool + special`` where the special dice are
    added), of which ``min(special, pool)`` (or ``special``) are special.
    The caller checked :func:`special_grid_class_limbs_bound` against
    ``analysis.exact.LIMBS_MAX``; chains of at most ``narrow_steps`` dice
    (whose counts fit int64) hold whole counts in the low limb, longer ones
    two limbs from there on.  Scratch (this allocates nothing): ``a`` and
    ``b`` int64[STATE_ROWS, S] with ``S >= n + crit_bonus * (n //
    2) + crit_bonus + 2`` for ``n`` the most dice of a pool (a ten is
    added to every column, the last ones holding zeros), ``suf`` as
    large, ``group_of`` int64[2, CAP + 1, CAP + 1] and ``groups``
    int64[STATE_ROWS // 2, 4].  All overwritten.
    """
    top_pool = 0
    for pi in range(pools.shape[0]):
        top_pool = max(top_pool, pools[pi])
    most = top_pool
    for hi in range(specials.shape[0]):
        if specials[hi] < 0:
            raise ValueError("a negative number of special dice")
        if special_replaces != 1:
            most = max(most, top_pool + specials[hi])
    columns = most + crit_bonus * (most // 2) + crit_bonus + 2
    for a in (a_hi, a_lo, b_hi, b_lo, suf_hi, suf_lo):
        if a.shape[0] != STATE_ROWS or a.shape[1] < columns:
            raise ValueError("the chain's scratch is too small for the grid")
    if group_of.shape != (2, CAP + 1, CAP + 1) or groups.shape[0] < STATE_ROWS // 2 or groups.shape[1] != 4:
        raise ValueError("the chain's scratch is too small for the grid")
    n_groups = special_chain_groups(mark_bonus, table, group_of, groups)
    if out_lo.shape != out_hi.shape or out_hi.shape[0] != pools.shape[0] or out_hi.shape[1] != specials.shape[0]:
        raise ValueError("the output does not match the grid")
    if out_hi.shape[2] != difficulties.shape[0] or out_hi.shape[3] != picks.shape[1] + picks.shape[0]:
        raise ValueError("the output does not match the grid")
    if floats == 1 and out_float.shape != out_hi.shape:
        raise ValueError("the output does not match the grid")
    left = 0
    for hi in range(specials.shape[0]):
        h = specials[hi]
        last = top_pool if special_replaces == 1 else top_pool + h
        cur_hi, cur_lo, new_hi, new_lo = a_hi, a_lo, b_hi, b_lo
        for t in range(4):
            cur_hi[t, 0] = 0
            cur_lo[t, 0] = 0
        cur_lo[0, 0] = 1
        live = 1  # the slice (ec, oc) = (0, 0) alone
        s_top = 1
        wide = 0
        for step in range(last + 1):
            if step > 0:
                if step > narrow_steps and wide == 0:
                    special_chain_widen(s_top, live, cur_hi, cur_lo)
                    wide = 1
                new_top = step + crit_bonus * (step // 2) + 1  # the most successes of ``step`` dice, plus one
                live = special_chain_step(
                    1 if step <= h else 0,
                    w_normal,
                    w_special,
                    crit_bonus,
                    s_top,
                    new_top,
                    live,
                    wide,
                    cur_hi,
                    cur_lo,
                    new_hi,
                    new_lo,
                )
                cur_hi, cur_lo, new_hi, new_lo = new_hi, new_lo, cur_hi, cur_lo
                s_top = new_top
            for pi in range(pools.shape[0]):
                at = pools[pi] if special_replaces == 1 else pools[pi] + h
                if at == step:
                    special_chain_classify(
                        s_top,
                        live,
                        wide,
                        cur_hi,
                        cur_lo,
                        difficulties,
                        group_of,
                        groups,
                        n_groups,
                        picks,
                        out_hi[pi, hi],
                        out_lo[pi, hi],
                        suf_hi,
                        suf_lo,
                    )
                    if floats == 1:
                        for di in range(out_hi.shape[2]):
                            for c in range(out_hi.shape[3]):
                                q = limb_ratio(
                                    out_hi[pi, hi, di, c],
                                    out_lo[pi, hi, di, c],
                                    step,
                                    TEN_POWERS,
                                    FIVE_POWERS,
                                    FIVE_BITS,
                                )
                                out_float[pi, hi, di, c] = q
                                if q != q:
                                    left += 1
    return left


def special_grid_class_limbs_bound(pools: Iterable[int], specials: Iterable[int], special_replaces: int) -> int:
    """Upper bound on every count :func:`special_grid_class_limbs_into` holds: the most ordered
    rolls of a pool of the grid (``10 ** dice``: d10s, as :class:`analysis.special_dice.Engine`
    requires).  Its limbs stay below ``bound >> LIMB_BITS`` (``hi``) and ``2 ** (LIMB_BITS + 16)``
    (``lo`` before a carry: a few hundred states add up at most)."""
    most = 0
    for pool in pools:
        for special in specials:
            pool, special = int(pool), int(special)
            most = max(most, pool if int(special_replaces) == 1 else pool + special)
    return 10**most
