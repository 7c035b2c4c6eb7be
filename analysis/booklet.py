"""The odds booklet: one self-contained HTML page of every published table and figure, a section per system.

Built from what exists, with no list to keep up to date: a section per
system package (``analysis/systems/NAME``), with every module of its
``published/`` folder (``make_tables()``) and of its ``figures/`` folder
(``make_figure()``).  Each system also gets a table per shipped house-rule
variant: the cells where it changes the odds most against the system's
defaults.

Above each table the rule set it was computed with is stated.  A published
table uses its system's defaults unless its module says otherwise in an
optional ``RULE_SETS = {table_name: text or variant name(s)}``.

The page inlines its CSS and its figures (base64 PNG data URIs): it reads
offline, as one file.  ``make booklet`` writes ``figures/booklet.html``.
"""
from __future__ import annotations

import base64
import html
import io
from pathlib import Path

from . import __version__, rulesets
from .tables import render

ROOT = Path(__file__).resolve().parent.parent
#: Where ``make booklet`` writes the page.
OUTPUT = ROOT / "figures" / "booklet.html"
#: Tables longer than this scroll inside a box (all rows stay in the page).
SCROLL_ROWS = 30
#: Rows of each variant table (the cells where the variant matters most).
VARIANT_ROWS = 8
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
h4 { font-size: 15px; margin: 20px 0 4px; font-family: ui-monospace, "DejaVu Sans Mono", monospace; }
p.lead, p.note { color: var(--muted); margin: 4px 0 10px; }
nav.toc { background: var(--soft); padding: 10px 16px; border-radius: 6px; }
nav.toc ul { margin: 4px 0; padding-left: 20px; }
nav.toc a { color: var(--accent); text-decoration: none; }
p.rules { margin: 4px 0 8px; padding: 6px 10px; background: var(--soft);
          border-left: 4px solid var(--accent); font-size: 13.5px; }
p.rules b { color: var(--accent); }
table { border-collapse: collapse; font-size: 12.5px; font-variant-numeric: tabular-nums; margin: 4px 0 12px; }
th, td { padding: 2px 9px; text-align: right; border-bottom: 1px solid var(--line); white-space: nowrap; }
th { background: #ece8e8; font-weight: 600; }
tbody tr:nth-child(even) td { background: #faf9f9; }
.scroll { max-height: 30em; overflow: auto; border: 1px solid var(--line); display: inline-block; max-width: 100%; }
.scroll table { margin: 0; }
.scroll th { position: sticky; top: 0; }
figure { margin: 12px 0 22px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { color: var(--muted); font-size: 13.5px; }
footer { margin-top: 48px; color: var(--muted); font-size: 13px; border-top: 1px solid var(--line); padding-top: 8px; }
@media print { .scroll { max-height: none; overflow: visible; border: 0; } h2 { page-break-before: always; } }
"""


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if (doc or "").strip() else ""


def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def _anchor(*parts) -> str:
    return "-".join(str(p).replace("_", "-").replace(" ", "-") for p in parts)


def _describe(rs: rulesets.RuleSet, short: bool = False) -> str:
    """A rule set stated in HTML: its name, its description, what differs from the defaults.

    ``short``: the name and its fields only (for the many tables of a section's defaults).
    """
    text = f"<b>{_esc(rs.name)}</b>" + (":" if short else "")
    if rs.description and not short:
        text += f": {_esc(rs.description)}"
    changes = rs.changes()
    if changes:
        text += " Changed from the defaults: " + "; ".join(
            f"<code>{_esc(k)} = {_esc(rulesets.show_value(v))}</code> (default "
            f"{_esc(rulesets.show_value(d))})" for k, (d, v) in changes.items()) + "."
    else:
        text += " Fields: " + ", ".join(f"<code>{_esc(k)} = {_esc(rulesets.show_value(v))}</code>"
                                        for k, v in rs.fields().items()) + "."
    return text


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


def _markdown_html(text: str) -> str:
    """A table already laid out as Markdown text: pipe tables and paragraphs to HTML."""
    out, rows = [], []

    def flush():
        if rows:
            head, body = rows[0], [r for r in rows[1:] if not all(set(c) <= set(":- ") for c in r)]
            out.append("<table><thead><tr>" + "".join(f"<th>{_esc(c)}</th>" for c in head)
                       + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in r) + "</tr>"
                                 for r in body) + "</tbody></table>")
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


def _table_html(df, keys) -> str:
    if isinstance(df, str):
        return _markdown_html(df)
    body = render(df, "html", key_columns=keys, percent=True)
    if len(df) > SCROLL_ROWS:
        return f'<div class="scroll">{body}</div>'
    return body


def _figure_html(name: str, module) -> str:
    fig = module.make_figure()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    caption = _first_line(module.__doc__)
    return (f'<figure id="{_anchor("figure", name)}"><img alt="{_esc(caption or name)}" '
            f'src="data:image/png;base64,{data}"><figcaption><code>{_esc(name)}</code>: '
            f"{_esc(caption)}</figcaption></figure>")


def _variants_html(system: rulesets.System) -> str:
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
             f"most (per cell, the outcome that moves most). <code>a</code> is {_esc(official.name)}, "
             f"<code>b</code> the variant, <code>difference = b - a</code>. Any two rule sets: "
             f"<code>beastodds compare A B</code>.</p>"]
    for rs in others:
        cmp = compare(official, rs, grid)
        top = cmp.top(VARIANT_ROWS)
        parts.append(f'<h4 id="{_anchor("variant", rs.name)}">{_esc(rs.name)}</h4>')
        parts.append(f'<p class="rules">Rule sets: a = {_describe(official, short=True)}<br>'
                     f"b = {_describe(rs)}</p>")
        if len(top):
            parts.append(render(top, "html", key_columns=cmp.key_columns, percent=True))
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
    """Write the booklet; return its path.

    Parameters
    ----------
    path : str or Path, optional
        Where to write (default ``figures/booklet.html``).
    progress : bool
        A progress bar on stderr.
    only : sequence of str, optional
        Only these systems' sections (by prefix: ``["v5"]``).
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
            body = [f'<section id="{_anchor("system", name)}"><h2>{_esc(title)}</h2>']
            sub = []
            official = rulesets.official(name)
            body.append(f'<p class="lead">Unless a table says otherwise, the rule set is '
                        f"{_describe(official)}</p>")
            if pubs:
                body.append(f'<h3 id="{_anchor(name, "tables")}">Tables</h3>')
                sub.append((_anchor(name, "tables"), "Tables"))
                for mname, module in pubs:
                    bar.set_postfix_str(mname)
                    for tname, (df, keys) in module.make_tables().items():
                        rows = len(df) if not isinstance(df, str) else None
                        count = f" ({rows} rows)" if rows is not None else ""
                        body.append(f'<h4 id="{_anchor("table", tname)}">{_esc(tname)}{count}</h4>')
                        body.append(_rule_statement(module, tname, name))
                        body.append(_table_html(df, keys))
                    bar.update()
            if figs:
                body.append(f'<h3 id="{_anchor(name, "figures")}">Figures</h3>')
                sub.append((_anchor(name, "figures"), "Figures"))
                for fname, module in figs:
                    bar.set_postfix_str(fname)
                    body.append(_figure_html(fname, module))
                    bar.update()
            variants = _variants_html(rulesets.system(name))
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
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>beastodds: the odds booklet</title>
<style>{CSS}</style>
</head>
<body>
<main>
<header class="top">
<h1>The odds booklet</h1>
<p class="lead">Exact odds for the dice and card systems of vampire tabletop games: every way the
dice or cards can land is counted, never simulated. Percentages are rounded for reading; every
number is an exact fraction (<code>beastodds ... --exact</code>). One section per system, the rule
set stated above each table.</p>
</header>
<nav class="toc"><b>Contents</b><ul>{"".join(toc)}</ul></nav>
{"".join(sections)}
<footer>beastodds {_esc(__version__)}. Built by <code>make booklet</code> from every published table
and figure of every system (<code>analysis/systems/*/published</code>, <code>figures</code>); the same tables are in
<code>figures/tables/</code> as CSV and Markdown.</footer>
</main>
</body>
</html>
"""
    from .safeio import atomic_write

    path.parent.mkdir(parents=True, exist_ok=True)
    return atomic_write(path, page)  # all or nothing: a failed write leaves the old booklet
