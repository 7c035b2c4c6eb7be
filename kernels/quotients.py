"""Two-limb counts and their chances, correctly rounded.

A count too big for int64 (the one-pass table of ``kernels.special_chain``)
is held in two int64 limbs, ``hi * 2**LIMB_BITS + lo`` with ``0 <= lo <
2**LIMB_BITS``; :func:`limb_ratio` turns such a count over ``10 ** dice``
into the float nearest the exact quotient (``float(Fraction(count, 10 **
dice))``), without a Python int.
"""

from __future__ import annotations

import math

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
def limb_ratio(
    hi: int, lo: int, dice: int, ten_powers: FloatArray, five_powers: IntArray, five_bits: IntArray
) -> float:
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
