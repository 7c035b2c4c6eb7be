"""The 5th-edition dice in one pass: a whole table's pools counted die by die, in two int64 limbs.

``kernels.special`` counts one pool at a time (multinomials over category
counts), in int64 or modulo a prime.  Here, for a table, the dice are
rolled one at a time onto the states ``(special 10s, special marks, tens
state, successes)``, so that every pool of the table is a prefix of one walk
per number of special dice, and each count is held in two int64 limbs (see
:mod:`kernels.quotients`): pools up to 28 d10s are exact in one pass, where
the modular path would take a pass per prime.  The class lookup is the
engine's (``mark_bonus`` and ``table`` of ``kernels.special``), and the
chances come out correctly rounded (:func:`kernels.quotients.limb_ratio`).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from ._jit import IntArray, kernel
from .quotients import FIVE_BITS, FIVE_POWERS, LIMB_BITS, LIMB_MASK, TEN_POWERS, FloatArray, limb_ratio
from .special import BAND_NONE, BAND_SHORT, BAND_WIN, CAP

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
    dice: int,
    live: int,
    wide: int,
    cur_hi: IntArray,
    cur_lo: IntArray,
    new_hi: IntArray,
    new_lo: IntArray,
) -> int:
    """Roll one more die (a special one if ``is_special``) onto the states ``cur`` (successes below
    ``s_top``) into ``new`` (successes below ``new_top``, which must hold them all), written whole here;
    ``new`` has at least ``s_top + crit_bonus + 1`` columns (the zeros past the last successes are
    added there too).  ``cur`` holds ``dice`` dice: with no pair of 10s yet (tens state 0 or 1) a
    roll has at most that many successes, so those rows are read that far only.

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
    # first each row of ``new`` from the same row of ``cur``: a failure keeps the successes, a
    # success adds one (one pass that writes the row whole, zeros past the last successes), or zeros
    # where ``cur`` has no such slice; then the 10s (and marks) from other rows are added to them
    for g in range((CAP + 1) * (CAP + 1)):
        if (grown >> g) & 1 == 0:
            continue
        was = (live >> g) & 1 == 1
        for r in range(4 * g, 4 * g + 4):
            n = s_top if r % 4 >= 2 else min(s_top, dice + 1)  # no pair yet: a success a die at most
            for limb in range(2 if wide == 1 else 1):
                row = new_lo[r] if limb == 0 else new_hi[r]
                if was:
                    src = cur_lo[r] if limb == 0 else cur_hi[r]
                    row[0] = w_fail * src[0]
                    for s in range(1, n):
                        row[s] = w_fail * src[s] + w_succ * src[s - 1]
                    row[n] = w_succ * src[n - 1]
                    for s in range(n + 1, new_top):
                        row[s] = 0
                else:
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
                n = s_top if t >= 2 else min(s_top, dice + 1)
                # one loop per face, each writing one row from its first target column (a slice, so
                # that no index is computed): loops the compiler turns into vector code
                for limb in range(2 if wide == 1 else 1):
                    src = cur_lo[r] if limb == 0 else cur_hi[r]
                    moved = new_lo[r_ten, shift:] if limb == 0 else new_hi[r_ten, shift:]
                    for s in range(n):
                        moved[s] += w_ten * src[s]
                    if w_mark != 0:
                        mark = new_lo[r_mark] if limb == 0 else new_hi[r_mark]
                        for s in range(n):
                            mark[s] += w_mark * src[s]
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
def special_chain_merge(s_top: int, live: int, wide: int, hi: IntArray, lo: IntArray, group_of: IntArray) -> int:
    """Add each ``live`` slice of the states (successes below ``s_top``, two limbs if ``wide``, as for
    :func:`special_chain_step`) into the first live slice classified alike: in the same group
    (:func:`special_chain_groups`) with a pair of 10s and without.  Once the special dice are rolled,
    the normal dice still to come change no slice, so such slices stay alike and are counted as one;
    returns the live slices left (the merged ones' rows are stale)."""
    for g in range(1, (CAP + 1) * (CAP + 1)):
        if (live >> g) & 1 == 0:
            continue
        e, o = g // (CAP + 1), g % (CAP + 1)
        for g2 in range(g):
            e2, o2 = g2 // (CAP + 1), g2 % (CAP + 1)
            alike = group_of[0, e, o] == group_of[0, e2, o2] and group_of[1, e, o] == group_of[1, e2, o2]
            if (live >> g2) & 1 == 1 and alike:
                for t in range(4):
                    src = lo[4 * g + t]
                    dst = lo[4 * g2 + t]
                    for s in range(s_top):
                        dst[s] += src[s]
                    if wide == 1:
                        src = hi[4 * g + t]
                        dst = hi[4 * g2 + t]
                        for s in range(s_top):
                            dst[s] += src[s]
                        row_lo = lo[4 * g2 + t]  # carried
                        for s in range(s_top):
                            w = row_lo[s]
                            dst[s] += w >> LIMB_BITS
                            row_lo[s] = w & LIMB_MASK
                live &= ~(1 << g)
                break
    return live


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
                    same = groups[g, 0] == k_win and groups[g, 1] == k_none and groups[g, 2] == k_short
                    if same and groups[g, 3] == b:
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
    dice: int,
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
    ``(hi, lo)`` of ``dice`` dice (successes below ``s_top``, the ``live`` slices, two limbs if ``wide`` else whole
    counts in ``lo``, as for :func:`special_chain_step`): the sums :func:`special_classify_into` makes.

    The rows are first summed by group (:func:`special_chain_groups`) into
    ``suf`` (scratch int64[>= n_groups, > s_top]).  A state of ``s``
    successes before its mark bonus ``b`` wins against ``d`` when ``s >= d -
    b``, so a group's wins are one of its suffix sums; the rest fail, with no
    success (``s + b == 0``) or short of the Difficulty.
    """
    n_classes = picks.shape[1]
    for g in range(n_groups):
        row = suf_lo[g]
        for s in range(s_top + 1):
            row[s] = 0
        if wide == 1:  # (narrow counts read no high limb)
            row = suf_hi[g]
            for s in range(s_top + 1):
                row[s] = 0
    for e in range(CAP + 1):
        for o in range(CAP + 1):
            if (live >> (e * (CAP + 1) + o)) & 1 == 0:
                continue
            r = (e * (CAP + 1) + o) * 4
            for pair in range(2):  # tens states 0 and 1 (no pair yet), then 2 and 3: one group each
                g = group_of[pair, e, o]
                n = s_top if pair == 1 else min(s_top, dice + 1)  # no pair yet: a success a die at most
                for limb in range(2 if wide == 1 else 1):
                    rows = lo if limb == 0 else hi
                    acc = suf_lo[g] if limb == 0 else suf_hi[g]
                    first, second = rows[r + 2 * pair], rows[r + 2 * pair + 1]
                    for s in range(n):
                        acc[s] += first[s] + second[s]
    for di in range(difficulties.shape[0]):
        for k in range(out_hi.shape[1]):
            out_hi[di, k] = 0
            out_lo[di, k] = 0
    for g in range(n_groups):
        s_hi = suf_hi[g]
        s_lo = suf_lo[g]
        none_hi = s_hi[0] if wide == 1 else 0  # the rolls with no success, before the suffix sums
        none_lo = s_lo[0]
        if wide == 1:  # (the running sums kept in registers, each stored once)
            run_hi = s_hi[s_top]
            run_lo = s_lo[s_top]
            for s in range(s_top - 1, -1, -1):
                w = run_lo + s_lo[s]
                run_hi += s_hi[s] + (w >> LIMB_BITS)
                run_lo = w & LIMB_MASK
                s_hi[s] = run_hi
                s_lo[s] = run_lo
        else:
            run_lo = s_lo[s_top]
            for s in range(s_top - 1, -1, -1):
                run_lo += s_lo[s]
                s_lo[s] = run_lo
        if s_lo[0] == 0 and (wide == 0 or s_hi[0] == 0):
            continue
        k_win, k_none, k_short, b = groups[g, 0], groups[g, 1], groups[g, 2], groups[g, 3]
        if b != 0:  # every roll has a success
            none_hi = 0
            none_lo = 0
        for di in range(difficulties.shape[0]):
            j = max(0, difficulties[di] - b)
            win_lo = s_lo[j] if j < s_top else 0
            out_lo[di, k_win] += win_lo
            if j > 0:  # some rolls fail
                out_lo[di, k_none] += none_lo
                out_lo[di, k_short] += s_lo[0] - win_lo - none_lo
            if wide == 1:
                win_hi = s_hi[j] if j < s_top else 0
                out_hi[di, k_win] += win_hi
                if j > 0:
                    out_hi[di, k_none] += none_hi
                    out_hi[di, k_short] += s_hi[0] - win_hi - none_hi
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
    rounded by :func:`limb_ratio` (NaN where it declines); returns how many are NaN.  The counts
    may then be left behind: ``out_hi`` and ``out_lo`` of shape (1, 1, D, K + E) are one pool's
    scratch, and only the floats are written for the whole grid.

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
    keep = out_hi.shape[0] == pools.shape[0] and out_hi.shape[1] == specials.shape[0]  # else one pool's scratch
    if out_lo.shape != out_hi.shape or not (keep or (floats == 1 and out_hi.shape[0] == 1 and out_hi.shape[1] == 1)):
        raise ValueError("the output does not match the grid")
    if out_hi.shape[2] != difficulties.shape[0] or out_hi.shape[3] != picks.shape[1] + picks.shape[0]:
        raise ValueError("the output does not match the grid")
    if floats == 1:
        if out_float.shape[0] != pools.shape[0] or out_float.shape[1] != specials.shape[0]:
            raise ValueError("the output does not match the grid")
        if out_float.shape[2] != out_hi.shape[2] or out_float.shape[3] != out_hi.shape[3]:
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
        # int64 from the start, not literal constants: numba would compile the callees a second
        # time for the literals' types (a first run's compile costs seconds)
        live: int = np.int64(1)  # type: ignore[assignment]  # the slice (ec, oc) = (0, 0) alone
        s_top: int = np.int64(1)  # type: ignore[assignment]
        wide: int = np.int64(0)  # type: ignore[assignment]
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
                    step - 1,
                    live,
                    wide,
                    cur_hi,
                    cur_lo,
                    new_hi,
                    new_lo,
                )
                cur_hi, cur_lo, new_hi, new_lo = new_hi, new_lo, cur_hi, cur_lo
                s_top = new_top
                if step == h:  # the special dice rolled: slices classified alike are one from here on
                    live = special_chain_merge(s_top, live, wide, cur_hi, cur_lo, group_of)
            for pi in range(pools.shape[0]):
                at = pools[pi] if special_replaces == 1 else pools[pi] + h
                if at == step:
                    special_chain_classify(
                        s_top,
                        step,
                        live,
                        wide,
                        cur_hi,
                        cur_lo,
                        difficulties,
                        group_of,
                        groups,
                        n_groups,
                        picks,
                        out_hi[pi if keep else 0, hi if keep else 0],
                        out_lo[pi if keep else 0, hi if keep else 0],
                        suf_hi,
                        suf_lo,
                    )
                    if floats == 1:
                        w_his = out_hi[pi if keep else 0, hi if keep else 0]
                        w_los = out_lo[pi if keep else 0, hi if keep else 0]
                        for di in range(out_hi.shape[2]):
                            for c in range(out_hi.shape[3]):
                                w_hi = w_his[di, c]
                                w_lo = w_los[di, c]
                                if w_hi < (1 << (53 - LIMB_BITS)) and step <= 22:  # limb_ratio's quick path
                                    q = (w_hi * float(1 << LIMB_BITS) + w_lo) / TEN_POWERS[step]
                                else:
                                    q = limb_ratio(w_hi, w_lo, step, TEN_POWERS, FIVE_POWERS, FIVE_BITS)
                                    if q != q:
                                        left += 1
                                out_float[pi, hi, di, c] = q
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
