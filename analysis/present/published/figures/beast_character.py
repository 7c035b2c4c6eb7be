"""One character's odds on one pool at every current Vitae, under La Soif."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analysis.engine import seam
from analysis.systems.requiem import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.systems.requiem import beast

if TYPE_CHECKING:
    from matplotlib.figure import Figure


_COLORS = {
    "dramatic_failure": "#3b3b3b",
    "bestial_failure": "#7b3294",
    "failure": "#c2a5cf",
    "plain_success": "#a6dba0",
    "exceptional_success": "#008837",
}


def make_figure(
    max_vitae: int = 11,
    resolve: int = 3,
    composure: int = 2,
    blood_potency: int = 2,
    pool: int = 6,
    mode: str = "written",
    tempt: bool = False,
) -> Figure:
    """Stacked outcome classes by current Vitae, the beastly critical marked.

    Defaults: the house rule's first vampire (Blood Potency 2, Resolve 3,
    Composure 2, 11 Vitae; ladder 5/4/3/3/2/2/1/1) rolling 6 dice.
    """
    ladder = beast.soif_ladder(max_vitae, resolve, composure, blood_potency, mode=mode)
    df = beast.character_table(ladder, pool, tempt=tempt)
    x = np.arange(len(df))
    fig = seam.Figure(figsize=(10, 5.2), layout="constrained")
    ax = fig.subplots()
    bottom = np.zeros(len(df))
    for name in beast.CLASSES:
        values = df[name].to_numpy() * 100
        if not values.any():
            continue
        ax.bar(x, values, bottom=bottom, color=_COLORS[name], width=0.85, label=name.replace("_", " "))
        bottom += values
    ax.plot(
        x, df.p_beastly_critical * 100, "o-", color="#d7191c", lw=2, label="beastly critical (part of the successes)"
    )
    ax.set_xticks(x, [f"{v}\nSoif {s}" for v, s in zip(df.vitae, df.soif)], fontsize=8)
    ax.set_xlabel("current Vitae (full to empty) and the Soif it gives")
    ax.set_ylabel("chance (%)")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)
    how = ", tempting the Beast" if tempt else ""
    fig.suptitle(
        f"Vampire: BP {blood_potency}, Resolve {resolve}, Composure {composure}, "
        f"{max_vitae} Vitae (ladder {ladder.notation()}): a {pool}-dice roll{how}"
    )
    return fig
