"""Odds booklets: self-contained HTML pages of pivoted odds tables, legends and figures.

Two kinds of booklet come from the same code:

* :func:`build_rulesets` (``beastodds booklet RULESET... -o FILE``): one
  section per rule set, shipped or a TOML file, of any system.  Each opens
  with the rule set's own name and description and the list of its changes
  from the official rules, then the chance to win (or succeed) pivoted
  across the system's first two axes at a few values of the third, every
  outcome class at one slice, the whole long-form table folded away, and
  figures drawn with the rule set (:mod:`analysis.plots`).
* :func:`build` (``make booklet``): the shipped booklet, a section per
  system package (``analysis/systems/NAME``): the official odds at a
  glance, every published table (``published/*.py``, ``make_tables()``),
  every figure (``figures/*.py``, ``make_figure()``) and a table per shipped
  house-rule variant.  Long tables are shown pivoted, their long form folded
  in a ``<details>``.

Every table has readable headings and a legend under it, one line per
column.  A published module may give its tables readable titles
(``TITLES = {table: text}``), legend lines (``LEGENDS = {table: {column:
text}}``, for instance for cells that combine two numbers) and the rule
set each was computed with (``RULE_SETS = {table: text or variant
name(s)}``).

The page inlines its CSS and its figures (base64 PNG data URIs): it reads
offline, as one file.  It is written atomically (a temporary file, then a
rename), so a failed build leaves any earlier booklet intact.
"""
from __future__ import annotations

import base64
import html
import io
import re
from fractions import Fraction
from pathlib import Path

from . import __version__, rulesets

ROOT = Path(__file__).resolve().parent.parent
#: Where ``make booklet`` writes the page.
OUTPUT = ROOT / "figures" / "booklet.html"
#: Tables longer than this are shown pivoted, their long form folded in a ``<details>``.
LONG_ROWS = 40
#: Rows of each variant table (the cells where the variant matters most).
VARIANT_ROWS = 8
#: Values of a third axis shown in pivoted tables (a few Difficulties, say).
SLICES = 3
#: Resolution of the inlined figures.
DPI = 90

CSS = """
:root { --ink: #1d1d1f; --muted: #5f6368; --line: #d9d9de; --accent: #7b1e2b; --soft: #f6f3f3; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
       font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 64px; }
header.top { border-bottom: 3px solid var(--accent); margin-bottom: 18px; }
h1 { font-size: 30px; margin: 8px 0 4px; color: var(--accent); }
h2 { font-size: 24px; margin: 40px 0 8px; padding-top: 8px; border-top: 2px solid var(--line); color: var(--accent); }
h3 { font-size: 18px; margin: 26px 0 6px; }
h4 { font-size: 15px; margin: 20px 0 4px; }
h4 code.name { font-weight: normal; color: var(--muted); font-size: 12px; margin-left: 6px; }
p.lead, p.note { color: var(--muted); margin: 4px 0 10px; }
nav.toc { background: var(--soft); padding: 10px 16px; border-radius: 6px; }
nav.toc ul { margin: 4px 0; padding-left: 20px; }
nav.toc a { color: var(--accent); text-decoration: none; }
p.rules { margin: 4px 0 8px; padding: 6px 10px; background: var(--soft);
          border-left: 4px solid var(--accent); font-size: 13.5px; }
p.rules b { color: var(--accent); }
div.block { display: inline-block; vertical-align: top; margin: 0 28px 14px 0; width: min-content;
            max-width: 100%; overflow-x: auto; }
table.pivot th.group { text-align: center; }
table.pivot td { min-width: 3.6em; }
table.pivot.wide { font-size: 11px; }
table.pivot.wide td, table.pivot.wide th { padding: 1px 3px; min-width: 0; }
div.block ul.legend { min-width: 22em; }
table { border-collapse: collapse; font-size: 12.5px; font-variant-numeric: tabular-nums; margin: 4px 0 4px; }
caption { caption-side: top; text-align: left; font-weight: 600; font-size: 13px; padding: 2px 0 4px; }
th, td { padding: 2px 7px; text-align: right; border-bottom: 1px solid var(--line); white-space: nowrap; }
th { background: #ece8e8; font-weight: 600; }
tbody th { background: #f4f1f1; }
tbody tr:nth-child(even) td { background: #faf9f9; }
table.changes td, table.changes th { text-align: left; white-space: normal; }
ul.legend { margin: 2px 0 12px; padding-left: 18px; color: var(--muted); font-size: 12.5px; max-width: 60em; }
ul.legend li { margin: 0; }
details { margin: 6px 0 14px; }
details summary { cursor: pointer; color: var(--accent); }
.scroll { max-height: 30em; overflow: auto; border: 1px solid var(--line); display: inline-block; max-width: 100%; }
.scroll table { margin: 0; }
.scroll thead th { position: sticky; top: 0; }
figure { margin: 12px 0 22px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { color: var(--muted); font-size: 13.5px; }
footer { margin-top: 48px; color: var(--muted); font-size: 13px; border-top: 1px solid var(--line); padding-top: 8px; }
@media print { .scroll { max-height: none; overflow: visible; border: 0; } h2 { page-break-before: always; }
               details > *:not(summary) { display: block; } }
"""



# ------------------------------------------------------------ words

def _esc(text) -> str:
    """Text as HTML: ``<>&"'`` escaped, on one line, control characters shown as ``?``."""
    from .validate import one_line

    return html.escape(one_line(text), quote=True)


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if (doc or "").strip() else ""


def _anchor(*parts) -> str:
    return "-".join(str(p).replace("_", "-").replace(" ", "-") for p in parts)


def label(column) -> str:
    """A column name for people: ``p_win`` -> ``Chance to win`` (:func:`analysis.glossary.label`)."""
    from .glossary import label as words

    return words(column)


def meaning(column, system=None) -> str:
    """The one-line meaning of a column from the glossary (a ``v5_`` or ``card_`` prefix is read through), or ``""``."""
    from .glossary import terms
    from .tables import legend

    name = str(column)
    line = legend([name], system)[0]  # "name: meaning", the system's own meaning first
    text = line.split(": ", 1)[1] if ": " in line else ""
    if text and text != "(no meaning recorded)":
        return text
    known = dict(terms())
    if system is not None:
        known.update(dict(rulesets.system(system).classes))
    parts = name.split("_")
    for i in range(1, len(parts)):
        head, rest = "_".join(parts[:i]), "_".join(parts[i:])
        rest = {"win": "p_win"}.get(rest, rest)  # v5_win, card_win: the chance to win
        if rest in known:
            return f"{label(head)}: {known[rest]}"
    return ""


def _strip_name(column, text: str) -> str:
    """A meaning without a leading repeat of the column's own name (``chance to win: the sum ...``)."""
    lead = label(column).lower() + ":"
    return text[len(lead):].strip() if text.lower().startswith(lead) else text


def _percent(value) -> str:
    """A probability as a percentage with one decimal, from its exact value; never a misleading 0.0% or 100.0%."""
    v = float(Fraction(value)) if isinstance(value, (Fraction, int)) else float(value)
    if v == 0:
        return "0%"
    if v == 1:
        return "100%"
    text = f"{v:.1%}"
    if text == "0.0%":
        return "<0.1%"
    if text == "100.0%":
        return ">99.9%"
    return text


def _legend(lines) -> str:
    """``<ul class="legend">`` of ``(name, text)`` lines."""
    items = "".join(f"<li><b>{_esc(n)}</b>: {_esc(t)}</li>" if t else f"<li><b>{_esc(n)}</b></li>"
                    for n, t in lines)
    return f'<ul class="legend">{items}</ul>'


def _column_legend(columns, system=None, extra=None) -> list:
    """One legend line per column: its label and meaning (``extra`` overrides by column)."""
    extra = extra or {}
    out = []
    for c in columns:
        text = extra.get(c) or meaning(c, system)
        out.append((label(c), text or "see the heading above the table"))
    return out


# ------------------------------------------------------------ tables

def _is_probability(series) -> bool:
    """Whether a column holds probabilities: floats or Fractions, and not a mean (``mean_levels``)."""
    import pandas as pd

    from .tables import is_probability

    if not is_probability(series.name):
        return False
    if pd.api.types.is_float_dtype(series):
        return True
    return len(series) > 0 and all(isinstance(v, Fraction) for v in series)


def _is_axis(series) -> bool:
    """Whether a key column can label pivot rows or columns: integers or texts (not a float, a mean)."""
    import pandas as pd

    if pd.api.types.is_integer_dtype(series):
        return True
    return len(series) > 0 and all(isinstance(v, str) for v in series)


def _long_table_html(df, keys, system=None, legend_extra=None, caption: str = "") -> str:
    """A tidy table with readable headings, probabilities in percent, and its legend."""
    head = "".join(f"<th>{_esc(label(c))}</th>" for c in df.columns)
    probs = {c for c in df.columns if c not in keys and _is_probability(df[c])}
    rows = []
    for rec in df.itertuples(index=False):
        cells = []
        for c, v in zip(df.columns, rec):
            if c in probs:
                cells.append(f"<td>{_esc(_percent(v))}</td>")
            elif isinstance(v, float):
                cells.append(f"<td>{v:.4g}</td>")
            else:
                cells.append(f"<td>{_esc(v)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    cap = f"<caption>{_esc(caption)}</caption>" if caption else ""
    table = (f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    if len(df) > LONG_ROWS:
        table = f'<div class="scroll">{table}</div>'
    extra = dict(legend_extra or {})
    for c in probs:
        extra.setdefault(c, (meaning(c, system) or "a probability") + " (percent)")
    return table + _legend(_column_legend(df.columns, system, extra))


def pivot_frame(df, rows: str, columns: str, value, where: dict | None = None):
    """``df`` pivoted: one row per value of ``rows``, one column per value of ``columns``.

    ``value`` is a column, or a list of columns shown together in each cell
    as ``"a / b"`` (percentages).  ``where``: ``{column: value}`` to select
    first.  Returns ``(row values, column values, {(row, column): text})``.
    """
    from .tables import pivot

    values = [value] if isinstance(value, str) else list(value)
    sub = df
    for k, v in (where or {}).items():
        sub = sub[sub[k] == v]
    grids = [pivot(sub, rows, columns, v, key_columns=[rows, columns]) for v in values]
    rv, cv = list(grids[0].index), list(grids[0].columns)
    cells = {(r, c): " / ".join(_percent(g.at[r, c]) for g in grids)
             for r in rv for c in cv if all(g.at[r, c] == g.at[r, c] for g in grids)}  # NaN: no such row
    return rv, cv, cells


def pivot_html(df, rows: str, columns: str, value, *, where: dict | None = None, system=None,
               caption: str = "", extra: dict | None = None) -> str:
    """A pivoted table (see :func:`pivot_frame`) with its caption and its legend, one line per column.

    ``extra``: ``{column: meaning}`` that overrides the glossary in the legend.
    """
    extra = extra or {}

    def means(c):
        return extra.get(c) or meaning(c, system)

    values = [value] if isinstance(value, str) else list(value)
    rv, cv, cells = pivot_frame(df, rows, columns, values, where)
    head = (f'<tr><th rowspan="2">{_esc(label(rows))}</th><th colspan="{len(cv)}" class="group">'
            f"{_esc(label(columns))}</th></tr><tr>" + "".join(f"<th>{_esc(c)}</th>" for c in cv) + "</tr>")
    body = "".join("<tr><th>" + _esc(r) + "</th>" + "".join(f"<td>{_esc(cells.get((r, c), ''))}</td>"
                                                           for c in cv) + "</tr>" for r in rv)
    cap = f"<caption>{_esc(caption)}</caption>" if caption else ""
    what = " / ".join(label(v).lower() if i else label(v) for i, v in enumerate(values))
    cell_text = "; ".join(f"{label(v).lower()}: {_strip_name(v, means(v)) or 'a probability'}"
                          for v in values)
    lines = [(label(rows), means(rows) or "the rows"),
             (f"{label(columns)} {cv[0]} … {cv[-1]}" if len(cv) > 1 else f"{label(columns)} {cv[0]}",
              (means(columns) or "the columns")),
             ("Each cell" + (f" ({what})" if len(values) > 1 else ""),
              ("in percent, the " if len(values) == 1 else "percentages, in this order: ") + cell_text)]
    if where:
        lines.append(("Fixed", ", ".join(f"{label(k)} {v}" for k, v in where.items())))
    wide = " wide" if len(cv) > 14 else ""
    return (f'<div class="block"><table class="pivot{wide}">{cap}<thead>{head}</thead>'
            f"<tbody>{body}</tbody></table>{_legend(lines)}</div>")


def _markdown_html(text: str, legend_extra: dict | None = None, system=None) -> str:
    """A table already laid out as Markdown text: pipe tables and paragraphs to HTML, with a legend."""
    out, rows = [], []

    def flush():
        if rows:
            head, body = rows[0], [r for r in rows[1:] if not all(set(c) <= set(":- ") for c in r)]
            out.append("<table><thead><tr>" + "".join(f"<th>{_esc(c)}</th>" for c in head)
                       + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in r) + "</tr>"
                                 for r in body) + "</tbody></table>")
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
                lines.append((name, extra.pop(name, None) or meaning(word.lower(), system)
                              or meaning(word.lower().replace(" ", "_"), system)
                              or "see the heading above"))
            lines += list(extra.items())
            out.append(_legend(lines))
            rows.clear()

    for line in text.splitlines():
        s = line.strip()
        if s.startswith("|"):
            rows.append([c.strip() for c in s.strip("|").split("|")])
            continue
        flush()
        if s:
            out.append(f'<p class="note">{_esc(s)}</p>')
    flush()
    return "\n".join(out)


def _few(values, count: int = SLICES) -> list:
    """A few values of an axis: all when there are few, else ``count`` of them after the first."""
    values = list(values)
    if len(values) <= count:
        return values
    if len(values) <= 2 * count + 1:
        return values[1:1 + count]
    return [values[len(values) * (i + 1) // (count + 1)] for i in range(count)]


def _headline(df, system) -> str | None:
    """The column a pivoted summary shows: the chance to win (or succeed), else the first class."""
    for c in ("p_win", "p_success"):
        if c in df.columns:
            return c
    classes = [c for c, _ in rulesets.system(system).classes if c in df.columns] if system else []
    probs = [c for c in df.columns if _is_probability(df[c])]
    for c in probs:  # a plain success or win (initiator_wins), not a feared one (bestial_success)
        if ("success" in c or "win" in c) and not any(w in c for w in _RISKS):
            return c
    return (classes or probs or [None])[0]


def _pivots_html(df, axes, system, value=None, extra=None) -> str:
    """The ``value`` column pivoted across the first two axes at a few values of the third (later ones: first value)."""
    value = value or _headline(df, system)
    axes = [a for a in axes if a in df.columns and df[a].nunique() > 1]
    if value is None or len(axes) < 2:
        return ""
    rows, cols, rest = axes[0], axes[1], axes[2:]
    combos = [{}]  # later axes: both values of a switch (violent 0 and 1), else the first value
    for a in rest[1:]:
        vals = sorted(df[a].unique().tolist())
        combos = [dict(c, **{a: v}) for c in combos for v in (vals if len(vals) <= 2 else vals[:1])]
    slices = [None] if not rest else _few(sorted(df[rest[0]].unique().tolist()))
    parts = []
    for fixed, s in ((c, s) for c in combos for s in slices):
        where = dict(fixed)
        if s is not None:
            where[rest[0]] = s
        cap = label(value) + (" at " + ", ".join(f"{label(k)} {v}" for k, v in where.items())
                              if where else "")
        parts.append(pivot_html(df, rows, cols, value, where=where, system=system, caption=cap,
                                extra=extra))
    return "".join(parts)


# ------------------------------------------------------------ rule sets

def _field_help(rs, dotted: str) -> str:
    """The one-line help of a (dotted) rules field, or ``""``."""
    try:
        parts = dotted.split(".")
        holder = rs.sub(parts[0]) if parts[0] in rulesets.system(rs.system).sub_rule_names else rs.rules
        for p in (parts[1:] if holder is not rs.rules else parts)[:-1]:
            holder = getattr(holder, p)
        for info in type(holder).fields_info():
            if info.name == parts[-1]:
                return info.help
    except (AttributeError, TypeError, ValueError):
        pass
    return ""


def _describe(rs: rulesets.RuleSet, short: bool = False) -> str:
    """A rule set stated in HTML: its name, its description, what differs from the defaults.

    ``short``: the name and its fields only (for the many tables of a section's defaults).
    """
    text = f"<b>{_esc(rs.name)}</b>" + (":" if short else "")
    if rs.description and not short:
        text += f": {_esc(rs.description)}"
    changes = rs.changes()
    if changes:
        text += " Changed from the official rules: " + "; ".join(
            f"<code>{_esc(k)} = {_esc(rulesets.show_value(v))}</code> (official "
            f"{_esc(rulesets.show_value(d))})" for k, (d, v) in changes.items()) + "."
    else:
        text += " Fields: " + ", ".join(f"<code>{_esc(k)} = {_esc(rulesets.show_value(v))}</code>"
                                        for k, v in rs.fields().items()) + "."
    return text


def _changes_html(rs: rulesets.RuleSet) -> str:
    """The list of changes from the official rules, as a table with the meaning of each field."""
    official = rulesets.official(rs.system)
    changes = rs.changes()
    if not changes:
        return (f'<p class="note">No change: these are the official rules ({_esc(official.name)}).</p>')
    rows = "".join(f"<tr><td><code>{_esc(k)}</code></td><td>{_esc(rulesets.show_value(d))}</td>"
                   f"<td><b>{_esc(rulesets.show_value(v))}</b></td><td>{_esc(_field_help(rs, k))}</td></tr>"
                   for k, (d, v) in changes.items())
    table = ('<table class="changes"><thead><tr><th>Field</th><th>Official</th>'
             f"<th>{_esc(rs.name)}</th><th>What it sets</th></tr></thead><tbody>{rows}</tbody></table>")
    legend = _legend([("Field", "the rules field as written in a rule-set TOML file (a dotted name "
                                "is a field of another mechanic's table, such as [rouse])"),
                      ("Official", f"its value in the official rules ({official.name})"),
                      (rs.name, "its value in this rule set"),
                      ("What it sets", "the field's one-line help")])
    note = ""
    if rs.rules == official.rules:
        note = ('<p class="note">The dice odds below are those of the official rules: this rule '
                "set changes another mechanic only.</p>")
    return table + legend + note


def _figure_of(fig, anchor: str, caption: str) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return (f'<figure id="{_esc(anchor)}"><img alt="{_esc(caption)}" '
            f'src="data:image/png;base64,{data}"><figcaption>{_esc(caption)}</figcaption></figure>')


#: Words of the outcome classes a player fears (drawn beside the chance to win).
_RISKS = ("messy", "bestial", "brutal", "despair", "dramatic", "botch")


def _ruleset_figures(rs, official, system, grid, df) -> list:
    """Figures drawn with the rule set: its outcome curves beside the official ones, and the difference heatmap."""
    from . import plots
    from .tables import compare

    axes = list(system.axis_names)
    figs = []
    classes = [c for c, _ in system.classes if c in df.columns]
    head = _headline(df, system.name)
    risky = [c for c in classes if c != head and any(w in c for w in _RISKS)]
    outcomes = [head] + (risky or [c for c in classes if c != head])[-2:]
    cells = {a: grid[a] for a in axes}
    if len(axes) > 1:
        panel_values = _few(cells[axes[1]])
        cells[axes[1]] = panel_values
    for a in axes[2:]:
        cells[a] = [_few(cells[a])[len(_few(cells[a])) // 2]]
    spec = {a: ",".join(str(v) for v in vs) for a, vs in cells.items()}
    sets = [official] if rs == official else [official, rs]
    fig = plots.variant_curves(sets, outcomes, x=axes[0], panel=axes[1] if len(axes) > 1 else None,
                               grid=spec)
    figs.append(_figure_of(fig, _anchor("figure", rs.name, "curves"),
                           f"{rs.name}: " + ", ".join(label(o).lower() for o in outcomes)
                           + f" against {label(axes[0]).lower()}"
                           + ("" if rs == official else f", beside {official.name}")))
    if rs.rules != official.rules:
        full = {a: ",".join(str(v) for v in grid[a]) for a in axes}
        for a in axes[2:]:
            full[a] = spec[a]
        cmp = compare(official, rs, full)
        fig = plots.difference_heatmap(cmp, x=axes[0], y=axes[1] if len(axes) > 1 else None)
        figs.append(_figure_of(fig, _anchor("figure", rs.name, "heatmap"),
                               f"{rs.name} minus {official.name}: the change of every outcome class, "
                               "in percentage points"))
    return figs


def _ruleset_section(rs: rulesets.RuleSet, grid: dict | None = None) -> tuple:
    """``(toc entry, section HTML)`` of one rule set."""
    from . import sweep

    system = rulesets.system(rs.system)
    official = rulesets.official(system)
    cells = sweep.resolve_grid(system, grid)
    df = sweep.tables(system, [rs.rules], cells, exact=True)[0]
    axes = list(system.axis_names)
    sid = _anchor("ruleset", rs.name)
    head = _headline(df, system.name)
    from .tables import rule_meanings

    own = rule_meanings(rs)  # a mechanic file's meanings under this rule set's values
    body = [f'<section id="{_esc(sid)}"><h2>{_esc(rs.name)}</h2>',
            f'<p class="lead">{_esc(rs.description) if rs.description else "(no description)"}</p>',
            f'<p class="rules">System: <b>{_esc(system.title)}</b>. Source: '
            f"{_esc(rs.source or 'given in Python')}.</p>",
            f'<h3 id="{_esc(sid)}-changes">Changes from the official rules</h3>', _changes_html(rs),
            f'<h3 id="{_esc(sid)}-tables">{_esc(label(head))}</h3>',
            _pivots_html(df, axes, system.name, head, extra=own)]
    classes = [c for c, _ in system.classes if c in df.columns]
    mid = {}
    for a in axes[2:]:
        few = _few(sorted(df[a].unique().tolist()))
        mid[a] = few[len(few) // 2] if a == axes[2] else few[-1]  # a switch on: every class shows
    if len(axes) >= 2 and classes:
        where = " at " + ", ".join(f"{label(k)} {v}" for k, v in mid.items()) if mid else ""
        body.append(f'<h3 id="{_esc(sid)}-classes">Every outcome class{_esc(where)}</h3>')
        body.append('<p class="note">The classes of one roll: they exclude each other and sum to '
                    "100% in every cell.</p>")
        for c in classes:
            body.append(pivot_html(df, axes[0], axes[1], c, where=mid, system=system.name,
                                   caption=label(c), extra=own))
    body.append(f"<details><summary>The whole table: {len(df)} rows, one per cell of the grid "
                f"{_esc(', '.join(f'{a} {_spec(v)}' for a, v in cells.items()))}</summary>"
                + _long_table_html(df, tuple(axes), system.name,
                                   legend_extra={c: f"{m} (percent)" for c, m in own.items()})
                + "</details>")
    body.append(f'<h3 id="{_esc(sid)}-figures">Figures</h3>')
    body += _ruleset_figures(rs, official, system, cells, df)
    body.append("</section>")
    toc = (f'<li><a href="#{_esc(sid)}">{_esc(rs.name)}</a> <span class="note">({_esc(system.title)})'
           "</span></li>")
    return toc, "\n".join(body)


def _spec(values) -> str:
    from .tables import spec_text

    return spec_text(values)


# ------------------------------------------------------------ page

def _page(title: str, lead: str, toc: list, sections: list, footer: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_esc(title)}</title>
<style>{CSS}</style>
</head>
<body>
<main>
<header class="top">
<h1>{_esc(title)}</h1>
<p class="lead">{lead}</p>
</header>
<nav class="toc"><b>Contents</b><ul>{"".join(toc)}</ul></nav>
{"".join(sections)}
<footer>{footer}</footer>
</main>
</body>
</html>
"""


def _write(path: Path, text: str) -> Path:
    """Write ``text`` atomically (:mod:`analysis.safeio`): a failed write leaves the old file."""
    from .safeio import atomic_write

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text)
    return path


_EXACT_NOTE = ("Percentages are rounded for reading (a cell never shows 0 or 100% unless it is "
               "exactly that); every number is an exact fraction, counted over every way the dice "
               "or cards can land, never simulated (<code>beastodds ... --exact</code>).")


def build_rulesets(refs, path, *, grid: dict | None = None, progress: bool = False) -> Path:
    """Write a booklet of one or more rule sets; return its path.

    Parameters
    ----------
    refs : sequence of str, Path or RuleSet
        Shipped rule-set names or rule-set TOML files (any systems, mixed).
    path : str or Path
        The HTML file to write.
    grid : dict, optional
        ``{axis: SPEC}`` for every rule set of a system with those axes;
        missing axes take each system's default SPEC.
    progress : bool
        A progress bar on stderr.
    """
    import matplotlib

    from .sweep import progress_bar

    matplotlib.use("Agg")
    sets = [rulesets.load(r) for r in refs]
    if not sets:
        raise ValueError("a booklet needs at least one rule set")
    names = [rs.name for rs in sets]
    from .tables import first_repeat

    doubled = first_repeat(names)
    if doubled is not None:
        raise ValueError(f"the rule set {doubled} is named twice: give each rule set once")
    toc, sections = [], []
    bar = progress_bar(len(sets), "booklet", "rule set", progress)
    try:
        for rs in sets:
            bar.set_postfix_str(rs.name)
            g = None
            if grid:
                axes = rulesets.system(rs.system).axis_names
                g = {k: v for k, v in grid.items() if k in axes}
            t, s = _ruleset_section(rs, g)
            toc.append(t)
            sections.append(s)
            bar.update()
    finally:
        bar.close()
    title = "Odds booklet: " + ", ".join(names)
    lead = ("Exact odds of " + ", ".join(f"<b>{_esc(n)}</b>" for n in names) + ": for each rule "
            "set, its changes from the official rules, the chance to win pivoted by the system's "
            "axes, every outcome class, and figures. " + _EXACT_NOTE)
    footer = (f"beastodds {_esc(__version__)}. Built by <code>beastodds booklet "
              f"{_esc(' '.join(str(r) for r in refs))}</code>.")
    return _write(Path(path), _page(title, lead, toc, sections, footer))


# ------------------------------------------------------------ the shipped booklet

def _rule_statement(module, table_name: str, system_name: str) -> str:
    """The ``<p class="rules">`` stated above a published table."""
    declared = getattr(module, "RULE_SETS", {}).get(table_name)
    if declared is not None:
        items = [declared] if isinstance(declared, str) else list(declared)
        shipped = set(rulesets.names())
        parts = [_describe(rulesets.load(i)) if isinstance(i, str) and i in shipped
                 else _describe(i) if isinstance(i, rulesets.RuleSet) else _esc(i) for i in items]
        return f'<p class="rules">Rule set: {" ".join(parts)}</p>'
    official = rulesets.official(system_name)
    return f'<p class="rules">Rule set: {_describe(official, short=True)}</p>'


def table_title(module, name: str) -> str:
    """A published table's heading: its module's ``TITLES`` entry, else its name in words."""
    given = getattr(module, "TITLES", {}).get(name)
    return given or label(name)


def _published_html(module, tname: str, df, keys, system_name: str) -> str:
    """A published table: pivoted when long, its long form folded; a legend under every table."""
    extra = getattr(module, "LEGENDS", {}).get(tname) or {}
    if isinstance(df, str):
        return _markdown_html(df, extra, system_name)
    if len(df) <= LONG_ROWS:
        return _long_table_html(df, keys, system_name, extra)
    axes = [k for k in keys if k in df.columns and df[k].nunique() > 1 and _is_axis(df[k])]
    try:
        pivots = _pivots_html(df, axes, system_name, extra=extra)
    except ValueError:  # its keys do not pivot into one grid: the long form only
        pivots = ""
    folded = (f"<details><summary>The whole table: {len(df)} rows (long form, also in "
              f"<code>figures/tables/{_esc(tname)}.csv</code>)</summary>"
              + _long_table_html(df, keys, system_name, extra) + "</details>")
    if not pivots:
        return folded
    return pivots + folded


def _glance_html(system) -> str:
    """The official odds at a glance: the chance to win pivoted over the system's default grid."""
    from . import sweep

    official = rulesets.official(system)
    df = sweep.tables(system, [official.rules], sweep.resolve_grid(system, None), exact=True)[0]
    pivots = _pivots_html(df, list(system.axis_names), system.name)
    if not pivots:
        return ""
    return (f'<h3 id="{_anchor(system.name, "glance")}">At a glance</h3>'
            f'<p class="rules">Rule set: {_describe(official, short=True)}</p>' + pivots)


def _variants_html(system) -> str:
    from .tables import compare

    official = rulesets.official(system)
    others = [rs for rs in rulesets.variants(system.name) if rs.changes()]
    if not others:
        return ""
    grid = system.default_grid()
    grid_text = ", ".join(f"{a} {spec}" for a, spec in grid.items())
    parts = [f'<h3 id="{_anchor(system.name, "variants")}">House-rule variants</h3>',
             f'<p class="note">Each shipped variant against <b>{_esc(official.name)}</b>: the '
             f"{VARIANT_ROWS} cells of the grid {_esc(grid_text)} where it changes an outcome "
             f"most (per cell, the outcome that moves most). A booklet of one variant: "
             f"<code>beastodds booklet NAME -o FILE</code>; any two rule sets: "
             f"<code>beastodds compare A B</code>.</p>"]
    for rs in others:
        cmp = compare(official, rs, grid, exact=True)
        top = cmp.top(VARIANT_ROWS)
        parts.append(f'<h4 id="{_anchor("variant", rs.name)}">{_esc(rs.name)}</h4>')
        parts.append(f'<p class="rules">Rule sets: a = {_describe(official, short=True)}<br>'
                     f"b = {_describe(rs)}</p>")
        if len(top):
            top = top.assign(outcome=[label(o) for o in top["outcome"]])
            parts.append(_long_table_html(top, cmp.key_columns, system.name, {
                "outcome": "the outcome class that moves most in this cell",
                "a": f"its chance under {official.name} (percent)",
                "b": f"its chance under {rs.name} (percent)",
                "difference": "b - a, in percentage points"}))
        elif rs.rules == official.rules:
            parts.append('<p class="note">The odds of this table are the same: the variant changes '
                         'the rules of another mechanic only.</p>')
        else:
            parts.append('<p class="note">No change anywhere on this grid.</p>')
    return "\n".join(parts)


def _groups() -> list:
    """``[(system name, title, [published modules], [figure modules])]`` in listing order."""
    return [(s.name, s.title, s.published_modules(), s.figure_modules())
            for s in rulesets.SYSTEMS.values()]


def build(path=None, *, progress: bool = False, only=None) -> Path:
    """Write the shipped booklet (every system's tables and figures); return its path.

    Parameters
    ----------
    path : str or Path, optional
        Where to write (default ``figures/booklet.html``).
    progress : bool
        A progress bar on stderr.
    only : sequence of str, optional
        Only the sections of these systems (their names).
    """
    import matplotlib

    from .sweep import progress_bar

    matplotlib.use("Agg")
    path = Path(path) if path is not None else OUTPUT
    groups = _groups()
    if only:
        unknown = sorted(set(only) - {g[0] for g in groups})
        if unknown:
            raise ValueError(f"no booklet section {', '.join(unknown)}; the sections are "
                             f"{', '.join(g[0] for g in groups)}")
        groups = [g for g in groups if g[0] in only]
    steps = sum(len(p) + len(f) + 1 for _, _, p, f in groups)
    bar = progress_bar(steps, "booklet", "part", progress)
    toc, sections = [], []
    try:
        for name, title, pubs, figs in groups:
            system = rulesets.system(name)
            body = [f'<section id="{_anchor("system", name)}"><h2>{_esc(title)}</h2>']
            sub = []
            official = rulesets.official(name)
            body.append(f'<p class="lead">Unless a table says otherwise, the rule set is '
                        f"{_describe(official)}</p>")
            # the official odds at a glance where no published table shows them already
            glance = _glance_html(system) if system.table is not None and not pubs else ""
            if glance:
                body.append(glance)
                sub.append((_anchor(name, "glance"), "At a glance"))
            if pubs:
                body.append(f'<h3 id="{_anchor(name, "tables")}">Tables</h3>')
                sub.append((_anchor(name, "tables"), "Tables"))
                for mname, module in pubs:
                    bar.set_postfix_str(mname)
                    for tname, (df, keys) in module.make_tables().items():
                        body.append(f'<h4 id="{_anchor("table", tname)}">{_esc(table_title(module, tname))}'
                                    f'<code class="name">{_esc(tname)}</code></h4>')
                        body.append(_rule_statement(module, tname, name))
                        body.append(_published_html(module, tname, df, keys, name))
                    bar.update()
            if figs:
                body.append(f'<h3 id="{_anchor(name, "figures")}">Figures</h3>')
                sub.append((_anchor(name, "figures"), "Figures"))
                for fname, module in figs:
                    bar.set_postfix_str(fname)
                    body.append(_figure_of(module.make_figure(), _anchor("figure", fname),
                                           _first_line(module.__doc__) or label(fname)))
                    bar.update()
            variants = _variants_html(system)
            if variants:
                body.append(variants)
                sub.append((_anchor(name, "variants"), "House-rule variants"))
            bar.update()
            body.append("</section>")
            sections.append("\n".join(body))
            toc.append(f'<li><a href="#{_anchor("system", name)}">{_esc(title)}</a>'
                       + ("<ul>" + "".join(f'<li><a href="#{a}">{_esc(t)}</a></li>' for a, t in sub)
                          + "</ul>" if sub else "") + "</li>")
    finally:
        bar.close()
    lead = ("Exact odds for the dice and card systems of vampire tabletop games. One section per "
            "system: the published tables or the official odds at a glance (the rule set stated above "
            "each, a legend under it), figures, and the shipped house-rule variants. " + _EXACT_NOTE)
    footer = (f"beastodds {_esc(__version__)}. Built by <code>make booklet</code> from every published "
              "table and figure of every system; the same tables are in <code>figures/tables/</code> "
              "as CSV and Markdown. A booklet of your own rule set: <code>beastodds booklet "
              "mine.toml -o mine.html</code>.")
    return _write(path, _page("The odds booklet", lead, toc, sections, footer))
