"""Heatmaps: how often the Beast shows in a V5 roll, by pool and Hunger."""

from __future__ import annotations

from typing import TYPE_CHECKING


from analysis.engine import seam
from analysis.systems.v5 import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.present.plots import label_cells
from analysis.systems.v5 import roll as v5

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def make_figure(difficulty: int = 3, pools=range(1, 21), hungers=range(0, 6)) -> Figure:
    """Messy critical and bestial failure chances at one Difficulty."""
    pools, hungers = list(pools), list(hungers)
    df = v5.table(pools, hungers, difficulty, exact=True)  # each cell's text from its exact value
    # one panel above the other: each as wide as the page, so every cell's text fits ("<0.1")
    fig = seam.Figure(figsize=(11, 7.4), layout="constrained")
    axes = fig.subplots(2, 1, sharex=True)
    for ax, col, title, cmap in (
        (axes[0], "messy_critical", "Messy critical", "Reds"),
        (axes[1], "bestial_failure", "Bestial failure", "Purples"),
    ):
        exact = df.pivot(index="hunger", columns="pool", values=col).loc[hungers, pools].to_numpy()
        grid = exact.astype(float)
        im = ax.imshow(
            grid * 100,
            origin="lower",
            aspect="auto",
            cmap=cmap,
            extent=(pools[0] - 0.5, pools[-1] + 0.5, hungers[0] - 0.5, hungers[-1] + 0.5),
        )
        label_cells(ax, grid, exact, pools, hungers)
        ax.set_title(f"{title}, Difficulty {difficulty} (%)")
        ax.set_ylabel("Hunger")
        ax.set_xticks(pools)
        fig.colorbar(im, ax=ax, shrink=0.85)
    axes[-1].set_xlabel("pool (dice)")
    fig.suptitle("V5: where the Beast lives (exact odds, every way the dice can land)")
    return fig
