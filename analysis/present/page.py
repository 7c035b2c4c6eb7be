"""A page to share: one self-contained HTML file of exact odds, a cell chosen with controls.

``beastodds page RULESET... -o odds.html`` (and :func:`page` from Python)
counts the exact table of each rule set over its grid (the system's default
axes, or the SPECs given) and writes one HTML file that opens from disk, with
no network and no server:

* a control for the rule set and one per axis (and one for the axis the
  chart runs across); every outcome class, the chance to win (or succeed) and
  the table's other columns of the chosen cell as percentages, each exact
  fraction one hover (its tooltip) or one click (shown beside it) away;
* a chart of the chosen slice: every class stacked, across the values of one
  axis, the other axes at the chosen cell (plain SVG drawn by a short inline
  script, no library);
* with two rule sets or more, a view that compares them (:func:`comparison_data`):
  every outcome of the chosen cell under each rule set side by side, each one's
  change from the first in percentage points (``b - a`` of the exact fractions,
  as ``beastodds compare`` counts it), what each rule set changes from its
  base, and a chart of the changes across one axis;
* the state in the URL fragment: ``odds.html#pool=7&hunger=1&difficulty=3``
  opens at that cell, and a change of a control writes the fragment, so a link
  names one cell (``rule-set=NAME`` picks the rule set, ``chart-by=AXIS`` the
  chart's axis, ``view=compare`` the comparison; a key or value the page does
  not have is ignored).

Python computes everything: every number shown (the percentage, rounded half
up from the exact fraction; the fraction; the float the chart is drawn with,
``float`` of the fraction) is in the file as data, and the script only picks
and shows them.  The data is JSON inside ``<script type="application/json">``
with ``<``, ``>``, ``&`` and the line separators escaped, every text from a
rule-set or mechanic file passes :func:`analysis.model.validate.one_line`, and the
script writes text only through ``textContent``.  A Content-Security-Policy
allows the page's own script and style alone (by their hashes) and no fetch
of any kind.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import pandas as pd

from analysis.model.version import VERSION
from analysis.workbench import rulesets
from analysis.engine import strategy_lists as strategies
from analysis.workbench import sweep
from analysis.present.assets import text as asset_text
from analysis.model.escape import html_text as escape
from analysis.model.numbers import fixed, fraction_text, is_probability, percent_text, points_text
from analysis.present.formats.summary import headline
from analysis.present.glossary import label as words
from analysis.present.legend import meaning, rule_meanings
from analysis.model.safeio import atomic_write
from analysis.model.validate import first_repeat, one_line

#: The most cells (over every rule set) one page holds: about 0.2 kB of data
#: each for pools up to 10 (the default V5 page has 300 cells, 80 kB), more for
#: bigger pools, whose fractions are longer.
MAX_CELLS = 20_000
#: The largest page written (bytes): a bigger one is refused, naming its size.
MAX_BYTES = 50_000_000
#: Decimals of the percentages shown (rounded half up from the exact fraction).
DIGITS = 2
#: Keys of the fragment that are not axes (an axis name has no ``-``).  The view's key is ``view``, or
#: ``page-view`` on a page where a rule set has an axis named ``view``.
RULE_SET_KEY, CHART_KEY, VIEW_KEY = "rule-set", "chart-by", "view"

#: The page's style (``analysis/present/assets/page.css``).
CSS = asset_text("page.css")

#: The script (``analysis/present/assets/page.js``): it reads the JSON data and shows the chosen cell; every
#: text goes through textContent.
SCRIPT = asset_text("page.js")


def _value(value, kind: str) -> list:
    """``[shown text, exact text, float]`` of one cell of one column: a probability as a percentage with
    ``DIGITS`` decimals (:func:`analysis.model.numbers.percent_text`), a mean with ``DIGITS`` decimals."""
    if kind == "count":
        return [str(int(value)), str(int(value)), int(value)]
    exact = Fraction(value)
    shown = percent_text(exact, DIGITS) if kind != "mean" else fixed(exact, DIGITS)
    return [shown, fraction_text(exact), float(exact)]


def script_json(data) -> str:
    """``data`` as JSON to put inside ``<script type="application/json">``: no ``</script>``, no
    comment or CDATA opener, no line separator can end or break out of the element (``<``, ``>``,
    ``&``, U+2028 and U+2029 are written ``\\uXXXX``; ``JSON.parse`` reads them back unchanged)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for ch in "<>&\u2028\u2029":
        text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text


def _check_axes(grid_axes, sets, names: dict) -> None:
    """Refuse an axis of the grid that no rule set given has."""
    known = {a for rs in sets for a in rulesets.system(rs.system).axis_names}
    for axis in grid_axes:
        if axis not in known:
            systems = {rs.system: rulesets.system(rs.system) for rs in sets}
            said = "; ".join(
                f"{name}: {', '.join(names.get(a, a) for a in s.axis_names)}" for name, s in systems.items()
            )
            raise ValueError(f"{names.get(axis, axis)} is not an axis of any rule set given ({said})")


def _with_strategy(system, rs, strategy, names: dict):
    """``system`` with ``strategy`` bound into its table where it has Willpower rerolls (one strategy only)."""
    if strategy is None or not system.takes("strategy"):
        return system
    if strategies.several(strategy):
        raise ValueError(
            f"{names.get('strategy', 'strategy')}: a page shows one Willpower strategy, got {strategy!r} "
            f"(a table shows several side by side: beastodds table RULES --strategy A,B)"
        )
    return strategies.bound(system, strategy, rs.name, names.get("strategy", "strategy"))


def page_data(
    refs,
    grid: dict | None = None,
    *,
    jobs: int = 1,
    progress: bool = False,
    names: dict | None = None,
    strategy=None,
) -> dict:
    """The data a page shows: per rule set, its axes, columns and every cell's exact values.

    Parameters
    ----------
    refs : sequence of str, Path or RuleSet
        Shipped rule-set names, rule-set TOML files or mechanic files (any systems, mixed).
    grid : dict, optional
        ``{axis: SPEC}`` for every rule set whose system has that axis; axes
        left out take each system's default SPEC.  An axis no rule set has
        is refused.
    jobs, progress : see :func:`analysis.workbench.sweep.tables`.
    names : dict, optional
        ``{axis: "--pool"}``: how messages name an axis.
    strategy : str or strategy, optional
        One Willpower strategy, applied to every rule set whose system has
        Willpower rerolls (V5, Werewolf, Hunter, a mechanic file with a
        ``[willpower]`` table; the others are shown without); their cells
        add ``willpower_spent`` and ``p_win_gain``, and their ``strategy``
        names it (else "").

    Returns
    -------
    dict
        ``{"keys": ..., "rule_sets": [...]}``, ready for JSON.  Each rule set
        has ``name``, ``system``, ``system_title``, ``description``,
        ``source``, ``changes`` (``[field, default, value]``; ``base`` and
        ``base_short`` name the defaults, "the official rules" of a shipped
        system, "the file's own rules" of a designer's file, and
        ``unchanged`` says a rule set is its defaults), ``axes``
        (``name``, ``label``, ``meaning``, ``values``, ``start``: the value
        the page opens at), ``columns`` (``name``, ``label``, ``meaning``,
        ``kind``: ``class`` for the outcome classes, ``chance`` for the
        other probabilities, ``mean`` or ``count``; ``color`` for a class),
        ``headline`` (the chance to win or succeed) and ``cells``: one per
        cell of the grid, the last axis fastest, each a list over
        ``columns`` of ``[shown text, exact fraction "num/den", float of
        the fraction]``.  With two rule sets or more, ``compare`` holds
        their comparison (:func:`comparison_data`).

    Raises
    ------
    ValueError
        For an unknown rule set, a rule set given twice, an axis no rule
        set has, a bad SPEC, or more than :data:`MAX_CELLS` cells in all.
    """
    sets = [rulesets.load(r) for r in refs]
    if not sets:
        raise ValueError("a page needs at least one rule set")
    doubled = first_repeat([one_line(rs.name) for rs in sets])  # as shown, and as a link names it
    if doubled is not None:
        raise ValueError(f"the rule set {doubled} is named twice: give each rule set once")
    grid, names = dict(grid or {}), dict(names or {})
    _check_axes(grid, sets, names)
    cells = []
    for rs in sets:
        system = rulesets.system(rs.system)
        cells.append(sweep.resolve_grid(system, {k: v for k, v in grid.items() if k in system.axis_names}, names))
    systems = [_with_strategy(rulesets.system(rs.system), rs, strategy, names) for rs in sets]
    if strategy is not None and not any(system.takes("strategy") for system in systems):
        raise ValueError(
            f"{names.get('strategy', 'strategy')}: none of the rule sets has a Willpower reroll (V5, Werewolf, "
            f"Hunter and a mechanic file with a [willpower] table have)"
        )
    total = sum(math.prod(len(v) for v in c.values()) for c in cells)
    if total > MAX_CELLS:
        axis, most = max(((names.get(a, a), len(v)) for c in cells for a, v in c.items()), key=lambda pair: pair[1])
        raise ValueError(
            f"this page has {total:,} cells (limit {MAX_CELLS:,}); narrow a SPEC ({axis} has {most:,} values)"
        )
    if strategy is not None:  # each strategy's reroll over the whole grid, before the first cell is counted
        for rs, system, resolved in zip(sets, systems, cells):
            if system.takes("strategy"):
                strategies.check(system, resolved, rs.rules)
    shown = "" if strategy is None else one_line(strategies.text(strategy))  # the strategy, as the page names it
    out, frames = [], []
    for rs, system, resolved in zip(sets, systems, cells):
        df = sweep.tables(
            system, [rs.rules], resolved, exact=True, jobs=jobs, progress=progress, desc=rs.name, names=names
        )[0]
        axes = list(system.axis_names)
        own = rule_meanings(rs)
        classes = [c for c, _ in system.classes if c in df.columns]
        others = [c for c in df.columns if c not in axes and c not in classes]
        columns = []
        for c in classes + others:
            if c in classes:
                kind = "class"
            elif _is_count(df[c]):
                kind = "count"
            else:
                kind = "chance" if is_probability(c) else "mean"
            entry = {
                "name": c,
                "label": one_line(label(c)),
                "meaning": one_line(own.get(c) or meaning(c, system.name)),
                "kind": kind,
            }
            if kind == "class":
                entry["color"] = classes.index(c)
            columns.append(entry)
        rows = {
            tuple(int(v) for v in key): row
            for key, row in zip(df[axes].itertuples(index=False, name=None), df.itertuples(index=False))
        }
        positions = {c: i for i, c in enumerate(df.columns)}
        data_cells = []
        for key in itertools.product(*(resolved[a] for a in axes)):
            row = rows.get(tuple(key))
            if row is None:
                raise RuntimeError(f"the {system.name} table has no row for the cell {dict(zip(axes, key))}")
            data_cells.append([_value(row[positions[c["name"]]], c["kind"]) for c in columns])
        frames.append(
            (
                {key: k for k, key in enumerate(rows)},
                {c["name"]: [row[positions[c["name"]]] for row in rows.values()] for c in columns},
            )
        )
        words = rulesets.base_words(system)
        out.append(
            {
                "name": one_line(rs.name),
                "system": system.name,
                "system_title": one_line(system.title),
                "description": one_line(rs.description),
                "source": _source(rs),
                "changes": [
                    [one_line(k), one_line(rulesets.show_value(d)), one_line(rulesets.show_value(v))]
                    for k, (d, v) in rs.changes().items()
                ],
                "strategy": shown if system.takes("strategy") else "",
                "base": words.rules,
                "base_short": words.short,
                "unchanged": words.unchanged,
                "axes": [
                    {
                        "name": a,
                        "label": one_line(label(a)),
                        "meaning": one_line(own.get(a) or meaning(a, system.name)),
                        "values": resolved[a],
                        "start": resolved[a][len(resolved[a]) // 2],
                    }
                    for a in axes
                ],
                "columns": columns,
                "headline": headline(df, system.name),
                "cells": data_cells,
            }
        )
    taken = any(a["name"] == VIEW_KEY for rs in out for a in rs["axes"])
    view = "page-" + VIEW_KEY if taken else VIEW_KEY
    data = {"keys": {"rule_set": RULE_SET_KEY, "chart": CHART_KEY, "view": view}, "rule_sets": out}
    if len(out) > 1:
        data["compare"] = comparison_data(out, frames)
    return data


def comparison_data(sets: list, frames: list) -> dict:
    """The page's comparison of ``sets`` (:func:`page_data`'s rule sets, with ``frames``: per rule set its
    cells' positions by key and its exact values by column): the first beside each other.

    The compared grid is the axes of every compared rule set (the first's, then the axes the others
    add), each over the values every rule set that has it shares; a rule set that shares no axis, or
    no value of a shared axis, with those before it is left out, a note saying why.  The columns are
    the first's (classes, chances, means) and then the classes and chances the others add: a class or
    chance a rule set lacks is 0 there, as :func:`analysis.workbench.compare.compare` counts it; a mean it lacks
    is not compared.  The differences (``b - a`` of the fractions, in percentage points for chances)
    are counted here for each cell of the pair's axes, the last axis fastest.

    Returns ``{"axes", "columns", "sets", "pairs", "notes"}``: ``sets`` the compared rule sets (each
    ``index`` in the page's rule sets and ``columns``: per compared column its index in that rule set's
    columns, or -1), ``pairs`` one per rule set after the first (``set``, ``axes``: their names,
    ``cells``: per cell, per column ``[shown, exact, float]`` of the change, or None).
    """
    first = sets[0]
    values = {a["name"]: list(a["values"]) for a in first["axes"]}
    axes = {a["name"]: a for a in first["axes"]}
    compared, notes = [0], []
    for i, rs in enumerate(sets[1:], 1):
        mine = {a["name"]: a for a in rs["axes"]}
        shared = [a for a in mine if a in values]
        if not shared:
            notes.append(f"{rs['name']} is not compared: it shares no axis with {first['name']}")
            continue
        apart = [a for a in shared if not set(values[a]) & set(mine[a]["values"])]
        if apart:
            notes.append(f"{rs['name']} is not compared: its {mine[apart[0]]['label']} shares no value with the others")
            continue
        for a in shared:
            values[a] = [v for v in values[a] if v in mine[a]["values"]]
        for a, axis in mine.items():
            if a not in values:
                values[a], axes[a] = list(axis["values"]), axis
        compared.append(i)
    compare_axes = [
        {**axes[a], "values": vs, "start": vs[len(vs) // 2] if axes[a]["start"] not in vs else axes[a]["start"]}
        for a, vs in values.items()
    ]
    columns = [c for c in first["columns"] if c["kind"] != "count"]
    for i in compared[1:]:
        known = {c["name"] for c in columns}
        columns += [c for c in sets[i]["columns"] if c["kind"] in ("class", "chance") and c["name"] not in known]
    hues = iter(range(len(columns)))  # one colour per compared class, in the order shown
    columns = [{**c, "color": next(hues)} if c["kind"] == "class" else c for c in columns]
    lookup = []
    for i in compared:
        where = {c["name"]: k for k, c in enumerate(sets[i]["columns"])}
        lookup.append({"index": i, "columns": [where.get(c["name"], -1) for c in columns]})
    pairs, total = [], 0
    for i in compared[1:]:
        names = [a for a in values if a in {x["name"] for x in first["axes"]} | {x["name"] for x in sets[i]["axes"]}]
        size = math.prod(len(values[a]) for a in names)
        if total + size > MAX_CELLS:
            notes.append(f"{sets[i]['name']} is not compared: the page holds {MAX_CELLS:,} compared cells at most")
            continue
        total += size
        pairs.append(
            {"set": i, "axes": names, "cells": _changes(first, frames[0], sets[i], frames[i], names, values, columns)}
        )
    return {"axes": compare_axes, "columns": columns, "sets": lookup, "pairs": pairs, "notes": notes}


def _changes(a: dict, frame_a: tuple, b: dict, frame_b: tuple, names: list, values: dict, columns: list) -> list:
    """Per cell of ``names`` over ``values`` (the last fastest), per column: ``[shown, exact, float]`` of
    ``b - a`` (a chance in percentage points, :func:`analysis.model.numbers.points_text`; a mean with
    ``DIGITS`` decimals and its sign), or None where a mean is not in both."""
    (at_a, frame_a), (at_b, frame_b) = frame_a, frame_b
    axes_a, axes_b = [x["name"] for x in a["axes"]], [x["name"] for x in b["axes"]]
    out = []
    for key in itertools.product(*(values[n] for n in names)):
        cell = dict(zip(names, key))
        ka, kb = at_a[tuple(cell[n] for n in axes_a)], at_b[tuple(cell[n] for n in axes_b)]
        row: list[list | None] = []
        for c in columns:
            name, chance = c["name"], c["kind"] in ("class", "chance")
            if not chance and (name not in frame_a or name not in frame_b):
                row.append(None)
                continue
            d = Fraction(frame_b[name][kb] if name in frame_b else 0) - Fraction(
                frame_a[name][ka] if name in frame_a else 0
            )
            shown = points_text(d, DIGITS) if chance else ("+" if d > 0 else "") + fixed(d, DIGITS)
            row.append([shown, fraction_text(d), float(d)])
        out.append(row)
    return out


def label(column) -> str:
    """A column's name for people: the glossary's (:func:`analysis.present.glossary.label`), a chance
    ``p_NAME`` it does not know read as ``Chance: NAME`` (``p_brutal``: ``Chance: brutal``)."""
    text = words(column)
    name = str(column)
    if name.startswith("p_") and text.startswith("P "):
        return "Chance: " + name[2:].replace("_", " ")
    return text


def _is_count(series) -> bool:
    """Whether a table column holds whole numbers (a key such as Beast dice), not probabilities."""
    return pd.api.types.is_integer_dtype(series)


def _source(rs) -> str:
    """Where a rule set comes from, without the folders of the designer's disk."""
    if rs.source.startswith("shipped:"):
        return "Shipped with beastodds"
    if rs.source:
        return "From the file " + one_line(Path(rs.source).name)
    return "Given in Python"


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def html_text(data: dict) -> str:
    """The page (HTML text) that shows ``data`` (:func:`page_data`)."""
    names = [rs["name"] for rs in data["rule_sets"]]
    title = "Odds: " + ", ".join(names)
    body = script_json(data)
    policy = (
        f"default-src 'none'; script-src {_hash(SCRIPT)}; style-src {_hash(CSS)}; base-uri 'none'; form-action 'none'"
    )
    text = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{escape(policy)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{CSS}</style>
</head>
<body>
<main>
<header class="top">
<h1>{escape(title)}</h1>
<p class="lead">Choose a rule set and a cell: every outcome class and the chance to win are shown as
percentages. Hover over a percentage, or click it, for its exact fraction: every number is counted over
every way the dice or cards can land, never simulated, and the percentages are rounded from those
fractions (a cell shows 0% or 100% only when it is exactly that). The address of this page names the
cell shown: copy it to share that cell.</p>
</header>
<noscript><p class="note"><b>This page shows its odds with JavaScript, which is turned off here.</b>
Turn it on to read them: the page fetches nothing, every number is in the file.</p></noscript>
<section id="controls" aria-label="Choose the rule set and the cell">
<label id="view-box" hidden>View<select id="view"><option value="one">One rule set</option>
<option value="compare">Compare the rule sets</option></select></label>
<label id="rule-set-box">Rule set<select id="rule-set"></select></label>
<span id="axes"></span>
<label>Chart across<select id="chart-by"></select></label>
<label class="check"><input type="checkbox" id="show-exact">Show exact fractions</label>
</section>
<section id="about">
<h2 id="set-name"></h2>
<p id="set-system"></p>
<p id="set-description"></p>
<p id="set-changes-head" class="note"></p>
<ul id="set-changes"></ul>
</section>
<section id="cell">
<h3 id="cell-title"></h3>
<p id="headline"></p>
<table id="classes"><caption>The outcome classes (they exclude each other and sum to 100%)</caption>
<thead><tr><th>Class</th><th>Chance</th><th>What it means</th></tr></thead><tbody></tbody></table>
<table id="others"><caption>The other columns of the table</caption>
<thead><tr><th>Column</th><th>Value</th><th>What it means</th></tr></thead><tbody></tbody></table>
</section>
<section id="chart-box">
<h3 id="chart-title"></h3>
<svg id="chart" role="img" aria-labelledby="chart-title" viewBox="0 0 720 300"></svg>
<ul id="chart-legend"></ul>
<p class="note">Click a bar to choose that cell; hover over a bar for its numbers.</p>
</section>
<section id="compare-view" hidden>
<h2>The rule sets side by side</h2>
<ul id="compare-sets"></ul>
<ul id="compare-notes" class="note"></ul>
<h3 id="compare-title"></h3>
<table id="compare-table"><caption>Each outcome under each rule set, and its change from the first in percentage points
(a class or chance a rule set does not have is 0 there)</caption>
<thead></thead><tbody></tbody></table>
<div id="diff-charts"></div>
<ul id="diff-legend"></ul>
<p class="note">Click a dot to choose that cell; hover over a dot for its numbers.</p>
</section>
<p id="link">Link to this cell: <output id="link-text"></output></p>
<footer>Made with beastodds {escape(VERSION)} (<code>beastodds page</code>): exact odds of
{escape(", ".join(names))}.</footer>
</main>
<script type="application/json" id="odds-data">{body}</script>
<script>{SCRIPT}</script>
</body>
</html>
"""
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise ValueError(
            f"this page would be {size:,} bytes (limit {MAX_BYTES:,}): narrow a SPEC "
            f"(a bigger pool has longer fractions)"
        )
    return text


def page(
    refs,
    path=None,
    *,
    grid: dict | None = None,
    jobs: int = 1,
    progress: bool = False,
    names: dict | None = None,
    strategy=None,
) -> str:
    """A page to share: the HTML text of the exact odds of ``refs``, written to ``path`` when given.

    Parameters
    ----------
    refs : sequence of str, Path or RuleSet
        Shipped rule-set names, rule-set TOML files or mechanic files (any systems, mixed).
    path : str or Path, optional
        The ``.html`` file to write (atomically: a failed build leaves an
        earlier file as it was).
    grid : dict, optional
        ``{axis: SPEC}`` for every rule set whose system has that axis
        (``{"pool": "1-20"}``); left out: each system's default SPECs.
    jobs, progress : see :func:`analysis.workbench.sweep.tables`.
    names : dict, optional
        ``{axis: "--pool"}``: how messages name an axis.
    strategy : see :func:`page_data`.

    Returns
    -------
    str
        The page: one self-contained HTML file (no link, no fetch) whose
        numbers are those of :func:`page_data`.

    Examples
    --------
    >>> text = page(["v5-official"], grid={"pool": "1-3", "hunger": "0-1", "difficulty": "1-2"})
    >>> text.startswith("<!DOCTYPE html>") and "v5-official" in text
    True
    """
    text = html_text(page_data(refs, grid, jobs=jobs, progress=progress, names=names, strategy=strategy))
    if path is not None:
        atomic_write(Path(path), text)
    return text
