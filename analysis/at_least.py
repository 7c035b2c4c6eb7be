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

from .validate import as_values

#: The largest N asked for: no pool the toolkit takes counts more successes.
MAX_AT_LEAST = 10_000


def parse(spec) -> list:
    """The N of an at-least SPEC (``3``, ``1-5``, ``2,4``), each 0..10000, sorted, without repeats."""
    return sorted(set(as_values("at_least", spec, 0, MAX_AT_LEAST)))


def column(n: int) -> str:
    """The name of the at-least column for ``n``: ``p_at_least_N``."""
    return f"p_at_least_{n}"


def tail(successes: dict, n: int) -> Fraction:
    """P(successes >= n) from an exact distribution ``{successes: Fraction}`` that sums to 1.

    Summed below ``n`` and taken from 1, so a distribution cut off above
    ``n - 1`` (with its tail left out) still gives the exact answer.
    """
    return 1 - sum((p for s, p in successes.items() if s < n), Fraction(0))


def add_columns(df, spec, distribution, keys, exact: bool):
    """``df`` with a column ``p_at_least_N`` per N of ``spec`` (None: ``df`` unchanged).

    Parameters
    ----------
    df : pandas.DataFrame
        A system's odds table.
    spec : None, int, SPEC string or iterable of ints
        The N wanted.
    distribution : callable
        ``distribution(*key, top)``: the exact ``{successes: Fraction}`` of
        one row's roll, exact at least for ``successes < top``.
    keys : sequence of str
        The columns of ``df`` that fix the roll (rows sharing them share a
        distribution, worked out once).
    exact : bool
        Fractions, else floats (each ``float(Fraction)``: correctly rounded).
    """
    if spec is None:
        return df
    ns = parse(spec)
    top = max(ns)
    memo = {}
    columns = {column(n): [] for n in ns}
    for key in zip(*(df[k].tolist() for k in keys)):
        key = tuple(int(k) for k in key)
        if key not in memo:
            dist = distribution(*key, top)
            memo[key] = [tail(dist, n) for n in ns]
        for n, p in zip(ns, memo[key]):
            columns[column(n)].append(p if exact else float(p))
    df = df.copy()
    for name, values in columns.items():
        df[name] = values
    return df
