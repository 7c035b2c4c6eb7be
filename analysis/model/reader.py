"""The checks a mechanic file's values pass as they are read (it is untrusted input): tables and their keys,
names, one-line texts, whole numbers and ranges, expressions and limits, each refusal one sentence
naming the file and the place (:class:`MechanicError`).  :mod:`analysis.model.spec` reads the format
with them.
"""

from __future__ import annotations

import re

from analysis.model import expr as _expr
from analysis.model.validate import did_you_mean

#: A name in a file: a lowercase word (a system's name has no '_'); text with control characters is refused.
NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
SYSTEM_NAME = re.compile(r"^[a-z][a-z0-9]{0,31}$")
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

#: Bounds on a mechanic file: far above any real game, low enough that a
#: hostile file cannot make the checks themselves slow.
LIMITS = {
    "kinds": 8,
    "marks": 12,
    "counts": 48,
    "outcomes": 64,
    "parameters": 48,
    "axes": 8,
    "columns": 32,
    "sides": 100,
    "text": 2000,
    "line": 400,
}
#: Names a mechanic may not use for its own things (the engine's words).
RESERVED = frozenset(
    {
        "true",
        "false",
        "system",
        "name",
        "description",
        "mechanic",
        "dice",
        "sides",
        "rules",
        "strategy",
        "exact",
        "at_least",
        "progress",
        "max_successes",
        "format",
        "min",
        "max",
        "floor",
        "ceil",
        "abs",
    }
)


class MechanicError(ValueError):
    """A mechanic file that cannot be used: one sentence naming the file and the place."""


def shown(value) -> str:
    """``value`` as a refusal quotes it: its repr, control characters masked, at most 60 characters."""
    text = repr(value)
    text = CONTROL.sub("?", text)
    return text if len(text) <= 60 else text[:57] + "..."


def kind(value) -> str:
    """What TOML gave, in words ("a table", "text", ...)."""
    return {
        dict: "a table",
        list: "a list",
        str: "text",
        bool: "true/false",
        int: "a number",
        float: "a decimal number",
    }.get(type(value), type(value).__name__)


class Reader:
    """Checks one mechanic's data, each error one sentence naming ``source`` and the place."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, problem: str):
        raise MechanicError(f"{self.source}, {where}: {problem}")

    def table(self, data, where: str, allowed: tuple, required: tuple = ()) -> dict:
        if not isinstance(data, dict):
            self.fail(where, f"must be a table, got {kind(data)}")
        for key in data:
            if key not in allowed:
                self.fail(
                    where,
                    f"unknown key {shown(key)}{did_you_mean(str(key), list(allowed))}; allowed: {', '.join(allowed)}",
                )
        for key in required:
            if key not in data:
                self.fail(where, f"needs {key!r}")
        return data

    def name(self, value, where: str, pattern=NAME) -> str:
        if not isinstance(value, str) or not pattern.match(value):
            self.fail(where, f"a name is a lowercase word (letters, digits, '_', at most 32), got {shown(value)}")
        if value in RESERVED:
            self.fail(where, f"{value!r} is a reserved word")
        return value

    def text(self, value, where: str, limit: int, one_line: bool = True) -> str:
        if not isinstance(value, str):
            self.fail(where, f"must be text, got {kind(value)}")
        if len(value) > limit:
            self.fail(where, f"is {len(value)} characters long (at most {limit})")
        bad = CONTROL.search(value.replace("\n", " ") if not one_line else value)
        if bad or (one_line and "\n" in value):
            self.fail(
                where,
                "must be one line of printable text (no control characters)"
                if one_line
                else "must be printable text (no control characters)",
            )
        return value

    def whole(self, value, where: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, f"must be a whole number, got {shown(value)}")
        if not lo <= value <= hi:
            self.fail(where, f"must be {lo}..{hi}, got {shown(value)}")
        return value

    def range(self, value, where: str, lowest: int, highest: int, lowest_top: int | None = None) -> tuple:
        """A ``[lowest, highest]`` pair of whole numbers: the first within ``lowest..lowest_top``
        (default ``highest``), the second from the first to ``highest``."""
        if not (isinstance(value, list) and len(value) == 2):
            self.fail(where, "range is a list of two whole numbers, [lowest, highest]")
        lo = self.whole(value[0], f"{where} range", lowest, highest if lowest_top is None else lowest_top)
        return lo, self.whole(value[1], f"{where} range", lo, highest)

    def expression(self, text, where: str, names, type_: str | None, hint: str = "") -> _expr.Expr:
        """``text`` parsed as an expression of ``names``; ``hint`` is added to the refusal of an unknown name."""
        if isinstance(text, bool):
            text = "true" if text else "false"
        elif isinstance(text, int):
            text = str(text)
        if not isinstance(text, str):
            self.fail(where, f"must be an expression in quotes, got {kind(text)}")
        try:
            return _expr.parse(text, where=f"{self.source}, {where}", names=names, type=type_)
        except _expr.ExprError as exc:
            said = str(exc)
            raise MechanicError(said + hint if hint and "unknown name" in said else said) from None

    def count_limit(self, items, what: str, where: str):
        if len(items) > LIMITS[what]:
            self.fail(where, f"has {len(items)} {what} (at most {LIMITS[what]})")
