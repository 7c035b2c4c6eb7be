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
* the state in the URL fragment: ``odds.html#pool=7&hunger=1&difficulty=3``
  opens at that cell, and a change of a control writes the fragment, so a link
  names one cell (``rule-set=NAME`` picks the rule set, ``chart-by=AXIS`` the
  chart's axis; a key or value the page does not have is ignored).

Python computes everything: every number shown (the percentage, rounded half
up from the exact fraction; the fraction; the float the chart is drawn with,
``float`` of the fraction) is in the file as data, and the script only picks
and shows them.  The data is JSON inside ``<script type="application/json">``
with ``<``, ``>``, ``&`` and the line separators escaped, every text from a
rule-set or mechanic file passes :func:`analysis.validate.one_line`, and the
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

from . import __version__, rulesets
from .formats.escape import html_text as escape
from .formats.numbers import fixed, fraction_text, percent_text

#: The most cells (over every rule set) one page holds: about 0.2 kB of data
#: each for pools up to 10 (the default V5 page has 300 cells, 80 kB), more for
#: bigger pools, whose fractions are longer.
MAX_CELLS = 20_000
#: The largest page written (bytes): a bigger one is refused, naming its size.
MAX_BYTES = 50_000_000
#: Decimals of the percentages shown (rounded half up from the exact fraction).
DIGITS = 2
#: Keys of the fragment that are not axes (an axis name has no ``-``).
RULE_SET_KEY, CHART_KEY = "rule-set", "chart-by"

CSS = """
:root { --ink: #1d1d1f; --muted: #5f6368; --line: #d9d9de; --accent: #7b1e2b; --soft: #f6f3f3; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
       font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 20px 24px 48px; }
header.top { border-bottom: 3px solid var(--accent); margin-bottom: 14px; }
h1 { font-size: 26px; margin: 6px 0 4px; color: var(--accent); }
h2 { font-size: 21px; margin: 18px 0 4px; color: var(--accent); }
h3 { font-size: 16px; margin: 18px 0 6px; }
p.lead, p.note, #set-system, #set-source { color: var(--muted); margin: 4px 0 8px; }
#controls { display: flex; flex-wrap: wrap; gap: 10px 18px; align-items: end; background: var(--soft);
            padding: 10px 14px; border-radius: 6px; position: sticky; top: 0; z-index: 1; }
#axes { display: contents; }
#controls label { display: flex; flex-direction: column; font-size: 12.5px; color: var(--muted); }
#controls label.check { flex-direction: row; gap: 6px; align-items: center; }
#controls select { font: inherit; color: var(--ink); min-width: 4.5em; padding: 2px 4px; }
#headline { font-size: 20px; margin: 12px 0 6px; }
#headline .label { font-weight: 600; }
button.pct { font: inherit; font-variant-numeric: tabular-nums; border: 1px solid var(--line);
             background: #fff; border-radius: 4px; padding: 0 6px; cursor: pointer; color: var(--ink); }
#headline button.pct { font-weight: 700; color: var(--accent); }
span.exact { color: var(--muted); font-variant-numeric: tabular-nums; margin-left: 6px; }
table { border-collapse: collapse; font-size: 14px; margin: 4px 0 10px; }
caption { caption-side: top; text-align: left; font-weight: 600; padding: 2px 0 4px; }
th, td { padding: 3px 8px; text-align: left; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { background: #ece8e8; }
td.value { white-space: nowrap; }
td.meaning { color: var(--muted); font-size: 13px; }
span.swatch { display: inline-block; width: 11px; height: 11px; margin-right: 6px; border-radius: 2px;
              vertical-align: -1px; }
#chart { width: 100%; max-width: 760px; height: auto; display: block; }
#chart text { font-size: 12px; fill: var(--muted); }
#chart .current { fill: none; stroke: var(--ink); stroke-width: 2; }
#chart .line { fill: none; stroke: var(--ink); stroke-width: 2; }
#chart g.bar { cursor: pointer; }
ul#chart-legend { list-style: none; padding: 0; margin: 4px 0; display: flex; flex-wrap: wrap; gap: 4px 16px;
                  font-size: 13px; }
ul#set-changes { margin: 2px 0 8px; font-size: 14px; }
#link { font-size: 13px; color: var(--muted); word-break: break-all; }
footer { margin-top: 36px; color: var(--muted); font-size: 13px; border-top: 1px solid var(--line);
         padding-top: 8px; }
"""

#: The script: it reads the JSON data and shows the chosen cell; every text goes through textContent.
SCRIPT = r"""
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("odds-data").textContent);
  const SETS = DATA.rule_sets;
  const RULE_SET = DATA.keys.rule_set, CHART = DATA.keys.chart;
  const COLORS = ["#9aa0a6", "#4e79a7", "#59a14f", "#edc948", "#f28e2b", "#e15759", "#b07aa1",
                  "#76b7b2", "#ff9da7", "#9c755f", "#bab0ac", "#2f4b7c"];
  const $ = (id) => document.getElementById(id);
  let state = null;

  function make(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function valueOf(axis, raw) {  // a value of the axis, or null: only the values the page has
    if (raw === null || !/^-?[0-9]{1,15}$/.test(raw)) return null;
    const n = Number(raw);
    return axis.values.indexOf(n) >= 0 ? n : null;
  }

  function firstSwept(rs) {
    const a = rs.axes.find((x) => x.values.length > 1);
    return (a || rs.axes[0]).name;
  }

  function stateOf(params, previous) {  // the state a fragment names; what it does not name: the previous, else the start
    let set = previous ? previous.set : 0;
    const wanted = params.get(RULE_SET);
    if (wanted !== null) {
      const i = SETS.findIndex((s) => s.name === wanted);
      if (i >= 0) set = i;
    }
    const rs = SETS[set];
    const at = new Map();
    for (const axis of rs.axes) {
      let v = valueOf(axis, params.get(axis.name));
      if (v === null && previous && previous.at.has(axis.name)
          && axis.values.indexOf(previous.at.get(axis.name)) >= 0) v = previous.at.get(axis.name);
      at.set(axis.name, v === null ? axis.start : v);
    }
    let by = params.get(CHART);
    if (by === null || !rs.axes.some((a) => a.name === by)) {
      by = previous && rs.axes.some((a) => a.name === previous.by) ? previous.by : firstSwept(rs);
    }
    return {set: set, at: at, by: by};
  }

  function fromHash() {
    return stateOf(new URLSearchParams(location.hash.replace(/^#/, "")), null);
  }

  function hashOf(st) {
    const p = new URLSearchParams();
    p.set(RULE_SET, SETS[st.set].name);
    for (const [k, v] of st.at) p.set(k, String(v));
    p.set(CHART, st.by);
    return "#" + p.toString();
  }

  function writeHash() {
    const h = hashOf(state);
    if (location.hash === h) return;
    try {
      history.replaceState(null, "", h);
    } catch (e) {
      location.hash = h;
    }
  }

  function cellIndex(rs, at) {
    let index = 0;
    for (const axis of rs.axes) index = index * axis.values.length + axis.values.indexOf(at.get(axis.name));
    return index;
  }

  function option(value, text) {
    const o = make("option", null, text);
    o.value = String(value);
    return o;
  }

  function control(label, id, title) {
    const l = make("label");
    l.appendChild(document.createTextNode(label));
    const s = make("select");
    if (id) s.id = id;
    if (title) l.title = title;
    l.appendChild(s);
    return [l, s];
  }

  function change(next) {
    state = next;
    render();
    writeHash();
  }

  let controlsOf = -1;  // the rule set whose axis controls are shown

  function showControls(rs) {
    const sets = $("rule-set");
    if (sets.options.length !== SETS.length) {
      SETS.forEach((s, i) => sets.appendChild(option(i, s.name)));
    }
    sets.value = String(state.set);
    if (controlsOf === state.set) {  // the same controls: only their values (a control in use keeps its focus)
      for (const axis of rs.axes) $("axis-" + axis.name).value = String(state.at.get(axis.name));
      $("chart-by").value = state.by;
      return;
    }
    controlsOf = state.set;
    const box = $("axes");
    box.replaceChildren();
    for (const axis of rs.axes) {
      const [l, s] = control(axis.label, "axis-" + axis.name, axis.meaning);
      s.dataset.axis = axis.name;
      for (const v of axis.values) s.appendChild(option(v, String(v)));
      s.value = String(state.at.get(axis.name));
      s.addEventListener("change", () => {
        const at = new Map(state.at);
        at.set(axis.name, Number(s.value));
        change({set: state.set, at: at, by: state.by});
      });
      box.appendChild(l);
    }
    const by = $("chart-by");
    by.replaceChildren();
    for (const axis of rs.axes) by.appendChild(option(axis.name, axis.label));
    by.value = state.by;
  }

  function valueCell(v, exactShown) {
    const td = make("td", "value");
    const b = make("button", "pct", v[0]);
    b.type = "button";
    b.title = "exact: " + v[1];
    const ex = make("span", "exact", "= " + v[1]);
    ex.hidden = !exactShown;
    b.setAttribute("aria-expanded", String(exactShown));
    b.addEventListener("click", () => {
      ex.hidden = !ex.hidden;
      b.setAttribute("aria-expanded", String(!ex.hidden));
    });
    td.appendChild(b);
    td.appendChild(ex);
    return td;
  }

  function showTable(id, rs, cell, kinds, exactShown) {
    const body = $(id).querySelector("tbody");
    body.replaceChildren();
    let rows = 0;
    rs.columns.forEach((c, i) => {
      if (kinds.indexOf(c.kind) < 0) return;
      const tr = make("tr");
      tr.dataset.column = c.name;
      const th = make("th");
      th.scope = "row";
      if (c.kind === "class") {
        const sw = make("span", "swatch");
        sw.style.background = COLORS[c.color % COLORS.length];
        th.appendChild(sw);
      }
      th.appendChild(document.createTextNode(c.label));
      tr.appendChild(th);
      tr.appendChild(valueCell(cell[i], exactShown));
      tr.appendChild(make("td", "meaning", c.meaning));
      body.appendChild(tr);
      rows += 1;
    });
    $(id).hidden = rows === 0;
  }

  function where(rs, skip) {
    return rs.axes.filter((a) => a.name !== skip).map((a) => a.label + " " + state.at.get(a.name)).join(", ");
  }

  function svg(parent, tag, attrs, text) {
    const e = document.createElementNS(parent.namespaceURI, tag);
    for (const k in attrs) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  }

  function showChart(rs) {
    const chart = $("chart");
    chart.replaceChildren();
    const axis = rs.axes.find((a) => a.name === state.by);
    const classes = rs.columns.map((c, i) => [c, i]).filter((p) => p[0].kind === "class");
    const head = rs.columns.findIndex((c) => c.name === rs.headline);
    const line = head >= 0 && rs.columns[head].kind !== "class" && rs.columns[head].kind !== "mean"
      && rs.columns[head].kind !== "count";
    const W = 720, H = 300, L = 52, R = 14, T = 12, B = 42;
    chart.setAttribute("viewBox", "0 0 " + W + " " + H);
    const y = (p) => T + (H - T - B) * (1 - p);
    for (const t of [0, 0.25, 0.5, 0.75, 1]) {
      svg(chart, "line", {x1: L, x2: W - R, y1: y(t), y2: y(t), stroke: "#d9d9de"});
      svg(chart, "text", {x: L - 6, y: y(t) + 4, "text-anchor": "end"}, (t * 100) + "%");
    }
    const n = axis.values.length, step = (W - L - R) / n, bw = Math.max(2, step * 0.72);
    const points = [];
    axis.values.forEach((x, k) => {
      const at = new Map(state.at);
      at.set(axis.name, x);
      const cell = rs.cells[cellIndex(rs, at)];
      const g = svg(chart, "g", {"class": "bar"});
      g.dataset.value = String(x);
      const x0 = L + k * step + (step - bw) / 2;
      let sum = 0;
      for (const [c, i] of classes) {
        const v = cell[i][2];
        const r = svg(g, "rect", {x: x0, y: y(sum + v), width: bw, height: Math.max(0, y(sum) - y(sum + v)),
                                  fill: COLORS[c.color % COLORS.length]});
        svg(r, "title", {}, axis.label + " " + x + ": " + c.label + " " + cell[i][0] + " (exact " + cell[i][1] + ")");
        sum += v;
      }
      if (x === state.at.get(axis.name)) {
        svg(chart, "rect", {"class": "current", x: x0 - 2, y: y(1) - 2, width: bw + 4, height: y(0) - y(1) + 4});
      }
      g.addEventListener("click", () => {
        const next = new Map(state.at);
        next.set(axis.name, x);
        change({set: state.set, at: next, by: state.by});
      });
      if (n <= 30 || k % Math.ceil(n / 30) === 0) {
        svg(chart, "text", {x: x0 + bw / 2, y: H - B + 16, "text-anchor": "middle"}, String(x));
      }
      if (line) points.push([x0 + bw / 2, y(cell[head][2]), x, cell[head]]);
    });
    svg(chart, "text", {x: L + (W - L - R) / 2, y: H - 6, "text-anchor": "middle"}, axis.label);
    if (line && points.length) {
      svg(chart, "polyline", {"class": "line", points: points.map((p) => p[0] + "," + p[1]).join(" ")});
      for (const p of points) {
        const c = svg(chart, "circle", {cx: p[0], cy: p[1], r: 3.5, fill: "#1d1d1f"});
        svg(c, "title", {}, axis.label + " " + p[2] + ": " + rs.columns[head].label + " " + p[3][0]
            + " (exact " + p[3][1] + ")");
      }
    }
    const title = classes.length ? "Every class by " + axis.label : rs.columns[head].label + " by " + axis.label;
    const rest = where(rs, axis.name);
    $("chart-title").textContent = title + (rest ? ", at " + rest : "");
    const legend = $("chart-legend");
    legend.replaceChildren();
    for (const [c] of classes) {
      const li = make("li");
      const sw = make("span", "swatch");
      sw.style.background = COLORS[c.color % COLORS.length];
      li.appendChild(sw);
      li.appendChild(document.createTextNode(c.label));
      legend.appendChild(li);
    }
    if (line) legend.appendChild(make("li", null, "line and dots: " + rs.columns[head].label));
  }

  function render() {
    const rs = SETS[state.set];
    const exactShown = $("show-exact").checked;
    showControls(rs);
    $("set-name").textContent = rs.name;
    $("set-system").textContent = "System: " + rs.system_title + ". " + rs.source + ".";
    $("set-description").textContent = rs.description;
    $("set-description").hidden = !rs.description;
    const changes = $("set-changes");
    changes.replaceChildren();
    for (const [field, was, now] of rs.changes) {
      changes.appendChild(make("li", null, field + " = " + now + " (official " + was + ")"));
    }
    $("set-changes-head").textContent = rs.changes.length ? "Changed from the official rules:"
      : "The official rules of the system, unchanged.";
    const cell = rs.cells[cellIndex(rs, state.at)];
    $("cell-title").textContent = "At " + where(rs, null);
    const head = rs.columns.findIndex((c) => c.name === rs.headline);
    const hl = $("headline");
    hl.replaceChildren();
    hl.hidden = head < 0;
    if (head >= 0) {
      hl.dataset.column = rs.headline;
      hl.appendChild(make("span", "label", rs.columns[head].label + ": "));
      const td = valueCell(cell[head], exactShown);
      while (td.firstChild) hl.appendChild(td.firstChild);
    }
    showTable("classes", rs, cell, ["class"], exactShown);
    showTable("others", rs, cell, ["chance", "mean", "count"], exactShown);
    showChart(rs);
    document.title = "Odds: " + rs.name + " at " + where(rs, null);
    $("link-text").textContent = location.href.split("#")[0] + hashOf(state);
  }

  $("rule-set").addEventListener("change", (e) => {
    const i = Number(e.target.value);
    const prev = state;
    change(stateOf(new URLSearchParams(), {set: i, at: prev.at, by: prev.by}));
  });
  $("chart-by").addEventListener("change", (e) => {
    change({set: state.set, at: state.at, by: e.target.value});
  });
  $("show-exact").addEventListener("change", render);
  window.addEventListener("hashchange", () => {
    state = fromHash();
    render();
  });
  state = fromHash();
  render();
  document.body.dataset.ready = "1";
})();
"""


def _value(value, kind: str) -> list:
    """``[shown text, exact text, float]`` of one cell of one column: a probability as a percentage with
    ``DIGITS`` decimals (:func:`analysis.formats.numbers.percent_text`), a mean with ``DIGITS`` decimals."""
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


def page_data(
    refs, grid: dict | None = None, *, jobs: int = 1, progress: bool = False, names: dict | None = None
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
    jobs, progress : see :func:`analysis.sweep.tables`.
    names : dict, optional
        ``{axis: "--pool"}``: how messages name an axis.

    Returns
    -------
    dict
        ``{"keys": ..., "rule_sets": [...]}``, ready for JSON.  Each rule set
        has ``name``, ``system``, ``system_title``, ``description``,
        ``source``, ``changes`` (``[field, official, value]``), ``axes``
        (``name``, ``label``, ``meaning``, ``values``, ``start``: the value
        the page opens at), ``columns`` (``name``, ``label``, ``meaning``,
        ``kind``: ``class`` for the outcome classes, ``chance`` for the
        other probabilities, ``mean`` or ``count``; ``color`` for a class),
        ``headline`` (the chance to win or succeed) and ``cells``: one per
        cell of the grid, the last axis fastest, each a list over
        ``columns`` of ``[shown text, exact fraction "num/den", float of
        the fraction]``.

    Raises
    ------
    ValueError
        For an unknown rule set, a rule set given twice, an axis no rule
        set has, a bad SPEC, or more than :data:`MAX_CELLS` cells in all.
    """
    from . import sweep
    from .booklet import headline
    from .formats.numbers import is_probability
    from .legend import meaning, rule_meanings
    from .validate import first_repeat, one_line

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
    total = sum(math.prod(len(v) for v in c.values()) for c in cells)
    if total > MAX_CELLS:
        axis, most = max(((names.get(a, a), len(v)) for c in cells for a, v in c.items()), key=lambda pair: pair[1])
        raise ValueError(
            f"this page has {total:,} cells (limit {MAX_CELLS:,}); narrow a SPEC ({axis} has {most:,} values)"
        )
    out = []
    for rs, resolved in zip(sets, cells):
        system = rulesets.system(rs.system)
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
    return {"keys": {"rule_set": RULE_SET_KEY, "chart": CHART_KEY}, "rule_sets": out}


def label(column) -> str:
    """A column's name for people: the glossary's (:func:`analysis.glossary.label`), a chance
    ``p_NAME`` it does not know read as ``Chance: NAME`` (``p_brutal``: ``Chance: brutal``)."""
    from .glossary import label as words

    text = words(column)
    name = str(column)
    if name.startswith("p_") and text.startswith("P "):
        return "Chance: " + name[2:].replace("_", " ")
    return text


def _is_count(series) -> bool:
    """Whether a table column holds whole numbers (a key such as Beast dice), not probabilities."""
    import pandas as pd

    return pd.api.types.is_integer_dtype(series)


def _source(rs) -> str:
    """Where a rule set comes from, without the folders of the designer's disk."""
    from .validate import one_line

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
<label>Rule set<select id="rule-set"></select></label>
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
<p id="link">Link to this cell: <output id="link-text"></output></p>
<footer>Made with beastodds {escape(__version__)} (<code>beastodds page</code>): exact odds of
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
    refs, path=None, *, grid: dict | None = None, jobs: int = 1, progress: bool = False, names: dict | None = None
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
    jobs, progress : see :func:`analysis.sweep.tables`.
    names : dict, optional
        ``{axis: "--pool"}``: how messages name an axis.

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
    text = html_text(page_data(refs, grid, jobs=jobs, progress=progress, names=names))
    if path is not None:
        from .safeio import atomic_write

        atomic_write(Path(path), text)
    return text
