"""The exact path: int64 where it provably fits, primes and CRT beyond."""

from __future__ import annotations

import gc
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import fields
from fractions import Fraction
from typing import Any, Callable, Iterable, Sequence

import numpy as np
import numpy.typing as npt

INT64_MAX = 2**63 - 1
#: Moduli stay below 2**31 so that a product of two residues fits in int64.
_PRIME_CEILING = 2**31


def _is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin for n < 2**32 (bases 2, 7, 61)."""
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 61):
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d //= 2
        r += 1
    for a in (2, 7, 61):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


_PRIMES: list[int] = []


def primes_for(bound: int) -> list[int]:
    """Primes below 2**31, largest first, whose product exceeds ``bound``."""
    out: list[int] = []
    product, i = 1, 0
    while product <= bound or not out:
        while i >= len(_PRIMES):
            candidate = (_PRIMES[-1] if _PRIMES else _PRIME_CEILING) - 1
            while not _is_prime(candidate):
                candidate -= 1
            _PRIMES.append(candidate)
        out.append(_PRIMES[i])
        product *= _PRIMES[i]
        i += 1
    return out


def crt(residues: list[np.ndarray], primes: list[int]) -> np.ndarray:
    """Rebuild non-negative integers below ``prod(primes)`` from residues.

    Garner's algorithm, elementwise over int64 arrays of one shape: the
    mixed-radix digits are found in int64 (every product of two residues is
    below 2**62), and only the final sum is taken in Python ints.  Returns
    an object array of Python ints.
    """
    digits = [np.asarray(residues[0], dtype=np.int64)]
    for i in range(1, len(primes)):
        p = primes[i]
        # x_i = (r_i - (d_0 + d_1 p_0 + ... )) / (p_0 ... p_{i-1})  (mod p)
        acc = np.zeros_like(digits[0])
        radix = 1
        for j, d in enumerate(digits):
            acc = (acc + d % p * radix) % p
            radix = radix * primes[j] % p
        inv = pow(radix, -1, p)
        digits.append((np.asarray(residues[i], dtype=np.int64) - acc) % p * inv % p)
    x = digits[-1].astype(object)
    for j in reversed(range(len(digits) - 1)):
        x = x * primes[j] + digits[j].astype(object)
    return x


def _check_bound(bound: object) -> int:
    """``bound`` as a Python int, refusing numpy integers (they may have wrapped)."""
    if type(bound) is not int:
        raise TypeError(
            f"a count bound must be a Python int (exact, never wrapped), got {type(bound).__name__}; "
            "compute it with the kernel module's bound function"
        )
    if bound < 0:
        raise ValueError(f"a count bound cannot be negative, got {bound}")
    return bound


def passes(bound: int) -> int:
    """How many kernel runs :func:`count` makes for counts up to ``bound``.

    1 within int64, else the number of primes whose product exceeds
    ``bound`` (past 64 primes, an estimate from the bound's size that is at
    most a few more): the cost of the exact path, for callers that refuse
    work that would take too long.
    """
    bound = _check_bound(bound)
    if bound <= INT64_MAX:
        return 1
    if bound.bit_length() > 31 * 64:  # many primes: from the size alone (each prime used is above
        # 2**30, so this is at most a few more than count makes), without finding them
        return -(-(bound.bit_length() + 1) // 30)
    return len(primes_for(bound))


#: Counts that need more primes than this are cheaper in Python ints where a
#: kernel layer offers that path (e.g. ``analysis.engine.pairs_count.big_pool_ways``).
MODULAR_MAX_PASSES = 3


def wants_big_ints(bound: int) -> bool:
    """True when counts up to ``bound`` need more than :data:`MODULAR_MAX_PASSES` primes."""
    bound = _check_bound(bound)
    return bound > INT64_MAX and passes(bound) > MODULAR_MAX_PASSES


def whole_factors(
    part: Sequence[tuple[int, tuple[int, ...], Any]],
    sides: Sequence[int],
    base: int,
    powers: Sequence[int],
    walked: int,
    mod: int,
) -> list[int]:
    """Per pool of a walk (its dice ``part[e][1]``, the walked kind's increasing), ``base**powers[e]`` over
    the product of its dice's sides, modulo the prime ``mod``: the first worked out whole, each next
    from the one before (only the walked kind's dice differ)."""
    inverse = pow(sides[walked], -1, mod)
    out: list[int] = []
    for e, (_, dice, _) in enumerate(part):
        if not out:
            den = 1
            for side, n in zip(sides, dice):
                den = den * pow(side, n, mod) % mod
            out.append(pow(base, powers[e], mod) * pow(den, -1, mod) % mod)
        else:
            more = dice[walked] - part[e - 1][1][walked]
            out.append(out[-1] * pow(base, powers[e] - powers[e - 1], mod) * pow(inverse, more, mod) % mod)
    return out


def cores() -> int:
    """The cores this process may run on (at least 1): the modular path's threads (:func:`count`)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return max(1, os.cpu_count() or 1)


def count(
    compute: Callable[[int], np.ndarray], bound: int, *, force_modular: bool = False, threads: bool = False
) -> np.ndarray:
    """Run a counting kernel exactly, whatever the size of its counts.

    The one door to the exact path: int64 when ``bound`` fits, else primes
    and the Chinese remainder theorem.

    Parameters
    ----------
    compute : callable
        ``compute(mod)`` runs the kernel with that ``mod`` (0 = plain int64,
        else a prime below 2**31) and returns its int64 result.
    bound : int
        An upper bound on every number the kernel holds, intermediates
        included: the value of the kernel module's bound function for this
        call (e.g. ``kernels.special.special_pool_ways_bound``), never worked out by
        hand.  A Python int (a numpy integer could have wrapped already).
    force_modular : bool
        Take the modular path even where int64 would do (tests check the two
        paths agree).
    threads : bool
        ``compute`` shares nothing between calls (its kernel releases the GIL
        and makes its own scratch): the primes are then counted on the
        process's cores at once (:func:`cores`), each prime's result the same
        as in turn.

    Returns
    -------
    numpy.ndarray
        Within int64, the kernel's int64 array from a single run; beyond,
        an object array of Python ints rebuilt from one run per prime,
        never overflowed.
    """
    bound = _check_bound(bound)
    if bound <= INT64_MAX and not force_modular:
        return compute(0)
    primes = primes_for(bound)
    workers = min(cores(), len(primes)) if threads else 1
    if workers > 1:
        return crt(list(_pool(workers).map(compute, primes)), primes)
    return crt([compute(p) for p in primes], primes)


#: The threads of :func:`count`, made once per process (a forked child makes its own): (pid, workers, pool).
_POOL: tuple[int, int, ThreadPoolExecutor] | None = None


def _pool(workers: int) -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None or _POOL[0] != os.getpid() or _POOL[1] < workers:
        if _POOL is not None and _POOL[0] == os.getpid():
            _POOL[2].shutdown(wait=False)
        _POOL = (os.getpid(), workers, ThreadPoolExecutor(workers, thread_name_prefix="beastodds-count"))
    return _POOL[2]


def count_blocks(
    compute: Callable[[int, np.ndarray], np.ndarray],
    bounds: Iterable[int],
    *,
    on_pass: Callable[[], None] | None = None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Run one kernel over many items, each exactly, in as few runs as possible.

    The items whose bound fits in int64 are counted together in a single
    int64 run; the others take the modular path with the primes in the
    outer loop, each item run only under the primes its own bound needs.

    Parameters
    ----------
    compute : callable
        ``compute(mod, index)`` runs the kernel for the items at positions
        ``index`` (an int64 array) with that ``mod`` (as for :func:`count`)
        and returns an int64 array whose first axis follows ``index``.
    bounds : sequence of int
        One bound per item, from the kernel module's bound function.
    on_pass : callable, optional
        Called after each modular run (a progress bar's update); there are
        ``passes(max(bounds))`` of them when some bound exceeds int64.

    Returns
    -------
    list of (index, counts)
        At most two blocks: the items within int64 with their int64 counts,
        then the others with Python-int counts (object array).
    """
    bounds = [_check_bound(b) for b in bounds]
    fits = np.array([b <= INT64_MAX for b in bounds], dtype=bool)
    blocks: list[tuple[np.ndarray, np.ndarray]] = []
    small = np.flatnonzero(fits)
    if len(small):
        blocks.append((small, compute(0, small)))
    big = np.flatnonzero(~fits)
    if len(big):
        needs = {int(i): len(primes_for(bounds[i])) for i in big}
        primes = primes_for(max(bounds[i] for i in big))
        residues: dict[int, list[np.ndarray]] = {int(i): [] for i in big}
        for j, p in enumerate(primes):
            selected = np.array([i for i in big if needs[int(i)] > j], dtype=np.int64)
            for i, r in zip(selected.tolist(), compute(p, selected)):
                residues[i].append(r)
            if on_pass is not None:
                on_pass()
        blocks.append((big, np.stack([crt(residues[int(i)], primes[: needs[int(i)]]) for i in big])))
    return blocks


def int64_counts(compute: Callable[[int], np.ndarray], bound: int) -> np.ndarray:
    """Run a counting kernel in plain int64, refusing when it could overflow.

    Raises OverflowError (before running anything) if counts up to ``bound``
    would not fit in int64: the caller should use :func:`count`.
    """
    if _check_bound(bound) > INT64_MAX:
        raise OverflowError(f"counts up to {bound} do not fit in int64; use the exact (modular) path")
    return compute(0)


#: Integers up to this convert to float64 exactly, so one float division of
#: two of them is the correctly rounded quotient.
FLOAT_EXACT_MAX = 2**53


def float_ratios(ways: npt.ArrayLike, denominators: npt.ArrayLike) -> np.ndarray:
    """``float(Fraction(w, d))`` elementwise: each quotient correctly rounded.

    ``ways`` and ``denominators`` (int64, or object arrays of Python ints)
    broadcast to one shape.  Where both are at most 2**53 they are exact as
    float64 and one IEEE division rounds correctly.  Other int64 operands
    are exact in the 64-bit significand of ``long double`` (where the
    platform has one), whose division also rounds correctly; rounding that
    quotient once more to float64 gives the correctly rounded result unless
    it fell exactly halfway between two float64s, and those few (with
    Python-int operands) are Python's ``int / int``, correctly rounded too
    (``float(w) / float(d)`` would round twice and can be one ulp off).
    Returns a float64 array of the broadcast shape.
    """
    ways = np.asarray(ways)
    dens = np.asarray(denominators)
    shape = np.broadcast_shapes(ways.shape, dens.shape)
    w = np.broadcast_to(ways, shape).ravel()
    d = np.broadcast_to(dens, shape).ravel()
    out = np.empty(w.shape, dtype=np.float64)
    rest = np.arange(len(w))
    if w.dtype != object and d.dtype != object:
        small = (w <= FLOAT_EXACT_MAX) & (w >= -FLOAT_EXACT_MAX) & (d <= FLOAT_EXACT_MAX)
        out[small] = w[small].astype(np.float64) / d[small].astype(np.float64)
        rest = np.flatnonzero(~small)
        if len(rest) and _WIDE_FLOAT:
            wide = w[rest].astype(np.longdouble) / d[rest].astype(np.longdouble)
            near = wide.astype(np.float64)
            other = np.nextafter(near, np.where(wide > near, np.inf, -np.inf))
            halfway = (wide - near) * 2 == other.astype(np.longdouble) - near
            out[rest[~halfway]] = near[~halfway]
            rest = rest[halfway]
    if len(rest):
        out[rest] = [a / b for a, b in zip(w[rest].tolist(), d[rest].tolist())]
    return out.reshape(shape)


#: True where ``long double`` holds every int64 exactly (a 64-bit significand or more: x86's
#: 80-bit extended, or quad precision), so :func:`float_ratios` may divide in it.
_WIDE_FLOAT = np.finfo(np.longdouble).nmant >= 63


def _fractions_one_denominator(ways: np.ndarray, denominator: int) -> np.ndarray:
    """Object array of ``Fraction(w, denominator)`` for a flat array ``ways``."""
    uniq, inverse = np.unique(ways, return_inverse=True)
    made = [Fraction(w, denominator) for w in uniq.tolist()]  # each distinct value once, in lowest terms
    fractions = np.empty(len(made), dtype=object)
    fractions[:] = made
    return fractions[inverse.ravel()]


def ratios(ways: npt.ArrayLike, denominators: npt.ArrayLike, exact: bool) -> np.ndarray:
    """``ways / denominators`` elementwise: exact Fractions (:func:`fractions_over`) when ``exact``, else the
    floats of those Fractions (:func:`float_ratios`).  Arrays are taken as they are (int64 or object); a list
    of Python ints is taken as an object array, so that no whole number is made a uint64 or a float."""
    if not isinstance(ways, np.ndarray):
        ways = np.asarray(ways, dtype=object)
    if not isinstance(denominators, np.ndarray):
        denominators = np.asarray(denominators, dtype=object)
    return fractions_over(ways, denominators) if exact else float_ratios(ways, denominators)


def fractions_over(ways: npt.ArrayLike, denominators: npt.ArrayLike) -> np.ndarray:
    """Exact Fractions ``ways / denominators`` elementwise, fast for big tables.

    ``ways`` (int64, or object holding Python ints) and ``denominators``
    broadcast to one shape, with ``0 <= ways`` and ``denominators > 0``.
    Returns an object array of that shape.  The cells are grouped by
    denominator and each distinct value is made once, so that a table of
    thousands of cells costs a few thousand Fraction constructions at most.
    """
    ways = np.asarray(ways)
    shape = np.broadcast_shapes(ways.shape, np.shape(denominators))
    flat_ways = np.broadcast_to(ways, shape).ravel()
    dens = np.asarray(denominators)
    out = np.empty(flat_ways.shape, dtype=object)
    # Thousands of new objects would trigger the cyclic garbage collector
    # again and again (Fractions hold no cycles): pause it meanwhile.
    paused = gc.isenabled()
    gc.disable()
    try:
        _fill_fractions(out, flat_ways, dens, shape)
    finally:
        if paused:
            gc.enable()
    return out.reshape(shape)


def _fill_fractions(out: np.ndarray, flat_ways: np.ndarray, dens: np.ndarray, shape: tuple[int, ...]) -> None:
    for d in set(dens.ravel().tolist()):
        idx = np.flatnonzero(np.broadcast_to(dens == d, shape))
        w = flat_ways[idx]
        if w.dtype == object and d <= INT64_MAX and max(w.tolist()) <= INT64_MAX:
            w = w.astype(np.int64)
        elif d > INT64_MAX:
            w = w.astype(object)
        out[idx] = _fractions_one_denominator(w, d)


class ArrayFields:
    """Mixin for a frozen dataclass (declared with ``eq=False``) whose fields hold numpy arrays:
    ``==`` is True when every field is equal, arrays compared whole (same shape and values).

    A dataclass's own ``__eq__`` compares the fields with ``==``, which for an
    array is an array: Python 3.13 asks its truth of each field in turn and
    raises, where 3.11 compared tuples of fields (and so arrays only by
    identity).  Such results are not hashable.
    """

    __hash__ = None  # type: ignore[assignment]  # (equal by value, and mutable arrays inside)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented

        for f in fields(self):  # type: ignore[arg-type]  # (a dataclass, as the docstring says)
            if f.compare and not _equal(getattr(self, f.name), getattr(other, f.name)):
                return False
        return True


def _equal(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b)
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    return bool(a == b)


class ClassWays:
    """Mixin for a result holding ``class_ways`` (ordered ``{class: ways}``)
    over ``denominator``: exact probabilities by class name."""

    # declared for the type checker only: the dataclasses that mix this in hold the fields
    class_ways: dict[str, int]
    denominator: int

    def probability(self, outcome: str) -> Fraction:
        """Exact probability of one outcome class."""
        if outcome not in self.class_ways:
            raise ValueError(f"unknown outcome class {outcome!r}; choose from {', '.join(self.class_ways)}")
        return Fraction(self.class_ways[outcome], self.denominator)

    def classes(self) -> dict[str, Fraction]:
        """Every class as ``{name: Fraction}``, in order."""
        return {c: self.probability(c) for c in self.class_ways}
