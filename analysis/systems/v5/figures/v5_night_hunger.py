"""Hunger over one night of a vampire's unlife: the exact distribution after each step."""
from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from analysis.systems.v5 import rouse

#: A sample night for a Blood Potency 1 neonate starting at Hunger 1.
SAMPLE_NIGHT = ("wake", "discipline:1", "discipline:2", "surge", "mend", "mend", "blush",
                "feed:2", "discipline:3", "surge", "aggravated")


def make_figure(start_hunger: int = 1, steps=SAMPLE_NIGHT, blood_potency: int = 1) -> Figure:
    df = rouse.night(start_hunger, list(steps), blood_potency)
    probs = rouse.hunger_matrix(df)
    fig = Figure(figsize=(11, 4.8), layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(df))
    colors = ["#ffffff", "#e7e1ef", "#d4b9da", "#df65b0", "#ce1256", "#67001f"]
    bottom = np.zeros(len(df))
    for h in range(rouse.MAX_HUNGER + 1):
        ax.bar(x, probs[:, h], bottom=bottom, color=colors[h], edgecolor="grey", linewidth=0.3,
               label=f"Hunger {h}")
        bottom += probs[:, h]
    ax2 = ax.twinx()
    ax2.plot(x, df.mean_hunger, "k.-", label="mean Hunger")
    ax.plot(x, df.frenzy_test, "r--", lw=2, label="P(a hunger frenzy test so far)")
    ax2.set_ylim(0, 5)
    ax2.set_ylabel("mean Hunger")
    ax.set_xticks(x, df.label, rotation=30, ha="right")
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1)
    handles = ax.get_legend_handles_labels()
    more = ax2.get_legend_handles_labels()
    ax.legend(handles[0] + more[0], handles[1] + more[1], loc="upper left", bbox_to_anchor=(1.06, 1),
              fontsize=8)
    ax.set_title(f"Hunger over a night (start Hunger {start_hunger}, Blood Potency {blood_potency}), exact")
    return fig
