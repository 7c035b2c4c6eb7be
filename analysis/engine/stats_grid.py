"""The statistics grid as a mechanic's rules read it: the values along its axes and the counts over them.

The grid has one axis per statistic (:mod:`analysis.engine.stats`).
:func:`grid_env` gives each statistic's values along its axis,
:func:`grid_ranges` the range of every name the rules read, and
:func:`eval_counts` evaluates the mechanic's counts over the grid (or over
one landed roll), each checked against 64-bit overflow first.  A cell's
:func:`context_of` is the axis values the rules read (such as the
Difficulty); :func:`state_text` names one grid cell for a message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping

import numpy as np

from analysis.model.spec import Mechanic

if TYPE_CHECKING:
    from analysis.model.expr import Expr
    from analysis.engine.stats import Stats as _Stats

#: The ``(axis, value)`` pairs of the axes the rules read (:func:`context_of`).
Context = tuple[tuple[str, int], ...]


def grid_env(stats: _Stats, shape: tuple[int, ...]) -> dict[str, np.ndarray]:
    """Each statistic's values along its axis (a capped axis ends at its cap, standing for all above)."""
    env: dict[str, np.ndarray] = {}
    for s, name in enumerate(stats.names):
        view = [1] * len(shape)
        view[s] = shape[s]
        env[name] = np.arange(shape[s], dtype=np.int64).reshape(view)
    return env


def eval_counts(
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


def grid_ranges(
    params: Mapping[str, bool | int], context: Mapping[str, int], stats: _Stats, shape: tuple[int, ...]
) -> dict[str, tuple[int, int]]:
    """The range of every name the rules read: each parameter and context value alone, each statistic its axis."""
    ranges = {k: (int(v), int(v)) for k, v in {**params, **context}.items()}
    for s, name in enumerate(stats.names):
        ranges[name] = (0, shape[s] - 1)
    return ranges


def state_text(mech: Mechanic, stats: _Stats, shape: tuple[int, ...], flat: int) -> str:
    """One grid cell's statistics (``flat``: its index in the flattened grid), for a message."""
    coords = np.unravel_index(int(flat), shape)
    caps = stats.caps or (None,) * len(stats.names)
    return (
        ", ".join(
            f"{n}>={int(c)}" if cap is not None and int(c) == cap else f"{n}={int(c)}"
            for n, c, cap in zip(stats.names, coords, caps)
        )
        or "every roll"
    )


def context_of(stats: _Stats, env: Mapping[str, Any]) -> Context:
    """The context of a cell: the (axis, value) pairs the rules read."""
    return tuple((a, int(env[a])) for a in stats.rule_axes)


def region_zeros(
    stats: _Stats, shape: tuple[int, ...], params: Mapping[str, Any], reached: Iterable[bool]
) -> tuple[int, ...]:
    """The statistics a grid's region holds at 0: the axes along which every cell past 0 that the dice can
    reach lies outside :attr:`~analysis.engine.stats.Stats.region` (La Soif's beastly grid and a normal die's
    10s).  ``reached``: per axis, whether a die of the grid can move along it (one that cannot stays at 0).

    A die that adds to such a statistic takes every roll it is part of outside the region for good (counts
    only grow), so the grid's walks may leave it out (:func:`analysis.engine.pool.walks`): the region's
    counts are the same.  None where the grid has no region, or its region reads more than statistics.
    """
    region = stats.region
    if region is None or not set(region.names) <= set(stats.names):
        return ()
    reached = list(reached)
    env = {**params, **grid_env(stats, shape)}
    inside = np.broadcast_to(region.evaluate(env), shape)
    for s, moves in enumerate(reached):  # an axis no die moves along: its first value only
        if not moves:
            inside = inside.take([0], axis=s)
    out = []
    for s, moves in enumerate(reached):
        if moves and inside.shape[s] > 1 and not inside.take(range(1, inside.shape[s]), axis=s).any():
            out.append(s)
    return tuple(out)
