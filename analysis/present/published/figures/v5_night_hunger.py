"""Hunger over one night of a vampire's unlife: the exact distribution after each step."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analysis.engine import seam
from analysis.systems.v5 import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.systems.v5 import rouse

if TYPE_CHECKING:
    from matplotlib.figure import Figure


#: A sample night for a Blood Potency 1 neonate starting at Hunger 1.
SAMPLE_NIGHT = (
    "wake",
    "discipline:1",
    "discipline:2",
    "surge",
    "mend",
    "mend",
    "blush",
    "feed:2",
    "discipline:3",
    "surge",
    "aggravated",
)


#: One colour per Hunger 0..5, from pale to dark (ColorBrewer PuRd): none of them white.
COLOURS = ("#f1eef6", "#d4b9da", "#c994c7", "#df65b0", "#dd1c77", "#980043")


def step_title(step: str) -> str:
    """What a reader sees under a step of the night: ``"feed:2"`` is "feed\n(slake 2)"."""
    name, _, arg = step.partition(":")
    titles = {
        "dusk": "dusk\n(start)",
        "wake": "wake up\n(Rouse)",
        "surge": "Blood Surge",
        "mend": "mend\ndamage",
        "blush": "Blush\nof Life",
        "kill": "feed\nto the death",
        "aggravated": "heal\nAggravated",
    }
    if name == "discipline":
        return f"Discipline\nlevel {arg}"
    if name == "feed":
        return f"feed\n(slake {arg})"
    return titles.get(name, step)


def make_figure(start_hunger: int = 1, steps=SAMPLE_NIGHT, blood_potency: int = 1) -> Figure:
    df = rouse.night(start_hunger, list(steps), blood_potency)
    probs = rouse.hunger_matrix(df)
    fig = seam.Figure(figsize=(11, 4.8), layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(df))
    bottom = np.zeros(len(df))
    for h in range(rouse.MAX_HUNGER + 1):
        # a dark edge round every bar: the palest colour (Hunger 0) stays visible, in its legend too
        ax.bar(x, probs[:, h], bottom=bottom, color=COLOURS[h], edgecolor="0.35", linewidth=0.6, label=f"Hunger {h}")
        bottom += probs[:, h]
    ax2 = ax.twinx()
    ax2.plot(x, df.mean_hunger, "k.-", label="mean Hunger")
    ax.plot(x, df.frenzy_test, "r--", lw=2, label="P(a hunger frenzy test so far)")
    ax2.set_ylim(0, 5)
    ax2.set_ylabel("mean Hunger")
    ax.set_xticks(x, [step_title(label) for label in df.label], fontsize=8)
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1)
    handles = ax.get_legend_handles_labels()
    more = ax2.get_legend_handles_labels()
    ax.legend(handles[0] + more[0], handles[1] + more[1], loc="upper left", bbox_to_anchor=(1.06, 1), fontsize=8)
    ax.set_title(f"Hunger over a night (start Hunger {start_hunger}, Blood Potency {blood_potency}), exact")
    return fig
