"""A notebook explorer for any system: sliders for its axes, its rule sets side by side, a curve.

Built from what a system describes (``SYSTEM.axes``, its shipped rule sets,
its outcome classes), so every system gets one with no code of
its own, and so does a designer's mechanic file (its defaults, and the rule
sets given).  Needs ``ipywidgets`` (installed with the dev extras by ``make``).
"""

from __future__ import annotations

from pathlib import Path

from analysis.engine import seam
from analysis.workbench import rulesets
from analysis.workbench.compare import compare
from analysis.model.validate import parse_spec
from analysis.present.plots import variant_curves


class Explorer:
    """Controls and output of one system's explorer.

    Attributes
    ----------
    system : analysis.model.system.System
    controls : dict
        ``{axis: IntSlider}`` for each axis, then ``variant``, ``baseline``
        and ``outcome`` dropdowns.
    shown : dict
        What the explorer last showed: the axis values and ``odds``, a
        DataFrame indexed by outcome with one column per rule set and the
        exact ``difference`` (variant - baseline) as floats.
    widget : ipywidgets.VBox
        Display it in a notebook.
    """

    def __init__(self, system, x: str | None = None, rule_sets=()):
        widgets = seam.widgets  # (a notebook's package, installed with the dev extras)
        self.system = _system(system)
        s = self.system
        self.x = x or s.axis_names[0]
        if self.x not in s.axis_names:
            raise ValueError(f"{s.name} has no axis {self.x!r}; its axes are {', '.join(s.axis_names)}")
        # the rule sets that change the table (not those that change only another mechanic)
        sets = [rs for rs in rulesets.variants(s.name) if not rs.sub_rules]
        defaults = rulesets.official(s)
        if not any(rs == defaults for rs in sets):  # a mechanic file ships no variants: its defaults
            sets.insert(0, defaults)
        for ref in rule_sets:
            rs = rulesets.load(ref)
            if rs.system != s.name:
                raise ValueError(f"{rs.name} is a {rs.system} rule set, not one of {s.name}")
            sets.append(rs)
        #: ``{name: RuleSet}`` the dropdowns choose from
        self.rule_sets = {rs.name: rs for rs in sets}
        names = list(self.rule_sets)
        official = defaults.name
        changed = [n for n in names if n != official]
        self.controls = {}
        for axis, spec in s.axes:
            values = parse_spec(axis, spec)
            self.controls[axis] = widgets.IntSlider(
                value=values[len(values) // 2], min=min(values), max=max(values), description=axis
            )
        self.controls["variant"] = widgets.Dropdown(options=names, value=(changed or names)[0], description="variant")
        self.controls["baseline"] = widgets.Dropdown(
            options=names, value=official if official in names else names[0], description="against"
        )
        outcomes = [c for c, _ in s.classes] or list(s.outcomes or ())
        self.controls["outcome"] = widgets.Dropdown(options=outcomes, value=outcomes[-1], description="plot")
        self.shown: dict = {}
        out = widgets.interactive_output(self._show, self.controls)
        axes = [self.controls[a] for a in s.axis_names]
        self.widget = widgets.VBox(
            [
                widgets.HTML(f"<b>{s.title}</b>"),
                widgets.HBox(axes),
                widgets.HBox([self.controls[k] for k in ("variant", "baseline", "outcome")]),
                out,
            ]
        )

    def _show(self, variant, baseline, outcome, **cell):
        display = seam.display
        s = self.system
        x_values = parse_spec(self.x, s.default_grid()[self.x])
        grid = {a: (f"{min(x_values)}-{max(x_values)}" if a == self.x else str(v)) for a, v in cell.items()}
        sets = self.rule_sets
        cmp = compare(sets[baseline], sets[variant], grid, exact=True)
        here = cmp.table[cmp.table[self.x] == cell[self.x]].set_index("outcome")[["a", "b", "difference"]]
        here = here.map(float)  # the float of each exact Fraction
        if baseline != variant:
            here.columns = [baseline, variant, "difference"]
            said = f": {variant} against {baseline}"
        else:  # one rule set: its odds alone (a second column of the same numbers would read as another)
            here = here[["a"]]
            here.columns = [baseline]
            said = f": {baseline} (choose another variant to compare)"
        self.shown.clear()
        self.shown.update(cell, odds=here)
        print(", ".join(f"{a} {v}" for a, v in cell.items()) + said)
        display((here * 100).round(2).astype(str) + " %")
        fig = variant_curves(
            [sets[baseline], sets[variant]] if baseline != variant else [sets[variant]], outcome, x=self.x, grid=grid
        )
        fig.axes[0].axvline(cell[self.x], color="0.5", lw=1, ls=":")
        display(fig)


def _system(ref):
    """The system of a name, or of a mechanic file (a path: the file's system, registered)."""
    if isinstance(ref, Path) or (isinstance(ref, str) and ref.endswith(".toml")):
        return rulesets.system(rulesets.load(ref).system)
    return rulesets.system(ref)


def explorer(system: str | None = None, x: str | None = None, rule_sets=()) -> Explorer:
    """An :class:`Explorer` for one system (display ``.widget``); by default the first of :func:`systems`.

    ``system`` is a system's name or a mechanic file (``"my-mechanic.toml"``):
    its defaults and shipped rule sets are offered, plus ``rule_sets``
    (names, TOML files or rule sets of that system), e.g.
    ``explorer("my-mechanic.toml", rule_sets=["my-variant.toml"])``.
    """
    return Explorer(systems()[0] if system is None else system, x, rule_sets)


def systems() -> list:
    """The names of the systems an explorer can show (every system with rule sets)."""
    return [name for name in rulesets.SYSTEMS if rulesets.variants(name)]
