"""A dice mechanic as data: the TOML file format, read and checked into a ``Mechanic``.

A mechanic file describes one d10 (or dN) pool mechanic; it is untrusted
input (files are shared), so it is parsed, checked and bounded, never run.
Its tables, in this order of use:

- ``[mechanic]``: ``name`` (lowercase word), ``title``, ``description``, ``source`` (the
  book the rules come from), ``successes`` (the count reported as the
  roll's successes: distributions, means, ``p_at_least_N``) and
  optionally ``classes`` (the table's column order of the outcome
  classes; default: the order they first appear in ``[[outcomes]]``).
- ``[parameters.NAME]``: a rule knob a rule set may change: ``default`` (a whole number or
  true/false), ``range = [lo, hi]`` for numbers, ``help`` (one line).  A number may instead be one
  of ``choices = [10, 9, 8]`` (the default among them), and may then also be given as none
  (``"none"`` in a rule set, ``--NAME none``) if ``none = { value = 11, means = "no again" }`` says
  which number the file reads for it and what that means.
- ``[axes.NAME]``: a value a table varies over (pool, Hunger, Difficulty, ...):
  ``default`` (a SPEC such as ``"1-10"``), ``range = [lo, hi]``, ``help``.
- ``[kinds.NAME]``: a kind of die: ``dice`` (how many are rolled: an expression over the
  axes and parameters, e.g. ``"min(hunger, pool)"``), ``sides`` (default
  10) and ``faces``: each mark (``success``, ``ten``, ``one``, ...) with
  its faces, as a face (``"10"``), a range (``"success_face .. 9"``, the
  ends expressions) or a list of them.  Every face 1..sides carries
  exactly one mark; an empty range is allowed.  Optionally ``again``: the
  marks whose die rolls again (it counts its mark and a new die is rolled,
  whose own again marks roll again in turn), as a list (the new die is of
  the same kind) or a table ``mark = "kind"``; ``rote``: the marks whose
  die is rolled once more, the new face (of the same kind, or the kind
  named) replacing the first, and ``rote_applies``: an expression of the
  parameters saying when (dice rolled again are never rote).  Counted by
  ``analysis.engine.explode``.
- ``[counts]``: named counts, in order: expressions over marks (``hunger.one`` for one
  kind; a bare ``ten`` sums every kind that has the mark), parameters,
  axes and the counts above them.
- ``[[outcomes]]``: ordered rules: ``name`` (the class), ``when`` (a true/false
  expression; left out: always), ``applies`` (optional expression over
  parameters: the rule is skipped unless it holds), ``meaning`` (one line,
  ``{parameter}`` replaced by its value) and ``win`` (true for a winning
  class).  The first rule that matches a roll gives its class, so the
  classes are mutually exclusive and sum to 1 by construction; a roll no
  rule matches is refused when counted, with its counts named.  A class
  may have several rules.
- ``[columns.NAME]``: derived columns (names start with ``p_``): ``sum = [classes]``, or
  ``when`` (a true/false expression of the roll: the column is the chance
  that it holds, whatever the class; at most 4), and a ``meaning``.
  ``p_win`` (the sum of the win classes) is added unless the file
  defines it.
- ``[willpower]`` (optional): a Willpower reroll: once, after the dice land, the player may reroll up
  to ``dice`` dice (a whole number 1..1000, or an expression of the
  parameters and axes in quotes, such as ``"pool"`` for a reroll of every
  failed die, taken in each cell: below 0 is none, above 1000 is refused, and
  the Willpower planner refuses a reroll too costly to plan) of the ``kinds``
  listed (kind names, each once).  ``marks`` (optional; default every mark of those
  kinds, in file order) lists the marks a rerolled die may show, in the
  tie order of ``analysis.engine.willpower`` (e.g. ``["fail",
  "success", "ten"]``: failures before successes before 10s); a die
  showing another mark (a Rage die's Brutal 1-2) is never rerolled.
  ``failures`` (optional, some of ``marks``; default none) are the marks
  of a failed die, the dice the ``reroll_failures`` strategy rerolls.
  ``becomes`` (optional): the kind a rerolled die is rolled as, its faces
  and marks then those of that kind (``becomes = "hunger"``, or per kind
  ``becomes = { normal = "hunger" }``); ``keeps_kind`` (default: true
  unless ``becomes`` is given) says the same in one word.  A file without
  the table has no Willpower reroll.

Expressions are the small, safe language of ``analysis.model.expr``.
"""

from __future__ import annotations

import functools
import numbers
import re
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any, Mapping, cast

from analysis.model.reader import (
    CONTROL as _CONTROL,
    LIMITS as LIMITS,
    RESERVED as RESERVED,
    SYSTEM_NAME as _SYSTEM_NAME,
    MechanicError as MechanicError,
    Reader as _Reader,
    shown as _shown,
)
from analysis.model.safeio import read_text, toml_error
from analysis.model.validate import did_you_mean, parse_spec

from analysis.model import expr as _expr

_TEMPLATE = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True)
class Parameter:
    """A rule knob: its default, range (numbers) and a one-line help; a whole number may instead be one of
    ``choices``, and may be given as none (Python's None), which the file reads as the number ``none``
    (``none_means`` says what it means: ``"no again"``)."""

    name: str
    default: bool | int
    help: str
    #: the lowest and highest value the file reads (with choices: theirs and none's)
    range: tuple[int, int] | None = None
    choices: tuple[int, ...] | None = None
    none: int | None = None
    none_means: str = ""

    @property
    def is_bool(self) -> bool:
        return isinstance(self.default, bool)

    def check(self, value: object, source: str = "rules") -> bool | int:
        """``value`` if allowed for this parameter, else a MechanicError naming it."""
        if value is None and self.none is not None:
            return self.none
        if self.is_bool:
            if type(value).__module__ == "numpy" and type(value).__name__ in ("bool_", "bool"):
                value = bool(value)
            if not isinstance(value, bool):
                raise MechanicError(f"{source}: {self.name} must be true or false, got {_shown(value)}")
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            try:
                if isinstance(value, numbers.Integral) and not isinstance(value, bool):
                    value = int(value)
                else:
                    raise TypeError
            except TypeError:
                raise MechanicError(f"{source}: {self.name} must be a whole number, got {_shown(value)}") from None
        if self.choices is not None:
            if value not in self.choices and value != self.none:
                shown = ", ".join(map(str, self.choices)) + (" or none" if self.none is not None else "")
                raise MechanicError(f"{source}: {self.name} must be {shown}, got {_shown(value)}")
            return value
        lo, hi = cast("tuple[int, int]", self.range)  # every whole-number parameter has one
        if not lo <= value <= hi:
            raise MechanicError(f"{source}: {self.name} must be {lo}..{hi}, got {_shown(value)}")
        return value


@dataclass(frozen=True)
class Axis:
    """A table axis: its default SPEC, range and help."""

    name: str
    default: str
    range: tuple[int, int]
    help: str


@dataclass(frozen=True)
class Kind:
    """A kind of die: how many are rolled, its sides, and its faces by mark."""

    name: str
    dice: _expr.Expr
    sides: int
    faces: tuple[tuple[str, tuple[tuple[_expr.Expr, _expr.Expr], ...]], ...]  # ((mark, ((lo, hi), ...)), ...)
    #: ``((mark, kind), ...)``: a die showing the mark counts it and a die of that kind is rolled too
    again: tuple[tuple[str, str], ...] = ()
    #: ``((mark, kind), ...)``: a die of this kind's ``dice`` showing the mark is rolled once more, as a
    #: die of that kind, the new face replacing the first (where ``rote_applies`` holds)
    rote: tuple[tuple[str, str], ...] = ()
    rote_applies: _expr.Expr | None = None

    @property
    def marks(self) -> tuple[str, ...]:
        return tuple(m for m, _ in self.faces)

    def rote_on(self, params: Mapping[str, object]) -> tuple[tuple[str, str], ...]:
        """The rote marks and their kinds under these parameter values (none where ``rote_applies`` fails)."""
        if not self.rote or (self.rote_applies is not None and not bool(self.rote_applies.evaluate(params))):
            return ()
        return self.rote


@dataclass(frozen=True)
class Outcome:
    """One ordered outcome rule: the class it gives, when, and what it means."""

    name: str
    when: _expr.Expr | None
    applies: _expr.Expr | None
    meaning: str
    win: bool


@dataclass(frozen=True)
class Column:
    """A derived column: the sum of some classes, or (``when``) the chance that a true/false
    expression of the roll holds, whatever its class."""

    name: str
    classes: tuple[str, ...]
    meaning: str
    when: _expr.Expr | None = None


@dataclass(frozen=True)
class Willpower:
    """A mechanic's Willpower reroll (the ``[willpower]`` table): at most ``dice`` dice, once.

    ``kinds`` may be rerolled when showing one of ``marks`` (in tie order);
    ``failures`` are the marks of a failed die; a rerolled die keeps its kind.
    """

    dice: int | _expr.Expr
    kinds: tuple[str, ...]
    marks: tuple[str, ...]
    failures: tuple[str, ...] = ()
    keeps_kind: bool = True
    #: ``((kind, kind it becomes), ...)``: a rerolled die of that kind is rolled as a die of the other
    becomes: tuple[tuple[str, str], ...] = ()

    def becomes_kind(self, kind: str) -> str:
        """The kind a rerolled die of ``kind`` is rolled as (itself unless the file says ``becomes``)."""
        return dict(self.becomes).get(kind, kind)

    def dice_at(self, env: dict, origin: str = "mechanic file") -> int:
        """The most dice the reroll takes in a cell (``env``: the parameters and axis values); an
        expression below 0 is 0 dice, one above :data:`MAX_WILLPOWER_DICE` is refused naming the cell."""
        if isinstance(self.dice, int):
            return self.dice
        n = int(self.dice.evaluate(env))
        if n > MAX_WILLPOWER_DICE:
            where = ", ".join(f"{k} {v}" for k, v in env.items() if k in self.dice.names)
            raise MechanicError(
                f"{origin}: [willpower] dice is {n} at {where} (a reroll takes at most {MAX_WILLPOWER_DICE} dice)"
            )
        return max(0, n)


@dataclass(frozen=True)
class Mechanic:
    """A dice mechanic read from a file (see the module docstring for the format)."""

    name: str
    title: str
    description: str
    source: str
    parameters: tuple[Parameter, ...]
    axes: tuple[Axis, ...]
    kinds: tuple[Kind, ...]
    counts: tuple[tuple[str, _expr.Expr], ...]
    outcomes: tuple[Outcome, ...]
    classes: tuple[str, ...]
    columns: tuple[Column, ...]
    successes: str | None
    willpower: Willpower | None = None
    origin: str = field(default="mechanic", compare=False)

    @property
    def flags(self) -> tuple[Column, ...]:
        """The columns given by ``when`` (a chance that a true/false expression holds), in file order."""
        return tuple(c for c in self.columns if c.when is not None)

    @property
    def explodes(self) -> bool:
        """Whether some kind rolls again or is rote (:mod:`analysis.engine.explode` counts its dice)."""
        return any(k.again or k.rote for k in self.kinds)

    def __hash__(self) -> int:
        # a mechanic keys many caches, and hashing its whole tree of rules each time costs more than a
        # warm table: the hash is worked out once (the mechanic is frozen) and never pickled, since
        # another process hashes strings differently
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    # ------------------------------------------------------------ names
    @property
    def parameter_map(self) -> dict[str, Parameter]:
        return {p.name: p for p in self.parameters}

    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.axes)

    @property
    def win_classes(self) -> tuple[str, ...]:
        wins = {o.name for o in self.outcomes if o.win}
        return tuple(c for c in self.classes if c in wins)

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    def defaults(self) -> dict[str, bool | int]:
        """``{parameter: default}``, in file order."""
        return {p.name: p.default for p in self.parameters}

    def check_values(self, values: Mapping[str, object] | None = None, source: str = "rules") -> dict[str, bool | int]:
        """The parameter values: the defaults with ``values`` applied, each checked."""
        out = self.defaults()
        pmap = self.parameter_map
        for key, value in (values or {}).items():
            if key not in pmap:
                raise MechanicError(
                    f"{source}: the {self.name} mechanic has no parameter {key!r}{did_you_mean(key, list(pmap))}"
                )
            out[key] = pmap[key].check(value, source)
        return out

    def meanings(self, values: Mapping[str, object] | None = None) -> dict[str, str]:
        """``{class or column: one-line meaning}`` under these parameter values (defaults if None).

        A class's meaning joins the meanings of its rules that apply under
        the values, with ``{parameter}`` replaced by the value, so it stays
        true under a house rule.
        """
        values = self.check_values(values)
        out: dict[str, str] = {}
        for o in self.outcomes:
            if o.applies is not None and not bool(o.applies.evaluate(values)):
                continue
            if not o.meaning:
                continue
            text = fill(o.meaning, values)
            if o.name in out:
                if text not in out[o.name].split("; or "):
                    out[o.name] += "; or " + text
            else:
                out[o.name] = text
        for c in self.classes:
            out.setdefault(c, "")
        for col in self.columns:
            out[col.name] = fill(col.meaning, values)
        return out


def fill(template: str, values: Mapping[str, object]) -> str:
    """``template`` with each ``{parameter}`` replaced by its value (true/false for flags)."""

    def one(m):
        v = values[m.group(1)]
        return ("true" if v else "false") if isinstance(v, bool) else str(v)

    return _TEMPLATE.sub(one, template)


# ------------------------------------------------------------------ a rule set of a mechanic


@dataclass(frozen=True)
class MechanicRules:
    """A mechanic with its parameter values (a rule set of it): hashable, immutable.

    Make one with :func:`rules_of`; ``values`` are ``(name, value)`` pairs in
    the file's order.
    """

    mechanic: Mechanic
    values: tuple[tuple[str, bool | int], ...]

    @property
    def params(self) -> dict[str, bool | int]:
        return dict(self.values)

    def changes(self) -> dict[str, bool | int]:
        """The parameters that differ from the file's defaults."""
        d = self.mechanic.defaults()
        return {k: v for k, v in self.values if d[k] != v}

    def meanings(self) -> dict[str, str]:
        return self.mechanic.meanings(self.params)


def rules_of(mechanic: Mechanic, changes: Mapping[str, object] | None = None, source: str = "rules") -> MechanicRules:
    """The rule set of ``mechanic`` with ``changes`` to its parameters (each checked)."""
    values = mechanic.check_values(changes, source)
    return MechanicRules(mechanic, tuple(values.items()))


# ------------------------------------------------------------------ a cell's faces

#: Faces of each kind by mark: ``((count per mark), ...)`` (:func:`faces_of`).
Faces = tuple[tuple[int, ...], ...]


def where(mech: Mechanic, env: Mapping[str, object]) -> str:
    shown = [f"{a}={env[a]}" for a in mech.axis_names if a in env]
    changed = [f"{p.name}={env[p.name]}" for p in mech.parameters if p.name in env and env[p.name] != p.default]
    return ", ".join(shown + changed) or "the defaults"


def _whole(e: _expr.Expr, env: Mapping[str, Any]) -> int:
    """A face bound's value (most are numbers as written: read without evaluating)."""
    tree = e.tree
    return int(tree[2]) if tree[0] == "const" else int(e.evaluate(env))


def faces_of(mech: Mechanic, env: Mapping[str, Any]) -> Faces:
    """Faces of each kind by mark, ``((count per mark), ...)``, checked: every face carries one mark."""
    out: list[tuple[int, ...]] = []
    for k in mech.kinds:
        owner: list[str | None] = [None] * (k.sides + 1)
        counts: list[int] = []
        for mark, ranges in k.faces:
            n = 0
            for lo_e, hi_e in ranges:
                lo, hi = _whole(lo_e, env), _whole(hi_e, env)
                for f in range(lo, hi + 1):
                    if not 1 <= f <= k.sides:
                        raise MechanicError(
                            f"{mech.origin}: kind {k.name!r} gives mark {mark!r} the face "
                            f"{f}, but its dice have faces 1..{k.sides} ({where(mech, env)})"
                        )
                    if owner[f] is not None:
                        raise MechanicError(
                            f"{mech.origin}: kind {k.name!r} gives face {f} two marks, "
                            f"{owner[f]!r} and {mark!r} ({where(mech, env)})"
                        )
                    owner[f] = mark
                    n += 1
            counts.append(n)
        missing = [f for f in range(1, k.sides + 1) if owner[f] is None]
        if missing:
            raise MechanicError(
                f"{mech.origin}: kind {k.name!r} gives face {missing[0]} no mark "
                f"({where(mech, env)}); every face carries exactly one mark"
            )
        out.append(tuple(counts))
    return tuple(out)


# ------------------------------------------------------------------ reading


def load(path, source: str | None = None) -> Mechanic:
    """Read and check a mechanic file (a regular UTF-8 file of at most 1 MiB); ``source`` names it in
    errors (default: the file's name)."""
    path = Path(path)
    try:
        text = read_text(path)
    except ValueError as exc:
        raise MechanicError(str(exc).replace("rule-set file", "mechanic file")) from None
    return from_toml(text, source=path.name if source is None else source)


def from_toml(text: str, source: str = "mechanic") -> Mechanic:
    """Parse and check the TOML text of a mechanic (``source`` names it in errors)."""
    source = _CONTROL.sub("?", str(source))[:120]
    if not isinstance(text, str):
        raise MechanicError(f"{source}: a mechanic is TOML text, got {type(text).__name__}")
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise MechanicError(f"{source}: not valid TOML: {_CONTROL.sub('?', toml_error(text, exc))[:300]}") from None
    except RecursionError:
        raise MechanicError(f"{source}: its arrays or tables are nested too deeply to read") from None
    return from_dict(data, source)


#: Added to the refusal of an unknown name in an expression of the roll: a mark whose faces went to another
#: mark is still declared, with no face.
MARK_HINT = (
    "; a mark that no face carries (its faces given to another mark) is still declared in the faces of "
    'each kind it counts, with an empty range such as ten = "1 .. 0"'
)


_TOP = ("mechanic", "parameters", "axes", "kinds", "counts", "outcomes", "columns", "willpower")
#: Most dice a Willpower reroll may take: as many as a kind may roll (the Willpower planner's own limits
#: on its work refuse a reroll too costly to plan, naming the cell).
MAX_WILLPOWER_DICE = 1000
#: Most columns given by ``when`` (each doubles the classes the engine tells apart).
MAX_WHEN_COLUMNS = 4


def from_dict(data: dict, source: str = "mechanic") -> Mechanic:
    """Check parsed TOML data and build the :class:`Mechanic` (see the module docstring)."""
    r = _Reader(source)
    r.table(data, "the file", _TOP, ("mechanic", "kinds", "outcomes"))
    head = r.table(
        data["mechanic"], "[mechanic]", ("name", "title", "description", "source", "successes", "classes"), ("name",)
    )
    name = r.name(head["name"], "[mechanic] name", _SYSTEM_NAME)
    title = r.text(head.get("title", name), "[mechanic] title", LIMITS["line"])
    description = r.text(head.get("description", ""), "[mechanic] description", LIMITS["text"], one_line=False)
    book = r.text(head.get("source", ""), "[mechanic] source", LIMITS["line"])

    taken: dict = {}

    def claim(n, what, where):
        if n in taken:
            r.fail(where, f"the name {n!r} is already used by {taken[n]}")
        taken[n] = what

    # parameters
    params = []
    pdata = r.table(data.get("parameters", {}), "[parameters]", tuple(data.get("parameters", {})))
    r.count_limit(pdata, "parameters", "[parameters]")
    for pname, spec in pdata.items():
        where = f"parameter {_shown(pname)}"
        r.name(pname, where)
        claim(pname, where, where)
        spec = r.table(spec, where, ("default", "range", "choices", "none", "help"), ("default",))
        default = spec["default"]
        help_ = r.text(spec.get("help", ""), f"{where} help", LIMITS["line"])
        if isinstance(default, bool):
            if {"range", "choices", "none"} & set(spec):
                r.fail(where, "a true/false parameter has no range, choices or none")
            params.append(Parameter(pname, default, help_))
            continue
        default = r.whole(default, f"{where} default", -(10**6), 10**6)
        if "choices" in spec:
            params.append(_choice_parameter(r, pname, where, spec, default, help_))
            continue
        if "none" in spec:
            r.fail(where, "none is given with choices (a parameter with a range takes a number of it)")
        lo, hi = r.range(spec.get("range", [default, default]), where, -(10**6), 10**6)
        if not lo <= default <= hi:
            r.fail(where, f"the default {default} is outside its range {lo}..{hi}")
        params.append(Parameter(pname, default, help_, (lo, hi)))
    param_names = tuple(p.name for p in params)

    # axes
    axes = []
    adata = r.table(data.get("axes", {}), "[axes]", tuple(data.get("axes", {})))
    r.count_limit(adata, "axes", "[axes]")
    for aname, spec in adata.items():
        where = f"axis {_shown(aname)}"
        r.name(aname, where)
        claim(aname, where, where)
        spec = r.table(spec, where, ("default", "range", "help"), ("range",))
        lo, hi = r.range(spec["range"], where, 0, 10**9, 10**6)
        default = spec.get("default", str(lo))
        if isinstance(default, int) and not isinstance(default, bool):
            default = str(default)
        default = r.text(default, f"{where} default", 60)

        try:
            values = parse_spec(aname, default)
        except ValueError as exc:
            r.fail(where, f"default: {exc}")
        if any(not lo <= v <= hi for v in values):
            r.fail(where, f"the default {default!r} leaves the range {lo}..{hi}")
        axes.append(Axis(aname, default, (lo, hi), r.text(spec.get("help", ""), f"{where} help", LIMITS["line"])))
    axis_names = tuple(a.name for a in axes)
    context = param_names + axis_names

    # kinds
    kdata = r.table(data["kinds"], "[kinds]", tuple(data["kinds"]))
    if not kdata:
        r.fail("[kinds]", "needs at least one kind of die")
    r.count_limit(kdata, "kinds", "[kinds]")
    kinds = []
    mark_names: dict = {}
    for kname, spec in kdata.items():
        where = f"kind {_shown(kname)}"
        r.name(kname, where)  # kinds have their own names: they only stand before a dot
        spec = r.table(
            spec, where, ("dice", "sides", "faces", "help", "again", "rote", "rote_applies"), ("dice", "faces")
        )
        dice = r.expression(spec["dice"], f"{where} dice", context, "int")
        sides = r.whole(spec.get("sides", 10), f"{where} sides", 2, LIMITS["sides"])
        faces = r.table(spec["faces"], f"{where} faces", tuple(spec["faces"]))
        if not faces:
            r.fail(f"{where} faces", "needs at least one mark")
        r.count_limit(faces, "marks", f"{where} faces")
        marks = []
        for mark, marked in faces.items():
            fwhere = f"{where}, mark {_shown(mark)}"
            r.name(mark, fwhere)
            items = marked if isinstance(marked, list) else [marked]
            if len(items) > sides:
                r.fail(fwhere, f"lists {len(items)} faces or ranges (a die has {sides} faces)")
            ranges = []
            for item in items:
                if isinstance(item, str) and ".." in item:
                    lo_text, _, hi_text = item.partition("..")
                    ranges.append(
                        (
                            r.expression(lo_text.strip(), fwhere, context, "int"),
                            r.expression(hi_text.strip(), fwhere, context, "int"),
                        )
                    )
                else:
                    e = r.expression(item, fwhere, context, "int")
                    ranges.append((e, e))
            marks.append((mark, tuple(ranges)))
            mark_names.setdefault(mark, []).append(kname)
        own = tuple(m for m, _ in marks)
        again = _rerolls(r, spec.get("again"), f"{where} again", kname, own)
        rote = _rerolls(r, spec.get("rote"), f"{where} rote", kname, own)
        both = [m for m, _ in rote if m in dict(again)]
        if both:
            r.fail(f"{where} rote", f"mark {both[0]!r} also rolls again; a mark is rote or rolls again, not both")
        applies = None
        if "rote_applies" in spec:
            if not rote:
                r.fail(f"{where} rote_applies", "says when the kind is rote, but the kind has no rote marks")
            applies = r.expression(spec["rote_applies"], f"{where} rote_applies", param_names, "bool")
        kinds.append(Kind(kname, dice, sides, tuple(marks), again, rote, applies))
    by_kind = {k.name: k for k in kinds}
    for k in kinds:
        for key, pairs in (("again", k.again), ("rote", k.rote)):
            for mark, target in pairs:
                if target not in by_kind:
                    r.fail(f"kind {k.name!r} {key}", f"mark {mark!r} names {_shown(target)}, which is not a kind")
    for mark in mark_names:
        if mark in taken:
            r.fail(f"mark {mark!r}", f"the name is already used by {taken[mark]}")
    roll_names = list(context) + [f"{k.name}.{m}" for k in kinds for m in k.marks] + list(mark_names)

    # counts
    counts = []
    cdata = r.table(data.get("counts", {}), "[counts]", tuple(data.get("counts", {})))
    r.count_limit(cdata, "counts", "[counts]")
    for cname, text in cdata.items():
        where = f"count {_shown(cname)}"
        r.name(cname, where)
        if cname in mark_names:
            r.fail(where, "the name is already used by a mark")
        claim(cname, where, where)
        counts.append((cname, r.expression(text, where, roll_names, None, MARK_HINT)))
        roll_names.append(cname)
    count_names = tuple(c for c, _ in counts)

    # outcomes
    odata = data["outcomes"]
    if not isinstance(odata, list) or not odata:
        r.fail("[[outcomes]]", "must be a list of outcome rules ([[outcomes]] tables)")
    r.count_limit(odata, "outcomes", "[[outcomes]]")
    outcomes: list[Outcome] = []
    for i, spec in enumerate(odata, 1):
        where = f"outcome rule {i}"
        spec = r.table(spec, where, ("name", "when", "applies", "meaning", "win"), ("name",))
        oname = r.name(spec["name"], f"{where} name")
        where = f"outcome {oname!r}"
        if oname in axis_names:  # classes and axes are both table columns
            r.fail(where, f"the name is already used by axis {oname!r}")
        when = (
            None if "when" not in spec else r.expression(spec["when"], f"{where} when", roll_names, "bool", MARK_HINT)
        )
        applies = (
            None if "applies" not in spec else r.expression(spec["applies"], f"{where} applies", param_names, "bool")
        )
        meaning = r.text(spec.get("meaning", ""), f"{where} meaning", LIMITS["line"])
        for m in _TEMPLATE.finditer(meaning):
            if m.group(1) not in param_names:
                r.fail(
                    f"{where} meaning", f"{{{_shown(m.group(1))[1:-1]}}} is not a parameter; braces name a parameter"
                )
        win = spec.get("win", False)
        if not isinstance(win, bool):
            r.fail(f"{where} win", f"must be true or false, got {_shown(win)}")
        earlier = [o for o in outcomes if o.name == oname]
        if earlier and earlier[0].win != win:
            r.fail(where, "its rules disagree on whether it is a win")
        outcomes.append(Outcome(oname, when, applies, meaning, win))
    first_seen = tuple(dict.fromkeys(o.name for o in outcomes))
    classes = head.get("classes", list(first_seen))
    if (
        not isinstance(classes, list)
        or sorted(map(str, classes)) != sorted(first_seen)
        or len(set(map(str, classes))) != len(classes)
    ):
        r.fail("[mechanic] classes", f"must list each outcome class once: {', '.join(first_seen)}")
    classes = tuple(classes)

    # successes
    successes = head.get("successes")
    if successes is not None:
        if not isinstance(successes, str) or successes not in count_names + tuple(mark_names):
            r.fail("[mechanic] successes", f"must name a count or a mark, got {_shown(successes)}")
        if successes in count_names and dict(counts)[successes].type != "int":
            r.fail("[mechanic] successes", f"the count {successes!r} is true/false, not a number")

    # columns
    columns: list[Column] = []
    coldata = r.table(data.get("columns", {}), "[columns]", tuple(data.get("columns", {})))
    r.count_limit(coldata, "columns", "[columns]")
    for colname, spec in coldata.items():
        where = f"column {_shown(colname)}"
        r.name(colname, where)
        if not colname.startswith("p_"):
            r.fail(where, "a derived column's name starts with 'p_'")
        claim(colname, where, where)
        spec = r.table(spec, where, ("sum", "when", "meaning"))
        meaning = r.text(spec.get("meaning", ""), f"{where} meaning", LIMITS["line"])
        if ("sum" in spec) == ("when" in spec):
            r.fail(where, "needs either sum (outcome classes) or when (a true/false expression of the roll)")
        if "when" in spec:
            if sum(c.when is not None for c in columns) >= MAX_WHEN_COLUMNS:
                r.fail(where, f"a file has at most {MAX_WHEN_COLUMNS} columns with when")
            columns.append(
                Column(colname, (), meaning, r.expression(spec["when"], f"{where} when", roll_names, "bool"))
            )
            continue
        parts = spec["sum"]
        if (
            not isinstance(parts, list)
            or not parts
            or any(p not in classes for p in parts)
            or len(set(parts)) != len(parts)
        ):
            r.fail(where, f"sum lists outcome classes, each once, from: {', '.join(classes)}")
        columns.append(Column(colname, tuple(parts), meaning))
    wins = tuple(c for c in classes if any(o.win for o in outcomes if o.name == c))
    if wins and not any(c.name == "p_win" or set(c.classes) == set(wins) for c in columns):
        columns.insert(0, Column("p_win", wins, "chance to win: " + " + ".join(wins)))

    willpower = None if "willpower" not in data else _willpower(r, data["willpower"], kinds, context)
    if willpower is not None and any(k.again or k.rote for k in kinds):
        r.fail("[willpower]", "a Willpower reroll of dice that roll again or are rote is not counted yet")
    if willpower is not None and any(c.when is not None for c in columns):
        r.fail("[willpower]", "a Willpower reroll is not counted yet for a file with a column given by when")
    mech = Mechanic(
        name,
        title,
        description,
        book,
        tuple(params),
        tuple(axes),
        tuple(kinds),
        tuple(counts),
        tuple(outcomes),
        classes,
        tuple(columns),
        successes,
        willpower,
        origin=source,
    )
    # the defaults must make a die whose faces each carry one mark
    try:
        lowest = {a.name: a.range[0] for a in axes}
        faces_of(mech, {**mech.defaults(), **lowest})
    except MechanicError:
        raise
    return mech


def _rerolls(r: _Reader, value, where: str, kind: str, marks: tuple) -> tuple[tuple[str, str], ...]:
    """The checked ``again`` or ``rote`` of a kind: a list of its marks (the die rolled anew is of the same
    kind) or a table ``mark = "kind"``, as ``((mark, kind), ...)``."""
    if value is None:
        return ()
    if isinstance(value, list):
        if not all(isinstance(m, str) for m in value) or len(set(value)) != len(value):
            r.fail(where, "must list marks of the kind, each once, or be a table of mark = kind")
        value = {m: kind for m in value}
    if not isinstance(value, dict) or not value:
        r.fail(where, f"must list marks of the kind, or be a table of mark = kind, got {_shown(value)}")
    out = []
    for mark, target in value.items():
        if mark not in marks:
            r.fail(where, f"{_shown(mark)} is not a mark of the kind{did_you_mean(str(mark), list(marks))}")
        if not isinstance(target, str):
            r.fail(where, f"mark {mark!r} must name a kind, got {_shown(target)}")
        out.append((mark, target))
    return tuple(out)


def _willpower(r: _Reader, data, kinds: list, readable: tuple) -> Willpower:
    """The checked ``[willpower]`` table (see the module docstring); ``readable``: the parameters and axes
    an expression for ``dice`` may read."""
    where = "[willpower]"
    data = r.table(data, where, ("dice", "kinds", "marks", "failures", "keeps_kind", "becomes"), ("dice", "kinds"))
    dice: int | _expr.Expr
    if isinstance(data["dice"], str):
        dice = r.expression(data["dice"], f"{where} dice", readable, "int")
    else:
        dice = r.whole(data["dice"], f"{where} dice", 1, MAX_WILLPOWER_DICE)
    by_name = {k.name: k for k in kinds}

    def names(key, allowed, what):
        value = data[key]
        if not isinstance(value, list) or (key != "failures" and not value):
            r.fail(
                f"{where} {key}", f"must be a list of {what} names" + ("" if key == "failures" else ", at least one")
            )
        for item in value:
            if not isinstance(item, str) or item not in allowed:
                r.fail(
                    f"{where} {key}",
                    f"{_shown(item)} is not one of the {what}s {', '.join(allowed)}"
                    f"{did_you_mean(str(item), list(allowed))}",
                )
        if len(set(value)) != len(value):
            r.fail(f"{where} {key}", f"names a {what} twice")
        return tuple(value)

    chosen = names("kinds", tuple(by_name), "kind")
    own = tuple(dict.fromkeys(m for k in chosen for m in by_name[k].marks))
    marks = names("marks", own, "mark") if "marks" in data else own
    failures = names("failures", marks, "rerollable mark") if "failures" in data else ()
    becomes = _becomes(r, data.get("becomes"), chosen, tuple(by_name), where)
    keeps = data.get("keeps_kind", not becomes)
    if not isinstance(keeps, bool):
        r.fail(f"{where} keeps_kind", f"must be true or false, got {_shown(keeps)}")
    if not keeps and not becomes:
        r.fail(
            f"{where} keeps_kind",
            'false needs becomes, the kind a rerolled die is rolled as (becomes = "hunger", or a table '
            'such as becomes = { normal = "hunger" })',
        )
    if keeps and becomes:
        r.fail(f"{where} keeps_kind", "true says a rerolled die stays its kind, and becomes says it changes")
    return Willpower(dice, chosen, marks, failures, keeps, becomes)


def _becomes(r: _Reader, value, chosen: tuple, kinds: tuple, where: str) -> tuple:
    """The checked ``becomes`` of ``[willpower]``: ``((kind, kind it becomes), ...)``, in the ``kinds`` order."""
    if value is None:
        return ()

    def kind_name(name, what):
        if not isinstance(name, str) or name not in kinds:
            r.fail(
                f"{where} becomes",
                f"{_shown(name)} is not one of the kinds {', '.join(kinds)}{did_you_mean(str(name), list(kinds))}"
                + (f" ({what})" if what else ""),
            )
        return name

    if isinstance(value, str):
        pairs = {k: kind_name(value, "") for k in chosen}
    elif isinstance(value, dict):
        pairs = {}
        for source, target in value.items():
            if source not in chosen:
                r.fail(
                    f"{where} becomes",
                    f"{_shown(source)} is not a kind a reroll takes ({', '.join(chosen)})"
                    f"{did_you_mean(str(source), list(chosen))}",
                )
            pairs[source] = kind_name(target, f"what {source} becomes")
    else:
        r.fail(f"{where} becomes", f'must be a kind name or a table of kind = kind, got {_shown(value)}')
    same = [k for k, t in pairs.items() if k == t]
    if same:
        r.fail(f"{where} becomes", f"a rerolled {same[0]} die becomes {same[0]}: name another kind, or leave it out")
    return tuple((k, pairs[k]) for k in chosen if k in pairs)


def shipped(system) -> Mechanic | None:
    """The mechanic file a shipped system keeps in its folder (``mechanic.toml``), or None."""
    if not system.package:
        return None
    try:
        path = resources.files(system.package) / "mechanic.toml"
    except ModuleNotFoundError:
        return None
    if not path.is_file():
        return None
    return shipped_in(system.package)


def shipped_in(package: str, name: str = "mechanic.toml") -> Mechanic:
    """The mechanic file a package (a shipped system's folder) keeps: its ``mechanic.toml``, or another
    by ``name`` (Requiem's ``dice.toml`` and ``soif.toml``), read once."""
    return _shipped(package, str(resources.files(package) / name))


def _choice_parameter(r: _Reader, pname: str, where: str, spec: dict, default: int, help_: str) -> Parameter:
    """A whole-number parameter given by ``choices = [..]`` (and ``none = { value, means }``), checked."""
    if "range" in spec:
        r.fail(where, "takes a range or choices, not both")
    choices = spec["choices"]
    if not isinstance(choices, list) or not 1 <= len(choices) <= 20:
        r.fail(where, "choices is a list of 1 to 20 whole numbers")
    choices = tuple(r.whole(c, f"{where} choices", -(10**6), 10**6) for c in choices)
    if len(set(choices)) < len(choices):
        r.fail(where, "a choice is listed twice")
    if default not in choices:
        r.fail(where, f"the default {default} is not one of its choices")
    none, means = None, ""
    if "none" in spec:
        table = r.table(spec["none"], f"{where} none", ("value", "means"), ("value",))
        none = r.whole(table["value"], f"{where} none value", -(10**6), 10**6)
        means = r.text(table.get("means", ""), f"{where} none means", LIMITS["line"])
        if none in choices:
            r.fail(where, f"none's value {none} is one of the choices")
    span = choices + (() if none is None else (none,))
    return Parameter(pname, default, help_, (min(span), max(span)), choices, none, means)


@functools.lru_cache(maxsize=32)
def _shipped(package: str, path: str) -> Mechanic:
    return load(Path(path))
