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
