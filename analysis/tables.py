"""Tidy odds tables rendered as text (terminal, CSV, Markdown, JSON, LaTeX, HTML), and comparisons of two rule sets.

Every float shown is ``float()`` of the exact fraction (correctly rounded):
a percentage is the exact fraction times 100 (or, from a float, its
shortest decimal with the point moved), a rounded value (``digits``) is
the exact value rounded half up, never a float computed in floats.

Exported tables name their rule set: CSV and JSON get a ``rule_set``
column (``rule_set_a`` and ``rule_set_b`` for a comparison), Markdown and
HTML a caption line above the table and a legend below it (one line per
column: its meaning), LaTeX a ``table`` with a ``\\caption``.

A rule set's name and description come from a file someone shared, so every
text is shown as data, never as markup: each text cell, name and description
is put on one line and its control characters become ``?``
(:func:`analysis.validate.one_line`), then escaped for the format (Markdown's
and LaTeX's special characters, HTML's ``<>&``), and a CSV text cell that
starts with ``= + - @`` gets a leading ``'`` so that no spreadsheet reads it
as a formula.
"""

from __future__ import annotations

import html
import io
import json
import re
from fractions import Fraction

import numpy as np
import pandas as pd

from .validate import one_line

FORMATS = ("table", "csv", "markdown", "json", "latex", "html")

#: Most decimals ``digits`` may ask for.
MAX_DIGITS = 20


def fraction_text(value) -> str:
    """A probability as ``num/den`` (reduced), or ``0`` / ``1``."""
    f = Fraction(value)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def is_probability(column) -> bool:
    """Whether a value column holds probabilities (shown as percentages by ``percent``).

    A mean, an expectation or a ratio (``mean_successes``, ``expected_turns``,
    ``bestial_ratio``) is not: ``percent`` leaves it as it is.
    """
    name = str(column)
    return not (name.startswith("mean_") or name.startswith("expected_") or name.endswith("_ratio"))


def _exact(value):
    """The exact value of a cell: a Fraction as it is, a float as its shortest decimal (``0.1`` is 1/10)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if v != v or v in (float("inf"), float("-inf")):
            return None
        return Fraction(repr(v))
    return None


def fixed(value, digits: int) -> str:
    """An exact value rounded (half away from zero) to ``digits`` decimals, as text.

    ``fixed(Fraction(2, 3), 3) == "0.667"``; a float is taken as its shortest decimal.
    """
    q = _exact(value)
    if q is None:
        return str(value)
    scaled = abs(q) * 10**digits
    n = int(scaled + Fraction(1, 2))  # half up, on the exact value
    sign = "-" if q < 0 and n else ""
    text = str(abs(n)).rjust(digits + 1, "0")
    return sign + (text[:-digits] + "." + text[-digits:] if digits else text)


def _percent(value):
    """A cell times 100, exactly: ``float(F * 100)`` for a Fraction, the decimal point moved for a float."""
    if isinstance(value, Fraction):
        return value * 100
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if v != v or v in (float("inf"), float("-inf")):
            return v
        return Fraction(repr(v)) * 100
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return Fraction(int(value)) * 100
    return value


def _number(value):
    """A cell as a JSON/CSV number: a float of the exact value (a Fraction's correctly rounded float)."""
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.integer):
        return int(value)
    return value


#: A text cell a spreadsheet would read as a formula (OWASP's list; tab and CR are never left in a
#: cell shown, :func:`analysis.validate.one_line`).
_FORMULA_START = ("=", "+", "-", "@")
#: A text cell that is a plain number: a spreadsheet reads it as that number, not a formula.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def csv_text(text):
    """A CSV text cell no spreadsheet runs as a formula: one starting with ``= + - @`` gets a leading ``'``.

    A text that is a plain number (``-1``, ``+2.5``) is left as it is: it is read as that number.
    Numbers (ints, floats, Fractions) are not texts and are never touched.
    """
    if isinstance(text, str) and text.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def _text_cells(df: pd.DataFrame, show) -> pd.DataFrame:
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


def _display_frame(
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
    rows_prob = None
    if percent and rows_named_by in key_columns and rows_named_by in df.columns:
        rows_prob = [is_probability(o) for o in df[rows_named_by]]
    for c in _value_columns(df, key_columns):
        cells = []
        col_prob = is_probability(c)
        for i, v in enumerate(df[c]):
            if exact:
                cells.append(fraction_text(v) if _exact(v) is not None else v)
                continue
            pct = percent and col_prob and (rows_prob is None or rows_prob[i])
            q = _percent(v) if pct else v
            if digits is not None and _exact(q) is not None:
                shown = fixed(q, digits)
                cells.append(shown + ("%" if pct and sign else "") if text else float(shown))
            elif text and _exact(q) is not None:
                shown = repr(float(q))
                cells.append(shown + ("%" if pct and sign else ""))
            else:
                cells.append(_number(q))
        shown_columns[c] = pd.Series(cells, index=df.index, dtype=object)
    # one frame made at once (a column set at a time fragments a wide frame, and pandas warns)
    out = pd.DataFrame(
        {i: shown_columns[c] if c in shown_columns else df[c] for i, c in enumerate(df.columns)}, index=df.index
    )
    out.columns = df.columns
    return out


#: Markdown's inline markup: code, emphasis, links and images, raw HTML and entities,
#: strikethrough, table cells (an ``_`` inside a word is left alone: it marks nothing).
_MARKDOWN_SPECIAL = re.compile(r"[\\`*\[\]<>&|~]|(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")


#: What starts a block (a heading, a list item, a quote) at the start of a line.
_MARKDOWN_BLOCK = re.compile(r"^(?:(\s*)([#+\-=>])|(\s*\d+)([.)]))")


def markdown_text(text, line_start: bool = False) -> str:
    """Text shown as itself in Markdown: one line, its markup characters backslash-escaped.

    ``[x](javascript:...)``, ``<script>``, ``**``, a ``|`` that would end a table
    cell and a line break that would start a heading or a table all print as
    text.  ``line_start``: the text begins a line (or a list item), so a ``#``,
    ``-``, ``+``, ``=``, ``>`` or ``1.`` it starts with is escaped too.
    """
    text = _MARKDOWN_SPECIAL.sub(lambda m: "\\" + m.group(), one_line(text))
    if line_start:
        text = _MARKDOWN_BLOCK.sub(
            lambda m: (m.group(1) or m.group(3) or "") + "\\" + (m.group(2) or m.group(4)), text, count=1
        )
    return text


#: A cell made only of these (a number, a percentage, a fraction, ``hunger=1``) prints as it is
#: in Markdown; in LaTeX too unless it holds a ``%``.
_PLAIN_CELL = re.compile(r"[0-9A-Za-z .,:;%/=+()'-]*")
_PLAIN_LATEX_CELL = re.compile(r"[0-9A-Za-z .,:;/=+()'-]*")


def _markdown_cell(value) -> str:
    text = str(value)
    return text if _PLAIN_CELL.fullmatch(text) else markdown_text(text)


def _latex_cell(value) -> str:
    text = str(value)
    return text if _PLAIN_LATEX_CELL.fullmatch(text) else _latex_escape(text)


def _markdown(df: pd.DataFrame) -> str:
    cols = [markdown_text(c) for c in df.columns]
    rows = [[_markdown_cell(v) for v in row] for row in df.itertuples(index=False)]
    lines = ["| " + " | ".join(cols) + " |", "|" + "|".join("---:" for _ in cols) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


#: LaTeX's special characters and what prints each as itself.  ``^`` is among them: TeX
#: reads ``^^5c`` as a backslash, so an unescaped ``^^5cinput`` would be ``\input``.
_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "_": r"\_",
    "%": r"\%",
    "&": r"\&",
    "#": r"\#",
    "$": r"\$",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}
_LATEX_PATTERN = re.compile("|".join(re.escape(c) for c in _LATEX_SPECIAL))


def _latex_escape(s) -> str:
    """Text shown as itself in LaTeX: one line (a blank line would end ``\\caption``), each special
    character replaced by the command that prints it."""
    return _LATEX_PATTERN.sub(lambda m: _LATEX_SPECIAL[m.group()], one_line(s))


def latex_text(text) -> str:
    """Text shown as itself in LaTeX, on one line (as :func:`markdown_text` is for Markdown)."""
    return _latex_escape(text)


def _latex(df: pd.DataFrame, caption: str | None, none: str | None = None) -> str:
    esc = _latex_escape
    lines = [
        r"\begin{tabular}{" + "r" * len(df.columns) + "}",
        r"\hline",
        " & ".join(esc(c) for c in df.columns) + r" \\",
        r"\hline",
    ]
    lines += [" & ".join(_latex_cell(v) for v in row) + r" \\" for row in df.itertuples(index=False)]
    if none:
        lines.append(r"\multicolumn{" + str(max(len(df.columns), 1)) + "}{c}{" + esc(none) + r"} \\")
    lines += [r"\hline", r"\end{tabular}"]
    if caption:
        lines = [r"\begin{table}", r"\centering", r"\caption{" + esc(caption) + "}"] + lines + [r"\end{table}"]
    return "\n".join(lines) + "\n"


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


def _check_frame(df, what: str) -> None:
    """A TypeError of one sentence unless ``df`` is a pandas DataFrame."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(
            f"{what} takes an odds table (a pandas DataFrame, as a system's table() returns), got {type(df).__name__}"
        )


def rule_set_columns(rule_set) -> dict:
    """``{column: rule-set name}`` an export adds: ``rule_set``, or ``rule_set_a``/``rule_set_b`` for two.

    Each name on one line, its control characters shown as ``?`` (:func:`analysis.validate.one_line`).
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


# ------------------------------------------------------------ render


def pivot_axes(spec) -> tuple:
    """``"pool x hunger"`` (or ``(rows, columns)``) as ``([rows], [columns])``; a ValueError otherwise."""
    if isinstance(spec, str):
        parts = re.split(r"\s+x\s+|\s*[×]\s*", spec.strip())
        if len(parts) != 2 or not all(p.strip() for p in parts):
            raise ValueError(f"--pivot takes ROWS x COLS, such as --pivot 'pool x hunger', got {spec!r}")
        return _names("--pivot rows", parts[0]), _names("--pivot columns", parts[1])
    if isinstance(spec, (tuple, list)) and len(spec) == 2:
        return _names("--pivot rows", spec[0]), _names("--pivot columns", spec[1])
    raise ValueError(f"pivot takes 'ROWS x COLS' or (rows, columns), got {spec!r}")


def _flat_pivot(df: pd.DataFrame, rows, columns, value, key_columns, derivable=()) -> tuple:
    """:func:`pivot` as a flat table: the index levels as key columns, the columns named ``axis=value``."""
    grid = pivot(df, rows, columns, value, key_columns=key_columns, derivable=derivable)
    labels = []
    for label in grid.columns:
        label = label if isinstance(label, tuple) else (label,)
        labels.append(",".join(f"{a}={v}" for a, v in zip(grid.columns.names, label)))
    flat = grid.copy()
    flat.columns = labels
    flat = flat.reset_index()
    flat.attrs["derived"] = dict(grid.attrs.get("derived", {}))
    keys = tuple(grid.index.names)
    return flat, keys, labels


def _choose(df: pd.DataFrame, key_columns, columns) -> pd.DataFrame:
    """The key columns, then the value columns named in ``columns`` in that order.

    A table of key columns only (a listing) keeps just the columns named.
    """
    wanted = _names("--columns", columns)
    known = list(df.columns)
    known_set = set(known)
    for name in wanted:
        if name not in known_set:
            raise _unknown("--columns", name, known)
    twice = first_repeat(wanted)
    if twice is not None:
        raise ValueError(f"--columns names {twice!r} twice")
    key_set = set(key_columns)
    keys = [c for c in known if c in key_set]
    if len(keys) == len(known):  # a listing with no values (the rule sets): choose among all
        return df[wanted]
    keys_set = set(keys)
    return df[keys + [c for c in wanted if c not in keys_set]]


def rule_meanings(rule_set) -> dict:
    """``{class or column: meaning}`` under a rule set's own values, for rules of a mechanic file.

    A mechanic's meanings name its parameters (``at least {bestial_hunger_ones}
    Hunger dice show 1``), so a rule set that changes them has meanings of its
    own; other rule sets (and a pair of them, a comparison) have none here.
    """
    rules = getattr(rule_set, "rules", None)
    if rules is None or isinstance(rule_set, (tuple, list)):
        return {}
    import dataclasses

    values = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}
    mech = getattr(type(rules), "MECHANIC", None)
    if mech is None:
        # a shipped system counted from its own mechanic file: under a house rule that changes a
        # parameter of the file, the file's meanings (filled with the new values) replace the official ones
        from . import rulesets
        from .mechanic.system import shipped

        try:
            mech = shipped(rulesets.system(rule_set.system))
        except (ValueError, AttributeError):
            return {}
        if mech is None:
            return {}
        values = {k: v for k, v in values.items() if k in mech.parameter_map}
        if all(mech.parameter_map[k].default == v for k, v in values.items()):
            return {}
    return {k: v for k, v in mech.meanings(values).items() if v}


def _legend_lines(df_columns, key_columns, system, pivoted, meanings=None) -> list:
    if pivoted is None:
        return legend([c for c in df_columns], system, meanings)
    keys, labels, value, across, fixed, derived = pivoted
    lines = legend(list(keys), system, meanings)
    meaning = legend([value], system, meanings)[0].split(": ", 1)[1]
    lines.append(f"{' x '.join(f'{a}=N' for a in across)}: {value} ({meaning}) at that {' and '.join(across)}")
    for line in legend(list(fixed), system, meanings):
        name, text = line.split(": ", 1)
        lines.append(f"{name}: {fixed[name]} throughout ({text})")
    for line in legend(list(derived), system, meanings):
        name, text = line.split(": ", 1)
        lines.append(f"{name}: left out, as {derived_text(name, derived[name])} decide it ({text})")
    return lines


def derived_text(name: str, by) -> str:
    """``"pool and soif"``: the keys that decide a key a pivot left out."""
    by = [str(b) for b in by]
    return by[0] if len(by) == 1 else ", ".join(by[:-1]) + " and " + by[-1]


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
        values of ``rows`` down and of ``columns`` across (see :func:`pivot`).
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
        ``rule_set_b``); Markdown, HTML and LaTeX a caption line.
    legend : bool
        A legend below Markdown and HTML tables: one line per column, its
        meaning (:func:`legend`).
    empty : str
        What a table with no rows says, in its format (``(no rows)``: a line
        of the terminal table or of Markdown, a row of HTML and LaTeX); CSV
        and JSON are then just their header and ``[]``.
    meanings : dict, optional
        ``{column: meaning}`` for the legend, before every other source
        (a column of the command's own, such as the field ``solve`` searched).
    """
    _check_frame(df, "render")
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    from .validate import check_bool

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
    values = _names("--value", value) if pivot is not None else None
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
        df, keys, labels = _flat_pivot(df, rows, across, value, keys, _derivable(keys, system, df))
        derived = df.attrs.get("derived", {})
        if "outcome" in df.columns and "outcome" not in keys:
            keys = keys + ("outcome",)
        pivoted = (keys, labels, value, across, fixed, derived)
        if percent and not is_probability(value):
            percent = False
    elif columns is not None:
        df = _choose(df, keys, columns)
    extra = rule_set_columns(rule_set) if rule_set is not None else {}
    title = caption(rule_set)
    df = _text_cells(df, one_line)
    if fmt in ("csv", "json"):
        if fmt == "csv":  # before the numbers become text: only text cells are neutralised
            df = _text_cells(df, csv_text)
            renamed = {c: csv_text(c) for c in df.columns if isinstance(c, str) and csv_text(c) != c}
            if renamed:  # a column's name is a text cell too (never the caller's frame renamed)
                df = df.rename(columns=renamed)
                keys = tuple(renamed.get(k, k) for k in keys)
            extra = {k: csv_text(v) for k, v in extra.items()}
        shown = _display_frame(
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
    shown = _display_frame(df, keys, exact, percent, digits, text=True, sign=True)
    notes = (
        _legend_lines(shown.columns, keys, system, pivoted, {**rule_meanings(rule_set), **(meanings or {})})
        if legend
        else []
    )
    none = f"({one_line(empty)})" if len(shown) == 0 else None
    if fmt == "markdown":
        head = f"{markdown_text(title)}\n\n" if title else ""
        tail = ("\n" + "\n".join(f"- {markdown_text(line, line_start=True)}" for line in notes) + "\n") if notes else ""
        return head + _markdown(shown) + (f"\n{markdown_text(none)}\n" if none else "") + tail
    if fmt == "latex":
        return _latex(shown, title, none)
    if fmt == "html":
        table = shown.to_html(index=False, border=0, classes="odds")
        if none:
            table = table.replace(
                "<tbody>\n",
                f'<tbody>\n    <tr><td colspan="{max(len(shown.columns), 1)}">{html.escape(none)}</td></tr>\n',
                1,
            )
        if title:
            table = table.replace(">", f">\n  <caption>{html.escape(title)}</caption>", 1)
        if notes:
            items = "".join(
                f"\n  <li><code>{html.escape(one_line(n.split(': ', 1)[0]))}</code>: "
                f"{html.escape(one_line(n.split(': ', 1)[1]))}</li>"
                for n in notes
            )
            table += f'\n<ul class="legend">{items}\n</ul>'
        return table + "\n"
    if none:
        return none + "\n"
    where = ""
    if pivoted is not None and pivoted[4]:
        where = f"{pivoted[2]} at " + ", ".join(f"{k} {v}" for k, v in pivoted[4].items()) + "\n"
    if pivoted is not None and pivoted[5]:
        where += "".join(f"({k} left out: {derived_text(k, by)} decide it)\n" for k, by in pivoted[5].items())
    return where + shown.to_string(index=False) + "\n"


#: The column of a stacked pivot (several ``--value``, CSV and JSON) naming each row's value.
VALUE_COLUMN = "value"


def _derivable(keys, system, df=None) -> tuple:
    """The keys of a table that are not its system's axes (nor a comparison's outcome): a pivot may leave
    one out when the others decide it.  A table of no system may name its own in ``df.attrs["derivable"]``
    (``beastodds versus``: the V5 pool, given the attribute and skill)."""
    own = tuple(k for k in (df.attrs.get("derivable", ()) if df is not None else ()) if k in keys)
    if system is None:
        return own
    if isinstance(system, str):
        from . import rulesets

        try:
            system = rulesets.system(system)
        except ValueError:
            return own
    return own + tuple(
        k for k in keys if k not in system.axis_names and k not in ("outcome", "strategy") and k not in own
    )


def stacked_pivot(df: pd.DataFrame, pivot, values, key_columns, system=None) -> tuple:
    """Several values pivoted alike, stacked: ``(frame, keys)``, a first column ``value`` naming each
    row's value, then the pivot's rows and one column per value of its columns (as one CSV or JSON)."""
    rows, across = pivot_axes(pivot)
    if VALUE_COLUMN in df.columns:
        raise ValueError(
            f"--value with several columns adds a column {VALUE_COLUMN!r}, which the table has "
            f"already; give one --value at a time"
        )
    frames, keys = [], ()
    for v in values:
        flat, keys, _ = _flat_pivot(df, rows, across, v, key_columns, _derivable(key_columns, system, df))
        flat.insert(0, VALUE_COLUMN, v)
        frames.append(flat)
    out = pd.concat(frames, ignore_index=True)
    for c in out.columns[len(keys) + 1 :]:
        out[c] = pd.Series(list(out[c]), dtype=object)  # floats or Fractions as they were, never NaN-cast
    return out, (VALUE_COLUMN,) + tuple(keys)


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


# ------------------------------------------------------------ spreadsheets

#: The sheets of a spreadsheet export, in order.
XLSX_SHEETS = ("values", "fractions", "legend")


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

    Three sheets: ``values`` (each value ``float()`` of the exact fraction, or as ``percent`` and
    ``digits`` print it, and a last column ``rule_set`` as in CSV), ``fractions`` (each value as the
    exact reduced fraction, text such as ``389/250``) and ``legend`` (the rule set, then one row per
    column: its meaning).  ``df`` must hold Fractions for the fractions sheet to be exact.  ``pivot``,
    ``value`` (several: one stacked table, a first column ``value``) and ``columns`` shape both
    sheets alike.  Every text cell (a rule set's name) is data, never a formula.
    """
    _check_frame(df, "xlsx_bytes")
    keys = tuple(c for c in df.columns if c in set(key_columns))
    pivoted = None
    rows_by = "outcome"
    stacked_notes = []
    if pivot is not None:
        values = _names("--value", value)
        if len(values) > 1:
            rows, across = pivot_axes(pivot)
            fixed = {k: df[k].iloc[0] for k in keys if k not in (*rows, *across) and len(df) and df[k].nunique() == 1}
            stacked_notes = legend(values, system, rule_meanings(rule_set))
            df, keys = stacked_pivot(df, pivot, values, keys, system)
            rows_by = VALUE_COLUMN
        else:
            rows, across = pivot_axes(pivot)
            fixed = {k: df[k].iloc[0] for k in keys if k not in (*rows, *across) and len(df) and df[k].nunique() == 1}
            df, keys, labels = _flat_pivot(df, rows, across, values[0], keys, _derivable(keys, system, df))
            pivoted = (keys, labels, values[0], across, fixed, df.attrs.get("derived", {}))
            if percent and not is_probability(values[0]):
                percent = False
    elif columns is not None:
        df = _choose(df, keys, columns)
    df = _text_cells(_text_cells(df, one_line), csv_text)
    renamed = {c: csv_text(str(c)) for c in df.columns}
    extra = {k: csv_text(v) for k, v in (rule_set_columns(rule_set) if rule_set is not None else {}).items()}
    shown = _display_frame(df, keys, False, percent, digits, text=False, rows_named_by=rows_by)
    exact = _display_frame(df, keys, True, False, None, text=True)
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
        lines = _legend_lines(list(df.columns), keys, system, pivoted, rule_meanings(rule_set))
    for line in lines:
        name, _, text = line.partition(": ")
        notes.append((csv_text(name), csv_text(text)))
    for name in extra:
        notes.append((name, TABLE_TERMS[name]))
    notes.append(
        (
            "fractions",
            "the sheet 'fractions' holds every value as its exact reduced fraction; "
            "'values' holds float() of it" + (" (percentages)" if percent else ""),
        )
    )
    buf = io.BytesIO()
    with pd.ExcelWriter(buf, engine="openpyxl") as writer:
        shown.rename(columns=renamed).to_excel(writer, sheet_name="values", index=False)
        exact.rename(columns=renamed).to_excel(writer, sheet_name="fractions", index=False)
        pd.DataFrame(notes, columns=["column", "meaning"]).to_excel(writer, sheet_name="legend", index=False)
    return buf.getvalue()


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
        import html as _html

        from .display import percent

        top = self.top(10)
        head = "".join(f"<th>{_html.escape(str(c))}</th>" for c in top.columns)
        body = "".join(
            "<tr>"
            + "".join(
                f"<td>{_html.escape(percent(v) if c in ('a', 'b', 'difference') else str(v))}</td>"
                for c, v in zip(top.columns, row)
            )
            + "</tr>"
            for row in top.itertuples(index=False)
        )
        text = "<br>".join(_html.escape(line) for line in self.describe().splitlines())
        return (
            f"<p>{text}</p><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
            if len(top)
            else f"<p>{text}</p>"
        )


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
        wanted = _names("--outcome", outcomes)
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


# ------------------------------------------------------------ designer views

#: Meanings of the columns a comparison or an export adds (not terms of a system's table).
TABLE_TERMS = {
    "outcome": "the outcome column compared on this row",
    "a": "its value under the first rule set (a)",
    "b": "its value under the second rule set (b)",
    "difference": "b - a, computed exactly",
    "value": "the column whose values the row shows (--pivot with several --value)",
    "rule_set": "the rule set the odds are counted under (CSV and JSON)",
    "rule_set_a": "the first rule set compared (CSV and JSON)",
    "rule_set_b": "the second rule set compared (CSV and JSON)",
    "AXES": "the axes of the rule sets' system (--pool, --hunger, ...), one column each",
    "CLASSES": "the columns of the rule set's system (see beastodds SYSTEM --help)",
    # the columns of `beastodds solve`
    "FIND": "the value found of the --find axis or rule field (- or empty when no value meets the target)",
    "COLUMN": "the --target column's value there (a fraction with --exact)",
    "note": "a tie (for ~), that no value searched meets the target, or that a larger value does not "
    "meet it, in words; empty otherwise",
    # the columns of `beastodds versus`
    "attribute": "the character's attribute (dots), the same on both sides",
    "skill": "the character's skill (dots), the same on both sides",
    "win_difference": "the other system's chance of success minus V5's chance to win, exactly (above 0: the "
    "other system is easier)",
    "bestial_difference": "the other system's chance of a bestial failure minus V5's, exactly (above 0: the "
    "other system is harsher)",
    "bestial_ratio": "the other system's chance of a bestial failure over V5's, exactly (above 1: the other "
    "system is harsher; - when V5's is 0)",
    "paired": "what the two rolls of the row share (the V5 Difficulty and the pairing), in words",
    # the columns of the commands that print more than a system's odds table
    "reroll": "each Rouse check may be rerolled (two dice, keep the better)",
    "frenzy_test": "chance that some check failed at Hunger 5 (a hunger frenzy test)",
    "pool_a": "dice side A rolls",
    "hunger_a": "side A's Hunger",
    "pool_b": "dice side B rolls",
    "hunger_b": "side B's Hunger",
    "winner": "the side with more successes (a, b or tie)",
    "damage_to_a": "damage side A marks (after halving)",
    "damage_to_b": "damage side B marks (after halving)",
    "probability": "chance of this row",
    "turn": "turns played (0: before the first roll)",
    "a_impaired": "chance that side A is Impaired by this turn",
    "b_impaired": "chance that side B is Impaired by this turn",
    "a_impaired_first": "chance that A became Impaired on a turn when B was not (yet)",
    "b_impaired_first": "chance that B became Impaired on a turn when A was not (yet)",
    "both_impaired_together": "chance that both became Impaired on the same turn",
    "a_out_first": "chance that A is out (torpor or death) first: B's victory",
    "b_out_first": "chance that B is out (torpor or death) first: A's victory",
    "both_out_together": "chance that both went out on the same turn",
    "over": "chance that the fight has stopped (by --until) by this turn",
    "a_superficial": "side A's Superficial damage after the last turn",
    "a_aggravated": "side A's Aggravated damage after the last turn",
    "b_superficial": "side B's Superficial damage after the last turn",
    "b_aggravated": "side B's Aggravated damage after the last turn",
    "levels": "health levels lost",
    "dice": "damage dice",
    "auto": "automatic damage successes",
    "stamina": "the target's Stamina (soak dice)",
    "fortitude": "the target's Fortitude",
    "blows": "blows taken",
    "incapacitated": "chance of being Incapacitated or worse after that many blows",
    "torpor": "chance of torpor or worse after that many blows (a mortal's death counts)",
    "final_death": "chance of Final Death after that many blows (a mortal's death counts)",
    "vitae": "Vitae in the vampire's (or ghoul's) body",
    "p_exactly": "chance of exactly this many successes",
    "p_at_least": "chance of at least this many successes",
    "p_more": "chance of more than this many successes",
    "initiator_wins": "chance that the initiator wins (bestial or not)",
    # the columns of the published tables
    "level": "the Soif (La Soif) and the Hunger (V5) of the row",
    "surge_bonus": "dice a Blood Surge adds at this Blood Potency",
    "mend": "Superficial damage mended per Rouse check at this Blood Potency",
    "rouse_reroll_level": "highest Discipline level whose Rouse check may be rerolled at this Blood Potency",
    "card_needed": "the card the test needs: difficulty minus base",
    "deck": "how the scene's cards are dealt: reshuffled between tests, or one scene deck",
    "test": "the test's place in the scene (1: the first)",
    "tests": "tests in the scene",
    "win_after_win": "chance to win, given the test before was won",
    "win_after_loss": "chance to win, given the test before was lost",
    "bestial_after_bestial": "chance of a bestial result, given the test before was bestial",
    "none": "chance that the scene brings no Compulsion",
    "one": "chance that the scene brings exactly one Compulsion",
    "two_or_more": "chance that the scene brings two Compulsions or more",
    "attack": "the attack of the example",
    "kind": "kind of damage (bashing, lethal, aggravated)",
    "soak": "soak dice",
    "mean_levels": "expected health levels lost",
    "at_least_one": "chance of losing at least one health level",
    "at_least_three": "chance of losing at least three health levels",
    "humanity": "the vampire's Humanity",
    "name": "the rule set's name (give it to --rules, table, compare)",
    "system": "the system the rule set belongs to",
    "changes": "the fields it changes from the system's defaults",
    "description": "what it is, in a sentence or two",
}


def first_repeat(items):
    """The first item of ``items`` that came before (None if none does): one pass, with a set."""
    seen = set()
    for item in items:
        if item in seen:
            return item
        seen.add(item)
    return None


def _names(what: str, names) -> list:
    """``names`` (one name, a list, or ``"a,b"`` / ``"a x b"``-free text) as a list of column names."""
    from .validate import materialise

    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    if not isinstance(names, (list, tuple)):
        names = materialise(what, names, "column names")
    names = list(names)
    if not names or not all(isinstance(n, str) and n for n in names):
        raise ValueError(f"{what} needs at least one column name, got {names!r}")
    return names


def _unknown(what: str, name: str, known) -> ValueError:
    """A ValueError for a column name that is not in ``known``, with a "did you mean"."""
    from .validate import did_you_mean

    hint = did_you_mean(name, known)
    return ValueError(
        f"{what}: the table has no column {name!r}{hint}; its columns are {', '.join(str(k) for k in known)}"
    )


def _is_key(series: pd.Series) -> bool:
    """Whether a column is a key (integers or texts) rather than a value (floats or Fractions)."""
    if pd.api.types.is_integer_dtype(series) or pd.api.types.is_bool_dtype(series):
        return True
    if pd.api.types.is_float_dtype(series):
        return False
    return all(isinstance(v, str) for v in series)


def _first_seen(df: pd.DataFrame, names: list) -> pd.Index:
    """The distinct combinations of ``names`` in ``df``, each level in the order its values first appear."""
    combos = df[names].drop_duplicates()
    ranks = [{v: i for i, v in enumerate(pd.unique(df[n]))} for n in names]
    order = sorted(range(len(combos)), key=lambda i: tuple(ranks[j][combos.iat[i, j]] for j in range(len(names))))
    combos = combos.iloc[order]
    if len(names) == 1:
        return pd.Index(combos[names[0]], name=names[0])
    return pd.MultiIndex.from_frame(combos)


def pivot(df: pd.DataFrame, rows, columns, value: str, *, key_columns=None, derivable=()) -> pd.DataFrame:
    """One value column of a tidy table as a grid: ``rows`` down, ``columns`` across.

    Parameters
    ----------
    df : DataFrame
        A tidy table (key columns, then value columns), such as a system's
        ``table()`` or :attr:`Comparison.table`.
    rows, columns : str or sequence of str
        The key columns whose values label the rows and the columns
        (``"pool"``, ``["pool", "hunger"]`` or ``"pool,hunger"``).
    value : str
        The value column shown in the cells (``"p_win"``).
    key_columns : sequence of str, optional
        The key columns of ``df``; default: its integer and text columns.
    derivable : sequence of str
        Key columns that are not axes of the grid (La Soif's ``beast_dice``):
        one that the other keys decide is left out rather than split the
        grid.  :func:`render` passes the keys that are not its system's axes.

    Returns
    -------
    DataFrame
        Indexed by ``rows`` (with any other key column that takes several
        values put in front as an extra index level; one that takes a
        single value is dropped, and so is one that the other keys decide,
        such as La Soif's ``beast_dice`` given the pool and the Soif: it is
        named in ``attrs["derived"]``), one column per value of ``columns``
        (named by that axis), the cells holding ``value`` as they were
        (floats or Fractions).

    Raises
    ------
    TypeError
        One sentence, when ``df`` is not a DataFrame.
    ValueError
        One sentence, for an unknown column (with a "did you mean"), a column
        used twice, a value column that is a key, or a table with more than
        one row per cell.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"pool": [1, 1, 2, 2], "hunger": [0, 1, 0, 1], "p_win": [.5, .4, .7, .6]})
    >>> pivot(t, "pool", "hunger", "p_win").to_dict()
    {0: {1: 0.5, 2: 0.7}, 1: {1: 0.4, 2: 0.6}}
    """
    _check_frame(df, "pivot")
    rows, columns = _names("--pivot rows", rows), _names("--pivot columns", columns)
    if not isinstance(value, str) or not value:
        raise ValueError(f"--value needs one column name, got {value!r}")
    known = list(df.columns)
    known_set = set(known)
    for name in rows + columns + [value]:
        if name not in known_set:
            raise _unknown("--pivot" if name != value else "--value", name, known)
    used = rows + columns
    twice = first_repeat(used)
    if twice is not None:
        raise ValueError(f"--pivot names {twice!r} twice: each column goes down or across once")
    if key_columns is None:
        keys = [c for c in known if _is_key(df[c])]
    else:
        keys = [c for c in known if c in set(key_columns)]
    if value in keys or value in used:
        raise ValueError(
            f"--value {value} is a key column; give a value column such as "
            + ", ".join(str(c) for c in known if c not in keys and c not in used)
        )
    not_keys = [n for n in used if n not in keys]
    if not_keys:
        raise ValueError(
            f"--pivot {not_keys[0]} is a value column, not an axis; the axes are " + ", ".join(str(k) for k in keys)
        )
    extra = [k for k in keys if k not in used and df[k].nunique(dropna=False) > 1]
    # a key the others decide (La Soif's beast_dice, from pool and soif) would only split the grid:
    # it is left out, and the result says so (attrs["derived"])
    derived = []
    for k in [e for e in extra if e in set(derivable or ())]:
        others = used + [e for e in extra if e != k and e not in derived]
        if others and (df.groupby(others, sort=False)[k].nunique(dropna=False) <= 1).all():
            derived.append(k)
    extra = [k for k in extra if k not in derived]
    index = extra + rows
    cells = df[index + columns]
    if cells.duplicated().any():
        raise ValueError(
            f"the table has several rows per cell of {' x '.join(index + columns)}; add the other axes to --pivot"
        )
    out = df.set_index(index + columns)[value].unstack(columns)
    out = out.reindex(index=_first_seen(df, index), columns=_first_seen(df, columns))
    out.attrs["derived"] = {k: [c for c in index + columns] for k in derived}
    return out


def _column_prefixes() -> list:
    """``[(prefix, name for people, system)]``: the column prefixes of tables that set systems side by
    side, as each system declares them (``SYSTEM.column_prefixes``)."""
    from . import rulesets

    return [(prefix, who, system) for system in rulesets.SYSTEMS.values() for prefix, who in system.column_prefixes]


def _axis_meanings(system) -> dict:
    """``{axis: meaning}`` from the mechanic file a shipped system keeps (``mechanic.toml``), or ``{}``."""
    from .mechanic.system import shipped

    try:
        mech = shipped(system)
    except (ValueError, AttributeError):
        return {}
    return {} if mech is None else {a.name: a.help for a in mech.axes if a.help}


def _class_meaning(system, word: str):
    """The meaning of an outcome class or term of a system (None if it has none)."""
    return system.class_meanings().get(word) or dict(system.terms).get(word)


#: Meanings of the short words after such a prefix.
_SHORT = {
    "win": "chance to win",
    "success": "chance of at least one success",
    "exceptional": "chance of an exceptional success (5 or more successes)",
    "critical": "chance of a critical win (a pair of 10s, messy or not)",
    "beastly_critical": "chance of a beastly critical (10s only on Beast dice; overlaps the classes)",
    "base": "attribute + 2 x skill (minus penalties) before the card",
    "difficulty": "the total the card test must reach",
}


def legend(columns, system=None, meanings=None) -> list:
    """One line ``"name: meaning"`` per column, from the glossary and the system's own terms.

    Parameters
    ----------
    columns : sequence of str
        Column names (a table's ``columns``).
    system : System or str, optional
        The system the table belongs to: its outcome classes and terms are
        used first (their meaning there), then the shared glossary.
    meanings : dict, optional
        ``{column: meaning}`` used before all of them: the meanings under a
        rule set's own values (:func:`rule_meanings`).

    Returns
    -------
    list of str
        In the order of ``columns``; a column no glossary knows gets
        ``"name: (no meaning recorded)"``.

    Examples
    --------
    >>> legend(["pool", "difference"])[0]
    'pool: dice rolled, after every modifier'
    """
    from . import glossary

    own: dict = {}
    if system is not None:
        if isinstance(system, str):
            from . import rulesets

            system = rulesets.system(system)
        # the system's own words first: its mechanic file's axes, its terms, its classes; a shared
        # glossary line that speaks of several systems ("(V5; cards: ...)") only where it has none
        own = {**_axis_meanings(system), **dict(system.terms), **system.class_meanings()}
    own.update(meanings or {})
    known = glossary.terms()
    prefixes = _column_prefixes()
    lines = []
    for c in columns:
        name = str(c)
        text = own.get(name) or known.get(name) or TABLE_TERMS.get(name)
        for prefix, who, owner in prefixes:
            if text is None and name.startswith(prefix):
                word = name[len(prefix) :]
                rest = _SHORT.get(word) or _class_meaning(owner, word) or known.get(word) or TABLE_TERMS.get(word)
                if rest:
                    text = f"{who}: {rest}"
        if text is None:
            m = re.match(r"^hunger_(\d+)$", name)
            text = f"chance that Hunger ends at {m.group(1)}" if m else "(no meaning recorded)"
        lines.append(f"{name}: {text}")
    return lines
