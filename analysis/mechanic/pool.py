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

from .spec import Faces, Mechanic, MechanicError, where as _where
from .stats import Stats as _Stats

if TYPE_CHECKING:  # (the kernels are imported when first counted)
    from kernels._jit import IntArray

    #: Kernel inputs of one face layout: faces, marks, contributions, grid shape, strides (:func:`layout`).
    Layout = tuple[IntArray, IntArray, IntArray, tuple[int, ...], IntArray]
    #: One kind's die on the grid, for :func:`kernels.mechanic.mechanic_walk`: (dest, weight) (:func:`walks`).
    Walk = tuple[IntArray, IntArray]

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


def layout(mech: Mechanic, stats: _Stats, faces: Faces, dice_max: tuple[int, ...]) -> Layout:
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


def walks(
    faces_arr: IntArray, marks_arr: IntArray, contrib: IntArray, shape: tuple[int, ...], top: Sequence[int]
) -> list[Walk]:
    """For each kind, what one of its dice does on the statistics grid: ``(dest, weight)`` for
    :func:`kernels.mechanic.mechanic_walk` (where a die showing each mark takes each cell, each
    statistic held at its axis's last cell, and the faces of each mark); a kind of which ``top``
    rolls no die gets an empty table."""
    dims = np.array(shape, dtype=np.int64)
    size = int(np.prod(dims))
    coords = np.indices(shape, dtype=np.int64).reshape(len(shape), size)
    out: list[Walk] = []
    for k in range(len(marks_arr)):
        m = int(marks_arr[k])
        dest = np.empty((m, size if top[k] else 0), dtype=np.int64)
        for j in range(m if top[k] else 0):
            moved = np.minimum(coords + contrib[k, j, : len(shape), None], dims[:, None] - 1)
            dest[j] = np.ravel_multi_index(tuple(moved), shape)
        out.append((dest, faces_arr[k, :m].copy()))
    return out


def walk_ways(dice: Sequence[int], walked: Sequence[Walk], size: int, mod: int) -> IntArray:
    """Kernel calls: the ways of every cell of the statistics grid of ``size`` cells (in ``mod``'s
    arithmetic) after ``dice[k]`` dice of each kind, from the empty roll (every statistic 0)."""
    from kernels import mechanic as _k

    cur = np.zeros(size, dtype=np.int64)
    cur[0] = 1
    for n, (dest, weight) in zip(dice, walked):
        if n:
            _k.walk(cur, dest, weight, [n], mod)
    return cur
