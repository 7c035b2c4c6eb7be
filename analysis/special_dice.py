"""The rules layer of the 5th-edition dice engine (``kernels.special``), shared by Werewolf and Hunter.

A system built on the engine describes its rules as an :class:`Engine`: the
faces of its normal and special dice, the bonus of a pair of 10s, whether the
special dice replace normal dice, and its class lookup (``mark_bonus`` and
``table``, see ``kernels.special``).  This module counts exactly from that
description: the ways by roll features, the ways by class for a grid of
(pool, special dice, Difficulty), and the class of one landed roll, taking
int64 where the count provably fits (``10 ** dice``) and the modular
(CRT) path beyond.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Self, Sequence, overload

import numpy as np
import numpy.typing as npt

from kernels import special as _ks
from kernels._jit import IntArray
from kernels.multiset import fill_binomials

from .exact import INT64_MAX, LIMB_BITS, LIMBS_MAX, count, count_blocks, count_limbs, wants_big_ints

CAP = _ks.CAP
#: The engine's int64 arrays: ``(w_normal, w_special, mark_bonus, table)`` (:meth:`Engine.arrays`).
Arrays = tuple[IntArray, IntArray, IntArray, IntArray]
#: Maps a block of counts (ways, denominators) to values (see :func:`grid_ways`).
Finish = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Engine:
    """One system's rules as the engine reads them (hashable, so counts are cached).

    Attributes
    ----------
    normal_faces : tuple of 3 int
        Faces of a normal die: (failures, successes below ten, tens).
    special_faces : tuple of 4 int
        Faces of a special die: (marks, other failures, successes below ten, tens).
    crit_bonus : int
        Bonus successes for each pair of 10s on any dice.
    mark_bonus : tuple of CAP + 1 int
        Successes added by the number of special marks (capped at 2).
    table : tuple
        Class index by (band, pair, special tens, special marks), nested
        tuples of shape (3, 2, CAP + 1, CAP + 1).
    n_classes : int
        Number of classes (the values of ``table`` are below it).
    special_replaces : bool
        True: the special dice replace normal dice (``min(special, pool)``);
        False: they are added to the pool.
    """

    normal_faces: tuple[int, ...]
    special_faces: tuple[int, ...]
    crit_bonus: int
    mark_bonus: tuple[int, ...]
    table: tuple[Any, ...]
    n_classes: int
    special_replaces: bool

    @classmethod
    def of(
        cls,
        normal_faces: Iterable[int],
        special_faces: Iterable[int],
        crit_bonus: int,
        mark_bonus: Iterable[int],
        table: npt.ArrayLike,
        n_classes: int,
        special_replaces: bool,
    ) -> Self:
        """An Engine from arrays or sequences (the table is checked and frozen to tuples)."""
        table = np.asarray(table, dtype=np.int64)
        if table.shape != (3, 2, CAP + 1, CAP + 1) or table.min() < 0 or table.max() >= n_classes:
            raise ValueError("a class table has shape (3, 2, 3, 3) and holds class indices")
        if sum(normal_faces) != 10 or sum(special_faces) != 10:
            raise ValueError("the faces of a die must add up to ten")
        made = cls(
            tuple(int(x) for x in normal_faces),
            tuple(int(x) for x in special_faces),
            int(crit_bonus),
            tuple(int(x) for x in mark_bonus),
            _deep_tuple(table.tolist()),
            int(n_classes),
            bool(special_replaces),
        )
        return made

    def dice(self, pool: int, special: int) -> tuple[int, int]:
        """(normal dice, special dice) rolled for ``pool`` with ``special`` special dice."""
        if self.special_replaces:
            h = min(special, pool)
            return pool - h, h
        return pool, special

    def arrays(self) -> Arrays:
        """(w_normal, w_special, mark_bonus, table) as int64 arrays for the kernels (read-only, made
        once per engine)."""
        made = self.__dict__.get("_arrays")
        if made is None:
            made = _arrays(self)
            object.__setattr__(self, "_arrays", made)
        return made

    def __hash__(self) -> int:
        # the engine keys caches: its class table is hashed once (it is frozen), never pickled
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k not in ("_hash", "_arrays")}

    def classify(self, successes: int, tens: int, special_tens: int, special_marks: int, difficulty: int) -> int:
        """The class index of one landed roll, by the engine's one class lookup.

        ``successes`` counts pairs of 10s with their bonus, before the mark bonus.
        """
        _, _, bonus, table = self.arrays()
        return int(
            _ks.classify_one(
                successes, int(tens >= 2), min(special_tens, CAP), min(special_marks, CAP), difficulty, bonus, table
            )
        )

    def successes(
        self, normal_faces: Iterable[int], special_faces: Iterable[int], success_face: int
    ) -> tuple[int, int, int, int]:
        """(successes before the mark bonus, tens, special tens, special marks) of landed dice.

        A special die's mark is a face in ``1..special_faces[0]`` (its lowest faces).
        """
        faces = list(normal_faces) + list(special_faces)
        tens = faces.count(10)
        s = sum(f >= success_face for f in faces) + self.crit_bonus * (tens // 2)
        marks = sum(f <= self.special_faces[0] for f in special_faces)
        return s, tens, list(special_faces).count(10), marks


def _deep_tuple(x: Any) -> Any:
    return tuple(_deep_tuple(v) for v in x) if isinstance(x, list) else x


def _arrays(engine: Engine) -> Arrays:
    out = (
        np.array(engine.normal_faces, dtype=np.int64),
        np.array(engine.special_faces, dtype=np.int64),
        np.array(engine.mark_bonus, dtype=np.int64),
        np.array(engine.table, dtype=np.int64),
    )
    for a in out:
        a.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def binomials(size: int, mod: int) -> IntArray:
    """The kernels' binomial table ``C(n, k)`` for ``n, k < size`` (mod ``mod``
    if > 0), read-only and cached: shared by every kernel call of the
    5th-edition dice (V5, Werewolf, Hunter)."""
    if size <= SMALL_BINOMIALS:  # Python is quicker than loading the kernel in a new process
        rows: list[list[int]] = []
        prev = [0] * size
        for n in range(size):
            row = [1] + [prev[k - 1] + prev[k] for k in range(1, n + 1)] + [0] * (size - n - 1)
            rows.append([v % mod for v in row] if mod else row)
            prev = row
        out = np.array(rows, dtype=np.int64)
    else:
        out = np.empty((size, size), dtype=np.int64)
        fill_binomials(mod, out)
    out.setflags(write=False)
    return out


#: Largest table :func:`binomials` builds in Python (C(63, 31) < 2**63, so its
#: entries fit int64 as the kernel's do).
SMALL_BINOMIALS = 64


@lru_cache(maxsize=4096)
def counts(
    engine: Engine, n_normal: int, n_special: int, difficulties: tuple[int, ...], force_modular: bool = False
) -> tuple[np.ndarray, np.ndarray, int]:
    """Exact (ways by (s, pair, e, o), ways by class per Difficulty, denominator).

    ``s`` counts successes before the mark bonus; the class ways include it.
    Counts that fit int64 or a few primes come from the kernels; bigger
    ones from :func:`big_pool_ways` in Python ints.  ``force_modular`` takes the
    kernels' modular (CRT) path instead of either (the tests check that the
    paths agree).
    """
    n = n_normal + n_special
    size_s = n + engine.crit_bonus * (n // 2) + 1
    w_n, w_s, bonus, table = engine.arrays()
    diffs = np.array(difficulties, dtype=np.int64)
    n_ways = size_s * 2 * (CAP + 1) ** 2

    def compute(mod: int) -> np.ndarray:
        ways = np.zeros((size_s, 2, CAP + 1, CAP + 1), dtype=np.int64)
        _ks.special_pool_ways(n_normal, n_special, w_n, w_s, engine.crit_bonus, mod, binomials(n + 1, mod), ways)
        classes = np.empty((len(diffs), engine.n_classes), dtype=np.int64)
        _ks.special_classify(ways, diffs, bonus, table, mod, classes)
        return np.concatenate([ways.ravel(), classes.ravel()])

    denominator = 10**n
    bound = _ks.special_pool_ways_bound(n_normal, n_special, w_n, w_s, n + 1)
    if wants_big_ints(bound) and not force_modular:
        ways = big_pool_ways(n_normal, n_special, w_n, w_s, engine.crit_bonus)
        classes = classify_big(ways, diffs, bonus, table, engine.n_classes)
    else:
        flat = count(compute, bound, force_modular=force_modular)
        ways = flat[:n_ways].reshape(size_s, 2, CAP + 1, CAP + 1)
        classes = flat[n_ways:].reshape(len(diffs), engine.n_classes)
    for a in (ways, classes):
        a.setflags(write=False)
    return ways, classes, denominator


def success_ways(engine: Engine, ways: npt.ArrayLike) -> tuple[int, ...]:
    """Ways of each final number of successes (the mark bonus added), as Python ints."""
    by_marks = np.asarray(ways).sum(axis=(1, 2))  # (successes before the bonus, capped marks)
    bonus = [int(b) for b in engine.mark_bonus]
    size = by_marks.shape[0] + max(bonus)
    out = [0] * size
    for oc, b in enumerate(bonus):
        for s, w in enumerate(by_marks[:, oc].tolist()):
            if w:
                out[s + b] += int(w)
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return tuple(out) if any(out) else (0,)


def grid_blocks(
    engine: Engine,
    pools: Sequence[int],
    specials: Sequence[int],
    difficulties: Sequence[int],
    on_big: Callable[[], object] | None = None,
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Exact class ways for a grid, block by block, each block in its own arithmetic.

    Yields ``(index, ways, dens)``: the positions in ``pools`` of the block,
    its ways of shape (k, H, D, K) and denominators of shape (k, H, 1, 1).
    Pools whose counts fit int64 come first, in one int64 block from a
    single kernel call; pools a few primes away in one block of Python ints
    (a kernel call per prime, then CRT); each bigger pool in a block of its
    own, counted in Python ints by generating functions
    (:func:`big_pool_classes`), calling ``on_big()`` after each (pool,
    special dice) of them (a progress bar's update).
    """
    w_n, w_s, bonus, table = engine.arrays()
    specials_arr = np.array(specials, dtype=np.int64)
    diffs = np.array(difficulties, dtype=np.int64)
    pools_arr = np.array(pools, dtype=np.int64)
    shape = (len(pools), len(specials))
    nh = (
        np.minimum(specials_arr[None, :], pools_arr[:, None])
        if engine.special_replaces
        else np.broadcast_to(specials_arr[None, :], shape)
    )
    nn = pools_arr[:, None] - nh if engine.special_replaces else np.broadcast_to(pools_arr[:, None], shape)
    dice = nn + nh

    def run(index: np.ndarray, mod: int) -> np.ndarray:
        out = np.empty((len(index), len(specials), len(diffs), engine.n_classes), dtype=np.int64)
        n = int(dice[index].max(initial=0))
        _ks.special_grid_class_ways_into(
            pools_arr[index],
            specials_arr,
            diffs,
            w_n,
            w_s,
            engine.crit_bonus,
            bonus,
            table,
            int(engine.special_replaces),
            mod,
            binomials(n + 1, mod),
            out,
            *_grid_scratch(n, engine.crit_bonus, max(0, int(bonus.max())), engine.n_classes),
        )
        return out

    def dens(index: np.ndarray, block: np.ndarray) -> np.ndarray:
        if block.dtype == object:
            return np.array([[10**n for n in row] for row in dice[index].tolist()], dtype=object)[:, :, None, None]
        powers: np.ndarray = 10 ** dice[index]  # each fits: at most the block's bound
        return powers[:, :, None, None]

    # pools whose rolls fit two limbs: one pass of the chain kernel, int64 ones then the others
    most = dice.max(axis=1, initial=0)
    limbed = most <= LIMB_DICE
    if limbed.any():
        index = np.flatnonzero(limbed)
        counted = limb_counts(engine, pools_arr[index], specials_arr, diffs)
        for part in (most[index] <= INT64_DICE, most[index] > INT64_DICE):
            if part.any():
                bound = _ks.special_grid_class_limbs_bound(
                    pools_arr[index[part]].tolist(), specials, int(engine.special_replaces)
                )
                block = count_limbs(lambda: (counted[0][part], counted[1][part]), bound)
                yield index[part], block, dens(index[part], block)
        if limbed.all():
            return
    bounds = _bounds(engine, pools, specials)
    big = [wants_big_ints(b) if not limbed[i] else False for i, b in enumerate(bounds)]
    modest = np.array([i for i, b in enumerate(big) if not b and not limbed[i]], dtype=np.int64)
    for index, block in count_blocks(lambda mod, idx: run(modest[idx], mod), [bounds[i] for i in modest]):
        yield modest[index], block, dens(modest[index], block)
    for i in (i for i, b in enumerate(big) if b):
        block = np.empty((1, len(specials), len(diffs), engine.n_classes), dtype=object)
        for hi, h in enumerate(specials):
            block[0, hi] = big_pool_classes(
                *engine.dice(pools[i], h), w_n, w_s, engine.crit_bonus, diffs, bonus, table, engine.n_classes
            )
            if on_big is not None:
                on_big()
        yield np.array([i]), block, dens(np.array([i]), block)


#: The most dice whose ``10 ** dice`` rolls the two-limb chain kernel counts (below
#: ``analysis.exact.LIMBS_MAX``: 28), and the most whose counts fit int64 (18).
LIMB_DICE = max(n for n in range(64) if 10**n < LIMBS_MAX)
INT64_DICE = max(n for n in range(64) if 10**n <= INT64_MAX)


def limb_counts(
    engine: Engine,
    pools: IntArray,
    specials: IntArray,
    diffs: IntArray,
    picks: Sequence[Sequence[int]] = (),
    floats: bool = False,
) -> tuple[IntArray, IntArray, np.ndarray | None]:
    """The two limbs ``(hi, lo)`` of the class ways of a grid, int64[P, H, D, K + len(picks)] (the
    classes, then each pick's classes together), from one call of
    :func:`kernels.special.special_grid_class_limbs_into`, and with ``floats`` their chances as
    floats (correctly rounded, NaN where the kernel declines), else None.  The caller checks the
    bound."""
    w_n, w_s, bonus, table = engine.arrays()
    shape = (len(pools), len(specials), len(diffs), engine.n_classes + len(picks))
    out_hi = np.empty(shape, dtype=np.int64)
    out_lo = np.empty(shape, dtype=np.int64)
    out_float = np.empty(shape if floats else (0, 0, 0, 0), dtype=np.float64)
    pick = np.zeros((len(picks), engine.n_classes), dtype=np.int64)
    for e, p in enumerate(picks):
        pick[e, list(p)] = 1
    n = int(pools.max(initial=0)) + (0 if engine.special_replaces else int(specials.max(initial=0)))
    columns = n + engine.crit_bonus * (n // 2) + engine.crit_bonus + 2
    states = [np.empty((_ks.STATE_ROWS, columns), dtype=np.int64) for _ in range(6)]
    _ks.special_grid_class_limbs_into(
        pools,
        specials,
        diffs,
        w_n,
        w_s,
        engine.crit_bonus,
        bonus,
        table,
        int(engine.special_replaces),
        INT64_DICE,
        pick,
        int(floats),
        out_hi,
        out_lo,
        out_float,
        *states,
        np.empty((2, CAP + 1, CAP + 1), dtype=np.int64),
        np.empty((_ks.STATE_ROWS // 2, 4), dtype=np.int64),
    )
    return out_hi, out_lo, out_float if floats else None


def _grid_scratch(n: int, crit_bonus: int, top: int, n_classes: int) -> tuple[np.ndarray, ...]:
    """Scratch arrays for :func:`kernels.special.special_grid_class_ways_into` over pools of at most
    ``n`` dice (the kernel allocates nothing itself, so loading it stays light)."""
    s_top = n + crit_bonus * (n // 2) + 1
    return (
        np.empty((s_top, 2, CAP + 1, CAP + 1), dtype=np.int64),
        np.empty((n + 1, n + 1), dtype=np.int64),
        np.empty((n + 1, n + 1, CAP + 1), dtype=np.int64),
        np.empty((3, n + 1), dtype=np.int64),
        np.empty((4, n + 1), dtype=np.int64),
        np.empty((s_top + top + 1, n_classes), dtype=np.int64),
        np.empty((s_top + top + 1, n_classes), dtype=np.int64),
    )


def _bounds(engine: Engine, pools: Iterable[int], specials: Iterable[int]) -> list[int]:
    """Each pool's bound on every count the grid kernel holds for it (Python ints)."""
    w_n, w_s, _, _ = engine.arrays()
    return _ks.special_grid_pool_bounds(pools, specials, int(engine.special_replaces), w_n, w_s)


def big_pools(engine: Engine, pools: Iterable[int], specials: Iterable[int]) -> int:
    """How many of ``pools`` :func:`grid_blocks` counts in Python ints (one ``on_big`` call per
    special dice value each): for a progress bar's total."""
    return sum(wants_big_ints(b) for b in _bounds(engine, pools, specials))


@overload
def grid_ways(
    engine: Engine, pools: Sequence[int], specials: Sequence[int], difficulties: Sequence[int], finish: None = None
) -> tuple[np.ndarray, np.ndarray]: ...
@overload
def grid_ways(
    engine: Engine, pools: Sequence[int], specials: Sequence[int], difficulties: Sequence[int], finish: Finish
) -> np.ndarray: ...
def grid_ways(
    engine: Engine,
    pools: Sequence[int],
    specials: Sequence[int],
    difficulties: Sequence[int],
    finish: Finish | None = None,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Exact class ways for a grid: (ways of shape (P, H, D, K), denominators of shape (P, H, 1, 1)),
    object arrays of Python ints (:func:`grid_blocks` put together).

    ``finish``, if given, maps each block of counts (ways (k, H, D, K) and
    denominators (k, H, 1, 1), int64 or Python ints) to values (k, H, D, V)
    (floats or Fractions, say); the result is then those values for the
    whole grid, each block finished in its own arithmetic.
    """
    raw = finish is None
    if finish is None:

        def finish(ways: np.ndarray, dens: np.ndarray) -> np.ndarray:
            return counts_only(ways.astype(object), dens.astype(object))

    out: np.ndarray | None = None
    for index, ways, dens in grid_blocks(engine, pools, specials, difficulties):
        values = finish(ways, dens)
        if out is None:
            out = np.empty((len(pools),) + values.shape[1:], dtype=values.dtype)
        out[index] = values
    if out is None:  # no pool: nothing counted
        out = finish(
            np.empty((0, len(specials), len(difficulties), engine.n_classes), dtype=np.int64),
            np.empty((0, len(specials), 1, 1), dtype=np.int64),
        )
    if raw:
        return out[..., :-1], out[:, :, :1, -1:]
    return out


def grid_floats(
    engine: Engine,
    pools: Sequence[int],
    specials: Sequence[int],
    difficulties: Sequence[int],
    picks: Sequence[Sequence[int]] = (),
) -> np.ndarray:
    """The chances of a grid as floats, each ``float(Fraction(ways, 10 ** dice))``, without a
    Python int where none is needed: shape (P, H, D, K + len(picks)), the classes then, for each
    pick, the chance of its classes together (summed exactly before the division).

    Pools of at most :data:`LIMB_DICE` dice are counted in two limbs by one
    kernel call and divided, correctly rounded, by
    :func:`kernels.special.limb_ratios_into`, with Python's ``int / int``
    where it declines (beyond :data:`kernels.special.RATIO_MAX_DICE` dice);
    bigger pools as :func:`grid_ways` counts them, finished by
    :func:`analysis.exact.float_ratios`.
    """
    from .exact import float_ratios

    pools_arr = np.array(pools, dtype=np.int64)
    specials_arr = np.array(specials, dtype=np.int64)
    diffs = np.array(difficulties, dtype=np.int64)
    width = engine.n_classes + len(picks)
    out = np.empty((len(pools), len(specials), len(diffs), width), dtype=np.float64)
    shape = (len(pools), len(specials))
    nh = (
        np.minimum(specials_arr[None, :], pools_arr[:, None])
        if engine.special_replaces
        else np.broadcast_to(specials_arr[None, :], shape)
    )
    dice = (pools_arr[:, None] if engine.special_replaces else pools_arr[:, None] + nh) + np.zeros(shape, np.int64)
    limbed = dice.max(axis=1, initial=0) <= LIMB_DICE
    index = np.flatnonzero(limbed)
    if len(index):
        hi, lo, got = limb_counts(engine, pools_arr[index], specials_arr, diffs, picks, floats=True)
        assert got is not None
        flat = got.reshape(-1)
        at = np.flatnonzero(np.isnan(flat))
        if len(at):  # past the kernel's exact division: Python's int / int, correctly rounded too
            n = np.broadcast_to(dice[index][:, :, None, None], hi.shape).reshape(-1)[at].tolist()
            h, w = hi.reshape(-1)[at].tolist(), lo.reshape(-1)[at].tolist()
            flat[at] = [((a << LIMB_BITS) + b) / 10**c for a, b, c in zip(h, w, n)]
        out[index] = got
    rest = np.flatnonzero(~limbed)
    if len(rest):

        def finish(num: np.ndarray, den: np.ndarray) -> np.ndarray:
            num = np.concatenate([num] + [num[..., list(p)].sum(axis=-1, keepdims=True) for p in picks], axis=-1)
            return float_ratios(num, den)

        out[rest] = grid_ways(engine, pools_arr[rest].tolist(), list(specials), list(difficulties), finish)
    return out


def counts_only(ways: np.ndarray, dens: np.ndarray) -> np.ndarray:
    """The counts themselves, each cell's denominator last (what :func:`grid_ways` gives without ``finish``)."""
    return np.concatenate([ways, np.broadcast_to(dens, ways.shape[:-1] + (1,)).astype(ways.dtype)], axis=-1)


# ------------------------------------------------------------- big pools
# Pools whose counts pass int64 are counted in Python integers by generating
# functions instead of the kernels' modular path: only the special dice (a
# handful) are enumerated; the normal dice enter through two polynomial
# powers whose coefficients come from a linear recurrence, so a pool of n
# dice costs O(n) big-integer operations per polynomial, not n**2 states
# times n primes.


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
    from math import comb

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
                k_win = int(table[_ks.BAND_WIN, pair, ec, oc])
                k_short = int(table[_ks.BAND_SHORT, pair, ec, oc])
                k_none = int(table[_ks.BAND_NONE, pair, ec, oc])
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
        k_win = int(table[_ks.BAND_WIN, pair, ec, oc])
        k_short = int(table[_ks.BAND_SHORT, pair, ec, oc])
        k_none = int(table[_ks.BAND_NONE, pair, ec, oc])
        out[:, k_win] += win
        out[:, k_none] += none
        out[:, k_short] += total - win - none
    return out
