"""Distributions of successes: the exact chance of each success count per cell, and the exact mean.

A system's ``distribution(*axis_values, rules=, exact=, max_successes=None)``
(``SYSTEM.distribution``; ``--distribution [N]`` on its command) gives one
row per (cell, successes): the axes, ``successes``, ``p_exactly`` (the chance
of exactly that many), ``p_at_least``, ``p_more`` (more than that many) and
``mean_successes`` (the cell's exact mean, on each of its rows).  The counts
run from 0 (or the lowest the rules can give, if below 0) to the highest the
cell can reach, every count in between listed (a count the rules cannot give
has ``p_exactly`` 0); ``max_successes=N`` stops at N, the last row's
``p_more`` then being the exact tail.  The same layout as La Soif's
``beast --distribution`` (:func:`analysis.systems.requiem.beast.distribution_table`),
whose again-dice have no highest count (it lists 0..20 by default; its exact
mean is :func:`analysis.systems.requiem.beast.mean_successes`).

The systems counted by a mechanic file (V5, Werewolf, Hunter, classic pools
and a designer's file that names its ``successes``) share
:func:`mechanic_table`, built on the engine's exact ways of each cell
(:attr:`analysis.engine.count.CellWays.success_ways`); the size is checked
as for ``--at-least`` (:mod:`analysis.engine.at_least`): the dice of the distinct
rolls before any counting, the rows before the table is made.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import pandas as pd

from analysis.engine.at_least import MAX_AT_LEAST, check_dice
from analysis.engine import count as engine, explode, willpower
from analysis.engine.strategy_lists import parse
from analysis.model.validate import InputError, check_bool, check_int

#: The columns a distribution adds after the axes.
COLUMNS = ("successes", "p_exactly", "p_at_least", "p_more", "mean_successes")

#: Most rows one distribution table may hold (cells times the success counts of each).
MAX_ROWS = 1_000_000


def no_count(system) -> ValueError:
    """The one sentence for a system that counts no successes."""
    mech = getattr(getattr(system, "rules", None), "MECHANIC", None)
    if mech is not None:
        return ValueError(
            f"--distribution: the {system.name} mechanic names no successes count "
            f"(successes in its [mechanic] table), so it has no distribution of successes"
        )
    return ValueError(
        f"--distribution: the {system.name} system counts no successes (its outcome is one "
        f"of its classes, not a count), so it has no distribution of successes"
    )


def check_rows(rows: int, name: str = "distribution", top: int | None = None) -> None:
    """Refuse a distribution table of more than :data:`MAX_ROWS` rows (``top``: the most successes a
    cell lists, named in the sentence)."""
    if rows > MAX_ROWS:
        reach = "" if top is None else f", the successes reaching {top:,}"
        raise InputError(
            name,
            f" asks for {rows:,} rows (cells times success counts{reach}; limit "
            f"{MAX_ROWS:,}); ask for a smaller grid or a smaller largest count",
        )


def check_max(max_successes, name: str = "max_successes"):
    """``max_successes``: None or a whole number 0..:data:`analysis.engine.at_least.MAX_AT_LEAST`."""
    if max_successes is None:
        return None

    return check_int(name, max_successes, 0, MAX_AT_LEAST)


def frame(
    keys: dict,
    ways: list,
    denominators: list,
    exact: bool,
    max_successes=None,
    name: str = "distribution",
    means: list | None = None,
):
    """The long table of the distributions ``ways`` (one ``{successes: ways}`` per cell).

    Parameters
    ----------
    keys : dict
        ``{column: [value per cell]}``: the axes.
    ways : list of dict
        Per cell, the ways of each success count (whole numbers, summing to the denominator).
    denominators : list of int
        Per cell, the ways of every roll.
    exact : bool
        Fractions, else each ``float(Fraction)`` (int / int: correctly rounded).
    max_successes : int or None
        The last count listed (its ``p_more`` the exact tail); None: every count.
    means : list of Fraction, optional
        Per cell, the exact mean successes, where ``ways`` does not list every count (dice that roll
        again); by default the mean of ``ways``.  A None among them (a mean not known exactly) leaves
        the column ``mean_successes`` out of the table.
    """
    no_mean = means is not None and any(m is None for m in means)
    spans = []
    for w in ways:
        low = min(0, min(w)) if w else 0
        high = max(w) if w else 0
        if max_successes is not None:
            high = max_successes
        spans.append((low, high))
    check_rows(sum(max(h - lo + 1, 0) for lo, h in spans), name, max((h for _, h in spans), default=None))
    value = (lambda n, d: Fraction(n, d)) if exact else (lambda n, d: n / d)
    cols: dict[str, list[int]] = {k: [] for k in keys}
    succ, exactly, at_least, more, mean = [], [], [], [], []
    memo: dict = {}
    for i, (w, den, (low, high)) in enumerate(zip(ways, denominators, spans)):
        got = memo.get((id(w), den, low, high)) if means is None else None
        if got is None:
            total = den
            below = sum(n for s, n in w.items() if s < low)
            if means is None:
                m = value(sum(s * n for s, n in w.items()), den)
            elif no_mean:
                m = None
            else:
                m = means[i] if exact else float(means[i])
            rows = []
            for s in range(low, high + 1):
                n = w.get(s, 0)
                ge = total - below
                rows.append((s, value(n, den), value(ge, den), value(ge - n, den), m))
                below += n
            got = memo[(id(w), den, low, high)] = rows
        for k, v in keys.items():
            cols[k].extend([v[i]] * len(got))
        for s, e, a, o, m in got:
            succ.append(s)
            exactly.append(e)
            at_least.append(a)
            more.append(o)
            mean.append(m)
    out = {k: np.array(v, dtype=np.int64) for k, v in cols.items()}
    out["successes"] = np.array(succ, dtype=np.int64)
    dtype = object if exact else np.float64
    for c, v in zip(COLUMNS[1:], (exactly, at_least, more, mean)):
        if c == "mean_successes" and no_mean:
            continue
        out[c] = np.array(v, dtype=dtype)
    return pd.DataFrame(out)


def one_strategy(strategy, known):
    """The one strategy object of a ``strategy=`` value (None: no Willpower), parsed as the tables parse
    it (:func:`analysis.engine.strategy_lists.parse`); several are refused: a distribution is of one roll."""
    if strategy is None:
        return None

    chosen, side_by_side = parse(strategy, known)
    if side_by_side and len(chosen) > 1:
        raise InputError("strategy", f": a distribution of successes takes one strategy at a time, got {strategy!r}")
    return chosen[0]


def mechanic_table(
    rules, axes: dict, *, exact: bool = False, max_successes=None, check_only: bool = False, strategy=None
):
    """The distribution table of a mechanic's rules (:class:`analysis.engine.count.MechanicRules`).

    ``axes``: ``{axis: SPEC or values}`` (an axis left out takes its default SPEC).  Checked before any
    counting: the axes, the dice of the distinct rolls (:func:`analysis.engine.at_least.check_dice`) and the
    cells (each at least one row); the rows, exactly, once counted.  ``check_only``: only the checks
    before counting (returns None, or the sentence of :func:`mean_left_out` where the table will have
    no mean).  ``strategy``: the successes after that Willpower reroll
    (:class:`analysis.engine.willpower.Strategy`, its work estimated before any counting), None:
    the roll as it lands.  Where dice roll again the counts are listed up to ``max_successes`` (default
    :data:`analysis.engine.count.DEFAULT_BOUND`) with the exact tail beyond in ``p_more``, for any
    successes expression; the mean is exact where the successes are a sum of marks, else left out.
    """
    exact, check_only = check_bool("exact", exact), check_bool("check_only", check_only)
    max_successes = check_max(max_successes)
    mech = rules.mechanic
    if mech.successes is None:
        raise ValueError(
            f"the {mech.name} mechanic names no successes count (successes in its "
            f"[mechanic] table), so it has no distribution of successes"
        )
    grid, cells, _ = engine.resolve_grid(mech, axes)
    check_rows(len(cells))
    pools = engine.pool_axes(mech)
    rolls = {tuple(c[a] for a in pools): c for c in cells}
    check_dice((sum(engine.dice_of(mech, {**rules.params, **c})) for c in rolls.values()), "distribution")
    if strategy is not None:
        willpower.check_work(rules, strategy, cells)
    means = None
    if mech.explodes:  # the successes have no highest count: listed up to a bound, the mean from the chains
        if max_successes is None:
            max_successes = engine.DEFAULT_BOUND
        # the mean reads the axes the dice, faces and counts read: worked out once per such roll
        read = set(engine.pool_axes(mech)) | {n for _, e in mech.counts for n in e.names if n in mech.axis_names}
        known: dict[tuple[int, ...], Fraction | None] = {}
        means = []
        for c in cells:
            key = tuple(c[a] for a in sorted(read))
            if key not in known:
                known[key] = explode.mean_successes(mech, rules.params, c, engine.dice_of(mech, {**rules.params, **c}))
            means.append(known[key])
    if check_only:
        if strategy is None:  # the work of counting the successes on the statistics grid
            engine.check_work(rules, cells, max_successes if mech.explodes else None, True)
        return mean_left_out(mech) if means is not None and any(m is None for m in means) else None
    counted: Sequence[Any]  # each cell's ways: success_ways and the denominator
    if strategy is not None:
        counted = willpower.count_cells(rules, strategy, cells)
    else:
        counted = engine.count_cells(rules, cells, max_successes=max_successes)
    keys = {a: [c[a] for c in cells] for a in grid}
    return frame(
        keys, [w.success_ways for w in counted], [w.denominator for w in counted], exact, max_successes, means=means
    )


def mean_left_out(mech) -> str:
    """Why a distribution of ``mech`` has no ``mean_successes`` column, in one sentence."""
    return (
        f"mean_successes is left out: the {mech.name} mechanic's dice roll again and its successes "
        f"({mech.successes}) are not a sum of marks, so their mean is not known exactly (the distribution "
        f"is listed to its bound, the chance of more in p_more)"
    )


def complete(df, keys):
    """A distribution table with every cell listing the same success counts, for a pivot.

    Each cell of a distribution lists its own counts (up to the highest it
    can reach), so a grid of success counts by pool would leave blanks where
    a small pool cannot reach a count.  Those chances are known exactly: a
    count above a cell's highest has ``p_exactly``, ``p_at_least`` and
    ``p_more`` all 0; one below its lowest (only where some other cell
    reaches below 0) has ``p_exactly`` 0 and ``p_at_least`` and ``p_more``
    1.  ``keys`` are the table's axes (not ``successes``); the cell's
    ``mean_successes`` is repeated.  Zeros and ones are Fractions in an exact
    table, floats otherwise.  The size is checked as for any distribution.
    """
    keys = [k for k in keys if k in df.columns and k != "successes"]
    if df.empty or "successes" not in df.columns:
        return df
    low, high = int(df.successes.min()), int(df.successes.max())
    grouped = df.groupby(keys, sort=False) if keys else None
    groups = grouped if grouped is not None else [((), df)]
    n_cells = grouped.ngroups if grouped is not None else 1
    check_rows(n_cells * (high - low + 1))
    exact = df.p_exactly.dtype == object
    zero, one = (Fraction(0), Fraction(1)) if exact else (0.0, 1.0)
    parts = []
    for _, cell in groups:
        have = set(cell.successes.tolist())
        missing = [s for s in range(low, high + 1) if s not in have]
        if not missing:
            parts.append(cell)
            continue
        first = cell.iloc[0]
        lowest = int(cell.successes.min())
        add = {k: [first[k]] * len(missing) for k in keys}
        add["successes"] = missing
        add["p_exactly"] = [zero] * len(missing)
        add["p_at_least"] = [one if s < lowest else zero for s in missing]
        add["p_more"] = [one if s < lowest else zero for s in missing]
        if "mean_successes" in cell.columns:
            add["mean_successes"] = [first["mean_successes"]] * len(missing)
        extra = pd.DataFrame(add, columns=list(cell.columns)).astype(cell.dtypes.to_dict())
        parts.append(pd.concat([cell, extra]).sort_values("successes", kind="stable"))
    out = pd.concat(parts, ignore_index=True)
    out.attrs = dict(df.attrs)
    return out
