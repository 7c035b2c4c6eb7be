"""Rule sets as data: named house-rule variants of each game system, kept as small TOML files.

A *system* is a package under ``analysis/systems`` (see
:mod:`analysis.system`): one rules dataclass and one tidy table function
over a grid of axes.  A *rule set* is one instance of that dataclass with a
name, loaded from or saved to TOML::

    system = "v5"
    name = "v5-two-hunger-ones-for-bestial"
    description = "A failure is bestial only when two Hunger dice show a 1."
    bestial_hunger_ones = 2

Fields left out take the system's default (the official ruling).  Each
system ships named variants in its ``variants/`` folder (``beastodds rules``
lists them); anywhere a rule set is wanted, a shipped name, a path to a
``.toml`` file, a :class:`RuleSet` or a bare rules dataclass will do.

The table function is called as ``table(*axis_values, rules=rules,
exact=exact)`` with one list of integers per axis, in the order given, and
must return a tidy DataFrame with one column per axis.  Its other columns
that are not integers (or the ``outcomes=`` named) are the outcomes
compared by :func:`analysis.tables.compare`.
"""
from __future__ import annotations

import dataclasses
import difflib
import importlib
import re
import tomllib
import types
import typing
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import tomli_w


#: How an absent value (``None``, e.g. "no again") is written in TOML.
NONE_TEXT = "none"


# ----------------------------------------------------------------- systems

from .system import RESERVED, System, resolve as _resolve  # noqa: E402
from .systems import discover  # noqa: E402

#: The systems by name, in listing order: every package under
#: ``analysis/systems`` (see :mod:`analysis.system`), plus any added at run
#: time with :func:`register`.
SYSTEMS: dict[str, System] = discover()


def register(name: str, rules, table, axes, title: str | None = None, *,
             outcomes=None, replace: bool = False) -> System:
    """Register a game system with the workbench.

    Parameters
    ----------
    name : str
        Lowercase letters and digits (``"beast"``).
    rules : type or str
        Its frozen rule-set dataclass, or ``"module:Class"`` (imported when
        first needed).
    table : callable or str
        Its tidy table function, or ``"module:function"``; called as
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
    replace : bool
        Allow replacing a registered system of that name.
    """
    if name in SYSTEMS and not replace:
        raise ValueError(f"system {name!r} is already registered")
    system = System(name, rules, table, axes, title or name, outcomes=outcomes)
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


def _canonical(name):
    """The system name for a name or one of its aliases (unchanged when unknown)."""
    for s in SYSTEMS.values():
        if name in s.aliases:
            return s.name
    return name


def system_of_rules(rules) -> System:
    """The registered system whose rules dataclass ``rules`` is an instance of."""
    for s in SYSTEMS.values():
        if type(rules) is s.rules_class:
            return s
    raise ValueError(f"{type(rules).__name__} is not the rules of any registered system "
                     f"({', '.join(SYSTEMS)})")


# ---------------------------------------------------------------- rule sets

@dataclass(frozen=True)
class RuleSet:
    """A named rule set of one system: ``rules`` is its frozen dataclass instance."""

    system: str
    name: str
    rules: object
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)

    def changes(self) -> dict:
        """``{field: (default, value)}`` for every field that is not the default."""
        base = type(self.rules)()
        return {f.name: (getattr(base, f.name), getattr(self.rules, f.name))
                for f in dataclasses.fields(self.rules)
                if getattr(self.rules, f.name) != getattr(base, f.name)}

    def fields(self) -> dict:
        """``{field: value}`` of every field, in declaration order."""
        return {f.name: getattr(self.rules, f.name) for f in dataclasses.fields(self.rules)}

    def describe(self) -> str:
        """One line: the name and what differs from the system's defaults."""
        changes = self.changes()
        if not changes:
            return f"{self.name} ({self.system} defaults: {_fields_text(self.fields())})"
        text = "; ".join(f"{k} = {show_value(v)} (default {show_value(d)})"
                         for k, (d, v) in changes.items())
        return f"{self.name} ({self.system}: {text})"

    def to_dict(self) -> dict:
        """The TOML document as a dict: system, name, description, every field."""
        out = {"system": self.system, "name": self.name}
        if self.description:
            out["description"] = self.description
        out.update({k: _toml_value(v) for k, v in self.fields().items()})
        return out

    def to_toml(self) -> str:
        """The rule set as TOML text that :func:`from_toml` reads back to an equal rule set."""
        head = (f"# beastodds rule set for {self.system}; a field left out takes its default, "
                f'and "{NONE_TEXT}" stands for an absent value\n')
        return head + tomli_w.dumps(self.to_dict())

    def save(self, path) -> Path:
        """Write :meth:`to_toml` to ``path``; return the path."""
        path = Path(path)
        path.write_text(self.to_toml(), encoding="utf-8")
        return path


def _toml_value(v):
    return NONE_TEXT if v is None else v


def show_value(v) -> str:
    """A field's value as it reads in a TOML file: ``true``, ``2``, ``"high"``, ``"none"``."""
    return tomli_w.dumps({"x": _toml_value(v)}).strip()[len("x = "):]


def _fields_text(fields: dict) -> str:
    return ", ".join(f"{k} = {show_value(v)}" for k, v in fields.items())


def _kinds(cls) -> dict:
    """``{field: (base type or None, optional)}`` from the dataclass's annotations."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # an annotation that does not resolve: judge by the default
        hints = {}
    defaults = cls()
    out = {}
    for f in dataclasses.fields(cls):
        hint = hints.get(f.name, type(getattr(defaults, f.name)))
        optional = False
        if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
            args = typing.get_args(hint)
            optional = type(None) in args
            args = [a for a in args if a is not type(None)]
            hint = args[0] if len(args) == 1 else None
        out[f.name] = (hint if hint in (bool, int, float, str) else None, optional)
    return out


def field_help(cls) -> dict:
    """``{field: one-line help}`` from the numpy-style ``Attributes`` section of a rules docstring."""
    doc = (cls.__doc__ or "").expandtabs()
    out, current, in_attrs = {}, None, False
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped in ("Attributes", "Parameters"):
            in_attrs = True
            continue
        if not in_attrs:
            continue
        if stripped and set(stripped) == {"-"}:
            continue
        if stripped in ("Notes", "Examples", "See Also", "References", "Methods"):
            break
        m = re.match(r"^\s{0,4}(\w+) : ", line)
        if m:
            current = m.group(1)
            out[current] = []
        elif current and stripped:
            out[current].append(stripped)
    return {k: " ".join(v) for k, v in out.items() if v}


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("``", "")).strip()


def _toml_kind(value) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return f"a {type(value).__name__}"


_EXPECT = {bool: "true or false", int: "a whole number", float: "a number",
           str: "a text in quotes"}


def _field_value(name: str, value, kind, optional: bool):
    if optional and isinstance(value, str) and value.strip().lower() == NONE_TEXT and kind is not str:
        return None
    ok = {bool: lambda v: isinstance(v, bool),
          int: lambda v: isinstance(v, int) and not isinstance(v, bool),
          float: lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
          str: lambda v: isinstance(v, str)}
    if kind is None:
        return value
    if not ok[kind](value):
        expect = _EXPECT[kind] + (f' or "{NONE_TEXT}"' if optional else "")
        raise ValueError(f"field {name!r} must be {expect}, got {_toml_kind(value)}")
    return float(value) if kind is float else value


def from_dict(data: dict, source: str = "rule set", default_name: str | None = None) -> RuleSet:
    """Build and validate a :class:`RuleSet` from a parsed TOML document.

    Every error is a ValueError that starts with ``source`` and names the
    offending key and what it may be.
    """
    def fail(message):
        raise ValueError(f"{source}: {message}")

    if not isinstance(data, dict):
        fail("a rule set is a TOML document of key = value lines")
    data = dict(data)
    if "system" not in data:
        fail(f'no "system" key; say which system the rules are for, e.g. system = "v5" '
             f"(the systems are {', '.join(SYSTEMS)})")
    name_of_system = data.pop("system")
    if isinstance(name_of_system, str):
        name_of_system = _canonical(name_of_system)
    if not isinstance(name_of_system, str) or name_of_system not in SYSTEMS:
        fail(f"field 'system' must be one of {', '.join(SYSTEMS)}, got {_toml_kind(name_of_system)}")
    sys_ = SYSTEMS[name_of_system]
    name = data.pop("name", default_name or f"{sys_.name}-custom")
    if not isinstance(name, str) or not name.strip() or "\n" in name:
        fail(f"field 'name' must be a one-line text in quotes, got {_toml_kind(name)}")
    description = data.pop("description", "")
    if not isinstance(description, str):
        fail(f"field 'description' must be a text in quotes, got {_toml_kind(description)}")
    cls = sys_.rules_class
    kinds = _kinds(cls)
    allowed = list(kinds)
    values = {}
    for key, value in data.items():
        if key not in kinds:
            close = difflib.get_close_matches(key, allowed, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            fail(f"unknown field {key!r} for a {sys_.name} rule set{hint}; the fields are "
                 f"{', '.join(allowed)} (and system, name, description)")
        try:
            values[key] = _field_value(key, value, *kinds[key])
        except ValueError as exc:
            about = field_help(cls).get(key)
            fail(str(exc) + (f" ({key}: {_plain(about)})" if about else ""))
    try:
        rules = cls(**values)
    except (ValueError, TypeError) as exc:
        fail(str(exc))
    return RuleSet(sys_.name, name.strip(), rules, description.strip(), source)


def _toml_error(text: str, exc: tomllib.TOMLDecodeError) -> str:
    msg = str(exc)
    m = re.search(r"line (\d+)", msg)
    if m:
        lines = text.splitlines()
        n = int(m.group(1))
        if 1 <= n <= len(lines) and lines[n - 1].strip():
            msg += f": {lines[n - 1].strip()!r}"
    return msg


def from_toml(text: str, source: str = "rule set", default_name: str | None = None) -> RuleSet:
    """Parse and validate TOML text (see the module docstring for the layout)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{source}: not valid TOML: {_toml_error(text, exc)}") from None
    return from_dict(data, source, default_name)


def load_file(path) -> RuleSet:
    """Load and validate a rule-set TOML file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{path}: no such rule-set file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: cannot be read as a text file ({exc})") from None
    return from_toml(text, str(path), default_name=path.stem)


# ------------------------------------------------------- shipped variants

def _shipped_files() -> list:
    """Every system's shipped rule-set files (``analysis/systems/*/variants/*.toml``)."""
    return [p for s in SYSTEMS.values() for p in s.variant_files()]


def _shipped_system(path) -> str | None:
    try:
        return _canonical(tomllib.loads(path.read_text(encoding="utf-8")).get("system"))
    except tomllib.TOMLDecodeError:
        return None


def variants(system_name: str | None = None) -> list:
    """The shipped rule sets of every registered system (or of one), defaults first.

    """
    if system_name is not None:
        system(system_name)
    out = []
    for path in _shipped_files():
        sname = _shipped_system(path)
        if sname not in SYSTEMS or (system_name is not None and sname != system_name):
            continue
        rs = from_toml(path.read_text(encoding="utf-8"), f"shipped rule set {path.name}",
                       default_name=path.name[:-5])
        out.append(dataclasses.replace(rs, source=f"shipped:{path.name}"))
    order = list(SYSTEMS)
    return sorted(out, key=lambda r: (order.index(r.system), bool(r.changes()), r.name))


def names() -> list:
    """Names of the shipped rule sets of the registered systems."""
    return [rs.name for rs in variants()]


def load(ref) -> RuleSet:
    """A rule set from whatever names one.

    Parameters
    ----------
    ref : RuleSet, rules dataclass instance, shipped name, or path
        A shipped variant's name (``"v5-official"``), a path to a ``.toml``
        file (a ``str`` ending in ``.toml`` or that names an existing file,
        or a ``Path``), a :class:`RuleSet`, or a bare rules instance such as
        ``V5Rules(crit_bonus=3)`` (named after the shipped variant it equals,
        else ``<system>-custom``).
    """
    if isinstance(ref, RuleSet):
        return ref
    if isinstance(ref, Path) or (isinstance(ref, str) and (ref.endswith(".toml") or Path(ref).is_file())):
        return load_file(ref)
    if isinstance(ref, str):
        shipped = {rs.name: rs for rs in variants()}
        if ref in shipped:
            return shipped[ref]
        close = difflib.get_close_matches(ref, list(shipped), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise ValueError(f"unknown rule set {ref!r}{hint}: not a .toml file nor a shipped variant; "
                         f"the shipped ones are {', '.join(shipped)}")
    if dataclasses.is_dataclass(ref) and not isinstance(ref, type):
        sys_ = system_of_rules(ref)
        for rs in variants(sys_.name):
            if rs.rules == ref:
                return rs
        return RuleSet(sys_.name, f"{sys_.name}-custom", ref, "", "")
    raise ValueError(f"a rule set is a shipped name, a .toml path or a rules object, got {ref!r}")
