"""V5 house rules side by side: messy criticals, bestial failures and wins against pool, per variant and Hunger."""

from __future__ import annotations

from typing import TYPE_CHECKING


from analysis.systems.v5 import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.present import plots
from analysis.workbench import rulesets

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def make_figure(
    outcomes=("messy_critical", "bestial_failure", "p_win"),
    pools: str = "1-15",
    hungers: str = "1,3,5",
    difficulty: int = 3,
) -> Figure:
    """Every shipped V5 variant of the roll: one curve each, a column of panels per Hunger.

    Variants that change only another mechanic (a ``[rouse]`` or
    ``[conflict]`` table) roll as the official rules and are left out.
    """
    variants = [rs.name for rs in rulesets.variants("v5") if not rs.sub_rules]
    return plots.variant_curves(
        variants, outcomes, x="pool", panel="hunger", grid={"pool": pools, "hunger": hungers, "difficulty": difficulty}
    )
