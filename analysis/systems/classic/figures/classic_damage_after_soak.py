"""Heatmaps: health levels a classic damage roll takes after soak, by damage and soak dice."""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from analysis.systems.classic import health


def _percent(v: float) -> str:
    """A whole percentage that never shows 0 or 100 for what is merely near them."""
    if 0 < v < 0.5:
        return "<1"
    if 99.5 <= v < 100:
        return ">99"
    return f"{v:.0f}"


def _one_decimal(v: float) -> str:
    return "<0.1" if 0 < v < 0.05 else f"{v:.1f}"


def make_figure(dice=range(1, 11), soaks=range(0, 9)) -> Figure:
    """Mean levels lost and the chance of at least one level, lethal and bashing (halved)."""
    dice, soaks = list(dice), list(soaks)
    panels = (
        ("lethal", "Lethal to a vampire\n(= bashing to a mortal)"),
        ("bashing", "Bashing to a vampire\n(halved after soak, rounded down)"),
    )
    fig = Figure(figsize=(11, 8.4), layout="constrained")
    axes = fig.subplots(2, 2, sharex=True, sharey=True)
    for col, (kind, title) in enumerate(panels):
        odds = [[health.damage(n, 0, s, kind, "vampire") for n in dice] for s in soaks]
        mean = np.array([[float(o.mean_levels) for o in row] for row in odds])
        any_level = np.array([[float(o.at_least(1)) for o in row] for row in odds]) * 100
        for row, (grid, label, fmt, cmap, vmax) in enumerate((
                (mean, "mean health levels lost", _one_decimal, "Reds", 5),
                (any_level, "chance of at least one level (%)", _percent, "Oranges", 100))):
            ax = axes[row, col]
            im = ax.imshow(grid, origin="lower", aspect="auto", cmap=cmap, vmin=0, vmax=vmax,
                           extent=(dice[0] - 0.5, dice[-1] + 0.5, soaks[0] - 0.5, soaks[-1] + 0.5))
            for (i, j), v in np.ndenumerate(grid):
                ax.text(dice[j], soaks[i], fmt(v), ha="center", va="center", fontsize=7,
                        color="white" if v > vmax * 0.6 else "black")
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
