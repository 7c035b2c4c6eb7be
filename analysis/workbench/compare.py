"""Two rule sets compared over a grid, outcome class by outcome class: :func:`compare`.

The rule sets are of one system, or of two that share axes (compared on
those, classes matched by name), optionally both after a Willpower strategy.
Both rule sets are counted exactly over the same cells; each row of
:attr:`Comparison.table` holds one outcome of one cell under ``a`` and ``b``
and their ``difference = b - a``, computed on the fractions.
:meth:`Comparison.top` finds the cells where the change matters most.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.workbench import rulesets
from analysis.engine import strategy_lists as _strategies
from analysis.workbench import sweep
from analysis.engine.display import percent
from analysis.model.escape import html_text
from analysis.model.escape import row, table
from analysis.workbench.rulesets import flat_values, show_value, system
from analysis.model.validate import check_bool, check_int, column_names, did_you_mean, first_repeat, one_line

#: Columns of :attr:`Comparison.table` after the system's axes.
COMPARE_COLUMNS = ("outcome", "a", "b", "difference")


class Comparison:
    """Two rule sets side by side over a grid (see :func:`compare`).

    Attributes
    ----------
    system : str
        The system of ``a`` (both rule sets' system when they share one).
    systems : tuple of str
        The systems of ``a`` and ``b``.
    only : dict
        ``{"a": classes of b that a lacks, "b": classes of a that b lacks}``:
        a class one side lacks has chance 0 there.
    fixed : dict
        ``{axis: (side, value)}`` for an axis only one side has (held at one value).
    a, b : analysis.workbench.rulesets.RuleSet
        The two rule sets; ``difference = b - a``.
    grid : dict
        ``{axis: [values]}``, the cells compared.
    table : pandas.DataFrame
        Tidy, one row per (cell, outcome): the system's axes, then
        ``outcome, a, b, difference`` (floats, or Fractions when exact).
    outcomes : tuple of str
        The outcome columns compared, in the system's table order.
    exact : bool
    """

    def __init__(
        self,
        system,
        a,
        b,
        grid,
        table,
        outcomes,
        exact,
        *,
        systems=None,
        only=None,
        fixed=None,
        left_out=(),
        strategy=None,
        side_by_side=False,
    ):
        self.system, self.a, self.b, self.grid = system, a, b, grid
        self.table, self.outcomes, self.exact = table, tuple(outcomes), exact
        #: ``(system of a, system of b)``: the same name twice for two rule sets of one system
        self.systems = tuple(systems) if systems is not None else (system, system)
        #: ``{"a": classes a lacks, "b": classes b lacks}``: those classes' chance is 0 on that side
        self.only = {"a": (), "b": (), **(only or {})}
        #: ``{axis: (side, value)}``: an axis only one side has, held at one value
        self.fixed = dict(fixed or {})
        #: columns one side lacks that are not chances (a mean, a count): not compared
        self.left_out = tuple(left_out)
        #: the Willpower strategy both sides roll under (as given), or None
        self.strategy = strategy
        #: several strategies side by side: ``strategy`` is a key column of :attr:`table`
        self.side_by_side = bool(side_by_side)

    @property
    def axes(self) -> tuple:
        return tuple(self.grid)

    @property
    def cell_columns(self) -> tuple:
        """The columns naming one compared cell: the axes, and ``strategy`` when several are side by side."""
        return self.axes + (("strategy",) if self.side_by_side else ())

    @property
    def key_columns(self) -> tuple:
        """The columns that are not probabilities (for :func:`analysis.present.formats.render.render`)."""
        return self.cell_columns + ("outcome",)

    def changes(self) -> dict:
        """``{field: (value in a, value in b)}`` for every field where the rule sets differ.

        The fields of :meth:`analysis.workbench.rulesets.RuleSet.all_fields`, less the sub-rules tables
        that neither rule set sets: both have their defaults there, so none of their fields
        differs (and their rules' modules need not be loaded to say so).
        """
        fa, fb = _fields(self.a, self.b), _fields(self.b, self.a)
        return {k: (fa[k], fb[k]) for k in fa if k in fb and fa[k] != fb[k]}

    def one_sided(self) -> dict:
        """``{"a": {field: value}, "b": {...}}``: the fields only one rule set has (two systems' rule sets)."""
        if self.systems[0] == self.systems[1]:
            return {"a": {}, "b": {}}
        fa, fb = _fields(self.a, self.b), _fields(self.b, self.a)
        return {"a": {k: v for k, v in fa.items() if k not in fb}, "b": {k: v for k, v in fb.items() if k not in fa}}

    def top(self, n: int = 10, per_cell: bool = True) -> pd.DataFrame:
        """Where the change matters most: rows by decreasing ``|difference|``.

        With ``per_cell`` (default) each cell appears once, with the outcome
        that changes most there; unchanged rows are left out.  Ties keep the
        table's order.
        """
        n = check_int("n", n, 1)
        df = self.table
        size = [abs(d) for d in df["difference"]]
        order = sorted((i for i in range(len(df)) if size[i] != 0), key=lambda i: -size[i])
        if per_cell:
            seen, kept = set(), []
            for i in order:
                cell = tuple(df[a].iat[i] for a in self.cell_columns)
                if cell not in seen:
                    seen.add(cell)
                    kept.append(i)
            order = kept
        return df.iloc[order[:n]].reset_index(drop=True)

    @property
    def most_changed(self) -> pd.DataFrame:
        """The ten cells where the change matters most (``top(10)``)."""
        return self.top(10)

    def describe(self) -> str:
        """A few lines naming the two rule sets, what differs and the grid."""
        sa, sb = self.systems
        if sa == sb:
            lines = [f"compare {self.system} rule sets: a = {one_line(self.a.name)}, b = {one_line(self.b.name)}"]
        else:
            lines = [
                f"compare rule sets of two systems on their shared axes: a = {one_line(self.a.name)} "
                f"({one_line(sa)}), b = {one_line(self.b.name)} ({one_line(sb)})"
            ]
        changes = self.changes()
        if changes:
            lines.append(
                "  changed: "
                + "; ".join(
                    f"{k} {one_line(show_value(x))} -> {one_line(show_value(y))}" for k, (x, y) in changes.items()
                )
            )
        for side, fields in self.one_sided().items():
            if fields:
                lines.append(
                    f"  only in {side}: " + "; ".join(f"{k} = {one_line(show_value(v))}" for k, v in fields.items())
                )
        for side, other in (("b", "a"), ("a", "b")):
            if self.only[other]:
                word = "class" if len(self.only[other]) == 1 else "classes"
                lines.append(f"  {word} of {side} only: {', '.join(self.only[other])} (0 under {other})")
        for axis, (side, value) in self.fixed.items():
            lines.append(f"  {axis} {value}: an axis of {side} only, held at that value")
        if self.left_out:
            lines.append(f"  not compared (one side only, and not a chance): {', '.join(self.left_out)}")
        if self.strategy is not None:
            side_by_side = " (side by side)" if _strategies.several(self.strategy) else ""
            lines.append(f"  Willpower: both after {one_line(_strategies.text(self.strategy))}{side_by_side}")
        if sa == sb and not changes:
            lines.append("  the two rule sets are the same: every difference is 0")
        cells = 1
        for v in self.grid.values():
            cells *= len(v)
        lines.append(
            "  grid: "
            + ", ".join(f"{a} {spec_text(v)}" for a, v in self.grid.items())
            + f" ({cells} cell{'s' if cells != 1 else ''}); difference = b - a"
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.describe()

    def _repr_html_(self) -> str:
        """For Jupyter: the description, then the ten cells where the change matters most."""
        top = self.top(10)
        head = row((html_text(c) for c in top.columns), "th")
        body = "".join(
            row(html_text(percent(v) if c in ("a", "b", "difference") else v) for c, v in zip(top.columns, cells))
            for cells in top.itertuples(index=False)
        )
        text = "<br>".join(html_text(line) for line in self.describe().splitlines())
        return f"<p>{text}</p>" + (table(head, body) if len(top) else "")


def _fields(rs, other) -> dict:
    """``rs.all_fields()`` without the sub-rules tables that neither ``rs`` nor ``other`` sets."""
    out = flat_values(rs.rules)
    tables = {name for name, _ in rs.sub_rules} | {name for name, _ in other.sub_rules}
    if tables:
        for name in system(rs.system).sub_rule_names:
            if name in tables:
                out.update(flat_values(rs.sub(name), f"{name}."))
    return out


def spec_text(values) -> str:
    """Values as a short SPEC: ``1-10``, ``3,5,7``."""
    values = list(values)
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ",".join(str(v) for v in values)


def compare(
    a,
    b,
    grid=None,
    *,
    exact: bool = False,
    jobs: int = 1,
    progress: bool = False,
    names: dict | None = None,
    outcomes=None,
    strategy=None,
) -> Comparison:
    """Compare two rule sets over a grid, outcome class by outcome class.

    Parameters
    ----------
    a, b : str, Path, RuleSet or rules object
        A shipped variant's name (``"v5-official"``), a path to a rule-set
        TOML file or a mechanic file, or a rules dataclass instance.  Of one
        system, or of two systems that share axes (the V5 rules against a
        designer's mechanic file): then the grid is the shared axes, an axis
        only one side has must come to one value (held there, see
        ``Comparison.fixed``), and outcomes match by name: a class one side
        lacks has chance 0 there (``Comparison.only``), any other column one
        side lacks is not compared (``Comparison.left_out``).
    grid : dict, optional
        ``{axis: SPEC}`` (``{"pool": "1-10", "hunger": "0-5", "difficulty":
        3}``); missing axes take the default SPEC (of ``a``'s system).
    exact : bool
        Fractions (exact differences) instead of floats.
    jobs : int
        Processes to spread the grid over (0: every core); the result is
        identical to ``jobs=1``.
    progress : bool
        A progress bar on stderr.
    names : dict, optional
        ``{axis: "--pool"}``: how messages name an axis (default: its name).
    outcomes : str or sequence of str, optional
        Only these outcome columns (``"p_win,bestial_failure"``), in the
        system's order; an unknown name gets a "did you mean".
    strategy : str, strategy or list, optional
        Both rule sets after that Willpower strategy (as ``strategy=`` of
        their tables: a name, several side by side, ``none`` for no
        Willpower): ``willpower_spent`` and ``p_win_gain`` are compared too,
        and several strategies make ``strategy`` a key column.  A rule set
        whose system has no Willpower reroll is refused.

    Everything (both rule sets, every axis value, the grid's size, ``jobs``,
    the outcomes) is checked before the first cell is counted.

    Returns
    -------
    Comparison
        ``.table``: tidy rows (axes, ``outcome``, ``a``, ``b``,
        ``difference = b - a``); ``.top(n)``: the cells where the change
        matters most; ``.describe()``: what differs.

    Examples
    --------
    >>> c = compare("v5-official", "v5-two-hunger-ones-for-bestial", {"pool": 5, "hunger": 3, "difficulty": 2})
    >>> c.top(1)[["outcome", "difference"]].values.tolist()
    [['bestial_failure', -0.066]]
    """
    exact, progress = check_bool("exact", exact), check_bool("progress", progress)
    ra, rb = rulesets.load(a), rulesets.load(b)
    sa, sb = rulesets.system(ra.system), rulesets.system(rb.system)
    names = {} if names is None else names
    option = names.get("strategy", "strategy")
    sa, sb = _strategies.bound(sa, strategy, ra.name, option), _strategies.bound(sb, strategy, rb.name, option)
    if sa.name == sb.name:
        cells = sweep.resolve_grid(sa, grid, names)
        cells_a = cells_b = cells
        fixed: dict = {}
    else:
        cells, cells_a, cells_b, fixed = _shared_grid(ra, rb, sa, sb, grid, names)
    jobs = sweep.check_jobs(jobs)
    wanted = None
    if outcomes is not None:  # checked on the table of one cell, before the grid is counted
        wanted = column_names("--outcome", outcomes)
        twice = first_repeat(wanted)
        if twice is not None:
            raise ValueError(f"--outcome names {twice!r} twice")
        known = list(_outcomes_of(sa, ra, cells_a))
        if sb.name != sa.name:
            known += [o for o in _outcomes_of(sb, rb, cells_b) if o not in known]
        for name in wanted:
            if name not in known:
                whose = f"the {sa.name} rule sets have no" if sb.name == sa.name else "neither rule set has an"
                raise ValueError(
                    f"--outcome: {whose} outcome {name!r}{did_you_mean(name, known)}; they are {', '.join(known)}"
                )
    if strategy is not None:  # every strategy's reroll over the whole grid, before the first cell is counted
        for side, system, rs, grid_ in (("a", sa, ra, cells_a), ("b", sb, rb, cells_b)):
            try:
                _strategies.check(system, grid_, rs.rules)
            except ValueError as exc:
                if sa.name == sb.name:
                    raise
                raise ValueError(f"{option} under {one_line(rs.name)} ({side}): {exc}") from None
    # counted exactly whatever ``exact``: the difference is b - a of the fractions, then
    # (without ``exact``) each cell is float() of its fraction, correctly rounded
    if sa.name == sb.name:
        ta, tb = sweep.tables(
            sa,
            [ra.rules, rb.rules],
            cells,
            exact=True,
            jobs=jobs,
            progress=progress,
            desc=f"{ra.name} vs {rb.name}",
            names=names,
        )
    else:
        (ta,) = sweep.tables(
            sa, [ra.rules], cells_a, exact=True, jobs=jobs, progress=progress, desc=ra.name, names=names
        )
        (tb,) = sweep.tables(
            sb, [rb.rules], cells_b, exact=True, jobs=jobs, progress=progress, desc=rb.name, names=names
        )
    side_by_side = "strategy" in ta.columns
    keys = list(cells) + (["strategy"] if side_by_side else [])
    if sa.name != sb.name:
        tb = _aligned(ta, tb, keys)
    outcomes, only, left_out = _matched_outcomes(sa, sb, ta, tb)
    if wanted is not None:
        outcomes = [o for o in outcomes if o in set(wanted)]
    n, k = len(ta), len(outcomes)
    out = {ax: np.repeat(ta[ax].to_numpy(), k) for ax in keys}
    out["outcome"] = np.tile(np.array(outcomes, dtype=object), n)
    va = _fractions(ta, outcomes)
    vb = _fractions(tb, outcomes)
    diff = [y - x for x, y in zip(va, vb)]
    if exact:
        out["a"], out["b"], out["difference"] = (np.array(c, dtype=object) for c in (va, vb, diff))
    else:
        out["a"], out["b"], out["difference"] = (
            np.array([float(v) for v in c], dtype=np.float64) for c in (va, vb, diff)
        )
    if wanted is not None:
        only = {side: tuple(o for o in names_ if o in outcomes) for side, names_ in only.items()}
    return Comparison(
        sa.name,
        ra,
        rb,
        cells,
        pd.DataFrame(out),
        outcomes,
        exact,
        systems=(sa.name, sb.name),
        only=only,
        fixed=fixed,
        left_out=left_out,
        strategy=strategy,
        side_by_side=side_by_side,
    )


def _outcomes_of(system, rs, cells) -> list:
    """The outcome columns of a system's table, read from the table of its grid's first cell."""
    one = system.table(*([v[0]] for v in cells.values()), rules=rs.rules, exact=False)
    return _with_willpower(system.outcome_columns(one), one, one)


#: The columns a Willpower strategy adds to a table, compared as its classes are.
WILLPOWER_COLUMNS = ("willpower_spent", "p_win_gain")


def _with_willpower(outcomes, ta: pd.DataFrame, tb: pd.DataFrame) -> list:
    """``outcomes`` without the ``strategy`` key, with the Willpower columns both tables have."""
    kept = [o for o in outcomes if o != "strategy"]
    return kept + [c for c in WILLPOWER_COLUMNS if c in ta.columns and c in tb.columns and c not in kept]


def _fractions(df: pd.DataFrame, outcomes) -> list:
    """The chances of ``outcomes`` row by row as Fractions; a column the table lacks is 0."""
    columns = [df[o].to_numpy() if o in df.columns else np.zeros(len(df), dtype=np.int64) for o in outcomes]
    return [Fraction(columns[j][i]) for i in range(len(df)) for j in range(len(outcomes))]


def _shared_grid(ra, rb, sa, sb, grid, names) -> tuple:
    """``(compared grid, grid of a, grid of b, fixed axes)`` for rule sets of two systems.

    The compared grid is over the axes both systems have, in ``a``'s order
    (a SPEC left out takes ``a``'s default, checked against both systems'
    limits); an axis only one side has must come to one value (given, or its
    default), held there.
    """
    grid = {} if grid is None else dict(grid)
    for axis in grid:
        if axis not in sa.axis_names and axis not in sb.axis_names:
            raise ValueError(
                f"{names.get(axis, axis)} is an axis of neither {ra.name} ({', '.join(sa.axis_names)}) "
                f"nor {rb.name} ({', '.join(sb.axis_names)})"
            )
    shared = [x for x in sa.axis_names if x in sb.axis_names]
    if not shared:
        raise ValueError(
            f"{ra.name} (axes {', '.join(sa.axis_names)}) and {rb.name} (axes {', '.join(sb.axis_names)}) "
            f"share no axis: compare counts two rule sets over the axes they share"
        )
    cells_a = sweep.resolve_grid(sa, {x: v for x, v in grid.items() if x in sa.axis_names}, names)
    spec_b = {x: v for x, v in grid.items() if x in sb.axis_names}
    spec_b.update({x: cells_a[x] for x in shared})
    cells_b = sweep.resolve_grid(sb, spec_b, names)
    fixed = {}
    for side, rs, cells, other in (("a", ra, cells_a, sb), ("b", rb, cells_b, sa)):
        for axis, values in cells.items():
            if axis in other.axis_names:
                continue
            if len(values) != 1:
                option = names.get(axis, axis)
                raise ValueError(
                    f"{option} is an axis of {rs.name} only: give it one value (such as {option} {values[0]}) "
                    f"to compare on the axes both rule sets share"
                )
            fixed[axis] = (side, values[0])
    return {x: cells_a[x] for x in shared}, cells_a, cells_b, fixed


def _aligned(ta: pd.DataFrame, tb: pd.DataFrame, shared: list) -> pd.DataFrame:
    """``tb``'s rows in ``ta``'s order of the shared axes' cells (and strategies, side by side)."""

    def key(row) -> tuple:
        return tuple(v if isinstance(v, str) else int(v) for v in row)  # an axis value, or a strategy's name

    where = {key(row): i for i, row in enumerate(tb[shared].itertuples(index=False))}
    order = [where[key(row)] for row in ta[shared].itertuples(index=False)]
    return tb.iloc[order].reset_index(drop=True)


def _matched_outcomes(sa, sb, ta: pd.DataFrame, tb: pd.DataFrame) -> tuple:
    """``(outcomes, only, left_out)``: the outcome columns compared, matched by name.

    ``a``'s columns in its order, then those of ``b`` that ``a`` lacks.  A
    chance (a class, or a ``p_`` column) one side lacks is 0 there:
    ``only["a"]`` names the ones ``a`` lacks, ``only["b"]`` those ``b`` lacks.
    Any other column one side lacks (a mean, a count) is not compared:
    ``left_out`` names it.
    """
    oa = _with_willpower(sa.outcome_columns(ta), ta, ta)
    if sa.name == sb.name:
        return oa, {"a": (), "b": ()}, ()
    ob = _with_willpower(sb.outcome_columns(tb), tb, tb)
    chances = {c for c, _ in sa.classes} | {c for c, _ in sb.classes}

    def chance(name):
        return name in chances or name.startswith("p_")

    both = oa + [o for o in ob if o not in oa]
    outcomes = [o for o in both if (o in oa and o in ob) or chance(o)]
    only = {"a": tuple(o for o in outcomes if o not in oa), "b": tuple(o for o in outcomes if o not in ob)}
    return outcomes, only, tuple(o for o in both if o not in outcomes)
