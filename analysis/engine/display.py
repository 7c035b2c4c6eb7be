"""How result objects show themselves: a compact ``repr`` and a small HTML table for Jupyter.

A result class (``MechanicOdds``, ``Blows``, ``SoifLadder``...) takes both from
here::

    __repr__ = display.text
    _repr_html_ = display.html

and may define ``_repr_rows()`` returning ``(head, rows)``: ``head`` a list
of short ``"name value"`` texts (what was asked), ``rows`` a list of
``(name, value)`` (what came out).  Without it, the dataclass fields are
read: plain numbers and texts go in the head, probabilities (``Fraction``)
and ``{key: Fraction}`` distributions in the rows, outcome classes
(``classes()``) and the chance to win or succeed first.  Large internals
(Markov chains, ways, denominators) are left out.

Probabilities are shown as percentages of ``float(Fraction)`` (correctly
rounded), the HTML table adds the exact fraction when it is short.
"""

from __future__ import annotations

import dataclasses
import html as _html
from fractions import Fraction

#: Fields never shown (internals: counts, chains, engines).
_SKIP = {
    "denominator",
    "chain",
    "ways",
    "columns",
    "joint",
    "absorbing",
    "potential",
    "win_classes",
    "success_ways",
    "level_ways",
    "engine",
    "per_blow",
    "start",
    "counts",
    "max_successes",
}
#: At most this many rows in a ``repr`` (the HTML table shows them all).
TEXT_ROWS = 12
#: Exact fractions longer than this are left out of the HTML table.
FRACTION_CHARS = 40


def percent(value) -> str:
    """A probability as a percentage of its correctly rounded float: ``70.12%`` (``<0.01%`` for a tiny non-zero one)."""
    v = float(value)
    text = f"{v:.2%}"
    if v != 0 and text in ("0.00%", "-0.00%"):
        return "<0.01%" if v > 0 else ">-0.01%"
    if v != 1 and text == "100.00%":
        return ">99.99%"
    return text


def _show(value) -> str:
    if isinstance(value, (Fraction, float)) and not isinstance(value, bool):
        return percent(value)
    return str(value)


def _is_prob_dict(v) -> bool:
    return isinstance(v, dict) and bool(v) and all(isinstance(p, Fraction) for p in v.values())


def _default_rows(obj) -> tuple:
    head, rows = [], []
    for method in ("classes", "outcomes"):
        fn = getattr(obj, method, None)
        if callable(fn):
            try:
                found = fn()
            except TypeError:  # wants arguments: not the classes of one roll
                continue
            if _is_prob_dict(found):
                rows += list(found.items())
                break
    if rows:  # then the derived probabilities: p_win first, every other p_... property, flags
        derived = sorted(
            (
                n
                for n in dir(type(obj))
                if isinstance(getattr(type(obj), n, None), property)
                and (n.startswith("p_") or n in ("beastly_critical", "willpower_spent"))
            ),
            key=lambda n: (n != "p_win", n != "p_success", n),
        )
        for extra in derived:
            value = getattr(obj, extra, None)
            if isinstance(value, Fraction) and not ("willpower_spent" in extra and not value):
                rows.append((extra, value))
        mean = getattr(obj, "mean_successes", None)
        if isinstance(mean, Fraction):
            rows.append(("mean successes", f"{float(mean):.4g}"))
    for f in dataclasses.fields(obj):
        name = f.name
        if name in _SKIP or name.endswith("_ways") or name in ("class_ways",):
            continue
        v = getattr(obj, name)
        if v is None:
            continue
        if hasattr(v, "changes") and hasattr(v, "fields_info"):  # rules: only what differs
            changes = v.changes()
            if changes:
                head.append("house rules " + ", ".join(f"{k}={x!r}" for k, x in changes.items()))
            continue
        if isinstance(v, (bool, int, str)):
            head.append(f"{name} {v}")
        elif isinstance(v, (Fraction, float)):
            rows.append((name, v))
        elif _is_prob_dict(v):
            rows += [(f"{name} {k}", p) for k, p in v.items() if p]
        elif isinstance(v, tuple) and len(v) <= 12 and all(isinstance(x, (int, str)) for x in v):
            head.append(f"{name} {list(v)}")
        elif getattr(type(v), "_repr_html_", None) is html:  # a nested result: its rows, prefixed
            _, sub_head, sub_rows = parts(v)
            if sub_head:
                head.append(
                    f"{name}: {' '.join(sub_head)}" if len(sub_head) == 1 else f"{name} ({', '.join(sub_head)})"
                )
            rows += [(f"{name}: {n}", x) for n, x in sub_rows]
    return head, rows


def parts(obj) -> tuple:
    """``(title, head, rows)`` of a result object (see the module docstring)."""
    own = getattr(obj, "_repr_rows", None)
    head, rows = own() if callable(own) else _default_rows(obj)
    return type(obj).__name__, list(head), list(rows)


def text(obj, one_line: bool = False) -> str:
    """The compact repr: ``Title(head): name 12.34%, ...`` on one or a few lines."""
    title, head, rows = parts(obj)
    first = f"{title}({', '.join(head)})"
    if not rows:
        return first
    shown = [f"{n} {_show(v)}" for n, v in rows[:TEXT_ROWS]]
    if len(rows) > TEXT_ROWS:
        shown.append(f"... {len(rows) - TEXT_ROWS} more")
    if one_line:
        return first + ": " + ", ".join(shown[:4]) + (", ..." if len(shown) > 4 else "")
    lines, line = [], "  "
    for item in shown:
        if len(line) + len(item) > 96 and line.strip():
            lines.append(line.rstrip(", "))
            line = "  "
        line += item + ", "
    lines.append(line.rstrip(", "))
    return first + ":\n" + "\n".join(lines)


def html(obj) -> str:
    """A small HTML table: the head as caption, one row per result (percent and exact fraction)."""
    title, head, rows = parts(obj)
    esc = _html.escape
    body = []
    for name, value in rows:
        exact = ""
        if isinstance(value, Fraction):
            t = f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value)
            exact = t if len(t) <= FRACTION_CHARS else ""
        body.append(
            f"<tr><th style='text-align:left'>{esc(str(name))}</th>"
            f"<td style='text-align:right'>{esc(_show(value))}</td>"
            f"<td style='text-align:right;color:#666'>{esc(exact)}</td></tr>"
        )
    caption = f"<b>{esc(title)}</b>" + (f" ({esc(', '.join(head))})" if head else "")
    return f"<table><caption style='text-align:left'>{caption}</caption><tbody>{''.join(body)}</tbody></table>"
