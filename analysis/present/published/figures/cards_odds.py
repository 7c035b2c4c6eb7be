"""Ten-card tests: the chance to win by base and difficulty, and where the Beast shows."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analysis.engine import seam
from analysis.systems.cards import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.present.plots import percent_text
from analysis.systems.cards import deck as cards

if TYPE_CHECKING:
    from matplotlib.figure import Figure


_COLORS = {"success": "#4c9a5b", "bestial_success": "#c0392b", "bestial_failure": "#6c3483", "failure": "#b8b8b8"}
_LABELS = {
    "success": "success",
    "bestial_success": "bestial success",
    "bestial_failure": "bestial failure",
    "failure": "failure",
}


def make_figure(bases=range(0, 16), difficulties=range(4, 26), hunger: int = 1) -> Figure:
    """Left: P(win) by (base, difficulty).  Right: the four classes by the card needed."""
    bases, difficulties = list(bases), list(difficulties)
    df = cards.table(bases, difficulties, 0, exact=True)  # each cell's text from its exact value
    exact = df.pivot(index="difficulty", columns="base", values="p_success").loc[difficulties, bases]
    grid = exact.astype(float)
    fig = seam.Figure(figsize=(12, 5.2), layout="constrained")
    ax, bx = fig.subplots(1, 2, width_ratios=[1.25, 1])

    im = ax.imshow(
        grid.to_numpy() * 100,
        origin="lower",
        aspect="auto",
        cmap="Greens",
        vmin=0,
        vmax=100,
        extent=(bases[0] - 0.5, bases[-1] + 0.5, difficulties[0] - 0.5, difficulties[-1] + 0.5),
    )
    for (i, j), v in np.ndenumerate(grid.to_numpy()):
        ax.text(
            bases[j],
            difficulties[i],
            percent_text(exact.iat[i, j]),
            ha="center",
            va="center",
            fontsize=6.5,
            color="white" if v > 0.6 else "black",
        )
    ax.set_xticks(bases)
    ax.set_yticks(difficulties, [str(d) for d in difficulties], fontsize=7)
    ax.set_xlabel("base = attribute + 2 x skill - penalties")
    ax.set_ylabel("difficulty")
    ax.set_title("Chance to win (%), any Hunger")
    fig.colorbar(im, ax=ax, shrink=0.85, label="chance to win (%)")

    needed = list(range(2, 12))
    odds = [cards.odds(20, 20 + m, hunger) for m in needed]
    bottom = np.zeros(len(needed))
    for cls in ("success", "bestial_success", "bestial_failure", "failure"):
        vals = np.array([float(getattr(o, cls)) for o in odds]) * 100
        bx.bar(needed, vals, bottom=bottom, color=_COLORS[cls], label=_LABELS[cls], width=0.75)
        bottom += vals
    bx.set_xticks(needed, [str(m) if m < 11 else "11+" for m in needed])
    bx.set_xlabel("card needed (difficulty - base); 2 or less: anything but the Ace")
    bx.set_ylabel("chance (%)")
    bx.set_ylim(0, 100)
    bx.set_title(f"Hunger {hunger}: bestial 1 in 45 (10 then Ace, Ace then 10)")
    bx.legend(loc="upper right", fontsize=8, framealpha=0.9)
    fig.suptitle("Ten-card tests: exact odds over every ordered draw")
    return fig
