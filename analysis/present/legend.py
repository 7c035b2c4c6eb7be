"""What each column of a table means: the legend under a table, one line per column, in its system's words.

:func:`legend` reads a column's meaning from, in order, the meanings given
(a rule set's own, :func:`rule_meanings`), the system's mechanic file, terms
and outcome classes, the shared glossary (:mod:`analysis.present.glossary`) and the
columns of a comparison or an export (``TABLE_TERMS``); a column named with a
system's prefix (``v5_win``) is read through it.  :func:`legend_lines` is the
legend of a pivoted table; :func:`meaning` and :func:`column_legend` the
booklet's readable form of the same words.
"""

from __future__ import annotations

import dataclasses
import re

from analysis.present import glossary
from analysis.workbench import rulesets
from analysis.present.glossary import TABLE_TERMS, label, terms
from analysis.model.spec import shipped


def rule_meanings(rule_set) -> dict:
    """``{class or column: meaning}`` under a rule set's own values, for rules of a mechanic file.

    A mechanic's meanings name its parameters (``{bestial_hunger_ones} or more
    Hunger dice show 1``), so a rule set that changes them has meanings of its
    own; other rule sets (and a pair of them, a comparison) have none here.
    """
    rules = getattr(rule_set, "rules", None)
    if rules is None or isinstance(rule_set, (tuple, list)):
        return {}

    values = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}
    mech = getattr(type(rules), "MECHANIC", None)
    if mech is None:
        # a shipped system counted from its own mechanic file: under a house rule that changes a
        # parameter of the file, the file's meanings (filled with the new values) replace the official ones

        try:
            mech = shipped(rulesets.system(rule_set.system))
        except (ValueError, AttributeError):
            return {}
        if mech is None:
            return {}
        values = {k: v for k, v in values.items() if k in mech.parameter_map}
        if all(mech.parameter_map[k].default == v for k, v in values.items()):
            return {}
    return {k: v for k, v in mech.meanings(values).items() if v}


def legend_lines(df_columns, key_columns, system, pivoted, meanings=None) -> list:
    if pivoted is None:
        return legend([c for c in df_columns], system, meanings)
    keys, labels, value, across, fixed, derived = pivoted
    lines = legend(list(keys), system, meanings)
    meaning = legend([value], system, meanings)[0].split(": ", 1)[1]
    lines.append(f"{' x '.join(f'{a}=N' for a in across)}: {value} ({meaning}) at that {' and '.join(across)}")
    for line in legend(list(fixed), system, meanings):
        name, text = line.split(": ", 1)
        lines.append(f"{name}: {fixed[name]} throughout ({text})")
    for line in legend(list(derived), system, meanings):
        name, text = line.split(": ", 1)
        lines.append(f"{name}: left out, as {derived_text(name, derived[name])} decide it ({text})")
    return lines


def derived_text(name: str, by) -> str:
    """``"pool and soif"``: the keys that decide a key a pivot left out."""
    by = [str(b) for b in by]
    return by[0] if len(by) == 1 else ", ".join(by[:-1]) + " and " + by[-1]


def _column_prefixes() -> list:
    """``[(prefix, name for people, system)]``: the column prefixes of tables that set systems side by
    side, as each system declares them (``SYSTEM.column_prefixes``)."""
    return [(prefix, who, system) for system in rulesets.SYSTEMS.values() for prefix, who in system.column_prefixes]


def _axis_meanings(system) -> dict:
    """``{axis: meaning}`` from the mechanic file a shipped system keeps (``mechanic.toml``), or ``{}``."""
    try:
        mech = shipped(system)
    except (ValueError, AttributeError):
        return {}
    return {} if mech is None else {a.name: a.help for a in mech.axes if a.help}


def _class_meaning(system, word: str):
    """The meaning of an outcome class or term of a system (None if it has none)."""
    return system.class_meanings().get(word) or dict(system.terms).get(word)


#: Meanings of the short words after such a prefix.
_SHORT = {
    "win": "chance to win",
    "success": "chance of at least one success",
    "exceptional": "chance of an exceptional success (5 or more successes)",
    "critical": "chance of a critical win (a pair of 10s, messy or not)",
    "beastly_critical": "chance of a beastly critical (10s only on Beast dice; overlaps the classes)",
    "base": "attribute + 2 x skill (minus penalties) before the card",
    "difficulty": "the total the card test must reach",
}


def legend(columns, system=None, meanings=None) -> list:
    """One line ``"name: meaning"`` per column, from the glossary and the system's own terms.

    Parameters
    ----------
    columns : sequence of str
        Column names (a table's ``columns``).
    system : System or str, optional
        The system the table belongs to: its outcome classes and terms are
        used first (their meaning there), then the shared glossary.
    meanings : dict, optional
        ``{column: meaning}`` used before all of them: the meanings under a
        rule set's own values (:func:`rule_meanings`).

    Returns
    -------
    list of str
        In the order of ``columns``; a column no glossary knows gets
        ``"name: (no meaning recorded)"``.

    Examples
    --------
    >>> legend(["pool", "difference"])[0]
    'pool: dice rolled, after every modifier'
    """
    own: dict = {}
    if system is not None:
        if isinstance(system, str):
            system = rulesets.system(system)
        # the system's own words first: its mechanic file's axes, its terms, its classes; a shared
        # glossary line that speaks of several systems ("(V5; cards: ...)") only where it has none
        own = {**_axis_meanings(system), **dict(system.terms), **system.class_meanings()}
    own.update(meanings or {})
    known = glossary.terms()
    prefixes = _column_prefixes()
    lines = []
    for c in columns:
        name = str(c)
        text = own.get(name) or known.get(name) or TABLE_TERMS.get(name)
        for prefix, who, owner in prefixes:
            if text is None and name.startswith(prefix):
                word = name[len(prefix) :]
                rest = _SHORT.get(word) or _class_meaning(owner, word) or known.get(word) or TABLE_TERMS.get(word)
                if rest:
                    text = f"{who}: {rest}"
        if text is None:
            m = re.match(r"^hunger_(\d+)$", name)
            text = f"chance that Hunger ends at {m.group(1)}" if m else "(no meaning recorded)"
        lines.append(f"{name}: {text}")
    return lines


def meaning(column, system=None) -> str:
    """The one-line meaning of a column from the glossary (a ``v5_`` or ``card_`` prefix is read through), or ``""``."""
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


def strip_name(column, text: str) -> str:
    """A meaning without a leading repeat of the column's own name (``chance to win: the sum ...``)."""
    lead = label(column).lower() + ":"
    return text[len(lead) :].strip() if text.lower().startswith(lead) else text


def column_legend(columns, system=None, extra=None) -> list:
    """One legend line per column: its label and meaning (``extra`` overrides by column)."""
    extra = extra or {}
    out = []
    for c in columns:
        text = extra.get(c) or meaning(c, system)
        out.append((label(c), text or "see the heading above the table"))
    return out


def span_text(values) -> str:
    """Values of an axis for a sentence: ``0 … 5``, ``0 and 1``, ``2, 4 and 7`` or ``3``."""
    raw = list(values)
    values = [str(v) for v in raw]
    if len(raw) > 2 and all(isinstance(v, int) for v in raw) and raw == list(range(raw[0], raw[0] + len(raw))):
        return f"{values[0]} … {values[-1]}"
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]
