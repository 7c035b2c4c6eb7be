"""Multiset enumeration helpers: binomial tables, powers and modular products.

Every counting kernel in this package works in one of two arithmetics,
chosen by its ``mod`` argument:

* ``mod == 0``: plain int64.  The caller checks, before the call, that
  every number fits: each kernel module has a plain-Python bound function
  beside its kernels (e.g. ``kernels.special.special_pool_ways_bound``) bounding every
  number the kernel holds, intermediates included, and
  ``analysis.engine.exact.count`` runs int64 only when that bound fits.  Mostly it
  is the number of ordered outcomes, but not always: ``fill_powers`` forms
  one power past the last it stores, for instance.
* ``mod > 0``: arithmetic modulo a prime below 2**31, so that a product of
  two residues fits in int64.  The caller repeats the call for several primes
  and rebuilds the exact integers by the Chinese remainder theorem
  (``analysis.engine.exact``).  This is the exact path for pools whose counts do
  not fit in 64 bits.
"""

from __future__ import annotations

from kernels._jit import IntArray, kernel


@kernel
def mulmod(a: int, b: int, mod: int) -> int:
    """Product ``a * b`` (reduced modulo ``mod`` when ``mod > 0``)."""
    if mod > 0:
        return (a * b) % mod
    return a * b


@kernel
def addmod(a: int, b: int, mod: int) -> int:
    """Sum ``a + b`` (reduced modulo ``mod`` when ``mod > 0``).

    Residues in ``[0, mod)`` (the common case) are reduced by one
    subtraction instead of a division; anything else takes ``%``, so the
    result is ``(a + b) % mod`` whatever the operands.
    """
    if mod > 0:
        s = a + b
        if s >= mod:
            s -= mod
        if s >= mod or s < 0:
            s %= mod
        return s
    return a + b


@kernel
def fill_binomials(mod: int, out: IntArray) -> None:
    """Pascal's triangle: ``out[n, k] = C(n, k)`` (mod ``mod`` if > 0).

    Parameters
    ----------
    mod : int64
        0 for plain int64, else a prime below 2**31.
    out : int64[N + 1, N + 1]
        Filled in place; entries with ``k > n`` are set to 0.
    """
    n_max = out.shape[0] - 1
    for n in range(n_max + 1):
        for k in range(n_max + 1):
            out[n, k] = 0
        out[n, 0] = 1
        for k in range(1, n + 1):
            v = out[n - 1, k - 1] + out[n - 1, k]
            if mod > 0:
                v %= mod
            out[n, k] = v


@kernel
def fill_powers(base: int, mod: int, out: IntArray) -> None:
    """``out[k] = base ** k`` (mod ``mod`` if > 0) for ``k`` in 0..len(out)-1.

    Parameters
    ----------
    base : int64
        A face count (how many faces of the die fall in a category).
    mod : int64
        0 for plain int64, else a prime below 2**31.
    out : int64[K]
        Filled in place.
    """
    v = 1
    for k in range(out.shape[0]):
        out[k] = v
        v = mulmod(v, base % mod if mod > 0 else base, mod)


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted), exact: each returns a Python int at least as
# large as every number the kernel beside it holds or forms in plain int64,
# so that ``analysis.engine.exact.count`` can pick int64 or primes safely.


def binomials_bound(size: int) -> int:
    """Largest entry of :func:`fill_binomials`'s table with ``size`` rows.

    The table holds ``C(n, k)`` for ``n < size``; the largest is the central
    ``C(size - 1, (size - 1) // 2)`` (1 for an empty or one-row table).
    """
    from math import comb

    m = max(int(size) - 1, 0)
    return comb(m, m // 2)


def powers_bound(base: int, length: int) -> int:
    """Largest number :func:`fill_powers` forms for ``out`` of ``length``.

    It stores ``base ** 0 .. base ** (length - 1)`` and forms one power more,
    ``base ** length``, before the loop ends (never stored, but formed in
    int64 all the same); at least the first power, 1, and ``base`` itself.
    """
    base = abs(int(base))
    return max(1, base, base ** max(int(length), 0))
