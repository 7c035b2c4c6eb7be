"""A shipped system counted by its own mechanic file: the glue between a system's API and the one engine.

A system whose dice are described by the ``mechanic.toml`` in its folder
(Werewolf, Hunter) keeps its own rules dataclass, result types and
functions, and counts with :mod:`analysis.engine.count` (no Willpower) or
:mod:`analysis.engine.willpower` (after a strategy's reroll): the
dataclass's field values are the mechanic's parameters.  This module does
that translation once for every such system: the mechanic rules of a rules
instance, one cell's exact ways, and a tidy table with or without
strategies (side by side as :mod:`analysis.engine.strategy_lists` lays them out).
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from analysis.engine import strategy_lists as _st
from analysis.model.rules import rule

from analysis.engine import count as _engine, willpower as _willpower
from analysis.engine.strategy import strategy_of
from analysis.model.spec import shipped_in

_C = TypeVar("_C", bound=type)

if TYPE_CHECKING:
    from analysis.model.spec import Mechanic, Parameter


@lru_cache(maxsize=256)
def mechanic_rules(mech: Mechanic, rules) -> _engine.MechanicRules:
    """The mechanic rules of a system's rules instance: its shipped file, the instance's fields that are the
    file's parameters as their values (a field the file has not, such as La Soif's frenzy options, is not
    read)."""
    names = mech.parameter_map
    values = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if f.name in names}
    return _engine.rules_of(mech, values)


def field_of(p: Parameter, help_: str | None = None) -> Any:
    """The rules field (:func:`analysis.model.rules.rule`) of a mechanic file's parameter: its default, range
    or choices (and none, with what it means) and its help (or ``help_``)."""
    text = p.help if help_ is None else help_
    if p.is_bool:
        return rule(p.default, help=text)
    if p.choices is not None:
        return rule(p.default, help=text, choices=p.choices, none=None if p.none is None else p.none_means or True)
    return rule(p.default, help=text, range=p.range)


def fields_from_file(package: str, per_roll: tuple[str, ...] = (), file: str = "mechanic.toml") -> Callable[[_C], _C]:
    """A class decorator, under ``@dataclass``: the rules fields of a system counted by its mechanic
    file are that file's parameters, written once there.

    Each parameter of the ``file`` (default ``mechanic.toml``) in ``package`` becomes a field (in file
    order): its default, its range or choices and its help (:func:`field_of`); the class's docstring gains
    their list.  The class may declare fields of its own only for what the file does not count (how a roll
    is built: La Soif's frenzy options); they follow the file's.  ``per_roll`` names parameters that are
    not rules but options of one roll (the classic specialty): they get no field.
    """

    def apply(cls: _C) -> _C:
        mech = shipped_in(package, file)
        own = dict(cls.__dict__.get("__annotations__", {}))
        twice = [n for n in own if n in mech.parameter_map]
        if twice:
            raise TypeError(f"{cls.__name__} takes {twice[0]} from {package}'s {file}; it does not declare it")
        annotations: dict[str, Any] = {}
        lines = ["", "", "    Attributes", "    ----------"]
        unknown = set(per_roll) - {p.name for p in mech.parameters}
        if unknown:
            raise TypeError(f"{package}'s {file} has no parameter {sorted(unknown)[0]!r}")
        for p in mech.parameters:
            if p.name in per_roll:
                continue
            kind = bool if p.is_bool else int
            annotations[p.name] = kind if p.none is None else int | None
            setattr(cls, p.name, field_of(p))
            shown = kind.__name__ + (" or None" if p.none is not None else "")
            lines += [f"    {p.name} : {shown}", f"        {p.help}"]
        for name, kind in own.items():
            info = getattr(cls.__dict__.get(name), "metadata", {}).get("rule")
            if info is not None:
                lines += [f"    {name} : {getattr(kind, '__name__', kind)}", f"        {info['help']}"]
        annotations.update(own)
        cls.__annotations__ = annotations
        cls.__doc__ = (cls.__doc__ or "").rstrip() + "\n".join(lines) + "\n"
        setattr(cls, "SHIPPED_MECHANIC", mech)  # (the class's file, CountedRules.SHIPPED_MECHANIC)
        return cls

    return apply


class CountedRules:
    """What a rules class of a system counted by its mechanic file reads from that file (a mixin).

    The subclass (a frozen :class:`analysis.model.rules.Rules` dataclass whose
    fields are the file's parameters, :func:`fields_from_file`) keeps that file in ``SHIPPED_MECHANIC``; the
    dice each kind rolls and the faces of each mark then come from the file,
    written once there.
    """

    SHIPPED_MECHANIC: Mechanic | None = None  # the system's mechanic.toml, set by fields_from_file

    if TYPE_CHECKING:  # the fields come from the mechanic file (fields_from_file): the type checker takes any

        def __init__(self, **fields: Any) -> None: ...

        def __getattr__(self, name: str) -> Any: ...

    def mechanic(self) -> _engine.MechanicRules:
        """These rules as the mechanic engine reads them: the shipped ``mechanic.toml``, these fields as its
        parameters."""
        if self.SHIPPED_MECHANIC is None:
            raise ValueError(f"{type(self).__name__} takes no mechanic file (fields_from_file sets it)")
        return mechanic_rules(self.SHIPPED_MECHANIC, self)

    def dice(self, pool: int, special: int) -> tuple:
        """(normal dice, special dice) rolled for ``pool`` with ``special`` the rating of the special dice
        (Rage, Desperation): the file's two dice axes, in its order."""
        rules = self.mechanic()
        return _engine.dice_of(
            rules.mechanic, {**rules.params, **dict(zip(_engine.pool_axes(rules.mechanic), (pool, special)))}
        )

    def faces(self, kind: str) -> tuple:
        """Faces of a ``kind`` die carrying each of its marks, in the file's order of the marks
        (a normal die: failures, successes below ten, tens)."""
        rules = self.mechanic()
        mech = rules.mechanic
        index = [k.name for k in mech.kinds].index(kind)
        return _engine.faces_of(mech, {**rules.params, **{a.name: a.range[0] for a in mech.axes}})[index]

    @property
    def normal_faces(self) -> tuple:
        """Faces of a normal die: (failures, successes below ten, tens)."""
        return self.faces("normal")


def is_none(strategy) -> bool:
    """Whether ``strategy`` asks for no Willpower (None or the name ``none``)."""
    return strategy is None or (isinstance(strategy, str) and strategy == "none")


def cell_ways(rules: _engine.MechanicRules, cell: dict, strategy=None):
    """Exact ways of one cell, ``(ways, strategy name or None)``.

    The ways are the engine's :class:`~analysis.engine.count.CellWays`: with ``strategy`` None or
    ``"none"`` those of the roll (no Willpower), else those after a
    :class:`~analysis.engine.willpower.Strategy` (with ``spent``).
    """
    ways: _engine.CellWays
    if is_none(strategy):
        (ways,) = _engine.count_cells(rules, [cell])
        return ways, None
    (ways,) = _willpower.count_cells(rules, strategy, [cell])
    return ways, strategy.name


def cell_odds(rules, cell: dict, strategy, strategies: dict) -> _engine.MechanicOdds:
    """The exact odds of one roll of a system counted by its file (Werewolf, Hunter): ``rules`` (the
    system's rules instance) at ``cell``, after ``strategy`` (a name among ``strategies``, or none)."""
    if not is_none(strategy):
        strategy = strategy_of(strategy, strategies)
    mech = rules.mechanic()
    ways, strategy_name = cell_ways(mech, cell, strategy)
    return _engine.MechanicOdds.of(mech, cell, ways, strategy_name)


def table(
    rules: _engine.MechanicRules,
    axes: dict,
    *,
    exact: bool,
    at_least,
    strategy,
    strategies: dict,
    check_only: bool = False,
):
    """A tidy table over ``axes`` (``{axis: [values]}``, every axis of the mechanic, checked).

    Rows are sorted by cell.  ``at_least``: None or the N already parsed.
    ``strategy``: None (no Willpower, no Willpower columns), or a name, a
    strategy, a list of them or names separated by commas (see
    :func:`analysis.engine.strategy_lists.parse`, a name among ``strategies``): the table after it,
    with ``willpower_spent`` and ``p_win_gain``, several side by side with a ``strategy`` column.
    The work of every strategy's reroll is estimated over the whole grid
    before anything is counted; ``check_only``: only that (and the grid's
    checks), returning None.
    """
    grid = {a: sorted(v) for a, v in axes.items()}
    chosen, side_by_side = ([None], False) if strategy is None else _st.parse(strategy, strategies)
    if check_only or any(s is not None for s in chosen):
        _, cells, tops = _engine.resolve_grid(rules.mechanic, grid, at_least)
        if tops and None in chosen:  # without a strategy the columns need each pool's distribution
            _engine.check_at_least_dice(rules, cells)
        if None in chosen:  # the work of the statistics grid (none on the pair-of-tens path)
            _engine.check_work(rules, cells, max(tops) - 1 if tops else None, bool(tops))
        for s in chosen:
            if s is not None:
                _willpower.check_work(rules, s, cells)
        if check_only:
            return None
    if chosen == [None] and not side_by_side:
        return _engine.table(rules, exact=exact, at_least=at_least, progress=False, check_only=False, **grid)
    if not side_by_side:
        return _willpower.table(rules, chosen[0], exact=exact, at_least=at_least, **grid)
    frames = [
        (s, _willpower.table(rules, "none" if s is None else s, exact=True, at_least=at_least, **grid)) for s in chosen
    ]
    return _st.combine(frames, tuple(grid), side_by_side, exact)
