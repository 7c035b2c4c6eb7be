"""Willpower strategies side by side: reading ``strategy=`` (one name, a list, or ``"none,maximize_win"``).

A system with Willpower rerolls (V5, Werewolf, Hunter, a mechanic file
with a ``[willpower]`` table) takes ``strategy=`` in its ``table``: one
strategy gives the odds after it; a list (or a comma-separated string)
gives them side by side, with ``strategy`` as a column of the long table,
``none`` standing for no Willpower spent.  Both add ``p_win_gain``: the
exact chance to win with the strategy minus the chance without Willpower.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from analysis.engine.strategy import Strategy, strategy_of, unknown
from analysis.model.validate import InputError

#: The name standing for "no Willpower spent".
NONE = "none"


def parse(spec: object, known: Mapping[str, Strategy]) -> tuple[list[Any], bool]:
    """``(strategies, side_by_side)`` of a ``strategy=`` value, among the strategies ``known`` (a system's).

    ``strategies`` is a list of strategy objects (:func:`analysis.engine.strategy.strategy_of`),
    ``None`` standing for ``none``; ``side_by_side`` is True for a list or a
    comma-separated string (even of one name), False for a single name or
    strategy object.  Refuses an empty list, a repeat or an unknown name in
    one sentence naming the valid ones.
    """
    if isinstance(spec, str):
        items: list[Any] = [s.strip() for s in spec.split(",")]
        many = len(items) > 1
    elif isinstance(spec, (list, tuple)):
        items, many = list(spec), True
    else:
        items, many = [spec], False
    if not items or any(i == "" for i in items):
        raise InputError("strategy", f" takes names separated by commas, such as none,maximize_win; got {spec!r}")
    out, names, seen = [], [], set()
    for item in items:
        if item is None or item == NONE:
            strategy, name = None, NONE
        else:
            if isinstance(item, str) and item not in known:
                raise unknown(item, known)
            try:
                strategy = strategy_of(item, known)
            except ValueError:
                raise unknown(item, known) from None
            name = strategy.name
        if name in seen:
            raise InputError("strategy", f" {name!r} is named twice")
        seen.add(name)
        names.append(name)
        out.append(strategy)
    return out, many


def combine(
    frames: Iterable[tuple[Any, pd.DataFrame]], axes: Sequence[str], side_by_side: bool, exact: bool
) -> pd.DataFrame:
    """One table of the per-strategy tables ``frames``: ``[(strategy or None, DataFrame)]``.

    Each DataFrame holds Fractions and starts with the ``axes`` columns.  Side
    by side, a ``strategy`` column follows the axes (``none`` for None) and
    the rows are sorted by cell, strategies in the order given; without
    ``exact`` every column after those is turned into ``float(Fraction)``.
    """
    parts = []
    for strategy, df in frames:
        if side_by_side:
            df = df.copy()
            df.insert(len(axes), "strategy", NONE if strategy is None else strategy.name)
        parts.append(df)
    out = pd.concat(parts, ignore_index=True)
    if side_by_side:
        out = out.sort_values(list(axes), kind="stable", ignore_index=True)
    if not exact:
        # one frame made at once: a column set at a time fragments a wide table
        n = len(axes) + int(side_by_side)
        floats = np.array([[float(x) for x in out[c]] for c in out.columns[n:]], dtype=float).T
        out = pd.concat(
            [out.iloc[:, :n], pd.DataFrame(floats.reshape(len(out), -1), index=out.index, columns=out.columns[n:])],
            axis=1,
        )
    return out


def bound(system, strategy, name: str, option: str = "--strategy"):
    """``system`` with ``strategy`` bound into its table function (unchanged for None), or a refusal in one
    sentence naming the rule set ``name`` when its system has no Willpower reroll (``option``: how the
    message names the strategy)."""
    if strategy is None:
        return system
    if not system.takes("strategy"):
        raise ValueError(
            f"{option}: {name} has no Willpower reroll (its system {system.name} has no strategies; a "
            f"mechanic file gets them from a [willpower] table)"
        )
    return dataclasses.replace(system, table=functools.partial(system.table, strategy=strategy))


def several(strategy) -> bool:
    """Whether a ``strategy=`` value names several strategies (a list, or names separated by commas)."""
    return isinstance(strategy, (list, tuple)) or (isinstance(strategy, str) and "," in strategy)


def text(strategy) -> str:
    """A ``strategy=`` value for people: ``maximize_win``, or ``none, maximize_win`` for several."""
    items = strategy.split(",") if isinstance(strategy, str) else strategy
    items = items if isinstance(items, (list, tuple)) else [items]
    return ", ".join(NONE if s is None else str(getattr(s, "name", s)).strip() for s in items)


def check(system, grid: Mapping[str, Any], rules) -> None:
    """Check a strategy's reroll over a whole grid (``{axis: values}``) before anything is counted: the
    table function of ``system`` (the strategy bound in, :func:`bound`) run with ``check_only``."""
    system.table(*(grid[a] for a in system.axis_names), rules=rules, exact=True, check_only=True)
