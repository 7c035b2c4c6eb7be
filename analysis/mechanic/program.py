"""Checked rule expressions as programs of :mod:`kernels.rules_vm`: many points, one compiled call.

:meth:`analysis.mechanic.expr.Expr.evaluate` runs a checked tree with numpy,
one array operation per node; that is the reference.  Where a rule set's
class table is made (:mod:`analysis.mechanic.pairs`), a few rules are
evaluated over a few hundred points each time a rule set is met, and
numpy's per-call costs outweigh the work.  This module turns a tree into a
short program once (per tree: the mechanic's own text, whatever the rule
set), and runs the programs over every point in one kernel call.

The machine answers only where the numpy evaluation is sure to give the
same values: every name has a whole number (true/false as 1/0), no divisor
is zero and nothing overflows 64-bit integers, in any lane.  Otherwise these
functions return None and the caller evaluates with numpy, which gives its
own values or its own message.  ``tests/test_mechanic_program.py`` holds
the two equal on every shipped rule and on random expressions.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from kernels import rules_vm as _vm

if TYPE_CHECKING:
    from .expr import Tree

#: An input: values and a divisor, the value at lane ``i`` being ``values[(i // div) % len(values)]``
#: (a column: ``div`` 1 and a value per lane; one value for every lane; or one axis of a grid).
Input = tuple["np.ndarray | list[int]", int]
#: (instructions int64[n, 2], the names read in input order, the stack depth it needs)
Program = tuple[np.ndarray, tuple[str, ...], int]

_ARITH = {"add": _vm.OP_ADD, "sub": _vm.OP_SUB, "mul": _vm.OP_MUL}
_DIVIDE = {"floordiv": _vm.OP_FLOORDIV, "ceildiv": _vm.OP_CEILDIV, "mod": _vm.OP_MOD}
_ONE = {"neg": _vm.OP_NEG, "abs": _vm.OP_ABS, "not": _vm.OP_NOT}
_MANY = {"min": _vm.OP_MIN, "max": _vm.OP_MAX, "and": _vm.OP_AND, "or": _vm.OP_OR}
_COMPARE = {"<": _vm.CMP_LT, "<=": _vm.CMP_LE, ">": _vm.CMP_GT, ">=": _vm.CMP_GE, "==": _vm.CMP_EQ, "!=": _vm.CMP_NE}
_INT64 = (-(2**63), 2**63 - 1)


def scalar(value: int | bool) -> Input | None:
    """One value for every lane (None beyond 64-bit integers: a program reading it declines)."""
    v = int(value)
    return ([v], 1) if _INT64[0] <= v <= _INT64[1] else None


@lru_cache(maxsize=1024)
def program(tree: Tree) -> Program | None:
    """The program of a checked tree (:attr:`analysis.mechanic.expr.Expr.tree`), or None where it
    holds a constant beyond 64-bit integers (numpy then evaluates it)."""
    code: list[tuple[int, int]] = []
    names: dict[str, int] = {}
    height = [0, 0]  # now, most

    def push(op: int, arg: int, change: int) -> None:
        code.append((op, arg))
        height[0] += change
        height[1] = max(height[1], height[0])

    def emit(node: Tree) -> bool:
        op = node[0]
        if op == "const":
            value = int(node[2])
            if not _INT64[0] <= value <= _INT64[1]:
                return False
            push(_vm.OP_CONST, value, 1)
        elif op == "name":
            push(_vm.OP_NAME, names.setdefault(node[2], len(names)), 1)
        elif op in _ARITH or op in _DIVIDE:
            if not (emit(node[2]) and emit(node[3])):
                return False
            push(_ARITH.get(op, _DIVIDE.get(op, 0)), 0, -1)
        elif op in _ONE:
            if not emit(node[2]):
                return False
            push(_ONE[op], 0, 0)
        elif op in _MANY:
            kids = node[2:]
            if not all(emit(k) for k in kids):
                return False
            push(_MANY[op], len(kids), 1 - len(kids))
        elif op == "cmp":  # a < b <= c: each comparison of neighbours, then all of them together
            ops, operands = node[2], node[3:]
            if not emit(operands[0]):
                return False
            for j, (symbol, kid) in enumerate(zip(ops, operands[1:])):
                if not emit(kid):
                    return False
                last = j == len(ops) - 1
                push(_vm.OP_CMP if last else _vm.OP_CMP_KEEP, _COMPARE[symbol], -1 if last else 0)
            if len(ops) > 1:
                push(_vm.OP_AND, len(ops), 1 - len(ops))
        elif op == "if":
            if not (emit(node[2]) and emit(node[3]) and emit(node[4])):
                return False
            push(_vm.OP_IF, 0, -2)
        else:  # pragma: no cover - the reader makes no other node
            raise AssertionError(op)
        return True

    if not emit(tree):
        return None
    instructions = np.array(code, dtype=np.int64).reshape(len(code), 2)
    instructions.setflags(write=False)
    return instructions, tuple(names), height[1]


def _lanes(names: Sequence[str], inputs: Mapping[str, Input | None]) -> Lanes | None:
    """(data, offset, div, size) of the inputs ``names`` read, or None where one is missing."""
    parts = []
    offsets: list[int] = []
    divs: list[int] = []
    sizes: list[int] = []
    for name in names:
        got = inputs.get(name)
        if got is None:
            return None
        values, every = got
        parts.append(values)
        offsets.append(sum(sizes))
        divs.append(every)
        sizes.append(len(values))
    data = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    offset, div, size = np.array([offsets, divs, sizes], dtype=np.int64).reshape(3, len(names))
    return data.astype(np.int64, copy=False), offset, div, size


def classes(rules: Sequence[tuple[Tree | None, int]], inputs: Mapping[str, Input | None], n: int) -> np.ndarray | None:
    """The class of each of ``n`` lanes: that of the first rule ``(tree, class)`` whose tree holds
    there (None: always holds), -1 where none does; or None where the machine cannot answer."""
    ready = _ready(tuple(tree for tree, _ in rules), inputs, n)
    if ready is None:
        return None
    (code, starts, ends, _, _), lanes, stack = ready
    out = np.empty(n, dtype=np.int64)
    klass = np.array([k for _, k in rules], dtype=np.int64)
    if _vm.rules_classes(code, starts, ends, klass, *lanes, n, stack, out) != 0:
        return None
    return out


def values(tree: Tree, inputs: Mapping[str, Input | None], n: int) -> np.ndarray | None:
    """The value of a tree at each of ``n`` lanes (int64; 1 and 0 for true and false), or None where
    the machine cannot answer."""
    ready = _ready((tree,), inputs, n)
    if ready is None:
        return None
    (code, _, _, _, _), lanes, stack = ready
    if _vm.rules_run(code, 0, len(code), *lanes, n, stack) != 0:
        return None
    out: np.ndarray = stack[0]
    return out


def holds(tree: Tree, inputs: Mapping[str, Input | None], n: int) -> bool | None:
    """Whether a true/false tree holds in all of ``n`` lanes, or None where the machine cannot answer."""
    ready = _ready((tree,), inputs, n)
    if ready is None:
        return None
    (code, _, _, _, _), lanes, stack = ready
    got = _vm.rules_hold(code, 0, len(code), *lanes, n, stack)
    return None if got < 0 else got == 1


Joined = tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...], int]
Lanes = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _ready(
    trees: tuple[Tree | None, ...], inputs: Mapping[str, Input | None], n: int
) -> tuple[Joined, Lanes, np.ndarray] | None:
    """What a call of the machine takes: the programs joined (:func:`_joined`), the inputs as lanes
    (:func:`_lanes`) and a stack deep enough; None where a tree or an input cannot be given to it."""
    joined = _joined(trees)
    if joined is None:
        return None
    lanes = _lanes(joined[3], inputs)
    if lanes is None:
        return None
    return joined, lanes, np.empty((max(joined[4], 1), n), dtype=np.int64)


@lru_cache(maxsize=256)
def _joined(trees: tuple[Tree | None, ...]) -> Joined | None:
    """The programs of ``trees`` one after the other, reading one list of names: (code, starts,
    ends, names, depth); an empty program for None."""
    names: dict[str, int] = {}
    parts: list[np.ndarray] = []
    bounds: list[tuple[int, int]] = []
    depth = 0
    at = 0
    for tree in trees:
        if tree is None:
            bounds.append((at, at))
            continue
        made = program(tree)
        if made is None:
            return None
        code, read, need = made
        code = code.copy()
        renamed = [names.setdefault(name, len(names)) for name in read]
        is_name = code[:, 0] == _vm.OP_NAME
        code[is_name, 1] = np.array(renamed, dtype=np.int64)[code[is_name, 1]]
        parts.append(code)
        bounds.append((at, at + len(code)))
        at += len(code)
        depth = max(depth, need)
    code = np.concatenate(parts) if parts else np.zeros((0, 2), dtype=np.int64)
    starts = np.array([b[0] for b in bounds], dtype=np.int64)
    ends = np.array([b[1] for b in bounds], dtype=np.int64)
    for a in (code, starts, ends):
        a.setflags(write=False)
    return code, starts, ends, tuple(names), depth
