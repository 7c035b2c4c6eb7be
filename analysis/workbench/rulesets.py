"""Rule sets as data: named house-rule variants of each game system, kept as small TOML files.

A *system* is a package under ``analysis/systems`` (see
:mod:`analysis.model.system`): one main rules class (an :class:`analysis.model.rules.Rules`)
and one tidy table function over a grid of axes, plus the rules classes of
its other mechanics (``SYSTEM.sub_rules``).  A *rule set* is one instance of
the main rules with a name, and one of each sub-rules class, loaded from or
saved to TOML, the sub-rules as tables::

    system = "NAME"                # the system: its folder under analysis/systems
    name = "NAME-my-house-rule"
    description = "One sentence on what the house rule changes."
    some_field = 2                 # a field of the system's rules class

    [sub_table]                    # the rules of another of its mechanics (SYSTEM.sub_rules)
    other_field = false

(every system's ``variants/`` folder holds real ones).

Fields and tables left out take their defaults (the official ruling); the
type, range or choices and help of every field come from its rules class
(:meth:`analysis.model.rules.Rules.fields_info`).  Each
system ships named variants in its ``variants/`` folder (``beastodds rules``
lists them); anywhere a rule set is wanted, a shipped name, a path to a
``.toml`` file, a :class:`RuleSet` or a bare rules dataclass will do.

The table function is called as ``table(*axis_values, rules=rules,
exact=exact)`` with one list of integers per axis, in the order given, and
must return a tidy DataFrame with one column per axis.  Its other columns
that are not integers (or the ``outcomes=`` named) are the outcomes
compared by :func:`analysis.present.tables.compare`.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, NamedTuple, NoReturn, cast

import tomli_w

from analysis.model.spec import Mechanic, MechanicError, from_toml as mechanic_from_toml, load as load_mechanic, shipped
from analysis.systems.from_file import is_mechanic_text, system_of
from analysis.model.rules import NONE_TEXT, Rules, toml_kind, unknown_field
from analysis.model.safeio import atomic_write, read_text, toml_error
from analysis.model.system import System
from analysis.systems.shipped import systems as shipped_systems
from analysis.model.validate import did_you_mean, escape_controls

# ----------------------------------------------------------------- systems

#: The systems by name, in listing order: every shipped system (:mod:`analysis.systems.shipped`;
#: see :mod:`analysis.model.system` for what a system holds), plus any added at run time with
#: :func:`register` (a designer's mechanic file, for one).
SYSTEMS: dict[str, System] = shipped_systems()

#: ``{system name: absolute path}`` of the mechanic files registered from a file
#: (:mod:`analysis.systems.from_file`), so that a rule set of such a system
#: written out as TOML names its mechanic (``mechanic = "..."``).
MECHANIC_FILES: dict[str, str] = {}


def register(
    name: str, rules, table, axes, title: str | None = None, *, outcomes=None, sub_rules=None, replace: bool = False
) -> System:
    """Register a game system with the workbench.

    Parameters
    ----------
    name : str
        Lowercase letters and digits (``"beast"``).
    rules : type
        Its rules class (an :class:`analysis.model.rules.Rules`).
    table : callable
        Its tidy table function, called as
        ``table(*axis_values, rules=rules, exact=exact)``.
    axes : dict or sequence of (axis, SPEC)
        The grid axes, in the table function's argument order, each with a
        default SPEC (``"1-10"``).
    title : str, optional
        Heading of the booklet section (default: the name).
    outcomes : sequence of str, optional
        The probability columns to compare (default: every column of the
        table that is neither an axis nor integer; name them when the table
        also has means or repeated columns).
    sub_rules : dict, optional
        ``{table name: rules class}`` of the system's
        other mechanics (TOML sub-tables of its rule sets).
    replace : bool
        Allow replacing a registered system of that name.
    """
    if name in SYSTEMS and not replace:
        raise ValueError(f"system {name!r} is already registered")
    if isinstance(rules, type) and not issubclass(rules, Rules):
        raise ValueError(
            f"the rules of system {name!r} must be a dataclass derived from analysis.model.rules.Rules, "
            f"got {rules.__name__}"
        )
    system = System(name, rules, table, axes, title or name, outcomes=outcomes, sub_rules=sub_rules or ())
    SYSTEMS[name] = system
    return system


def system(name: str) -> System:
    """The registered system of that name, or a ValueError listing them."""
    if isinstance(name, System):
        return name
    name = _canonical(name)
    if name not in SYSTEMS:
        raise ValueError(f"unknown system {name!r}; the systems are {', '.join(SYSTEMS)}")
    return SYSTEMS[name]


def is_shipped(system_or_name) -> bool:
    """Whether a system's defaults are a source book's rules: a system of the toolkit (its package, or
    registered in Python), not a designer's mechanic file, whose defaults are the file's own rules.
    """
    sys_ = system(system_or_name)
    return bool(sys_.package) or getattr(sys_.rules, "MECHANIC", None) is None


class BaseWords(NamedTuple):
    """What a system's defaults are called, in each place a rule set's changes from them are listed."""

    rules: str  #: "the official rules" / "the file's own rules"
    short: str  #: before a default value: "official 2" / "the file's 2"
    heading: str  #: the column of the default values: "Official" / "The file's own"
    unchanged: str  #: a rule set with no change, in one sentence


#: The words of a shipped system's defaults, and of a designer's mechanic file's.
_OFFICIAL_WORDS = BaseWords(
    "the official rules", "official", "Official", "The official rules of the system, unchanged."
)
_FILE_WORDS = BaseWords("the file's own rules", "the file's", "The file's own", "The file's own rules, unchanged.")


def base_words(system_or_name) -> BaseWords:
    """What a system's defaults are called: the official rules for a shipped system (:func:`is_shipped`),
    the file's own rules for a designer's mechanic file."""
    return _OFFICIAL_WORDS if is_shipped(system_or_name) else _FILE_WORDS


def official(system_or_name) -> "RuleSet":
    """A system's default rule set: the shipped variant equal to its defaults, if any.

    Otherwise ``NAME-official`` for a shipped system (its source book's rules),
    and for a designer's mechanic file the file's own rules, named after the
    file (the rule set that reading the file gives).
    """
    sys_ = system(system_or_name)
    defaults = sys_.rules()
    for rs in variants(sys_.name):
        if rs.rules == defaults and not rs.sub_rules:
            return rs
    if not is_shipped(sys_):  # as reading the file names it (load_file)
        path = MECHANIC_FILES.get(sys_.name, "")
        return RuleSet(sys_.name, Path(path).stem if path else sys_.name, defaults, own_description(sys_), path)
    return RuleSet(sys_.name, f"{sys_.name}-official", defaults, "The defaults (the source book's rules).")


def own_description(system_) -> str:
    """What a designer's mechanic file says of its rules: its ``[mechanic]`` description, else its title."""
    mech = getattr(system_.rules, "MECHANIC", None)
    return (mech.description if mech is not None else "") or system_.title


def _canonical(name):
    """The system name for a name or one of its aliases (unchanged when unknown)."""
    for s in SYSTEMS.values():
        if name in s.aliases:
            return s.name
    return name


def _owner_of(rules: object) -> tuple[System, str | None]:
    """``(system, None)`` for a system's main rules, ``(system, table)`` for the rules of one of its sub-tables."""
    cls = type(rules)
    for s in SYSTEMS.values():
        if s.rules is cls:
            return s, None
    for s in SYSTEMS.values():
        for name, sub in s.sub_rules:
            if sub is cls:
                return s, name
    raise ValueError(f"{type(rules).__name__} is not the rules of any registered system ({', '.join(SYSTEMS)})")


# ---------------------------------------------------------------- rule sets


def _sub_pairs(system_name: str, subs) -> tuple:
    """``subs`` (a dict or pairs) checked against the system, defaults dropped, in the system's order."""
    pairs = tuple(subs.items()) if isinstance(subs, dict) else tuple(tuple(p) for p in subs)
    if not pairs:
        return ()
    classes = system(system_name).sub_rules_classes
    kept = {}
    for pair in pairs:
        if len(pair) != 2:
            raise ValueError(f"sub_rules are (table name, rules) pairs, got {pair!r}")
        name, value = pair
        if name not in classes:
            raise ValueError(
                unknown_field(
                    str(name),
                    list(classes),
                    f"among the {system_name} sub-rules" if classes else f"(system {system_name} has no sub-rules)",
                )
            )
        kept[name] = classes[name].require(value, f"the [{name}] rules")
    return tuple((n, kept[n]) for n in classes if n in kept and kept[n] != classes[n]())


def _flat_changes(rules, prefix: str = "") -> dict:
    """``{dotted field: (default, value)}``; a dataclass that is no Rules is compared field by field."""
    if isinstance(rules, Rules):
        return rules.flat_changes(prefix)
    base = type(rules)()
    return {
        prefix + f.name: (getattr(base, f.name), getattr(rules, f.name))
        for f in dataclasses.fields(rules)
        if getattr(rules, f.name) != getattr(base, f.name)
    }


@dataclass(frozen=True)
class RuleSet:
    """A named rule set of one system.

    Attributes
    ----------
    system : str
        The system's name.
    name : str
        The rule set's name.
    rules : Rules
        The system's main rules (``SYSTEM.rules``), used by ``table`` and
        ``compare``.
    description : str
        One or two sentences for people.
    source : str
        Where it was read from (``shipped:NAME.toml`` or a path).
    sub_rules : dict or tuple of (str, Rules)
        The rules of the system's other mechanics that differ from their
        defaults, by sub-table name (``{"rouse": RouseRules(...)}``); the
        defaults are dropped, so equal rule sets compare equal.
    """

    system: str
    name: str
    rules: Rules
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)
    sub_rules: tuple[tuple[str, Rules], ...] = ()  # as __post_init__ leaves them (a dict is taken too)

    if TYPE_CHECKING:  # what the constructor takes (the dataclass's own __init__ runs)

        def __init__(
            self,
            system: str,
            name: str,
            rules: Rules,
            description: str = "",
            source: str = "",
            sub_rules: Mapping[str, Rules] | Iterable[tuple[str, Rules]] = (),
        ) -> None: ...

    def __post_init__(self) -> None:
        object.__setattr__(self, "sub_rules", _sub_pairs(self.system, self.sub_rules))

    def sub(self, name: str):
        """The rules of one other mechanic (``"rouse"``): as set here, else its defaults."""
        classes = system(self.system).sub_rules_classes
        if name not in classes:
            raise ValueError(
                unknown_field(
                    str(name),
                    list(classes),
                    f"among the {self.system} sub-rules" if classes else f"(system {self.system} has no sub-rules)",
                )
            )
        return dict(self.sub_rules).get(name) or classes[name]()

    def subs(self) -> dict:
        """``{table name: rules}`` of every other mechanic of the system, defaults filled in."""
        if self.system not in SYSTEMS and not self.sub_rules:  # a system not registered (yet)
            return {}
        return {n: self.sub(n) for n in system(self.system).sub_rule_names}

    def changes(self) -> dict:
        """``{field: (default, value)}`` for every field that is not the default.

        Fields of nested rules and of the sub-rule tables are dotted
        (``"rouse.frenzy_at_max"``, ``"conflict.dice.crit_bonus"``).
        """
        out = _flat_changes(self.rules)
        for name, rules in self.sub_rules:
            out.update(_flat_changes(rules, f"{name}."))
        return out

    def fields(self) -> dict:
        """``{field: value}`` of every field of the main rules, in declaration order."""
        return {f.name: getattr(self.rules, f.name) for f in dataclasses.fields(self.rules)}

    def all_fields(self) -> dict:
        """``{dotted field: value}`` of every field: the main rules, then each sub-rules table."""
        out = flat_values(self.rules)
        for name, rules in self.subs().items():
            out.update(flat_values(rules, f"{name}."))
        return out

    def describe(self) -> str:
        """One line: the name and what differs from the system's defaults."""
        changes = self.changes()
        if not changes:
            return f"{self.name} ({self.system} defaults: {_fields_text(self.fields())})"
        text = "; ".join(f"{k} = {show_value(v)} (default {show_value(d)})" for k, (d, v) in changes.items())
        return f"{self.name} ({self.system}: {text})"

    def to_dict(self) -> dict:
        """The TOML document as a dict: system, name, description, every field, then one table per sub-rules."""
        out = {"system": self.system, "name": self.name}
        if self.system in MECHANIC_FILES:  # a designer's mechanic: the file that defines the system
            out["mechanic"] = MECHANIC_FILES[self.system]
        if self.description:
            out["description"] = self.description
        out.update(_rules_dict(self.rules))
        for name, rules in self.subs().items():
            out[name] = rules.to_dict()
        return out

    def to_toml(self) -> str:
        """The rule set as TOML text that :func:`from_toml` reads back to an equal rule set."""
        head = (
            f"# beastodds rule set for {self.system}; a field or table left out takes its default, "
            f'and "{NONE_TEXT}" stands for an absent value\n'
        )

        # tomli_w leaves C1 controls and bidirectional overrides raw: written as \uXXXX, read back the same
        return head + escape_controls(_one_line_arrays(tomli_w.dumps(self.to_dict())))

    def save(self, path) -> Path:
        """Write :meth:`to_toml` to ``path`` atomically (:mod:`analysis.model.safeio`); return the path."""
        path = Path(path)

        return atomic_write(path, self.to_toml())


def flat_values(rules, prefix: str = "") -> dict:
    """``{dotted field: value}`` of a rules instance, nested rules flattened (``"dice.crit_bonus"``)."""
    out = {}
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if isinstance(value, Rules):
            out.update(flat_values(value, f"{prefix}{f.name}."))
        else:
            out[prefix + f.name] = value
    return out


def _rules_dict(rules) -> dict:
    if isinstance(rules, Rules):
        return rules.to_dict()
    return {f.name: _toml_value(getattr(rules, f.name)) for f in dataclasses.fields(rules)}


def _toml_value(v):
    if v is None:
        return NONE_TEXT
    if isinstance(v, Rules):
        return v.to_dict()
    if isinstance(v, tuple):
        return list(v)
    return v


_INT_ARRAY = re.compile(r"\[\n((?:[ \t]*-?\d+,\n)+)[ \t]*\]")


def _one_line_arrays(text: str) -> str:
    """TOML text with each array of whole numbers on one line (``[0, 1, 1]``)."""
    return _INT_ARRAY.sub(lambda m: "[" + ", ".join(x.strip().rstrip(",") for x in m.group(1).splitlines()) + "]", text)


def show_value(v) -> str:
    """A field's value as it reads in a TOML file: ``true``, ``2``, ``"high"``, ``"none"``, ``[0, 1]``."""
    if isinstance(v, Rules):
        return "{" + ", ".join(f"{k} = {show_value(x)}" for k, x in v.field_values().items()) + "}"
    return _one_line_arrays(tomli_w.dumps({"x": _toml_value(v)})).strip()[len("x = ") :]


def _fields_text(fields: dict) -> str:
    return ", ".join(f"{k} = {show_value(v)}" for k, v in fields.items())


def _rules_class(sys_: System) -> type[Rules]:
    cls = sys_.rules
    if not (isinstance(cls, type) and issubclass(cls, Rules)):
        raise ValueError(
            f"the rules of system {sys_.name!r} are {getattr(cls, '__name__', cls)!r}, "
            f"not a rules class made with analysis.model.rules.Rules, so they cannot be read from TOML"
        )
    return cls


def register_mechanic_file(path, *, replace_same: bool = True) -> "System":
    """Read a mechanic file (:func:`analysis.model.spec.load`) and add its system to :data:`SYSTEMS`;
    return the system.

    Registering the same mechanic again is harmless, and the same file read
    again after an edit replaces its system (a notebook that reads it again
    sees the edit); a file whose name is another system's (a shipped one, or
    a different file read before) is refused with one sentence.
    """
    return register_mechanic(load_mechanic(path, str(path)), replace_same=replace_same, path=path)


def _taken_by(mech: Mechanic, known: System | None) -> str | None:
    """What else the mechanic's name names, in words (a shipped system, or another name of one), or None: a
    mechanic file may not take it.  A shipped system's own file is no clash.  (The command line also keeps
    its commands' names: :func:`analysis.cli.register_files`.)"""
    name = mech.name
    if known is not None and known.package:
        own = getattr(known.rules, "MECHANIC", None) == mech or shipped(known) == mech
        return None if own else f"the shipped system {known.name}"
    for other in SYSTEMS.values():
        if other.package and name in other.aliases:
            return f"the shipped system {other.name} (its other name)"
    return None


def register_mechanic(mech: Mechanic, *, replace_same: bool = True, path=None) -> "System":
    """Add a mechanic's system to :data:`SYSTEMS` (see :func:`register_mechanic_file`).

    ``path``: the file it was read from, recorded in :data:`MECHANIC_FILES`.
    """
    known = SYSTEMS.get(mech.name)
    named = _taken_by(mech, known)
    if named is not None:
        raise MechanicError(
            f"{mech.origin}: {mech.name!r} is the name of {named}; give the mechanic another name in [mechanic] name"
        )
    if known is not None:
        same = getattr(known.rules, "MECHANIC", None)
        if replace_same and (same == mech or shipped(known) == mech):  # read again, or a shipped system's own file
            return known
        edited = replace_same and path is not None and MECHANIC_FILES.get(mech.name) == str(Path(path).resolve())
        if not edited:
            raise MechanicError(
                f"{mech.origin}: a system named {mech.name!r} already exists; give the "
                f"mechanic another name in [mechanic] name"
            )
    taken = [p.name for p in mech.parameters if hasattr(Rules, p.name)]
    if taken:
        raise MechanicError(
            f"{mech.origin}, parameter {taken[0]!r}: the name is taken by the rules "
            f"themselves ({', '.join(n for n in dir(Rules) if not n.startswith('_'))}); "
            f"call it otherwise"
        )
    try:
        system = system_of(mech)
    except ValueError as exc:
        raise MechanicError(f"{mech.origin}: {exc}") from None
    SYSTEMS[mech.name] = system
    if path is not None:
        MECHANIC_FILES[mech.name] = str(Path(path).resolve())
    return system


def _mechanic_of(ref, base, fail: Callable[[str], NoReturn]) -> str:
    """Register the mechanic file a rule set names (``mechanic = "path.toml"``); its system's name."""
    if not isinstance(ref, str) or not ref.strip() or "\0" in ref:
        fail(f"field 'mechanic' must be the path of a mechanic file in quotes, got {toml_kind(ref)}")
    path = Path(base if base is not None else ".") / ref.strip()
    try:
        text = read_text(path)
    except ValueError as exc:
        fail(f"mechanic = {ref.strip()!r}: " + str(exc).replace("rule-set file", "mechanic file"))
    if not is_mechanic_text(text):
        fail(f"mechanic = {ref.strip()!r}: {path} is not a mechanic file (it has no [mechanic] table)")
    try:
        return register_mechanic(mechanic_from_toml(text, source=str(path)), path=path).name
    except ValueError as exc:
        fail(f"mechanic = {ref.strip()!r}: {exc}")


def register_file(path) -> System | None:
    """Register the mechanic that a file is, or names with ``mechanic = "..."``; nothing for other files.

    The command line calls it for the files it is handed before it builds its
    options, so that ``beastodds table MY-MECHANIC.toml --my-axis 1-3`` knows
    the file's axes.  A file that cannot be read or is no valid TOML is left
    for the command to refuse; a mechanic that is wrong raises a ValueError
    of one sentence naming its file.  Returns the system of a mechanic file
    itself (None for another file).
    """
    path = Path(path)
    try:
        text = read_text(path)
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except (ValueError, RecursionError):  # tomllib.TOMLDecodeError is a ValueError
        return None
    if isinstance(data.get("mechanic"), dict):
        return register_mechanic(mechanic_from_toml(text, source=str(path)), path=path)
    elif "mechanic" in data:

        def fail(message):
            raise ValueError(f"{path}: {message}")

        _mechanic_of(data["mechanic"], path.parent, fail)
    return None


def from_dict(data: dict, source: str = "rule set", default_name: str | None = None, base=None) -> RuleSet:
    """Build and validate a :class:`RuleSet` from a parsed TOML document.

    Top-level keys are ``system``, ``name``, ``description`` and the fields
    of the system's main rules; a table named after one of the system's
    sub-rules (``[rouse]``) sets fields of that mechanic.  A key
    ``mechanic = "path.toml"`` names a mechanic file (see
    :mod:`analysis.model.spec`), relative to the folder ``base`` (the
    rule-set file's own folder; default: the working folder): it is
    registered first, and ``system`` may then be left out.  Every error is a
    ValueError that starts with ``source`` and names the offending key
    (dotted inside a table) and what it may be.
    """

    def fail(message):
        raise ValueError(f"{source}: {message}")

    if not isinstance(data, dict):
        fail("a rule set is a TOML document of key = value lines")
    data = dict(data)
    if "mechanic" in data:
        mech = _mechanic_of(data.pop("mechanic"), base, fail)
        data.setdefault("system", mech)
        if data["system"] != mech:
            fail(
                f"system = {toml_kind(data['system'])} but its mechanic file names the system {mech!r}; "
                f"give system = {mech!r} or leave it out"
            )
    if "system" not in data:
        fail(
            f'no "system" key; say which system the rules are for, e.g. system = "{next(iter(SYSTEMS))}" '
            f"(the systems are {', '.join(SYSTEMS)})"
        )
    name_of_system = data.pop("system")
    if isinstance(name_of_system, str):
        name_of_system = _canonical(name_of_system)
    if not isinstance(name_of_system, str) or name_of_system not in SYSTEMS:
        fail(f"field 'system' must be one of {', '.join(SYSTEMS)}, got {toml_kind(name_of_system)}")
    sys_ = SYSTEMS[name_of_system]
    name = data.pop("name", default_name or f"{sys_.name}-custom")
    if not isinstance(name, str) or not name.strip() or "\n" in name:
        fail(f"field 'name' must be a one-line text in quotes, got {toml_kind(name)}")
    description = data.pop("description", "")
    if not isinstance(description, str):
        fail(f"field 'description' must be a text in quotes, got {toml_kind(description)}")
    try:
        cls = _rules_class(sys_)
    except ValueError as exc:
        fail(str(exc))
    main_fields = cls.field_names()
    tables = list(sys_.sub_rule_names)
    clash = [n for n in tables if n in main_fields]
    if clash:
        fail(f"system {sys_.name} names {clash[0]!r} both as a rules field and as a sub-rules table")
    main, subs = {}, {}
    for key, value in data.items():
        if key in main_fields:
            main[key] = value
        elif key in tables:
            subs[key] = value
        else:
            also = "and system, name, description" + (
                f"; tables {', '.join(f'[{t}]' for t in tables)}" if tables else ""
            )
            fail(unknown_field(str(key), list(main_fields) + tables, f"for a {sys_.name} rule set", also))
    try:
        rules = cls.from_dict(main)
        classes = sys_.sub_rules_classes if subs else {}
        sub_rules = {}
        for key, value in subs.items():
            sub_cls = classes[key]
            if not isinstance(value, dict):
                raise ValueError(
                    f"field {key!r} must be a table of {sub_cls.__name__} fields ([{key}]), got {toml_kind(value)}"
                )
            sub_rules[key] = sub_cls.from_dict(value, prefix=f"{key}.")
    except (ValueError, TypeError) as exc:
        fail(str(exc))
    return RuleSet(sys_.name, name.strip(), rules, description.strip(), source, sub_rules)


def from_toml(text: str, source: str = "rule set", default_name: str | None = None, base=None) -> RuleSet:
    """Parse and validate TOML text (see the module docstring for the layout; ``base``: see :func:`from_dict`)."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{source}: not valid TOML: {toml_error(text, exc)}") from None
    except RecursionError:
        raise ValueError(
            f"{source}: its arrays or tables are nested too deeply to read (a rule set needs two or three levels)"
        ) from None
    return from_dict(data, source, default_name, base)


def load_file(path) -> RuleSet:
    """Load and validate a rule-set TOML file (read by :func:`read_text`).

    A mechanic file (one with a ``[mechanic]`` table, see
    :mod:`analysis.model.spec`) registers its system and gives that
    system's default rule set, named after the file.
    """
    path = Path(path)
    text = read_text(path)
    if "[mechanic]" in text:
        if is_mechanic_text(text):
            system_ = register_mechanic(mechanic_from_toml(text, source=str(path)), path=path)
            if is_shipped(system_):  # a shipped system's own file: its official rules
                return official(system_)
            return RuleSet(system_.name, path.stem, system_.rules(), own_description(system_), str(path))
    return from_toml(text, str(path), default_name=path.stem, base=path.parent)


# ------------------------------------------------------- shipped variants


def _shipped_files() -> list:
    """Every system's shipped rule-set files (``analysis/systems/*/variants/*.toml``)."""
    return [p for s in SYSTEMS.values() for p in s.variant_files()]


def _shipped_system(path) -> str | None:
    return _canonical(_system_and_name(read_text(path))[0])


@functools.lru_cache(maxsize=256)
def _system_and_name(text: str) -> tuple:
    """``(system, name)`` as a rule-set file's text gives them (None for either it lacks, both for text
    that is not TOML): read once per text, for the shipped files looked through by name."""
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return None, None
    return data.get("system"), data.get("name")


def _shipped_named(name: str) -> RuleSet | None:
    """The shipped rule set called ``name`` as :func:`variants` gives it, with only its own file read
    in full (the others only for their names), or None."""
    found = None
    for path in _shipped_files():
        sname, given = _system_and_name(read_text(path))
        given = path.name[:-5] if given is None else given
        if _canonical(sname) in SYSTEMS and isinstance(given, str) and given.strip() == name:
            found = path  # the last one, as in {rs.name: rs for rs in variants()}
    if found is None:
        return None
    rs = from_toml(read_text(found), f"shipped rule set {found.name}", default_name=found.name[:-5])
    return dataclasses.replace(rs, source=f"shipped:{found.name}")


def variants(system_name: str | None = None) -> list:
    """The shipped rule sets of every registered system (or of one), defaults first."""
    if system_name is not None:
        system(system_name)
    out = []
    for path in _shipped_files():
        sname = _shipped_system(path)
        if sname not in SYSTEMS or (system_name is not None and sname != system_name):
            continue
        rs = from_toml(read_text(path), f"shipped rule set {path.name}", default_name=path.name[:-5])
        out.append(dataclasses.replace(rs, source=f"shipped:{path.name}"))
    order = list(SYSTEMS)
    return sorted(out, key=lambda r: (order.index(r.system), bool(r.changes()), r.name))


def names() -> list:
    """Names of the shipped rule sets of the registered systems."""
    return [rs.name for rs in variants()]


def _is_file(text: str) -> bool:
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # a name with a NUL byte or too long for a path
        return False


def _exists(text: str) -> bool:
    try:
        return os.path.lexists(text)
    except (OSError, ValueError):
        return False


def load(ref) -> RuleSet:
    """A rule set from whatever names one.

    Parameters
    ----------
    ref : RuleSet, rules dataclass instance, shipped name, or path
        A shipped variant's name (``"v5-official"``), a system's name
        (``"v5"``: its official rules, :func:`official`), a path to a ``.toml``
        file (a ``str`` ending in ``.toml`` or that names an existing file,
        or a ``Path``), a :class:`RuleSet`, or a bare rules instance such as
        ``V5Rules(crit_bonus=3)`` (named after the shipped variant it equals,
        else ``<system>-custom``).  The rules of a sub-table, such as
        ``RouseRules(...)``, make a rule set of their system with the
        default main rules.
    """
    if isinstance(ref, RuleSet):
        return ref
    if isinstance(ref, Path) or (isinstance(ref, str) and (ref.endswith(".toml") or _is_file(ref))):
        return load_file(ref)
    if isinstance(ref, str):
        found = _shipped_named(ref)
        if found is not None:
            return found
        if _exists(ref):  # a folder, a device or a pipe: say what it is
            return load_file(ref)
        if _canonical(ref) in SYSTEMS:  # a system's name: its official rules
            return official(ref)
        shipped = {rs.name: rs for rs in variants()}
        hint = did_you_mean(ref, list(shipped) + list(SYSTEMS))
        raise ValueError(
            f"unknown rule set {ref!r}{hint}: not a .toml file, a system's name nor a shipped "
            f"variant; the shipped ones are {', '.join(shipped)}"
        )
    if dataclasses.is_dataclass(ref) and not isinstance(ref, type):
        sys_, table = _owner_of(ref)
        rules = cast(Rules, ref)  # an instance of one of the system's rules classes (_owner_of)
        if table is None:
            wanted = RuleSet(sys_.name, f"{sys_.name}-custom", rules, "", "")
        else:
            wanted = RuleSet(sys_.name, f"{sys_.name}-custom", sys_.rules(), "", "", {table: rules})
        for rs in variants(sys_.name):
            if rs.rules == wanted.rules and rs.sub_rules == wanted.sub_rules:
                return rs
        return wanted
    raise ValueError(f"a rule set is a shipped name, a .toml path or a rules object, got {ref!r}")
