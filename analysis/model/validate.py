"""Input checks and SPEC parsing shared by every system: errors a player understands."""

from __future__ import annotations

import difflib
import itertools
import math
import numbers
import re
from fractions import Fraction
from typing import Iterable

_SPEC_PART = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


class InputError(ValueError):
    """A value refused, in one sentence that starts with the name of what was given (``pool must be 0..100,
    got 101``).

    ``name`` is that name, as the caller gave it to the check (an API parameter such as ``pool``, or an
    option such as ``--pool``); ``rest`` is the sentence after it.  A caller that knows the name by
    another word puts it there with :meth:`named` (the command line names the option typed).
    """

    def __init__(self, name: str, rest: str) -> None:
        super().__init__(name, rest)
        self.name, self.rest = name, rest

    def __str__(self) -> str:
        return f"{self.name}{self.rest}"

    def named(self, name: str) -> str:
        """The sentence with ``name`` in place of the name it starts with."""
        return f"{name}{self.rest}"


#: The largest whole number any count, difficulty or option takes where the
#: rules set no bound of their own: far past any table, far below the 64-bit
#: integers of the counting kernels (a number such as 2**63 is refused with
#: this range, never passed on to overflow).
MAX_WHOLE = 1_000_000_000


def check_int(name: str, value, lo: int | None = None, hi: int | None = None) -> int:
    """Return ``value`` as an int, or raise an :class:`InputError` naming ``name``.

    Booleans, floats (even 3.0) and strings are refused: a pool of "3.5" dice
    is a mistake to report, not to round.

    A bound left out is :data:`MAX_WHOLE` (``-MAX_WHOLE`` below), so no
    number reaches a 64-bit kernel that it could overflow; ``hi=math.inf``
    leaves the upper bound to a later check (one with the real range).
    """
    if type(value) is not int:  # (a plain int skips the slower checks of abstract types)
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise InputError(name, f" must be a whole number, got {_shown(value)}")
        value = int(value)
    if hi is None and lo is not None and value < lo:
        raise InputError(name, f" must be at least {lo}, got {_shown(value)}")
    lo = -MAX_WHOLE if lo is None else lo
    hi = MAX_WHOLE if hi is None else hi
    if not lo <= value <= hi:
        raise InputError(name, f" must be {lo}..{hi}, got {_shown(value)}")
    return value


def _shown(value) -> str:
    """``value`` for a message: a huge whole number by its size, not its thousands of digits."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and abs(int(value)) >= 10**30:
        n = abs(int(value))
        digits = len(str(n)) if n < 10**4000 else f"about {int(n.bit_length() * 0.30103) + 1}"
        return f"a{' negative' if value < 0 else ''} number of {digits} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_bool(name: str, value) -> bool:
    """Return ``value`` if it is True or False, else raise an :class:`InputError` naming ``name``.

    Parameters
    ----------
    name : str
        The option's name, as the player wrote it.
    value : object
        The value to check (1, 0 and "yes" are refused; a numpy bool is
        taken as the bool it holds).

    Returns
    -------
    bool
    """
    if type(value).__module__ == "numpy" and type(value).__name__ in ("bool_", "bool"):
        return bool(value)
    if not isinstance(value, bool):
        raise InputError(name, f" must be True or False, got {_shown(value)}")
    return value


def check_choice(name: str, value, choices) -> str:
    """Return ``value`` if it is one of ``choices``, else raise an :class:`InputError` naming ``name`` and the
    choices."""
    if value not in choices:
        raise InputError(name, f" must be one of {', '.join(choices)}, got {value!r}")
    return value


def check_probability(name: str, value) -> Fraction:
    """``value`` (an int, a Fraction or a float) as an exact Fraction in 0..1, or a ValueError.

    A float is taken at its exact binary value; NaN, infinities, booleans,
    texts and numbers outside 0..1 are refused.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(name, f" must be a probability 0..1, got {_shown(value)}")
    try:
        # any numbers.Real converts; typeshed's Fraction lists only the built-in ones
        p = Fraction(value)  # type: ignore[call-overload]
    except (ValueError, OverflowError):  # NaN, inf
        raise InputError(name, f" must be a probability 0..1, got {_shown(value)}") from None
    if not 0 <= p <= 1:
        raise InputError(name, f" must be a probability 0..1, got {_shown(value)}")
    return p


#: Most values one SPEC may name (all its ranges and numbers together).
MAX_SPEC_VALUES = 100_000


def materialise(
    name: str, values, what: str = "a list", most: int = MAX_SPEC_VALUES, too_many: str | None = None
) -> list:
    """The items of ``values`` as a list, read once (a generator is consumed here, and only here).

    Texts, dicts and sets are refused: a text is no list of numbers, a dict
    would be read by its keys and a set has no order.  More than ``most``
    items are refused before they are read: a sized object (a range, a
    list) by its length, any other iterable after ``most + 1`` items.
    ``too_many``: the refusal's sentence, ``{count}`` standing for how many.
    """
    if isinstance(values, (str, bytes, dict, set, frozenset)) or not hasattr(values, "__iter__"):
        raise InputError(name, f" must be {what}, got {_shown(values)}")
    size: int | None
    try:
        size, exact_size = len(values), True
    except (TypeError, OverflowError):  # no length, or one past sys.maxsize (a huge range)
        size, exact_size = (most + 1 if isinstance(values, range) else None), False
    items = None
    if size is None:  # an iterator: read no more than one item past the limit
        items = list(itertools.islice(values, most + 1))
        size = len(items)
    if size > most:
        count = f"{size:,}" if exact_size else f"more than {most:,}"
        if too_many:
            raise ValueError(too_many.format(count=count))
        raise InputError(name, f" has {count} items (at most {most:,})")
    return list(values) if items is None else items


#: Digits past which a SPEC's number is refused unread: Python's own limit on reading digits is 4,300,
#: and its message does not name the option.
_MAX_SPEC_DIGITS = 4000


def _whole(name: str, digits: str, lo, hi) -> int:
    """The number a SPEC writes as ``digits``; one too long for any bound is refused by its size, unread."""
    digits = digits.lstrip("0") or "0"
    bound = MAX_WHOLE if hi is None else hi
    finite = isinstance(bound, numbers.Integral) and bound < 10**30
    if len(digits) > 30 and (finite or len(digits) > _MAX_SPEC_DIGITS):
        if finite:  # as check_int says it (the size of a number past 4,000 digits is given as "about")
            size = len(digits) if len(digits) <= _MAX_SPEC_DIGITS else f"about {len(digits)}"
            raise InputError(
                name, f" must be {-MAX_WHOLE if lo is None else lo}..{bound}, got a number of {size} digits"
            )
        raise InputError(
            name, f" must be a number of at most {_MAX_SPEC_DIGITS:,} digits, got one of {len(digits)} digits"
        )
    return int(digits)


def parse_spec(name: str, text: str, lo: int | None = None, hi: int | None = None) -> list[int]:
    """Parse a SPEC: an integer ``7``, a range ``1-20`` or a list ``3,5,7``.

    Lists may mix ranges (``1-3,8``).  Duplicates are dropped, order kept.
    The ends of every range are checked against ``lo``..``hi`` (when given)
    and the number of values against ``MAX_SPEC_VALUES`` before anything is
    expanded, so a range such as ``0-1000000000000`` is refused at once; the
    work is linear in the number of values.
    """
    if not isinstance(text, str) or not text.strip():
        raise InputError(name, f": expected a number, a range like 1-20 or a list like 3,5,7, got {text!r}")
    ranges: list[tuple[int, int]] = []
    total = 0
    for part in text.split(","):
        m = _SPEC_PART.match(part)
        if not m:
            raise InputError(
                name, f": {part.strip()!r} is not a whole number >= 0, a range like 1-20 or a list like 3,5,7"
            )
        a = _whole(name, m.group(1), lo, hi)
        b = _whole(name, m.group(2), lo, hi) if m.group(2) is not None else a
        if b < a:
            raise InputError(name, f": the range {a}-{b} runs backwards; write {b}-{a}")
        for v in (a, b):
            check_int(name, v, lo, hi)
        total += b - a + 1
        if total > MAX_SPEC_VALUES:
            what = f"the range {a}-{b}" if b > a and len(ranges) == 0 else "the SPEC"
            raise InputError(name, f": {what} is too long (at most {MAX_SPEC_VALUES} values)")
        ranges.append((a, b))
    seen: dict[int, None] = {}
    for a, b in ranges:
        for v in range(a, b + 1):
            seen[v] = None
    return list(seen)


def as_values(name: str, spec, lo: int | None = None, hi: int | None = None) -> list[int]:
    """The values of an axis: an int, a SPEC string, a range, or a list, tuple or array of ints.

    Each value is checked with :func:`check_int`.  A dict (whose keys a
    loop would read), a set (no order), a bool, a float and a nested list
    are refused with one sentence naming ``name``.
    """
    if type(spec) is range:  # its ends checked: every value between them passes
        try:
            if 0 < len(spec) <= MAX_SPEC_VALUES:
                check_int(name, spec[0], lo, hi), check_int(name, spec[-1], lo, hi)
                return list(spec)
        except (InputError, OverflowError):  # (below: the first value refused named, a huge range refused)
            pass
    if isinstance(spec, str):
        values: Iterable = parse_spec(name, spec, lo, hi)
    elif isinstance(spec, numbers.Integral) and not isinstance(spec, bool):
        values = [spec]
    elif getattr(spec, "ndim", 1) == 0:  # a numpy scalar or 0-d array
        values = [spec.item() if hasattr(spec, "item") else spec]
    else:
        values = materialise(name, spec, "a whole number, a SPEC such as \"3-5\" or a list of whole numbers")
        if not values:
            raise InputError(name, ": the list of values is empty")
    return [check_int(name, v, lo, hi) for v in values]


#: Most dice one roll that has landed may show (the largest pool any system takes).
MAX_FACES = 1000


def check_faces(name: str, faces) -> list[int]:
    """A list of d10 faces (1..10) that have landed, at most :data:`MAX_FACES`, or a ValueError naming ``name``."""
    faces = materialise(name, faces, "a list of d10 faces 1..10", MAX_FACES)
    return [check_int(f"a face in {name}", f, 1, 10) for f in faces]


def check_count(name: str, count: int, most: int, dice: str, track: str) -> None:
    """Refuse more than ``most`` special dice (``count`` faces in ``name``): the rules cap them.

    ``dice`` and ``track`` name them in the sentence (``"Hunger dice"``,
    ``"Hunger"``): a roll shows one such die per point of the track.
    """
    if count > most:
        raise InputError(
            name, f" holds {count} {dice}; a roll has at most {most} (one per point of {track}, 0..{most})"
        )


#: Grids above this many cells are refused: a bigger table has no use and
#: would not fit in memory as exact Fractions.
MAX_CELLS = 1_000_000


def check_cells(counts: dict, limit: int = MAX_CELLS, what: str = "grid") -> int:
    """The number of cells of a grid with ``counts`` = ``{name: number of values}``, or a ValueError.

    The one size check of every sweep, run before any work: the message
    gives the size, the limit and the option (or axis) with the most values,
    as in "this grid has 31,200,000 cells (limit 1,000,000); narrow a SPEC
    (--difficulty has 30,001 values)".
    """
    cells = math.prod(counts.values())
    if cells > limit:
        name, most = max(counts.items(), key=lambda kv: kv[1])
        raise ValueError(
            f"this {what} has {cells:,} cells (limit {limit:,}); narrow a SPEC ({name} has {most:,} values)"
        )
    return cells


def did_you_mean(name, known, prefix: str = "") -> str:
    """`` (did you mean X?)`` for the entry of ``known`` closest to ``name`` (``prefix`` before
    it), or ``""`` when none is close: the hint every "unknown ..." sentence ends with."""
    if not isinstance(name, str):
        return ""
    close = difflib.get_close_matches(name, [str(k) for k in known], n=1)
    return f" (did you mean {prefix}{close[0]}?)" if close else ""


def first_repeat(items):
    """The first item of ``items`` that came before (None if none does): one pass, with a set."""
    seen = set()
    for item in items:
        if item in seen:
            return item
        seen.add(item)
    return None


def column_names(what: str, names) -> list:
    """``names`` (one name, a list, or ``"a,b"`` / ``"a x b"``-free text) as a list of column names."""
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    if not isinstance(names, (list, tuple)):
        names = materialise(what, names, "column names")
    names = list(names)
    if not names or not all(isinstance(n, str) and n for n in names):
        raise ValueError(f"{what} needs at least one column name, got {names!r}")
    return names


def unknown_column(what: str, name: str, known) -> ValueError:
    """A ValueError for a column name that is not in ``known``, with a "did you mean"."""
    hint = did_you_mean(name, known)
    return ValueError(
        f"{what}: the table has no column {name!r}{hint}; its columns are {', '.join(str(k) for k in known)}"
    )


# ------------------------------------------------------------ untrusted text shown

#: Characters never printed as they are: the C0 controls but the line break
#: and the tab (ESC, CR, BEL, backspace...), DEL, the C1 controls (CSI...) and
#: the bidirectional overrides and isolates that reorder what a reader sees.
_UNSHOWN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: What replaces each of them: the same ``?`` an encoding that lacks a character shows.
PLACEHOLDER = "?"
#: A line break (``\n``, ``\r\n``, the Unicode line and paragraph separators) or a tab,
#: with the spaces around it.
_BREAK = re.compile("[ ]*(?:\r\n|[\n\t\u2028\u2029])(?:\r\n|[ \n\t\u2028\u2029])*")


def visible(text) -> str:
    """``text`` with every control character (:data:`_UNSHOWN`) replaced by ``?``.

    Line breaks and tabs stay: for lines printed one by one (an error on stderr).
    """
    text = str(text)
    return _UNSHOWN.sub(PLACEHOLDER, text) if _UNSHOWN.search(text) else text


def one_line(text) -> str:
    """Text from a file someone shared (a rule set's name or description), safe to print on one line.

    Each line break or tab, with the spaces around it, becomes one space (a
    description written over several lines reads as one, and cannot start a
    heading, a table row or a paragraph of its own); every other control
    character (ESC, a lone CR, BEL, C1 controls, bidirectional overrides) becomes
    ``?``, so none reaches a terminal or a file as it is.  Plain spaces are kept.
    """
    text = str(text)
    if _BREAK.search(text):
        text = _BREAK.sub(" ", text)
    return visible(text)


def escape_controls(text: str) -> str:
    """TOML or JSON text with the control characters its writer leaves raw written as ``\\uXXXX``.

    Only for text whose strings take ``\\u`` escapes (TOML basic strings, JSON): the
    value read back is unchanged, and no C1 control or bidirectional override reaches
    a terminal.
    """
    return _UNSHOWN.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if _UNSHOWN.search(text) else text
