"""A mechanic's pool as the kernels count it: the dice of each kind, the faces of each mark, their layout.

For the axis and parameter values of a cell, :func:`dice_of` gives the dice
of each kind and :func:`faces_of` the faces of each kind by mark, both
checked (:func:`dice_table` the dice of many cells at once); the axes they
read are :func:`pool_axes`.  :func:`layout` turns one face layout into the
kernel's inputs over the statistics grid (the marks the rules cannot tell
apart merged), :func:`walks` what one die of each kind does on that grid,
and :func:`walk_ways` has :mod:`kernels.mechanic` count the ways of every
cell of it, die by die.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from analysis.engine import seam
from analysis.engine import explode
from analysis.model.spec import Faces, Mechanic, MechanicError, where as _where
from analysis.engine.stats import Stats as _Stats

if TYPE_CHECKING:  # (the kernels are imported when first counted)
    from kernels._jit import IntArray

    #: Kernel inputs of one face layout: faces, marks, contributions, grid shape, strides (:func:`layout`).
    Layout = tuple[IntArray, IntArray, IntArray, tuple[int, ...], IntArray]
    from kernels.mechanic import Tails

    #: One kind's die on the grid, for :func:`kernels.mechanic.walk`: (dest, weight, tails) (:func:`walks`).
    Walk = tuple[IntArray, IntArray, Tails | None]

#: A die of at least this many marks, on a grid with an axis of at least :data:`TAIL_AXIS` cells, is walked
#: with its marks that reach that axis's last cell added once (:func:`kernels.mechanic.mechanic_walk_tails`).
TAIL_MARKS = 32
TAIL_AXIS = 16

#: Most dice of one kind in a roll.
MAX_DICE = 1000


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
    axes = pool_axes(mech)
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


@lru_cache(maxsize=64)
def pool_axes(mech: Mechanic) -> tuple[str, ...]:
    """The axes that the dice counts and the faces read."""
    read: set[str] = set()
    for k in mech.kinds:
        read |= set(k.dice.names)
        for _, ranges in k.faces:
            for lo, hi in ranges:
                read |= set(lo.names) | set(hi.names)
    return tuple(a for a in mech.axis_names if a in read)


@lru_cache(maxsize=64)
def face_axes(mech: Mechanic) -> tuple[str, ...]:
    """The axes that the faces read (a classic difficulty)."""
    read: set[str] = set()
    for k in mech.kinds:
        for _, ranges in k.faces:
            for lo, hi in ranges:
                read |= set(lo.names) | set(hi.names)
    return tuple(a for a in mech.axis_names if a in read)


def layout(
    mech: Mechanic,
    stats: _Stats,
    faces: Faces,
    dice_max: tuple[int, ...],
    params: Mapping[str, Any] | None = None,
    bound: int = 0,
    hold: bool = False,
) -> Layout:
    """Kernel inputs for one face layout: merged marks per kind, contributions, grid shape.

    Marks of a kind that count towards the same statistics alike are merged
    (their faces added), so a kind has as few categories as the rules can
    tell apart.  A statistic's axis holds the most its members can add up
    to (per kind, its dice times the largest weight of its marks), or up to
    its cap.  Where the mechanic's dice roll again or are rote
    (:mod:`analysis.engine.explode`, ``params`` the rule set's values), such
    a kind's "marks" are the sums one die's whole chain can make, weighted
    by their exact ways (Python ints, an object array), and a statistic a
    chain raises without end holds ``0..bound``, ``bound`` standing for
    every value from it up (with ``hold``, so does every other statistic that could pass the bound:
    :func:`grid_axes`).
    """
    n_stats = len(stats.names)
    params = {} if params is None else params
    sizes, _ = grid_axes(mech, stats, dice_max, params, bound, hold)
    groups: list[list[tuple[tuple[int, ...], int]]] = []  # per kind: list of (contrib tuple, faces)
    if mech.explodes:
        chained = explode.chain_kinds(mech)
        for ki, k in enumerate(mech.kinds):
            if dice_max[ki] and (ki in chained or k.rote_on(params)):
                sums, weights = explode.die_steps(mech, stats, faces, params, [n - 1 for n in sizes], ki)
                groups.append(list(zip(sums, weights)))
            else:
                groups.append(_merged(stats, faces, ki, len(k.marks)))
    else:
        groups = [_merged(stats, faces, ki, len(k.marks)) for ki, k in enumerate(mech.kinds)]
    m_max = max(len(g) for g in groups)
    n_kinds = len(mech.kinds)
    big = any(f > 2**31 for g in groups for _, f in g)  # the weights of a chain: reduced for each prime
    faces_arr = np.zeros((n_kinds, m_max), dtype=object if big else np.int64)
    marks_arr = np.zeros(n_kinds, dtype=np.int64)
    contrib = np.zeros((n_kinds, m_max, max(n_stats, 1)), dtype=np.int64)
    for ki, g in enumerate(groups):
        marks_arr[ki] = len(g)
        for mi, (key, f) in enumerate(g):
            faces_arr[ki, mi] = f
            contrib[ki, mi, :n_stats] = key
    shape = tuple(sizes) or (1,)
    if n_stats == 0:
        contrib = contrib[:, :, :1] * 0
    strides = np.array([int(np.prod(shape[s + 1 :], dtype=np.int64)) for s in range(len(shape))], dtype=np.int64)
    return faces_arr, marks_arr, contrib, shape, strides


def grid_axes(
    mech: Mechanic,
    stats: _Stats,
    dice_max: Sequence[int],
    params: Mapping[str, Any],
    bound: int = 0,
    hold: bool = False,
) -> tuple[list[int], tuple[bool, ...]]:
    """The size of each statistic's axis, and whether its last cell stands for every value from it
    up without the rules' caps saying so (to be proven at the bound:
    :func:`analysis.engine.explode.undecided`).

    An axis holds the most its members can add up to (per kind, its dice times the largest weight of
    the marks a die of it may show; with dice rolled again, summed over the kinds its chain may show,
    each at most once), or up to its cap; an axis that dice rolled again raise without end
    (:func:`analysis.engine.explode.open_statistics`) holds ``0..bound`` (its cap, if the rules cap
    it), and with ``hold`` so does every other axis that would pass ``bound``.
    """
    if mech.explodes:
        opened = explode.open_statistics(mech, stats)
        shown = [explode.reach(mech, params, ki) for ki in range(len(mech.kinds))]
    else:
        opened = (False,) * len(stats.names)
        shown = [(ki,) for ki in range(len(mech.kinds))]
    sizes: list[int] = []
    held: list[bool] = []
    for s in range(len(stats.names)):
        cap = stats.caps[s] if stats.caps else None
        top = 0
        if not opened[s]:
            for ki, n in enumerate(dice_max):
                top += n * sum(
                    max((w for (k2, _), w in zip(stats.members[s], stats.weights[s]) if k2 == kj), default=0)
                    for kj in shown[ki]
                )
        if cap is not None:
            sizes.append((cap if opened[s] else min(top, cap)) + 1)
            held.append(False)
        elif opened[s] or (hold and top > bound):
            sizes.append(bound + 1)
            held.append(True)
        else:
            sizes.append(top + 1)
            held.append(False)
    return sizes, tuple(held)


def _merged(stats: _Stats, faces: Faces, ki: int, n_marks: int) -> list[tuple[tuple[int, ...], int]]:
    """A kind's marks merged where they count alike: ``[(contribution, faces), ...]`` (one empty entry
    for a kind without faces)."""
    n_stats = len(stats.names)
    merged: dict[tuple[int, ...], int] = {}
    for mi in range(n_marks):
        key = tuple(stats.weight(s, (ki, mi)) for s in range(n_stats))
        merged[key] = merged.get(key, 0) + faces[ki][mi]
    return [(key, f) for key, f in merged.items() if f > 0] or [(tuple([0] * n_stats), 0)]


def weights_for(weight: IntArray, mod: int) -> IntArray:
    """A walk's weights in ``mod``'s arithmetic: the int64 faces as they are, the Python-int ways of
    a chain of dice rolled again reduced modulo the prime (or made int64 where the bound fits)."""
    if weight.dtype != object:
        return weight
    return np.array([w % mod if mod else w for w in weight.tolist()], dtype=np.int64)


#: The walks of the last grids (:func:`walks`), by what they are made of: a sweep's calls (one per value
#: of its outer axis) lay out the same grids.  At most :data:`WALKS_BYTES` of them, the oldest let go first:
#: a grid's walks may take megabytes.
_WALKS: dict[tuple[object, ...], list[Walk]] = {}
WALKS_BYTES = 2**28


def walks(
    faces_arr: IntArray,
    marks_arr: IntArray,
    contrib: IntArray,
    shape: tuple[int, ...],
    top: Sequence[int],
    zeros: tuple[int, ...] = (),
) -> list[Walk]:
    """For each kind, what one of its dice does on the statistics grid: ``(dest, weight, tails)`` for
    :func:`kernels.mechanic.walk` (where a die showing each mark takes each cell, each statistic held at
    its axis's last cell, the faces of each mark, and how its marks reach a long axis's last cell where
    it has many, else None: :func:`_tails`); a kind of which ``top``
    rolls no die gets an empty table; a mark that adds to a statistic of ``zeros`` (held at 0 by the grid's
    region, :func:`analysis.engine.stats_grid.region_zeros`) is left out.  Kept for the next call on the same
    grid (never written to: the kernels only read them)."""
    key = (
        tuple(faces_arr.ravel().tolist()),
        faces_arr.shape,
        marks_arr.tobytes(),
        contrib.tobytes(),
        contrib.shape,
        tuple(shape),
        tuple(bool(t) for t in top),  # (only whether a kind rolls dice shapes its walk)
        zeros,
    )
    got = _WALKS.get(key)
    if got is None:
        got = _walks(faces_arr, marks_arr, contrib, shape, top, zeros)
        _WALKS[key] = got
        while len(_WALKS) > 1 and sum(w[0].nbytes for ws in _WALKS.values() for w in ws) > WALKS_BYTES:
            _WALKS.pop(next(iter(_WALKS)))
    return got


def clear_walks() -> None:
    """Forget the walks kept."""
    _WALKS.clear()


def _walks(
    faces_arr: IntArray,
    marks_arr: IntArray,
    contrib: IntArray,
    shape: tuple[int, ...],
    top: Sequence[int],
    zeros: tuple[int, ...],
) -> list[Walk]:
    dims = np.array(shape, dtype=np.int64)
    size = int(np.prod(dims))
    coords = np.indices(shape, dtype=np.int64).reshape(len(shape), size)
    out: list[Walk] = []
    big = int(np.argmax(dims)) if len(shape) else 0
    for k in range(len(marks_arr)):
        m = int(marks_arr[k])
        kept = [j for j in range(m) if not top[k] or not any(contrib[k, j, s] > 0 for s in zeros)]
        tails = None
        if top[k] and len(kept) >= TAIL_MARKS and shape[big] >= TAIL_AXIS:
            kept, tails = _tails(contrib[k, :, : len(shape)], kept, shape, big)
        dest = np.empty((len(kept), size if top[k] else 0), dtype=np.int64)
        for at, j in enumerate(kept if top[k] else ()):
            moved = np.minimum(coords + contrib[k, j, : len(shape), None], dims[:, None] - 1)
            dest[at] = np.ravel_multi_index(tuple(moved), shape)
        out.append((dest, faces_arr[k, kept].copy(), tails))
    return out


def _tails(contrib: IntArray, kept: list[int], shape: tuple[int, ...], big: int) -> tuple[list[int], Tails]:
    """A die's marks ordered for :func:`kernels.mechanic.mechanic_walk_tails`: in groups that add alike to
    every axis but ``big``, each in increasing order of what it adds along ``big``; with the end of each
    group, its first mark adding ``r`` or more (``r = 0 .. shape[big] - 1``), the axis's stride."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for j in kept:
        others = tuple(int(c) for a, c in enumerate(contrib[j].tolist()) if a != big)
        groups.setdefault(others, []).append(j)
    order: list[int] = []
    ends: list[int] = []
    first = np.empty((len(groups), shape[big]), dtype=np.int64)
    for g, members in enumerate(groups.values()):
        members.sort(key=lambda j: int(contrib[j, big]))
        adds = np.array([int(contrib[j, big]) for j in members], dtype=np.int64)
        first[g] = len(order) + np.searchsorted(adds, np.arange(shape[big]), side="left")
        order += members
        ends.append(len(order))
    stride = int(np.prod(shape[big + 1 :], dtype=np.int64))
    return order, (np.array(ends, dtype=np.int64), first, stride, int(shape[big]))


def walk_ways(dice: Sequence[int], walked: Sequence[Walk], size: int, mod: int) -> IntArray:
    """Kernel calls: the ways of every cell of the statistics grid of ``size`` cells (in ``mod``'s
    arithmetic) after ``dice[k]`` dice of each kind, from the empty roll (every statistic 0)."""
    _k = seam.mechanic

    cur = np.zeros(size, dtype=np.int64)
    cur[0] = 1
    for n, (dest, weight, tails) in zip(dice, walked):
        if n:
            _k.walk(cur, dest, weights_for(weight, mod), [n], mod, tails=tails)
    return cur
