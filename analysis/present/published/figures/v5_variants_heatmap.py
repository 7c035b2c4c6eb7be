"""V5 house rules: how two Hunger 1s for a bestial failure move every outcome class, by pool and Hunger."""

from __future__ import annotations

from typing import TYPE_CHECKING


from analysis.systems.v5 import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.present import plots, tables

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def make_figure(
    a: str = "v5-official",
    b: str = "v5-two-hunger-ones-for-bestial",
    pools: str = "1-15",
    hungers: str = "0-5",
    difficulty: int = 3,
) -> Figure:
    """The difference heatmap (b - a, percentage points) per outcome class at one Difficulty."""
    comparison = tables.compare(
        a, b, {"pool": pools, "hunger": hungers, "difficulty": difficulty}, exact=True
    )  # each cell's text from its exact difference
    return plots.difference_heatmap(comparison, x="pool", y="hunger")
