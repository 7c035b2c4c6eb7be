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
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Self, Sequence, overload

import numpy as np
import numpy.typing as npt


from analysis.engine.exact import INT64_MAX, count, float_ratios, wants_big_ints
from analysis.engine.pairs_big import (
    big_pool_classes,
    big_pool_ways,
    classify_big,
)  # (their home: the big pools' module)
from analysis.engine import seam
from analysis.engine import pairs_big

if TYPE_CHECKING:  # (the kernels are imported when first counted, through the seam)
    from kernels._jit import IntArray

    Arrays = tuple[IntArray, IntArray, IntArray, IntArray]

CAP = seam.shapes.CAP
#: The engine's int64 arrays: ``(w_normal, w_special, mark_bonus, table)`` (:meth:`Engine.arrays`).
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
        flat = table.ravel().tolist()
        if table.shape != (3, 2, CAP + 1, CAP + 1) or min(flat) < 0 or max(flat) >= n_classes:
            raise ValueError("a class table has shape (3, 2, 3, 3) and holds class indices")
        normal, special, bonus = (tuple(int(x) for x in v) for v in (normal_faces, special_faces, mark_bonus))
        if sum(normal) != 10 or sum(special) != 10:
            raise ValueError("the faces of a die must add up to ten")
        rows = [tuple(flat[i : i + CAP + 1]) for i in range(0, len(flat), CAP + 1)]  # nested, level by level
        pairs = [tuple(rows[i : i + CAP + 1]) for i in range(0, len(rows), CAP + 1)]
        nested = tuple(tuple(pairs[i : i + 2]) for i in range(0, len(pairs), 2))
        made = cls(normal, special, int(crit_bonus), bonus, nested, int(n_classes), bool(special_replaces))
        # what arrays() would make from the tuples: read-only views of one array
        whole = np.array(normal + special + bonus + tuple(flat), dtype=np.int64)
        whole.setflags(write=False)
        n, s, b = len(normal), len(special), len(bonus)
        arrays = (whole[:n], whole[n : n + s], whole[n + s : n + s + b], whole[n + s + b :].reshape(table.shape))
        object.__setattr__(made, "_arrays", arrays)
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
            seam.special.classify_one(
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
        seam.multiset.fill_binomials(mod, out)
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
        seam.special.special_pool_ways(
            n_normal, n_special, w_n, w_s, engine.crit_bonus, mod, binomials(n + 1, mod), ways
        )
        classes = np.empty((len(diffs), engine.n_classes), dtype=np.int64)
        seam.special.special_classify(ways, diffs, bonus, table, mod, classes)
        return np.concatenate([ways.ravel(), classes.ravel()])

    denominator = 10**n
    bound = seam.special.special_pool_ways_bound(n_normal, n_special, w_n, w_s, n + 1)
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
    The pools of at most :data:`CHAIN_DICE` dice are counted first
    (:func:`chain_ways`), in two blocks: those whose counts fit int64
    (int64), then the others (Python ints).  Each
    bigger pool comes in a block of its own, counted in Python ints by
    generating functions (:func:`analysis.engine.pairs_big.big_pool_classes`),
    calling ``on_big()`` after each (pool, special dice) of them (a progress
    bar's update).
    """
    w_n, w_s, bonus, table = engine.arrays()
    specials_arr = np.array(specials, dtype=np.int64)
    diffs = np.array(difficulties, dtype=np.int64)
    pools_arr = np.array(pools, dtype=np.int64)
    dice = _dice(engine, pools_arr, specials_arr)

    def dens(index: np.ndarray, block: np.ndarray) -> np.ndarray:
        if block.dtype == object:
            return np.array([[10**n for n in row] for row in dice[index].tolist()], dtype=object)[:, :, None, None]
        powers: np.ndarray = 10 ** dice[index]  # each fits: at most the block's bound
        return powers[:, :, None, None]

    most = dice.max(axis=1, initial=0)
    chained = most <= CHAIN_DICE
    for part in (most <= INT64_DICE, chained & (most > INT64_DICE)):
        if part.any():
            index = np.flatnonzero(part)
            block = chain_ways(engine, pools_arr[index].tolist(), specials, difficulties)
            yield index, block, dens(index, block)
    for i in np.flatnonzero(~chained).tolist():
        block = np.empty((1, len(specials), len(diffs), engine.n_classes), dtype=object)
        for hi, h in enumerate(specials):
            block[0, hi] = big_pool_classes(
                *engine.dice(pools[i], h), w_n, w_s, engine.crit_bonus, diffs, bonus, table, engine.n_classes
            )
            if on_big is not None:
                on_big()
        yield np.array([i]), block, dens(np.array([i]), block)


def _dice(engine: Engine, pools: IntArray, specials: IntArray) -> IntArray:
    """Dice rolled by each (pool, special dice) of a grid, int64[P, H]."""
    if engine.special_replaces:
        return np.broadcast_to(pools[:, None], (len(pools), len(specials))).copy()
    return pools[:, None] + specials[None, :]


#: The most dice of a pool :func:`chain_ways` counts (bigger pools: Python-int generating functions,
#: :mod:`analysis.engine.pairs_big`), and the most whose counts fit int64 (``10 ** 18``).
CHAIN_DICE = 28
INT64_DICE = max(n for n in range(64) if 10**n <= INT64_MAX)
#: Tens states of a roll on the chain: no 10, one 10, an even number of them (two or more), an odd
#: number (three or more); a 10 on a roll of one or an odd number completes a pair.
_TENS_NEXT = (1, 2, 3, 2)


@lru_cache(maxsize=64)
def _chain_states(engine: Engine, most: int) -> tuple[IntArray, IntArray, IntArray]:
    """The chain's states for rolls of up to ``most`` dice, and what one die does to them.

    A state is ``(ec, oc, t, s)``: special 10s and special marks (each capped
    at :data:`CAP`), the tens state ``t`` (:data:`_TENS_NEXT`) and the
    successes ``s`` so far, each completed pair of 10s counted with its
    bonus, flattened row-major.  Returns (dest of a normal die int64[3, G],
    dest of a special die int64[4, G], the states' coordinates int64[4, G]),
    each move as
    :func:`kernels.mechanic.mechanic_walk` reads it, in the order of the faces
    of :attr:`Engine.normal_faces` and :attr:`Engine.special_faces`.
    """
    n_s = most + engine.crit_bonus * (most // 2) + 1
    shape = (CAP + 1, CAP + 1, 4, n_s)
    ec, oc, t, succ = np.indices(shape, dtype=np.int64).reshape(4, -1)
    pair_done = (t == 1) | (t == 3)
    t_next = np.array(_TENS_NEXT, dtype=np.int64)[t]
    top = n_s - 1  # (only states no roll reaches pass it: held at it)

    def at(e: np.ndarray, o: np.ndarray, tt: np.ndarray, ss: np.ndarray) -> np.ndarray:
        return np.ravel_multi_index((e, o, tt, np.minimum(ss, top)), shape)

    ten = succ + 1 + np.where(pair_done, engine.crit_bonus, 0)
    fail = at(ec, oc, t, succ)
    success = at(ec, oc, t, succ + 1)
    normal = np.stack([fail, success, at(ec, oc, t_next, ten)])
    special = np.stack(
        [at(ec, np.minimum(oc + 1, CAP), t, succ), fail, success, at(np.minimum(ec + 1, CAP), oc, t_next, ten)]
    )
    coords = np.stack([ec, oc, t, succ])
    for arr in (normal, special, coords):
        arr.setflags(write=False)
    return normal, special, coords


def chain_ways(
    engine: Engine,
    pools: Sequence[int],
    specials: Sequence[int],
    diffs: Sequence[int],
    picks: Sequence[Sequence[int]] = (),
) -> np.ndarray:
    """The exact class ways of a grid of pools of at most :data:`CHAIN_DICE` dice, shape (P, H, D, K +
    len(picks)) (the classes, then each pick's classes together): int64 where every pool's ``10 **
    dice`` fits, else Python ints.

    For each number of special dice the dice are added one at a time
    (:func:`kernels.mechanic.mechanic_walk` over :func:`_chain_states`), the
    special ones first, so that every pool of the grid is a prefix of one
    walk, and classified at each pool through the engine's class lookup
    (``mark_bonus`` and ``table``) evaluated over the states.
    """
    _km = seam.mechanic

    pools_arr = np.array(pools, dtype=np.int64)
    specials_arr = np.array(specials, dtype=np.int64)
    dice = _dice(engine, pools_arr, specials_arr)
    most = int(dice.max(initial=0))
    if most > CHAIN_DICE:
        raise ValueError(f"a pool of {most} dice is past the chain ({CHAIN_DICE} dice at most)")
    w_n, w_s, bonus, table = engine.arrays()
    normal, special, coords = _chain_states(engine, most)
    ec, oc, t, succ = coords
    total = succ + bonus[oc]
    pair = (t >= 2).astype(np.int64)
    d = np.array(diffs, dtype=np.int64)[:, None]
    band = np.where(
        total >= d, seam.shapes.BAND_WIN, np.where(total == 0, seam.shapes.BAND_NONE, seam.shapes.BAND_SHORT)
    )
    classes = table[band, pair, ec, oc]  # (D, G): the class of every state against each Difficulty
    size = classes.shape[1]
    k = engine.n_classes
    # per special dice rating: the special dice and normal dice of each pool; the special dice are
    # walked first, up to the most of them a pool rolls (a pool with fewer rolls no normal die)
    plans = []
    for h in specials_arr.tolist():
        split = [engine.dice(p, h) for p in pools_arr.tolist()]
        plans.append((split, max((ns for _, ns in split), default=0)))

    def compute(mod: int) -> np.ndarray:
        out = np.zeros((len(pools_arr), len(specials_arr), len(d), k), dtype=np.int64)
        for hi, (split, walked) in enumerate(plans):
            cur = np.zeros(size, dtype=np.int64)
            cur[0] = 1
            # the special dice up to ``walked`` (classifying the pools that roll fewer, and no normal
            # die), then the normal dice from there (classifying the others)
            fewer = {p: ns for p, (_, ns) in enumerate(split) if ns < walked}
            rest = {p: nn for p, (nn, ns) in enumerate(split) if ns == walked}
            for dest, weight, at, then in ((special, w_s, fewer, walked), (normal, w_n, rest, None)):
                want = sorted(set(at.values()) | ({then} if then is not None else set()))
                if want:
                    by_class = _km.walk(cur, dest, weight, want, mod, classes, k)[0]
                    for p, n in at.items():
                        out[p, hi] = by_class[want.index(n)]
        return out

    ways = count(compute, 10**most)
    return with_picks(ways, picks)


def big_pools(engine: Engine, pools: Iterable[int], specials: Iterable[int]) -> int:
    """How many of ``pools`` :func:`grid_blocks` counts in Python ints (one ``on_big`` call per
    special dice value each): for a progress bar's total."""
    pools_arr, specials_arr = np.array(list(pools), dtype=np.int64), np.array(list(specials), dtype=np.int64)
    return int((_dice(engine, pools_arr, specials_arr).max(axis=1, initial=0) > CHAIN_DICE).sum())


@overload
def grid_ways(
    engine: Engine,
    pools: Sequence[int],
    specials: Sequence[int],
    difficulties: Sequence[int],
    finish: None = None,
    on_big: Callable[[], object] | None = None,
) -> tuple[np.ndarray, np.ndarray]: ...
@overload
def grid_ways(
    engine: Engine,
    pools: Sequence[int],
    specials: Sequence[int],
    difficulties: Sequence[int],
    finish: Finish,
    on_big: Callable[[], object] | None = None,
) -> np.ndarray: ...
def grid_ways(
    engine: Engine,
    pools: Sequence[int],
    specials: Sequence[int],
    difficulties: Sequence[int],
    finish: Finish | None = None,
    on_big: Callable[[], object] | None = None,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Exact class ways for a grid: (ways of shape (P, H, D, K), denominators of shape (P, H, 1, 1)),
    object arrays of Python ints (:func:`grid_blocks` put together).

    ``finish``, if given, maps each block of counts (ways (k, H, D, K) and
    denominators (k, H, 1, 1), int64 or Python ints) to values (k, H, D, V)
    (floats or Fractions, say); the result is then those values for the
    whole grid, each block finished in its own arithmetic.  ``on_big``: as
    :func:`grid_blocks` calls it (after each pool counted by generating functions).
    """
    raw = finish is None
    if finish is None:

        def finish(ways: np.ndarray, dens: np.ndarray) -> np.ndarray:
            return counts_only(ways.astype(object), dens.astype(object))

    out: np.ndarray | None = None
    for index, ways, dens in grid_blocks(engine, pools, specials, difficulties, on_big):
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
    on_big: Callable[[], object] | None = None,
) -> np.ndarray:
    """The chances of a grid as floats, each ``float(Fraction(ways, 10 ** dice))``, without a
    Python int where none is needed: shape (P, H, D, K + len(picks)), the classes then, for each
    pick, the chance of its classes together (summed exactly before the division).

    Counted as :func:`grid_ways` counts them, block by block, each block's
    counts divided by :func:`analysis.engine.exact.float_ratios` (correctly rounded).
    """

    def finish(num: np.ndarray, den: np.ndarray) -> np.ndarray:
        return float_ratios(with_picks(num, picks), den)

    return grid_ways(engine, list(pools), list(specials), list(difficulties), finish, on_big)


def with_picks(ways: np.ndarray, picks: Sequence[Sequence[int]]) -> np.ndarray:
    """Class ways (..., K) followed by each pick's classes summed (..., K + len(picks)), in their own
    arithmetic (int64 or Python ints): the numerators of a table's classes and ``p_`` columns."""
    return np.concatenate([ways] + [ways[..., list(p)].sum(axis=-1, keepdims=True) for p in picks], axis=-1)


def counts_only(ways: np.ndarray, dens: np.ndarray) -> np.ndarray:
    """The counts themselves, each cell's denominator last (what :func:`grid_ways` gives without ``finish``)."""
    return np.concatenate([ways, np.broadcast_to(dens, ways.shape[:-1] + (1,)).astype(ways.dtype)], axis=-1)


def clear_caches() -> None:
    """Forget the generating functions of big pools kept between calls."""

    pairs_big.clear_caches()
