"""The rules a command counts under: ``--rules NAME|FILE``, ``--set FIELD=VALUE`` and house-rule flags.

:class:`RulesOptions`, :func:`add_rules_options` and :func:`rules_from_args` build them; :func:`rule_set_used`
names the rule set a command counted under, for its output.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import re
import tomllib
import unicodedata
from typing import Any, Callable

from analysis.workbench import rulesets
from analysis.model.system import RESERVED
from analysis.model.validate import did_you_mean
from analysis.options.warn import warn


def rule_set_used(rules, base=None, start=None):
    """The rule set a command counts under, named for its output.

    Parameters
    ----------
    rules : rules dataclass instance
        The rules after ``--rules``, the house-rule flags and ``--set``.
    base : RuleSet, optional
        The rule set ``--rules`` named.
    start : rules dataclass instance, optional
        The rules ``base`` gave the command (before flags and ``--set``).

    Returns
    -------
    RuleSet or None
        ``base`` when nothing changed it; a shipped rule set the rules
        equal; else ``BASE-custom`` (without ``base``, the system's default
        rule set's name: ``v5-official-custom``, ``requiem-la-soif-custom``)
        described by what changed.  None for rules of no system.
    """
    if base is not None and (start is None or rules == start):
        return base
    try:
        found = rulesets.load(rules)
    except ValueError:
        return None
    if found.source:  # a shipped rule set
        return found
    if base is None:  # changed from the system's default rule set: named after it, as with --rules
        said = "; ".join(f"{k} = {rulesets.show_value(v)}" for k, (_, v) in found.changes().items())
        default = rulesets.official(found.system)
        return dataclasses.replace(
            found, name=f"{default.name}-custom", description=f"{default.name} with {said}" if said else ""
        )
    before = rulesets.flat_values(start)
    said = "; ".join(
        f"{k} = {rulesets.show_value(v)}" for k, v in rulesets.flat_values(rules).items() if before.get(k) != v
    )
    return dataclasses.replace(
        found, name=f"{base.name}-custom", description=f"{base.name} with {said or 'nothing changed'}"
    )


# -------------------------------------------------------------- rule sets


@dataclasses.dataclass(frozen=True)
class RulesOptions:
    """The rules a subcommand counts under, and how its ``--rules``/``--set`` read.

    Attributes
    ----------
    rules : type
        The rules dataclass that ``--set`` sets fields of.
    title : str
        What those rules are called in help and messages
        (``"V5 rules"``, ``"conflict rules"``).
    system : str or None
        The system whose rule sets (shipped names or TOML files) ``--rules``
        takes; None: the subcommand has no ``--rules``, only ``--set``.
    sub : str or None
        The sub-rules table of the system's rule sets that holds these rules
        (``"rouse"``: a rule set's ``[rouse]`` table), for rules that are
        not the system's main rules.  ``--rules`` reads that table when the
        system's rule sets carry it, else uses ``wrap``, else is not offered.
    wrap : callable or None
        Turns the loaded rule set's main rules into the subcommand's rules
        (e.g. a v5 rule set into conflict rules with those dice); None: they
        are the subcommand's rules.
    rules_help : str
        What ``--rules`` sets, for its help.
    """

    rules: type
    title: str
    system: str | None = None
    sub: str | None = None
    wrap: Callable[[Any], Any] | None = None
    rules_help: str = ""

    def reads_table(self) -> bool:
        """Whether ``--rules`` reads the sub-rules table ``sub`` of the system's rule sets."""
        if self.system is None or self.sub is None:
            return False
        return self.sub in getattr(rulesets.system(self.system), "sub_rule_names", ())

    def takes_rules(self) -> bool:
        """Whether the subcommand has ``--rules``: a rule set can give these rules."""
        return self.system is not None and (self.sub is None or self.wrap is not None or self.reads_table())

    @classmethod
    def of_system(cls, system) -> "RulesOptions":
        """The options of a system's own rules (``--rules`` takes its rule sets)."""
        return cls(system.rules, f"{system.name} rules", system.name)


def _fields_text(cls) -> str:
    return ", ".join(f.name for f in dataclasses.fields(cls))


def add_rules_options(parser: argparse.ArgumentParser, options: RulesOptions) -> None:
    """Add ``--rules NAME|FILE`` (when a rule set can carry these rules) and ``--set FIELD=VALUE``."""
    cls = options.rules
    if options.takes_rules():
        what = (
            f"the {options.title}, from the [{options.sub}] table of"
            if options.reads_table()
            else (options.rules_help or f"the {options.title}") + ":"
        )
        parser.add_argument(
            "--rules",
            metavar="NAME|FILE",
            default=None,
            names=(),
            help=f"{what} a shipped {options.system} rule set (see `beastodds rules`) or a "
            f".toml file (default: the defaults of the {options.title})",
        )
    nested = [f.name for f in dataclasses.fields(cls) if dataclasses.is_dataclass(getattr(cls(), f.name))]
    extra = f"; a group of rules is set field by field ({nested[0]}.FIELD=VALUE)" if nested else ""
    parser.add_argument(
        "--set",
        metavar="FIELD=VALUE",
        action="append",
        default=[],
        dest="set",
        names=(),
        help=f"change one field of the {options.title}"
        f"{', after --rules' if options.takes_rules() else ''} (repeatable); VALUE is "
        f"a TOML value (2, true, \"high\"; a bare word is a text, none is no value). "
        f"Fields: {_fields_text(cls)}{extra}",
    )
    parser.set_defaults(rules_options=options)


_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def parse_set(text: str) -> tuple:
    """``"field=value"`` as ``(field path, value)``: the value read as TOML, a bare word as a text."""
    if any(unicodedata.category(c) == "Cc" for c in text):  # a line break would hide the lines after it
        raise ValueError(
            f"--set takes one FIELD=VALUE on one line, without line breaks or other control "
            f"characters (give --set once per field), got {text!r}"
        )
    key, sep, value = text.partition("=")
    key, value = key.strip(), value.strip()
    if not sep or not _KEY.match(key) or not value:
        raise ValueError(f"--set takes FIELD=VALUE, such as --set crit_bonus=3, got {text!r}")
    try:
        parsed = tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        parsed = value  # a bare word: high, none, same_deck
    except RecursionError:
        raise ValueError(f"--set {key}: the value is nested too deeply to read") from None
    return tuple(key.split(".")), parsed


def sets_of(texts) -> dict:
    """``{field: value}`` of the ``--set`` options (dotted fields nest: ``{"dice": {...}}``)."""
    out: dict = {}
    for text in texts or ():
        path, value = parse_set(text)
        where = out
        for part in path[:-1]:
            inner = where.setdefault(part, {})
            if not isinstance(inner, dict):
                raise ValueError(f"--set gives {'.'.join(path[:-1])} a value and sets a field of it: give one of them")
            where = inner
        if path[-1] in where:
            raise ValueError(f"--set sets {'.'.join(path)} twice: give it once")
        where[path[-1]] = value
    return out


def _system_of_class(cls):
    for s in rulesets.SYSTEMS.values():
        try:
            if s.rules is cls:
                return s
        except ValueError:  # a system whose code cannot be loaded
            continue
    return None


def with_fields(base, changes: dict, source: str = "--set", title: str | None = None):
    """``base`` (a rules dataclass instance) with ``changes`` (TOML values) applied and checked.

    Every key must be a field (a misspelt one gets a "did you mean"); a
    field holding a group of rules (``ConflictRules.dice``) takes a table of
    its own fields.  The values are then checked as a rule-set file's would
    be: a system's rules through :func:`analysis.workbench.rulesets.from_dict`, rules
    with a ``from_dict``/``to_dict`` pair (the rules base class) through
    those, other dataclasses through the field checks of
    :mod:`analysis.workbench.rulesets`.

    Raises
    ------
    ValueError
        One sentence starting with ``source``, naming the field.
    """
    if not changes:
        return base
    cls = type(base)
    title = title or _title(cls)
    fields = [f.name for f in dataclasses.fields(cls)]
    groups, plain = {}, {}
    for key, value in changes.items():
        if key not in fields:
            if key in RESERVED:  # a rule-set file's keys, not the rules'
                raise ValueError(
                    f"{source}: {key} is not a field of the {title} (it names a rule-set "
                    f"file's {key}); the fields are {', '.join(fields)}"
                )
            hint = did_you_mean(key, fields)
            raise ValueError(
                f"{source}: unknown field {key!r} for the {title}{hint}; the fields are {', '.join(fields)}"
            )
        current = getattr(base, key)
        if dataclasses.is_dataclass(current):
            if not isinstance(value, dict):
                first = dataclasses.fields(current)[0].name
                raise ValueError(
                    f"{source}: {key} is a group of rules: set its fields one by one, such as {key}.{first}=VALUE"
                )
            groups[key] = with_fields(current, value, f"{source} {key}")
        else:
            plain[key] = value
    if groups:
        try:
            base = dataclasses.replace(base, **groups)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{source}: {exc}") from None
    if not plain:
        return base
    try:
        return _checked(base, plain, source)
    except ValueError as exc:
        message = str(exc)
        if not message.startswith(source):
            message = f"{source}: {message}"
        raise ValueError(message) from None


def _checked(base, plain: dict, source: str):
    """``base`` with the plain (not nested) fields ``plain`` set from TOML values, checked."""
    cls = type(base)
    system = _system_of_class(cls)
    if system is not None:  # exactly as a rule-set file of the system
        data = rulesets.RuleSet(system.name, f"{system.name}-custom", base).to_dict()
        data.update(plain)
        return rulesets.from_dict(data, source).rules
    return cls.require(base).from_dict({**base.to_dict(), **plain})


def _title(cls) -> str:
    name = cls.__name__
    return f"{name[:-5].lower()} rules" if name.endswith("Rules") else f"{name} rules"


def with_sets(rs, texts):
    """A loaded rule set with ``--set`` changes applied (then named ``NAME-custom``)."""
    changes = sets_of(texts)
    if not changes:
        return rs

    rules = with_fields(rs.rules, changes, title=f"{rs.system} rules")
    base = rs.fields()
    said = "; ".join(
        f"{k} = {rulesets.show_value(v)}" for k, v in dataclasses.asdict(rules).items() if base.get(k) != v
    )
    return dataclasses.replace(
        rs, name=f"{rs.name}-custom", rules=rules, description=f"{rs.name} with {said or 'nothing changed'}."
    )


def add_set_option(p, flag: str = "--set", which: str = "the rule set") -> None:
    """Add ``--set FIELD=VALUE`` (or ``flag``): a change to a rule set named on the command line (:func:`with_sets`)."""
    p.add_argument(
        flag,
        metavar="FIELD=VALUE",
        action="append",
        default=[],
        dest=flag[2:].replace("-", "_"),
        names=(),
        help=f"change one field of {which} (repeatable); VALUE is a TOML value "
        "(2, true, \"high\"; a bare word is a text, none is no value)",
    )


def given(option_name: str, value, present: bool = True):
    """A house-rule flag's entry for :func:`rules_from_args`: ``(option, value)``, or None when not given."""
    return (option_name, value) if present else None


def rules_from_args(args, flags: dict | None = None):
    """The rules of a subcommand: ``--rules`` (or the defaults), then its own flags, then ``--set``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed by a parser given :func:`add_rules_options`.
    flags : dict, optional
        ``{field: (option, value) or None}``: the fields the subcommand's own
        house-rule flags set (``"again": ("--again", 9)``), None for a flag
        not given; a field set by a flag and by ``--set`` is refused.

    Returns
    -------
    rules dataclass instance
        Also set: ``args.rule_set_used``, a function of no arguments giving
        the rule set to name in the output (:func:`rule_set_used`; called
        only by an output that names it, see :func:`analysis.present.formats.render.render`).
    """
    options: RulesOptions = args.rules_options
    cls = options.rules
    ref = getattr(args, "rules", None) if options.takes_rules() else None
    if ref is not None and options.system is not None:  # takes_rules: a system is named
        rs = rulesets.load(ref)
        if rs.system != rulesets.system(options.system).name:
            raise ValueError(f"{rs.name} is a {rs.system} rule set; --rules here takes a {options.system} rule set")
        if options.reads_table() and options.sub is not None:
            base = rs.sub(options.sub)
            # a sub-table whose rolls use the system's dice (a conflict's `dice`) rolls the rule
            # set's own dice, unless the sub-table names dice of its own
            takes_dice = isinstance(getattr(base, "dice", None), type(rs.rules))
            if takes_dice and base.dice == type(rs.rules)():
                base = dataclasses.replace(base, dice=rs.rules)
            unused = (
                []
                if takes_dice
                else [f"{k} = {rulesets.show_value(v)}" for k, (_, v) in rs.changes().items() if "." not in k]
            )
            if unused:
                warn(
                    f"--rules {ref}: {'; '.join(unused)} {'is' if len(unused) == 1 else 'are'} "
                    f"not used here: the {options.title} "
                    f"come from its [{options.sub}] table alone"
                )
        elif options.wrap is not None:
            base = options.wrap(rs.rules)
        else:
            base = rs.rules
    else:
        base = cls()
    changes = sets_of(getattr(args, "set", ()))
    flags = {k: v for k, v in (flags or {}).items() if v is not None}
    both = [k for k in flags if k in changes]
    if both:
        raise ValueError(f"{flags[both[0]][0]} and --set {both[0]}=... both set {both[0]}: give one of them")
    start = base
    if flags:
        base = dataclasses.replace(base, **{k: v for k, (_, v) in flags.items()})
    rules = with_fields(base, changes, title=options.title)
    # named when the output names it (an export, not the terminal table): naming rules given without
    # --rules reads every shipped rule set of the system, and their sub-rules' modules
    args.rule_set_used = functools.partial(rule_set_used, rules, rs if ref is not None else None, start)
    return rules
