"""Two rule sets of one system compared over a grid, outcome class by outcome class: :func:`compare`.

Both rule sets are counted exactly over the same cells; each row of
:attr:`Comparison.table` holds one outcome of one cell under ``a`` and ``b``
and their ``difference = b - a``, computed on the fractions.
:meth:`Comparison.top` finds the cells where the change matters most.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from .validate import column_names, first_repeat, one_line


#: Columns of :attr:`Comparison.table` after the system's axes.
COMPARE_COLUMNS = ("outcome", "a", "b", "difference")


class Comparison:
    """Two rule sets of one system side by side over a grid (see :func:`compare`).

    Attributes
    ----------
    system : str
        The system both rule sets belong to.
    a, b : analysis.rulesets.RuleSet
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

    def __init__(self, system, a, b, grid, table, outcomes, exact):
        self.system, self.a, self.b, self.grid = system, a, b, grid
        self.table, self.outcomes, self.exact = table, tuple(outcomes), exact

    @property
    def axes(self) -> tuple:
        return tuple(self.grid)

    @property
    def key_columns(self) -> tuple:
        """The columns that are not probabilities (for :func:`analysis.formats.render.render`)."""
        return self.axes + ("outcome",)

    def changes(self) -> dict:
        """``{field: (value in a, value in b)}`` for every field where the rule sets differ.

        The fields of :meth:`analysis.rulesets.RuleSet.all_fields`, less the sub-rules tables
        that neither rule set sets: both have their defaults there, so none of their fields
        differs (and their rules' modules need not be loaded to say so).
        """
        fa, fb = _fields(self.a, self.b), _fields(self.b, self.a)
        return {k: (fa[k], fb[k]) for k in fa if fa[k] != fb[k]}

    def top(self, n: int = 10, per_cell: bool = True) -> pd.DataFrame:
        """Where the change matters most: rows by decreasing ``|difference|``.

        With ``per_cell`` (default) each cell appears once, with the outcome
        that changes most there; unchanged rows are left out.  Ties keep the
        table's order.
        """
        from .validate import check_int

        n = check_int("n", n, 1)
        df = self.table
        size = [abs(d) for d in df["difference"]]
        order = sorted((i for i in range(len(df)) if size[i] != 0), key=lambda i: -size[i])
        if per_cell:
            seen, kept = set(), []
            for i in order:
                cell = tuple(df[a].iat[i] for a in self.axes)
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
        from .rulesets import show_value

        lines = [f"compare {self.system} rule sets: a = {one_line(self.a.name)}, b = {one_line(self.b.name)}"]
        changes = self.changes()
        if changes:
            lines.append(
                "  changed: "
                + "; ".join(
                    f"{k} {one_line(show_value(x))} -> {one_line(show_value(y))}" for k, (x, y) in changes.items()
                )
            )
        else:
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
        from .display import percent
        from .formats.escape import html_text
        from .formats.html import row, table

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
    from .rulesets import flat_values, system

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
) -> Comparison:
    """Compare two rule sets of the same system over a grid, outcome class by outcome class.

    Parameters
    ----------
    a, b : str, Path, RuleSet or rules object
        A shipped variant's name (``"v5-official"``), a path to a rule-set
        TOML file, or a rules dataclass instance; both of one system.
    grid : dict, optional
        ``{axis: SPEC}`` (``{"pool": "1-10", "hunger": "0-5", "difficulty":
        3}``); missing axes take the system's default SPEC.
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
    from . import rulesets, sweep
    from .validate import check_bool

    exact, progress = check_bool("exact", exact), check_bool("progress", progress)
    ra, rb = rulesets.load(a), rulesets.load(b)
    if ra.system != rb.system:
        raise ValueError(
            f"{ra.name} is a {ra.system} rule set and {rb.name} a {rb.system} one: "
            f"compare needs two rule sets of the same system"
        )
    system = rulesets.system(ra.system)
    cells = sweep.resolve_grid(system, grid, names)
    jobs = sweep.check_jobs(jobs)
    wanted = None
    if outcomes is not None:  # checked on the table of one cell, before the grid is counted
        wanted = column_names("--outcome", outcomes)
        twice = first_repeat(wanted)
        if twice is not None:
            raise ValueError(f"--outcome names {twice!r} twice")
        one = system.table_function(*([v[0]] for v in cells.values()), rules=ra.rules, exact=False)
        known = system.outcome_columns(one)
        for name in wanted:
            if name not in known:
                from .validate import did_you_mean

                raise ValueError(
                    f"--outcome: the {system.name} rule sets have no outcome {name!r}"
                    f"{did_you_mean(name, known)}; they are {', '.join(known)}"
                )
    # counted exactly whatever ``exact``: the difference is b - a of the fractions, then
    # (without ``exact``) each cell is float() of its fraction, correctly rounded
    ta, tb = sweep.tables(
        system,
        [ra.rules, rb.rules],
        cells,
        exact=True,
        jobs=jobs,
        progress=progress,
        desc=f"{ra.name} vs {rb.name}",
        names=names,
    )
    axes = list(cells)
    outcomes = system.outcome_columns(ta)
    if wanted is not None:
        outcomes = [o for o in outcomes if o in set(wanted)]
    n, k = len(ta), len(outcomes)
    out = {ax: np.repeat(ta[ax].to_numpy(), k) for ax in axes}
    out["outcome"] = np.tile(np.array(outcomes, dtype=object), n)
    va = [Fraction(v) for v in ta[outcomes].to_numpy().ravel()]
    vb = [Fraction(v) for v in tb[outcomes].to_numpy().ravel()]
    diff = [y - x for x, y in zip(va, vb)]
    if exact:
        out["a"], out["b"], out["difference"] = (np.array(c, dtype=object) for c in (va, vb, diff))
    else:
        out["a"], out["b"], out["difference"] = (
            np.array([float(v) for v in c], dtype=np.float64) for c in (va, vb, diff)
        )
    return Comparison(system.name, ra, rb, cells, pd.DataFrame(out), outcomes, exact)
