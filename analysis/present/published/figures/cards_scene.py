"""Ten-card scenes: how one deck that is not reshuffled shifts the odds of later tests."""

from __future__ import annotations

from typing import TYPE_CHECKING


from analysis.engine import seam
from analysis.systems.cards import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.systems.cards import deck as cards

if TYPE_CHECKING:
    from matplotlib.figure import Figure


_SCENE = cards.CardRules(reshuffle=False)


def make_figure(base: int = 20, hunger: int = 1, lengths=range(1, 13)) -> Figure:
    """Left: the second test given the first, by the card needed.  Right: Compulsions in a scene."""
    fig = seam.Figure(figsize=(12, 4.8), layout="constrained")
    ax, bx = fig.subplots(1, 2)

    needed = list(range(2, 11))
    after_win, after_loss, alone = [], [], []
    for m in needed:
        s = cards.scene([(base, base + m, hunger)] * 2, _SCENE)
        alone.append(float(s.p_win(2)) * 100)
        after_win.append(float(s.after(2, "win")) * 100)
        after_loss.append(float(s.after(2, "loss")) * 100)
    ax.plot(needed, alone, "k-", lw=2, label="reshuffled, or not knowing test 1")
    ax.plot(needed, after_win, "o-", color="#c0392b", label="scene deck, test 1 won")
    ax.plot(needed, after_loss, "s-", color="#2471a3", label="scene deck, test 1 lost")
    ax.set_xticks(needed)
    ax.set_xlabel("card needed by both tests (difficulty - base)")
    ax.set_ylabel("chance to win test 2 (%)")
    ax.set_title("Two equal tests from one deck: a win takes a high card away")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)

    lengths = list(lengths)
    for rules, style, name in ((cards.CardRules(), "--", "reshuffled"), (_SCENE, "-", "scene deck")):
        one, two = [], []
        for n in lengths:
            dist = cards.scene([(6, 12, hunger)] * n, rules).compulsions
            one.append(float(1 - dist.get(0, 0)) * 100)
            two.append(float(sum(p for b, p in dist.items() if b >= 2)) * 100)
        bx.plot(lengths, one, style, marker="o", color="#6c3483", label=f"{name}: at least one")
        bx.plot(lengths, two, style, marker="^", color="#e67e22", label=f"{name}: two or more")
    if 9 in lengths:
        bx.annotate(
            "from test 9 on, the deck can be down to\nthe 10 and the Ace: a sure Compulsion",
            xy=(9, one[lengths.index(9)]),
            xytext=(1.2, 22),
            fontsize=8,
            arrowprops=dict(arrowstyle="->", color="0.3"),
        )
    bx.set_xticks(lengths)
    bx.set_xlabel(f"hungry tests in the scene (Hunger {hunger})")
    bx.set_ylabel("chance (%)")
    bx.set_title("Compulsions per scene: one deck holds one 10 and one Ace")
    bx.legend(fontsize=8)
    bx.grid(alpha=0.3)
    fig.suptitle("Ten-card scenes without reshuffling (exact, over the deck's states)")
    return fig
