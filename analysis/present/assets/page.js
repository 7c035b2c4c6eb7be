(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("odds-data").textContent);
  const SETS = DATA.rule_sets;
  const RULE_SET = DATA.keys.rule_set, CHART = DATA.keys.chart, VIEW = DATA.keys.view;
  const CMP = DATA.compare || null;  // the comparison of the rule sets (two or more), else null
  const ZERO = ["0%", "0", 0];  // a class or chance a rule set lacks: 0 there
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

  function firstSwept(axes) {
    const a = axes.find((x) => x.values.length > 1);
    return (a || axes[0]).name;
  }

  function axesOf(st) {  // the axes of the view: the rule set's, or the compared grid's
    return st.view === "compare" ? CMP.axes : SETS[st.set].axes;
  }

  function stateOf(params, previous) {  // the state a fragment names; what it does not name: the previous, else the start
    let set = previous ? previous.set : 0;
    const wanted = params.get(RULE_SET);
    if (wanted !== null) {
      const i = SETS.findIndex((s) => s.name === wanted);
      if (i >= 0) set = i;
    }
    let view = previous ? previous.view : "one";
    const v = params.get(VIEW);
    if (v !== null) view = v === "compare" && CMP ? "compare" : "one";
    const axes = axesOf({set: set, view: view});
    const at = new Map();
    for (const axis of axes) {
      let v = valueOf(axis, params.get(axis.name));
      if (v === null && previous && previous.at.has(axis.name)
          && axis.values.indexOf(previous.at.get(axis.name)) >= 0) v = previous.at.get(axis.name);
      at.set(axis.name, v === null ? axis.start : v);
    }
    let by = params.get(CHART);
    if (by === null || !axes.some((a) => a.name === by)) {
      by = previous && axes.some((a) => a.name === previous.by) ? previous.by : firstSwept(axes);
    }
    return {set: set, view: view, at: at, by: by};
  }

  function fromHash() {
    return stateOf(new URLSearchParams(location.hash.replace(/^#/, "")), null);
  }

  function hashOf(st) {
    const p = new URLSearchParams();
    p.set(RULE_SET, SETS[st.set].name);
    for (const [k, v] of st.at) p.set(k, String(v));
    p.set(CHART, st.by);
    if (st.view === "compare") p.set(VIEW, "compare");
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

  function indexIn(axes, at) {  // the position of the cell ``at`` in a grid of ``axes``, the last fastest
    let index = 0;
    for (const axis of axes) index = index * axis.values.length + axis.values.indexOf(at.get(axis.name));
    return index;
  }

  function cellIndex(rs, at) {
    return indexIn(rs.axes, at);
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

  function moved(name, value) {  // the state with one axis moved
    const at = new Map(state.at);
    at.set(name, value);
    return {set: state.set, view: state.view, at: at, by: state.by};
  }

  function change(next) {
    state = next;
    render();
    writeHash();
  }

  let controlsOf = null;  // the rule set (or "compare") whose axis controls are shown

  function showControls(axes) {
    const sets = $("rule-set");
    if (sets.options.length !== SETS.length) {
      SETS.forEach((s, i) => sets.appendChild(option(i, s.name)));
    }
    sets.value = String(state.set);
    $("rule-set-box").hidden = state.view === "compare";
    if (CMP) {
      $("view-box").hidden = false;
      $("view").value = state.view;
    }
    const shownFor = state.view === "compare" ? "compare" : state.set;
    if (controlsOf === shownFor) {  // the same controls: only their values (a control in use keeps its focus)
      for (const axis of axes) $("axis-" + axis.name).value = String(state.at.get(axis.name));
      $("chart-by").value = state.by;
      return;
    }
    controlsOf = shownFor;
    const box = $("axes");
    box.replaceChildren();
    for (const axis of axes) {
      const [l, s] = control(axis.label, "axis-" + axis.name, axis.meaning);
      s.dataset.axis = axis.name;
      for (const v of axis.values) s.appendChild(option(v, String(v)));
      s.value = String(state.at.get(axis.name));
      s.addEventListener("change", () => change(moved(axis.name, Number(s.value))));
      box.appendChild(l);
    }
    const by = $("chart-by");
    by.replaceChildren();
    for (const axis of axes) by.appendChild(option(axis.name, axis.label));
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

  function rowOf(c) {  // a table row for column c, headed by its label (and its colour for a class)
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
    return tr;
  }

  function showTable(id, rs, cell, kinds, exactShown) {
    const body = $(id).querySelector("tbody");
    body.replaceChildren();
    let rows = 0;
    rs.columns.forEach((c, i) => {
      if (kinds.indexOf(c.kind) < 0) return;
      const tr = rowOf(c);
      tr.appendChild(valueCell(cell[i], exactShown));
      tr.appendChild(make("td", "meaning", c.meaning));
      body.appendChild(tr);
      rows += 1;
    });
    $(id).hidden = rows === 0;
  }

  function where(rs, skip) {
    return whereIn(rs.axes, skip);
  }

  function whereIn(axes, skip) {
    return axes.filter((a) => a.name !== skip).map((a) => a.label + " " + state.at.get(a.name)).join(", ");
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
      g.addEventListener("click", () => change(moved(axis.name, x)));
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

  function changesText(rs) {  // what a rule set changes from its base: "crit_bonus 2 -> 3; ..."
    if (!rs.changes.length) return rs.unchanged;
    return "changed from " + rs.base + ": " + rs.changes.map((c) => c[0] + " " + c[1] + " -> " + c[2]).join("; ") + ".";
  }

  function compareValue(k, j, at) {  // [shown, exact, float] of compared column j of compared rule set k at ``at``
    const entry = CMP.sets[k], rs = SETS[entry.index], col = entry.columns[j];
    if (col < 0) return CMP.columns[j].kind === "mean" ? null : ZERO;
    return rs.cells[cellIndex(rs, at)][col];
  }

  function pairCell(pair, at) {  // the changes of a pair (a rule set minus the first) at ``at``, per column
    return pair.cells[indexIn(pair.axes.map((n) => CMP.axes.find((a) => a.name === n)), at)];
  }

  function changeCell(v, exactShown) {
    if (v === null) return make("td", "value none", "not compared");
    const td = valueCell(v, exactShown);
    td.classList.add("change");
    td.firstChild.classList.add(v[2] > 0 ? "up" : v[2] < 0 ? "down" : "same");
    return td;
  }

  function showComparison(exactShown) {
    const first = SETS[CMP.sets[0].index];
    const list = $("compare-sets");
    list.replaceChildren();
    for (const entry of CMP.sets) {
      const rs = SETS[entry.index];
      const li = make("li");
      li.dataset.set = rs.name;
      li.appendChild(make("b", null, rs.name));
      li.appendChild(document.createTextNode(" (" + rs.system_title + "): " + changesText(rs)
        + (rs.strategy ? "; after a Willpower reroll: strategy " + rs.strategy + "." : "")));
      list.appendChild(li);
    }
    const notes = $("compare-notes");
    notes.replaceChildren();
    for (const n of CMP.notes) notes.appendChild(make("li", null, n));
    $("compare-title").textContent = "At " + whereIn(CMP.axes, null);
    const head = $("compare-table").querySelector("thead");
    head.replaceChildren();
    const hr = make("tr");
    hr.appendChild(make("th", null, "Outcome"));
    CMP.sets.forEach((entry, k) => {
      const name = SETS[entry.index].name;
      hr.appendChild(make("th", null, name));
      if (k > 0) hr.appendChild(make("th", "change", name + " minus " + first.name + " (points)"));
    });
    head.appendChild(hr);
    const body = $("compare-table").querySelector("tbody");
    body.replaceChildren();
    const changes = CMP.pairs.map((pair) => pairCell(pair, state.at));
    CMP.columns.forEach((c, j) => {
      const tr = rowOf(c);
      tr.firstChild.title = c.meaning;
      CMP.sets.forEach((entry, k) => {
        const v = compareValue(k, j, state.at);
        const td = v === null ? make("td", "value none", "not in this rule set") : valueCell(v, exactShown);
        td.dataset.set = SETS[entry.index].name;
        tr.appendChild(td);
        if (k > 0) {
          const d = changeCell(changes[k - 1][j], exactShown);
          d.dataset.set = SETS[entry.index].name;
          d.dataset.change = "1";
          tr.appendChild(d);
        }
      });
      body.appendChild(tr);
    });
    showChanges(first);
  }

  function showChanges(first) {  // one chart per rule set after the first: its change of every class across an axis
    const box = $("diff-charts");
    box.replaceChildren();
    const axis = CMP.axes.find((a) => a.name === state.by);
    let drawn = CMP.columns.map((c, j) => [c, j]).filter((p) => p[0].kind === "class");
    if (!drawn.length) drawn = CMP.columns.map((c, j) => [c, j]).filter((p) => p[0].kind === "chance");
    const series = CMP.pairs.map((pair) => axis.values.map((x) => {
      const at = new Map(state.at);
      at.set(axis.name, x);
      return pairCell(pair, at);
    }));
    let top = 0.01;  // one scale for every chart, centred on 0: at least one point either way
    for (const cells of series) for (const cell of cells) for (const [, j] of drawn) {
      if (cell[j] !== null) top = Math.max(top, Math.abs(cell[j][2]));
    }
    const rest = whereIn(CMP.axes, axis.name);
    CMP.pairs.forEach((pair, k) => {
      const name = SETS[pair.set].name;
      const title = make("h4", null, name + " minus " + first.name + ": the change of every "
        + (drawn.length && drawn[0][0].kind === "class" ? "class" : "chance") + " by " + axis.label
        + (rest ? ", at " + rest : "") + " (percentage points)");
      title.id = "diff-title-" + k;
      box.appendChild(title);
      const chart = document.createElementNS($("chart").namespaceURI, "svg");
      chart.setAttribute("class", "diff-chart");
      chart.setAttribute("role", "img");
      chart.setAttribute("aria-labelledby", title.id);
      chart.dataset.set = name;
      box.appendChild(chart);
      const W = 720, H = 240, L = 60, R = 14, T = 12, B = 42;
      chart.setAttribute("viewBox", "0 0 " + W + " " + H);
      const y = (p) => T + (H - T - B) * (1 - (p + top) / (2 * top));
      for (const t of [-1, -0.5, 0, 0.5, 1]) {
        svg(chart, "line", {x1: L, x2: W - R, y1: y(t * top), y2: y(t * top), stroke: t === 0 ? "#1d1d1f" : "#d9d9de"});
        const pts = t * top * 100;
        svg(chart, "text", {x: L - 6, y: y(t * top) + 4, "text-anchor": "end"},
            (pts > 0 ? "+" : "") + (Math.abs(pts) >= 10 || pts === 0 ? pts.toFixed(0) : pts.toFixed(1)));
      }
      const n = axis.values.length, step = (W - L - R) / n;
      axis.values.forEach((x, i) => {
        const cx = L + (i + 0.5) * step;
        if (x === state.at.get(axis.name)) {
          svg(chart, "rect", {"class": "current", x: cx - step / 2 + 1, y: T, width: step - 2, height: H - T - B});
        }
        if (n <= 30 || i % Math.ceil(n / 30) === 0) {
          svg(chart, "text", {x: cx, y: H - B + 16, "text-anchor": "middle"}, String(x));
        }
      });
      svg(chart, "text", {x: L + (W - L - R) / 2, y: H - 6, "text-anchor": "middle"}, axis.label);
      for (const [c, j] of drawn) {
        const color = c.kind === "class" ? COLORS[c.color % COLORS.length] : "#1d1d1f";
        const pts = [];
        series[k].forEach((cell, i) => {
          if (cell[j] !== null) pts.push([L + (i + 0.5) * step, y(cell[j][2]), axis.values[i], cell[j]]);
        });
        const g = svg(chart, "g", {"class": "series"});
        g.dataset.column = c.name;
        svg(g, "polyline", {"class": "diff", points: pts.map((p) => p[0] + "," + p[1]).join(" "), stroke: color});
        for (const p of pts) {
          const dot = svg(g, "circle", {cx: p[0], cy: p[1], r: 3.5, fill: color});
          dot.dataset.value = String(p[2]);
          svg(dot, "title", {}, axis.label + " " + p[2] + ": " + c.label + " " + p[3][0] + " points (exact " + p[3][1] + ")");
          dot.addEventListener("click", () => change(moved(axis.name, p[2])));
        }
      }
    });
    const legend = $("diff-legend");
    legend.replaceChildren();
    for (const [c] of drawn) {
      const li = make("li");
      const sw = make("span", "swatch");
      sw.style.background = c.kind === "class" ? COLORS[c.color % COLORS.length] : "#1d1d1f";
      li.appendChild(sw);
      li.appendChild(document.createTextNode(c.label));
      legend.appendChild(li);
    }
  }

  function render() {
    const exactShown = $("show-exact").checked;
    const comparing = state.view === "compare";
    showControls(axesOf(state));
    for (const id of ["about", "cell", "chart-box"]) $(id).hidden = comparing;
    $("compare-view").hidden = !comparing;
    if (comparing) {
      showComparison(exactShown);
      document.title = "Odds compared: " + CMP.sets.map((e) => SETS[e.index].name).join(", ") + " at "
        + whereIn(CMP.axes, null);
      $("link-text").textContent = location.href.split("#")[0] + hashOf(state);
      return;
    }
    const rs = SETS[state.set];
    $("set-name").textContent = rs.name;
    $("set-system").textContent = "System: " + rs.system_title + ". " + rs.source + "."
      + (rs.strategy ? " After a Willpower reroll: strategy " + rs.strategy + "." : "");
    $("set-description").textContent = rs.description;
    $("set-description").hidden = !rs.description;
    const changes = $("set-changes");
    changes.replaceChildren();
    for (const [field, was, now] of rs.changes) {
      changes.appendChild(make("li", null, field + " = " + now + " (" + rs.base_short + " " + was + ")"));
    }
    $("set-changes-head").textContent = rs.changes.length ? "Changed from " + rs.base + ":" : rs.unchanged;
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
    change(stateOf(new URLSearchParams(), {set: i, view: prev.view, at: prev.at, by: prev.by}));
  });
  $("view").addEventListener("change", (e) => {
    const prev = state;
    change(stateOf(new URLSearchParams(), {set: prev.set, view: e.target.value, at: prev.at, by: prev.by}));
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
