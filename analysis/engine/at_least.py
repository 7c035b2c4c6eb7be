"""At-least-N columns: the exact chance of N or more successes, added to a system's odds table.

A dice system's ``table(..., at_least=SPEC)`` (and ``--at-least SPEC`` on
its command) adds one column ``p_at_least_N`` per N: the chance that the
roll counts N or more successes after the system's own rules (V5, Werewolf
and Hunter: a pair of 10s with its bonus; Requiem: 10-again; classic: after
1s cancel).  These are derived columns, not outcome classes: they overlap
each other and the classes.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np
import pandas as pd

from analysis.model.validate import InputError, as_values

#: The largest N asked for: no pool the toolkit takes counts more successes.
MAX_AT_LEAST = 10_000
#: Most ``p_at_least_N`` values one table may hold (its cells times the N asked
#: for), checked before any counting, as the grid's own cells are.
MAX_VALUES = 1_000_000


def parse(spec, name: str = "at_least", most: int = MAX_AT_LEAST) -> list:
    """The N of an at-least SPEC (``3``, ``1-5``, ``2,4``), each 0..``most``, sorted, without repeats.

    ``name`` is how a refusal names the option (``--at-least`` on the command line).
    """
    return sorted(set(as_values(name, spec, 0, most)))


def check_size(cells: int, ns, name: str = "at_least") -> None:
    """Refuse, before any counting, a table whose ``cells`` rows times the N of ``ns`` pass :data:`MAX_VALUES`."""
    values = cells * len(ns)
    if values > MAX_VALUES:
        raise InputError(
            name,
            f" asks for {len(ns):,} columns over {cells:,} cells, {values:,} values "
            f"(limit {MAX_VALUES:,}); ask for fewer N or a smaller grid",
        )


#: Most dice the distributions of successes behind the columns may hold, summed over the distinct
#: rolls (a pool and its special dice) of a table: about half a minute of counting (a roll's
#: distribution costs about a tenth of a millisecond per die, once per roll, not per cell).
MAX_DICE = 200_000


def check_dice(dice, name: str = "at_least") -> None:
    """Refuse, before any counting, columns whose distributions of successes would hold more than
    :data:`MAX_DICE` dice: ``dice`` lists the dice of each distinct roll of the table."""
    dice = list(dice)
    total = sum(dice)
    if total > MAX_DICE:
        raise InputError(
            name,
            f" needs the distributions of successes of {len(dice):,} rolls, {total:,} "
            f"dice in all (limit {MAX_DICE:,}); ask for fewer or smaller pools",
        )


#: Again-dice (Requiem, La Soif) have no largest count: a roll's distribution is counted up to the
#: largest N, in time that grows with its dice times that N.  At most this many, summed over the rolls
#: (about half a minute of counting, in a sweep's chunks).
MAX_DICE_SUCCESSES = 5_000_000


def check_dice_successes(dice, top: int, name: str = "at_least") -> None:
    """Refuse, before any counting, again-dice distributions up to ``top`` successes whose dice
    (``dice``: each distinct roll's) times ``top + 1`` pass :data:`MAX_DICE_SUCCESSES`."""
    dice = list(dice)
    total = sum(dice) * (top + 1)
    if total > MAX_DICE_SUCCESSES:
        raise InputError(
            name,
            f" needs the distributions of {len(dice):,} rolls of again-dice up to {top:,} "
            f"successes, {total:,} dice x successes (limit {MAX_DICE_SUCCESSES:,}); ask for "
            f"a smaller largest N or smaller pools",
        )


def column(n: int) -> str:
    """The name of the at-least column for ``n``: ``p_at_least_N``."""
    return f"p_at_least_{n}"


def tail(successes: dict, n: int) -> Fraction:
    """P(successes >= n) from an exact distribution ``{successes: Fraction}`` that sums to 1.

    Summed below ``n`` and taken from 1, so a distribution cut off above
    ``n - 1`` (with its tail left out) still gives the exact answer.
    """
    return 1 - sum((p for s, p in successes.items() if s < n), Fraction(0))


def ways_at_least(ways: dict, ns, total: int | None = None) -> list:
    """The ways of ``n`` or more successes for each ``n`` of ``ns`` (any order), in one pass.

    ``ways`` is ``{successes: ways}`` (whole numbers).  ``total`` is the
    ways of every roll: given, the ways below ``n`` are taken from it (a
    distribution cut off above ``n - 1`` still gives the exact answer);
    else the ways of ``ways`` summed.  Linear in ``len(ways) + len(ns)``
    (after sorting): an N past every success count costs nothing.
    """
    items = sorted(ways.items())
    total = sum(w for _, w in items) if total is None else total
    order = sorted(range(len(ns)), key=lambda j: ns[j])
    out = [0] * len(ns)
    below, i = 0, 0
    for j in order:
        while i < len(items) and items[i][0] < ns[j]:
            below += items[i][1]
            i += 1
        out[j] = total - below
    return out


def tails(successes, ns, exact: bool) -> list[Fraction | float]:
    """P(successes >= n) for each ``n`` of ``ns``: Fractions, or (``exact=False``) each ``float(Fraction)``.

    ``successes`` is ``{successes: Fraction}`` summing to 1 (or cut off as
    :func:`tail` allows), or ``(ways, denominator)``: ``{successes: ways}``
    over the ways of every roll.  Equal values share one object.
    """
    if isinstance(successes, tuple):
        ways, den = successes
    else:
        den = lcm(1, *(p.denominator for p in successes.values()))
        ways = {s: p.numerator * (den // p.denominator) for s, p in successes.items()}
    seen: dict = {}
    out = []
    for num in ways_at_least(ways, ns, den):
        value = seen.get(num)
        if value is None:
            value = seen[num] = Fraction(num, den) if exact else num / den  # int / int: correctly rounded
        out.append(value)
    return out


def add_columns(df, spec, distribution, keys, exact: bool):
    """``df`` with a column ``p_at_least_N`` per N of ``spec`` (None: ``df`` unchanged).

    Parameters
    ----------
    df : pandas.DataFrame
        A system's odds table.
    spec : None, int, SPEC string or iterable of ints
        The N wanted (checked, with the table's size, before any counting).
    distribution : callable
        ``distribution(*key, top)``: the exact ``{successes: Fraction}`` of
        one row's roll, exact at least for ``successes < top``, or
        ``({successes: ways}, ways of every roll)``.
    keys : sequence of str
        The columns of ``df`` that fix the roll (rows sharing them share a
        distribution, worked out once).
    exact : bool
        Fractions, else floats (each ``float(Fraction)``: correctly rounded).
    """
    if spec is None:
        return df
    ns = parse(spec)
    check_size(len(df), ns)
    top = max(ns)
    memo: dict[tuple[int, ...], list[Fraction | float]] = {}
    rows = []
    for key in zip(*(df[k].tolist() for k in keys)):
        key = tuple(int(k) for k in key)
        got = memo.get(key)
        if got is None:
            got = memo[key] = tails(distribution(*key, top), ns, exact)
        rows.append(got)

    values = np.array(rows, dtype=object if exact else float).reshape(len(rows), len(ns))
    added = pd.DataFrame(values, index=df.index, columns=[column(n) for n in ns])
    return pd.concat([df, added], axis=1)
