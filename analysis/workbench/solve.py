"""The reverse question: which value of an axis or a rule field brings a column to a target.

``solve("v5", find="pool", target="p_win>=0.7", hunger=2, difficulty=4)`` counts
the exact table of the values searched (the pools 0..100 here) in order and
gives the smallest pool whose ``p_win`` is at least 7/10.  Nothing assumes that
a column grows or falls with the value searched, and the answer is

* ``COLUMN>=X``, ``COLUMN>X``, ``COLUMN<=X``, ``COLUMN<X``: the smallest value
  (for a rule field with choices, the first in their declared order) that
  meets the target.  The values are counted in order, each over the cells of
  the other axes still without an answer, and the search stops once every cell
  has its answer: one value at a time, or, where one call counts a first axis
  of dice that roll again for the cost of its largest value, in batches of 1,
  2, 4, ...;
* ``COLUMN~X``: the value whose column is nearest X, the smallest on a tie
  (the tie is said in words in ``note``): every value is counted.

X is a decimal (``0.7``), a fraction (``7/10``) or a percentage (``70%``),
read and compared exactly, as Fractions.  Other axes given several values
make a table: one row per cell of them.  A target that no value searched
meets is an answer too: the row says so in ``note``, its value is None.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

import pandas as pd

from analysis.engine import at_least as counts_at_least, strategy_lists as strategies
from analysis.workbench import sweep
from analysis.workbench import rulesets
from analysis.workbench.compare import spec_text
from analysis.model.numbers import fraction_text
from analysis.engine.count import MAX_WORK
from analysis.engine.progress import progress_bar
from analysis.model.validate import as_values, check_cells, did_you_mean

#: An axis is searched from its lowest value up to this one (or its highest, when lower), unless
#: ``within`` gives the values: a pool of more than 100 dice is no tabletop roll, and counting
#: pools to 1,000 exactly takes seconds.
SEARCH_TOP = 100
#: Most values of a rule field searched (each one is a rule set counted over the grid).
MAX_RULE_VALUES = 1000
#: The comparisons a target may make, in words.
OPERATORS = {">=": "at least", ">": "more than", "<=": "at most", "<": "less than", "~": "nearest"}
#: The columns :func:`solve` returns after the axes and the value found.
COLUMNS = ("float", "note")

_TARGET = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(>=|<=|>|<|~)\s*(\S*)\s*$")
_NUMBER = re.compile(r"^[+-]?(?:\d+/\d+|\d+(?:\.\d*)?|\.\d+)%?$")
_FORMS = (
    "COLUMN>=X, COLUMN>X, COLUMN<=X, COLUMN<X or COLUMN~X (nearest), X a decimal, a fraction such as 7/10 "
    "or a percentage such as 70%"
)


def _text(value) -> str:
    return fraction_text(value)


@dataclass(frozen=True)
class Target:
    """What :func:`solve` looks for: ``column`` compared by ``op`` (``>=``, ``>``, ``<=``, ``<``, ``~``) with
    ``value``."""

    column: str
    op: str
    value: Fraction

    def __str__(self) -> str:
        return f"{self.column} {self.op} {_text(self.value)}"

    def meets(self, x: Fraction) -> bool:
        """Whether ``x`` meets a ``>=``, ``>``, ``<=`` or ``<`` target (exactly)."""
        if self.op == ">=":
            return x >= self.value
        if self.op == ">":
            return x > self.value
        if self.op == "<=":
            return x <= self.value
        return x < self.value

    def distance(self, x: Fraction) -> Fraction:
        return abs(x - self.value)


def parse_target(text, name: str = "target") -> Target:
    """``"p_win>=0.7"`` as a :class:`Target`; a ValueError of one sentence naming ``name`` otherwise."""
    if isinstance(text, Target):
        return text
    if not isinstance(text, str) or len(text) > 200:
        raise ValueError(f"{name} takes {_FORMS}, got {text!r}")
    m = _TARGET.match(text)
    if not m or not _NUMBER.match(m.group(3)):
        raise ValueError(f"{name} takes {_FORMS}, got {text!r}")
    number = m.group(3)
    try:
        value = Fraction(number[:-1]) / 100 if number.endswith("%") else Fraction(number)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{name}: {number!r} is not a number (a fraction's denominator is not 0)") from None
    return Target(m.group(1), m.group(2), value)


def system_named(word):
    """The system ``word`` names (a system's name or alias), or None."""
    if not isinstance(word, str):
        return None
    try:
        return rulesets.system(word)
    except ValueError:
        return None


def rule_set(rules) -> rulesets.RuleSet:
    """A system's name (its official rule set), or anything :func:`analysis.workbench.rulesets.load` reads."""
    named = system_named(rules)
    return rulesets.official(named) if named is not None else rulesets.load(rules)


@dataclass(frozen=True)
class _Search:
    kind: str  # "axis" or "field"
    values: list  # in the order searched
    capped: str | None  # why the default search of an axis stops below its highest value, in words
    numeric: bool  # "smallest" by value; else "first" in the order of the choices


def _values_of(system, find: str, within, names: dict) -> _Search:
    n = names.get
    if find in system.axis_names:
        lo, hi = dict(system.limits).get(find, (0, None))
        if within is not None:
            return _Search("axis", list(dict.fromkeys(as_values(n("within", "within"), within, lo, hi))), None, True)
        lo = max(lo, 0)  # a Requiem pool below 0 (a chance die, as 0) is searched only when asked for
        top = SEARCH_TOP if hi is None else min(hi, SEARCH_TOP)
        top = max(top, lo)
        capped = f"{find} has no highest value" if hi is None else f"{find} goes to {hi}" if hi > top else None
        return _Search("axis", list(range(lo, top + 1)), capped, True)
    infos = {i.name: i for i in system.rules.fields_info()}
    if find not in infos:
        fields = [k for k, i in infos.items() if _searchable(i)]
        hint = did_you_mean(find, list(system.axis_names) + fields)
        raise ValueError(
            f"{n('find', 'find')} takes an axis ({', '.join(system.axis_names)}) or a rule "
            f"field ({', '.join(fields) or 'none'}) of {system.name}, got {find!r}{hint}"
        )
    info = infos[find]
    if not _searchable(info):
        raise ValueError(
            f"{n('find', 'find')} {find}: that rule field holds "
            f"{'a group of rules' if info.nested else 'a ' + info.type.__name__} with no "
            f"range or choices to search"
        )
    if info.choices is not None or info.type is bool:
        if within is not None:
            raise ValueError(
                f"{n('within', 'within')} gives numbers to search; {find} is searched "
                f"over its choices ({info.allowed()})"
            )
        return _Search("field", list(info.choices) if info.choices is not None else [False, True], None, False)
    lo, hi = info.range if info.range is not None else (0, None)
    if within is None and info.range is None:
        raise ValueError(
            f"{n('find', 'find')} {find}: that rule field has no range; give the values "
            f"to search with {n('within', 'within')}"
        )
    if within is None and hi is None:
        raise ValueError(
            f"{n('find', 'find')} {find}: that rule field has no highest value; give the values "
            f"to search with {n('within', 'within')}"
        )
    values = (
        as_values(n("within", "within"), within, lo, hi) if within is not None else list(range(lo, cast(int, hi) + 1))
    )
    values = list(dict.fromkeys(values))
    if len(values) > MAX_RULE_VALUES:
        raise ValueError(
            f"{n('find', 'find')} {find} would search {len(values):,} values (limit "
            f"{MAX_RULE_VALUES:,}); narrow them with {n('within', 'within')}"
        )
    return _Search("field", values, None, True)


def _with_at_least(system, spec, name: str) -> tuple:
    """``system`` whose table adds the ``p_at_least_N`` columns of ``spec``, and those N."""
    if not system.takes("at_least"):
        raise ValueError(f"{name} adds p_at_least_N columns, which the {system.name} table does not have")
    ns = counts_at_least.parse(spec, name)
    table = functools.partial(system.table, at_least=spec)
    return dataclasses.replace(system, table=table), ns


def _searchable(info) -> bool:
    return not info.nested and (info.choices is not None or info.type in (bool, int))


def _columns(system, rules, grid: dict) -> list:
    """The value columns of the system's table (counted for one cell, the first of the grid)."""
    df = system.table(*([grid[a][0]] for a in system.axis_names), rules=rules, exact=True)
    return [
        c
        for c in df.columns
        if c not in system.axis_names and c != "strategy" and not pd.api.types.is_integer_dtype(df[c])
    ]


def solve(
    rules,
    find: str,
    target,
    *,
    within=None,
    at_least=None,
    strategy=None,
    jobs: int = 1,
    progress: bool = False,
    names: dict | None = None,
    **axes,
) -> pd.DataFrame:
    """The value of ``find`` that meets ``target``, counted exactly, for every cell of the other axes.

    Parameters
    ----------
    rules : str, RuleSet or rules object
        A system's name (its official rules: ``"v5"``), a shipped rule set's
        name, a rule-set or mechanic TOML file, a :class:`RuleSet` or a rules
        dataclass instance.
    find : str
        An axis of the system (``"pool"``, ``"difficulty"``) or a field of
        its rules (``"brutal_bonus"``, ``"crit_bonus"``, a mechanic file's
        parameter).
    target : str or Target
        ``"COLUMN>=X"``, ``"COLUMN>X"``, ``"COLUMN<=X"``, ``"COLUMN<X"`` or
        ``"COLUMN~X"`` (nearest); X is a
        decimal, a fraction (``"7/10"``) or a percentage (``"70%"``), read
        exactly.  COLUMN is any value column of the system's table.
    within : SPEC, optional
        The values searched.  Default: an axis from its lowest value (0 for
        a Requiem pool, whose values below 0 all roll the chance die of
        pool 0) up to ``SEARCH_TOP`` (100) or its highest, whichever is
        lower; a rule field over its declared range or choices.
    at_least : SPEC, optional
        Add the columns ``p_at_least_N`` (the chance of N or more
        successes) for each N, for a target such as ``"p_at_least_3>=0.5"``
        (systems whose table has them).
    strategy : str, strategy or list, optional
        Count the odds after that Willpower strategy (as ``strategy=`` of
        the system's table: V5, Werewolf, Hunter, a mechanic file with a
        ``[willpower]`` table); its ``willpower_spent`` and ``p_win_gain``
        may be targets too.  Several (``"none,maximize_win"``): one answer
        per strategy, ``strategy`` a column after the axes.
    jobs, progress
        As in :func:`analysis.workbench.sweep.tables`.
    names : dict, optional
        ``{name: how messages spell it}`` (``{"pool": "--pool", "find":
        "--find"}``), for the command line.
    **axes
        ``axis=SPEC`` for the other axes; an axis left out takes the
        system's default SPEC.  Several values: one row per cell.

    Returns
    -------
    DataFrame
        One row per cell of the other axes (and strategy): those axes, then ``find`` (the
        value found, None when no value searched meets the target), the
        target's column (its exact Fraction there, None when none does),
        ``float`` (its float) and ``note`` (a tie, or that no value reaches
        the target, in words; "" otherwise).  ``attrs`` holds ``rule_set``,
        ``find``, ``target``, ``searched`` (the values searched),
        ``capped`` (why the default search of an axis stopped below its
        highest value, in words, else None), ``counted`` (the values counted: a
        search for the first value meeting the target stops once every cell
        has its answer) and ``question`` (what was asked, in words).

    Examples
    --------
    >>> row = solve("v5", "pool", "p_win>=0.7", hunger=2, difficulty=4).iloc[0]
    >>> int(row["pool"]), row["p_win"], row["note"]
    (9, Fraction(24511, 32000), '')
    """
    names = dict(names or {})
    n = names.get
    rs = rule_set(rules)
    system = rulesets.system(rs.system)
    if not isinstance(find, str):
        raise ValueError(f"{n('find', 'find')} takes the name of an axis or a rule field, got {find!r}")
    goal = parse_target(target, n("target", "target"))
    if find in axes:
        raise ValueError(
            f"{n(find, find)} and {n('find', 'find')} {find} both give the {find}: leave "
            f"{n(find, find)} out (give the values to search with {n('within', 'within')})"
        )
    search = _values_of(system, find, within, names)
    if strategy is not None:  # several: one answer per strategy, side by side
        system = strategies.bound(system, strategy, rs.name, n("strategy", "strategy"))
    if at_least is not None:
        system, ns = _with_at_least(system, at_least, n("at_least", "at_least"))
    grid = sweep.resolve_grid(system, axes, names)  # the other axes: checked, sized
    others = [a for a in system.axis_names if a != find]
    counts = {names.get(a, a): len(grid[a]) for a in others}
    counts[n("find", "find")] = len(search.values)
    cells = check_cells(counts)
    if at_least is not None:
        counts_at_least.check_size(cells, ns, n("at_least", "at_least"))
    if search.kind == "axis":
        grid[find] = search.values
    # each value of a rule field is checked as the rules are made (a refusal is one sentence naming it)
    rules_list = [dataclasses.replace(rs.rules, **{find: v}) for v in search.values] if search.kind == "field" else []
    searched = list(search.values)
    if strategy is not None and goal.op == "~":  # the reroll's work over the whole grid, before any counting
        strategies.check(system, grid, rs.rules)  # (a search in order checks each value's before counting it)
    columns = _columns(system, rs.rules, grid)
    if goal.column not in columns:
        raise ValueError(
            f"{n('target', 'target')}: the {system.name} table has no column "
            f"{goal.column!r}{did_you_mean(goal.column, columns)}; its columns are "
            f"{', '.join(columns)}"
        )
    desc = f"solve {rs.name}"
    if goal.op == "~":  # the nearest: every value is counted
        if search.kind == "axis":
            table = sweep.tables(
                system, [rs.rules], grid, exact=True, jobs=jobs, progress=progress, desc=desc, names=names
            )[0]
        else:
            frames = sweep.tables(
                system, rules_list, grid, exact=True, jobs=jobs, progress=progress, desc=desc, names=names
            )
            table = pd.concat([_with_value(df, find, v) for v, df in zip(searched, frames)], ignore_index=True)
        counted = searched
    else:
        table, counted = _count_until(
            system, rs.rules, rules_list, grid, others, find, goal, searched, jobs=jobs, progress=progress, desc=desc
        )
    keys = others + (["strategy"] if "strategy" in table.columns else [])
    out = _pick(table, keys, find, goal, counted, search, grid)
    where = _spec(searched, search.numeric)
    how = ("smallest" if search.numeric else "first") if goal.op != "~" else None
    question = (
        f"the {how} {find} in {where} with {goal.column} {goal.op} {_text(goal.value)}"
        if how
        else f"the {find} in {where} whose {goal.column} is nearest {_text(goal.value)} "
        f"(the {'smallest' if search.numeric else 'first'} on a tie)"
    )
    if strategy is not None:
        question += f", after the Willpower strategy {strategies.text(strategy)}"
    out.attrs.update(
        rule_set=rs, find=find, target=goal, searched=searched, counted=counted, capped=search.capped, question=question
    )
    return out


def _plain(value):
    """A numpy scalar as the Python value it holds (a key of a cell)."""
    return value.item() if hasattr(value, "item") else value


def _with_value(df: pd.DataFrame, find: str, value) -> pd.DataFrame:
    """A table of one rule set of a searched rule field, with that field's ``value`` as its first column."""
    df.insert(0, find, pd.Series([value] * len(df), index=df.index, dtype=object))
    return df


def _count_until(
    system,
    rules,
    rules_list,
    grid: dict,
    others: list,
    find: str,
    goal: Target,
    searched: list,
    *,
    jobs: int,
    progress: bool,
    desc: str,
) -> tuple:
    """``(table, values counted)``: the table of each value of ``find`` in the order searched, each over
    the cells of the ``others`` axes that no earlier value answered (the smallest product of their values
    that holds them), until every cell has its answer or the values run out.

    The values are counted one at a time, except where ``find`` is the first axis of a system that counts
    every value of it for the cost of its largest (``System.whole_first_axis``: dice that roll again), whose
    values are counted in batches of 1, 2, 4, ... (a cell's rows past its answer are dropped).  The values
    of a rule field are ``rules_list``'s rule sets (``searched`` in the same order); ``grid`` has the values
    searched under ``find`` when it is an axis.  Before each call, its work is sized where the table
    function can (its ``check_only``), and the search refuses, in one sentence, before its work in all
    would pass the limit.  A progress bar counts the values."""
    axis = find in grid
    sized = system.takes("check_only")
    doubling = axis and system.whole_first_axis and system.axis_names[0] == find
    spent = 0  # the steps of the calls made so far, where the table function sizes them
    open_keys = None  # the keys (cells of the others, and the strategy) without an answer; None: all
    frames, counted = [], []
    bar = progress_bar(len(searched), desc, "value", progress)
    try:
        i, size = 0, 1
        while i < len(searched) and (open_keys is None or open_keys):
            batch = searched[i : i + size] if doubling else [searched[i]]
            part = {
                a: (
                    batch
                    if a == find
                    else vs
                    if open_keys is None
                    else [x for x in vs if any(k[others.index(a)] == x for k in open_keys)]
                )
                for a, vs in grid.items()
            }
            one = rules if axis else rules_list[i]
            if sized:  # this call's work, and the search's so far, sized before it is counted
                values = (part[a] for a in system.axis_names)
                steps = system.table(*values, rules=one, exact=True, check_only=True)
                spent += steps if isinstance(steps, int) else 0
                if spent > MAX_WORK:
                    raise ValueError(
                        f"solve: counting {find} {_spec(searched[: i + len(batch)], True)} would take about "
                        f"{spent:,} steps in all (limit {MAX_WORK:,}, about a minute); give a smaller range to "
                        f"search with --within"
                    )
            if jobs == 1:  # one call of the table function over the open cells
                df = system.table(*(part[a] for a in system.axis_names), rules=one, exact=True)
            else:
                df = sweep.tables(system, [one], part, exact=True, jobs=jobs)[0]
            if not axis:
                df = _with_value(df, find, batch[0])
            names = others + (["strategy"] if "strategy" in df.columns else [])
            for value in batch:  # in the order searched: a cell closes at its first value that meets it
                rows = df[df[find] == value] if len(batch) > 1 else df
                keys = [tuple(_plain(k) for k in key) for key in rows[names].itertuples(index=False, name=None)]
                mine = [open_keys is None or key in open_keys for key in keys]
                if open_keys is None:
                    open_keys = set(keys)
                rows = rows[mine].reset_index(drop=True)
                for key, x in zip((k for k, m in zip(keys, mine) if m), rows[goal.column].tolist()):
                    if goal.meets(Fraction(x)):
                        open_keys.discard(key)
                frames.append(rows)
                counted.append(value)
                bar.update(1)
                if not open_keys:
                    break
            i += len(batch)
            size *= 2
    finally:
        bar.close()
    return pd.concat(frames, ignore_index=True), counted


def _spec(values, numeric: bool) -> str:
    if numeric:
        return spec_text(values)
    return ", ".join(rulesets.show_value(v) for v in values)


def _pick(
    table: pd.DataFrame, others: list, find: str, goal: Target, searched: list, search: _Search, grid: dict
) -> pd.DataFrame:
    """One row per cell of the ``others`` axes: the value of ``find`` chosen, its column, a note."""
    order = {v: i for i, v in enumerate(searched)}
    key = (lambda v: v) if search.numeric else order.__getitem__
    rows = []
    groups = table.groupby(others, sort=False) if others else [((), table)]
    for cell, df in groups:
        cell = cell if isinstance(cell, tuple) else (cell,)
        got = {}
        for v, x in zip(df[find].tolist(), df[goal.column].tolist()):
            v = v.item() if hasattr(v, "item") else v
            if v in got:
                raise ValueError(f"the table has two rows for {find} {v} at one cell; solve needs one")
            got[v] = Fraction(x)
        found, note = _choose(got, goal, find, key, search.numeric)
        row = dict(zip(others, (c.item() if hasattr(c, "item") else c for c in cell)))
        value = got[found] if found is not None else None
        row.update(
            {find: found, goal.column: value, "float": float(value) if value is not None else None, "note": note}
        )
        rows.append(row)
    out = pd.DataFrame(rows, columns=[*others, find, goal.column, *COLUMNS])
    found = [r[find] for r in rows]  # as found: a whole number stays one beside a cell without an answer
    if search.numeric and all(v is not None for v in found):
        out[find] = pd.Series(found, dtype="int64")
    else:
        out[find] = pd.Series(found, dtype=object)
    out[goal.column] = pd.Series([r[goal.column] for r in rows], dtype=object)
    return out


def _choose(got: dict, goal: Target, find: str, key, numeric: bool) -> tuple:
    """``(value found or None, note)`` among ``got`` = ``{value: exact column value}``."""
    what = f"{find} in {_spec(list(got), numeric)}"
    least = "smallest" if numeric else "first"
    if goal.op == "~":
        best = min(goal.distance(x) for x in got.values())
        tied = sorted((v for v, x in got.items() if goal.distance(x) == best), key=key)
        if len(tied) == 1:
            return tied[0], ""
        if len(set(got[v] for v in tied)) == 1:
            same = "every " + what if len(tied) == len(got) else f"{find} {_spec(tied, numeric)}"
            return tied[0], (f"tie: {same} gives the same {goal.column} {_text(got[tied[0]])}; the {least} is given")
        shown = ", ".join(f"{rulesets.show_value(v)} ({goal.column} {_text(got[v])})" for v in tied)
        return tied[0], (f"tie: {find} {shown} are as near {_text(goal.value)}; the {least} is given")
    hits = sorted((v for v, x in got.items() if goal.meets(x)), key=key)
    if not hits:
        return None, f"no {what} has {goal.column} {goal.op} {_text(goal.value)}"
    return hits[0], ""  # the search stopped there (:func:`_count_until`)
