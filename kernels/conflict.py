"""Opposed rolls: ways of each margin between two independent success distributions."""

from __future__ import annotations

from typing import Iterable

from kernels._jit import IntArray, kernel
from kernels.multiset import addmod, mulmod


@kernel
def opposed_margin_ways(ways_a: IntArray, ways_b: IntArray, mod: int, out: IntArray) -> None:
    """Ways of every margin ``successes_a - successes_b`` of two independent rolls.

    Parameters
    ----------
    ways_a : int64[A]
        ``ways_a[s]``: ways for side A to roll ``s`` successes (over ``10**dice_a``),
        reduced modulo ``mod`` if > 0.
    ways_b : int64[B]
        The same for side B.
    mod : int64
        0 for plain int64 (the caller checked
        :func:`opposed_margin_ways_bound`, ``10**(dice_a + dice_b)``, fits),
        else a prime below 2**31.
    out : int64[A + B - 1]
        Overwritten: ``out[m + B - 1]`` is the ways of margin ``m``, for
        ``m`` in ``-(B - 1) .. A - 1``, over ``10**(dice_a + dice_b)``.
    """
    nb = ways_b.shape[0]
    for i in range(out.shape[0]):
        out[i] = 0
    for i in range(ways_a.shape[0]):
        x = ways_a[i]
        if x == 0:
            continue
        for j in range(nb):
            y = ways_b[j]
            if y == 0:
                continue
            k = i - j + nb - 1
            out[k] = addmod(out[k], mulmod(x, y, mod), mod)


def opposed_margin_ways_bound(ways_a: Iterable[int], ways_b: Iterable[int]) -> int:
    """Upper bound on every number :func:`opposed_margin_ways` holds.

    Plain Python (not jitted), for ``analysis.engine.exact.count``.

    Parameters
    ----------
    ways_a, ways_b : sequence of int
        The two sides' ways (exact, Python ints), not reduced.

    Returns
    -------
    int
        ``sum(ways_a) * sum(ways_b)`` (``10 ** (dice_a + dice_b)`` for two
        rolls of d10s), or the largest input if that is larger.
    """
    a = [int(w) for w in ways_a]
    b = [int(w) for w in ways_b]
    if min(a + b, default=0) < 0:
        raise ValueError("ways cannot be negative")
    return max([sum(a) * sum(b)] + a + b)
