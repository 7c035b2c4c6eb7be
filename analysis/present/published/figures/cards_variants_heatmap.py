"""Ten-card house rules: what an Ace that counts 11 changes, by base and difficulty."""

from __future__ import annotations

from typing import TYPE_CHECKING


from analysis.systems.cards import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.present import plots, tables

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def make_figure(
    a: str = "cards-official",
    b: str = "cards-ace-high",
    bases: str = "0-12",
    difficulties: str = "8-22",
    hunger: int = 1,
) -> Figure:
    """The difference heatmap (b - a, percentage points) per outcome class at one Hunger."""
    # exact differences: a change that is the same in every cell is said once, in the panel's title
    comparison = tables.compare(a, b, {"base": bases, "difficulty": difficulties, "hunger": hunger}, exact=True)
    return plots.difference_heatmap(comparison, x="base", y="difficulty")
