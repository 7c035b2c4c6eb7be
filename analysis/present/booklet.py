"""Odds booklets: self-contained HTML pages of pivoted odds tables, legends and figures.

Two kinds of booklet come from the same code:

* :func:`build_rulesets` (``beastodds booklet RULESET... -o FILE``): one
  section per rule set, shipped or a TOML file, of any system.  Each opens
  with the rule set's own name and description and the list of its changes
  from its system's defaults (the official rules of a shipped system, a
  designer's mechanic file's own rules), then the chance to win (or succeed) pivoted
  across the system's first two axes at a few values of the third, every
  outcome class at one slice, the whole long-form table folded away, and
  figures drawn with the rule set (:mod:`analysis.present.plots`).
* :func:`build` (``make booklet``): the shipped booklet, a section per
  system: the official odds at a glance, every published table and figure of
  the system (:mod:`analysis.present.published`) and a table per shipped
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

import shlex
from pathlib import Path

import pandas as pd

from analysis.model.version import VERSION
from analysis.engine import seam
from analysis.workbench import rulesets
from analysis.workbench import sweep
from analysis.present.assets import text as asset_text
from analysis.workbench.compare import compare, spec_text
from analysis.present.formats.describe import changes_html, describe, description_of, source_of, title_of
from analysis.model.escape import html_text as escape

from analysis.present.formats.html import LONG_ROWS, figure, long_table, markdown_layout, pivot_table
from analysis.present.formats.summary import RISKS, few_values, headline, summary_pivots
from analysis.present.glossary import label
from analysis.present.legend import rule_meanings, strip_name
from analysis.model.spec import shipped
from analysis.engine.progress import progress_bar
from analysis.model.safeio import atomic_write
from analysis.model.validate import first_repeat
from analysis.present import plots, published

ROOT = Path(__file__).resolve().parents[2]
#: Where ``make booklet`` writes the page.
OUTPUT = ROOT / "figures" / "booklet.html"
#: Rows of each variant table (the cells where the variant matters most).
VARIANT_ROWS = 8
#: Resolution of the inlined figures.
DPI = 90

#: The booklet's style (``analysis/present/assets/booklet.css``).
CSS = asset_text("booklet.css")


# ------------------------------------------------------------ words

_esc = escape  # the short name of this module's templates


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if (doc or "").strip() else ""


def _anchor(*parts) -> str:
    return "-".join(str(p).replace("_", "-").replace(" ", "-") for p in parts)


def _is_axis(series) -> bool:
    """Whether a key column can label pivot rows or columns: integers or texts (not a float, a mean)."""
    if pd.api.types.is_integer_dtype(series):
        return True
    return len(series) > 0 and all(isinstance(v, str) for v in series)


#: Most panels of the curves figure, one per value of the system's second axis (Hunger 0..5: six).
PANELS = 6


def _spread(values, count: int) -> list:
    """``count`` values spread evenly over ``values``, the first and the last among them (all when few)."""
    values = list(values)
    if len(values) <= count:
        return values
    return [values[round(i * (len(values) - 1) / (count - 1))] for i in range(count)]


def _changes_from(sets) -> str:
    """What the rule sets' changes are from: the official rules, a file's own rules, or both."""
    return " or ".join(dict.fromkeys(rulesets.base_words(rs.system).rules for rs in sets))


def _ruleset_figures(rs, official, system, grid, df) -> list:
    """Figures drawn with the rule set: its outcome curves beside the official ones, and the difference heatmap.

    The curves have a panel per value of the second axis (every Hunger of
    the grid, up to :data:`PANELS` spread over it), one y-scale per outcome;
    the heatmap shows the slice of the grid where the rule set changes most.
    """

    axes = list(system.axis_names)
    figs = []
    classes = [c for c, _ in system.classes if c in df.columns]
    head = headline(df, system.name)
    risky = [c for c in classes if c != head and any(w in c for w in RISKS)]
    outcomes = [head] + (risky or [c for c in classes if c != head])[-2:]
    cells = {a: list(grid[a]) for a in axes}
    if len(axes) > 1:
        cells[axes[1]] = _spread(cells[axes[1]], PANELS)
    for a in axes[2:]:
        cells[a] = [cells[a][(len(cells[a]) - 1) // 2]]
    spec = {a: ",".join(str(v) for v in vs) for a, vs in cells.items()}
    same = rs.rules == official.rules  # the official rules (a mechanic file's own): one set of curves
    sets = [rs] if same else [official, rs]
    fig = plots.variant_curves(
        sets, outcomes, x=axes[0], panel=axes[1] if len(axes) > 1 else None, grid=spec, columns=3
    )
    per = f", a panel per {label(axes[1]).lower()}" if len(axes) > 1 else ""
    figs.append(
        figure(
            fig,
            _anchor("figure", rs.name, "curves"),
            f"{title_of(rs)}: "
            + ", ".join(label(o).lower() for o in outcomes)
            + f" against {label(axes[0]).lower()}{per}"
            + ("" if same else f", beside {official.name}"),
            DPI,
        )
    )
    if rs.rules != official.rules:
        full = {a: ",".join(str(v) for v in grid[a]) for a in axes}
        cmp = compare(official, rs, full, exact=True)
        fig = plots.difference_heatmap(cmp, x=axes[0], y=axes[1] if len(axes) > 1 else None)
        where = (
            f", at the {' and '.join(label(a).lower() for a in axes[2:])} where it changes most"
            if any(len(grid[a]) > 1 for a in axes[2:])
            else ""
        )
        figs.append(
            figure(
                fig,
                _anchor("figure", rs.name, "heatmap"),
                f"{title_of(rs)} minus {official.name}: the change of every outcome class, in percentage points{where}",
                DPI,
            )
        )
    return figs


def _ruleset_section(rs: rulesets.RuleSet, cells: dict, given=()) -> tuple:
    """``(toc entry, section HTML)`` of one rule set over the grid ``cells`` (``{axis: values}``).

    ``given``: the axes the designer chose, whose every value the pivots show.
    """
    system = rulesets.system(rs.system)
    official = rulesets.official(system)
    df = sweep.tables(system, [rs.rules], cells, exact=True)[0]
    axes = list(system.axis_names)
    sid = _anchor("ruleset", rs.name)
    head = headline(df, system.name)

    own = rule_meanings(rs)  # a mechanic file's meanings under this rule set's values
    title, description = title_of(rs), description_of(rs)
    name = f'<code class="name">{_esc(rs.name)}</code>' if title != rs.name else ""

    mech = getattr(type(rs.rules), "MECHANIC", None) or shipped(system)
    book = f", from {_esc(mech.source)}" if mech is not None and mech.source else ""
    body = [
        f'<section id="{_esc(sid)}"><h2>{_esc(title)}{name}</h2>',
        f'<p class="lead">{_esc(description) if description else "(no description)"}</p>',
        f'<p class="rules">System: <b>{_esc(system.title)}</b>{book}. Rule set '
        f"<b>{_esc(rs.name)}</b>, {_esc(source_of(rs))}.</p>",
        f'<h3 id="{_esc(sid)}-changes">Changes from {rulesets.base_words(system).rules}</h3>',
        changes_html(rs),
        f'<h3 id="{_esc(sid)}-tables">{_esc(label(head))}</h3>',
        summary_pivots(df, axes, system.name, head, extra=own, every=given),
    ]
    classes = [c for c, _ in system.classes if c in df.columns]
    mid = {}
    for a in axes[2:]:
        few = few_values(sorted(df[a].unique().tolist()))
        mid[a] = few[len(few) // 2] if a == axes[2] else few[-1]  # a switch on: every class shows
    if len(axes) >= 2 and classes:
        where = " at " + ", ".join(f"{label(k)} {v}" for k, v in mid.items()) if mid else ""
        body.append(f'<h3 id="{_esc(sid)}-classes">Every outcome class{_esc(where)}</h3>')
        body.append(
            '<p class="note">The classes of one roll: they exclude each other and sum to 100% in every cell.</p>'
        )
        for c in classes:
            body.append(
                pivot_table(df, axes[0], axes[1], c, where=mid, system=system.name, caption=label(c), extra=own)
            )
    body.append(
        f"<details><summary>The whole table: {len(df)} rows, one per cell of the grid "
        f"{_esc(', '.join(f'{a} {_spec(v)}' for a, v in cells.items()))}</summary>"
        + long_table(
            df, tuple(axes), system.name, legend_extra={c: f"{strip_name(c, m)} (percent)" for c, m in own.items()}
        )
        + "</details>"
    )
    body.append(f'<h3 id="{_esc(sid)}-figures">Figures</h3>')
    body += _ruleset_figures(rs, official, system, cells, df)
    body.append("</section>")
    toc = (
        f'<li><a href="#{_esc(sid)}">{_esc(title)}</a>'
        + (f' <span class="note">({_esc(system.title)})</span>' if system.title != title else "")
        + "</li>"
    )
    return toc, "\n".join(body)


def _spec(values) -> str:
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
    """Write ``text`` atomically (:mod:`analysis.model.safeio`): a failed write leaves the old file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text)
    return path


_EXACT_NOTE = (
    "Percentages are rounded for reading (a cell never shows 0 or 100% unless it is "
    "exactly that); every number is an exact fraction, counted over every way the dice "
    "or cards can land, never simulated (<code>beastodds ... --exact</code>)."
)


def _grids(sets, grid: dict | None, names: dict | None) -> list:
    """``{axis: values}`` of each rule set's system: the ``grid`` SPECs of its axes, else its defaults.

    Every axis of ``grid`` must be an axis of some rule set's system, and
    every value is checked (limits, size) before any cell is counted.
    """
    grid, names = dict(grid or {}), dict(names or {})
    systems = {rs.system: rulesets.system(rs.system) for rs in sets}
    unknown = [a for a in grid if not any(a in s.axis_names for s in systems.values())]
    if unknown:

        def axes_of(s):
            return ", ".join(names.get(a, a) for a in s.axis_names)

        where = "; ".join(f"{s.name}: {axes_of(s)}" for s in systems.values())
        one = len(systems) == 1
        raise ValueError(
            f"{names.get(unknown[0], unknown[0])} is not an axis of "
            f"{'the system ' + next(iter(systems)) if one else 'any of these rule sets'}"
            f"; {'its' if one else 'their'} axes are "
            f"{axes_of(next(iter(systems.values()))) if one else where}"
        )
    return [
        sweep.resolve_grid(
            systems[rs.system], {a: v for a, v in grid.items() if a in systems[rs.system].axis_names}, names
        )
        for rs in sets
    ]


def check_grid(refs, grid: dict | None = None, names: dict | None = None) -> None:
    """Check a booklet's rule sets and ranges (:func:`build_rulesets`) without counting a cell; a
    ValueError of one sentence names the first problem."""
    _grids([rulesets.load(r) for r in refs], grid, names)


def _rebuild_command(sets, refs, grid: dict, names: dict, output: str) -> str:
    """The ``beastodds booklet ...`` command that writes this booklet again, or ``""`` when a rule set was
    given in Python (it has no name or file to give)."""
    words = []
    for rs, ref in zip(sets, refs):
        if isinstance(ref, (str, Path)):
            words.append(str(ref))
        elif rs.source.startswith("shipped:"):
            words.append(rs.name)
        elif rs.source and Path(rs.source).is_file():
            words.append(rs.source)
        else:
            return ""
    for axis, spec in grid.items():
        words += [names.get(axis, f"--{axis.replace('_', '-')}"), str(spec)]
    return "beastodds booklet " + " ".join(shlex.quote(w) for w in words + ["-o", output])


def build_rulesets(refs, path, *, grid: dict | None = None, progress: bool = False, names: dict | None = None) -> Path:
    """Write a booklet of one or more rule sets; return its path.

    Parameters
    ----------
    refs : sequence of str, Path or RuleSet
        Shipped rule-set names or rule-set TOML files (any systems, mixed).
    path : str or Path
        The HTML file to write.
    grid : dict, optional
        ``{axis: SPEC}`` (``{"pool": "1-12", "difficulty": "2-6"}``) for every
        rule set of a system with those axes; missing axes take each
        system's default SPEC.  The pivots show every value of an axis
        given here.  An axis no rule set's system has is refused.
    progress : bool
        A progress bar on stderr.
    names : dict, optional
        ``{axis: "--pool"}``: how messages and the page name an axis.

    Every rule set and every value of the grid is checked before any cell
    is counted.
    """
    seam.headless()
    refs = list(refs)
    sets = [rulesets.load(r) for r in refs]
    if not sets:
        raise ValueError("a booklet needs at least one rule set")
    names_ = [rs.name for rs in sets]

    doubled = first_repeat(names_)
    if doubled is not None:
        raise ValueError(f"the rule set {doubled} is named twice: give each rule set once")
    grid, names = dict(grid or {}), dict(names or {})
    grids = _grids(sets, grid, names)
    toc, sections = [], []
    bar = progress_bar(len(sets), "booklet", "rule set", progress)
    try:
        for rs, cells in zip(sets, grids):
            bar.set_postfix_str(rs.name)
            t, s = _ruleset_section(rs, cells, given=tuple(a for a in grid if a in cells))
            toc.append(t)
            sections.append(s)
            bar.update()
    finally:
        bar.close()
    titles = [title_of(rs) for rs in sets]
    title = "Odds booklet: " + ", ".join(titles)
    lead = (
        "Exact odds of " + ", ".join(f"<b>{_esc(n)}</b>" for n in titles) + ": for each rule "
        "set, its changes from " + _changes_from(sets) + ", the chance to win pivoted by the system's "
        "axes, every outcome class, and figures. " + _EXACT_NOTE
    )
    listed = "; ".join(f"<b>{_esc(rs.name)}</b>, {_esc(source_of(rs))}" for rs in sets)
    ranges = ", ".join(f"{label(a).lower()} {spec}" for a, spec in grid.items())
    command = _rebuild_command(sets, refs, grid, names, Path(path).name)
    footer = (
        f"beastodds {_esc(VERSION)}. Rule sets: {listed}."
        + (f" Chosen ranges: {_esc(ranges)} (other axes: each system's defaults)." if ranges else "")
        + (f" Built by <code>{_esc(command)}</code>." if command else "")
    )
    return _write(Path(path), _page(title, lead, toc, sections, footer))


# ------------------------------------------------------------ the shipped booklet


def _rule_statement(module, table_name: str, system_name: str) -> str:
    """The ``<p class="rules">`` stated above a published table."""
    declared = getattr(module, "RULE_SETS", {}).get(table_name)
    if declared is not None:
        items = [declared] if isinstance(declared, str) else list(declared)
        shipped = set(rulesets.names())
        parts = [
            describe(rulesets.load(i))
            if isinstance(i, str) and i in shipped
            else describe(i)
            if isinstance(i, rulesets.RuleSet)
            else _esc(i)
            for i in items
        ]
        return f'<p class="rules">Rule set: {" ".join(parts)}</p>'
    official = rulesets.official(system_name)
    return f'<p class="rules">Rule set: {describe(official, short=True)}</p>'


def table_title(module, name: str) -> str:
    """A published table's heading: its module's ``TITLES`` entry, else its name in words."""
    given = getattr(module, "TITLES", {}).get(name)
    return given or label(name)


def _published_html(module, tname: str, df, keys, system_name: str) -> str:
    """A published table: pivoted when long, its long form folded; a legend under every table."""
    extra = getattr(module, "LEGENDS", {}).get(tname) or {}
    if isinstance(df, str):
        return markdown_layout(df, extra, system_name)
    if len(df) <= LONG_ROWS:
        return long_table(df, keys, system_name, extra)
    axes = [k for k in keys if k in df.columns and df[k].nunique() > 1 and _is_axis(df[k])]
    exact = _exact_twin(module, tname, df, keys, system_name)
    try:
        pivots = summary_pivots(df if exact is None else exact, axes, system_name, extra=extra)
    except ValueError:  # its keys do not pivot into one grid: the long form only
        pivots = ""
    folded = (
        f"<details><summary>The whole table: {len(df)} rows (long form, also in "
        f"<code>figures/tables/{_esc(tname)}.csv</code>)</summary>"
        + long_table(df, keys, system_name, extra)
        + "</details>"
    )
    if not pivots:
        return folded
    return pivots + folded


def _exact_twin(module, tname: str, df, keys, system_name: str):
    """A published table with exact values, when it is its system's own table under the official rules.

    Published tables hold floats; a pivot says an axis never changes a
    chance only from exact values (:func:`flat_axes`).  When the table's
    keys are the system's axes, no other rule set is declared for it, and
    recounting those cells exactly gives the same columns whose floats are
    exactly the table's, the exact table is returned; else None.
    """
    if getattr(module, "RULE_SETS", {}).get(tname) is not None:
        return None
    system = rulesets.system(system_name)
    axes = list(system.axis_names)
    if system.table is None or list(keys) != axes or not set(axes) <= set(df.columns):
        return None
    try:
        cells = sweep.resolve_grid(system, {a: ",".join(str(v) for v in sorted(df[a].unique().tolist())) for a in axes})
        exact = sweep.tables(system, [rulesets.official(system).rules], cells, exact=True)[0]
    except ValueError:
        return None
    if list(exact.columns) != list(df.columns):
        return None
    exact = df[axes].merge(exact, on=axes, how="left")
    for c in df.columns:
        if c in axes:
            continue
        if exact[c].isna().any() or any(float(e) != float(f) for e, f in zip(exact[c], df[c])):
            return None
    return exact


def _glance_html(system) -> str:
    """The official odds at a glance: the chance to win pivoted over the system's default grid."""
    official = rulesets.official(system)
    df = sweep.tables(system, [official.rules], sweep.resolve_grid(system, None), exact=True)[0]
    pivots = summary_pivots(df, list(system.axis_names), system.name)
    if not pivots:
        return ""
    return (
        f'<h3 id="{_anchor(system.name, "glance")}">At a glance</h3>'
        f'<p class="rules">Rule set: {describe(official, short=True)}</p>' + pivots
    )


def _variants_html(system) -> str:
    official = rulesets.official(system)
    others = [rs for rs in rulesets.variants(system.name) if rs.changes()]
    if not others:
        return ""
    grid = system.default_grid()
    grid_text = ", ".join(f"{a} {spec}" for a, spec in grid.items())
    parts = [
        f'<h3 id="{_anchor(system.name, "variants")}">House-rule variants</h3>',
        f'<p class="note">Each shipped variant against <b>{_esc(official.name)}</b>: the '
        f"{VARIANT_ROWS} cells of the grid {_esc(grid_text)} where it changes an outcome "
        f"most (per cell, the outcome that moves most). A booklet of one variant: "
        f"<code>beastodds booklet NAME -o FILE</code>; any two rule sets: "
        f"<code>beastodds compare A B</code>.</p>",
    ]
    for rs in others:
        cmp = compare(official, rs, grid, exact=True)
        top = cmp.top(VARIANT_ROWS)
        parts.append(f'<h4 id="{_anchor("variant", rs.name)}">{_esc(rs.name)}</h4>')
        parts.append(f'<p class="rules">Rule sets: a = {describe(official, short=True)}<br>b = {describe(rs)}</p>')
        if len(top):
            top = top.assign(outcome=[label(o) for o in top["outcome"]])
            parts.append(
                long_table(
                    top,
                    cmp.key_columns,
                    system.name,
                    {
                        "outcome": "the outcome class that moves most in this cell",
                        "a": f"its chance under {official.name} (percent)",
                        "b": f"its chance under {rs.name} (percent)",
                        "difference": "b - a, in percentage points",
                    },
                )
            )
        elif rs.rules == official.rules:
            parts.append(
                '<p class="note">The odds of this table are the same: the variant changes '
                'the rules of another mechanic only.</p>'
            )
        else:
            parts.append('<p class="note">No change anywhere on this grid.</p>')
    return "\n".join(parts)


def _groups() -> list:
    """``[(system name, title, [published modules], [figure modules])]`` in listing order."""
    return [
        (s.name, s.title, published.modules("tables", s), published.modules("figures", s))
        for s in rulesets.SYSTEMS.values()
    ]


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
    seam.headless()
    path = Path(path) if path is not None else OUTPUT
    groups = _groups()
    if only:
        unknown = sorted(set(only) - {g[0] for g in groups})
        if unknown:
            raise ValueError(
                f"no booklet section {', '.join(unknown)}; the sections are {', '.join(g[0] for g in groups)}"
            )
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
            body.append(f'<p class="lead">Unless a table says otherwise, the rule set is {describe(official)}</p>')
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
                        body.append(
                            f'<h4 id="{_anchor("table", tname)}">{_esc(table_title(module, tname))}'
                            f'<code class="name">{_esc(tname)}</code></h4>'
                        )
                        body.append(_rule_statement(module, tname, name))
                        body.append(_published_html(module, tname, df, keys, name))
                    bar.update()
            if figs:
                body.append(f'<h3 id="{_anchor(name, "figures")}">Figures</h3>')
                sub.append((_anchor(name, "figures"), "Figures"))
                for fname, module in figs:
                    bar.set_postfix_str(fname)
                    body.append(
                        figure(
                            module.make_figure(),
                            _anchor("figure", fname),
                            _first_line(module.__doc__) or label(fname),
                            DPI,
                        )
                    )
                    bar.update()
            variants = _variants_html(system)
            if variants:
                body.append(variants)
                sub.append((_anchor(name, "variants"), "House-rule variants"))
            bar.update()
            body.append("</section>")
            sections.append("\n".join(body))
            toc.append(
                f'<li><a href="#{_anchor("system", name)}">{_esc(title)}</a>'
                + ("<ul>" + "".join(f'<li><a href="#{a}">{_esc(t)}</a></li>' for a, t in sub) + "</ul>" if sub else "")
                + "</li>"
            )
    finally:
        bar.close()
    lead = (
        "Exact odds for the dice and card systems of vampire tabletop games. One section per "
        "system: the published tables or the official odds at a glance (the rule set stated above "
        "each, a legend under it), figures, and the shipped house-rule variants. " + _EXACT_NOTE
    )
    footer = (
        f"beastodds {_esc(VERSION)}. Built by <code>make booklet</code> from every published "
        "table and figure of every system; the same tables are in <code>figures/tables/</code> "
        "as CSV and Markdown. A booklet of your own rule set: <code>beastodds booklet "
        "mine.toml -o mine.html</code>."
    )
    return _write(path, _page("The odds booklet", lead, toc, sections, footer))
