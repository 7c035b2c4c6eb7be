"""Input checks and SPEC parsing shared by every system: errors a player understands."""
from __future__ import annotations

import numbers
import re
from typing import Iterable

_SPEC_PART = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def check_int(name: str, value, lo: int | None = None, hi: int | None = None) -> int:
    """Return ``value`` as an int, or raise ValueError naming ``name``.

    Booleans, floats (even 3.0) and strings are refused: a pool of "3.5" dice
    is a mistake to report, not to round.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    value = int(value)
    if lo is not None and hi is not None and not lo <= value <= hi:
        raise ValueError(f"{name} must be {lo}..{hi}, got {value}")
    if lo is not None and value < lo:
        raise ValueError(f"{name} must be at least {lo}, got {value}")
    if hi is not None and value > hi:
        raise ValueError(f"{name} must be at most {hi}, got {value}")
    return value


def check_bool(name: str, value) -> bool:
    """Return ``value`` if it is True or False, else raise ValueError naming ``name``.

    Parameters
    ----------
    name : str
        The option's name, as the player wrote it.
    value : object
        The value to check (1, 0 and "yes" are refused).

    Returns
    -------
    bool
    """
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return value


#: Most values one SPEC may name (all its ranges and numbers together).
MAX_SPEC_VALUES = 100_000


def parse_spec(name: str, text: str, lo: int | None = None, hi: int | None = None) -> list[int]:
    """Parse a SPEC: an integer ``7``, a range ``1-20`` or a list ``3,5,7``.

    Lists may mix ranges (``1-3,8``).  Duplicates are dropped, order kept.
    The ends of every range are checked against ``lo``..``hi`` (when given)
    and the number of values against ``MAX_SPEC_VALUES`` before anything is
    expanded, so a range such as ``0-1000000000000`` is refused at once; the
    work is linear in the number of values.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(
            f"{name}: expected a number, a range like 1-20 or a list like 3,5,7, got {text!r}"
        )
    ranges = []
    total = 0
    for part in text.split(","):
        m = _SPEC_PART.match(part)
        if not m:
            raise ValueError(
                f"{name}: {part.strip()!r} is not a whole number >= 0, a range like 1-20 "
                f"or a list like 3,5,7"
            )
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) is not None else a
        if b < a:
            raise ValueError(f"{name}: the range {a}-{b} runs backwards; write {b}-{a}")
        for v in (a, b):
            check_int(name, v, lo, hi)
        total += b - a + 1
        if total > MAX_SPEC_VALUES:
            what = f"the range {a}-{b}" if b > a and len(ranges) == 0 else "the SPEC"
            raise ValueError(f"{name}: {what} is too long (at most {MAX_SPEC_VALUES} values)")
        ranges.append((a, b))
    seen: dict[int, None] = {}
    for a, b in ranges:
        for v in range(a, b + 1):
            seen[v] = None
    return list(seen)


def as_values(name: str, spec, lo: int | None = None, hi: int | None = None) -> list[int]:
    """Accept an int, a SPEC string or an iterable of ints; check each value."""
    if isinstance(spec, str):
        values: Iterable = parse_spec(name, spec, lo, hi)
    elif isinstance(spec, numbers.Integral) and not isinstance(spec, bool):
        values = [spec]
    else:
        try:
            values = list(spec)
        except TypeError:
            raise ValueError(
                f"{name} must be a whole number, a SPEC string or a list of numbers, got {spec!r}"
            ) from None
        if not values:
            raise ValueError(f"{name}: the list of values is empty")
    return [check_int(name, v, lo, hi) for v in values]


def check_faces(name: str, faces) -> list[int]:
    """A list of d10 faces (1..10) that have landed, or a ValueError naming ``name``."""
    try:
        faces = list(faces)
    except TypeError:
        raise ValueError(f"{name} must be a list of d10 faces 1..10, got {faces!r}") from None
    return [check_int(f"a face in {name}", f, 1, 10) for f in faces]
