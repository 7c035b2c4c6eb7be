"""Hunter: what Desperation dice buy (more wins) and what they cost (Overreach or Despair)."""

from __future__ import annotations

from typing import TYPE_CHECKING


from analysis.engine import seam
from analysis.systems.hunter import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.systems.hunter import desperation as hunter

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def make_figure(pools=range(1, 11), desperations=range(0, 6), difficulty: int = 3) -> Figure:
    """P(win) and P(a Desperation 1) by pool, one curve per number of Desperation dice."""
    pools, desperations = list(pools), list(desperations)
    df = hunter.table(pools, desperations, difficulty)
    fig = seam.Figure(figsize=(11, 4.2), layout="constrained")
    axes = fig.subplots(1, 2)
    for ax, col, title in (
        (axes[0], "p_win", f"P(win), Difficulty {difficulty}"),
        (axes[1], "despair", f"P(Despair on a failure), Difficulty {difficulty}"),
    ):
        for d in desperations:
            part = df[df.desperation == d]
            ax.plot(part["pool"], part[col] * 100, marker="o", ms=3, label=f"{d} Desperation")
        ax.set_title(title)
        ax.set_xlabel("pool (dice, before Desperation dice)")
        ax.set_ylabel("%")
    axes[0].set_ylim(0, 100)
    axes[0].legend(fontsize=8)
    fig.suptitle("Hunter: the Reckoning 5th edition: Desperation dice (exact odds)")
    return fig
