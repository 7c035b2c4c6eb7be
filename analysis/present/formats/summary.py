"""A table summarised in a few pivots: the column that matters, the axes that change it, a few slices.

:func:`headline` picks the column a summary shows (the chance to win or
succeed, else the first outcome class); :func:`flat_axes` finds the axes
along which it never changes, compared exactly, so that each is said once
rather than shown; :func:`summary_pivots` lays it out across the first two
axes at a few values of the third (:func:`few_values`), each grid an HTML table with
its legend (:func:`analysis.present.formats.html.pivot_table`).  The booklet opens
each system and each rule set with it; the page (:mod:`analysis.present.page`) shows
the same headline first.
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Any

from analysis.workbench import rulesets
from analysis.present.glossary import label
from analysis.present.legend import span_text
from analysis.model.escape import html_text
from analysis.present.formats.html import long_table, pivot_table
from analysis.model.numbers import holds_probabilities

#: Values of a third axis shown in pivoted tables (a few Difficulties, say).
SLICES = 3


def few_values(values, count: int = SLICES) -> list:
    """A few values of an axis: all when there are few, else ``count`` of them after the first."""
    values = list(values)
    if len(values) <= count:
        return values
    if len(values) <= 2 * count + 1:
        return values[1 : 1 + count]
    return [values[len(values) * (i + 1) // (count + 1)] for i in range(count)]


#: Words of the outcome classes a player fears (drawn beside the chance to win).
RISKS = ("messy", "bestial", "brutal", "despair", "dramatic", "botch")


def headline(df, system) -> str | None:
    """The column a pivoted summary shows: the chance to win (or succeed), else the first class."""
    for c in ("p_win", "p_success"):
        if c in df.columns:
            return c
    classes = [c for c, _ in rulesets.system(system).classes if c in df.columns] if system else []
    probs = [c for c in df.columns if holds_probabilities(df[c])]
    for c in probs:  # a plain success or win (initiator_wins), not a feared one (bestial_success)
        if ("success" in c or "win" in c) and not any(w in c for w in RISKS):
            return c
    return (classes or probs or [None])[0]


def _is_exact(series) -> bool:
    """Whether a column holds exact values only (Fractions or whole numbers, not floats)."""
    return len(series) > 0 and all(
        isinstance(v, (Fraction, numbers.Integral)) and not isinstance(v, bool) for v in series
    )


def flat_axes(df, value: str, axes) -> list:
    """The axes after the first along which ``value`` never changes, compared exactly.

    An axis is flat when, at every combination of the other axes, all its
    values give the same exact number (Fractions or integers); a column of
    floats is never called flat (two floats that agree may round two
    different fractions).  Under the official V5 rules, for instance, Hunger
    never changes the chance to win; under a house rule it may.
    """
    axes = [a for a in axes if a in df.columns]
    if len(axes) < 2 or not _is_exact(df[value]):
        return []
    flat = []
    for a in axes[1:]:
        if df[a].nunique() < 2:
            continue
        others = [b for b in axes if b != a]
        if int(df.groupby(others, sort=False)[value].nunique().max()) == 1:
            flat.append(a)
    return flat


def _flat_note(value: str, flat: list, kept: list, df) -> str:
    """One sentence: these axes never change the value, checked exactly, so each is shown once."""
    names = " and ".join(label(a) for a in flat)
    at = " and ".join(label(a).lower() for a in kept)
    spans = "; ".join(f"{label(a)} {span_text(sorted(df[a].unique().tolist()))}" for a in flat)
    return (
        f'<p class="note">{html_text(names)} never {"changes" if len(flat) == 1 else "change"} the '
        f"{html_text(label(value).lower())} here: at every {html_text(at)} shown, {html_text(spans)} give "
        f"exactly the same chance (compared as exact fractions), so it is shown once.</p>"
    )


def summary_pivots(df, axes, system, value=None, extra=None, every=()) -> str:
    """The ``value`` column pivoted across the first two axes at a few values of the third (later ones: first value).

    An axis along which ``value`` never changes (:func:`flat_axes`, exact
    values only) is said once in a sentence and left out of the pivots.
    ``every``: axes whose every value is shown (the designer chose them),
    not a few.
    """
    value = value or headline(df, system)
    axes = [a for a in axes if a in df.columns and df[a].nunique() > 1]
    if value is None or len(axes) < 2:
        return ""
    note, same = "", {}
    flat = flat_axes(df, value, axes)
    if flat:
        kept = [a for a in axes if a not in flat]
        note = _flat_note(value, flat, kept, df)
        same = {a: sorted(df[a].unique().tolist()) for a in flat}
        for a in flat:
            df = df[df[a] == same[a][0]]
        axes = kept
    if len(axes) < 2:  # only the rows are left: one column
        cap = label(value) + "".join(f", any {label(a)}" for a in same)
        sub = df[[axes[0], value]].reset_index(drop=True)
        return note + ('<div class="block">' + long_table(sub, (axes[0],), system, extra or {}, caption=cap) + "</div>")
    rows, cols, rest = axes[0], axes[1], axes[2:]

    def shown(a):
        vals = sorted(df[a].unique().tolist())
        return vals if a in every else None

    combos: list[dict[str, Any]] = [{}]  # later axes: both values of a switch (violent 0 and 1), else the first value
    for a in rest[1:]:
        vals = sorted(df[a].unique().tolist())
        pick = shown(a) or (vals if len(vals) <= 2 else vals[:1])
        combos = [dict(c, **{a: v}) for c in combos for v in pick]
    slices = [None] if not rest else (shown(rest[0]) or few_values(sorted(df[rest[0]].unique().tolist())))
    parts = []
    for fixed, s in ((c, s) for c in combos for s in slices):
        where = dict(fixed)
        if s is not None:
            where[rest[0]] = s
        cap = (
            label(value)
            + (" at " + ", ".join(f"{label(k)} {v}" for k, v in where.items()) if where else "")
            + "".join(f", any {label(a)}" for a in same)
        )
        parts.append(
            pivot_table(df, rows, cols, value, where=where, system=system, caption=cap, extra=extra, same=same)
        )
    return note + "".join(parts)
