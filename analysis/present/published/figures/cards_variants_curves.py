"""Ten-card house rules side by side: the chance of each outcome against base, per variant and difficulty."""

from __future__ import annotations

from typing import TYPE_CHECKING


from analysis.systems.cards import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.present import plots
from analysis.workbench import rulesets

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def make_figure(
    outcomes=("success", "bestial_success", "bestial_failure"),
    bases: str = "0-20",
    difficulties: str = "10,14,18",
    hunger: int = 1,
) -> Figure:
    """Every shipped card variant: one curve each, a column of panels per difficulty."""
    variants = [rs.name for rs in rulesets.variants("cards")]
    return plots.variant_curves(
        variants,
        outcomes,
        x="base",
        panel="difficulty",
        grid={"base": bases, "difficulty": difficulties, "hunger": hunger},
    )
