"""Every HTML table: ``--format html``, the booklet's readable tables, and the legend under each.

One renderer for every table written as HTML, each text escaped by
:func:`analysis.model.escape.html_text`:

* :func:`odds_table`: :func:`analysis.present.formats.render.render`'s ``html``
  format: the printed cells as pandas writes a table (class ``odds``), the
  rule set as its caption, the legend below (``<code>name</code>: meaning``);
* :func:`long_table`, :func:`pivot_table` and :func:`markdown_layout`: the
  booklet's tables (:mod:`analysis.present.booklet`), with readable headings
  (``Chance to win``), probabilities as percentages (:data:`PERCENT_DIGITS`
  decimals, rounded half up from the exact value:
  :func:`analysis.model.numbers.percent_text`) and a legend of
  ``(label, meaning)`` lines (:func:`legend_list`);
* the ``<table>`` and ``<tr>`` they and the other small tables (a rule set's changes, a
  comparison in Jupyter) are made of: :func:`analysis.model.escape.table` and ``row``;
* :func:`figure`: a matplotlib figure inlined as a PNG (a ``data:`` URI), with its caption.
"""

from __future__ import annotations

import base64
import io
import re

from analysis.present.glossary import label
from analysis.present.legend import column_legend, meaning, span_text, strip_name
from analysis.present.pivot import pivot
from analysis.model.escape import html_text, row, table
from analysis.model.numbers import holds_probabilities, percent_text

#: Tables longer than this scroll in a box of their own (the booklet shows them pivoted, the long form folded).
LONG_ROWS = 40
#: Decimals of the percentages in the booklet's tables.
PERCENT_DIGITS = 1


def odds_table(shown, title: str | None, none: str | None, notes: list) -> str:
    """A table as ``--format html`` writes it: ``shown`` (the printed cells,
    :func:`analysis.present.formats.frame.display_frame`) as pandas' table of class ``odds``, ``title`` as its
    caption, a row saying ``none`` when it has no rows, and ``notes`` (``"name: meaning"`` lines) as the
    legend below it."""
    text = shown.to_html(index=False, border=0, classes="odds")
    if none:
        text = text.replace(
            "<tbody>\n",
            f'<tbody>\n    <tr><td colspan="{max(len(shown.columns), 1)}">{html_text(none)}</td></tr>\n',
            1,
        )
    if title:
        text = text.replace(">", f">\n  <caption>{html_text(title)}</caption>", 1)
    if notes:
        items = "".join(
            f"\n  <li><code>{html_text(n.split(': ', 1)[0])}</code>: {html_text(n.split(': ', 1)[1])}</li>"
            for n in notes
        )
        text += f'\n<ul class="legend">{items}\n</ul>'
    return text + "\n"


def legend_list(lines) -> str:
    """``<ul class="legend">`` of ``(name, text)`` lines."""
    items = "".join(
        f"<li><b>{html_text(n)}</b>: {html_text(t)}</li>" if t else f"<li><b>{html_text(n)}</b></li>" for n, t in lines
    )
    return f'<ul class="legend">{items}</ul>'


def long_table(df, keys, system=None, legend_extra=None, caption: str = "") -> str:
    """A tidy table with readable headings, probabilities in percent, and its legend."""
    head = row((html_text(label(c)) for c in df.columns), "th")
    probs = {c for c in df.columns if c not in keys and holds_probabilities(df[c])}
    rows = []
    for rec in df.itertuples(index=False):
        cells = []
        for c, v in zip(df.columns, rec):
            if c in probs:
                cells.append(html_text(percent_text(v, PERCENT_DIGITS)))
            elif isinstance(v, float):
                cells.append(f"{v:.4g}")
            else:
                cells.append(html_text(v))
        rows.append(row(cells))
    text = table(head, "".join(rows), caption)
    if len(df) > LONG_ROWS:
        text = f'<div class="scroll">{text}</div>'
    extra = dict(legend_extra or {})
    for c in probs:
        extra.setdefault(c, (strip_name(c, meaning(c, system)) or "a probability") + " (percent)")
    return text + legend_list(column_legend(df.columns, system, extra))


def pivot_frame(df, rows: str, columns: str, value, where: dict | None = None):
    """``df`` pivoted: one row per value of ``rows``, one column per value of ``columns``.

    ``value`` is a column, or a list of columns shown together in each cell
    as ``"a / b"`` (percentages).  ``where``: ``{column: value}`` to select
    first.  Returns ``(row values, column values, {(row, column): text})``.
    """
    values = [value] if isinstance(value, str) else list(value)
    sub = df
    for k, v in (where or {}).items():
        sub = sub[sub[k] == v]
    grids = [pivot(sub, rows, columns, v, key_columns=[rows, columns]) for v in values]
    rv, cv = list(grids[0].index), list(grids[0].columns)
    cells = {
        (r, c): " / ".join(percent_text(g.at[r, c], PERCENT_DIGITS) for g in grids)
        for r in rv
        for c in cv
        if all(g.at[r, c] == g.at[r, c] for g in grids)
    }  # NaN: no such row
    return rv, cv, cells


def pivot_table(
    df,
    rows: str,
    columns: str,
    value,
    *,
    where: dict | None = None,
    system=None,
    caption: str = "",
    extra: dict | None = None,
    same: dict | None = None,
) -> str:
    """A pivoted table (see :func:`pivot_frame`) with its caption and its legend, one line per column.

    ``extra``: ``{column: meaning}`` that overrides the glossary in the legend.
    ``same``: ``{axis: values}`` of axes along which the cells never change
    (checked exactly by the caller), said in the legend.
    """
    extra = extra or {}

    def means(c):
        return extra.get(c) or meaning(c, system)

    values = [value] if isinstance(value, str) else list(value)
    rv, cv, cells = pivot_frame(df, rows, columns, values, where)
    head = (
        f'<tr><th rowspan="2">{html_text(label(rows))}</th><th colspan="{len(cv)}" class="group">'
        f"{html_text(label(columns))}</th></tr><tr>" + "".join(f"<th>{html_text(c)}</th>" for c in cv) + "</tr>"
    )
    body = "".join(
        f"<tr><th>{html_text(r)}</th>" + "".join(f"<td>{html_text(cells.get((r, c), ''))}</td>" for c in cv) + "</tr>"
        for r in rv
    )
    what = " / ".join(label(v).lower() if i else label(v) for i, v in enumerate(values))
    cell_text = "; ".join(f"{label(v).lower()}: {strip_name(v, means(v)) or 'a probability'}" for v in values)
    lines = [
        (label(rows), means(rows) or "the rows"),
        (
            f"{label(columns)} {cv[0]} … {cv[-1]}" if len(cv) > 1 else f"{label(columns)} {cv[0]}",
            (means(columns) or "the columns"),
        ),
        (
            "Each cell" + (f" ({what})" if len(values) > 1 else ""),
            ("in percent, the " if len(values) == 1 else "percentages, in this order: ") + cell_text,
        ),
    ]
    if where:
        lines.append(("Fixed", ", ".join(f"{label(k)} {v}" for k, v in where.items())))
    for axis, vals in (same or {}).items():
        lines.append(
            (f"Any {label(axis)}", f"{label(axis)} {span_text(vals)} give exactly the same numbers in every cell")
        )
    wide = " wide" if len(cv) > 14 else ""
    return f'<div class="block">{table(head, body, caption, "pivot" + wide)}{legend_list(lines)}</div>'


def markdown_layout(text: str, legend_extra: dict | None = None, system=None) -> str:
    """A table already laid out as Markdown text: pipe tables and paragraphs to HTML, with a legend."""
    out: list[str] = []
    rows: list[list[str]] = []

    def flush():
        if rows:
            head, body = rows[0], [r for r in rows[1:] if not all(set(c) <= set(":- ") for c in r)]
            head_row = row((html_text(c) for c in head), "th")
            out.append(table(head_row, "".join(row(html_text(c) for c in r) for r in body)))
            extra = dict(legend_extra or {})
            groups = []  # consecutive "Hunger 0", "Hunger 1", ... make one line "Hunger 0 … 5"
            for c in head:
                m = re.fullmatch(r"(\D+?) (\d+)", c)
                if m and groups and groups[-1][0] == m.group(1):
                    groups[-1][2] = m.group(2)
                else:
                    groups.append([m.group(1), m.group(2), None] if m else [c, None, None])
            lines = []
            for word, first, last in groups:
                name = word if first is None else f"{word} {first}" + (f" … {last}" if last else "")
                lines.append(
                    (
                        name,
                        extra.pop(name, None)
                        or meaning(word.lower(), system)
                        or meaning(word.lower().replace(" ", "_"), system)
                        or "see the heading above",
                    )
                )
            lines += list(extra.items())
            out.append(legend_list(lines))
            rows.clear()

    for line in text.splitlines():
        s = line.strip()
        if s.startswith("|"):
            rows.append([c.strip() for c in s.strip("|").split("|")])
            continue
        flush()
        if s:
            out.append(f'<p class="note">{html_text(s)}</p>')
    flush()
    return "\n".join(out)


def figure(fig, anchor: str, caption: str, dpi: int) -> str:
    """A matplotlib figure as a ``<figure>``: the PNG inlined (base64, no timestamp), its caption below."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return (
        f'<figure id="{html_text(anchor)}"><img alt="{html_text(caption)}" '
        f'src="data:image/png;base64,{data}"><figcaption>{html_text(caption)}</figcaption></figure>'
    )
