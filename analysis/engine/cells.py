"""The cells asked of a mechanic: one cell's axis values checked, a table's grid resolved and listed.

:func:`check_cell` checks the axis values of one cell (every axis needed);
:func:`resolve_grid` turns the SPEC of each axis into the grid of a table,
its cells (:func:`cells_of`) and its ``at_least`` values, checking the
size before any cell is listed; :func:`check_at_least_dice` refuses
at-least columns too big to count, before any counting.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Mapping, Sequence

from analysis.engine import at_least as _al
from analysis.model.validate import as_values, check_cells, check_int, did_you_mean

from analysis.engine.pool import dice_of, pool_axes as _pool_axes
from analysis.model.spec import Mechanic

if TYPE_CHECKING:
    from analysis.model.spec import MechanicRules


def check_cell(mech: Mechanic, values: Mapping[str, object]) -> dict[str, int]:
    """The axis values of one cell, each a whole number in its range; every axis needed."""
    out: dict[str, int] = {}
    for a in mech.axes:
        if a.name not in values:
            raise ValueError(f"the {mech.name} mechanic needs a value for {a.name}")
        out[a.name] = check_int(a.name, values[a.name], a.range[0], a.range[1])
    extra = [k for k in values if k not in out]
    if extra:
        raise ValueError(
            f"the {mech.name} mechanic has no axis {extra[0]!r}{did_you_mean(str(extra[0]), list(mech.axis_names))}"
        )
    return out


def resolve_grid(
    mech: Mechanic, axes: Mapping[str, object], at_least: object = None
) -> tuple[dict[str, list[int]], list[dict[str, int]], list[int]]:
    """``(grid, cells, tops)`` of a table: ``{axis: values}`` (an axis left out takes its default SPEC),
    every cell as a dict in the grid's product order, and the ``at_least`` values (a list, maybe empty),
    each checked; an unknown axis gets a did-you-mean."""
    grid, tops = grid_of(mech, axes, at_least)
    return grid, cells_of(grid), tops


def grid_of(
    mech: Mechanic, axes: Mapping[str, object], at_least: object = None
) -> tuple[dict[str, list[int]], list[int]]:
    """``(grid, tops)`` of :func:`resolve_grid`, without the cells."""
    extra = [k for k in axes if k not in mech.axis_names]
    if extra:
        raise ValueError(
            f"the {mech.name} mechanic has no axis {extra[0]!r}{did_you_mean(str(extra[0]), list(mech.axis_names))}"
        )
    grid = {a.name: as_values(a.name, axes.get(a.name, a.default), a.range[0], a.range[1]) for a in mech.axes}

    n_cells = check_cells({a: len(v) for a, v in grid.items()})  # before the cells are listed
    tops: list[int] = []
    if at_least is not None:
        if mech.successes is None:
            raise ValueError(f"the {mech.name} mechanic names no successes count, so it has no p_at_least_N")
        tops = as_values("at_least", at_least, 0)
        _al.check_size(n_cells, tops)
    return grid, tops


def cells_of(grid: Mapping[str, Sequence[int]]) -> list[dict[str, int]]:
    """Every cell of a grid as a dict, in the grid's product order."""
    return [dict(zip(grid, combo)) for combo in itertools.product(*grid.values())]


def check_at_least_dice(rules: MechanicRules, cells: Sequence[Mapping[str, int]]) -> None:
    """Refuse at-least columns whose distributions of successes (each pool's, counted in full) would
    hold too many dice (:func:`analysis.engine.at_least.check_dice`), before any counting."""
    mech = rules.mechanic
    rolls = {tuple(c[a] for a in _pool_axes(mech)): c for c in cells}
    _al.check_dice(sum(dice_of(mech, {**rules.params, **c})) for c in rolls.values())
