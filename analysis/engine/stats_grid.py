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
