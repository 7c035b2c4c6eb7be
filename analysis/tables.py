"""Tidy odds tables rendered as text (terminal, CSV, Markdown, JSON, LaTeX, HTML), and comparisons of two rule sets."""
from __future__ import annotations

import io
import json
from fractions import Fraction

import numpy as np
import pandas as pd

FORMATS = ("table", "csv", "markdown", "json", "latex", "html")


def fraction_text(value) -> str:
    """A probability as ``num/den`` (reduced), or ``0`` / ``1``."""
    f = Fraction(value)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _probability_columns(df: pd.DataFrame, key_columns) -> list:
    return [c for c in df.columns if c not in key_columns]


def _display_frame(df: pd.DataFrame, key_columns, exact: bool, percent: bool, digits: int | None):
    """Probability columns turned into strings (exact or rounded) or numbers.

    With ``digits`` (display formats) numbers are rounded to that many
    decimals and percentages carry a ``%`` sign; without, they stay numbers.
    """
    out = df.copy()
    sign = "%" if percent else ""
    for c in _probability_columns(df, key_columns):
        if exact:
            out[c] = [fraction_text(v) for v in df[c]]
        else:
            values = df[c].astype(float) * (100.0 if percent else 1.0)
            out[c] = values if digits is None else [f"{v:.{digits}f}{sign}" for v in values]
    return out


def _markdown(df: pd.DataFrame) -> str:
    cols = [str(c) for c in df.columns]
    rows = [[str(v) for v in row] for row in df.itertuples(index=False)]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---:" for _ in cols) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def _latex(df: pd.DataFrame) -> str:
    def esc(s):
        return str(s).replace("_", r"\_").replace("%", r"\%")

    lines = [r"\begin{tabular}{" + "r" * len(df.columns) + "}", r"\hline",
             " & ".join(esc(c) for c in df.columns) + r" \\", r"\hline"]
    lines += [" & ".join(esc(v) for v in row) + r" \\" for row in df.itertuples(index=False)]
    lines += [r"\hline", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def render(df: pd.DataFrame, fmt: str = "table", *, key_columns=(), exact: bool = False,
           percent: bool = False) -> str:
    """Render a tidy odds table.

    Parameters
    ----------
    df : DataFrame
        Key columns (integers) followed by probability columns (floats, or
        Fractions when ``exact``).
    fmt : str
        One of ``FORMATS``.  ``table`` is a readable terminal table.
    key_columns : sequence of str
        Columns that are not probabilities (printed as they are).
    exact : bool
        Probabilities as reduced fractions ``num/den``.
    percent : bool
        Probabilities as percentages (not with ``exact``).
    """
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if exact and percent:
        raise ValueError("--exact and --percent cannot be combined: exact values are fractions")
    if fmt == "csv":
        buf = io.StringIO()
        _display_frame(df, key_columns, exact, percent, None).to_csv(buf, index=False, lineterminator="\n")
        return buf.getvalue()
    if fmt == "json":
        shown = _display_frame(df, key_columns, exact, percent, None)
        records = [
            {k: (v.item() if hasattr(v, "item") else v) for k, v in rec.items()}
            for rec in shown.to_dict(orient="records")
        ]
        return json.dumps(records, indent=1) + "\n"
    digits = 2 if percent else 4
    shown = _display_frame(df, key_columns, exact, percent, digits)
    if fmt == "markdown":
        return _markdown(shown)
    if fmt == "latex":
        return _latex(shown)
    if fmt == "html":
        return shown.to_html(index=False, border=0, classes="odds") + "\n"
    return shown.to_string(index=False) + "\n"


# ------------------------------------------------------------ comparisons

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
        """The columns that are not probabilities (for :func:`render`)."""
        return self.axes + ("outcome",)

    def changes(self) -> dict:
        """``{field: (value in a, value in b)}`` for every field where the rule sets differ."""
        fa, fb = self.a.all_fields(), self.b.all_fields()
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

        lines = [f"compare {self.system} rule sets: a = {self.a.name}, b = {self.b.name}"]
        changes = self.changes()
        if changes:
            lines.append("  changed: " + "; ".join(
                f"{k} {show_value(x)} -> {show_value(y)}" for k, (x, y) in changes.items()))
        else:
            lines.append("  the two rule sets are the same: every difference is 0")
        cells = 1
        for v in self.grid.values():
            cells *= len(v)
        lines.append("  grid: " + ", ".join(f"{a} {spec_text(v)}" for a, v in self.grid.items())
                     + f" ({cells} cell{'s' if cells != 1 else ''}); difference = b - a")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.describe()

    def _repr_html_(self) -> str:
        """For Jupyter: the description, then the ten cells where the change matters most."""
        import html as _html

        from .display import percent

        top = self.top(10)
        head = "".join(f"<th>{_html.escape(str(c))}</th>" for c in top.columns)
        body = "".join("<tr>" + "".join(
            f"<td>{_html.escape(percent(v) if c in ('a', 'b', 'difference') else str(v))}</td>"
            for c, v in zip(top.columns, row)) + "</tr>" for row in top.itertuples(index=False))
        text = "<br>".join(_html.escape(line) for line in self.describe().splitlines())
        return (f"<p>{text}</p><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
                if len(top) else f"<p>{text}</p>")


def spec_text(values) -> str:
    """Values as a short SPEC: ``1-10``, ``3,5,7``."""
    values = list(values)
    if len(values) > 2 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ",".join(str(v) for v in values)


def compare(a, b, grid=None, *, exact: bool = False, jobs: int = 1, progress: bool = False) -> Comparison:
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

    ra, rb = rulesets.load(a), rulesets.load(b)
    if ra.system != rb.system:
        raise ValueError(f"{ra.name} is a {ra.system} rule set and {rb.name} a {rb.system} one: "
                         f"compare needs two rule sets of the same system")
    system = rulesets.system(ra.system)
    cells = sweep.resolve_grid(system, grid)
    ta, tb = sweep.tables(system, [ra.rules, rb.rules], cells, exact=exact, jobs=jobs,
                          progress=progress, desc=f"{ra.name} vs {rb.name}")
    axes = list(cells)
    outcomes = system.outcome_columns(ta)
    n, k = len(ta), len(outcomes)
    out = {ax: np.repeat(ta[ax].to_numpy(), k) for ax in axes}
    out["outcome"] = np.tile(np.array(outcomes, dtype=object), n)
    va = ta[outcomes].to_numpy().ravel()
    vb = tb[outcomes].to_numpy().ravel()
    if not exact:
        va, vb = va.astype(np.float64), vb.astype(np.float64)
    out["a"], out["b"], out["difference"] = va, vb, vb - va
    return Comparison(system.name, ra, rb, cells, pd.DataFrame(out), outcomes, exact)
