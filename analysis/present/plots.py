"""Workbench plots for any registered system: a difference heatmap per outcome class, and outcome curves per variant.

Each function returns a ``matplotlib.figure.Figure`` built without pyplot,
so it renders headless and shows in Jupyter; save one with
``analysis.model.safeio.savefig(fig, path)``, which writes the file atomically.
"""

from __future__ import annotations

import math
import textwrap
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from analysis.engine import seam
from analysis.workbench import rulesets
from analysis.workbench import sweep
from analysis.workbench.compare import Comparison, spec_text
from analysis.present.glossary import label
from analysis.model.validate import one_line

if TYPE_CHECKING:  # (matplotlib is loaded when a figure is drawn, through the seam)
    from matplotlib.figure import Figure

#: One line style per variant, so overlapping curves stay visible.
_STYLES = [
    dict(color="black", lw=2.6, ls="-"),
    dict(color="#c0392b", lw=1.8, ls="--", marker="o", ms=3),
    dict(color="#2471a3", lw=1.8, ls="-.", marker="s", ms=3),
    dict(color="#27ae60", lw=1.8, ls=":", marker="^", ms=4),
    dict(color="#8e44ad", lw=1.5, ls="--", marker="v", ms=3),
    dict(color="#e67e22", lw=1.5, ls="-.", marker="D", ms=3),
    dict(color="#7f8c8d", lw=1.5, ls=":", marker="x", ms=4),
]


def _label(name: str) -> str:
    """A column or axis name in words, capitalised (:func:`analysis.present.glossary.label`)."""
    return label(name)


def _exact(value) -> Fraction:
    """A probability as a Fraction: a Fraction or an integer as it is, a float by its exact binary value."""
    return value if isinstance(value, Fraction) else Fraction(value)


def percent_text(p, signed: bool = False, decimals: int = 0) -> str:
    """A probability as the text of a heatmap cell, in percent without the ``%``, from its exact value.

    Exactly 0 is ``"0"`` and exactly 1 is ``"100"``; any other value never
    reads as either: under 0.1 % it is ``"<0.1"``, under 1 % (or above 99 %)
    it has one decimal (``"0.4"``, ``"99.6"``), just under 100 % it is
    ``">99.9"``, and else a whole number (``"27"``) or ``decimals`` decimals.
    ``signed``: a change in percentage points, ``+`` or ``-`` before every
    non-zero value (``"+<0.1"``, ``"-3"``); a fall under 0.1 point is ``">-0.1"``.

    >>> percent_text(Fraction(1, 10**6)), percent_text(Fraction(0)), percent_text(Fraction(27, 100))
    ('<0.1', '0', '27')
    """
    v = _exact(p)
    if v == 0:
        return "0"
    sign = ("+" if v > 0 else "-") if signed else ""
    a = abs(v) * 100
    if not signed and a == 100:
        return "100"
    if a < Fraction(1, 10):
        return ">-0.1" if sign == "-" else sign + "<0.1"
    if not signed and a > Fraction(999, 10):
        return ">99.9"
    if a < 1 or (not signed and a > 99):
        return sign + f"{float(a):.{max(1, decimals)}f}"
    return sign + f"{float(a):.{decimals}f}"


def label_cells(ax, grid, exact, xs, ys, text=None, fontsize: int = 8, dark: float | None = None) -> None:
    """Write each heatmap cell's value in it: ``text(exact[i, j])`` (:func:`percent_text` by default), from
    the exact value, at ``(xs[j], ys[i])``; white on cells above ``dark`` (60 % of the largest by default)."""
    text = percent_text if text is None else text
    dark = grid.max() * 0.6 if dark is None else dark
    for (i, j), v in np.ndenumerate(grid):
        ax.text(
            xs[j],
            ys[i],
            text(exact[i, j]),
            ha="center",
            va="center",
            fontsize=fontsize,
            color="white" if v > dark else "black",
        )


def points_text(difference) -> str:
    """A change of a probability (b - a) as the text of a heatmap cell, in percentage points.

    Exactly no change is ``"0"``; a rise under 0.1 point is ``"+<0.1"`` and a
    fall under 0.1 point ``">-0.1"``, never a misleading ``+0.0``; under 10 points one decimal
    (``"+8.9"``), else a whole number (``"+12"``).

    >>> points_text(Fraction(1, 10**5)), points_text(Fraction(-89, 1000)), points_text(0)
    ('+<0.1', '-8.9', '0')
    """
    v = _exact(difference)
    if v == 0:
        return "0"
    a = abs(v) * 100
    sign = "+" if v > 0 else "-"
    if a < Fraction(1, 10):
        return ">-0.1" if sign == "-" else "+<0.1"
    text = f"{float(a):.1f}"
    return sign + (text if float(text) < 10 else f"{float(a):.0f}")


def _name(name: str) -> str:
    """A rule set's name as figure text: one line, control characters ``?``, and each ``$`` escaped,
    so that matplotlib draws it as it is instead of parsing it as mathtext (``$\\frac{$`` would
    fail the whole figure)."""
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
            raise ValueError(f"{axis} {at[axis]!r} is not in the compared grid ({spec_text(comparison.grid[axis])})")
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


#: Most panels (values of the third axis) a heatmap of three axes draws in a row.
MAX_PANELS = 8


def difference_heatmap(
    comparison: Comparison,
    x: str | None = None,
    y: str | None = None,
    at: dict | None = None,
    outcomes=None,
    by: str | None = None,
) -> Figure:
    """One heatmap per outcome class of ``b - a`` in percentage points.

    Parameters
    ----------
    comparison : Comparison
        From :func:`analysis.present.tables.compare`.
    x, y : str, optional
        Axes across and up (default: the system's first two axes).
    at : dict, optional
        Values of the other axes (default: each at the value where the
        change is biggest, or its only value).
    outcomes : sequence of str, optional
        Outcome classes to draw (default: all compared).
    by : str, optional
        A third axis: one panel per value of it (at most :data:`MAX_PANELS`),
        a row of panels per outcome class, each row on one colour scale
        centred on 0 (:func:`difference_panels`).
    """
    if not isinstance(comparison, Comparison):
        raise ValueError("difference_heatmap needs a Comparison from analysis.present.tables.compare")
    if comparison.side_by_side:
        raise ValueError(
            "a difference heatmap draws one Willpower strategy: compare with one strategy (not several side by side)"
        )
    axes = comparison.axes
    x = x or axes[0]
    y = y if y is not None else (next((a for a in axes if a != x), None))
    for name in (x, y):
        if name is not None and name not in axes:
            raise ValueError(f"the comparison has no axis {name!r}; its axes are {', '.join(axes)}")
    if x == y:
        raise ValueError("x and y must be two different axes")
    if by is not None:
        return difference_panels(comparison, x, y, by, at, outcomes)
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
        """``(percentage points as floats, the differences as given)`` of one outcome, y by x."""
        sub = df[df["outcome"] == outcome]
        values = np.zeros((len(ys), len(xs)))
        given = np.zeros((len(ys), len(xs)), dtype=object)
        xi = {v: i for i, v in enumerate(xs)}
        yi = {v: i for i, v in enumerate(ys)}
        for xv, yv, d in zip(sub[x], sub[y] if y else [0] * len(sub), sub["difference"]):
            values[yi[yv], xi[xv]] = float(d) * 100
            given[yi[yv], xi[xv]] = d
        return values, given

    grids = {o: grid_of(o) for o in outcomes}
    changed = [o for o in outcomes if any(d != 0 for d in grids[o][1].ravel())]
    unchanged = [o for o in outcomes if o not in changed]
    shown = changed or outcomes[:1]
    # at most three panels a row (four make two rows of two), so the figure stays readable
    ncols = 2 if len(shown) == 4 else min(3, len(shown))
    nrows = math.ceil(len(shown) / ncols)
    width = 4.2 * ncols + 0.8
    fig = seam.Figure(figsize=(width, 3.2 * nrows + 1.1), layout="constrained")
    grid_axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False)).ravel()
    # numbers in the cells only where they fit side by side
    annotate = len(xs) <= 13 and len(xs) * len(ys) <= 240
    written = False  # whether some cell has its number (then a blank one is said to be no change)
    for ax, outcome in zip(grid_axes, shown):
        values, given = grids[outcome]
        limit = float(np.abs(values).max())
        im = ax.imshow(
            values,
            origin="lower",
            aspect="auto",
            **_colour_scale(values),
            extent=(-0.5, len(xs) - 0.5, -0.5, len(ys) - 0.5),
        )
        moved = {d for d in given.ravel() if d != 0}
        title = _label(outcome) + ("" if moved else ": no change")
        if len(moved) == 1 and np.count_nonzero(values) > 1:
            # one change wherever it changes: said once, not in every (small) cell
            title += f": {points_text(moved.pop())} points in every coloured cell"
        elif annotate:
            written = True
            for (i, j), d in np.ndenumerate(given):
                if d != 0:  # no change stays blank; a tiny one reads <0.1, never +0.0
                    ax.text(
                        j,
                        i,
                        points_text(d),
                        ha="center",
                        va="center",
                        fontsize=7,
                        color="white" if abs(values[i, j]) > 0.6 * limit else "black",
                    )
        step = max(1, math.ceil(len(xs) / 15))
        ax.set_xticks(range(0, len(xs), step), [str(v) for v in xs[::step]], fontsize=9)
        ax.set_yticks(range(len(ys)), [str(v) for v in ys] if y else [""], fontsize=9)
        ax.set_xlabel(_label(x), fontsize=10)
        if y:
            ax.set_ylabel(_label(y), fontsize=10)
        ax.set_title(title, fontsize=10)
        cb = fig.colorbar(im, ax=ax, shrink=0.85)
        cb.ax.tick_params(labelsize=9)
    for ax in grid_axes[len(shown) :]:
        ax.set_visible(False)
    _caption(fig, comparison, at, width, "", [], changed, unchanged, written)
    return fig


def _caption(fig, comparison, at: dict, width: float, what: str, notes: list, changed, unchanged, written) -> None:
    """A difference heatmap's title (``b minus a``, ``what``, and the slice drawn) and its notes under
    the panels (``notes``, then the classes that never change and what a blank cell means)."""
    # an axis only one side of a two-system comparison has is held at one value: said with the slice
    held = {a: f"{v} ({_name(getattr(comparison, side).name)})" for a, (side, v) in comparison.fixed.items()}
    where = ", ".join(f"{_label(a)} {v}" for a, v in {**at, **held}.items())
    title = f"{_name(comparison.b.name)} minus {_name(comparison.a.name)}: change in percentage points{what}" + (
        f" ({where})" if where else ""
    )
    fig.suptitle(textwrap.fill(title, int(width * 10), break_on_hyphens=False, break_long_words=False), fontsize=11)
    notes = list(notes)
    if changed and unchanged:
        notes.append("no change anywhere: " + ", ".join(_label(o).lower() for o in unchanged))
    if written:
        notes.append("blank cells: no change")
    if notes:
        fig.supxlabel("; ".join(notes), fontsize=9, color="0.35")


def difference_panels(comparison: Comparison, x: str, y: str | None, by: str, at: dict | None, outcomes=None) -> Figure:
    """The heatmaps of ``b - a`` over three axes: ``x`` across and ``y`` up in each panel, one panel per
    value of ``by``, one row per outcome class that changes somewhere; each row's panels share one
    colour scale centred on 0 (a change up red, down blue, the same colour the same change), with one
    colour bar; the other axes at ``at`` (default: each where the change is biggest), named in the title."""
    axes = comparison.axes
    if y is None:
        raise ValueError("a heatmap of three axes needs a y axis")
    if by not in axes:
        raise ValueError(f"the comparison has no axis {by!r}; its axes are {', '.join(axes)}")
    if by in (x, y):
        raise ValueError(f"the panels' axis {by!r} must be neither x nor y")
    values_by = comparison.grid[by]
    if len(values_by) > MAX_PANELS:
        raise ValueError(
            f"a heatmap draws at most {MAX_PANELS} panels, one per {by}; {by} has {len(values_by)} values "
            f"(give it fewer, or one to draw that slice)"
        )
    outcomes = list(comparison.outcomes if outcomes is None else outcomes)
    for o in outcomes:
        if o not in comparison.outcomes:
            raise ValueError(f"unknown outcome {o!r}; choose from {', '.join(comparison.outcomes)}")
    at = {k: v for k, v in slice_values(comparison, x, y, {**(at or {}), by: values_by[0]}).items() if k != by}
    df = comparison.table
    mask = np.ones(len(df), dtype=bool)
    for axis, v in at.items():
        mask &= (df[axis] == v).to_numpy()
    df = df[mask]
    xs, ys = comparison.grid[x], comparison.grid[y]
    xi, yi, pi = ({v: i for i, v in enumerate(vs)} for vs in (xs, ys, values_by))
    given = {o: np.zeros((len(values_by), len(ys), len(xs)), dtype=object) for o in outcomes}
    for o, xv, yv, bv, d in zip(df["outcome"], df[x], df[y], df[by], df["difference"]):
        if o in given:
            given[o][pi[bv], yi[yv], xi[xv]] = d
    changed = [o for o in outcomes if any(d != 0 for d in given[o].ravel())]
    shown = changed or outcomes[:1]
    unchanged = [o for o in outcomes if o not in changed]
    ncols, nrows = len(values_by), len(shown)
    width = 3.0 * ncols + 1.6
    fig = seam.Figure(figsize=(width, 2.6 * nrows + 1.3), layout="constrained")
    grid_axes = fig.subplots(nrows, ncols, squeeze=False)
    annotate = len(xs) <= 10 and len(xs) * len(ys) <= 120
    written = False
    for r, outcome in enumerate(shown):
        points = np.vectorize(lambda d: float(d) * 100, otypes=[float])(given[outcome])
        limit = float(np.abs(points).max()) or 1.0  # one scale for the row, centred on 0
        for c, value in enumerate(values_by):
            ax = grid_axes[r, c]
            im = ax.imshow(
                points[c],
                origin="lower",
                aspect="auto",
                cmap="RdBu_r",
                vmin=-limit,
                vmax=limit,
                extent=(-0.5, len(xs) - 0.5, -0.5, len(ys) - 0.5),
            )
            if annotate:
                for (i, j), d in np.ndenumerate(given[outcome][c]):
                    if d != 0:
                        written = True
                        ax.text(
                            j,
                            i,
                            points_text(d),
                            ha="center",
                            va="center",
                            fontsize=6.5,
                            color="white" if abs(points[c, i, j]) > 0.6 * limit else "black",
                        )
            step = max(1, math.ceil(len(xs) / 10))
            ax.set_xticks(range(0, len(xs), step), [str(v) for v in xs[::step]], fontsize=8)
            ax.set_yticks(range(len(ys)), [str(v) for v in ys], fontsize=8)
            ax.set_title(f"{_label(outcome)}, {_label(by)} {value}", fontsize=9)
            if r == nrows - 1:
                ax.set_xlabel(_label(x), fontsize=9)
            if c == 0:
                ax.set_ylabel(_label(y), fontsize=9)
        cb = fig.colorbar(im, ax=list(grid_axes[r]), shrink=0.9)
        cb.ax.tick_params(labelsize=8)
        cb.set_label("points", fontsize=8)
    what = f", one panel per {_label(by).lower()}"
    _caption(
        fig, comparison, at, width, what, ["each row on one colour scale centred on 0"], changed, unchanged, written
    )
    return fig


def variant_curves(
    variants,
    outcomes,
    x: str | None = None,
    panel: str | None = None,
    grid: dict | None = None,
    columns: int | None = None,
) -> Figure:
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
    columns : int, optional
        Panels per row (default: every value of ``panel`` in one row); more
        values wrap onto further rows, each outcome's panels together.

    The panels of one outcome share one y-scale, so the values of ``panel``
    compare at a glance.
    """
    if columns is not None and (isinstance(columns, bool) or not isinstance(columns, int) or columns < 1):
        raise ValueError(f"columns must be a whole number of panels, 1 or more, got {columns!r}")
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
            raise ValueError(f"{axis} must be one value here (it is neither x nor panel), got {spec_text(cells[axis])}")
    frames = sweep.tables(system, sets, cells)
    for o in outcomes:
        if o not in frames[0].columns:
            choices = [c for c in frames[0].columns if c not in system.axis_names]
            raise ValueError(f"unknown outcome {o!r}; choose from {', '.join(choices)}")
    panels = cells[panel] if panel else [None]
    per = 1 if columns is None else math.ceil(len(panels) / columns)  # rows of panels of one outcome
    across = math.ceil(len(panels) / per)  # the rows as even as they can be: 4 panels are 2 x 2
    fig = seam.Figure(figsize=(3.9 * across + 1.2, 2.9 * per * len(outcomes) + 1.0), layout="constrained")
    axs = fig.subplots(per * len(outcomes), across, squeeze=False, sharex=True)
    for r, outcome in enumerate(outcomes):
        first = axs[r * per, 0]
        for i, pv in enumerate(panels):
            row, c = r * per + i // across, i % across
            ax = axs[row, c]
            if ax is not first:  # one y-scale per outcome: its panels compare at a glance
                ax.sharey(first)
            for k, (rs, df) in enumerate(zip(sets, frames)):
                sub = df if panel is None else df[df[panel] == pv]
                ax.plot(sub[x], sub[outcome].astype(float) * 100, label=_name(rs.name), **_STYLES[k % len(_STYLES)])
            ax.grid(alpha=0.3)
            ax.xaxis.set_major_locator(seam.MaxNLocator(integer=True))
            if panel and (row == 0 or per > 1):
                ax.set_title(f"{_label(panel)} {pv}", fontsize=11)
            if c == 0:
                ax.set_ylabel(f"{_label(outcome)} (%)", fontsize=11)
            else:
                ax.tick_params(labelleft=False)
            if row == len(axs) - 1:
                ax.set_xlabel(_label(x), fontsize=11)
            ax.tick_params(labelsize=10)
        for i in range(len(panels), per * across):
            axs[r * per + i // across, i % across].set_visible(False)
    if per > 1:  # wrapped rows: every panel reads on its own, its x ticks under it
        for ax in axs.ravel():
            ax.tick_params(labelbottom=True)
    handles, labels = axs[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(4, len(sets)), fontsize=10)
    fixed = ", ".join(f"{_label(a)} {v[0]}" for a, v in cells.items() if a not in (x, panel))
    what = "house-rule variants" if len(sets) > 1 else _name(sets[0].name)
    fig.suptitle(f"{system.title}: {what}" + (f" ({fixed})" if fixed else ""), fontsize=12)
    return fig
