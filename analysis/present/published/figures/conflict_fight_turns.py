"""When V5 fights turn: the turn a side is first Impaired and the turn it falls, for three matchups."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from analysis.engine import seam
from analysis.systems.v5 import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.systems.v5 import conflict, fight

if TYPE_CHECKING:
    from matplotlib.figure import Figure


#: (title, side A, side B): each side's pool, Health and damage as in the legend.
MATCHUPS = (
    (
        "Two neonates brawl\nA, B: vampires, 6 dice, Health 5",
        conflict.Combatant(6, hunger=1),
        conflict.Combatant(6, hunger=1),
    ),
    (
        "Claws against a knife\nA: vampire, 7 dice, Aggravated claws, Health 5\nB: mortal, 6 dice, knife +2, Health 6",
        conflict.Combatant(7, hunger=2, damage="aggravated"),
        conflict.Combatant(6, vampire=False, stamina=3, weapon=2),
    ),
    (
        "Two mortals fight\nA: 5 dice, Health 5; B: 4 dice, bat +1, Health 5",
        conflict.Combatant(5, vampire=False),
        conflict.Combatant(4, vampire=False, weapon=1),
    ),
)

COLORS = {"a": "#8c1c13", "b": "#2b5c8a", "both": "#8a8a8a"}


def make_figure(turns: int = 25) -> Figure:
    """Per matchup: bars of the turn of the first Impairment (top) and of torpor or death (bottom)."""
    fig = seam.Figure(figsize=(13, 7.4), layout="constrained")
    axes = fig.subplots(2, len(MATCHUPS), sharex=True)
    t = np.arange(1, turns + 1)
    for j, (title, a, b) in enumerate(MATCHUPS):
        r = fight.fight(a, b, turns=turns)
        words = {"a": f"A ({a.out_word})", "b": f"B ({b.out_word})"}
        for i, (kind, label) in enumerate((("impaired", "first Impaired"), ("out", "out first"))):
            ax = axes[i, j]
            bottom = np.zeros(turns)
            for who in ("a", "b", "both"):
                col = f"{who}_{kind}_first" if who != "both" else f"both_{kind}_together"
                cum = np.array([float(p) for p in r.columns[col]])
                per_turn = np.diff(cum) * 100
                name = f"A {label}" if who == "a" else f"B {label}" if who == "b" else "both on the same turn"
                if kind == "out" and who != "both":
                    name = f"{words[who]} {label}"
                ax.bar(t, per_turn, bottom=bottom, color=COLORS[who], width=0.85, label=f"{name}: {cum[-1]:.1%}")
                bottom += per_turn
            ax.set_ylim(0, bottom.max() * 1.4)  # room for the legend above the bars
            ax.set_xlim(0.3, min(turns, 20) + 0.7)
            ax.set_xticks(range(1, min(turns, 20) + 1, 2))
            ax.legend(fontsize=7.5, loc="upper right", frameon=False)
            ax.grid(axis="y", alpha=0.3)
        over = r.columns["over"]
        ends = (
            f"every fight over by turn {over.index(1)}"
            if over[-1] == 1
            else f"still going after turn {turns}: {float(1 - over[-1]):.1e}"
        )
        axes[0, j].set_title(title, fontsize=9)
        axes[1, j].set_xlabel(f"turn   (mean {float(r.expected_turns()):.2f} turns; {ends})", fontsize=8.5)
    axes[0, 0].set_ylabel("% of fights: first Impaired\n(-2 dice from then on)")
    axes[1, 0].set_ylabel("% of fights: out first\n(torpor or death)")
    fig.suptitle(
        "V5 fights turn by turn: exact odds from a Markov chain over both Health trackers "
        "(every way the dice can land, no simulation)",
        fontsize=11,
    )
    return fig
