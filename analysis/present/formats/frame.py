"""A table made ready to print, whatever the format: its cells as the options say, and its rule set named.

:func:`display_frame` turns the value columns into what a format prints:
reduced fractions (``exact``), exact percentages (``percent``), values
rounded half up (``digits``), as text or as numbers.  :func:`map_text_cells`
passes every text cell through one function (:func:`analysis.model.validate.one_line`,
:func:`analysis.model.escape.csv_text`).  Exported tables name their rule
set: :func:`rule_set_columns` the columns CSV and JSON add (``rule_set``, or
``rule_set_a`` and ``rule_set_b`` for a comparison), :func:`caption` the line
above a Markdown, HTML or LaTeX table.
"""

from __future__ import annotations

import pandas as pd

from analysis.model.validate import one_line
from analysis.model.numbers import (
    exact_value,
    fixed,
    fraction_text,
    is_probability,
    json_number,
    never_misleading,
    percent_value,
)


def map_text_cells(df: pd.DataFrame, show) -> pd.DataFrame:
    """``df`` with ``show(text)`` for every text (``str``) cell; the same frame when none changes."""
    out = None
    for c in df.columns:
        if not (df[c].dtype == object or pd.api.types.is_string_dtype(df[c].dtype)):
            continue
        cells = df[c].tolist()
        new = [show(v) if isinstance(v, str) else v for v in cells]
        if any(a is not b for a, b in zip(cells, new)):
            if out is None:
                out = df.copy()
            out[c] = pd.Series(new, index=df.index, dtype=object)
    return df if out is None else out


def _value_columns(df: pd.DataFrame, key_columns) -> list:
    return [c for c in df.columns if c not in key_columns]


def display_frame(
    df: pd.DataFrame,
    key_columns,
    exact: bool,
    percent: bool,
    digits: int | None,
    text: bool,
    sign: bool = False,
    rows_named_by: str = "outcome",
) -> pd.DataFrame:
    """The value columns made ready to print.

    ``exact``: reduced fractions.  Else ``percent`` multiplies the
    probability columns by 100 exactly (a comparison's rows of a mean, told
    by their ``outcome``, are left as they are), ``digits`` rounds exactly
    (half up);
    ``text`` turns the cells into strings (``sign`` adds ``%`` to
    percentages), else they stay numbers (floats of the exact values).
    """
    shown_columns = {}
    chances = percent_cells(df, key_columns, rows_named_by) if percent else {}
    for c in _value_columns(df, key_columns):
        cells = []
        for i, v in enumerate(df[c]):
            if exact:
                cells.append(fraction_text(v) if exact_value(v) is not None else v)
                continue
            pct = percent and chances[c][i]
            q = percent_value(v) if pct else v
            if digits is not None and exact_value(q) is not None:
                shown = fixed(q, digits)
                if pct and sign and text:  # a chance that is not 0 (or 1) never reads as 0% (or 100%)
                    shown = never_misleading(shown, q, digits)
                cells.append(shown + ("%" if pct and sign else "") if text else float(shown))
            elif text and exact_value(q) is not None:
                shown = repr(float(q))
                cells.append(shown + ("%" if pct and sign else ""))
            else:
                cells.append(json_number(q))
        shown_columns[c] = pd.Series(cells, index=df.index, dtype=object)
    # one frame made at once (a column set at a time fragments a wide frame, and pandas warns)
    out = pd.DataFrame(
        {i: shown_columns[c] if c in shown_columns else df[c] for i, c in enumerate(df.columns)}, index=df.index
    )
    out.columns = df.columns
    return out


def percent_cells(df: pd.DataFrame, key_columns, rows_named_by: str = "outcome") -> dict:
    """``{value column: [bool per row]}``: the cells ``--percent`` shows as percentages, the probabilities
    (a column whose name says so, :func:`analysis.model.numbers.is_probability`; in a table whose rows
    are named by ``rows_named_by``, a comparison's, only the rows of a probability)."""
    rows_prob = None
    if rows_named_by in key_columns and rows_named_by in df.columns:
        rows_prob = [is_probability(o) for o in df[rows_named_by]]
    return {
        c: [is_probability(c) and (rows_prob is None or rows_prob[i]) for i in range(len(df))]
        for c in _value_columns(df, key_columns)
    }


# ------------------------------------------------------------ rule sets named


def _rule_sets(rule_set) -> list:
    """``rule_set`` as a list of (name, description, official) triples (one, or two for a comparison)."""
    if rule_set is None:
        return []
    if isinstance(rule_set, (tuple, list)):
        return [t for r in rule_set for t in _rule_sets(r)]
    if isinstance(rule_set, str):
        return [(rule_set, "", False)]
    name = getattr(rule_set, "name", None)
    if name is None:
        raise ValueError(f"rule_set must be a rule set or its name, got {rule_set!r}")
    changes = getattr(rule_set, "changes", None)
    official = callable(changes) and not changes()
    return [(name, getattr(rule_set, "description", "") or "", official)]


def rule_set_columns(rule_set) -> dict:
    """``{column: rule-set name}`` an export adds: ``rule_set``, or ``rule_set_a``/``rule_set_b`` for two.

    Each name on one line, its control characters shown as ``?`` (:func:`analysis.model.validate.one_line`).
    """
    named = _rule_sets(rule_set)
    if len(named) == 1:
        return {"rule_set": one_line(named[0][0])}
    return {f"rule_set_{'ab'[i] if len(named) == 2 else i + 1}": one_line(n) for i, (n, _, _) in enumerate(named)}


def caption(rule_set) -> str | None:
    """The title line of an exported table: ``Rule set: NAME`` (with its description unless official).

    For a comparison (two rule sets): ``Rule sets: a = NAME (...); b = NAME (...)``.  One line of
    plain text: a description's line breaks are spaces, control characters ``?``; each format
    escapes it as its own text.
    """
    named = _rule_sets(rule_set)
    if not named:
        return None

    def one(name, description, official):
        name, description = one_line(name), one_line(description).strip()
        return name if official or not description else f"{name} ({description.rstrip('.')})"

    if len(named) == 1:
        return "Rule set: " + one(*named[0])
    if len(named) == 2:
        return f"Rule sets: a = {one(*named[0])}; b = {one(*named[1])}"
    return "Rule sets: " + "; ".join(one(*n) for n in named)
