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

The kernels here count one pool at a time: they walk category-count vectors
(compositions of the pool) weighted by multinomial coefficients times face
counts, never the 10**n ordered rolls, in int64 or modulo a prime.  A whole
table is counted in one pass by :func:`analysis.engine.pairs_count.chain_ways`
(the dice added one at a time by :func:`kernels.mechanic.mechanic_walk`),
which reads the same class table (the grid kernel here,
:func:`special_grid_class_ways`, stays as an independent check of that
pass).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from kernels._jit import IntArray, kernel
from kernels.multiset import addmod, fill_powers, mulmod
from kernels.shapes import BAND_NONE, BAND_SHORT, BAND_WIN, CAP  # noqa: F401 (the cap and the bands: kernels.shapes)


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
    # scratch for the most dice of a (pool, special dice) of the grid, their most successes plus one
    # (pairs of 10s with their bonus) and the largest mark bonus
    n = 0
    for pi in range(pools.shape[0]):
        for hi in range(specials.shape[0]):
            n = max(n, pools[pi] if special_replaces == 1 else pools[pi] + specials[hi])
    top = 0
    for i in range(CAP + 1):
        top = max(top, mark_bonus[i])
    s_top = n + crit_bonus * (n // 2) + 1
    ways_buf = np.empty((s_top, 2, CAP + 1, CAP + 1), dtype=np.int64)
    normal_buf = np.empty((n + 1, n + 1), dtype=np.int64)
    special_buf = np.empty((n + 1, n + 1, CAP + 1), dtype=np.int64)
    pn = np.empty((3, n + 1), dtype=np.int64)
    ph = np.empty((4, n + 1), dtype=np.int64)
    win_buf = np.empty((s_top + top + 1, out.shape[3]), dtype=np.int64)
    fail_buf = np.empty((s_top + top + 1, out.shape[3]), dtype=np.int64)
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
# hold, for ``analysis.engine.exact.count``.

from kernels.multiset import binomials_bound, powers_bound  # noqa: E402


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
