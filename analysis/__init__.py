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

Each is loaded when first used, by a plain import of its module (:func:`__getattr__`), so ``import
analysis`` loads neither numba nor matplotlib (nor pandas): the counting kernels are compiled or loaded
when a count needs them, matplotlib when a figure is drawn.  Every probability is an exact
``fractions.Fraction`` (``exact=True``) or the float of one.

Inside, a folder a layer: the model (``analysis.model``: the mechanic file
format, expressions, rules, what a system is, input checks, values as text);
the engine (``analysis.engine``: one exact walk over every mechanic file,
Willpower, decks, Markov chains, exact arithmetic, and the seam that loads the
compiled kernels when a count needs them); each game system a package under
``analysis.systems``; the rule sets of every system and the questions asked of
them (table, compare, solve) in ``analysis.workbench``; comparisons across
systems in ``analysis.versus``; tables, formats, plots, the booklet, the page
and the published tables and figures in ``analysis.present``; the options every
command is built from in ``analysis.options``; the ``beastodds`` command (each
system's own commands too) in ``analysis.cli``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analysis.model.version import VERSION

#: The toolkit's version (written in :mod:`analysis.model.version`).
__version__ = VERSION

__all__ = [
    "__version__",
    "load",
    "RuleSet",
    "variants",
    "table",
    "distribution_table",
    "compare",
    "Comparison",
    "solve",
    "render",
    "difference_heatmap",
    "variant_curves",
    "explorer",
]

if TYPE_CHECKING:  # what the names are, for type checkers and readers (loaded when first used, below)
    from analysis.present.explore import explorer as explorer
    from analysis.present.formats.render import render as render
    from analysis.present.plots import difference_heatmap as difference_heatmap, variant_curves as variant_curves
    from analysis.workbench.rulesets import RuleSet as RuleSet, load as load, variants as variants
    from analysis.workbench.sweep import distribution_table as distribution_table, table as table
    from analysis.workbench.compare import Comparison as Comparison, compare as compare
    from analysis.workbench.solve import solve as solve


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is used (PEP 562), then kept."""
    value = _load(name)
    globals()[name] = value
    return value


def _load(name: str) -> Any:
    """One plain import of the module of each public name, so that every tool follows it."""
    if name in ("load", "RuleSet", "variants"):
        from analysis.workbench import rulesets

        return getattr(rulesets, name)
    if name in ("table", "distribution_table"):
        from analysis.workbench import sweep

        return getattr(sweep, name)
    if name in ("compare", "Comparison"):
        from analysis.workbench import compare

        return getattr(compare, name)
    if name == "solve":
        from analysis.workbench.solve import solve

        return solve
    if name == "render":
        from analysis.present.formats.render import render

        return render
    if name in ("difference_heatmap", "variant_curves"):
        from analysis.present import plots

        return getattr(plots, name)
    if name == "explorer":
        from analysis.present.explore import explorer

        return explorer
    raise AttributeError(f"module 'analysis' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
