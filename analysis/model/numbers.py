"""Exact values as text: a fraction, a fixed number of decimals, a percentage, never a float computed in floats.

Every float shown is ``float()`` of the exact fraction (correctly rounded):
a percentage is the exact fraction times 100 (or, from a float, its
shortest decimal with the point moved), a rounded value (``digits``) is
the exact value rounded half up.

Two names for two meanings: :func:`percent_value` is a cell times 100, still
a number (a Fraction), for a table to round or print; :func:`percent_text`
is a probability as a reader sees it, ``"33.3%"``, rounded half up from the
exact fraction and never a misleading ``0%`` or ``100%``.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal
from fractions import Fraction

import numpy as np
import pandas as pd

#: Most decimals ``digits`` may ask for.
MAX_DIGITS = 20


def fraction_text(value) -> str:
    """A probability as ``num/den`` (reduced), or ``0`` / ``1``."""
    f = Fraction(value)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def is_probability(column) -> bool:
    """Whether a value column holds probabilities (shown as percentages by ``percent``).

    A mean, an expectation or a ratio (``mean_successes``, ``expected_turns``,
    ``bestial_ratio``) is not: ``percent`` leaves it as it is.
    """
    name = str(column)
    return not (name.startswith("mean_") or name.startswith("expected_") or name.endswith("_ratio"))


def holds_probabilities(series) -> bool:
    """Whether a table's column holds probabilities: its name says so (:func:`is_probability`) and its
    cells are floats or Fractions (not whole numbers, not texts)."""
    if not is_probability(series.name):
        return False
    if pd.api.types.is_float_dtype(series):
        return True
    return len(series) > 0 and all(isinstance(v, Fraction) for v in series)


def exact_value(value):
    """The exact value of a cell: a Fraction as it is, a float as its shortest decimal (``0.1`` is 1/10).

    None for what is not a number (a text) and for a float that is not finite.
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if v != v or v in (float("inf"), float("-inf")):
            return None
        return Fraction(repr(v))
    return None


#: The decimal arithmetic of :func:`fixed` for a float: half away from zero, and digits enough for any
#: float's shortest decimal with :data:`MAX_DIGITS` decimals (the largest float has 309 digits).
_DECIMALS = Context(prec=400, rounding=ROUND_HALF_UP)
_STEPS = [Decimal(1).scaleb(-d) for d in range(MAX_DIGITS + 1)]


def fixed(value, digits: int) -> str:
    """An exact value rounded (half away from zero) to ``digits`` decimals, as text.

    ``fixed(Fraction(2, 3), 3) == "0.667"``; a float is taken as its shortest decimal (rounded in exact
    decimal arithmetic, the same text as its Fraction's, several times faster: a table of floats
    prints tens of thousands of them).
    """
    if isinstance(value, (float, np.floating)) and 0 <= digits <= MAX_DIGITS and math.isfinite(value):
        d = Decimal(repr(float(value))).quantize(_STEPS[digits], context=_DECIMALS)
        return format(d.copy_abs() if d.is_zero() else d, "f")
    q = exact_value(value)
    if q is None:
        return str(value)
    num, den = abs(q.numerator), q.denominator
    n = (2 * num * 10**digits + den) // (2 * den)  # half up, on the exact value: floor(|q| * 10**digits + 1/2)
    sign = "-" if q.numerator < 0 and n else ""
    text = str(n).rjust(digits + 1, "0")
    return sign + (text[:-digits] + "." + text[-digits:] if digits else text)


def percent_value(value):
    """A cell times 100, exactly: ``float(F * 100)`` for a Fraction, the decimal point moved for a float.

    A number still (a Fraction; a float that is not finite as it is; a text unchanged): a table rounds
    and prints it.
    """
    if isinstance(value, Fraction):
        return value * 100
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if v != v or v in (float("inf"), float("-inf")):
            return v
        return Fraction(repr(v)) * 100
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return Fraction(int(value)) * 100
    return value


def percent_text(value, digits: int = 2) -> str:
    """A probability as a reader sees it: a percentage with ``digits`` decimals, rounded half up from the
    exact value (a float: its shortest decimal); ``0%`` and ``100%`` only when it is exactly that
    (``<0.01%``, ``>99.99%``).  A negative value (a change) is ``-`` and the text of its size.

    >>> percent_text(Fraction(1, 3)), percent_text(Fraction(1, 3), 1), percent_text(Fraction(1, 10**6), 1)
    ('33.33%', '33.3%', '<0.1%')
    """
    exact = exact_value(value)
    if exact is None:
        raise ValueError(f"a percentage needs a number, got {value!r}")
    value = exact
    if value < 0:  # a change (b - a) that went down: the same text, after its sign
        return "-" + percent_text(-value, digits)
    if value == 0:
        return "0%"
    if value == 1:
        return "100%"
    return never_misleading(fixed(value * 100, digits), value * 100, digits) + "%"


def never_misleading(shown: str, percent, digits: int) -> str:
    """A percentage rounded to ``digits`` decimals (``shown``, without ``%``), but ``<0.01`` for a chance
    that is not 0 and rounds to it, and ``>99.99`` for one that is not 1 and rounds to 100 (``percent``:
    the exact value, in percent).

    >>> never_misleading("0.00", Fraction(1, 1000), 2), never_misleading("0.00", 0, 2)
    ('<0.01', '0.00')
    """
    exact = exact_value(percent)
    step = Fraction(1, 10**digits)
    if exact is None:
        return shown
    if Fraction(shown) == 0 and exact > 0:
        return f"<{fixed(step, digits)}"
    if Fraction(shown) == 100 and exact < 100:
        return f">{fixed(100 - step, digits)}"
    return shown


def points_text(value, digits: int = 2) -> str:
    """A change of a probability (b - a) in percentage points with ``digits`` decimals, rounded half up
    from the exact value: ``+`` or ``-`` before every change, ``0`` only when there is none, and a change
    too small to show reads ``+<0.01`` or ``>-0.01`` (never a misleading ``+0.00``).

    >>> points_text(Fraction(1, 3)), points_text(Fraction(-1, 10**6)), points_text(0)
    ('+33.33', '>-0.01', '0')
    """
    exact = exact_value(value)
    if exact is None:
        raise ValueError(f"a change needs a number, got {value!r}")
    if exact == 0:
        return "0"
    text = fixed(abs(exact) * 100, digits)
    if Fraction(text) == 0:
        step = fixed(Fraction(1, 10**digits), digits)
        return f"+<{step}" if exact > 0 else f">-{step}"
    return ("+" if exact > 0 else "-") + text


def json_number(value):
    """A cell as a JSON/CSV number: a float of the exact value (a Fraction's correctly rounded float)."""
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.integer):
        return int(value)
    return value
