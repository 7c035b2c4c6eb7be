"""Big pools of the 5th-edition dice, counted exactly in Python integers by generating functions.

Pools past the one-pass chain (more than 28 dice) are counted here instead
of by the kernels' modular path: only the special dice (a handful) are
enumerated; the normal dice enter through two polynomial powers whose
coefficients come from a linear recurrence, so a pool of n dice costs O(n)
big-integer operations per polynomial, not n**2 states times n primes.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Any, Iterable, Sequence

import numpy as np
import numpy.typing as npt
from analysis.engine import seam


CAP = seam.shapes.CAP


def _binomial_power(m: int, f0: int, f1: int) -> list[int]:
    """Coefficients of ``(f0 + f1 x) ** m``: ``C(m, i) f1**i f0**(m - i)``, exactly."""
    out = [f0**m]
    if f1 == 0:
        return out
    for k in range(m):
        out.append(out[-1] * (m - k) * f1 // ((k + 1) * f0))
    return out


def _sparse_power(terms: dict[int, int], n: int) -> list[int]:
    """Coefficients of ``P(w) ** n`` for a polynomial ``P`` with ``P(0) != 0``.

    ``terms`` maps exponents to integer coefficients.  The coefficients come
    from the identity ``P Q' = n P' Q`` for ``Q = P ** n``: each one is a few
    products by small integers and one exact division, so ``Q`` costs
    O(degree * len(terms)) big-integer operations.
    """
    p0 = terms[0]
    others = [(i, c) for i, c in sorted(terms.items()) if i > 0 and c != 0]
    degree = n * max([i for i, _ in others], default=0)
    q = [p0**n]
    for k in range(1, degree + 1):
        acc = 0
        for i, c in others:
            if i > k:
                break
            acc += c * (n * i - k + i) * q[k - i]
        value, rest = divmod(acc, p0 * k)
        if rest:  # cannot happen: Q has integer coefficients
            raise ArithmeticError("polynomial power: inexact division")
        q.append(value)
    return q


def clear_caches() -> None:
    """Forget the generating functions of big pools kept between calls."""
    _normal_parts.cache_clear()
    _normal_suffixes.cache_clear()
    _columns.cache_clear()


@lru_cache(maxsize=64)
def _normal_parts(
    n_normal: int, w_normal: tuple[int, ...], crit_bonus: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Success generating functions of ``n_normal`` normal dice, as object arrays.

    Returns ``(from_even, from_odd, no_ten, one_ten)``: ways by the successes
    the normal dice add (their tens and the bonus of the pairs they complete)
    when the dice counted before showed an even / odd number of tens; and the
    ways by successes of the rolls with no ten and with exactly one ten.

    With ``b = f0 + f1 x`` (a die without a ten) and ``u = x ** (2 + bonus)``
    (two tens: a pair), ``n`` dice from an even start give ``E + f2 x O`` and
    from an odd start ``E + f2 x**(1 + bonus) O``, where ``E`` sums the terms
    of ``(b + f2 sqrt(u)) ** n`` with an even number of tens and ``O`` the odd
    ones (divided by ``sqrt(u)``).  In ``w = sqrt(x)`` both are halves of
    ``P+ ** n +- P- ** n``, ``P+- = f0 + f1 w**2 +- f2 w**(2 + bonus)``.
    """
    f0, f1, f2 = (int(v) for v in w_normal)
    n, cb = int(n_normal), int(crit_bonus)
    half = 2 + cb
    if f0 < 1 or f2 < 1:
        raise ValueError("big pools need a normal die with a failing face and a ten")
    plus = _sparse_power({0: f0, 2: f1, half: f2} if half != 2 else {0: f0, 2: f1 + f2}, n)
    minus = _sparse_power({0: f0, 2: f1, half: -f2} if half != 2 else {0: f0, 2: f1 - f2}, n)
    size = max(len(plus), len(minus))
    plus = plus + [0] * (size - len(plus))
    minus = minus + [0] * (size - len(minus))
    even = [(a + b) // 2 for a, b in zip(plus[::2], minus[::2])]  # E, in x
    odd_w = [(a - b) // 2 for a, b in zip(plus, minus)][half:]  # O * w**0, in w
    odd = odd_w[::2]  # O, in x
    length = n + cb * ((n + 1) // 2) + 1

    def poly(parts: list[tuple[int, Any]]) -> np.ndarray:  # (shift, coefficients: a list, then an array)
        out = np.zeros(length, dtype=object)
        for shift, coef in parts:
            coef = np.array(coef[: max(length - shift, 0)], dtype=object)
            out[shift : shift + len(coef)] += coef
        return out

    from_even = poly([(0, even), (1, [f2 * v for v in odd])])
    from_odd = poly([(0, even), (1 + cb, [f2 * v for v in odd])])
    no_ten = poly([(0, _binomial_power(n, f0, f1))])
    one_ten = poly([(1, [n * f2 * v for v in _binomial_power(n - 1, f0, f1)])] if n >= 1 else [])
    for a in (from_even, from_odd, no_ten, one_ten):
        a.setflags(write=False)
    return from_even, from_odd, no_ten, one_ten


def _special_outcomes(n_special: int, w_special: Iterable[int]) -> dict[tuple[int, int, int], int]:
    """Ways of the special dice alone: ``{(successes below ten, tens, capped marks): ways}``."""
    marks, fails, succ, tens = (int(v) for v in w_special)
    out: dict[tuple[int, int, int], int] = {}
    n = int(n_special)
    for e in range(n + 1):
        for o in range(n - e + 1):
            for g in range(n - e - o + 1):
                f = n - e - o - g
                w = comb(n, e) * comb(n - e, o) * comb(n - e - o, g) * tens**e * marks**o * succ**g * fails**f
                if w:
                    key = (g, e, min(o, CAP))
                    out[key] = out.get(key, 0) + w
    return out


def big_pool_ways(
    n_normal: int, n_special: int, w_normal: Iterable[int], w_special: Iterable[int], crit_bonus: int
) -> np.ndarray:
    """Exact ways by (successes, pair, capped special tens, capped special marks), in Python ints.

    The same numbers as :func:`kernels.special.special_pool_ways`, for pools
    of any size (an object array of shape ``(S, 2, CAP + 1, CAP + 1)``,
    ``S = n + crit_bonus * (n // 2) + 1``), from generating functions: the
    special dice are enumerated, the normal dice are two polynomial powers
    (see :func:`_normal_parts`).  A pool of 1000 dice takes a fraction of a
    second.
    """
    nn, ns, cb = int(n_normal), int(n_special), int(crit_bonus)
    n = nn + ns
    size_s = n + cb * (n // 2) + 1
    from_even, from_odd, no_ten, one_ten = _normal_parts(nn, tuple(int(v) for v in w_normal), cb)
    ways = np.zeros((size_s, 2, CAP + 1, CAP + 1), dtype=object)
    ways[...] = 0

    def add(pair: int, ec: int, oc: int, shift: int, vector: np.ndarray, weight: int) -> None:
        top = min(len(vector), size_s - shift)
        if top > 0:
            ways[shift : shift + top, pair, ec, oc] += vector[:top] * weight

    for (g, e, oc), w in _special_outcomes(ns, w_special).items():
        ec = min(e, CAP)
        base = g + e + cb * (e // 2)
        add(1, ec, oc, base, from_odd if e % 2 else from_even, w)
        # the rolls with fewer than two tens move from pair 1 to pair 0
        low = (no_ten, one_ten) if e == 0 else (no_ten,) if e == 1 else ()
        for vector in low:
            add(1, ec, oc, base, vector, -w)
            add(0, ec, oc, base, vector, w)
    return ways


def classify_big(
    ways: np.ndarray,
    difficulties: Sequence[int] | np.ndarray,
    mark_bonus: Iterable[int],
    table: npt.ArrayLike,
    n_classes: int,
) -> np.ndarray:
    """Ways per class for each Difficulty from Python-int ways (as :func:`kernels.special.special_classify`).

    Returns an object array ``(D, n_classes)`` of Python ints.
    """
    table = np.asarray(table)
    bonus = [int(b) for b in mark_bonus]
    n_s = ways.shape[0] + max(bonus)
    win = np.zeros((n_s + 1, n_classes), dtype=object)
    fail = np.zeros((n_s + 1, n_classes), dtype=object)
    for pair in range(2):
        for ec in range(CAP + 1):
            for oc in range(CAP + 1):
                column = ways[:, pair, ec, oc]
                shift = bonus[oc]
                k_win = int(table[seam.shapes.BAND_WIN, pair, ec, oc])
                k_short = int(table[seam.shapes.BAND_SHORT, pair, ec, oc])
                k_none = int(table[seam.shapes.BAND_NONE, pair, ec, oc])
                win[shift : shift + len(column), k_win] += column
                if shift == 0:
                    fail[0, k_none] += column[0]
                    fail[1 : len(column), k_short] += column[1:]
                else:
                    fail[shift : shift + len(column), k_short] += column
    win_suffix = np.cumsum(win[::-1], axis=0)[::-1]
    fail_prefix = np.concatenate([np.zeros((1, n_classes), dtype=object), np.cumsum(fail, axis=0)[:-1]])
    out = np.empty((len(difficulties), n_classes), dtype=object)
    for di, d in enumerate(difficulties):
        d = min(int(d), n_s)
        out[di] = win_suffix[d] + fail_prefix[d]
    return out


@lru_cache(maxsize=64)
def _normal_suffixes(n_normal: int, w_normal: tuple[int, ...], crit_bonus: int) -> np.ndarray:
    """Suffix sums of :func:`_normal_parts`, read-only: ``out[part, k] = sum(parts[part][k:])``,
    an object array of shape (4, L + 1) whose last column is 0, so that the
    ways of any run of successes are one lookup."""
    parts = _normal_parts(n_normal, w_normal, crit_bonus)
    length = max(len(p) for p in parts)
    out = np.zeros((len(parts), length + 1), dtype=object)
    for i, part in enumerate(parts):
        out[i, : len(part)] = np.cumsum(part[::-1])[::-1]
    out.setflags(write=False)
    return out


def _column_terms(
    n_special: int, w_special: Iterable[int], crit_bonus: int
) -> list[tuple[int, int, int, int, int, int]]:
    """How the ways of each (pair, capped special tens, capped marks) column are made.

    A list of ``(pair, ec, oc, shift, part, weight)``: the column gains
    ``weight`` times the normal-dice ``part`` (0 from an even start, 1 from
    an odd start, 2 no ten, 3 one ten; see :func:`_normal_parts`) moved up
    by ``shift`` successes.  The same sums :func:`big_pool_ways` makes.
    """
    terms: list[tuple[int, int, int, int, int, int]] = []
    cb = int(crit_bonus)
    for (g, e, oc), w in _special_outcomes(n_special, w_special).items():
        ec = min(e, CAP)
        base = g + e + cb * (e // 2)
        terms.append((1, ec, oc, base, e % 2, w))
        low = (2, 3) if e == 0 else (2,) if e == 1 else ()
        for part in low:
            terms.append((1, ec, oc, base, part, -w))
            terms.append((0, ec, oc, base, part, w))
    return terms


@lru_cache(maxsize=64)
def _columns(
    n_special: int, w_special: tuple[int, ...], crit_bonus: int
) -> dict[tuple[int, int, int], tuple[tuple[int, int, int], ...]]:
    """:func:`_column_terms` by column, terms of the same shift and part merged:
    ``{(pair, ec, oc): ((shift, part, weight), ...)}``."""
    merged: dict[tuple[tuple[int, int, int], int, int], int] = {}
    for pair, ec, oc, shift, part, w in _column_terms(n_special, w_special, crit_bonus):
        key = ((pair, ec, oc), shift, part)
        merged[key] = merged.get(key, 0) + w
    columns: dict[tuple[int, int, int], list[tuple[int, int, int]]] = {}
    for (column, shift, part), w in merged.items():
        if w:
            columns.setdefault(column, []).append((shift, part, w))
    return {column: tuple(terms) for column, terms in columns.items()}


def big_pool_classes(
    n_normal: int,
    n_special: int,
    w_normal: Iterable[int],
    w_special: Iterable[int],
    crit_bonus: int,
    difficulties: Iterable[int],
    mark_bonus: Iterable[int],
    table: npt.ArrayLike,
    n_classes: int,
) -> np.ndarray:
    """Ways per class for each Difficulty, in Python ints, without the full ways array.

    Equal to ``classify_big(big_pool_ways(...), ...)``, but each class sum is
    a few lookups in suffix sums of the normal-dice parts (cached per number
    of normal dice), so a table row costs O(Difficulties), not O(pool).
    Returns an object array ``(D, n_classes)``.
    """
    table = np.asarray(table)
    bonus = [int(b) for b in mark_bonus]
    suffixes = _normal_suffixes(int(n_normal), tuple(int(v) for v in w_normal), int(crit_bonus))
    parts = _normal_parts(int(n_normal), tuple(int(v) for v in w_normal), int(crit_bonus))
    columns = _columns(int(n_special), tuple(int(v) for v in w_special), int(crit_bonus))
    last = suffixes.shape[1] - 1
    d = np.array([min(int(x), 2**40) for x in difficulties], dtype=np.int64)
    out = np.zeros((len(d), n_classes), dtype=object)
    for (pair, ec, oc), terms in columns.items():
        shift = np.array([t[0] for t in terms], dtype=np.int64)
        part = np.array([t[1] for t in terms], dtype=np.int64)
        weight = np.array([t[2] for t in terms], dtype=object)
        b = bonus[oc]
        total = (weight * suffixes[part, 0]).sum()
        zero = sum(w * int(parts[p][0]) for s_, p, w in terms if s_ == 0)
        # ways with at least d - b successes before the bonus, every Difficulty at once
        index = np.clip((d - b)[:, None] - shift[None, :], 0, last)
        win = (suffixes[part[None, :], index] * weight[None, :]).sum(axis=1)
        none = (d > 0).astype(np.int64).astype(object) * zero if b == 0 else 0
        k_win = int(table[seam.shapes.BAND_WIN, pair, ec, oc])
        k_short = int(table[seam.shapes.BAND_SHORT, pair, ec, oc])
        k_none = int(table[seam.shapes.BAND_NONE, pair, ec, oc])
        out[:, k_win] += win
        out[:, k_none] += none
        out[:, k_short] += total - win - none
    return out
