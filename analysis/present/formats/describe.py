"""A rule set stated for people, in HTML: its name, title and description, where it comes from, and
what it changes from its system's defaults (:func:`changes_html`, each rule in the words of its rules).
"""

from __future__ import annotations

from analysis.workbench import rulesets
from analysis.present.glossary import label
from analysis.model.escape import html_text
from analysis.model.escape import row, table
from analysis.present.formats.html import legend_list


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


def describe(rs: rulesets.RuleSet, short: bool = False) -> str:
    """A rule set stated in HTML: its name, its description, what differs from the defaults.

    ``short``: the name and its fields only (for the many tables of a section's defaults).
    """
    text = f"<b>{html_text(rs.name)}</b>" + (":" if short else "")
    if rs.description and not short:
        text += f": {html_text(rs.description)}"
    changes = rs.changes()
    if changes:
        words = rulesets.base_words(rs.system)
        text += (
            f" Changed from {words.rules}: "
            + "; ".join(
                f"<code>{html_text(k)} = {html_text(rulesets.show_value(v))}</code> "
                f"({words.short} {html_text(rulesets.show_value(d))})"
                for k, (d, v) in changes.items()
            )
            + "."
        )
    else:
        text += (
            " Fields: "
            + ", ".join(
                f"<code>{html_text(k)} = {html_text(rulesets.show_value(v))}</code>" for k, v in rs.fields().items()
            )
            + "."
        )
    return text


def _own_mechanic(rs: rulesets.RuleSet):
    """The mechanic file a rule set is the default rules of (its ``[mechanic]`` title and description), or None."""
    mech = getattr(type(rs.rules), "MECHANIC", None)
    if (
        mech is None
        or rs.sub_rules
        or rs.rules != type(rs.rules)()
        or rs.description not in ("", mech.title, mech.description)
    ):
        return None
    return mech


def title_of(rs: rulesets.RuleSet) -> str:
    """A rule set's own title: a mechanic file's ``title`` for the file's own rules, else the rule set's name."""
    mech = _own_mechanic(rs)
    return mech.title if mech is not None and mech.title else rs.name


def description_of(rs: rulesets.RuleSet) -> str:
    """A rule set's description: a mechanic file's own ``description`` for the file's own rules."""
    mech = _own_mechanic(rs)
    return mech.description if mech is not None and mech.description else rs.description


def source_of(rs: rulesets.RuleSet) -> str:
    """Where a rule set comes from, for people: ``shipped with beastodds (NAME.toml)``, its file, or Python."""
    source = rs.source or ""
    if source.startswith("shipped:"):
        return f"shipped with beastodds ({source[len('shipped:') :]})"
    return f"the file {source}" if source else "given in Python"


def _field_label(rs, dotted: str) -> str:
    """A rules field for people: its one-line help (the rules class's or the mechanic file's own words)."""
    text = _field_help(rs, dotted)
    return text or label(dotted.rsplit(".", 1)[-1])


def changes_html(rs: rulesets.RuleSet) -> str:
    """The list of changes from the system's defaults (the official rules of a shipped system, a designer's
    file's own rules): each rule in words, its default value and this one."""
    official = rulesets.official(rs.system)
    words = rulesets.base_words(rs.system)
    base, head = words.rules, words.heading
    changes = rs.changes()
    if not changes:
        return f'<p class="note">No change: these are {base} ({html_text(official.name)}).</p>'
    rows = "".join(
        f"<tr><td>{html_text(_field_label(rs, k))}<br><code class=\"name\">{html_text(k)}</code></td>"
        f"<td>{html_text(rulesets.show_value(d))}</td><td><b>{html_text(rulesets.show_value(v))}</b></td></tr>"
        for k, (d, v) in changes.items()
    )
    own = title_of(rs)
    changed = table(row(["Rule", head, html_text(own)], "th"), rows, classes="changes")
    legend = legend_list(
        [
            (
                "Rule",
                "what the rule sets, in the words of its rules; under it, its name in a "
                "rule-set TOML file (a dotted name is a rule of another mechanic, such as "
                "[rouse])",
            ),
            (head, f"its value in {base} ({official.name})"),
            (own, "its value in this rule set"),
        ]
    )
    note = ""
    if rs.rules == official.rules:
        note = (
            f'<p class="note">The dice odds below are those of {base}: this rule set changes another mechanic only.</p>'
        )
    return changed + legend + note
