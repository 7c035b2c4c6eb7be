"""A mechanic's rule expressions run over many points at once, compiled: a stack machine on columns.

:mod:`analysis.mechanic.expr` checks an expression and evaluates it with
numpy, one array operation per node.  Where a rule set's class table is made
(the pair-of-tens check of :mod:`analysis.mechanic.pairs`), the same few
rules are evaluated over a few hundred points, and numpy's per-call costs
outweigh the work.  Here a rule is a short program (made from the checked
tree by :mod:`analysis.mechanic.program`), run over every point in one
call, each instruction over a whole column.

The machine answers only where numpy's answer is certain to be the same
number: no division or remainder by zero (in any lane, used or not) and
no overflow of 64-bit integers anywhere.  Otherwise it returns a negative
code and the caller evaluates with numpy, which gives its own answer or
message.

An input value ``j`` at lane ``i`` is ``data[offset[j] + (i // div[j]) %
size[j]]``: a column (``div`` 1), a value for every lane (``size`` 1) or
one axis of a grid of lanes.  True and false are 1 and 0.
"""

from __future__ import annotations

from ._jit import IntArray, kernel

# instructions: (op, argument) rows of an int64[n, 2] program
OP_NAME = 0  # push input ``argument``
OP_CONST = 1  # push the constant ``argument``
OP_ADD = 2
OP_SUB = 3
OP_MUL = 4
OP_FLOORDIV = 5
OP_CEILDIV = 6
OP_MOD = 7
OP_NEG = 8
OP_ABS = 9
OP_MIN = 10  # of the top ``argument`` columns
OP_MAX = 11
OP_NOT = 12
OP_AND = 13  # of the top ``argument`` columns
OP_OR = 14
OP_CMP = 15  # a comparison (``argument``: one of CMP_*) of the top two columns
OP_CMP_KEEP = 16  # the same, leaving the right operand on top (for a chain a < b < c)
OP_IF = 17  # (condition, yes, no) on top: yes where the condition holds, else no

CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_EQ, CMP_NE = 0, 1, 2, 3, 4, 5

#: What a program returns where numpy must answer instead: a zero divisor, an overflow.
UNDECIDED = -1

_MIN = -(2**63)
_MAX = 2**63 - 1
_HALF = 2**31  # operands below it in size multiply without overflow


@kernel
def rules_run(
    code: IntArray,
    start: int,
    end: int,
    data: IntArray,
    offset: IntArray,
    div: IntArray,
    size: IntArray,
    n: int,
    stack: IntArray,
) -> int:
    """Run ``code[start:end]`` over lanes ``0 .. n - 1`` (inputs as in the module docstring) on
    ``stack`` (int64[depth, >= n], depth at least the program's): returns the row of ``stack``
    holding the result, or :data:`UNDECIDED` (a zero divisor or an overflow, in any lane)."""
    if stack.shape[1] < n:
        raise ValueError("the stack is narrower than the lanes")
    top = -1
    for at in range(start, end):
        op = code[at, 0]
        arg = code[at, 1]
        if op == OP_NAME or op == OP_CONST:
            top += 1
            if top >= stack.shape[0]:
                raise ValueError("the stack is shallower than the program")
            row = stack[top]
            if op == OP_CONST:
                for i in range(n):
                    row[i] = arg
            else:  # blocks of ``div`` lanes take one value each, the values in turn
                base, d, m = offset[arg], div[arg], size[arg]
                if n > 0 and (d < 1 or m < 1 or base < 0 or base + m > data.shape[0]):
                    raise ValueError("an input's values or divisor do not fit its lanes")
                if m == 1:
                    v = data[base]
                    for i in range(n):
                        row[i] = v
                elif d == 1 and m >= n:
                    for i in range(n):
                        row[i] = data[base + i]
                else:
                    i = 0
                    k = 0
                    while i < n:
                        v = data[base + k]
                        for j in range(i, min(i + d, n)):
                            row[j] = v
                        i += d
                        k = k + 1 if k + 1 < m else 0
        elif op == OP_NOT:
            row = stack[top]
            for i in range(n):
                row[i] = 1 - row[i]
        elif op == OP_NEG or op == OP_ABS:
            row = stack[top]
            for i in range(n):
                if row[i] == _MIN:
                    return UNDECIDED
            if op == OP_NEG:
                for i in range(n):
                    row[i] = -row[i]
            else:
                for i in range(n):
                    row[i] = abs(row[i])
        elif op == OP_IF:
            c, y, z = stack[top - 2], stack[top - 1], stack[top]
            for i in range(n):
                c[i] = y[i] if c[i] != 0 else z[i]
            top -= 2
        elif op >= OP_MIN and op <= OP_OR and op != OP_NOT:
            out = stack[top - arg + 1]
            for k in range(top - arg + 2, top + 1):
                other = stack[k]
                if op == OP_MIN:
                    for i in range(n):
                        out[i] = min(out[i], other[i])
                elif op == OP_MAX:
                    for i in range(n):
                        out[i] = max(out[i], other[i])
                elif op == OP_AND:  # (true and false are 1 and 0)
                    for i in range(n):
                        out[i] = out[i] & other[i]
                else:
                    for i in range(n):
                        out[i] = out[i] | other[i]
            top -= arg - 1
        elif op == OP_CMP or op == OP_CMP_KEEP:
            left, right = stack[top - 1], stack[top]
            if arg == CMP_LT:
                for i in range(n):
                    left[i] = left[i] < right[i]
            elif arg == CMP_LE:
                for i in range(n):
                    left[i] = left[i] <= right[i]
            elif arg == CMP_GT:
                for i in range(n):
                    left[i] = left[i] > right[i]
            elif arg == CMP_GE:
                for i in range(n):
                    left[i] = left[i] >= right[i]
            elif arg == CMP_EQ:
                for i in range(n):
                    left[i] = left[i] == right[i]
            else:
                for i in range(n):
                    left[i] = left[i] != right[i]
            if op == OP_CMP:
                top -= 1
        elif op == OP_ADD or op == OP_SUB:  # each lane checked for overflow before it is computed
            left, right = stack[top - 1], stack[top]
            wrong = False
            if op == OP_ADD:
                for i in range(n):
                    a, b = left[i], right[i]
                    wrong |= (b > 0 and a > _MAX - b) or (b < 0 and a < _MIN - b)
            else:
                for i in range(n):
                    a, b = left[i], right[i]
                    wrong |= (b < 0 and a > _MAX + b) or (b > 0 and a < _MIN + b)
            if wrong:
                return UNDECIDED
            if op == OP_ADD:
                for i in range(n):
                    left[i] += right[i]
            else:
                for i in range(n):
                    left[i] -= right[i]
            top -= 1
        else:  # two operands, the result in the left one's row
            left, right = stack[top - 1], stack[top]
            for i in range(n):
                a, b = left[i], right[i]
                if op == OP_MUL:  # checked before it is computed: |a| * |b| <= _MAX
                    if -_HALF < a < _HALF and -_HALF < b < _HALF:
                        r = a * b
                    elif a == 0 or b == 0:
                        r = 0
                    elif a == _MIN or b == _MIN:
                        if a != 1 and b != 1:
                            return UNDECIDED
                        r = a * b
                    else:
                        if abs(a) > _MAX // abs(b):
                            return UNDECIDED
                        r = a * b
                else:  # division and remainder, floored as in Python
                    if b == 0 or (a == _MIN and b == -1):
                        return UNDECIDED
                    if op == OP_FLOORDIV:
                        r = a // b
                    elif op == OP_MOD:
                        r = a % b
                    else:  # ceiling: -((-a) // b)
                        if a == _MIN:
                            return UNDECIDED
                        r = -((-a) // b)
                left[i] = r
            top -= 1
    if top != 0:
        raise ValueError("a program leaves one value")
    return 0


@kernel
def rules_classes(
    code: IntArray,
    starts: IntArray,
    ends: IntArray,
    classes: IntArray,
    data: IntArray,
    offset: IntArray,
    div: IntArray,
    size: IntArray,
    n: int,
    stack: IntArray,
    out: IntArray,
) -> int:
    """The class of every lane: ``out[i]`` is ``classes[r]`` for the first rule ``r`` whose program
    ``code[starts[r]:ends[r]]`` holds there (an empty program always holds), -1 where none does.
    Returns 0, or :data:`UNDECIDED` if any rule's program does (then ``out`` is unfinished)."""
    for i in range(n):
        out[i] = -1
    for r in range(starts.shape[0]):
        if starts[r] == ends[r]:
            for i in range(n):
                if out[i] < 0:
                    out[i] = classes[r]
            break
        row = rules_run(code, starts[r], ends[r], data, offset, div, size, n, stack)
        if row < 0:
            return UNDECIDED
        hit = stack[row]
        for i in range(n):
            if out[i] < 0 and hit[i] != 0:
                out[i] = classes[r]
    return 0


@kernel
def rules_hold(
    code: IntArray,
    start: int,
    end: int,
    data: IntArray,
    offset: IntArray,
    div: IntArray,
    size: IntArray,
    n: int,
    stack: IntArray,
) -> int:
    """Whether ``code[start:end]`` (a true/false program) holds in every lane: 1 or 0, or
    :data:`UNDECIDED` (see :func:`rules_run`)."""
    row = rules_run(code, start, end, data, offset, div, size, n, stack)
    if row < 0:
        return UNDECIDED
    result = stack[row]
    for i in range(n):
        if result[i] == 0:
            return 0
    return 1
