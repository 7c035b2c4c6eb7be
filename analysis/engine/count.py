"""One exact engine for every mechanic file: a rule set's cells counted by outcome class, as odds and tables.

A roll's outcome depends only on a few *statistics*: the number of dice
showing each (kind, mark) pair a rule reads (``hunger.one``), or a mark
summed over every kind that has it (``ten``).  The kernel
(:mod:`kernels.mechanic`) counts the ways of every vector of statistics,
adding the dice one at a time.  The rules are evaluated once per *context*
(the axis values they read, such as the Difficulty) over the whole grid of
statistics, numpy-vectorised: the class of every statistics vector, and its
successes.  The kernel sums the ways into classes.  Counts are int64 where
:func:`kernels.mechanic.mechanic_walk_bound` proves they fit, and exact
beyond (primes and the Chinese remainder theorem,
:func:`analysis.engine.exact.count`).

Nothing here depends on a game: V5, Werewolf, Hunter, classic pools and a
designer's own file are all mechanics.

This module is the engine's public face (:func:`rules_of`, :func:`count_cells`,
:func:`odds`, :func:`table`, :func:`read_roll`) and does the counting: the
class tables over the statistics grid and the kernels' walk over it.  Its
parts live beside it: :mod:`~analysis.engine.pool` (the dice and faces of a
cell and their kernel layout), :mod:`~analysis.engine.stats_grid` (the statistics
grid as the rules read it), :mod:`~analysis.engine.cells` (the cells asked
for), :mod:`~analysis.engine.results` (:class:`CellWays`,
:class:`MechanicOdds`) and :mod:`~analysis.engine.reading` (one landed
roll read); their names stay importable from here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence, cast

import numpy as np
import pandas as pd

from analysis.engine import seam
from analysis.engine.at_least import MAX_AT_LEAST, ways_at_least
from analysis.engine.exact import INT64_MAX, ArrayFields, count, passes, ratios, whole_factors
from analysis.model.validate import check_bool, check_int

from analysis.engine import explode
from analysis.engine.cells import (
    cells_of as _cells_of,
    check_at_least_dice as check_at_least_dice,
    check_cell as check_cell,
    grid_of as _grid_of,
    resolve_grid as resolve_grid,
)
from analysis.engine.pool import (
    MAX_DICE as MAX_DICE,
    clear_walks as _clear_walks,
    dice_of as dice_of,
    dice_table as dice_table,
    face_axes as _face_axes,
    grid_axes as _grid_axes,
    layout as _layout,
    pool_axes as _pool_axes,
    walk_ways as _walk_ways,
    walks as _walks,
    weights_for as _weights_for,
)
from analysis.engine.reading import MechanicReading as MechanicReading, read_roll as read_roll
from analysis.engine.results import CellWays as CellWays, MechanicOdds as MechanicOdds
from analysis.model.spec import (
    Faces as Faces,
    MechanicError,
    MechanicRules as MechanicRules,
    faces_of as faces_of,
    rules_of as rules_of,
    where as _where,
)
from analysis.engine.stats import splits as _splits, stats_of as _stats
from analysis.engine.stats_grid import (
    Context as Context,
    context_of as _context,
    eval_counts as _eval_counts,
    grid_env as _grid_env,
    region_zeros as _region_zeros,
    grid_ranges as _ranges,
    state_text as _state_text,
)
from analysis.engine import pairs, pairs_count
from analysis.engine.pairs_count import with_picks

if TYPE_CHECKING:  # (the kernels are imported when first counted)
    from kernels._jit import IntArray

    from analysis.model.expr import Expr

    from analysis.engine.pool import Layout as Layout

    #: (class table, successes table or None, successes value of each column) over a grid (:func:`_tables`).
    Tables = tuple[IntArray, IntArray | None, IntArray]

#: Most cells of the statistics grid of one count (each cell holds an int64 per
#: context): bigger grids are refused with the size named, before any work.
MAX_GRID = 4_000_000
#: Most (grid cells x contexts) evaluated for one pool.
MAX_CLASSIFY = 40_000_000
#: Most work (:meth:`_Layout.work`: kernel passes x grid cells x faces of the dice added) one count of many
#: cells may take, checked before it starts: about a minute (the kernel takes 250 to 500 million such
#: steps a second on one core of a laptop, fewer where many primes are needed).
MAX_WORK = 15_000_000_000
#: The success counts listed exactly for dice that roll again, unless a caller asks for more or fewer.
DEFAULT_BOUND = 20


# ------------------------------------------------------------------ classifying


@lru_cache(maxsize=256)
def _regions(rules: MechanicRules) -> tuple[Any, ...]:
    """The statistics grids a rule set's cells are counted on: its one grid, or, where its dice roll again
    and its rules choose between two sums by a true/false count that reads no statistic chains raise
    without end and no cap holds (La Soif: ``2 * tens if beastly else tens + rerolled``), one grid per
    value of that count, each with fewer such statistics (:func:`analysis.engine.stats.splits`): each
    counts the cells of its :attr:`~analysis.engine.stats.Stats.region`, and the two add up."""
    mech = rules.mechanic
    whole = _stats(mech, rules.values)
    if not mech.explodes:
        return (whole,)
    unbounded = len(explode.unbounded(mech, whole))
    for name in _splits(mech, rules.values):
        parts = tuple(_stats(mech, rules.values, (name, v)) for v in (True, False))
        if all(
            p.region is not None
            and len(explode.unbounded(mech, p)) < unbounded
            and not explode.region_reads_unbounded(mech, p)
            for p in parts
        ):
            return parts
    return (whole,)


@lru_cache(maxsize=256)
def _tables(
    rules: MechanicRules, shape: tuple[int, ...], context: Context, reduced: bool = True, region: int = 0
) -> Tables:
    """(class table, successes table, successes counts) over the statistics grid, for one context.

    The successes table holds each cell's column in a histogram of the successes, and the counts
    the successes value of each column, increasing: every value from the lowest to the highest, or
    (where they lie far apart) only those the grid reaches, so a histogram never outgrows the grid.

    ``context`` holds ``(axis, value)`` pairs of the axes the rules read.
    ``reduced``: the grid of the rule set's statistics (``_stats(mech,
    values)``: fused and capped; ``region``: which of :func:`_regions`); False: of the mechanic's own,
    one per mark read.  A cell outside the grid's region is of the class past the last (and its
    successes in the column past the last): counted, and left out.
    """
    mech = rules.mechanic
    stats = _regions(rules)[region] if reduced else _stats(mech, None)
    params = rules.params
    ctx = dict(context)
    env = {**params, **ctx, **_grid_env(stats, shape)}
    ranges = _ranges(params, ctx, stats, shape)
    _eval_counts(mech, env, ranges, stats.counts)
    size = int(np.prod(shape))
    cls = np.full(shape, -1, dtype=np.int64)
    index = {c: i for i, c in enumerate(mech.classes)}
    for o, when in zip(mech.outcomes, stats.whens):
        if o.applies is not None and not bool(o.applies.evaluate(params)):
            continue
        if when is None:
            hit = np.ones(shape, dtype=bool)
        else:
            when.check_range(ranges)
            hit = np.broadcast_to(when.evaluate(env), shape)
        cls[hit & (cls < 0)] = index[o.name]
        if not (cls < 0).any():
            break
    flag_whens = stats.whens[len(mech.outcomes) :] if reduced else ()
    if flag_whens:  # a column given by when: the class times 2**F, plus a bit per column that holds
        bits = np.zeros(shape, dtype=np.int64)
        for f, when in enumerate(flag_whens):
            when = cast("Expr", when)
            when.check_range(ranges)
            bits += np.broadcast_to(when.evaluate(env), shape).astype(np.int64) << f
        cls = np.where(cls < 0, cls, cls + len(mech.classes) * bits)
    outside = None
    if stats.region is not None:
        stats.region.check_range(ranges)
        outside = ~np.broadcast_to(stats.region.evaluate(env), shape)
        cls[outside] = len(mech.classes) << len(mech.flags)
    succ: IntArray | None = None
    known = np.zeros(0, dtype=np.int64)
    if mech.successes is not None:
        values = np.broadcast_to(np.asarray(env[mech.successes], dtype=np.int64), shape).reshape(size)
        low, high = int(values.min()), int(values.max())
        if high - low < 2 * size:  # every count from the lowest to the highest: a histogram column each
            known = np.arange(low, high + 1, dtype=np.int64)
            succ = values - low
        else:  # counts far apart (a file's successes times a large number): a column per count reached
            known, succ = np.unique(values, return_inverse=True)
            succ = succ.astype(np.int64).reshape(size)
        if outside is not None:
            succ = np.where(outside.reshape(size), len(known), succ)
    out = cls.reshape(size)
    for a in (out, succ, known):
        if a is not None:
            a.setflags(write=False)
    return out, succ, known


def _mechanic_tables(rules: MechanicRules, shape: tuple[int, ...], context: Context) -> Tables:
    """:func:`_tables` over the mechanic's own statistics (one per mark read, uncapped)."""
    return _tables(rules, shape, context, False)


# ------------------------------------------------------------------ the one fast path


def _pair_path(
    rules: MechanicRules,
    cells: Sequence[Mapping[str, int]] | None = None,
    *,
    grid: Mapping[str, Sequence[int]] | None = None,
    finish: Any = None,
    picks: Any = None,
    progress: bool = False,
    sizing: bool = False,
) -> Any:
    """The engine's one fast path, where it enters :mod:`analysis.engine.pairs`: dice shaped like the 5th
    edition's (V5, Werewolf, Hunter, a designer's file of that shape), whose rules read the successes
    only against the Difficulty or 0 and the tens only as pairs, are counted by generating functions of
    four features, not by walking the statistics grid.  It serves every cell of that shape:
    ``make bench pair_path`` measured the walk 1.6x slower on V5's table of 1,200 cells, 3.1x at pool 10,
    2.2x at pool 30 and 39x at pool 100, and refusing pool 1000 (past its 4,000,000 states), which this
    path counts in a quarter of a second.  None where the cells take the walk (dice that roll again, or
    another shape).

    With ``grid`` (a whole table, ``{axis: values}``): its values in one kernel call per context
    (``finish``, ``picks``, ``progress``: :func:`analysis.engine.pairs.class_grid`); with ``sizing``:
    True where the path takes ``cells``; else the cells' :class:`CellWays`.
    """
    if rules.mechanic.explodes:
        return None
    if grid is not None:
        return pairs.class_grid(rules, grid, finish, picks, progress=progress)
    cells = cells if cells is not None else []
    if sizing:
        return True if pairs.takes(rules, cells) else None
    return pairs.count(rules, cells)


# ------------------------------------------------------------------ counting


def count_cells(
    rules: MechanicRules,
    cells: Sequence[Mapping[str, int]],
    progress: Callable[[int], object] | None = None,
    general: bool = False,
    max_successes: int | None = None,
) -> list[CellWays]:
    """Exact :class:`CellWays` for each cell (a dict of axis values), grouped so each pool is counted once.

    A mechanic of the pair-of-tens shape is counted by :mod:`analysis.engine.pairs` (any pool, by
    generating functions); ``general=True`` takes the statistics grid whatever the shape (the tests
    check that both agree).  Where dice roll again, the successes have no highest value: each cell's
    ``success_ways`` lists the counts up to ``max_successes`` (default :data:`DEFAULT_BOUND`), its
    ``bound``, the rest of the denominator lying above it.
    """
    mech = rules.mechanic
    need = None
    if mech.explodes:  # no pair-of-tens shape; the successes listed up to a bound
        need = DEFAULT_BOUND if max_successes is None else max_successes
    else:
        fast: list[CellWays] | None = None if general else _pair_path(rules, cells)
        if fast is not None:
            if progress is not None:
                progress(len(cells))
            return fast
    out: list[CellWays | None] = [None] * len(cells)
    for block in _count_general(rules, cells, progress, need=need if mech.successes else None):
        for i, t in zip(block.members.tolist(), block.context_of.tolist()):
            succ: dict[int, int] = {}
            if block.hist is not None:
                known = block.counts[t].tolist()
                succ = {
                    known[v]: int(w)
                    for v, w in enumerate(block.hist[t].tolist())
                    if w and (need is None or known[v] <= need)
                }
            out[i] = CellWays(
                tuple(int(w) for w in block.by_class[t].tolist()),
                succ,
                block.denominator,
                block.dice,
                bound=need,
                column_ways=_flag_ways(block, t),
            )
    return cast("list[CellWays]", out)  # every cell is in one block


@dataclass(frozen=True, eq=False)
class _Block(ArrayFields):
    """The counts of the cells that roll the same dice (:func:`_count_general`)."""

    members: np.ndarray  # positions of the cells in the list counted
    context_of: np.ndarray  # each member's row in by_class and hist
    by_class: np.ndarray  # (contexts, classes): ways per class, int64 or Python ints
    flags: np.ndarray | None  # (contexts, columns given by when): ways where each holds
    hist: np.ndarray | None  # (contexts, columns): ways of each successes column
    counts: list[np.ndarray]  # per context, the successes value of each hist column (increasing)
    denominator: int
    dice: tuple[int, ...]


def _layout_of(
    rules: MechanicRules,
    stats: Any,
    faces: Faces,
    top: tuple[int, ...],
    rows: Mapping[Context, int],
    need: int | None,
) -> tuple[Any, ...]:
    """The kernel layout of one face layout sized for ``top`` dice: ``(faces, marks, contributions,
    shape, strides, bound, forced)``, the grid's size checked (``bound``: the bound of the open statistics
    where dice roll again, else 0; ``forced``: what was still undecided at the bound before it, the rule
    that set the bound, or None).

    Where dice roll again (:mod:`analysis.engine.explode`), the open statistics' bound starts just
    above ``need`` (the largest success count asked for; else at 1) and grows (by one up to
    :data:`_FIRST_BOUND`, then doubling) until every rule, and every success count up to ``need``,
    is decided at the bound, or refuses naming what is not."""
    mech = rules.mechanic
    bound = 0
    hold = False
    forced = None
    if mech.explodes:  # the bound first, from the grid's shape alone: each die's chain is counted once
        bound = need + 1 if need is not None else 1
        while True:
            why = None
            # first with every statistic held at the bound, then (where that holds more) only the open ones
            held, plain = (_grid_axes(mech, stats, top, rules.params, bound, h) for h in (True, False))
            for hold, (sizes, opened) in ((True, held), (False, plain)) if held != plain else ((False, plain),):
                shape = tuple(sizes) or (1,)
                why = next(
                    (
                        w
                        for context in rows
                        if (w := explode.undecided(mech, stats, shape, rules.params, dict(context), opened, need))
                        is not None
                    ),
                    None,
                )
                if why is None:
                    break
            if why is None:
                break
            if bound >= _MAX_BOUND or math.prod(shape) > MAX_GRID:
                raise MechanicError(
                    f"{mech.origin}: with dice that roll again, {why} is not decided at {bound} or more "
                    f"successes (the highest bound tried): a rule must be settled once the successes are "
                    f"high enough"
                )
            forced = why
            bound = bound + 1 if bound < _FIRST_BOUND else bound * 2
    faces_arr, marks_arr, contrib, shape, strides = _layout(mech, stats, faces, top, rules.params, bound, hold)
    size = int(np.prod(shape))
    if size > MAX_GRID or size * len(rows) > MAX_CLASSIFY:
        raise MechanicError(
            f"{mech.origin}: {sum(top)} dice make {size:,} count states "
            f"(limit {MAX_GRID:,} for the general engine); ask for a smaller pool"
        )
    return faces_arr, marks_arr, contrib, shape, strides, bound, forced


#: The bounds tried on the successes of dice that roll again, from just above the largest count asked
#: for (else 1) until the rules are decided: one by one up to this one (the smallest bound makes the
#: smallest grid and chains of the smallest denominators), then doubling; and the highest.
_FIRST_BOUND = 8
_MAX_BOUND = 4096


def _flag_ways(block: _Block, t: int) -> tuple[int, ...]:
    """The ways of each column given by when, in context ``t`` of a block."""
    return () if block.flags is None else tuple(int(w) for w in block.flags[t].tolist())


def _split_flags(fine: np.ndarray, n_classes: int, n_flags: int) -> tuple[np.ndarray, np.ndarray | None]:
    """``(ways per class, ways per column given by when)`` of counts per (class, bits of the columns that
    hold): each class the sum over the bits, each column the sum over the classes with its bit."""
    if not n_flags:
        return fine, None
    split = fine.reshape(fine.shape[0], 1 << n_flags, n_classes)
    coarse = split.sum(axis=1)
    flags = np.stack(
        [split[:, [b for b in range(1 << n_flags) if b >> f & 1]].sum(axis=(1, 2)) for f in range(n_flags)], axis=1
    )
    return coarse, flags


def _count_general(
    rules: MechanicRules,
    cells: Sequence[Mapping[str, int]],
    progress: Callable[[int], object] | None = None,
    histograms: bool = True,
    need: int | None = None,
) -> Iterator[_Block]:
    """Count the cells on the statistics grid, yielding one :class:`_Block` per dice rolled.

    Cells are grouped by the faces they roll and the dice of each kind; each
    face layout gets one grid, sized for its largest dice (so the rules are
    evaluated once per context over it), and every dice count of that layout
    is counted into it by the kernels.  One bound, that of the largest dice,
    covers them all where it fits int64 (a bound only grows with the dice);
    otherwise each takes its own (primes and CRT past int64).  ``histograms``: count the
    successes' histograms too (where the mechanic names its successes).
    """
    has_succ = rules.mechanic.successes is not None and histograms
    layouts = _sized(rules, cells, need, histograms, pairs_first=False)
    _check_work(rules, len(cells), layouts)
    if len(_regions(rules)) > 1:  # each cell counted on every grid: added up, cell by cell
        yield from _added(_count_layouts(rules, layouts, has_succ, None), len(cells), has_succ, progress)
        return
    yield from _count_layouts(rules, layouts, has_succ, progress)


def _count_layouts(
    rules: MechanicRules, layouts: Sequence[_Layout], has_succ: bool, progress: Callable[[int], object] | None
) -> Iterator[_Block]:
    """The blocks of :func:`_count_general`, layout by layout (``has_succ``: with the histograms)."""
    _k = seam.mechanic

    mech = rules.mechanic
    params = rules.params
    n_flags = len(mech.flags)
    n_classes = len(mech.classes) << n_flags  # each class, split by the columns given by when
    for layout in layouts:
        stats = layout.stats
        rows, top = layout.rows, layout.top
        faces_arr, marks_arr, contrib, shape, _, _, _, tables = layout.laid_out
        size, sides, cls, vals, n_vals = layout.size, layout.sides, layout.cls, layout.vals, layout.n_vals
        counts = [t[2] for t in tables]
        last = sum(n - 1 for n in shape)
        walked_by = _walks(faces_arr, marks_arr, contrib, shape, top, layout.zeros)
        walked = layout.walked
        for (base, part, bound), grade in zip(layout.walks, layout.grades):
            emit = [n for n, _, _ in part]
            # graded: pool e's counts times base**E_e / (its dice's sides), whole numbers below the bound
            scale = (
                []
                if grade is None
                else [(grade[0], sum(r * n for r, n in zip(grade[1], d)) + last) for _, d, _ in part]
            )

            def compute(mod: int) -> np.ndarray:  # (run on several threads at once: it writes nothing shared)
                start = _walk_ways(base, walked_by, size, mod)
                dest, weight, tails = walked_by[walked]
                by_class, hist, found = _k.walk(
                    start,
                    dest,
                    _weights_for(weight, mod),
                    emit,
                    mod,
                    cls,
                    n_classes + layout.outside,
                    vals,
                    n_vals,
                    tails,
                )
                found_by.append(found)
                if grade is not None:  # each pool's counts times base**E / (its dice's sides), mod the prime
                    f = np.array(whole_factors(part, sides, grade[0], [e for _, e in scale], walked, mod))
                    by_class = by_class * f[:, None, None] % mod
                    hist = hist * f[:, None, None] % mod
                return np.concatenate([by_class.ravel(), hist.ravel()])

            found_by: list[np.ndarray] = []  # each prime's first unclassified state (-1: none)
            flat = count(compute, bound, force_modular=grade is not None, threads=True)
            bad = _first_found(found_by)
            n_cls = len(part) * len(rows) * (n_classes + layout.outside)
            by_class = flat[:n_cls].reshape(len(part), len(rows), n_classes + layout.outside)[:, :, :n_classes]
            hist = flat[n_cls:].reshape(len(part), len(rows), n_vals)
            if layout.outside:  # the cells outside the grid's region: their column left out
                hist = hist.copy()
                for t, known in enumerate(counts):
                    hist[:, t, len(known) :] = 0
            for e, (_, dice, members) in enumerate(part):
                for t, b in enumerate(bad[e].tolist()):
                    if b >= 0:
                        context = next(c for c, r in rows.items() if r == t)
                        raise MechanicError(
                            f"{mech.origin}: no outcome rule matches the roll with "
                            f"{_state_text(mech, stats, shape, int(b))} "
                            f"({_where(mech, {**params, **dict(context)})}); add a last "
                            f"[[outcomes]] rule without 'when' to catch the rest"
                        )
                if grade is not None:
                    den = scale[e][0] ** scale[e][1]
                else:
                    den = 1
                    for side, n in zip(sides, dice):
                        den *= side**n
                at = np.array(members, dtype=np.int64).reshape(-1, 2)
                coarse, flags = _split_flags(by_class[e], len(mech.classes), n_flags)
                yield _Block(at[:, 0], at[:, 1], coarse, flags, hist[e] if has_succ else None, counts, den, dice)
                if progress is not None:
                    progress(len(at))


def _first_found(found_by: list[np.ndarray]) -> np.ndarray:
    """The first unclassified state any prime's walk found, per count and context (-1: none); a state
    whose ways a prime divides is found by another."""
    found = np.stack(found_by)
    none = np.iinfo(np.int64).max
    first = np.where(found < 0, none, found).min(axis=0)
    return np.where(first == none, -1, first)


def _added(
    blocks: Iterator[_Block], n_cells: int, has_succ: bool, progress: Callable[[int], object] | None
) -> Iterator[_Block]:
    """The counts of each cell on every grid of :func:`_regions` added up (over the least common
    denominator), one block per cell."""
    got: list[list[tuple[Any, ...]]] = [[] for _ in range(n_cells)]
    dice_of: dict[int, tuple[int, ...]] = {}
    for block in blocks:
        for i, t in zip(block.members.tolist(), block.context_of.tolist()):
            flags = None if block.flags is None else [int(w) for w in block.flags[t].tolist()]
            by_value = {}
            if has_succ and block.hist is not None:
                known = block.counts[t].tolist()
                by_value = {known[v]: int(w) for v, w in enumerate(block.hist[t].tolist()) if w}
            got[i].append(([int(w) for w in block.by_class[t].tolist()], flags, by_value, block.denominator))
            dice_of[i] = block.dice
    for i, parts in enumerate(got):
        den = math.lcm(*(d for *_, d in parts))
        by_class = [sum(c[j] * (den // d) for c, _, _, d in parts) for j in range(len(parts[0][0]))]
        flags = None
        if parts[0][1] is not None:
            flags = [sum(f[j] * (den // d) for _, f, _, d in parts) for j in range(len(parts[0][1]))]
        hist: dict[int, int] = {}
        for _, _, h, d in parts:
            for v, w in h.items():
                hist[v] = hist.get(v, 0) + w * (den // d)
        values = sorted(hist)
        yield _Block(
            np.array([i], dtype=np.int64),
            np.array([0], dtype=np.int64),
            np.array([by_class], dtype=object),
            None if flags is None else np.array([flags], dtype=object),
            np.array([[hist[v] for v in values]], dtype=object) if has_succ else None,
            [np.array(values, dtype=np.int64)],
            den,
            dice_of[i],
        )
        if progress is not None:
            progress(1)


def _layouts(
    rules: MechanicRules, stats: Any, cells: Sequence[Mapping[str, int]]
) -> Iterator[tuple[Faces, dict[Context, int], list[tuple[tuple[int, ...], list[tuple[int, int]]]], tuple[int, ...]]]:
    """The cells grouped by the faces they roll (and, where the rules count a grid per choice, by the
    kinds that roll dice, :func:`analysis.engine.stats_grid.region_zeros`): per layout ``(faces, rows,
    mine, top)``, ``rows`` its contexts (each with its row), ``mine`` the dice rolled with the cells that
    roll them (``(cell position, context row)`` each) and ``top`` the most dice of each kind, which size
    its grid."""
    mech = rules.mechanic
    params = rules.params
    pool_axes = _pool_axes(mech)
    face_axes = _face_axes(mech)
    dice_of_cell = dice_table(mech, params, cells)
    faces_known: dict[tuple[int, ...], Faces] = {}
    # per face layout (and kinds rolled): its contexts, each with its row
    contexts: dict[tuple[Faces, tuple[bool, ...]], dict[Context, int]] = {}
    # per (face layout, dice): [(cell position, context row)]
    groups: dict[tuple[tuple[Faces, tuple[bool, ...]], tuple[int, ...]], list[tuple[int, int]]] = {}
    by_kinds = len(_regions(rules)) > 1  # a grid per kinds rolled: its region may leave out faces
    for i, cell in enumerate(cells):
        at_faces = tuple(cell[a] for a in face_axes)
        faces = faces_known.get(at_faces)
        if faces is None:
            faces = faces_known[at_faces] = faces_of(mech, {**params, **cell})
            if mech.explodes:
                explode.check_faces(mech, faces, params, _where(mech, {**params, **cell}))
        dice = dice_of_cell[tuple(cell[a] for a in pool_axes)]
        key = (faces, tuple(n > 0 for n in dice) if by_kinds else ())
        row = contexts.setdefault(key, {}).setdefault(_context(stats, cell), len(contexts[key]))
        groups.setdefault((key, dice), []).append((i, row))
    for key, rows in contexts.items():
        mine = [(dice, members) for (g, dice), members in groups.items() if g == key]
        yield key[0], rows, mine, tuple(max(d[k] for d, _ in mine) for k in range(len(mech.kinds)))


#: One kernel count of :func:`_chain_walks`: the dice every pool of it rolls but those of the walked
#: kind, the pools (``(dice of the walked kind, dice, members)``, increasing) and the bound of its counts.
_Walk = tuple[tuple[int, ...], list[tuple[int, tuple[int, ...], list[tuple[int, int]]]], int]


def _chain_walks(
    mine: Sequence[tuple[tuple[int, ...], list[tuple[int, int]]]], sides: Sequence[int]
) -> tuple[int, list[_Walk]]:
    """``(walked, walks)``: the dice of one kind (``walked``) are added one at a time
    (:func:`kernels.mechanic.mechanic_walk`), so the pools of a layout that differ in that kind's dice
    alone are counted in one walk, split where its counts pass int64 (those that fit in one int64
    count, the rest in one exact count)."""
    _k = seam.mechanic

    n_kinds = len(sides)
    walked = max(range(n_kinds), key=lambda k: len({d[k] for d, _ in mine}))
    chains: dict[tuple[int, ...], list[tuple[int, tuple[int, ...], list[tuple[int, int]]]]] = {}
    for dice, members in mine:
        base = dice[:walked] + (0,) + dice[walked + 1 :]
        chains.setdefault(base, []).append((dice[walked], dice, members))
    walks: list[_Walk] = []
    for base, links in chains.items():
        links.sort(key=lambda link: link[0])

        def bound_at(i: int) -> int:
            return _k.mechanic_walk_bound(sides, links[i][1])

        # the pools whose counts fit int64 are a prefix (the bound grows with the dice): found by halving,
        # a bound being one big power per pool (dice that roll again have wide chains)
        low, high = 0, len(links)
        while low < high:
            mid = (low + high) // 2
            if bound_at(mid) <= INT64_MAX:
                low = mid + 1
            else:
                high = mid
        fits = low
        for part, bound in (
            (links[:fits], bound_at(fits - 1) if fits else 0),
            (links[fits:], bound_at(len(links) - 1)),
        ):
            if part:
                walks.append((base, part, bound))
    return walked, walks


def _graded(
    rules: MechanicRules, stats: Any, faces: Faces, top: tuple[int, ...], shape: tuple[int, ...]
) -> tuple[int, tuple[int, ...], int] | None:
    """``(base, rolls, last)`` where the counts of a face layout whose dice roll again are whole over
    ``base ** E`` (:func:`analysis.engine.explode.first_rolls`: ``rolls`` per kind, ``last`` the sum of
    the axes' last values; ``base`` the least multiple of every kind's faces), else None."""
    mech = rules.mechanic
    if not mech.explodes:
        return None
    sizes, _ = _grid_axes(mech, stats, top, rules.params, 0, False)
    opened = explode.open_statistics(mech, stats)
    free = [not o and (not stats.caps or stats.caps[s] is None) and sizes[s] == shape[s] for s, o in enumerate(opened)]
    rolls = explode.first_rolls(mech, stats, rules.params, free)
    if rolls is None:
        return None
    base = math.lcm(*(sum(f) for f in faces if sum(f)))
    return base, rolls, sum(n - 1 for n in shape)


class _Layout:
    """One face layout of :func:`_layouts` sized for counting: its kernel layout and class tables
    (``laid_out``, :func:`_layout_of`), the grid's ``size``, each kind's ``sides`` and ``marks``, the
    class and successes tables of its contexts stacked (``cls``, ``vals``, ``n_vals`` histogram
    columns) and its kernel counts (``walked``, ``walks``: :func:`_chain_walks`)."""

    def __init__(
        self,
        rules: MechanicRules,
        stats: Any,
        faces: Faces,
        rows: dict[Context, int],
        mine: list[tuple[tuple[int, ...], list[tuple[int, int]]]],
        top: tuple[int, ...],
        need: int | None,
        has_succ: bool,
        region: int = 0,
    ) -> None:
        self.rows, self.top, self.stats = rows, top, stats
        #: 1 where the grid counts the cells of a region only (:func:`_regions`): one class more, left out
        self.outside = int(stats.region is not None)
        layout = _layout_of(rules, stats, faces, top, rows, need)
        shape = layout[3]
        tables = [_tables(rules, shape, context, True, region) for context in rows]
        #: ``(faces, marks, contributions, shape, strides, bound, forced, tables)``: :func:`_layout_of`, and
        #: the class tables of its contexts
        self.laid_out = (*layout, tables)
        faces_arr, marks_arr, contrib, _, _, self.bound, self.forced, _ = self.laid_out
        moves = [
            any(top[k] and contrib[k, : marks_arr[k], s].any() for k in range(len(top))) for s in range(len(shape))
        ]
        #: the statistics its region holds at 0: the faces that add to them are left out of its walks
        self.zeros = _region_zeros(stats, shape, rules.params, moves)
        self.size = int(np.prod(shape))
        self.marks = [int(m) for m in marks_arr]
        self.sides = [int(faces_arr[k, : marks_arr[k]].sum()) for k in range(len(top))]
        self.cls = np.stack([t[0] for t in tables])
        if has_succ:
            self.vals = np.stack([cast("IntArray", t[1]) for t in tables])  # the mechanic has successes
            self.n_vals = int(self.vals.max()) + 1
        else:
            self.vals, self.n_vals = np.zeros((len(rows), self.size), dtype=np.int64), 0
        self.n_classes = len(rules.mechanic.classes) << len(rules.mechanic.flags)
        self.walked, self.walks = _chain_walks(mine, self.sides)
        #: per walk, None or ``(base, rolls)``: its counts made whole over ``base ** E`` (E: ``rolls`` times
        #: each pool's dice, plus every axis's last value), their bound ``base ** E`` (:func:`_graded`)
        self.grades: list[tuple[int, tuple[int, ...]] | None] = [None] * len(self.walks)
        graded = _graded(rules, stats, faces, top, shape)
        if graded is not None:
            base, rolls, last = graded
            for w, (start, part, bound) in enumerate(self.walks):
                whole = base ** (sum(r * n for r, n in zip(rolls, part[-1][1])) + last)
                if bound > INT64_MAX and whole < bound:
                    self.walks[w] = (start, part, whole)
                    self.grades[w] = (base, rolls)

    def work(self) -> int:
        """The estimated steps of its counts: per kernel count, its passes (one in int64, else one per
        prime, :func:`analysis.engine.exact.passes`) times the grid's cells times (the faces of every die it
        adds plus the class tables of every pool it emits), and past int64 the CRT: its passes squared
        times the numbers it rebuilds (per pool and context, the classes and the histogram columns)."""
        total = 0
        for base, part, bound in self.walks:
            k = passes(bound)
            faces = sum(n * m for n, m in zip(base, self.marks)) + part[-1][0] * self.marks[self.walked]
            total += k * self.size * (faces + len(part) * len(self.rows))
            if k > 1:
                total += k * k * len(part) * len(self.rows) * (self.n_classes + self.n_vals)
        return total


def _sized(
    rules: MechanicRules,
    cells: Sequence[Mapping[str, int]],
    need: int | None,
    histograms: bool,
    pairs_first: bool = True,
) -> list[_Layout]:
    """The layouts counting ``cells`` on the statistics grid would build (none where the pair-of-tens path
    counts them: :mod:`analysis.engine.pairs`, any pool, by generating functions)."""
    mech = rules.mechanic
    if pairs_first and not mech.explodes:
        if _pair_path(rules, cells, sizing=True):
            return []
    has_succ = mech.successes is not None and histograms
    return [
        _Layout(rules, stats, *parts, need, has_succ, r)
        for r, stats in enumerate(_regions(rules))
        for parts in _layouts(rules, stats, cells)
    ]


def check_work(
    rules: MechanicRules, cells: Sequence[Mapping[str, int]], need: int | None = None, histograms: bool = True
) -> int:
    """The work of counting ``cells`` (steps, :meth:`_Layout.work`; 0 on the pair-of-tens path), refused
    before any counting past :data:`MAX_WORK` (one sentence)."""
    return _check_work(rules, len(cells), _sized(rules, cells, need, histograms))


def _check_work(rules: MechanicRules, n_cells: int, layouts: Sequence[_Layout]) -> int:
    """The work of counting ``layouts`` (steps), refused past :data:`MAX_WORK` naming the rule that set the
    bound of dice that roll again where one did."""
    works = [layout.work() for layout in layouts]
    estimate = sum(works)
    if estimate <= MAX_WORK:
        return estimate
    worst = layouts[works.index(max(works))]
    why = ""
    if worst.forced is not None:
        why = (
            f"; its dice roll again and {worst.forced} is settled only once the successes reach "
            f"{worst.bound}, so each die's chain of rolls has that many steps"
        )
    raise MechanicError(
        f"{rules.mechanic.origin}: counting {'this cell' if n_cells == 1 else f'these {n_cells:,} cells'} would "
        f"take about {estimate:,} steps "
        f"(limit {MAX_WORK:,}, about a minute){why}; ask for fewer cells or smaller pools"
    )


# ------------------------------------------------------------------ results


def odds(rules: MechanicRules, max_successes: int | None = None, **cell: object) -> MechanicOdds:
    """Exact odds of one cell, e.g. ``odds(rules, pool=7, hunger=2, difficulty=3)``; where dice roll
    again, the successes are listed up to ``max_successes`` (default :data:`DEFAULT_BOUND`)."""
    mech = rules.mechanic
    values = check_cell(mech, cell)
    if max_successes is not None:
        max_successes = check_int("max_successes", max_successes, 0, MAX_AT_LEAST)
    (ways,) = count_cells(rules, [values], max_successes=max_successes)
    return MechanicOdds.of(rules, values, ways)


def table(
    rules: MechanicRules,
    exact: bool = False,
    at_least: object = None,
    progress: bool = False,
    check_only: bool = False,
    **axes: object,
) -> pd.DataFrame | int:
    """A tidy odds table over a grid: one row per cell, one column per axis, class and ``p_`` column.

    Parameters
    ----------
    rules : MechanicRules
    exact : bool
        True: ``Fraction`` cells; False: floats equal to ``float(Fraction)``.
    at_least : None, int or SPEC
        Adds ``p_at_least_N`` columns (the mechanic must name its successes).
    progress : bool
        A progress bar on stderr while a mechanic of the pair-of-tens shape has pools too big for the
        kernels' chain counted by generating functions (without ``at_least``).
    check_only : bool
        Only check, before any counting, the work the table would take (refused in one sentence past
        :data:`MAX_WORK`, :func:`check_work`); returns that work, in steps (0 on the pair-of-tens path).
    **axes
        One SPEC, int or iterable per axis; an axis left out takes its default SPEC.
    """
    exact = check_bool("exact", exact)
    progress = check_bool("progress", progress)
    mech = rules.mechanic
    grid, tops = _grid_of(mech, axes, at_least)
    cells = _cells_of(grid) if tops else None  # listed once, for the check and the count
    if cells is not None:  # (listed where tops asks for at-least columns)
        check_at_least_dice(rules, cells)
    if check_only:  # the work of the statistics grid (none where the pair-of-tens path counts the cells)
        listed = _cells_of(grid) if cells is None else cells
        need, histograms = (max(tops) - 1 if tops else None), bool(tops)
        parts = [listed]
        if mech.explodes and len(grid) > 1:  # a sweep counts each value of the second axis in a call of
            # its own, every value of the first (System.whole_first_axis): sized as it will count them
            second = list(grid)[1]
            parts = [[c for c in listed if c[second] == v] for v in grid[second]]
        layouts = [layout for part in parts for layout in _sized(rules, part, need, histograms)]
        return _check_work(rules, len(listed), layouts)
    key = (rules, tuple((a, tuple(v)) for a, v in grid.items()), exact, tuple(tops))
    labels = (*grid, *mech.classes, *(c.name for c in mech.columns), *(f"p_at_least_{n}" for n in tops))
    kept = _TABLES.get(key)
    if kept is not None:  # the warm path: the table made before, from copies of its columns
        _TABLES[key] = _TABLES.pop(key)  # most recently used last
        return _frame(labels, kept[0].copy(), kept[1].copy())
    values: np.ndarray | None = None
    if not tops:
        picks = [[mech.classes.index(c) for c in col.classes] for col in mech.columns]

        def finish(num: np.ndarray, den: np.ndarray) -> np.ndarray:
            # the classes, then each p_ column's sum, over the denominator
            num = with_picks(num, picks)
            return ratios(num, den, exact)

        # floats straight from the kernel's counts; Fractions from the exact counts
        values = (
            _pair_path(rules, grid=grid, finish=finish, progress=progress)
            if exact
            else _pair_path(rules, grid=grid, picks=picks, progress=progress)
        )
    if values is None:
        values = _general_values(rules, _cells_of(grid) if cells is None else cells, tops, exact)
    lens = [len(v) for v in grid.values()]
    at = np.empty((len(grid), len(values)), dtype=np.int64)  # each cell's value on each axis
    for i, v in enumerate(grid.values()):  # (the axis' values broadcast along it, in the grid's shape)
        at[i].reshape(lens)[...] = np.array(v, dtype=np.int64).reshape([n if j == i else 1 for j, n in enumerate(lens)])
    _TABLES[key] = (at.copy(), values.copy())  # (the caller may change the table's columns)
    while len(_TABLES) > _TABLES_KEPT:
        _TABLES.pop(next(iter(_TABLES)))
    return _frame(labels, at, values)


def _general_values(
    rules: MechanicRules, cells: Sequence[Mapping[str, int]], tops: Sequence[int], exact: bool
) -> np.ndarray:
    """The values of a table's cells (classes, ``p_`` columns, ``p_at_least_N``) counted cell group by
    cell group: the pair-of-tens path where the mechanic has that shape, else the statistics grid, whose
    blocks of counts are finished (int64 ones vectorised) without a per-cell object."""
    mech = rules.mechanic
    index = {c: i for i, c in enumerate(mech.classes)}
    picks = [[index[c] for c in col.classes] for col in mech.columns]
    width = len(mech.classes) + len(picks) + len(tops)

    fast = _pair_path(rules, cells)
    if fast is not None:
        lines = []
        for w in fast:
            line = list(w.class_ways)
            line += [sum(w.class_ways[i] for i in p) for p in picks]
            line += ways_at_least(w.success_ways, tops)
            lines.append(line)
        num = np.array(lines, dtype=object).reshape(len(cells), width)
        den = np.array([w.denominator for w in fast], dtype=object)[:, None]
        return ratios(num, den, exact)
    # int64 or Python ints: positions, rows, denominators
    parts: dict[bool, tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]] = {
        False: ([], [], []),
        True: ([], [], []),
    }
    for block in _count_general(rules, cells, histograms=bool(tops), need=max(tops) - 1 if tops else None):
        by = block.by_class[block.context_of]
        flags = iter(block.flags[block.context_of].T) if block.flags is not None else iter(())
        extra = [
            next(flags)[:, None] if col.when is not None else by[:, p].sum(axis=1, keepdims=True)
            for col, p in zip(mech.columns, picks)
        ]
        if tops:  # ways of at least n successes: a suffix sum of the histogram
            hist = cast(np.ndarray, block.hist)[block.context_of]  # counted with histograms
            tail = np.concatenate(
                [np.cumsum(hist[:, ::-1], axis=1)[:, ::-1], np.zeros((len(hist), 1), dtype=hist.dtype)], axis=1
            )
            # per context, the first column of N successes or more
            first = np.array([np.searchsorted(c, tops) for c in block.counts], dtype=np.int64).reshape(-1, len(tops))
            at = first[block.context_of]
            extra.append(tail[np.arange(len(hist))[:, None], at])  # every N at once
        row = np.concatenate([by] + extra, axis=1) if extra else by
        big = row.dtype == object or block.denominator > INT64_MAX
        positions, rows, dens = parts[big]
        positions.append(block.members)
        rows.append(row)
        dens.append(np.full(len(row), block.denominator, dtype=object if big else np.int64))
    values = np.empty((len(cells), width), dtype=object if exact else np.float64)
    for big, (positions, rows, dens) in parts.items():
        if positions:
            num = np.concatenate(rows).astype(object) if big else np.concatenate(rows)
            den = np.concatenate(dens)[:, None]
            values[np.concatenate(positions)] = ratios(num, den, exact)
    return values


def clear_caches() -> None:
    """Forget every count the engines keep (computed tables, class tables, the pair path's pools):
    the next call counts from scratch, as for a rule set seen for the first time."""

    _TABLES.clear()
    _tables.cache_clear()
    _regions.cache_clear()
    _clear_walks()
    explode.clear_caches()
    pairs.clear_caches()
    pairs_count.counts.cache_clear()
    pairs_count.clear_caches()


#: Tables kept, computed, for a second call with the same rules and grid: the columns of the axes and
#: of the values (each call gets a table of copies).
_TABLES: dict[tuple[Any, ...], tuple[np.ndarray, np.ndarray]] = {}


_TABLES_KEPT = 32


def _frame(labels: tuple[str, ...], axes: np.ndarray, values: np.ndarray) -> pd.DataFrame:
    """The table: a column per axis (``axes``: (axes, cells) int64, each cell's value on it), then one
    per class or ``p_`` column (``values``: (cells, columns)), under ``labels``; both arrays are the
    frame's own (shared with nothing).

    Made from the two blocks where pandas can (pandas 3's ``create_dataframe_from_blocks``): the
    dict constructor's checks of every column cost as much as the kernel's count."""
    try:
        from pandas.api.internals import create_dataframe_from_blocks
    except ImportError:  # pragma: no cover - pandas 2
        return pd.DataFrame(dict(zip(labels, [*axes, *values.T])))
    n_axes = len(axes)
    blocks = [(axes, np.arange(n_axes)), (values.T, np.arange(n_axes, len(labels)))]
    return create_dataframe_from_blocks(blocks, pd.RangeIndex(len(values)), _columns(labels).view())


@lru_cache(maxsize=64)
def _columns(labels: tuple[str, ...]) -> pd.Index:
    """The column labels of a table as a pandas Index, kept for the tables of every rule set of a
    mechanic with these labels (pandas infers a new Index's type from scratch); each table gets a
    view of it, so that a caller naming its columns names no other table's."""
    return pd.Index(list(labels))


# ------------------------------------------------------------------ for engines built on this one
# The statistics grid, shared with the engines that count more than one
# roll of a mechanic (analysis.engine.willpower): public names for the
# helpers above (those of .pool and .stats_grid are imported at the top).

#: The statistics a mechanic's rules read (names, their (kind, mark) members, the axes read).
statistics = _stats
#: Kernel inputs of one face layout: merged marks per kind, contributions, grid shape, strides.
layout = _layout
#: The axes the dice counts and the faces read.
pool_axes = _pool_axes
#: (class table, successes table, lowest successes) over a grid of the mechanic's own statistics.
class_tables = _mechanic_tables
#: The context of a cell: the (axis, value) pairs the rules read.
context_of = _context
#: A cell and its changed parameters, for a message.
where = _where
#: One grid cell's statistics, for a message.
state_text = _state_text
