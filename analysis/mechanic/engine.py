"""One exact engine for every mechanic file: ways by outcome class, success distributions, reading a roll.

A roll's outcome depends only on a few *statistics*: the number of dice
showing each (kind, mark) pair a rule reads (``hunger.one``), or a mark
summed over every kind that has it (``ten``).  The kernel
(:mod:`kernels.mechanic`) counts the ways of every vector of statistics,
kind by kind, over category-count vectors weighted by multinomials.  The
rules are then evaluated once per *context* (the axis values they read,
such as the Difficulty) over the whole grid of statistics, numpy-vectorised:
the class of every statistics vector, and its successes.  The kernel sums
the ways into classes.  Counts are int64 where :func:`kernels.mechanic.
mechanic_ways_bound` proves they fit, and exact beyond (primes and the
Chinese remainder theorem, :func:`analysis.exact.count`).

Nothing here depends on a game: V5, Werewolf, Hunter, classic pools and a
designer's own file are all mechanics.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence, Sized, cast

import numpy as np

from .spec import Mechanic, MechanicError
from .stats import Stats as _Stats, stats_of as _stats, where as _where

if TYPE_CHECKING:  # (the kernels are imported when first counted)
    import pandas as pd

    from kernels._jit import IntArray

    from .expr import Expr

    #: Kernel inputs of one face layout: faces, marks, contributions, grid shape, strides (:func:`_layout`).
    Layout = tuple[IntArray, IntArray, IntArray, tuple[int, ...], IntArray]
    #: (class table, successes table or None, lowest successes) over a grid (:func:`_tables`).
    Tables = tuple[IntArray, IntArray | None, int]

#: Faces of each kind by mark: ``((count per mark), ...)`` (:func:`faces_of`).
Faces = tuple[tuple[int, ...], ...]
#: The ``(axis, value)`` pairs of the axes the rules read (:func:`_context`).
Context = tuple[tuple[str, int], ...]

#: Most dice of one kind in a roll.
MAX_DICE = 1000
#: Most cells of the statistics grid of one count (each cell holds an int64 per
#: context): bigger grids are refused with the size named, before any work.
MAX_GRID = 4_000_000
#: Most (grid cells x contexts) evaluated for one pool.
MAX_CLASSIFY = 40_000_000


@dataclass(frozen=True)
class MechanicRules:
    """A mechanic with its parameter values (a rule set of it): hashable, immutable.

    Make one with :func:`rules_of`; ``values`` are ``(name, value)`` pairs in
    the file's order.
    """

    mechanic: Mechanic
    values: tuple[tuple[str, bool | int], ...]

    @property
    def params(self) -> dict[str, bool | int]:
        return dict(self.values)

    def changes(self) -> dict[str, bool | int]:
        """The parameters that differ from the file's defaults."""
        d = self.mechanic.defaults()
        return {k: v for k, v in self.values if d[k] != v}

    def meanings(self) -> dict[str, str]:
        return self.mechanic.meanings(self.params)


def rules_of(mechanic: Mechanic, changes: Mapping[str, object] | None = None, source: str = "rules") -> MechanicRules:
    """The rule set of ``mechanic`` with ``changes`` to its parameters (each checked)."""
    values = mechanic.check_values(changes, source)
    return MechanicRules(mechanic, tuple(values.items()))


# ------------------------------------------------------------------ dice and faces


def dice_of(mech: Mechanic, env: Mapping[str, Any]) -> tuple[int, ...]:
    """Dice of each kind for these axis and parameter values."""
    out: list[int] = []
    for k in mech.kinds:
        n = int(k.dice.evaluate(env))
        if not 0 <= n <= MAX_DICE:
            raise MechanicError(
                f"{mech.origin}: kind {k.name!r} would roll {n} dice at {_where(mech, env)} (0..{MAX_DICE})"
            )
        out.append(n)
    return tuple(out)


def dice_table(
    mech: Mechanic, params: Mapping[str, bool | int], cells: Sequence[Mapping[str, int]]
) -> dict[tuple[int, ...], tuple[int, ...]]:
    """``{values of the pool axes: dice of each kind}`` for the cells, the dice expressions evaluated
    once over all of them (numpy), each count checked as :func:`dice_of` does."""
    axes = _pool_axes(mech)
    combos = list(dict.fromkeys(tuple(c[a] for a in axes) for c in cells))
    if not combos:
        return {}
    env: dict[str, Any] = dict(params)
    for j, a in enumerate(axes):
        env[a] = np.array([c[j] for c in combos], dtype=np.int64)
    columns: list[list[int]] = []
    for k in mech.kinds:
        n = np.broadcast_to(np.asarray(k.dice.evaluate(env), dtype=np.int64), (len(combos),))
        bad = np.flatnonzero((n < 0) | (n > MAX_DICE))
        if len(bad):
            cell = dict(params, **dict(zip(axes, combos[bad[0]])))
            raise MechanicError(
                f"{mech.origin}: kind {k.name!r} would roll {int(n[bad[0]])} dice at "
                f"{_where(mech, cell)} (0..{MAX_DICE})"
            )
        columns.append(n.tolist())
    return {combo: tuple(col[i] for col in columns) for i, combo in enumerate(combos)}


def faces_of(mech: Mechanic, env: Mapping[str, Any]) -> Faces:
    """Faces of each kind by mark, ``((count per mark), ...)``, checked: every face carries one mark."""
    out: list[tuple[int, ...]] = []
    for k in mech.kinds:
        owner: list[str | None] = [None] * (k.sides + 1)
        counts: list[int] = []
        for mark, ranges in k.faces:
            n = 0
            for lo_e, hi_e in ranges:
                lo, hi = int(lo_e.evaluate(env)), int(hi_e.evaluate(env))
                for f in range(lo, hi + 1):
                    if not 1 <= f <= k.sides:
                        raise MechanicError(
                            f"{mech.origin}: kind {k.name!r} gives mark {mark!r} the face "
                            f"{f}, but its dice have faces 1..{k.sides} ({_where(mech, env)})"
                        )
                    if owner[f] is not None:
                        raise MechanicError(
                            f"{mech.origin}: kind {k.name!r} gives face {f} two marks, "
                            f"{owner[f]!r} and {mark!r} ({_where(mech, env)})"
                        )
                    owner[f] = mark
                    n += 1
            counts.append(n)
        missing = [f for f in range(1, k.sides + 1) if owner[f] is None]
        if missing:
            raise MechanicError(
                f"{mech.origin}: kind {k.name!r} gives face {missing[0]} no mark "
                f"({_where(mech, env)}); every face carries exactly one mark"
            )
        out.append(tuple(counts))
    return tuple(out)


@lru_cache(maxsize=64)
def _pool_axes(mech: Mechanic) -> tuple[str, ...]:
    """The axes that the dice counts and the faces read."""
    read: set[str] = set()
    for k in mech.kinds:
        read |= set(k.dice.names)
        for _, ranges in k.faces:
            for lo, hi in ranges:
                read |= set(lo.names) | set(hi.names)
    return tuple(a for a in mech.axis_names if a in read)


@lru_cache(maxsize=64)
def _face_axes(mech: Mechanic) -> tuple[str, ...]:
    """The axes that the faces read (a classic difficulty)."""
    read: set[str] = set()
    for k in mech.kinds:
        for _, ranges in k.faces:
            for lo, hi in ranges:
                read |= set(lo.names) | set(hi.names)
    return tuple(a for a in mech.axis_names if a in read)


def _layout(mech: Mechanic, stats: _Stats, faces: Faces, dice_max: tuple[int, ...]) -> Layout:
    """Kernel inputs for one face layout: merged marks per kind, contributions, grid shape.

    Marks of a kind that count towards the same statistics alike are merged
    (their faces added), so a kind has as few categories as the rules can
    tell apart.  A statistic's axis holds the most its members can add up
    to (per kind, its dice times the largest weight of its marks), or up to
    its cap.
    """
    n_stats = len(stats.names)
    groups: list[list[tuple[tuple[int, ...], int]]] = []  # per kind: list of (contrib tuple, faces)
    for ki, k in enumerate(mech.kinds):
        merged: dict[tuple[int, ...], int] = {}
        for mi in range(len(k.marks)):
            key = tuple(stats.weight(s, (ki, mi)) for s in range(n_stats))
            merged[key] = merged.get(key, 0) + faces[ki][mi]
        groups.append([(key, f) for key, f in merged.items() if f > 0] or [(tuple([0] * n_stats), 0)])
    m_max = max(len(g) for g in groups)
    n_kinds = len(mech.kinds)
    faces_arr = np.zeros((n_kinds, m_max), dtype=np.int64)
    marks_arr = np.zeros(n_kinds, dtype=np.int64)
    contrib = np.zeros((n_kinds, m_max, max(n_stats, 1)), dtype=np.int64)
    for ki, g in enumerate(groups):
        marks_arr[ki] = len(g)
        for mi, (key, f) in enumerate(g):
            faces_arr[ki, mi] = f
            contrib[ki, mi, :n_stats] = key
    sizes = []
    for s in range(n_stats):
        top = 0
        for ki in range(n_kinds):
            top += dice_max[ki] * max(
                (w for (k2, _), w in zip(stats.members[s], stats.weights[s]) if k2 == ki), default=0
            )
        cap = stats.caps[s] if stats.caps else None
        sizes.append((top if cap is None else min(top, cap)) + 1)
    shape = tuple(sizes) or (1,)
    if n_stats == 0:
        contrib = contrib[:, :, :1] * 0
    strides = np.array([int(np.prod(shape[s + 1 :], dtype=np.int64)) for s in range(len(shape))], dtype=np.int64)
    return faces_arr, marks_arr, contrib, shape, strides


def _count_ways(
    stats: _Stats,
    dice_arr: IntArray,
    faces_arr: IntArray,
    marks_arr: IntArray,
    contrib: IntArray,
    shape: tuple[int, ...],
    strides: IntArray,
    mod: int,
    binom: IntArray,
    out: IntArray,
) -> None:
    """Kernel call: the ways of every cell of the statistics grid into ``out`` (saturating capped axes)."""
    from kernels import mechanic as _k

    if stats.capped:
        _k.mechanic_ways_capped(
            dice_arr, faces_arr, marks_arr, contrib, np.array(shape, dtype=np.int64), mod, binom, out
        )
    else:
        _k.mechanic_ways(dice_arr, faces_arr, marks_arr, contrib, strides, mod, binom, out)


def _ways_bound(
    stats: _Stats, dice: Sequence[int], faces_arr: IntArray, marks_arr: IntArray, binom_size: int | None = None
) -> int:
    """Bound on every number :func:`_count_ways` and the classifying kernels hold (with a binomial
    table of ``binom_size`` rows, by default ``max(dice) + 1``)."""
    from kernels import mechanic as _k

    bound = _k.mechanic_ways_capped_bound if stats.capped else _k.mechanic_ways_bound
    return bound(dice, faces_arr, marks_arr, max(dice) + 1 if binom_size is None else binom_size)


# ------------------------------------------------------------------ classifying


def _grid_env(stats: _Stats, shape: tuple[int, ...]) -> dict[str, np.ndarray]:
    """Each statistic's values along its axis (a capped axis ends at its cap, standing for all above)."""
    env: dict[str, np.ndarray] = {}
    for s, name in enumerate(stats.names):
        view = [1] * len(shape)
        view[s] = shape[s]
        env[name] = np.arange(shape[s], dtype=np.int64).reshape(view)
    return env


def _eval_counts(
    mech: Mechanic,
    env: dict[str, Any],
    ranges: dict[str, tuple[int, int]],
    counts: Iterable[tuple[str, Expr]] | None = None,
) -> dict[str, Any]:
    """Add the mechanic's counts (or ``counts``) to ``env`` (checked against 64-bit overflow first)."""
    for cname, e in mech.counts if counts is None else counts:
        e.check_range(ranges)
        lo, hi = e.interval(ranges)
        env[cname] = e.evaluate(env)
        ranges[cname] = (lo, hi)
    return env


def _ranges(
    params: Mapping[str, bool | int], context: Mapping[str, int], stats: _Stats, shape: tuple[int, ...]
) -> dict[str, tuple[int, int]]:
    ranges = {k: (int(v), int(v)) for k, v in {**params, **context}.items()}
    for s, name in enumerate(stats.names):
        ranges[name] = (0, shape[s] - 1)
    return ranges


@lru_cache(maxsize=256)
def _tables(rules: MechanicRules, shape: tuple[int, ...], context: Context, reduced: bool = True) -> Tables:
    """(class table, successes table, lowest successes) over the statistics grid, for one context.

    ``context`` holds ``(axis, value)`` pairs of the axes the rules read.
    ``reduced``: the grid of the rule set's statistics (``_stats(mech,
    values)``: fused and capped); False: of the mechanic's own, one per mark read.
    """
    mech = rules.mechanic
    stats = _stats(mech, rules.values if reduced else None)
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
    succ: IntArray | None = None
    low = 0
    if mech.successes is not None:
        values = np.broadcast_to(np.asarray(env[mech.successes], dtype=np.int64), shape)
        low = int(values.min())
        succ = (values - low).reshape(size)
    out = cls.reshape(size)
    for a in (out, succ):
        if a is not None:
            a.setflags(write=False)
    return out, succ, low


def _mechanic_tables(rules: MechanicRules, shape: tuple[int, ...], context: Context) -> Tables:
    """:func:`_tables` over the mechanic's own statistics (one per mark read, uncapped)."""
    return _tables(rules, shape, context, False)


def _state_text(mech: Mechanic, stats: _Stats, shape: tuple[int, ...], flat: int) -> str:
    coords = np.unravel_index(int(flat), shape)
    caps = stats.caps or (None,) * len(stats.names)
    return (
        ", ".join(
            f"{n}>={int(c)}" if cap is not None and int(c) == cap else f"{n}={int(c)}"
            for n, c, cap in zip(stats.names, coords, caps)
        )
        or "every roll"
    )


# ------------------------------------------------------------------ counting


@dataclass(frozen=True)
class CellWays:
    """Exact ways of one cell: per class, per success value, and the denominator."""

    class_ways: tuple[int, ...]
    success_ways: dict[int, int]
    denominator: int
    dice: tuple[int, ...]


def _context(stats: _Stats, env: Mapping[str, Any]) -> Context:
    return tuple((a, int(env[a])) for a in stats.rule_axes)


def count_cells(
    rules: MechanicRules,
    cells: Sequence[Mapping[str, int]],
    progress: Callable[[int], object] | None = None,
    general: bool = False,
) -> list[CellWays]:
    """Exact :class:`CellWays` for each cell (a dict of axis values), grouped so each pool is counted once.

    A mechanic of the pair-of-tens shape is counted by :mod:`analysis.mechanic.pairs` (any pool, by
    generating functions); ``general=True`` takes the statistics grid whatever the shape (the tests
    check that both agree).
    """
    from . import pairs

    fast = None if general else pairs.count(rules, cells)
    if fast is not None:
        if progress is not None:
            progress(len(cells))
        return fast
    out: list[CellWays | None] = [None] * len(cells)
    for block in _count_general(rules, cells, progress):
        for i, t in zip(block.members.tolist(), block.context_of.tolist()):
            succ: dict[int, int] = {}
            if block.hist is not None:
                low = block.lows[t]
                succ = {v + low: int(w) for v, w in enumerate(block.hist[t].tolist()) if w}
            out[i] = CellWays(tuple(int(w) for w in block.by_class[t].tolist()), succ, block.denominator, block.dice)
    return cast("list[CellWays]", out)  # every cell is in one block


@dataclass(frozen=True)
class _Block:
    """The counts of the cells that roll the same dice (:func:`_count_general`)."""

    members: np.ndarray  # positions of the cells in the list counted
    context_of: np.ndarray  # each member's row in by_class and hist
    by_class: np.ndarray  # (contexts, classes): ways per class, int64 or Python ints
    hist: np.ndarray | None  # (contexts, values): ways of each successes value less its low
    lows: list[int]  # per context, the successes value of the hist's first column
    denominator: int
    dice: tuple[int, ...]


def _count_general(
    rules: MechanicRules,
    cells: Sequence[Mapping[str, int]],
    progress: Callable[[int], object] | None = None,
    histograms: bool = True,
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
    from kernels import mechanic as _k

    from analysis.exact import INT64_MAX, count
    from analysis.special_dice import binomials

    mech = rules.mechanic
    stats = _stats(mech, rules.values)
    params = rules.params
    pool_axes = _pool_axes(mech)
    face_axes = _face_axes(mech)
    dice_of_cell = dice_table(mech, params, cells)
    faces_known: dict[tuple[int, ...], Faces] = {}
    contexts: dict[Faces, dict[Context, int]] = {}  # per face layout: its contexts, each with its row
    # per (faces, dice): [(cell position, context row)]
    groups: dict[tuple[Faces, tuple[int, ...]], list[tuple[int, int]]] = {}
    for i, cell in enumerate(cells):
        at_faces = tuple(cell[a] for a in face_axes)
        faces = faces_known.get(at_faces)
        if faces is None:
            faces = faces_known[at_faces] = faces_of(mech, {**params, **cell})
        context = _context(stats, cell)
        rows = contexts.setdefault(faces, {})
        row = rows.setdefault(context, len(rows))
        groups.setdefault((faces, dice_of_cell[tuple(cell[a] for a in pool_axes)]), []).append((i, row))
    n_classes = len(mech.classes)
    has_succ = mech.successes is not None and histograms
    for faces, rows in contexts.items():
        mine = [(dice, members) for (f, dice), members in groups.items() if f == faces]
        top = tuple(max(d[k] for d, _ in mine) for k in range(len(mech.kinds)))
        faces_arr, marks_arr, contrib, shape, strides = _layout(mech, stats, faces, top)
        size = int(np.prod(shape))
        if size > MAX_GRID or size * len(rows) > MAX_CLASSIFY:
            raise MechanicError(
                f"{mech.origin}: {sum(top)} dice make {size:,} count states "
                f"(limit {MAX_GRID:,} for the general engine); ask for a smaller pool"
            )
        tables = [_tables(rules, shape, context) for context in rows]
        cls = np.stack([t[0] for t in tables])
        if has_succ:
            vals = np.stack([cast("IntArray", t[1]) for t in tables])  # the mechanic has successes
            n_vals = int(vals.max()) + 1
        lows = [t[2] for t in tables]
        sides = [int(faces_arr[k, : marks_arr[k]].sum()) for k in range(len(top))]
        binom_size = max(top) + 1
        shape_arr = np.array(shape, dtype=np.int64)
        if not has_succ:
            vals, n_vals = np.zeros((len(rows), size), dtype=np.int64), 0
        # the dice of one kind are added one at a time (kernels.mechanic.mechanic_chain): the pools
        # of the layout that differ in that kind's dice alone are counted in one walk
        walked = max(range(len(top)), key=lambda k: len({d[k] for d, _ in mine}))
        chains: dict[tuple[int, ...], list[tuple[int, tuple[int, ...], list[tuple[int, int]]]]] = {}
        for dice, members in mine:
            base = dice[:walked] + (0,) + dice[walked + 1 :]
            chains.setdefault(base, []).append((dice[walked], dice, members))
        for base, links in chains.items():
            links.sort(key=lambda link: link[0])
            base_arr = np.array(base, dtype=np.int64)
            base_bound = _ways_bound(stats, base, faces_arr, marks_arr, binom_size)
            bounds = [_k.mechanic_chain_bound(base_bound, sides, dice) for _, dice, _ in links]
            fits = sum(b <= INT64_MAX for b in bounds)  # a prefix: the bound grows with the dice
            for part, bound in ((links[:fits], bounds[fits - 1] if fits else 0), (links[fits:], bounds[-1])):
                if not part:
                    continue
                emit = np.array([n for n, _, _ in part], dtype=np.int64)
                bad = np.empty((len(part), len(rows)), dtype=np.int64)

                def compute(mod: int) -> np.ndarray:
                    start = np.zeros(size, dtype=np.int64)
                    _count_ways(
                        stats,
                        base_arr,
                        faces_arr,
                        marks_arr,
                        contrib,
                        shape,
                        strides,
                        mod,
                        binomials(binom_size, mod),
                        start,
                    )
                    by_class = np.empty((len(part), len(rows), n_classes), dtype=np.int64)
                    hist = np.empty((len(part), len(rows), n_vals), dtype=np.int64)
                    _k.mechanic_chain(
                        start,
                        walked,
                        faces_arr,
                        marks_arr,
                        contrib,
                        shape_arr,
                        emit,
                        cls,
                        vals,
                        mod,
                        by_class,
                        hist,
                        bad,
                    )
                    return np.concatenate([by_class.ravel(), hist.ravel()])

                flat = count(compute, bound)
                n_cls = len(part) * len(rows) * n_classes
                by_class = flat[:n_cls].reshape(len(part), len(rows), n_classes)
                hist = flat[n_cls:].reshape(len(part), len(rows), n_vals)
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
                    den = 1
                    for k, n in zip(mech.kinds, dice):
                        den *= k.sides**n
                    at = np.array(members, dtype=np.int64).reshape(-1, 2)
                    yield _Block(at[:, 0], at[:, 1], by_class[e], hist[e] if has_succ else None, lows, den, dice)
                    if progress is not None:
                        progress(len(at))


# ------------------------------------------------------------------ results


@dataclass(frozen=True)
class MechanicOdds:
    """The exact odds of one roll of a mechanic: Fractions over ``denominator`` (every way the dice land)."""

    rules: MechanicRules
    cell: tuple[tuple[str, int], ...]
    dice: tuple[int, ...]  # dice of each kind
    class_ways: dict[str, int]
    success_ways: dict[int, int]
    denominator: int

    def probability(self, outcome: str) -> Fraction:
        """Exact probability of an outcome class or a derived ``p_`` column."""
        cols = {c.name: c.classes for c in self.rules.mechanic.columns}
        if outcome in self.class_ways:
            return Fraction(self.class_ways[outcome], self.denominator)
        if outcome in cols:
            return Fraction(sum(self.class_ways[c] for c in cols[outcome]), self.denominator)
        from analysis.validate import did_you_mean

        raise ValueError(f"unknown outcome {outcome!r}{did_you_mean(outcome, list(self.class_ways) + list(cols))}")

    def classes(self) -> dict[str, Fraction]:
        """Every class as ``{name: Fraction}``, in table order (they sum to exactly 1)."""
        return {c: Fraction(w, self.denominator) for c, w in self.class_ways.items()}

    def columns(self) -> dict[str, Fraction]:
        """Every derived ``p_`` column as ``{name: Fraction}``."""
        return {c.name: self.probability(c.name) for c in self.rules.mechanic.columns}

    @property
    def p_win(self) -> Fraction:
        return sum(
            (Fraction(self.class_ways[c], self.denominator) for c in self.rules.mechanic.win_classes), Fraction(0)
        )

    @property
    def successes(self) -> dict[int, Fraction]:
        """Exact distribution of the mechanic's successes ``{n: Fraction}`` (non-zero only)."""
        if self.rules.mechanic.successes is None:
            raise ValueError(f"the {self.rules.mechanic.name} mechanic names no successes count")
        return {s: Fraction(w, self.denominator) for s, w in sorted(self.success_ways.items())}

    @property
    def mean_successes(self) -> Fraction:
        return sum((s * p for s, p in self.successes.items()), Fraction(0))

    def at_least(self, n: int) -> Fraction:
        """Exact chance of ``n`` or more successes."""
        return sum((p for s, p in self.successes.items() if s >= n), Fraction(0))

    def __str__(self) -> str:
        mech = self.rules.mechanic
        head = ", ".join(f"{a} {v}" for a, v in self.cell)
        lines = [f"{mech.title}: {head} ({' + '.join(f'{n} {k.name}' for n, k in zip(self.dice, mech.kinds))} dice)"]
        for name, p in list(self.classes().items()) + list(self.columns().items()):
            lines.append(f"  {name:<22}{float(p):8.2%}   {p}")
        return "\n".join(lines)

    __repr__ = __str__


def check_cell(mech: Mechanic, values: Mapping[str, object]) -> dict[str, int]:
    """The axis values of one cell, each a whole number in its range; every axis needed."""
    from analysis.validate import check_int

    out: dict[str, int] = {}
    for a in mech.axes:
        if a.name not in values:
            raise ValueError(f"the {mech.name} mechanic needs a value for {a.name}")
        out[a.name] = check_int(a.name, values[a.name], a.range[0], a.range[1])
    extra = [k for k in values if k not in out]
    if extra:
        from analysis.validate import did_you_mean

        raise ValueError(
            f"the {mech.name} mechanic has no axis {extra[0]!r}{did_you_mean(str(extra[0]), list(mech.axis_names))}"
        )
    return out


def odds(rules: MechanicRules, **cell: object) -> MechanicOdds:
    """Exact odds of one cell, e.g. ``odds(rules, pool=7, hunger=2, difficulty=3)``."""
    mech = rules.mechanic
    values = check_cell(mech, cell)
    (ways,) = count_cells(rules, [values])
    return MechanicOdds(
        rules,
        tuple(values.items()),
        ways.dice,
        dict(zip(mech.classes, ways.class_ways)),
        ways.success_ways,
        ways.denominator,
    )


def resolve_grid(
    mech: Mechanic, axes: Mapping[str, object], at_least: object = None
) -> tuple[dict[str, list[int]], list[dict[str, int]], list[int]]:
    """``(grid, cells, tops)`` of a table: ``{axis: values}`` (an axis left out takes its default SPEC),
    every cell as a dict in the grid's product order, and the ``at_least`` values (a list, maybe empty),
    each checked; an unknown axis gets a did-you-mean."""
    grid, tops = _grid_of(mech, axes, at_least)
    return grid, _cells_of(grid), tops


def _grid_of(
    mech: Mechanic, axes: Mapping[str, object], at_least: object = None
) -> tuple[dict[str, list[int]], list[int]]:
    """``(grid, tops)`` of :func:`resolve_grid`, without the cells."""
    from analysis.validate import as_values, did_you_mean

    extra = [k for k in axes if k not in mech.axis_names]
    if extra:
        raise ValueError(
            f"the {mech.name} mechanic has no axis {extra[0]!r}{did_you_mean(str(extra[0]), list(mech.axis_names))}"
        )
    grid = {a.name: as_values(a.name, axes.get(a.name, a.default), a.range[0], a.range[1]) for a in mech.axes}
    from analysis.sweep import check_cells

    n_cells = check_cells({a: len(v) for a, v in grid.items()})  # before the cells are listed
    tops: list[int] = []
    if at_least is not None:
        from analysis import at_least as _al

        if mech.successes is None:
            raise ValueError(f"the {mech.name} mechanic names no successes count, so it has no p_at_least_N")
        tops = as_values("at_least", at_least, 0)
        _al.check_size(n_cells, tops)
    return grid, tops


def _cells_of(grid: Mapping[str, Sequence[int]]) -> list[dict[str, int]]:
    """Every cell of a grid as a dict, in the grid's product order."""
    return [dict(zip(grid, combo)) for combo in itertools.product(*grid.values())]


def check_at_least_dice(rules: MechanicRules, cells: Sequence[Mapping[str, int]]) -> None:
    """Refuse at-least columns whose distributions of successes (each pool's, counted in full) would
    hold too many dice (:func:`analysis.at_least.check_dice`), before any counting."""
    from analysis.at_least import check_dice

    mech = rules.mechanic
    rolls = {tuple(c[a] for a in _pool_axes(mech)): c for c in cells}
    check_dice(sum(dice_of(mech, {**rules.params, **c})) for c in rolls.values())


def table(rules: MechanicRules, exact: bool = False, at_least: object = None, **axes: object) -> pd.DataFrame:
    """A tidy odds table over a grid: one row per cell, one column per axis, class and ``p_`` column.

    Parameters
    ----------
    rules : MechanicRules
    exact : bool
        True: ``Fraction`` cells; False: floats equal to ``float(Fraction)``.
    at_least : None, int or SPEC
        Adds ``p_at_least_N`` columns (the mechanic must name its successes).
    **axes
        One SPEC, int or iterable per axis; an axis left out takes its default SPEC.
    """
    import pandas as pd

    from analysis.exact import float_ratios, fractions_over
    from analysis.validate import check_bool

    exact = check_bool("exact", exact)
    mech = rules.mechanic
    grid, tops = _grid_of(mech, axes, at_least)
    cells = _cells_of(grid) if tops else None  # listed once, for the check and the count
    if cells is not None:  # (listed where tops asks for at-least columns)
        check_at_least_dice(rules, cells)
    key = (rules, tuple((a, tuple(v)) for a, v in grid.items()), exact, tuple(tops))
    frame = _TABLES.get(key)
    if frame is not None:  # the warm path: a copy of the table made before
        _TABLES[key] = _TABLES.pop(key)  # most recently used last
        return frame.copy()
    names = list(mech.classes) + [c.name for c in mech.columns] + [f"p_at_least_{n}" for n in tops]
    values: np.ndarray | None = None
    if not tops:
        from . import pairs

        picks = [[mech.classes.index(c) for c in col.classes] for col in mech.columns]

        def finish(num: np.ndarray, den: np.ndarray) -> np.ndarray:
            # the classes, then each p_ column's sum, over the denominator
            num = np.concatenate([num] + [num[..., p].sum(axis=-1, keepdims=True) for p in picks], axis=-1)
            return fractions_over(num, den) if exact else float_ratios(num, den)

        values = pairs.class_grid(rules, grid, finish)
    if values is None:
        values = _general_values(rules, _cells_of(grid) if cells is None else cells, tops, exact)
    cols = {
        a: np.repeat(np.tile(np.array(v, dtype=np.int64), _prod(grid, a, before=True)), _prod(grid, a, before=False))
        for a, v in grid.items()
    }
    for j, n in enumerate(names):
        cols[n] = values[:, j]
    frame = pd.DataFrame(cols)
    _TABLES[key] = frame.copy()
    while len(_TABLES) > _TABLES_KEPT:
        _TABLES.pop(next(iter(_TABLES)))
    return frame


def _general_values(
    rules: MechanicRules, cells: Sequence[Mapping[str, int]], tops: Sequence[int], exact: bool
) -> np.ndarray:
    """The values of a table's cells (classes, ``p_`` columns, ``p_at_least_N``) counted cell group by
    cell group: the pair-of-tens path where the mechanic has that shape, else the statistics grid, whose
    blocks of counts are finished (int64 ones vectorised) without a per-cell object."""
    from analysis.at_least import ways_at_least
    from analysis.exact import INT64_MAX, float_ratios, fractions_over

    from . import pairs

    mech = rules.mechanic
    index = {c: i for i, c in enumerate(mech.classes)}
    picks = [[index[c] for c in col.classes] for col in mech.columns]
    width = len(mech.classes) + len(picks) + len(tops)
    fast = pairs.count(rules, cells)
    if fast is not None:
        lines = []
        for w in fast:
            line = list(w.class_ways)
            line += [sum(w.class_ways[i] for i in p) for p in picks]
            line += ways_at_least(w.success_ways, tops)
            lines.append(line)
        num = np.array(lines, dtype=object).reshape(len(cells), width)
        den = np.array([w.denominator for w in fast], dtype=object)[:, None]
        return fractions_over(num, den) if exact else float_ratios(num, den)
    # int64 or Python ints: positions, rows, denominators
    parts: dict[bool, tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]] = {
        False: ([], [], []),
        True: ([], [], []),
    }
    for block in _count_general(rules, cells, histograms=bool(tops)):
        by = block.by_class[block.context_of]
        extra = [by[:, p].sum(axis=1, keepdims=True) for p in picks]
        if tops:  # ways of at least n successes: a suffix sum of the histogram
            hist = cast(np.ndarray, block.hist)[block.context_of]  # counted with histograms
            tail = np.concatenate(
                [np.cumsum(hist[:, ::-1], axis=1)[:, ::-1], np.zeros((len(hist), 1), dtype=hist.dtype)], axis=1
            )
            lows = np.array(block.lows, dtype=np.int64)[block.context_of]
            at = np.clip(np.array(tops, dtype=np.int64)[None, :] - lows[:, None], 0, hist.shape[1])
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
            values[np.concatenate(positions)] = fractions_over(num, den) if exact else float_ratios(num, den)
    return values


def clear_caches() -> None:
    """Forget every count the engines keep (computed tables, class tables, the pair path's pools):
    the next call counts from scratch, as for a rule set seen for the first time."""
    from analysis import special_dice

    from . import pairs

    _TABLES.clear()
    _tables.cache_clear()
    pairs.clear_caches()
    special_dice.counts.cache_clear()
    special_dice.clear_caches()


#: Tables kept, computed, for a second call with the same rules and grid (each call gets a copy).
_TABLES: dict[tuple[Any, ...], pd.DataFrame] = {}
_TABLES_KEPT = 32


def _prod(grid: Mapping[str, Sized], axis: str, before: bool) -> int:
    """The number of cells of the axes before (or after) ``axis`` in the grid's order."""
    names = list(grid)
    i = names.index(axis)
    part = names[:i] if before else names[i + 1 :]
    out = 1
    for a in part:
        out *= len(grid[a])
    return out


# ------------------------------------------------------------------ one landed roll


@dataclass(frozen=True)
class MechanicReading:
    """What one landed roll means: its counts and its outcome class."""

    outcome: str
    counts: dict[str, int]
    successes: int | None
    won: bool


def read_roll(rules: MechanicRules, faces: Mapping[str, Iterable[int]], **cell: object) -> MechanicReading:
    """Read landed dice by the mechanic's rules.

    For example ``read_roll(r, {"normal": [3, 10], "hunger": [1]}, difficulty=2)``.

    ``faces`` maps each kind to the faces its dice show (a kind left out
    rolled no dice).  Axes the rules read (a Difficulty) are given as keywords;
    the pool axes need not be.
    """
    from analysis.validate import check_int

    mech = rules.mechanic
    stats = _stats(mech)
    kinds = {k.name: k for k in mech.kinds}
    if not isinstance(faces, dict):
        raise ValueError("faces must map each kind of die to the faces it shows")
    for name in faces:
        if name not in kinds:
            from analysis.validate import did_you_mean

            raise ValueError(
                f"the {mech.name} mechanic has no kind of die {name!r}{did_you_mean(str(name), list(kinds))}"
            )
    ctx: dict[str, int] = {}
    for a in mech.axes:
        if a.name in cell:
            ctx[a.name] = check_int(a.name, cell[a.name], a.range[0], a.range[1])
        elif a.name in stats.rule_axes:
            raise ValueError(f"reading a roll of the {mech.name} mechanic needs {a.name}")
    params = rules.params
    env: dict[str, Any] = {**params, **ctx}
    # faces by mark need the axes the faces read (a classic difficulty): those given
    face_env = {**env, **{a.name: ctx.get(a.name, a.range[0]) for a in mech.axes}}
    layout = faces_of(mech, face_env)
    marks_of: dict[int, dict[str, int]] = {}
    for ki, k in enumerate(mech.kinds):
        shown = [check_int(f"a {k.name} die", f, 1, k.sides) for f in (faces.get(k.name) or [])]
        if len(shown) > MAX_DICE:
            raise ValueError(f"at most {MAX_DICE} {k.name} dice")
        per_mark: dict[str, int] = {}
        for mark, ranges in k.faces:
            face_set: set[int] = set()
            for lo_e, hi_e in ranges:
                face_set |= set(range(int(lo_e.evaluate(face_env)), int(hi_e.evaluate(face_env)) + 1))
            per_mark[mark] = sum(f in face_set for f in shown)
        marks_of[ki] = per_mark
    del layout
    for s, name in enumerate(stats.names):
        env[name] = sum(marks_of[ki][mech.kinds[ki].marks[mi]] for ki, mi in stats.members[s])
    bounds = {k: (int(v), int(v)) for k, v in env.items()}
    _eval_counts(mech, env, bounds)
    outcome: str | None = None
    for o in mech.outcomes:
        if o.applies is not None and not bool(o.applies.evaluate(params)):
            continue
        if o.when is None or bool(o.when.evaluate(env)):
            outcome = o.name
            break
    if outcome is None:
        raise MechanicError(
            f"{mech.origin}: no outcome rule matches this roll ({', '.join(f'{n}={env[n]}' for n in stats.names)})"
        )
    counts = {c: int(env[c]) for c, _ in mech.counts}
    succ = int(env[mech.successes]) if mech.successes is not None else None
    return MechanicReading(outcome, counts, succ, outcome in mech.win_classes)


# ------------------------------------------------------------------ for engines built on this one
# The statistics grid, shared with the engines that count more than one
# roll of a mechanic (analysis.mechanic.willpower): public names for the
# helpers above.

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
