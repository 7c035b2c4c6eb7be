"""Two-limb counts and their chances, correctly rounded.

A count too big for int64 (the one-pass table of ``kernels.special_chain``)
is held in two int64 limbs, ``hi * 2**LIMB_BITS + lo`` with ``0 <= lo <
2**LIMB_BITS``; :func:`limb_ratio` turns such a count over ``10 ** dice``
into the float nearest the exact quotient (``float(Fraction(count, 10 **
dice))``), without a Python int.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ._jit import IntArray, kernel

#: float64 arrays (the quotients).
FloatArray = npt.NDArray[np.float64]
#: Bits of the low limb (``analysis.exact.LIMB_BITS`` says the same; a test holds them equal).
LIMB_BITS = 32
#: The low limb's mask.
LIMB_MASK = (1 << LIMB_BITS) - 1

#: Denominators ``5 ** n`` the exact quotient of :func:`limb_ratio` divides by: below 2**47,
#: so that a remainder shifted by 16 bits or more still fits int64.
RATIO_MAX_DICE = 20
#: ``10.0 ** n`` for ``n <= 22``, each exact in float64; ``5 ** n`` and its bits for ``n <= 20``.
TEN_POWERS = np.array([float(10**n) for n in range(23)])
FIVE_POWERS = np.array([5**n for n in range(RATIO_MAX_DICE + 1)], dtype=np.int64)
FIVE_BITS = np.array([(5**n).bit_length() for n in range(RATIO_MAX_DICE + 1)], dtype=np.int64)
#: ``2.0 ** (2 - k)`` for ``k < 128``, each exact: the scales of :func:`limb_ratio`'s results.
SCALES = np.array([2.0 ** (2 - k) for k in range(128)])


@kernel
def _bit_length(x: int) -> int:
    """Bits of ``0 <= x < 2**63``."""
    n = 0
    for step in (32, 16, 8, 4, 2, 1):
        if x >> step != 0:
            x >>= step
            n += step
    return n + (1 if x != 0 else 0)


#: Masks of the exact remainder's arithmetic modulo 2**62 (:func:`limb_ratio`).
_LOW31 = (1 << 31) - 1
_LOW62 = (1 << 62) - 1


@kernel
def limb_ratio(
    hi: int, lo: int, dice: int, ten_powers: FloatArray, five_powers: IntArray, five_bits: IntArray
) -> float:
    """``float(Fraction(hi * 2**LIMB_BITS + lo, 10 ** dice))``, correctly rounded (to nearest,
    ties to even), or NaN where this declines (the caller divides in Python ints): past
    :data:`RATIO_MAX_DICE` dice, or a count of 2**55 times ``5 ** dice`` or more, which no count
    of a pool reaches (it is at most ``10 ** dice``).

    ``lo`` may hold more than LIMB_BITS bits (it is carried here); the count
    ``V`` is non-negative and below 2**94.  Below 2**53, over ``10 ** dice``
    (exact in float64 up to 22 dice), the quotient is one IEEE division,
    correctly rounded.  Otherwise ``V / 10 ** dice = (m + r / d) * 2 **
    -dice`` with ``d = 5 ** dice < 2**47`` and ``m, r`` from an integer
    division; the 55 leading bits of ``m + r / d`` are ``m`` then the first
    ``s`` bits ``F`` of ``r / d``, estimated from one float division (within
    2 of ``F``) and corrected by the exact remainder ``r * 2**s - F * d``,
    worked out modulo 2**62 (it is below 2**49 in size, so that is exact)
    without an overflow.  Rounding those 55 bits to 53, the remainder as the
    sticky bit, is the correctly rounded quotient; ``2 ** -dice`` scales it
    exactly.  ``ten_powers``, ``five_powers``, ``five_bits``:
    :data:`TEN_POWERS`, :data:`FIVE_POWERS`, :data:`FIVE_BITS`.
    """
    hi += lo >> LIMB_BITS
    lo &= LIMB_MASK
    if hi < (1 << (53 - LIMB_BITS)) and dice <= 22:
        return (hi * float(1 << LIMB_BITS) + lo) / ten_powers[dice]
    if dice > RATIO_MAX_DICE:
        return np.nan
    d = five_powers[dice]
    # the integer part m and the remainder r: at once below 2**63, else hi then lo in two 16-bit
    # chunks (r < d < 2**47, so r << 16 fits)
    if hi < (1 << (63 - LIMB_BITS)):
        v = (hi << LIMB_BITS) | lo
        m = v // d
        r = v - m * d
    else:
        m = hi // d
        if m >= 1 << (55 - 2 * 16):
            return np.nan
        r = hi - m * d
        for shift in (16, 0):
            r = (r << 16) | ((lo >> shift) & 0xFFFF)
            q = r // d
            r -= q * d
            m = (m << 16) | q
    if m >= 1 << 55:
        return np.nan
    s = 55 - _bit_length(m)  # bits of r / d still to find (m >= 1 here: V >= 2**53 > d)
    if s > 0:
        f = int(float(r) / float(d) * float(1 << s))  # r, d exact as floats: within 2 of F
        a = (r & ((1 << (62 - s)) - 1)) << s  # r * 2**s, modulo 2**62
        f0, f1 = f & _LOW31, f >> 31
        d0, d1 = d & _LOW31, d >> 31
        b = (f0 * d0 + (((f1 * d0 + f0 * d1) & _LOW31) << 31)) & _LOW62  # f * d, modulo 2**62
        rem = (a - b) & _LOW62
        if rem >= 1 << 61:
            rem -= 1 << 62
        while rem < 0:
            f -= 1
            rem += d
        while rem >= d:
            f += 1
            rem -= d
        m = (m << s) | f
        r = rem
    # m: 55 bits, r: the sticky remainder
    keep = m >> 2
    rest = m & 3
    if rest > 2 or (rest == 2 and (r != 0 or keep & 1 == 1)):
        keep += 1
    return float(keep) * SCALES[s + dice]  # keep <= 2**53: exact as a float, and scaled exactly


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
