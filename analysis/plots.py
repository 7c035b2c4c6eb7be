"""Workbench plots for any registered system: a difference heatmap per outcome class, and outcome curves per variant.

Each function returns a ``matplotlib.figure.Figure`` built without pyplot,
so it renders headless and shows in Jupyter; save one with
``analysis.safeio.savefig(fig, path)``, which writes the file atomically.
"""
from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from . import rulesets, sweep
from .tables import Comparison, spec_text

#: One line style per variant, so overlapping curves stay visible.
_STYLES = [dict(color="black", lw=2.6, ls="-"), dict(color="#c0392b", lw=1.8, ls="--", marker="o", ms=3),
           dict(color="#2471a3", lw=1.8, ls="-.", marker="s", ms=3),
           dict(color="#27ae60", lw=1.8, ls=":", marker="^", ms=4),
           dict(color="#8e44ad", lw=1.5, ls="--", marker="v", ms=3),
           dict(color="#e67e22", lw=1.5, ls="-.", marker="D", ms=3),
           dict(color="#7f8c8d", lw=1.5, ls=":", marker="x", ms=4)]


def _label(name: str) -> str:
    return name.replace("_", " ")


def _name(name: str) -> str:
    """A rule set's name as figure text: one line, control characters ``?``, and each ``$`` escaped,
    so that matplotlib draws it as it is instead of parsing it as mathtext (``$\\frac{$`` would
    fail the whole figure)."""
    from .validate import one_line

    return one_line(name).replace("$", r"\$")


def _colour_scale(values: np.ndarray) -> dict:
    """``cmap``, ``vmin`` and ``vmax`` for a map of changes: diverging only when
    the changes go both ways, else one hue from 0 (red up, blue down)."""
    low, high = float(values.min()), float(values.max())
    if low >= 0:
        return dict(cmap="Reds", vmin=0, vmax=high or 1)
    if high <= 0:
        return dict(cmap="Blues_r", vmin=low, vmax=0)
    limit = max(-low, high)
    return dict(cmap="RdBu_r", vmin=-limit, vmax=limit)


def slice_values(comparison: Comparison, x: str, y: str | None, at: dict | None) -> dict:
    """Fixed values for the axes that are neither x nor y: given, or where the change is biggest."""
    at = dict(at or {})
    for axis in at:
        if axis not in comparison.grid:
            raise ValueError(f"the comparison has no axis {axis!r}; its axes are {', '.join(comparison.axes)}")
        if at[axis] not in comparison.grid[axis]:
            raise ValueError(f"{axis} {at[axis]!r} is not in the compared grid "
                             f"({spec_text(comparison.grid[axis])})")
    df = comparison.table
    size = df["difference"].map(lambda d: abs(float(d)))
    for axis in comparison.axes:
        if axis in (x, y) or axis in at:
            continue
        values = comparison.grid[axis]
        if len(values) == 1:
            at[axis] = values[0]
        else:  # the slice where the rule change shows most
            totals = size.groupby(df[axis]).sum()
            at[axis] = int(totals.idxmax()) if totals.max() > 0 else values[0]
    return at


def difference_heatmap(comparison: Comparison, x: str | None = None, y: str | None = None,
                       at: dict | None = None, outcomes=None) -> Figure:
    """One heatmap per outcome class of ``b - a`` in percentage points.

    Parameters
    ----------
    comparison : Comparison
        From :func:`analysis.tables.compare`.
    x, y : str, optional
        Axes across and up (default: the system's first two axes).
    at : dict, optional
        Values of the other axes (default: each at the value where the
        change is biggest, or its only value).
    outcomes : sequence of str, optional
        Outcome classes to draw (default: all compared).
    """
    if not isinstance(comparison, Comparison):
        raise ValueError("difference_heatmap needs a Comparison from analysis.tables.compare")
    axes = comparison.axes
    x = x or axes[0]
    y = y if y is not None else (next((a for a in axes if a != x), None))
    for name in (x, y):
        if name is not None and name not in axes:
            raise ValueError(f"the comparison has no axis {name!r}; its axes are {', '.join(axes)}")
    if x == y:
        raise ValueError("x and y must be two different axes")
    outcomes = list(comparison.outcomes if outcomes is None else outcomes)
    for o in outcomes:
        if o not in comparison.outcomes:
            raise ValueError(f"unknown outcome {o!r}; choose from {', '.join(comparison.outcomes)}")
    at = slice_values(comparison, x, y, at)
    df = comparison.table
    mask = np.ones(len(df), dtype=bool)
    for axis, v in at.items():
        mask &= (df[axis] == v).to_numpy()
    df = df[mask]
    xs = comparison.grid[x]
    ys = comparison.grid[y] if y else [0]

    def grid_of(outcome):
        sub = df[df["outcome"] == outcome]
        values = np.zeros((len(ys), len(xs)))
        xi = {v: i for i, v in enumerate(xs)}
        yi = {v: i for i, v in enumerate(ys)}
        for xv, yv, d in zip(sub[x], sub[y] if y else [0] * len(sub), sub["difference"]):
            values[yi[yv], xi[xv]] = float(d) * 100
        return values

    grids = {o: grid_of(o) for o in outcomes}
    changed = [o for o in outcomes if np.abs(grids[o]).max() > 0]
    unchanged = [o for o in outcomes if o not in changed]
    shown = changed or outcomes[:1]
    # at most three panels a row (four make two rows of two), so the figure stays readable
    ncols = 2 if len(shown) == 4 else min(3, len(shown))
    nrows = math.ceil(len(shown) / ncols)
    fig = Figure(figsize=(4.2 * ncols + 0.8, 3.2 * nrows + 1.1), layout="constrained")
    grid_axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False)).ravel()
    # numbers in the cells only where they fit side by side
    annotate = len(xs) <= 13 and len(xs) * len(ys) <= 240
    fontsize = 6
    for ax, outcome in zip(grid_axes, shown):
        values = grids[outcome]
        limit = float(np.abs(values).max())
        im = ax.imshow(values, origin="lower", aspect="auto", **_colour_scale(values),
                       extent=(-0.5, len(xs) - 0.5, -0.5, len(ys) - 0.5))
        if annotate:
            for (i, j), v in np.ndenumerate(values):
                if abs(v) >= 0.05:  # what would print as +0.0 stays blank
                    ax.text(j, i, f"{v:+.1f}" if abs(v) < 9.95 else f"{v:+.0f}", ha="center",
                            va="center", fontsize=fontsize,
                            color="white" if abs(v) > 0.6 * limit else "black")
        step = max(1, math.ceil(len(xs) / 15))
        ax.set_xticks(range(0, len(xs), step), [str(v) for v in xs[::step]], fontsize=7)
        ax.set_yticks(range(len(ys)), [str(v) for v in ys] if y else [""], fontsize=7)
        ax.set_xlabel(x, fontsize=8)
        if y:
            ax.set_ylabel(y, fontsize=8)
        ax.set_title(_label(outcome) + ("" if limit else ": no change"), fontsize=9)
        cb = fig.colorbar(im, ax=ax, shrink=0.85)
        cb.ax.tick_params(labelsize=7)
    for ax in grid_axes[len(shown):]:
        ax.set_visible(False)
    where = ", ".join(f"{a} {v}" for a, v in at.items())
    fig.suptitle(f"{_name(comparison.b.name)} minus {_name(comparison.a.name)}: change in percentage points"
                 + (f" ({where})" if where else ""), fontsize=11)
    if changed and unchanged:
        fig.supxlabel("no change anywhere: " + ", ".join(_label(o) for o in unchanged),
                      fontsize=8, color="0.35")
    return fig


def variant_curves(variants, outcomes, x: str | None = None, panel: str | None = None,
                   grid: dict | None = None) -> Figure:
    """Curves of outcome classes against one axis (pool, base, ...), one line per variant.

    Parameters
    ----------
    variants : sequence of rule sets
        Shipped names, TOML paths or rules objects, all of one system.
    outcomes : str or sequence of str
        Outcome columns of the system's table; one row of panels each.
    x : str, optional
        The axis across (default: the system's first axis).
    panel : str, optional
        An axis with one column of panels per value (e.g. ``"hunger"``).
    grid : dict, optional
        ``{axis: SPEC}``.  ``x`` and ``panel`` take their SPEC (default the
        system's); every other axis must be one value (default: the middle
        of the system's default SPEC).
    """
    sets = [rulesets.load(v) for v in variants]
    if not sets:
        raise ValueError("variant_curves needs at least one rule set")
    systems = {rs.system for rs in sets}
    if len(systems) > 1:
        raise ValueError(f"the variants must be of one system, got {', '.join(sorted(systems))}")
    system = rulesets.system(sets[0].system)
    outcomes = [outcomes] if isinstance(outcomes, str) else list(outcomes)
    x = x or system.axis_names[0]
    for name in (x, panel):
        if name is not None and name not in system.axis_names:
            raise ValueError(f"{system.name} has no axis {name!r}; its axes are {', '.join(system.axis_names)}")
    given = dict(grid or {})
    cells = sweep.resolve_grid(system, given)
    for axis in system.axis_names:
        if axis in (x, panel):
            continue
        if axis not in given:
            values = cells[axis]
            cells[axis] = [values[len(values) // 2]]
        elif len(cells[axis]) != 1:
            raise ValueError(f"{axis} must be one value here (it is neither x nor panel), "
                             f"got {spec_text(cells[axis])}")
    frames = sweep.tables(system, sets, cells)
    for o in outcomes:
        if o not in frames[0].columns:
            choices = [c for c in frames[0].columns if c not in system.axis_names]
            raise ValueError(f"unknown outcome {o!r}; choose from {', '.join(choices)}")
    panels = cells[panel] if panel else [None]
    fig = Figure(figsize=(3.9 * len(panels) + 1.2, 2.9 * len(outcomes) + 0.9), layout="constrained")
    axs = fig.subplots(len(outcomes), len(panels), squeeze=False, sharex=True)
    for r, outcome in enumerate(outcomes):
        for c, pv in enumerate(panels):
            ax = axs[r, c]
            for k, (rs, df) in enumerate(zip(sets, frames)):
                sub = df if panel is None else df[df[panel] == pv]
                ax.plot(sub[x], sub[outcome].astype(float) * 100, label=_name(rs.name),
                        **_STYLES[k % len(_STYLES)])
            ax.grid(alpha=0.3)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            if r == 0 and panel:
                ax.set_title(f"{panel} {pv}", fontsize=9)
            if c == 0:
                ax.set_ylabel(f"{_label(outcome)} (%)", fontsize=8)
            if r == len(outcomes) - 1:
                ax.set_xlabel(x, fontsize=8)
            ax.tick_params(labelsize=7)
    handles, labels = axs[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(4, len(sets)), fontsize=8)
    fixed = ", ".join(f"{a} {v[0]}" for a, v in cells.items() if a not in (x, panel))
    fig.suptitle(f"{system.title}: house-rule variants" + (f" ({fixed})" if fixed else ""), fontsize=11)
    return fig
