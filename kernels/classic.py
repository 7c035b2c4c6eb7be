"""Classic (V20-style) d10 damage: ways of each net success total of a pool, levels of damage after soak.

A classic pool's own outcome (botch, failure, success) is counted by the
mechanic engine on the classic mechanic file; these kernels count what a
blow does: damage and soak rolled as sums, and the levels left after soak.

A classic die falls in one of four categories against a difficulty: a one,
another failure, a success below ten, a ten.  A roll's net successes are the
sum of one value per die (a one is -1 when 1s cancel, a ten is 2 with a
specialty), so the ways of each total follow from a dynamic programme over
the dice (repeated convolution with the per-die counts), never the 10**n
ordered rolls; each row of the programme is the pool one die smaller, so a
single call gives every pool size up to the largest.

Every kernel takes ``mod`` as in ``kernels.multiset``: 0 for plain int64
(the caller checked the bound function of the kernel it runs, e.g.
:func:`classic_sum_ways_bound`, fits), else a prime below 2**31.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from kernels._jit import IntArray, kernel
from kernels.multiset import addmod, mulmod
from kernels.shapes import HALVE_DOWN, HALVE_NONE, HALVE_UP  # noqa: F401 (the halving modes: kernels.shapes)

#: Categories of a d10 against a difficulty, in the order of ``faces`` and ``values``.
ONE, FAIL, SUCCESS, TEN = range(4)


@kernel
def classic_sum_ways(faces: IntArray, values: IntArray, mod: int, out: IntArray) -> None:
    """Ways of each total of per-die values, for every pool size at once.

    Parameters
    ----------
    faces : int64[4]
        Faces of the die in each category (one, other failure, success below
        ten, ten); they sum to 10.
    values : int64[4]
        What a die of each category adds to the total (e.g. -1, 0, 1, 1:
        1s cancel, no specialty).
    mod : int64
        0 for plain int64 (caller checked ``10**N`` fits), else a prime below 2**31.
    out : int64[N + 1, W]
        Zeroed by the caller, ``W = N * (hi - lo) + 1`` with
        ``lo = min(0, min(values))`` and ``hi = max(0, max(values))``.
        ``out[n, t - N * lo]`` receives the ways of rolling a total of ``t``
        with ``n`` dice; each row sums to ``10**n``.
    """
    n_max = out.shape[0] - 1
    lo = 0
    for c in range(4):
        if values[c] < lo:
            lo = values[c]
    zero = -n_max * lo
    out[0, zero] = 1
    for n in range(1, n_max + 1):
        for idx in range(out.shape[1]):
            w = out[n - 1, idx]
            if w == 0:
                continue
            for c in range(4):
                if faces[c] == 0:
                    continue
                j = idx + values[c]
                out[n, j] = addmod(out[n, j], mulmod(w, faces[c], mod), mod)


@kernel
def levels_after_soak(
    damage: IntArray, damage_lo: int, auto: int, soak: IntArray, soak_lo: int, halve: int, mod: int, out: IntArray
) -> None:
    """Add the ways of each number of health levels lost into ``out``.

    Levels = ``max(0, max(0, d) + auto - max(0, s))`` for a damage total
    ``d`` and a soak total ``s`` (negative totals, from 1s cancelling, count
    as 0; automatic successes are never cancelled), then halved if asked.

    Parameters
    ----------
    damage : int64[Wd]
        Ways of each damage total, ``damage[i]`` for total ``i + damage_lo``.
    damage_lo : int64
        Total of ``damage[0]`` (<= 0).
    auto : int64
        Automatic successes (>= 0).
    soak : int64[Ws]
        Ways of each soak total, ``soak[j]`` for total ``j + soak_lo``.
    soak_lo : int64
        Total of ``soak[0]`` (<= 0).
    halve : int64
        ``HALVE_NONE``, ``HALVE_DOWN`` or ``HALVE_UP``.
    mod : int64
        As for :func:`classic_sum_ways`; the caller checked
        :func:`levels_after_soak_bound` (the product of the two rows' sums) fits.
    out : int64[L]
        Added to; ``L > max damage total + auto``.
    """
    for i in range(damage.shape[0]):
        wd = damage[i]
        if wd == 0:
            continue
        d = max(0, i + damage_lo) + auto
        for j in range(soak.shape[0]):
            ws = soak[j]
            if ws == 0:
                continue
            lv = max(0, d - max(0, j + soak_lo))
            if halve == HALVE_DOWN:
                lv = lv // 2
            elif halve == HALVE_UP:
                lv = (lv + 1) // 2
            out[lv] = addmod(out[lv], mulmod(wd, ws, mod), mod)


@kernel
def attack_level_ways(
    attack: IntArray,
    attack_lo: int,
    damage_rows: IntArray,
    damage_lo: int,
    base_dice: int,
    auto: int,
    soak: IntArray,
    soak_lo: int,
    halve: int,
    mod: int,
    out: IntArray,
) -> None:
    """Levels lost to one attack: attack roll, extra damage dice, damage, soak.

    A net of ``e >= 1`` attack successes hits and adds ``e - 1`` damage dice
    to ``base_dice``; a net below 1 misses (0 levels).  All ways are over the
    common denominator ``10**(p + N + s)``: ``p`` attack dice, ``N`` the
    largest damage pool (``damage_rows.shape[0] - 1``), ``s`` soak dice.

    Parameters
    ----------
    attack : int64[Wa]
        Ways of each net attack total of ``p`` dice, ``attack[i]`` for
        total ``i + attack_lo``; sums to ``10**p``.
    attack_lo : int64
        Total of ``attack[0]`` (<= 0).
    damage_rows : int64[N + 1, Wd]
        :func:`classic_sum_ways` of the damage die; ``N >= base_dice + e_max - 1``.
    damage_lo : int64
        Total of ``damage_rows[:, 0]`` (``N * lo`` of the damage die).
    base_dice : int64
        Damage dice of a hit with one net success (Strength + weapon).
    auto : int64
        Automatic damage successes.
    soak : int64[Ws]
        Ways of each soak total (sums to ``10**s``); ``soak_lo`` its lowest total.
    halve : int64
        As for :func:`levels_after_soak`.
    mod : int64
        As for :func:`classic_sum_ways`; the caller checked
        :func:`attack_level_ways_bound` (``10**(p + N + s)``) fits.
    out : int64[L]
        Zeroed by the caller; ``L > N * max damage value + auto``.
    """
    n_max = damage_rows.shape[0] - 1
    ten_pow = np.empty(n_max + 1, dtype=np.int64)
    v = 1
    for k in range(n_max + 1):
        ten_pow[k] = v
        v = mulmod(v, 10, mod)
    soak_total = 0
    for j in range(soak.shape[0]):
        soak_total = addmod(soak_total, soak[j], mod)
    tmp = np.zeros(out.shape[0], dtype=np.int64)
    for i in range(attack.shape[0]):
        wa = attack[i]
        if wa == 0:
            continue
        e = i + attack_lo
        if e < 1:
            miss = mulmod(wa, mulmod(ten_pow[n_max], soak_total, mod), mod)
            out[0] = addmod(out[0], miss, mod)
            continue
        n = base_dice + e - 1
        for k in range(tmp.shape[0]):
            tmp[k] = 0
        levels_after_soak(damage_rows[n], damage_lo, auto, soak, soak_lo, halve, mod, tmp)
        scale = mulmod(wa, ten_pow[n_max - n], mod)
        for k in range(tmp.shape[0]):
            if tmp[k] != 0:
                out[k] = addmod(out[k], mulmod(tmp[k], scale, mod), mod)


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted): upper bounds on every number the kernels above
# hold, for ``analysis.engine.exact.count``.


def classic_sum_ways_bound(n_max: int, faces: Iterable[int], values: Iterable[int] = (0,)) -> int:
    """Upper bound on every number :func:`classic_sum_ways` holds.

    ``sum(faces) ** n_max`` (``10 ** n_max`` for a d10): row ``n`` counts
    the ordered rolls of ``n`` dice, and each product formed is part of
    the next row.  At least the largest face count and value (held too).
    """
    held = [abs(int(x)) for x in list(faces) + list(values)]
    return max([sum(int(f) for f in faces) ** max(int(n_max), 0)] + held)


def levels_after_soak_bound(damage_total: int, soak_total: int, out_total: int = 0) -> int:
    """Upper bound on every number :func:`levels_after_soak` holds.

    Parameters
    ----------
    damage_total, soak_total : int
        What the ``damage`` and ``soak`` rows sum to (at most
        :func:`classic_sum_ways_bound` of each roll; ``10 ** dice`` for d10s).
    out_total : int
        What ``out`` already sums to (0 when zeroed).
    """
    return int(out_total) + int(damage_total) * int(soak_total)


def attack_level_ways_bound(attack_dice: int, damage_dice: int, soak_dice: int) -> int:
    """Upper bound on every number :func:`attack_level_ways` holds (d10s).

    Parameters
    ----------
    attack_dice : int
        ``p``, the dice of the attack roll.
    damage_dice : int
        ``N``, the largest damage pool (``damage_rows.shape[0] - 1``).
    soak_dice : int
        ``s``, the soak dice.

    Returns
    -------
    int
        ``10 ** (p + N + s)``, the common denominator every count is over,
        or ``10 ** (N + 1)`` if larger (the table of powers of ten forms one
        beyond ``10 ** N``).
    """
    p, n, s = int(attack_dice), int(damage_dice), int(soak_dice)
    return max(10 ** (p + n + s), 10 ** (n + 1))
