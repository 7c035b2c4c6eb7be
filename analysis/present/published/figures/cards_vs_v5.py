"""Ten-card tests against V5 dice: the matching card test, and how often the Beast shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analysis.engine import seam
from analysis.systems.cards import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.present.plots import percent_text
from analysis.systems.cards import deck as cards
from analysis.versus import cards_v5
from analysis.systems.v5 import roll as v5

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def make_figure(
    pools=range(1, 13),
    difficulties=range(1, 6),
    card_difficulty: int = 12,
    beast_pools=(3, 5, 7, 10),
    beast_difficulty: int = 3,
) -> Figure:
    """Left: V5's chance to win with the nearest card test's base in each cell.
    Right: the chance that the Beast shows, by Hunger, V5 against cards."""
    pools, difficulties = list(pools), list(difficulties)
    # exact: each cell's text from its exact value, never a 100% that is merely near it
    df = cards_v5.compare_v5(pools, difficulties, 0, card_difficulty=card_difficulty, exact=True)
    win = df.pivot(index="difficulty", columns="pool", values="v5_win").loc[difficulties, pools]
    base = df.pivot(index="difficulty", columns="pool", values="card_base").loc[difficulties, pools]
    card = df.pivot(index="difficulty", columns="pool", values="card_win").loc[difficulties, pools]

    fig = seam.Figure(figsize=(13, 5), layout="constrained")
    ax, bx = fig.subplots(1, 2, width_ratios=[1.35, 1])
    im = ax.imshow(
        win.to_numpy().astype(float) * 100,
        origin="lower",
        aspect="auto",
        cmap="Greens",
        vmin=0,
        vmax=100,
        extent=(pools[0] - 0.5, pools[-1] + 0.5, difficulties[0] - 0.5, difficulties[-1] + 0.5),
    )
    for (i, j), v in np.ndenumerate(win.to_numpy()):
        ax.text(
            pools[j],
            difficulties[i],
            f"{percent_text(v)}%\nbase {base.iat[i, j]}\n{percent_text(card.iat[i, j])}%",
            ha="center",
            va="center",
            fontsize=6.5,
            color="white" if v > 0.6 else "black",
        )
    ax.set_xticks(pools)
    ax.set_yticks(difficulties)
    ax.set_xlabel("V5 pool (dice)")
    ax.set_ylabel("V5 Difficulty")
    ax.set_title(f"V5 win % / nearest card test: base vs difficulty {card_difficulty} / its win %", fontsize=10)
    fig.colorbar(im, ax=ax, shrink=0.85, label="V5 chance to win (%)")

    hungers = list(range(0, 6))
    for pool in beast_pools:
        beast = [
            float(o.messy_critical + o.bestial_failure) * 100
            for o in (v5.odds(pool, h, beast_difficulty) for h in hungers)
        ]
        bx.plot(hungers, beast, "o-", label=f"V5 pool {pool}, Difficulty {beast_difficulty}")
    card_beast = [float(cards.odds(6, 12, h).p_bestial) * 100 for h in hungers]
    bx.plot(hungers, card_beast, "s-", color="black", lw=2.5, label="card test (any base): 1 in 45")
    bx.set_xticks(hungers)
    bx.set_xlabel("Hunger")
    bx.set_ylabel("messy critical or bestial failure / bestial result (%)")
    bx.set_title("How often the Beast shows in one test")
    bx.legend(fontsize=8)
    bx.grid(alpha=0.3)
    fig.suptitle("Ten cards against V5 dice (exact odds)")
    return fig
