"""beastodds: exact odds for the dice and card systems of vampire tabletop games.

The names a notebook uses are importable from here (``__all__``)::

    import analysis as bo

    rs = bo.load("my-house-rule.toml")                  # a rule set or a mechanic file
    names = [r.name for r in bo.variants("v5")]         # the shipped rule sets (of one system)
    df = bo.table(rs, {"pool": "1-10", "hunger": "0-5", "difficulty": 3}, exact=True)
    d = bo.distribution_table("v5-official", {"pool": "7", "hunger": "2", "difficulty": "3"})
    c = bo.compare("v5-official", rs, {"pool": "1-10"})  # c.table, c.top(5)
    s = bo.solve("v5", "pool", "p_win>=0.7", hunger=2, difficulty=4)
    fig = bo.difference_heatmap(c)

Each is loaded when first used, so ``import analysis`` loads neither numba
nor matplotlib: the counting kernels are compiled or loaded when a count needs
them, matplotlib when a figure is drawn.  Every probability is an exact
``fractions.Fraction`` (``exact=True``) or the float of one.

Inside, a folder a layer: the model (``analysis.model``: the mechanic file
format, expressions, rules, what a system is, input checks, values as text);
the engine (``analysis.engine``: one exact walk over every mechanic file,
Willpower, decks, Markov chains, exact arithmetic, and the seam that loads the
compiled kernels when a count needs them); each game system a package under
``analysis.systems``; the rule sets of every system and the questions asked of
them (table, compare, solve) in ``analysis.workbench``; comparisons across
systems in ``analysis.versus``; tables, formats, plots, the booklet and the
page in ``analysis.present``; the ``beastodds`` command in ``analysis.cli``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: The one place the version is written (``pyproject.toml`` reads it from here).
__version__ = "0.1.0"

#: Each public name: the module that defines it (imported when the name is first used).
_PUBLIC = {
    "load": "analysis.workbench.rulesets",
    "RuleSet": "analysis.workbench.rulesets",
    "variants": "analysis.workbench.rulesets",
    "table": "analysis.workbench.sweep",
    "distribution_table": "analysis.workbench.sweep",
    "compare": "analysis.workbench.compare",
    "Comparison": "analysis.workbench.compare",
    "solve": "analysis.workbench.solve",
    "render": "analysis.present.formats.render",
    "difference_heatmap": "analysis.present.plots",
    "variant_curves": "analysis.present.plots",
    "explorer": "analysis.present.explore",
}

__all__ = ["__version__", *_PUBLIC]

if TYPE_CHECKING:  # what the names are, for type checkers and readers (loaded lazily below)
    from analysis.present.explore import explorer as explorer
    from analysis.present.formats.render import render as render
    from analysis.present.plots import difference_heatmap as difference_heatmap, variant_curves as variant_curves
    from analysis.workbench.rulesets import RuleSet as RuleSet, load as load, variants as variants
    from analysis.workbench.sweep import distribution_table as distribution_table, table as table
    from analysis.workbench.compare import Comparison as Comparison, compare as compare
    from analysis.workbench.solve import solve as solve


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is used (PEP 562)."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'analysis' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
