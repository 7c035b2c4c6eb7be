"""Rules as data: one frozen-dataclass base for the rule sets of every game system.

A rules class lists its knobs as fields made with :func:`rule`, each with its
default (the source book's ruling), its range or choices and a one-line
help::

    @dataclass(frozen=True)
    class RouseRules(Rules):
        success_face: int = rule(6, range=(2, 10), help="Lowest face that keeps Hunger.")
        frenzy_at_max: bool = rule(True, help="A failed check at Hunger 5 calls for a frenzy test.")

The base then validates every field when an instance is made (a bool must be
``True`` or ``False``, an int a whole number in its range, a text one of its
choices, a nested rules field an instance of its class), and gives every
rules class :meth:`Rules.changes`, :meth:`Rules.fields_info`,
:meth:`Rules.to_dict` and :meth:`Rules.from_dict` (nested rules as TOML
sub-tables).  A check that involves two fields goes in the class's
:meth:`Rules.check` hook.

Every error is a ``ValueError`` of one sentence that names the field:
``crit_bonus must be 0..20, got 25``.
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass
from typing import Any, Callable, Iterable, NoReturn, Self, cast

from analysis.model.validate import MAX_WHOLE, InputError, did_you_mean

#: How an absent value (``None``, e.g. "no again") is written in TOML.
NONE_TEXT = "none"

_KINDS = (bool, int, float, str, tuple)
#: The built-in ``type`` (:func:`rule` has an argument of that name).
builtins_type = type


@dataclass(frozen=True)
class FieldInfo:
    """What a rules field is: the answer of :meth:`Rules.fields_info`.

    Attributes
    ----------
    name : str
        The field's name (its key in TOML).
    type : type
        ``bool``, ``int``, ``float``, ``str``, ``tuple`` (of whole numbers) or
        a :class:`Rules` subclass (a nested rule set, a TOML sub-table).
    default : object
        The default value (the source book's ruling).
    help : str
        One line saying what the field does.
    range : tuple of (int, int) or None
        Lowest and highest value allowed, both included (numbers only).
    choices : tuple or None
        The values allowed, in the order they are listed to a player.
    none : str or None
        Where ``None`` is allowed: what it means (``""`` when it needs no
        words); None where it is not allowed.
    length : int or None
        For a tuple: how many numbers it holds.
    item_range : tuple of (int, int) or None
        For a tuple: the range of each number.
    items : type or None
        For a tuple: ``int`` (whole numbers, the default) or None (any
        values, which the class's :meth:`Rules.check` validates).
    """

    name: str
    type: builtins_type
    default: object
    help: str
    range: tuple[Any, Any] | None = None
    choices: tuple[Any, ...] | None = None
    none: str | None = None
    length: int | None = None
    item_range: tuple[int, int] | None = None
    items: builtins_type | None = int

    @property
    def nested(self) -> bool:
        """Whether the field holds a nested rule set (a TOML sub-table)."""
        return isinstance(self.type, type) and issubclass(self.type, Rules)

    def allowed(self, toml: bool = False) -> str:
        """What the field may be, in a few words (``"0..20"``, ``"one of up, down"``)."""
        return _expect(self, toml)


def rule(
    default: Any,
    *,
    help: str,
    range: tuple[Any, Any] | None = None,
    choices: Iterable[Any] | None = None,
    none: bool | str | None = None,
    type: type | None = None,
    length: int | None = None,
    item_range: tuple[int, int] | None = None,
    items: type | None = int,
) -> Any:
    """A field of a :class:`Rules` class: its default, what it may be and a one-line help.

    Parameters
    ----------
    default : object
        The default value; its type is the field's type unless ``type`` is
        given (a default of None needs ``type``).
    help : str
        One line a player understands.
    range : tuple of (int, int), optional
        Lowest and highest whole number allowed.
    choices : sequence, optional
        The values allowed.
    none : bool or str, optional
        Allow ``None`` (``"none"`` in TOML); a text says what it means
        (``"no again"``).
    type : type, optional
        The field's type where the default does not tell it.
    length, item_range : optional
        For a tuple of whole numbers: how many, and the range of each.
    items : type or None
        For a tuple: ``int`` (default) or None for values of any kind
        (lists in it become tuples; the class's ``check`` validates them).

    Returns
    -------
    dataclasses.Field
        The field, its description kept in ``metadata["rule"]``.
    """
    kind = type if type is not None else builtins_type(default)
    if not (kind in _KINDS or (isinstance(kind, builtins_type) and issubclass(kind, Rules))):
        raise TypeError(f"a rules field is a bool, int, float, str, tuple or Rules, not {kind!r}")
    if not isinstance(help, str) or not help.strip() or "\n" in help.strip():
        raise TypeError("a rules field needs a one-line help text")
    if none is True:
        none = ""
    elif none is False:
        none = None
    spec = {
        "type": kind,
        "help": help.strip(),
        "range": tuple(range) if range is not None else None,
        "choices": tuple(choices) if choices is not None else None,
        "none": none,
        "length": length,
        "item_range": tuple(item_range) if item_range is not None else None,
        "items": items,
    }
    return dataclasses.field(default=default, metadata={"rule": spec})


_INFO_CACHE: dict[type[Rules], tuple[FieldInfo, ...]] = {}


@dataclass(frozen=True)
class Rules:
    """Base of every rules dataclass: validated fields, changes, field descriptions, TOML dicts.

    Subclasses are ``@dataclass(frozen=True)`` and make every field with
    :func:`rule`.  Instances are values: equal when every field is equal,
    hashable, immutable.
    """

    def __post_init__(self) -> None:
        for info in self.fields_info():
            value = getattr(self, info.name)
            checked = check_value(info, value, info.name)
            if checked is not value:
                object.__setattr__(self, info.name, checked)
        self.check()

    def check(self) -> None:
        """Cross-field checks of a subclass; raise ValueError naming the fields (default: none)."""

    # ------------------------------------------------------------ describing
    @classmethod
    def fields_info(cls) -> tuple[FieldInfo, ...]:
        """The :class:`FieldInfo` of every field, in declaration order."""
        infos = _INFO_CACHE.get(cls)
        if infos is None:
            out = []
            for f in dataclasses.fields(cls):
                spec = f.metadata.get("rule")
                if spec is None:
                    raise TypeError(f"{cls.__name__}.{f.name} is not made with rule(...)")
                out.append(
                    FieldInfo(
                        f.name,
                        spec["type"],
                        f.default,
                        spec["help"],
                        spec["range"],
                        spec["choices"],
                        spec["none"],
                        spec["length"],
                        spec["item_range"],
                        spec["items"],
                    )
                )
            infos = _INFO_CACHE[cls] = tuple(out)
        return infos

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """The field names, in declaration order."""
        return tuple(i.name for i in cls.fields_info())

    @classmethod
    def require(cls, value: object, name: str = "rules") -> Self:
        """``value`` if it is an instance of this class, else a ValueError naming ``name``."""
        if not isinstance(value, cls):
            raise ValueError(f"{name} must be a {cls.__name__}, got {builtins_type(value).__name__}")
        return value

    def field_values(self) -> dict[str, Any]:
        """``{field: value}`` of every field, in declaration order."""
        return {i.name: getattr(self, i.name) for i in self.fields_info()}

    def changes(self) -> dict[str, Any]:
        """``{field: value}`` of the fields that differ from the defaults of this class."""
        base = builtins_type(self)()
        return {k: v for k, v in self.field_values().items() if v != getattr(base, k)}

    def flat_changes(self, prefix: str = "") -> dict[str, tuple[Any, Any]]:
        """``{dotted field: (default, value)}`` of what differs, nested rules field by field."""
        return diff(builtins_type(self)(), self, prefix)

    # ------------------------------------------------------------ TOML
    def to_dict(self) -> dict[str, Any]:
        """Every field as TOML writes it: ``None`` as ``"none"``, tuples as arrays, nested rules as tables."""
        out: dict[str, Any] = {}
        for info in self.fields_info():
            value = getattr(self, info.name)
            if value is None:
                out[info.name] = NONE_TEXT
            elif isinstance(value, Rules):
                out[info.name] = value.to_dict()
            elif isinstance(value, tuple):
                out[info.name] = list(value)
            else:
                out[info.name] = value
        return out

    @classmethod
    def from_dict(cls, data: object, prefix: str = "") -> Self:
        """An instance from a parsed TOML table; fields left out take their defaults.

        Parameters
        ----------
        data : dict
            ``{field: value}`` as TOML gives it (``"none"`` for None, arrays
            for tuples, tables for nested rules).
        prefix : str
            The table's dotted name and a dot (``"conflict."``), put before
            every field name in error messages.

        Raises
        ------
        ValueError
            One sentence naming the field (dotted) and what it may be; an
            unknown field gets a "did you mean".
        """
        table = prefix[:-1] if prefix else cls.__name__
        if not isinstance(data, dict):
            raise ValueError(f"[{table}] must be a table of key = value lines, got {toml_kind(data)}")
        infos = {i.name: i for i in cls.fields_info()}
        values: dict[str, Any] = {}
        for key, raw in data.items():
            if key not in infos:
                raise ValueError(
                    unknown_field(
                        str(key), list(infos), f"in [{table}]" if prefix else f"of {cls.__name__}", prefix=prefix
                    )
                )
            values[key] = value_from_toml(infos[key], raw, prefix + key)
        try:
            return cls(**values)
        except ValueError as exc:
            if prefix:
                raise ValueError(f"{exc} (in [{table}])") from None
            raise


# ---------------------------------------------------------------- helpers


def unknown_field(key: str, allowed: Iterable[str], where: str, also: str = "", prefix: str = "") -> str:
    """The sentence for a key that is no field: what was meant, and the fields there are.

    ``prefix`` (``"rouse."``) is put before the key and the suggestion, not
    before the fields listed.
    """
    allowed = list(allowed)
    hint = did_you_mean(key, allowed, prefix)
    return f"unknown field {prefix + key!r} {where}{hint}; the fields are {', '.join(allowed)}" + (
        f" ({also})" if also else ""
    )


def diff(a: Rules, b: Rules, prefix: str = "") -> dict[str, tuple[Any, Any]]:
    """``{dotted field: (value in a, value in b)}`` where two rule sets of one class differ."""
    out: dict[str, tuple[Any, Any]] = {}
    for info in a.fields_info():
        va, vb = getattr(a, info.name), getattr(b, info.name)
        if va == vb:
            continue
        if isinstance(va, Rules) and isinstance(vb, Rules) and builtins_type(va) is builtins_type(vb):
            out.update(diff(va, vb, f"{prefix}{info.name}."))
        else:
            out[prefix + info.name] = (va, vb)
    return out


def _show(value: object, toml: bool) -> str:
    if value is None:
        return NONE_TEXT if toml else "None"
    if isinstance(value, bool) and toml:
        return "true" if value else "false"
    return str(value)


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _none_text(info: FieldInfo, toml: bool) -> str:
    word = NONE_TEXT if toml else "None"
    return word + (f" ({info.none})" if info.none else "")


def _expect(info: FieldInfo, toml: bool = False) -> str:
    """What a field may be, for a message: ``0..20``, ``one of up, down``, ``10, 9, 8 or None``."""
    if info.choices is not None and info.type is str and info.none is None:
        return "one of " + ", ".join(str(c) for c in info.choices)
    if info.choices is not None:
        items = [_show(c, toml) for c in info.choices]
        if info.none is not None:
            items.append(_none_text(info, toml))
        return _listed(items)
    if info.type is bool:
        text = "true or false" if toml else "True or False"
    elif info.type is int and info.range is not None:
        text = f"{info.range[0]}..{info.range[1]}"
    elif info.type is int:
        text = "a whole number"
    elif info.type is float:
        text = "a number" + (f" in {info.range[0]}..{info.range[1]}" if info.range else "")
    elif info.type is str:
        text = "a text in quotes" if toml else "a text"
    elif info.type is tuple:
        count = f"{info.length} " if info.length is not None else ""
        what = "numbers" if info.items is int else "values"
        text = f"{'an array of ' if toml else ''}{count}{what}"
    else:
        text = f"a {info.type.__name__}"
    if info.none is not None:
        text += " or " + _none_text(info, toml)
    return text


def _fail(info: FieldInfo, label: str, value: object, toml: bool) -> NoReturn:
    got = "None" if value is None and not toml else (_show(value, toml) if not isinstance(value, str) else repr(value))
    if info.nested:
        got = builtins_type(value).__name__
    raise InputError(label, f" must be {_expect(info, toml)}, got {got}")


def check_value(info: FieldInfo, value: Any, label: str, toml: bool = False) -> Any:
    """``value`` checked against the field's type, range and choices (ints made plain ``int``).

    ``label`` names the field in the message; ``toml`` writes None as
    ``none`` and booleans as ``true``/``false``.
    """
    kind = info.type
    if value is None:
        if info.none is not None:
            return None
        _fail(info, label, value, toml)
    if info.nested:
        if not isinstance(value, kind):
            _fail(info, label, value, toml)
        return value
    if kind is bool:
        if not toml and type(value).__module__ == "numpy" and type(value).__name__ in ("bool_", "bool"):
            return bool(value)  # a numpy bool is the bool it holds; 1 and "yes" are not
        if not isinstance(value, bool):
            _fail(info, label, value, toml)
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            if info.choices is None and info.none is None:
                raise InputError(label, f" must be a whole number, got {value!r}")
            _fail(info, label, value, toml)
        value = int(value)
        if info.range is None and info.choices is None and not -MAX_WHOLE <= value <= MAX_WHOLE:
            raise InputError(label, f" must be {-MAX_WHOLE}..{MAX_WHOLE}, got {value}")
    elif kind is float:
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise InputError(label, f" must be a number, got {value!r}")
        value = float(value)
    elif kind is str:
        if not isinstance(value, str):
            _fail(info, label, value, toml)
    elif kind is tuple:
        if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
            _fail(info, label, value, toml)
        items = tuple(value)
        if info.length is not None and len(items) != info.length:
            _fail(info, label, value, toml)
        if info.items is None:
            return tuple(tuple(i) if isinstance(i, list) else i for i in items)
        checked = []
        for item in items:
            if isinstance(item, bool) or not isinstance(item, numbers.Integral):
                raise ValueError(f"each of {label} must be a whole number, got {item!r}")
            item = int(item)
            if info.item_range is not None and not info.item_range[0] <= item <= info.item_range[1]:
                raise ValueError(f"each of {label} must be {info.item_range[0]}..{info.item_range[1]}, got {item}")
            checked.append(item)
        return tuple(checked)
    if info.range is not None and not info.range[0] <= value <= info.range[1]:
        _fail(info, label, value, toml)
    if info.choices is not None and value not in info.choices:
        _fail(info, label, value, toml)
    return value


def toml_kind(value: object) -> str:
    """What a TOML value is, in a player's words: ``the number 3``, ``the text 'x'``, ``a table``."""
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
    return f"a {builtins_type(value).__name__}"


_TOML_OK: dict[type, Callable[[object], bool]] = {
    bool: lambda v: isinstance(v, bool),
    int: lambda v: isinstance(v, int) and not isinstance(v, bool),
    float: lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    str: lambda v: isinstance(v, str),
    tuple: lambda v: isinstance(v, list),
}


def value_from_toml(info: FieldInfo, raw: object, label: str) -> Any:
    """A field's value from what TOML read (``"none"``, arrays, tables), checked; errors name ``label``."""
    if info.nested:
        if not isinstance(raw, dict):
            raise ValueError(
                f"field {label!r} must be a table of {info.type.__name__} fields ([{label}]), got {toml_kind(raw)}"
            )
        return cast("type[Rules]", info.type).from_dict(raw, prefix=label + ".")
    if info.none is not None and info.type is not str and isinstance(raw, str) and raw.strip().lower() == NONE_TEXT:
        return None
    if not _TOML_OK[info.type](raw):
        kind_text = {
            bool: "true or false",
            int: "a whole number",
            float: "a number",
            str: "a text in quotes",
            tuple: "an array of whole numbers",
        }[info.type]
        if info.none is not None:
            kind_text += f' or "{NONE_TEXT}"'
        raise ValueError(f"field {label!r} must be {kind_text}, got {toml_kind(raw)} ({label}: {info.help})")
    return check_value(info, raw, label, toml=True)
