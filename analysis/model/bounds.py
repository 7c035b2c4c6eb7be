"""What values an expression of a mechanic file can take: the language's two types, and interval
arithmetic over the tree its reader makes (:mod:`analysis.model.expr`).

:func:`interval` gives ``(lo, hi)`` of a node from ranges of its names: the bounds a mechanic's
statistics are checked against, and, with ``decide``, the true/false parts the ranges settle.
"""

from __future__ import annotations

import math

#: The two types of the expression language: a whole number and true/false.
INT, BOOL = "int", "bool"


def _floordiv_interval(a, b):
    (a0, a1), (b0, b1) = a, b
    parts = []
    if b0 <= -1:
        parts.append((b0, min(b1, -1)))
    if b1 >= 1:
        parts.append((max(b0, 1), b1))
    if b0 <= 0 <= b1:
        parts.append((1, 1))  # a zero divisor is refused, or replaced by 1 where its value is unused
    ends = [(x, y) for p in parts for y in p for x in (a0, a1)]
    if any(math.isinf(x) or math.isinf(y) for x, y in ends):  # an unbounded range (decided intervals)
        if any(math.isinf(x) and math.isinf(y) for x, y in ends):
            return -math.inf, math.inf
        values = [_unbounded_floordiv(x, y) for x, y in ends]
    else:
        values = [x // y for x, y in ends]
    return min(values), max(values)


def _unbounded_floordiv(x, y):
    """``x // y`` where one of them (not both) is ``±inf`` and ``y`` is not 0: the limit it tends to."""
    if math.isinf(x):
        return x if y > 0 else -x
    return 0 if x == 0 or (x > 0) == (y > 0) else -1


def _mod_interval(a, b):
    (a0, a1), (b0, b1) = a, b
    los, his = [], []
    if b1 >= 1:
        c0 = max(b0, 1)
        if a0 >= 0 and a1 < c0:
            los.append(a0), his.append(a1)
        else:
            los.append(0), his.append(min(b1 - 1, a1) if a0 >= 0 else b1 - 1)
    if b0 <= -1:
        c1 = min(b1, -1)
        if a1 <= 0 and a0 > c1:
            los.append(a0), his.append(a1)
        else:
            los.append(max(b0 + 1, a0) if a1 <= 0 else b0 + 1), his.append(0)
    if b0 <= 0 <= b1:
        los.append(0), his.append(0)
    return min(los), max(his)


def _decided_cmp(op: str, a, b) -> tuple[int, int]:
    """``(lo, hi)`` of ``a op b`` over the intervals ``a`` and ``b``: (1, 1) true for every value,
    (0, 0) false for every value, (0, 1) either."""
    (a0, a1), (b0, b1) = a, b
    if op in ("<", "<="):
        strict = op == "<"
        true = a1 < b0 if strict else a1 <= b0
        false = a0 >= b1 if strict else a0 > b1
    elif op in (">", ">="):
        return _decided_cmp("<" if op == ">" else "<=", b, a)
    else:
        same = a0 == a1 == b0 == b1
        apart = a1 < b0 or b1 < a0
        true, false = (same, apart) if op == "==" else (apart, same)
    return (1, 1) if true else (0, 0) if false else (0, 1)


def _product(x, y):
    """``x * y`` of two interval ends, an end of ``±inf`` times 0 being 0 (a whole number times 0)."""
    return 0 if x == 0 or y == 0 else x * y


def interval(node, ranges, types, seen, decide=False):
    """``(lo, hi)`` of ``node``; every int node's interval is appended to ``seen`` (if a list).

    ``decide``: true/false parts are decided where the ranges decide them ((1, 1) true, (0, 0)
    false, (0, 1) either), a true/false name's range is taken from ``ranges`` where given, and the
    ends of a range may be ``±math.inf`` (a value without bound, such as the successes of dice
    that roll again).
    """
    op = node[0]
    kids = node[3:] if op == "cmp" else node[2:]
    if op == "const":
        value = node[2]
        out = (value, value) if decide or not isinstance(value, bool) else (0, 1)
    elif op == "name":
        if types[node[2]] == BOOL:
            out = ranges.get(node[2], (0, 1)) if decide else (0, 1)
        else:
            out = ranges[node[2]]
    else:
        inner = [interval(k, ranges, types, seen, decide) for k in kids]
        if decide and op in ("not", "and", "or", "cmp", "if"):
            if op == "not":
                out = (1 - inner[0][1], 1 - inner[0][0])
            elif op == "and":
                out = (min(i[0] for i in inner), min(i[1] for i in inner))
            elif op == "or":
                out = (max(i[0] for i in inner), max(i[1] for i in inner))
            elif op == "cmp":
                parts = [_decided_cmp(o, a, b) for o, a, b in zip(node[2], inner, inner[1:])]
                out = (min(p[0] for p in parts), min(p[1] for p in parts))
            else:
                cond, yes, no = inner
                out = yes if cond == (1, 1) else no if cond == (0, 0) else (min(yes[0], no[0]), max(yes[1], no[1]))
        elif op in ("not", "and", "or", "cmp"):
            out = (0, 1)
        elif op == "neg":
            out = (-inner[0][1], -inner[0][0])
        elif op == "add":
            out = (inner[0][0] + inner[1][0], inner[0][1] + inner[1][1])
        elif op == "sub":
            out = (inner[0][0] - inner[1][1], inner[0][1] - inner[1][0])
        elif op == "mul":
            products = [_product(x, y) for x in inner[0] for y in inner[1]]
            out = (min(products), max(products))
        elif op == "floordiv":
            out = _floordiv_interval(*inner)
        elif op == "ceildiv":
            lo, hi = _floordiv_interval((-inner[0][1], -inner[0][0]), inner[1])
            out = (-hi, -lo)
        elif op == "mod":
            out = _mod_interval(*inner)
        elif op == "min":
            out = (min(i[0] for i in inner), min(i[1] for i in inner))
        elif op == "max":
            out = (max(i[0] for i in inner), max(i[1] for i in inner))
        elif op == "abs":
            lo, hi = inner[0]
            out = (lo, hi) if lo >= 0 else (-hi, -lo) if hi <= 0 else (0, max(-lo, hi))
        elif op == "if":
            out = (min(inner[1][0], inner[2][0]), max(inner[1][1], inner[2][1]))
        else:  # pragma: no cover - the reader makes no other node
            raise AssertionError(op)
    if decide and (out[0] != out[0] or out[1] != out[1]):  # an unbounded end made nan: any value
        out = (-math.inf, math.inf)
    if seen is not None:
        seen.append((out, node[1]))
    return out
