"""A tidy odds table as text: a terminal table, CSV, Markdown, JSON, LaTeX or HTML (:func:`render`).

Every float shown is ``float()`` of the exact fraction (correctly rounded,
:mod:`analysis.model.numbers`).  Exported tables name their rule set: CSV
and JSON get a ``rule_set`` column (``rule_set_a`` and ``rule_set_b`` for a
comparison), Markdown and HTML a caption line above the table and a legend
below it (one line per column: its meaning, :mod:`analysis.present.legend`), LaTeX a
``table`` with a ``\\caption``.  Every text from a shared file is shown as
data (:mod:`analysis.model.escape`).  The HTML table is written by
:func:`analysis.present.formats.html.odds_table`; a spreadsheet by
:func:`analysis.present.formats.xlsx.xlsx_bytes`.
"""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd

from analysis.present.legend import derived_text, legend_lines, rule_meanings
from analysis.present.pivot import (
    VALUE_COLUMN,
    check_frame,
    choose_columns,
    derivable_keys,
    flat_pivot,
    pivot_axes,
    stacked_pivot,
)
from analysis.model.validate import check_bool, column_names, first_repeat, one_line
from analysis.model.escape import csv_text, latex_cell, latex_text, markdown_cell, markdown_text
from analysis.present.formats.frame import caption, display_frame, map_text_cells, rule_set_columns
from analysis.present.formats.html import odds_table
from analysis.model.numbers import MAX_DIGITS, is_probability

FORMATS = ("table", "csv", "markdown", "json", "latex", "html")


def render(
    df: pd.DataFrame,
    fmt: str = "table",
    *,
    key_columns=(),
    exact: bool = False,
    percent: bool = False,
    digits: int | None = None,
    pivot=None,
    value: str | None = None,
    columns=None,
    system=None,
    rule_set=None,
    legend: bool = True,
    empty: str = "no rows",
    meanings: dict | None = None,
    _rows_named_by: str = "outcome",
    _percent_rows: bool = False,
) -> str:
    """Render a tidy odds table.

    Parameters
    ----------
    df : DataFrame
        Key columns (integers) followed by value columns (floats, or
        Fractions when ``exact``).
    fmt : str
        One of ``FORMATS``.  ``table`` is a readable terminal table.
    key_columns : sequence of str
        Columns that are not values (printed as they are).
    exact : bool
        Values as reduced fractions ``num/den``.
    percent : bool
        Probabilities as percentages, computed exactly (not with ``exact``;
        means are left as they are).
    digits : int, optional
        Round every value to that many decimals, exactly (half up);
        default: full precision in CSV and JSON, 4 decimals (2 with
        ``percent``) in the display formats.
    pivot : str or (rows, columns), optional
        ``"pool x hunger"``: show the one column ``value`` as a grid, the
        values of ``rows`` down and of ``columns`` across (see :func:`analysis.present.pivot.pivot`).
    value : str, optional
        The column shown by ``pivot`` (required with it); several (``"p_win,bestial_failure"``):
        one block per value, each with its heading (CSV and JSON: one table, a first column
        ``value`` naming each row's value).
    columns : str or sequence of str, optional
        Keep only these value columns, in this order (the key columns stay).
    system : System or str, optional
        The system the table belongs to, for the legend's meanings.
    rule_set : RuleSet or str, or a pair of them, optional
        The rule set the odds are counted under (a pair: a comparison's a
        and b).  CSV and JSON get a ``rule_set`` column (``rule_set_a``,
        ``rule_set_b``); Markdown, HTML and LaTeX a caption line; the
        terminal table does not name it.  A function of no arguments that
        gives one is called only for a format that names it (the command
        line's rule set, which can take reading every shipped rule set to
        name).
    legend : bool
        A legend below Markdown and HTML tables: one line per column, its
        meaning (:func:`analysis.present.legend.legend`).
    empty : str
        What a table with no rows says, in its format (``(no rows)``: a line
        of the terminal table or of Markdown, a row of HTML and LaTeX); CSV
        and JSON are then just their header and ``[]``.
    meanings : dict, optional
        ``{column: meaning}`` for the legend, before every other source
        (a column of the command's own, such as the field ``solve`` searched).
    """
    check_frame(df, "render")
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if callable(rule_set):  # found only for a format that names it
        rule_set = None if fmt == "table" else rule_set()
    exact, percent, legend = (check_bool("exact", exact), check_bool("percent", percent), check_bool("legend", legend))
    if exact and percent:
        raise ValueError("--exact and --percent cannot be combined: exact values are fractions")
    if digits is not None:
        if exact:
            raise ValueError("--digits and --exact cannot be combined: exact values are fractions")
        if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or not 0 <= digits <= MAX_DIGITS:
            raise ValueError(f"--digits must be a whole number from 0 to {MAX_DIGITS}, got {digits!r}")
        digits = int(digits)
    if pivot is not None and columns is not None:
        raise ValueError("--pivot and --columns cannot be combined: --pivot shows the one column --value")
    if (pivot is None) != (value is None):
        raise ValueError("--pivot and --value go together: --pivot 'ROWS x COLS' --value COLUMN")
    keys = tuple(c for c in df.columns if c in set(key_columns))
    pivoted = None
    values = column_names("--value", value) if pivot is not None else None
    if values is not None and len(values) > 1:
        twice = first_repeat(values)
        if twice is not None:
            raise ValueError(f"--value names {twice!r} twice")
        return _render_blocks(
            df,
            fmt,
            values,
            keys=keys,
            exact=exact,
            percent=percent,
            digits=digits,
            pivot=pivot,
            system=system,
            rule_set=rule_set,
            legend=legend,
            empty=empty,
        )
    if pivot is not None:
        rows, across = pivot_axes(pivot)
        # axes of one value leave the pivoted table: the legend still says where it stands
        fixed = {k: df[k].iloc[0] for k in keys if k not in (*rows, *across) and len(df) and df[k].nunique() == 1}
        df, keys, labels = flat_pivot(df, rows, across, value, keys, derivable_keys(keys, system, df))
        derived = df.attrs.get("derived", {})
        if "outcome" in df.columns and "outcome" not in keys:
            keys = keys + ("outcome",)
        pivoted = (keys, labels, value, across, fixed, derived)
        if percent and not is_probability(value):
            percent = False
    elif columns is not None:
        df = choose_columns(df, keys, columns)
    extra = rule_set_columns(rule_set) if rule_set is not None else {}
    title = caption(rule_set)
    df = map_text_cells(df, one_line)
    if fmt in ("csv", "json"):
        if fmt == "csv":  # before the numbers become text: only text cells are neutralised
            df = map_text_cells(df, csv_text)
            renamed = {c: csv_text(c) for c in df.columns if isinstance(c, str) and csv_text(c) != c}
            if renamed:  # a column's name is a text cell too (never the caller's frame renamed)
                df = df.rename(columns=renamed)
                keys = tuple(renamed.get(k, k) for k in keys)
            extra = {k: csv_text(v) for k, v in extra.items()}
        shown = display_frame(
            df, keys, exact, percent or _percent_rows, digits, text=(fmt == "csv"), rows_named_by=_rows_named_by
        )
        for name, text in extra.items():
            shown[name] = text
        if fmt == "csv":
            buf = io.StringIO()
            shown.to_csv(buf, index=False, lineterminator="\n")
            return buf.getvalue()
        records = [
            {str(k): (v.item() if hasattr(v, "item") else v) for k, v in rec.items()}
            for rec in shown.to_dict(orient="records")
        ]
        return json.dumps(records, indent=1) + "\n"
    if digits is None:
        digits = 2 if percent else 4
    shown = display_frame(df, keys, exact, percent, digits, text=True, sign=True)
    notes = (
        legend_lines(shown.columns, keys, system, pivoted, {**rule_meanings(rule_set), **(meanings or {})})
        if legend
        else []
    )
    none = f"({one_line(empty)})" if len(shown) == 0 else None
    if fmt == "markdown":
        head = f"{markdown_text(title)}\n\n" if title else ""
        tail = ("\n" + "\n".join(f"- {markdown_text(line, line_start=True)}" for line in notes) + "\n") if notes else ""
        return head + markdown_table(shown) + (f"\n{markdown_text(none)}\n" if none else "") + tail
    if fmt == "latex":
        return latex_table(shown, title, none)
    if fmt == "html":
        return odds_table(shown, title, none, notes)
    if none:
        return none + "\n"
    where = ""
    if pivoted is not None and pivoted[4]:
        where = f"{pivoted[2]} at " + ", ".join(f"{k} {v}" for k, v in pivoted[4].items()) + "\n"
    if pivoted is not None and pivoted[5]:
        where += "".join(f"({k} left out: {derived_text(k, by)} decide it)\n" for k, by in pivoted[5].items())
    return where + shown.to_string(index=False) + "\n"


def _render_blocks(df, fmt, values, *, keys, exact, percent, digits, pivot, system, rule_set, legend, empty) -> str:
    """``--pivot`` with several ``--value``: one block per value (CSV and JSON: one stacked table)."""
    if fmt in ("csv", "json"):
        stacked, skeys = stacked_pivot(df, pivot, values, keys, system)
        text = render(
            stacked,
            fmt,
            key_columns=skeys,
            exact=exact,
            percent=False,
            digits=digits,
            rule_set=rule_set,
            legend=legend,
            empty=empty,
            _rows_named_by=VALUE_COLUMN,
            _percent_rows=percent,
        )
        return text
    blocks = []
    for i, v in enumerate(values):
        text = render(
            df,
            fmt,
            key_columns=keys,
            exact=exact,
            percent=percent,
            digits=digits,
            pivot=pivot,
            value=v,
            system=system,
            rule_set=rule_set if i == 0 else None,
            legend=legend,
            empty=empty,
        )
        if fmt == "table" and not text.startswith(f"{v} at "):
            text = f"{v}\n" + text
        blocks.append(text)
    return "\n".join(blocks)


def markdown_table(df: pd.DataFrame) -> str:
    cols = [markdown_text(c) for c in df.columns]
    rows = [[markdown_cell(v) for v in row] for row in df.itertuples(index=False)]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---:" for _ in cols) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def latex_table(df: pd.DataFrame, caption: str | None, none: str | None = None) -> str:
    esc = latex_text
    lines = [
        r"\begin{tabular}{" + "r" * len(df.columns) + "}",
        r"\hline",
        " & ".join(esc(c) for c in df.columns) + r" \\",
        r"\hline",
    ]
    lines += [" & ".join(latex_cell(v) for v in row) + r" \\" for row in df.itertuples(index=False)]
    if none:
        lines.append(r"\multicolumn{" + str(max(len(df.columns), 1)) + "}{c}{" + esc(none) + r"} \\")
    lines += [r"\hline", r"\end{tabular}"]
    if caption:
        lines = [r"\begin{table}", r"\centering", r"\caption{" + esc(caption) + "}"] + lines + [r"\end{table}"]
    return "\n".join(lines) + "\n"
