"""An odds table as an Excel workbook: its values, its exact fractions and its legend (:func:`xlsx_bytes`)."""

from __future__ import annotations

import io

import pandas as pd

from analysis.present.glossary import TABLE_TERMS
from analysis.present.legend import legend, legend_lines, rule_meanings
from analysis.present.pivot import (
    VALUE_COLUMN,
    check_frame,
    choose_columns,
    derivable_keys,
    flat_pivot,
    pivot_axes,
    stacked_pivot,
)
from analysis.model.validate import column_names, one_line
from analysis.model.escape import csv_text
from analysis.present.formats.frame import caption, display_frame, map_text_cells, percent_cells, rule_set_columns
from analysis.model.numbers import is_probability

#: The sheets of a spreadsheet export, in order.
XLSX_SHEETS = ("values", "fractions", "legend")
#: Decimals of the spreadsheet's percent format under ``--percent`` when ``--digits`` gives none.
PERCENT_DIGITS = 2
#: The widest a column is made to fit its texts (characters; a longer text wraps past the edge).
MAX_WIDTH = 60


def xlsx_bytes(
    df: pd.DataFrame,
    *,
    key_columns=(),
    percent: bool = False,
    digits: int | None = None,
    pivot=None,
    value=None,
    columns=None,
    system=None,
    rule_set=None,
) -> bytes:
    """An odds table as an Excel workbook (pandas' Excel writer, openpyxl), its bytes.

    Three sheets: ``values`` (each value ``float()`` of the exact fraction, rounded as ``digits`` says;
    under ``percent`` each probability is that number in a spreadsheet percent format of ``digits``
    decimals, 2 by default, so 2/3 is 0.666... shown as 66.67%; and a last column ``rule_set`` as in
    CSV), ``fractions`` (each value as the
    exact reduced fraction, text such as ``389/250``) and ``legend`` (the rule set, then one row per
    column: its meaning).  ``df`` must hold Fractions for the fractions sheet to be exact.  ``pivot``,
    ``value`` (several: one stacked table, a first column ``value``) and ``columns`` shape both
    sheets alike.  Every text cell (a rule set's name) is data, never a formula.  Each sheet's header
    row is frozen and its columns are as wide as their texts (at most :data:`MAX_WIDTH`).  ``rule_set`` may be a
    function of no arguments that gives it (as :func:`analysis.present.formats.render.render` takes).
    """
    check_frame(df, "xlsx_bytes")
    if callable(rule_set):
        rule_set = rule_set()
    keys = tuple(c for c in df.columns if c in set(key_columns))
    pivoted = None
    rows_by = "outcome"
    stacked_notes = []
    if pivot is not None:
        values = column_names("--value", value)
        if len(values) > 1:
            rows, across = pivot_axes(pivot)
            fixed = {k: df[k].iloc[0] for k in keys if k not in (*rows, *across) and len(df) and df[k].nunique() == 1}
            stacked_notes = legend(values, system, rule_meanings(rule_set))
            df, keys = stacked_pivot(df, pivot, values, keys, system)
            rows_by = VALUE_COLUMN
        else:
            rows, across = pivot_axes(pivot)
            fixed = {k: df[k].iloc[0] for k in keys if k not in (*rows, *across) and len(df) and df[k].nunique() == 1}
            df, keys, labels = flat_pivot(df, rows, across, values[0], keys, derivable_keys(keys, system, df))
            pivoted = (keys, labels, values[0], across, fixed, df.attrs.get("derived", {}))
            if percent and not is_probability(values[0]):
                percent = False
    elif columns is not None:
        df = choose_columns(df, keys, columns)
    df = map_text_cells(map_text_cells(df, one_line), csv_text)
    renamed = {c: csv_text(str(c)) for c in df.columns}
    extra = {k: csv_text(v) for k, v in (rule_set_columns(rule_set) if rule_set is not None else {}).items()}
    shown = display_frame(df, keys, False, False, None if percent else digits, text=False, rows_named_by=rows_by)
    as_percent = percent_cells(df, keys, rows_by) if percent else {}
    exact = display_frame(df, keys, True, False, None, text=True)
    for frame in (shown, exact):
        for name, text in extra.items():
            frame[name] = text
    notes = [] if rule_set is None else [("rule set", csv_text(caption(rule_set) or ""))]
    if stacked_notes:
        lines = legend(list(keys), system, rule_meanings(rule_set))
        lines.append(f"{' x '.join(f'{a}=N' for a in across)}: the row's value at that {' and '.join(across)}")
        lines += [f"value {line}" for line in stacked_notes]
        for line in legend(list(fixed), system, rule_meanings(rule_set)):
            name, text = line.split(": ", 1)
            lines.append(f"{name}: {fixed[name]} throughout ({text})")
    else:
        lines = legend_lines(list(df.columns), keys, system, pivoted, rule_meanings(rule_set))
    for line in lines:
        name, _, text = line.partition(": ")
        notes.append((csv_text(name), csv_text(text)))
    for name in extra:
        notes.append((name, TABLE_TERMS[name]))
    notes.append(
        (
            "fractions",
            "the sheet 'fractions' holds every value as its exact reduced fraction; "
            "'values' holds float() of it" + (" (the probabilities in a percent format)" if percent else ""),
        )
    )
    buf = io.BytesIO()
    legend_frame = pd.DataFrame(notes, columns=["column", "meaning"])
    with pd.ExcelWriter(buf, engine="openpyxl") as writer:
        shown.rename(columns=renamed).to_excel(writer, sheet_name="values", index=False)
        exact.rename(columns=renamed).to_excel(writer, sheet_name="fractions", index=False)
        legend_frame.to_excel(writer, sheet_name="legend", index=False)
        places = PERCENT_DIGITS if digits is None else digits
        for name, frame in (("values", shown), ("fractions", exact), ("legend", legend_frame)):
            _lay_out(writer.sheets[name], frame, as_percent if name == "values" else {}, places)
    return buf.getvalue()


def _lay_out(sheet, frame: pd.DataFrame, as_percent: dict, places: int) -> None:
    """A written sheet made to read: the header row frozen, each column as wide as its texts, and the
    cells ``as_percent`` marks in a percent format of ``places`` decimals."""
    form = "0." + "0" * places + "%" if places else "0%"
    sheet.freeze_panes = "A2"
    for j, column in enumerate(frame.columns, start=1):
        marks = as_percent.get(column)
        texts = [str(column)]
        for i, value in enumerate(frame[column].tolist()):
            if marks is not None and marks[i] and isinstance(value, (int, float)) and not isinstance(value, bool):
                sheet.cell(row=i + 2, column=j).number_format = form
                texts.append(f"{value * 100:.{places}f}%")
            else:
                texts.append(str(value))
        width = min(MAX_WIDTH, max(len(t) for t in texts) + 2)
        sheet.column_dimensions[sheet.cell(row=1, column=j).column_letter].width = width
