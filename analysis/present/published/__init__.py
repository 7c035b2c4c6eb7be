"""What ``make`` publishes of each system: its odds tables and its figures, one plain import each.

* :data:`TABLES`: modules with ``make_tables()``, ``{name: (DataFrame, key columns)}`` (``make
  tables`` writes each as CSV and Markdown under ``figures/tables/``); a module may give its tables
  readable titles (``TITLES``), legend lines (``LEGENDS``) and the rule set each was computed with
  (``RULE_SETS``), which the booklet shows;
* :data:`FIGURES`: modules with ``make_figure()``, a matplotlib Figure (``make figures`` writes
  ``figures/NAME.png``; matplotlib is reached through :mod:`analysis.engine.seam`, so listing them loads
  none).

Each names the system it is of (``SYSTEM``): the booklet shows it in that system's section, and its
columns are explained in that system's words.  They sit above the systems, the comparisons across
them (:mod:`analysis.versus`) and the plots.  A new table or figure is a module in ``tables/`` or
``figures/`` and its line here.
"""

from __future__ import annotations

import types

from analysis.model.system import System
from analysis.present.published.figures import (
    beast_character,
    beast_heatmap,
    beast_vs_v5,
    cards_odds,
    cards_scene,
    cards_variants_curves,
    cards_variants_heatmap,
    cards_vs_v5,
    classic_damage_after_soak,
    classic_survival_curves,
    conflict_fight_turns,
    hunter_desperation,
    v5_beast_heatmap,
    v5_night_hunger,
    v5_variants_curves,
    v5_variants_heatmap,
    v5_willpower_gain,
    werewolf_brutal,
)
from analysis.present.published.tables import beast, cards, classic, v5, v5_night

#: The modules of the published tables (``make_tables()``).
TABLES = (beast, cards, classic, v5, v5_night)
#: The modules of the figures (``make_figure()``).
FIGURES = (
    beast_character,
    beast_heatmap,
    beast_vs_v5,
    cards_odds,
    cards_scene,
    cards_variants_curves,
    cards_variants_heatmap,
    cards_vs_v5,
    classic_damage_after_soak,
    classic_survival_curves,
    conflict_fight_turns,
    hunter_desperation,
    v5_beast_heatmap,
    v5_night_hunger,
    v5_variants_curves,
    v5_variants_heatmap,
    v5_willpower_gain,
    werewolf_brutal,
)


def name(module: types.ModuleType) -> str:
    """A published module's name: its file's (``v5_night``), which names its figure and ``make`` takes."""
    return module.__name__.rpartition(".")[2]


def modules(kind: str, system: System | None = None) -> list[tuple[str, types.ModuleType]]:
    """``[(name, module)]`` of the ``"tables"`` or ``"figures"`` modules (of one system), sorted by name.

    Two modules of one kind may not share a name (each names the files ``make`` writes)."""
    listed = {"tables": TABLES, "figures": FIGURES}[kind]
    found: dict[str, types.ModuleType] = {}
    for module in listed:
        if name(module) in found:
            raise ValueError(
                f"two {kind} modules are named {name(module)}: {found[name(module)].__name__} and {module.__name__}"
            )
        found[name(module)] = module
    return [(n, found[n]) for n in sorted(found) if system is None or found[n].SYSTEM.name == system.name]
