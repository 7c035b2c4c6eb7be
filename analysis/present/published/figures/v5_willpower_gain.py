"""How much a Willpower reroll adds to the chance to win, per strategy, by pool and Hunger."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analysis.engine import seam
from analysis.systems.v5 import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.present.plots import percent_text
from analysis.systems.v5 import roll as v5

if TYPE_CHECKING:
    from matplotlib.figure import Figure


#: The strategies drawn, with the title a reader sees.
TITLES = {
    "reroll_failures": "Reroll failed dice (rule of thumb)",
    "maximize_win": "Best reroll for the win",
    "maximize_critical": "Best reroll for a critical",
    "avoid_messy": "Best reroll that never risks a messy critical",
}


def make_figure(difficulty: int = 3, pools=range(1, 16), hungers=range(0, 6)) -> Figure:
    pools, hungers = list(pools), list(hungers)
    base = v5.table(pools, hungers, difficulty, exact=True)  # each cell's text from its exact value
    fig = seam.Figure(figsize=(12, 7.5), layout="constrained")
    axes = fig.subplots(2, 2, sharex=True, sharey=True).ravel()
    grids = {}
    for name in TITLES:
        df = v5.table(pools, hungers, difficulty, strategy=name, exact=True)
        exact = (df.p_win - base.p_win).to_numpy().reshape(len(pools), len(hungers)).T
        spent = df.willpower_spent.to_numpy().reshape(len(pools), len(hungers)).T.astype(float)
        grids[name] = (exact, spent)
    limit = max(g.astype(float).max() for g, _ in grids.values()) * 100  # a reroll never lowers the chance
    for ax, (name, (exact, spent)) in zip(axes, grids.items()):
        gain = exact.astype(float)
        im = ax.imshow(
            gain * 100,
            origin="lower",
            aspect="auto",
            cmap="Blues",
            vmin=0,
            vmax=limit or 1,
            extent=(pools[0] - 0.5, pools[-1] + 0.5, hungers[0] - 0.5, hungers[-1] + 0.5),
        )
        for (i, j), v in np.ndenumerate(gain):
            ax.text(
                pools[j],
                hungers[i],
                percent_text(exact[i, j], signed=True),
                ha="center",
                va="center",
                fontsize=6.5,
                color="white" if v * 100 > 0.6 * limit else "black",
            )
        ax.set_title(f"{TITLES[name]}\nWillpower spent on {spent.mean():.0%} of rolls on average", fontsize=10)
        ax.set_xticks(pools)
    for ax in axes[2:]:
        ax.set_xlabel("pool (dice)")
    for ax in axes[::2]:
        ax.set_ylabel("Hunger")
    fig.colorbar(im, ax=axes, shrink=0.7, label="gain in the chance to win (percentage points)")
    fig.suptitle(f"V5 Willpower reroll, Difficulty {difficulty}: gain in the chance to win, exact")
    return fig
