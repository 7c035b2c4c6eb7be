"""Plain Requiem, La Soif and V5 Hunger side by side, by pool and level."""

from __future__ import annotations

from typing import TYPE_CHECKING


from analysis.engine import seam
from analysis.systems.requiem import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.versus import requiem_v5

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def make_figure(pools=range(1, 13), levels=(1, 3, 5), v5_difficulty: int = 1) -> Figure:
    """Top: chance of success.  Bottom: how often the Beast shows."""
    pools, levels = list(pools), list(levels)
    df = requiem_v5.compare_table(pools, levels, v5_difficulty=v5_difficulty)
    fig = seam.Figure(figsize=(15, 7), layout="constrained")
    axes = fig.subplots(2, len(levels), sharex=True, sharey="row", squeeze=False)
    for j, level in enumerate(levels):
        d = df[df.level == level]
        top, bottom = axes[0, j], axes[1, j]
        top.plot(d.pool, d.requiem_success * 100, "k-", lw=2.5, label="Requiem = La Soif: success")
        top.plot(d.pool, d.v5_win * 100, "C0--", label=f"V5: win (Difficulty {v5_difficulty})")
        top.plot(d.pool, d.requiem_exceptional * 100, "k:", label="Requiem: exceptional (5+)")
        top.plot(d.pool, d.la_soif_exceptional * 100, "C2-", label="La Soif: exceptional (5+)")
        top.plot(d.pool, d.v5_critical * 100, "C0:", label="V5: critical win")
        top.set_title(f"Soif / Hunger {level}")
        bottom.plot(d.pool, d.la_soif_beastly_critical * 100, "C3-", lw=2, label="La Soif: beastly critical")
        bottom.plot(d.pool, d.la_soif_bestial_failure * 100, "C4-", lw=2, label="La Soif: bestial failure")
        bottom.plot(d.pool, d.v5_messy_critical * 100, "C3--", label="V5: messy critical")
        bottom.plot(d.pool, d.v5_bestial_failure * 100, "C4--", label="V5: bestial failure")
        bottom.set_xlabel("pool (dice)")
        for ax in (top, bottom):
            ax.grid(alpha=0.3)
            ax.set_xticks(pools)
    axes[0, 0].set_ylabel("chance (%)")
    axes[1, 0].set_ylabel("the Beast shows (%)")
    for ax in axes[:, -1]:
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), fontsize=8, frameon=False)
    fig.suptitle("Plain Requiem, La Soif (Beast dice) and V5 (Hunger dice) at the same level: exact odds")
    return fig
