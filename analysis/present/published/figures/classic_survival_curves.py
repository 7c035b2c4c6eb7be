"""Survival curves: a vampire and a mortal under repeated classic blows, exactly."""

from __future__ import annotations

from typing import TYPE_CHECKING


from analysis.engine import seam
from analysis.systems.classic import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.systems.classic import health

if TYPE_CHECKING:
    from matplotlib.figure import Figure


#: A street fighter: Dexterity 3 + skill 2 to hit, Strength 3.
ATTACKS = (
    ("Knife (lethal): Dex 3 + Melee 2 to hit, Strength 3 + 1 damage", health.Attack(4, "lethal", attack_pool=5)),
    ("Fists (bashing): Dex 3 + Brawl 2 to hit, Strength 3 damage", health.Attack(3, "bashing", attack_pool=5)),
)
VICTIMS = (
    ("vampire, Stamina 3", health.Fighter("vampire", 3), "tab:red"),
    ("mortal, Stamina 2", health.Fighter("mortal", 2), "tab:blue"),
)


def make_figure(max_blows: int = 30) -> Figure:
    """Probability of still standing (not Incapacitated) and of not yet being in
    torpor or dead, after each blow; a blow may miss (attack roll at difficulty 6)."""
    fig = seam.Figure(figsize=(11, 5.2), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    for ax, (title, attack) in zip(axes, ATTACKS):
        for label, victim, color in VICTIMS:
            df = health.blows(attack, victim, max_blows).table()
            ax.step(
                df.blows,
                1 - df.incapacitated_or_worse,
                where="post",
                color=color,
                label=f"{label}: not yet Incapacitated",
            )
            worse = "in torpor" if victim.creature == "vampire" else "dead"
            ax.step(
                df.blows,
                1 - df.torpor_or_worse,
                where="post",
                color=color,
                linestyle="--",
                label=f"{label}: not yet {worse}",
            )
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("blows")
        ax.set_xlim(0, max_blows)
        ax.set_xticks(range(0, max_blows + 1, 2))
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("probability")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=8)
    fig.suptitle("Survival under repeated blows (exact Markov chain over the health track)")
    return fig
