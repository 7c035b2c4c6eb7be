"""Werewolf: how often a roll turns Brutal, and what it does to a violent and a careful action."""

from __future__ import annotations

from typing import TYPE_CHECKING


from analysis.engine import seam
from analysis.systems.werewolf import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.present.plots import percent_text
from analysis.systems.werewolf import rage as werewolf

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def make_figure(pools=range(1, 11), rages=range(0, 6), difficulty: int = 3) -> Figure:
    """P(win) by pool for each Rage, violent and not, and P(Brutal) by Rage."""
    pools, rages = list(pools), list(rages)
    df = werewolf.table(pools, rages, difficulty, "0-1", exact=True)  # bar labels from exact values
    fig = seam.Figure(figsize=(13, 4.4), layout="constrained")
    axes = fig.subplots(1, 3)
    for ax, violent, title in (
        (axes[0], 0, "not violent: Brutal fails"),
        (axes[1], 1, "violent: Brutal adds 4 successes"),
    ):
        # Rages whose odds are exactly equal (Rage 0 and 1: Brutal needs two Rage dice) are one line, so
        # that no line hides under another
        same: dict[tuple, list] = {}
        for r in rages:
            part = df[(df.rage == r) & (df.violent == violent)]
            same.setdefault(tuple(part["p_win"]), []).append(r)
        for group in same.values():
            part = df[(df.rage == group[0]) & (df.violent == violent)]
            label = f"Rage {group[0]}" if len(group) == 1 else f"Rage {', '.join(map(str, group))} (the same odds)"
            ax.plot(
                part["pool"],
                part["p_win"].astype(float) * 100,
                marker="o",
                ms=3,
                color=f"C{rages.index(group[0])}",
                label=label,
            )
        ax.set_title(f"Chance to win, Difficulty {difficulty}\n{title}")
        ax.set_xlabel("pool (dice)")
        ax.set_ylabel("chance to win (%)")
        ax.set_ylim(0, 100)
        ax.legend(fontsize=8)
    top = max(pools)
    part = df[(df.pool == top) & (df.violent == 0)]
    axes[2].bar(part["rage"], part["p_brutal"].astype(float) * 100, color="#c0392b")
    for r, v in zip(part["rage"], part["p_brutal"]):
        axes[2].text(r, float(v) * 100, f"{percent_text(v, decimals=1)}%", ha="center", va="bottom", fontsize=9)
    axes[2].set_title(f"Chance of a Brutal outcome (pool {top})")
    axes[2].set_xlabel("Rage")
    axes[2].set_ylabel("chance of a Brutal outcome (%)")
    fig.suptitle("Werewolf: the Apocalypse 5th edition: Rage dice (exact odds, every way the dice can land)")
    return fig
