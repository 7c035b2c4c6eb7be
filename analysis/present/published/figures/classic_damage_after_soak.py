"""Heatmaps: health levels a classic damage roll takes after soak, by damage and soak dice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fractions import Fraction
from typing import Any, Callable

import numpy as np

from analysis.engine import seam
from analysis.systems.classic import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.present.plots import label_cells, percent_text
from analysis.systems.classic import health

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _one_decimal(v) -> str:
    """Mean levels with one decimal: exactly none is ``0``, a small non-zero mean ``<0.1``, never ``0.0``."""
    if v == 0:
        return "0"
    return "<0.1" if v < Fraction(1, 20) else f"{float(v):.1f}"


def make_figure(dice=range(1, 11), soaks=range(0, 9)) -> Figure:
    """Mean levels lost and the chance of at least one level, lethal and bashing (halved)."""
    dice, soaks = list(dice), list(soaks)
    panels = (
        ("lethal", "Lethal to a vampire\n(= bashing to a mortal)"),
        ("bashing", "Bashing to a vampire\n(halved after soak, rounded down)"),
    )
    fig = seam.Figure(figsize=(11, 8.4), layout="constrained")
    axes = fig.subplots(2, 2, sharex=True, sharey=True)
    for col, (kind, title) in enumerate(panels):
        odds = [[health.damage(n, 0, s, kind, "vampire") for n in dice] for s in soaks]
        # each cell's text from the exact value (a Fraction), its colour from the float
        mean = np.array([[o.mean_levels for o in row] for row in odds], dtype=object)
        any_level = np.array([[o.at_least(1) for o in row] for row in odds], dtype=object)
        rows: tuple[tuple[np.ndarray, str, Callable[[Any], str], str, int, int], ...] = (
            (mean, "mean health levels lost", _one_decimal, "Reds", 5, 1),
            (any_level, "chance of at least one level (%)", percent_text, "Oranges", 100, 100),
        )
        for row, (exact, label, fmt, cmap, vmax, scale) in enumerate(rows):
            grid = exact.astype(float) * scale
            ax = axes[row, col]
            im = ax.imshow(
                grid,
                origin="lower",
                aspect="auto",
                cmap=cmap,
                vmin=0,
                vmax=vmax,
                extent=(dice[0] - 0.5, dice[-1] + 0.5, soaks[0] - 0.5, soaks[-1] + 0.5),
            )
            label_cells(ax, grid, exact, dice, soaks, fmt, fontsize=7, dark=vmax * 0.6)
            ax.set_title(f"{title}: {label}", fontsize=9)
            ax.set_xticks(dice)
            ax.set_yticks(soaks)
            if row == 1:
                ax.set_xlabel("damage dice (Strength + weapon + extra successes)")
            if col == 0:
                ax.set_ylabel("soak dice (Stamina + Fortitude)")
            if col == 1:
                fig.colorbar(im, ax=axes[row, :], shrink=0.85)
    fig.suptitle("Classic damage after soak, difficulty 6 (exact; no automatic successes)")
    return fig
