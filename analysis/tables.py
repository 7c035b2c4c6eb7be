"""Tidy odds tables rendered as text: terminal, CSV, Markdown, JSON, LaTeX, HTML."""
from __future__ import annotations

import io
import json
from fractions import Fraction

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
