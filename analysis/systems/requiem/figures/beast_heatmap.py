"""Heatmaps: how often the Beast shows under La Soif, by pool and Soif."""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from analysis.systems.requiem import beast


def make_figure(pools=range(1, 21), soifs=range(0, 6), tempt: bool = False) -> Figure:
    """Bestial failure, beastly critical and exceptional success chances."""
    pools, soifs = list(pools), list(soifs)
    df = beast.table(pools, soifs, tempt=tempt)
    fig = Figure(figsize=(14, 4.6), layout="constrained")
    axes = fig.subplots(1, 3, sharey=True)
    for ax, col, title, cmap in (
        (axes[0], "bestial_failure", "Bestial failure", "Purples"),
        (axes[1], "p_beastly_critical", "Beastly critical", "Reds"),
        (axes[2], "exceptional_success", "Exceptional success (5+)", "Greens"),
    ):
        grid = df.pivot(index="soif", columns="pool", values=col).loc[soifs, pools].to_numpy()
        im = ax.imshow(grid * 100, origin="lower", aspect="auto", cmap=cmap, vmin=0,
                       extent=(pools[0] - 0.5, pools[-1] + 0.5, soifs[0] - 0.5, soifs[-1] + 0.5))
        for (i, j), v in np.ndenumerate(grid):
            ax.text(pools[j], soifs[i], f"{v * 100:.0f}", ha="center", va="center", fontsize=6.5,
                    color="white" if v > grid.max() * 0.6 else "black")
        ax.set_title(f"{title} (%)")
        ax.set_xlabel("pool (dice)")
        ax.set_xticks(pools[::2] if len(pools) > 12 else pools)
        fig.colorbar(im, ax=ax, shrink=0.85)
    axes[0].set_ylabel("Soif")
    how = ", tempting the Beast" if tempt else ""
    fig.suptitle(f"La Soif on Requiem dice (8+, 10-again){how}: exact odds")
    return fig
