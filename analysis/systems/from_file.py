"""A mechanic file as a game system: its rules class, table and odds functions, and registration.

:func:`system_of` turns a :class:`~analysis.model.spec.Mechanic` into an
:class:`analysis.model.system.System`, so that everything that works for a system
works for a designer's file: its parameters become the fields of a
generated :class:`analysis.model.rules.Rules` dataclass (``--set``, rule-set TOML
files, ``changes``), its axes the grid axes, its classes and ``p_`` columns
the outcomes with their meanings (legends, the glossary), and the engine
(:mod:`analysis.engine.count`) counts its table.

:func:`analysis.workbench.rulesets.register_mechanic_file` adds a file's system to
:data:`analysis.workbench.rulesets.SYSTEMS`; :func:`analysis.workbench.rulesets.load` calls it
when handed a mechanic file.
"""

from __future__ import annotations

import dataclasses
import functools
import tomllib

from analysis.engine import distribution
from analysis.model.rules import Rules
from analysis.model.system import System
from analysis.model.validate import check_bool

from analysis.systems import counted
from analysis.engine import count as _engine
from analysis.engine.cells import grid_of
from analysis.model.spec import Mechanic
from analysis.engine.strategy import NAMES, offered


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) or "Mechanic"


@functools.lru_cache(maxsize=64)
def rules_class(mech: Mechanic) -> type:
    """The frozen :class:`analysis.model.rules.Rules` dataclass of a mechanic's parameters (one per mechanic)."""
    fields = []
    for p in mech.parameters:
        help_ = p.help or f"the {p.name.replace('_', ' ')} of the {mech.name} mechanic"
        kind = bool if p.is_bool else int if p.none is None else int | None
        fields.append((p.name, kind, counted.field_of(p, help_)))
    cls = dataclasses.make_dataclass(
        f"{_camel(mech.name)}Rules",
        fields,
        bases=(Rules,),
        frozen=True,
        namespace={
            "MECHANIC": mech,
            "__reduce__": _reduce,
            "__doc__": f"The rules of the {mech.name} mechanic ({mech.title}); defaults from its file.",
        },
    )
    cls.__module__ = __name__
    return cls


def _reduce(self):
    values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
    return (_rebuild, (self.MECHANIC, values))


def _rebuild(mech: Mechanic, values: dict):
    return rules_class(mech)(**values)


def mechanic_rules(rules) -> _engine.MechanicRules:
    """The engine's :class:`~analysis.engine.count.MechanicRules` of a generated rules instance."""
    mech = getattr(type(rules), "MECHANIC", None)
    if not isinstance(mech, Mechanic):
        raise ValueError(f"rules must be the rules of a mechanic file, got {type(rules).__name__}")

    return _engine.rules_of(mech, {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)})


def _grid_call(mech: Mechanic, axis_values: tuple, rules) -> tuple:
    """``(engine rules, {axis: values})`` of a table call: the rules checked to be the mechanic's own
    (its defaults if None) and at most one value per axis."""
    rules = rules_class(mech)() if rules is None else rules
    if type(rules) is not rules_class(mech):
        raise ValueError(f"rules must be {rules_class(mech).__name__}, got {type(rules).__name__}")
    if len(axis_values) > len(mech.axes):
        raise ValueError(f"the {mech.name} table takes at most {len(mech.axes)} axes ({', '.join(mech.axis_names)})")
    return mechanic_rules(rules), dict(zip(mech.axis_names, axis_values))


def _table(mech: Mechanic, *axis_values, rules=None, exact: bool = False, at_least=None, check_only: bool = False):
    rules, grid = _grid_call(mech, axis_values, rules)

    return _engine.table(rules, exact=exact, at_least=at_least, check_only=check_only, **grid)


def _willpower_table(
    mech: Mechanic,
    *axis_values,
    rules=None,
    exact: bool = False,
    at_least=None,
    strategy=None,
    check_only: bool = False,
):
    """The table of a mechanic with a ``[willpower]`` table: :func:`_table`, and with ``strategy`` (a name of
    :data:`analysis.engine.strategy.STRATEGIES`, a Strategy, several side by side) the odds after it,
    counted by the one Willpower engine as every system's are (:func:`analysis.systems.counted.table`)."""
    engine_rules, given = _grid_call(mech, axis_values, rules)
    grid, tops = grid_of(mech, given, at_least)
    return counted.table(
        engine_rules,
        grid,
        exact=check_bool("exact", exact),
        at_least=tops or None,
        strategy=strategy,
        strategies=_file_strategies(),
        check_only=check_bool("check_only", check_only),
    )


def _file_strategies() -> dict:
    """The named Willpower strategies of a mechanic file (``none`` aside: it stands for no Willpower)."""
    return {k: v for k, v in offered(*NAMES).items() if k != "none"}


def _distribution(
    mech: Mechanic, *axis_values, rules=None, exact: bool = False, max_successes=None, check_only: bool = False
):
    rules, grid = _grid_call(mech, axis_values, rules)
    return distribution.mechanic_table(rules, grid, exact=exact, max_successes=max_successes, check_only=check_only)


def _odds(mech: Mechanic, *axis_values, rules=None, **cell):
    rules = rules_class(mech)() if rules is None else rules
    cell = {**dict(zip(mech.axis_names, axis_values)), **cell}

    return _engine.odds(mechanic_rules(rules), **cell)


def system_of(mech: Mechanic, package: str = "") -> "System":
    """The :class:`analysis.model.system.System` of a mechanic (its official meanings, axes and functions)."""
    meanings = mech.meanings()
    terms = {a.name: a.help for a in mech.axes if a.help}
    terms.update({c.name: meanings[c.name] for c in mech.columns if meanings.get(c.name)})
    return System(
        name=mech.name,
        rules=rules_class(mech),
        table=functools.partial(_table if mech.willpower is None else _willpower_table, mech),
        odds=functools.partial(_odds, mech),
        axes={a.name: a.default for a in mech.axes},
        limits={a.name: a.range for a in mech.axes},
        title=mech.title,
        # a class the file gives no meaning keeps no meaning of another system's (the glossary's)
        classes={
            c: meanings.get(c) or f"an outcome class of the {mech.name} mechanic (its file gives no meaning)"
            for c in mech.classes
        },
        outcomes=tuple(mech.classes) + tuple(mech.column_names),
        columns=tuple(mech.axis_names) + tuple(mech.classes) + tuple(mech.column_names),
        terms=terms,
        package=package,
        strategies=None if mech.willpower is None else _file_strategies(),
        order=90,
        distribution=None if mech.successes is None else functools.partial(_distribution, mech),
        whole_first_axis=mech.explodes,
    )


def is_mechanic_text(text: str) -> bool:
    """Whether TOML text is a mechanic file (it has a ``[mechanic]`` table), not a rule set."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    return isinstance(data.get("mechanic"), dict)
