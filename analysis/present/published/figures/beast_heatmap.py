"""Heatmaps: how often the Beast shows under La Soif, by pool and Soif."""

from __future__ import annotations

from typing import TYPE_CHECKING


from analysis.engine import seam
from analysis.systems.requiem import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.present.plots import label_cells
from analysis.systems.requiem import beast

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def make_figure(pools=range(1, 21), soifs=range(0, 6), tempt: bool = False) -> Figure:
    """Bestial failure, beastly critical and exceptional success chances."""
    pools, soifs = list(pools), list(soifs)
    df = beast.table(pools, soifs, tempt=tempt, exact=True)  # each cell's text from its exact value
    # one panel above the other: each as wide as the page, so every cell's text fits ("<0.1")
    fig = seam.Figure(figsize=(11, 10.5), layout="constrained")
    axes = fig.subplots(3, 1, sharex=True)
    for ax, col, title, cmap in (
        (axes[0], "bestial_failure", "Bestial failure", "Purples"),
        (axes[1], "p_beastly_critical", "Beastly critical", "Reds"),
        (axes[2], "exceptional_success", "Exceptional success (5+)", "Greens"),
    ):
        exact = df.pivot(index="soif", columns="pool", values=col).loc[soifs, pools].to_numpy()
        grid = exact.astype(float)
        im = ax.imshow(
            grid * 100,
            origin="lower",
            aspect="auto",
            cmap=cmap,
            vmin=0,
            extent=(pools[0] - 0.5, pools[-1] + 0.5, soifs[0] - 0.5, soifs[-1] + 0.5),
        )
        label_cells(ax, grid, exact, pools, soifs)
        ax.set_title(f"{title} (%)")
        ax.set_ylabel("Soif")
        ax.set_xticks(pools)
        fig.colorbar(im, ax=ax, shrink=0.85)
    axes[-1].set_xlabel("pool (dice)")
    how = ", tempting the Beast" if tempt else ""
    fig.suptitle(f"La Soif on Requiem dice (8+, 10-again){how}: exact odds")
    return fig
