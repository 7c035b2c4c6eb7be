"""Safe expressions for mechanics files: a small whitelisted language, checked for types and counted with numpy.

Rules in a mechanics TOML file (untrusted: files people share) are written in
a strict subset of Python's expression syntax.  The text is read with
``ast.parse(mode="eval")`` under length and nesting limits, every node is
checked against a whitelist and turned into this module's own immutable tree
of tuples, and that tree is evaluated here (Python's built-in evaluator is
never used).  The language has whole-number literals (``|n| <= 1_000_000``),
``true`` and ``false``, variables (``success``, or a dotted ``kind.mark`` such
as ``hunger.ten``), ``+ - * // %`` and unary ``-`` / ``+`` on whole numbers,
``/`` only as the whole argument of ``floor(a / b)`` or ``ceil(a / b)``,
comparisons ``< <= > >= == !=`` (chained ones too) of whole numbers,
``and`` / ``or`` / ``not`` on true/false values, ``A if COND else B``, and
calls to ``min`` and ``max`` (2 to 8 arguments), ``floor``, ``ceil`` and
``abs``.  Every node is statically a whole number (``"int"``) or a true/false
value (``"bool"``); a variable's kind is inferred from how it is used (a
variable used only where either fits is a whole number).  Every refusal is an
:class:`ExprError` of one line: ``{where}: {problem} in {text!r} at column N``.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import functools
import math
import operator
import re
import unicodedata
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

import numpy as np

from analysis.model.bounds import BOOL as BOOL, INT as INT, interval

__all__ = ["Expr", "ExprError", "parse"]

#: Longest expression text, in characters.
MAX_LENGTH = 2000
#: Deepest nesting of brackets in the text.
MAX_BRACKETS = 32
#: Most nodes in an expression's tree.
MAX_NODES = 400
#: Deepest nesting of the tree.
MAX_DEPTH = 48
#: Largest constant, in absolute value.
MAX_CONSTANT = 1_000_000
#: Arguments of ``min`` and ``max``.
MIN_ARGS, MAX_ARGS = 2, 8
#: Characters of the expression shown in a message.
SHOWN = 60

FUNCTIONS = ("min", "max", "floor", "ceil", "abs")
_FUNCTION_LIST = "min, max, floor, ceil and abs"
_IDENTIFIER = r"[a-z_][a-z0-9_]*"
_LITERALS = {"true": True, "false": False}
_NEWLINE = r"\r\n|\r|\n"  # line ends as Python's tokenizer counts them

_ARITH = {
    ast.Add: ("add", "+"),
    ast.Sub: ("sub", "-"),
    ast.Mult: ("mul", "*"),
    ast.FloorDiv: ("floordiv", "//"),
    ast.Mod: ("mod", "%"),
}
_BITS = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_NP_COMPARE = {
    "<": np.less,
    "<=": np.less_equal,
    ">": np.greater,
    ">=": np.greater_equal,
    "==": np.equal,
    "!=": np.not_equal,
}
_NP_ARITH = {"add": np.add, "sub": np.subtract, "mul": np.multiply}
_REFUSED = {
    ast.Lambda: "lambda is not allowed",
    ast.ListComp: "comprehensions are not allowed",
    ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed",
    ast.GeneratorExp: "comprehensions are not allowed",
    ast.Subscript: "subscripts ([...]) are not allowed",
    ast.Slice: "subscripts ([...]) are not allowed",
    ast.Starred: "starred expressions (*) are not allowed",
    ast.NamedExpr: "':=' is not allowed",
    ast.JoinedStr: "f-strings are not allowed",
    ast.FormattedValue: "f-strings are not allowed",
    ast.Dict: "dict displays ({...}) are not allowed",
    ast.Set: "set displays ({...}) are not allowed",
    ast.List: "lists ([...]) are not allowed",
    ast.Tuple: "tuples are not allowed",
    ast.Await: "'await' is not allowed",
    ast.Yield: "'yield' is not allowed",
    ast.YieldFrom: "'yield' is not allowed",
}


#: A checked tree: nested tuples ``(op, position, *children)`` (see :attr:`Expr.tree`).
Tree = tuple[Any, ...]


class ExprError(ValueError):
    """An expression was refused when read, or could not be counted."""


def _clean(text: str) -> str:
    """``text`` with control, format and line-separator characters replaced by ``?``."""
    return "".join(
        "?" if unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp") else ch for ch in text
    )


def _shown(text: str) -> str:
    return _clean(text[:SHOWN] + "..." if len(text) > SHOWN else text)


def _name(name: str) -> str:
    """A name for a message: cleaned, and shortened past 40 characters."""
    return repr(_clean(name[:40] + "..." if len(name) > 40 else name))


def _about(n: int) -> str:
    """``n`` (a non-negative int, possibly huge) in a few characters."""
    if n < 10**6:
        return str(n)
    exponent = math.floor(math.log10(n))
    return f"{n / 10**exponent:.1f}e{exponent}" if exponent < 300 else f"1e{exponent}"


def _message(where: str, problem: str, text: str, pos: str = "") -> str:
    return f"{where}: {problem} in {_shown(text)!r}{pos}"


def _where(where) -> str:
    where = _clean(str(where))
    return where[:120] + "..." if len(where) > 120 else where


# --------------------------------------------------------------------------- reading


class _Reader:
    """Turns an ``ast`` tree into the module's tuple tree, inferring types."""

    def __init__(self, text: str, where: str, allowed, declared):
        self.text, self.where = text, where
        # ast.parse refuses leading whitespace: it reads ``source``, positions refer to ``text``
        self.source = text.lstrip()
        prefix = text[: len(text) - len(self.source)]
        prefix_lines = re.split(_NEWLINE, prefix)
        self.line_shift, self.col_shift = len(prefix_lines) - 1, len(prefix_lines[-1])
        self.allowed, self.declared = allowed, declared
        self.nodes = 0
        self.bound: dict = {}  # type variable -> term
        self.vars: dict = {}  # variable name -> term
        self.fresh = 0

    # errors and positions
    def fail(self, problem: str, pos: str = "") -> NoReturn:
        raise ExprError(_message(self.where, problem, self.text, pos))

    def pos(self, node) -> str:
        line, col = getattr(node, "lineno", None), getattr(node, "col_offset", None)
        if line is None or col is None:
            return ""
        lines = re.split(_NEWLINE, self.source)
        if not 1 <= line <= len(lines):
            return ""
        column = len(lines[line - 1].encode("utf-8")[:col].decode("utf-8", "ignore")) + 1
        return self.at(line, column)

    def at(self, line: int, column: int) -> str:
        """`` at column N`` (or `` at line L, column N``) in ``text`` for a position in ``source``."""
        if line == 1:
            column += self.col_shift
        line += self.line_shift
        return f" at column {column}" if line == 1 else f" at line {line}, column {column}"

    # types: "int", "bool", or an int (a type variable)
    def find(self, term):
        while isinstance(term, int) and term in self.bound:
            term = self.bound[term]
        return term

    def unify(self, a, b) -> bool:
        a, b = self.find(a), self.find(b)
        if a == b:
            return True
        if isinstance(a, int):
            self.bound[a] = b
            return True
        if isinstance(b, int):
            self.bound[b] = a
            return True
        return False

    def need(self, term, kind: str, problem: str, node):
        if not self.unify(term, kind):
            self.fail(f"type mismatch: {problem}", self.pos(node))

    def variable(self, name: str, node):
        if name.startswith("_"):
            self.fail(f"names starting with '_' are not allowed: {_name(name)}", self.pos(node))
        if self.allowed is not None and name not in self.allowed:
            hint = difflib.get_close_matches(name, sorted(self.allowed), n=1)
            extra = f" (did you mean {hint[0]!r}?)" if hint else ""
            self.fail(f"unknown name {_name(name)}{extra}", self.pos(node))
        if name not in self.vars:
            kind = self.declared.get(name)
            if kind is None:
                kind, self.fresh = self.fresh, self.fresh + 1
            self.vars[name] = kind
        return ("name", self.pos(node), name), self.vars[name]

    def identifier(self, name: str, node):
        if not name.startswith("_") and re.fullmatch(_IDENTIFIER, name) is None:
            self.fail(f"names are lowercase letters, digits and '_', not {_name(name)}", self.pos(node))

    # the conversion
    def read(self, node, depth: int = 1):
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self.fail(f"too many parts (limit {MAX_NODES})", self.pos(node))
        if depth > MAX_DEPTH:
            self.fail(f"nested too deep (limit {MAX_DEPTH} levels)", self.pos(node))
        pos = self.pos(node)
        down = depth + 1

        if isinstance(node, ast.Constant):
            value: object = node.value
            if isinstance(value, bool):
                return ("const", pos, value), BOOL
            if isinstance(value, int):
                if abs(value) > MAX_CONSTANT:
                    self.fail(f"constant too large: {_about(abs(value))} (limit {MAX_CONSTANT:_})", pos)
                return ("const", pos, value), INT
            problem = {
                float: "decimal numbers are not allowed (counts are whole numbers)",
                complex: "imaginary numbers are not allowed",
                str: "strings are not allowed",
                bytes: "bytes are not allowed",
                type(None): "None is not allowed (use true or false)",
            }.get(type(value), "this constant is not allowed")
            self.fail(problem, pos)

        if isinstance(node, ast.Name):
            name = node.id
            if name in _LITERALS:
                return ("const", pos, _LITERALS[name]), BOOL
            if name in FUNCTIONS:
                self.fail(f"{name!r} is a function: call it as {name}(...)", pos)
            self.identifier(name, node)
            return self.variable(name, node)

        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Attribute):
                self.fail("attribute chains are not allowed (a dotted name is kind.mark)", pos)
            if not isinstance(node.value, ast.Name):
                self.fail("attributes are only allowed on plain names (a dotted name is kind.mark)", pos)
            for part in (node.value.id, node.attr):
                if part.startswith("_"):
                    self.fail(f"names starting with '_' are not allowed: {_name(part)}", pos)
                self.identifier(part, node)
            return self.variable(f"{node.value.id}.{node.attr}", node)

        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Invert):
                self.fail("bit operators (~ & | ^ << >>) are not allowed", pos)
            tree, term = self.read(node.operand, down)
            if isinstance(node.op, ast.Not):
                self.need(term, BOOL, "'not' needs a true/false value", node.operand)
                return ("not", pos, tree), BOOL
            sign = "-" if isinstance(node.op, ast.USub) else "+"
            self.need(term, INT, f"unary {sign!r} needs a whole number", node.operand)
            return (("neg", pos, tree) if sign == "-" else tree), INT

        if isinstance(node, ast.BinOp):
            op = node.op
            if isinstance(op, ast.Pow):
                self.fail("powers (**) are not allowed", pos)
            if isinstance(op, ast.Div):
                self.fail("'/' is only allowed as floor(a / b) or ceil(a / b), since counts are whole numbers", pos)
            if isinstance(op, _BITS):
                self.fail("bit operators (~ & | ^ << >>) are not allowed", pos)
            if type(op) not in _ARITH:
                self.fail(f"the operator {type(op).__name__} is not allowed", pos)
            kind, symbol = _ARITH[type(op)]
            left, lterm = self.read(node.left, down)
            right, rterm = self.read(node.right, down)
            self.need(lterm, INT, f"{symbol!r} needs whole numbers, not true/false", node.left)
            self.need(rterm, INT, f"{symbol!r} needs whole numbers, not true/false", node.right)
            return (kind, pos, left, right), INT

        if isinstance(node, ast.BoolOp):
            word = "and" if isinstance(node.op, ast.And) else "or"
            parts = []
            for value in node.values:
                tree, term = self.read(value, down)
                self.need(term, BOOL, f"{word!r} needs true/false values", value)
                parts.append(tree)
            return (word, pos, *parts), BOOL

        if isinstance(node, ast.Compare):
            ops = []
            for cmp_op in node.ops:
                if isinstance(cmp_op, (ast.Is, ast.IsNot)):
                    self.fail("'is' is not allowed (compare numbers with == or !=)", pos)
                if isinstance(cmp_op, (ast.In, ast.NotIn)):
                    self.fail("'in' is not allowed", pos)
                ops.append(_COMPARE[type(cmp_op)])
            operands = []
            for value, symbol in zip([node.left, *node.comparators], [ops[0], *ops]):
                tree, term = self.read(value, down)
                self.need(term, INT, f"{symbol!r} compares whole numbers, not true/false", value)
                operands.append(tree)
            return ("cmp", pos, tuple(ops), *operands), BOOL

        if isinstance(node, ast.IfExp):
            cond, cterm = self.read(node.test, down)
            self.need(cterm, BOOL, "the condition of 'if ... else' must be true or false", node.test)
            body, bterm = self.read(node.body, down)
            other, oterm = self.read(node.orelse, down)
            if not self.unify(bterm, oterm):
                self.fail(
                    "type mismatch: both branches of 'if ... else' must be whole numbers, or both true/false",
                    self.pos(node.orelse),
                )
            return ("if", pos, cond, body, other), bterm

        if isinstance(node, ast.Call):
            return self.call(node, pos, down)

        problem = _REFUSED.get(type(node), f"{type(node).__name__} is not allowed")
        self.fail(problem, pos)

    def call(self, node, pos: str, down: int):
        func = node.func
        if not isinstance(func, ast.Name):
            self.fail(f"calls are limited to {_FUNCTION_LIST}, called by their plain names", pos)
        name = func.id
        if name not in FUNCTIONS:
            self.fail(f"calls are limited to {_FUNCTION_LIST}, not {_name(name)}", pos)
        if node.keywords:
            self.fail(f"keyword arguments are not allowed in {name}(...)", pos)
        if any(isinstance(a, ast.Starred) for a in node.args):
            self.fail(f"starred arguments (*) are not allowed in {name}(...)", pos)
        n = len(node.args)
        if name in ("min", "max"):
            if not MIN_ARGS <= n <= MAX_ARGS:
                self.fail(f"{name}() takes {MIN_ARGS} to {MAX_ARGS} arguments, not {n}", pos)
        elif n != 1:
            self.fail(f"{name}() takes exactly one argument, not {n}", pos)
        arg = node.args[0]
        if name in ("floor", "ceil") and isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div):
            self.nodes += 1
            left, lterm = self.read(arg.left, down + 1)
            right, rterm = self.read(arg.right, down + 1)
            self.need(lterm, INT, "'/' needs whole numbers, not true/false", arg.left)
            self.need(rterm, INT, "'/' needs whole numbers, not true/false", arg.right)
            return ("floordiv" if name == "floor" else "ceildiv", pos, left, right), INT
        args = []
        for a in node.args:
            tree, term = self.read(a, down)
            self.need(term, INT, f"{name}() needs whole numbers, not true/false", a)
            args.append(tree)
        if name in ("floor", "ceil"):
            return args[0], INT  # a whole number is its own floor and ceiling
        return (name, pos, *args), INT


def _bracket_depth(text: str) -> tuple[int, int]:
    """The deepest bracket nesting in ``text``, and the 1-based column where it first passes the limit."""
    depth = deepest = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if depth > MAX_BRACKETS:
                    return depth, i + 1
        elif ch in ")]}":
            depth -= 1
    return deepest, 0


def parse(text, *, where="expression", names=None, type=None) -> Expr:
    """Read an expression of the mechanics language, refusing anything outside it.

    Parameters
    ----------
    text : str
        The expression, e.g. ``"max(0, successes - hunger.one)"``.  Untrusted:
        it is checked for length and bracket nesting before it is parsed,
        and only whitelisted syntax is accepted.
    where : str, optional
        Where the expression comes from, the start of every error message
        (e.g. ``"mymech.toml, count 'successes'"``).
    names : collection of str or mapping, optional
        The variable names the expression may read (dotted ones as
        ``"hunger.ten"``); any other name is refused, with a did-you-mean
        hint when one is close.  A mapping from name to ``"int"``,
        ``"bool"`` or ``None`` also fixes the kind of those names.  ``None``
        (the default) allows every well-formed name.
    type : {"int", "bool"}, optional
        The kind the result must have.

    Returns
    -------
    Expr
        The checked expression.

    Raises
    ------
    ExprError
        For anything refused: not text, too long, nested too deep, not
        valid syntax, syntax outside the language, a constant too large, an
        unknown name, a type mismatch, or the wrong result type.
    """
    if type not in (None, INT, BOOL):
        raise ValueError(f"type must be None, 'int' or 'bool', not {type!r}")
    where = _where(where)
    if not isinstance(text, str):
        raise ExprError(f"{where}: an expression must be text, not {builtins.type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ExprError(_message(where, f"too long: {len(text)} characters (limit {MAX_LENGTH})", text))
    if not text.strip():
        raise ExprError(_message(where, "empty expression", text))
    if "\x00" in text:
        raise ExprError(
            _message(where, "null characters are not allowed", text, f" at column {text.index(chr(0)) + 1}")
        )
    deepest, column = _bracket_depth(text)
    if deepest > MAX_BRACKETS:
        raise ExprError(
            _message(where, f"brackets nested too deep (limit {MAX_BRACKETS})", text, f" at column {column}")
        )

    if isinstance(names, str):
        raise TypeError("names must be a collection of names, not one string")
    allowed = declared = None
    if names is not None:
        allowed = frozenset(names)
        declared = dict(names) if isinstance(names, Mapping) else {}
        for name, kind in declared.items():
            if kind not in (None, INT, BOOL):
                raise ValueError(f"the kind of {name!r} must be None, 'int' or 'bool', not {kind!r}")
    reader = _Reader(text, where, allowed, declared or {})

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            body = ast.parse(reader.source, mode="eval").body
    except SyntaxError as exc:
        detail = _clean(str(exc.msg or "invalid syntax"))[:80]
        pos = reader.at(exc.lineno, exc.offset) if exc.lineno and exc.offset else ""
        raise ExprError(_message(where, f"not a valid expression ({detail})", text, pos)) from None
    except (RecursionError, MemoryError):
        raise ExprError(_message(where, "too complex to read", text)) from None
    except ValueError:
        raise ExprError(_message(where, "not a valid expression", text)) from None

    tree, term = reader.read(body)
    if type is not None and not reader.unify(term, type):
        reader.fail(
            "must be true or false, not a whole number" if type == BOOL else "must be a whole number, not true/false"
        )
    for name in reader.vars:
        if not isinstance(reader.find(reader.vars[name]), str):
            reader.unify(reader.vars[name], INT)  # used where either kind fits: a whole number
    types = tuple(sorted((name, reader.find(t)) for name, t in reader.vars.items()))
    result = reader.find(term)
    return Expr(
        text, result if isinstance(result, str) else INT, frozenset(reader.vars), _tree=tree, _types=types, _where=where
    )


# --------------------------------------------------------------------------- evaluation


def _live(mask, cond):
    """Where a part's value is used: inside ``mask`` (``None``: everywhere) and where ``cond`` holds."""
    return cond if mask is None else np.logical_and(mask, cond)


class _Run:
    def __init__(self, expr: "Expr", values: dict):
        self.expr, self.values = expr, values

    def divisor(self, b, mask, pos):
        zero = b == 0
        if np.any(zero):
            if np.any(zero if mask is None else np.logical_and(zero, mask)):
                self.expr._fail("division by zero", pos)
            b = np.where(zero, np.int64(1), b)  # where the quotient is never used
        return b

    def run(self, node, mask):
        op, pos = node[0], node[1]
        if op == "const":
            return np.bool_(node[2]) if isinstance(node[2], bool) else np.int64(node[2])
        if op == "name":
            return self.values[node[2]]
        if op in _NP_ARITH:
            return _NP_ARITH[op](self.run(node[2], mask), self.run(node[3], mask))
        if op in ("floordiv", "ceildiv", "mod"):
            a = self.run(node[2], mask)
            b = self.divisor(self.run(node[3], mask), mask, pos)
            if op == "floordiv":
                return np.floor_divide(a, b)
            if op == "ceildiv":
                return np.negative(np.floor_divide(np.negative(a), b))
            return np.remainder(a, b)
        if op == "neg":
            return np.negative(self.run(node[2], mask))
        if op == "abs":
            return np.abs(self.run(node[2], mask))
        if op in ("min", "max"):
            combine = np.minimum if op == "min" else np.maximum
            return functools.reduce(combine, [self.run(k, mask) for k in node[2:]])
        if op == "not":
            return np.logical_not(self.run(node[2], mask))
        if op in ("and", "or"):
            result = self.run(node[2], mask)
            for kid in node[3:]:
                # like Python, a later part only matters where the earlier ones did not decide
                live = _live(mask, result if op == "and" else np.logical_not(result))
                value = self.run(kid, live)
                result = (np.logical_and if op == "and" else np.logical_or)(result, value)
            return result
        if op == "cmp":
            ops, operands = node[2], node[3:]
            left = self.run(operands[0], mask)
            result = None
            for symbol, kid in zip(ops, operands[1:]):
                right = self.run(kid, mask if result is None else _live(mask, result))
                step = _NP_COMPARE[symbol](left, right)
                result = step if result is None else np.logical_and(result, step)
                left = right
            return result
        if op == "if":
            cond = self.run(node[2], mask)
            yes = self.run(node[3], _live(mask, cond))
            no = self.run(node[4], _live(mask, np.logical_not(cond)))
            return np.where(cond, yes, no)
        raise AssertionError(op)  # pragma: no cover - the reader makes no other node


_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_PY_ARITH = {"add": operator.add, "sub": operator.sub, "mul": operator.mul}
_PY_COMPARE = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


class _Undecided(Exception):
    """The scalar path cannot answer as the array path would (an overflow, a division by zero where
    used): the array path runs instead and gives its own answer or message."""


def _scalar_value(expr: "Expr", env):
    """:meth:`Expr.evaluate` where every value read is a plain ``int`` or ``bool``, in Python ints: the
    same value and type as the array path (which it mirrors step by step: every branch computed, a
    divisor where unused taken as 1), or None where the array path must decide (arrays, a missing
    or ill-typed name, a value or intermediate beyond 64-bit integers, a division by zero)."""
    values = {}
    for name, kind in expr._types:
        v = env.get(name, _Undecided)
        if kind == BOOL:
            if type(v) is not bool:
                return None
        elif type(v) is not int or not _INT64_MIN <= v <= _INT64_MAX:
            return None
        values[name] = v
    try:
        out = _scalar_run(expr._tree, values, True)
    except _Undecided:
        return None
    return np.bool_(out) if expr.type == BOOL else np.int64(out)


def _fits(v):
    if type(v) is int and not _INT64_MIN <= v <= _INT64_MAX:
        raise _Undecided
    return v


def _scalar_run(node, values, live):
    op = node[0]
    if op == "const":
        return node[2]
    if op == "name":
        return values[node[2]]
    if op in _PY_ARITH:
        return _fits(_PY_ARITH[op](int(_scalar_run(node[2], values, live)), int(_scalar_run(node[3], values, live))))
    if op in ("floordiv", "ceildiv", "mod"):
        a = int(_scalar_run(node[2], values, live))
        b = int(_scalar_run(node[3], values, live))
        if b == 0:
            if live:
                raise _Undecided
            b = 1
        if op == "floordiv":
            return _fits(a // b)
        if op == "ceildiv":
            return _fits(-((-a) // b))
        return _fits(a % b)
    if op == "neg":
        return _fits(-int(_scalar_run(node[2], values, live)))
    if op == "abs":
        return _fits(abs(int(_scalar_run(node[2], values, live))))
    if op in ("min", "max"):
        parts = [int(_scalar_run(k, values, live)) for k in node[2:]]
        return min(parts) if op == "min" else max(parts)
    if op == "not":
        return not _scalar_run(node[2], values, live)
    if op in ("and", "or"):
        result = bool(_scalar_run(node[2], values, live))
        for kid in node[3:]:
            value = bool(_scalar_run(kid, values, live and (result if op == "and" else not result)))
            result = (result and value) if op == "and" else (result or value)
        return result
    if op == "cmp":
        ops, operands = node[2], node[3:]
        left = _scalar_run(operands[0], values, live)
        result = None
        for symbol, kid in zip(ops, operands[1:]):
            right = _scalar_run(kid, values, live if result is None else live and result)
            step = _PY_COMPARE[symbol](left, right)
            result = step if result is None else (result and step)
            left = right
        return bool(result)
    if op == "if":
        cond = bool(_scalar_run(node[2], values, live))
        yes = _scalar_run(node[3], values, live and cond)
        no = _scalar_run(node[4], values, live and not cond)
        return yes if cond else no
    raise AssertionError(op)  # pragma: no cover - the reader makes no other node


@dataclass(frozen=True)
class Expr:
    """A checked expression: made by :func:`parse`, counted by :meth:`evaluate`.

    Attributes
    ----------
    text : str
        The source text.
    type : {"int", "bool"}
        The kind of its value: a whole number or true/false.
    names : frozenset of str
        Every variable it reads (``"hunger.ten"`` for a dotted one; not
        ``true`` / ``false``).
    """

    text: str
    type: str
    names: frozenset[str]
    _tree: Tree = field(default=("const", "", 0), repr=False, compare=False)
    _types: tuple[tuple[str, str], ...] = field(default=(), repr=False, compare=False)
    _where: str = field(default="expression", repr=False, compare=False)

    @property
    def tree(self) -> Tree:
        """The checked tree: nested tuples ``(op, position, *children)`` (read by the engine's analyses)."""
        return self._tree

    @property
    def name_types(self) -> dict[str, str]:
        """``{name: "int" or "bool"}``: the kind of every variable it reads."""
        return dict(self._types)

    def _fail(self, problem: str, pos: str = "") -> NoReturn:
        raise ExprError(_message(self._where, problem, self.text, pos))

    def evaluate(self, env: Mapping[str, Any]) -> Any:
        """Count the expression for every value of its variables at once.

        Parameters
        ----------
        env : mapping
            A value for every name in :attr:`names`: for a whole-number name
            an ``int`` or an integer numpy array, for a true/false name a
            ``bool`` or a bool numpy array.  Arrays broadcast together (numpy
            broadcasting); other entries are ignored.

        Returns
        -------
        numpy.ndarray or numpy scalar
            ``int64`` (or ``bool``) values, of the broadcast shape of the
            variables it reads (a numpy scalar when that shape is ``()``).
            Division is floor division; ``ceil(a / b)`` is ``-((-a) // b)``;
            ``%`` takes the sign of the divisor.  As in Python, the
            unchosen branch of ``if ... else`` and the undeciding parts of
            ``and`` / ``or`` are computed but do not matter where unchosen.

        Raises
        ------
        ExprError
            A name without a value, a value of the wrong kind, shapes that
            do not broadcast, a division or ``%`` by zero where its value is
            used, or an overflow noticed by numpy (call :meth:`check_range`
            first: arrays are not checked for overflow).
        """
        tree = self._tree
        if tree[0] == "const":  # a number or true/false as written: nothing to look up
            return np.bool_(tree[2]) if self.type == BOOL else np.int64(tree[2])
        quick = _scalar_value(self, env)
        if quick is not None:
            return quick
        values: dict[str, np.ndarray] = {}
        shapes = set()
        for name, kind in self._types:
            if name not in env:
                self._fail(f"no value for {_name(name)}")
            values[name] = v = self._value(name, kind, env[name])
            if v.shape:  # (a single value broadcasts to any shape)
                shapes.add(v.shape)
        try:
            shape = shapes.pop() if len(shapes) == 1 else np.broadcast_shapes(*shapes)
        except ValueError:
            self._fail(
                "the values' shapes do not broadcast together: "
                + ", ".join(f"{n} {np.shape(v)}" for n, v in values.items())[:120]
            )
        try:
            with np.errstate(all="raise"):
                out = _Run(self, values).run(self._tree, None)
        except FloatingPointError:
            self._fail("integer overflow (values beyond 64-bit integers; see check_range)")
        dtype = bool if self.type == BOOL else np.int64
        out = np.array(out if out.shape == shape else np.broadcast_to(out, shape), dtype=dtype)  # (a copy)
        return out[()] if out.ndim == 0 else out

    def _value(self, name: str, kind: str, value: object) -> np.ndarray:
        if type(value) is np.ndarray and value.dtype == (np.bool_ if kind == BOOL else np.int64):
            return value  # already what the checks below would make of it
        try:
            array = np.asarray(value)
        except (ValueError, TypeError, OverflowError):
            self._fail(f"the value of {_name(name)} is not a number or an array")
        if kind == BOOL:
            if array.dtype.kind != "b":
                self._fail(f"{_name(name)} must be true/false values, not {array.dtype}")
            return array
        if array.dtype.kind not in "iu":
            self._fail(f"{_name(name)} must be whole numbers in 64-bit integers, not {array.dtype}")
        if array.dtype.kind == "u" and array.size and array.max() > np.iinfo(np.int64).max:
            self._fail(f"{_name(name)} has values beyond 64-bit integers")
        return array.astype(np.int64, copy=False)

    def _ranges(self, ranges: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
        out = {}
        for name, kind in self._types:
            if kind == BOOL:
                continue
            if name not in ranges:
                self._fail(f"no range for {_name(name)}")
            try:
                lo, hi = ranges[name]
                lo, hi = operator.index(lo), operator.index(hi)
            except (TypeError, ValueError):
                self._fail(f"the range of {_name(name)} must be two whole numbers (lo, hi)")
            if lo > hi:
                self._fail(f"the range of {_name(name)} is empty: {lo} > {hi}")
            out[name] = (lo, hi)
        return out

    def interval(self, ranges: Mapping[str, Any]) -> tuple[int, int]:
        """Bounds on every value the expression can take.

        Parameters
        ----------
        ranges : mapping
            ``(lo, hi)`` (inclusive ints) for every whole-number name in
            :attr:`names`; entries for true/false names are ignored.

        Returns
        -------
        tuple of int
            ``(lo, hi)`` with ``lo <= value <= hi`` for every choice of the
            variables in their ranges (not always the tightest such pair);
            ``(0, 1)`` for a true/false expression.

        Raises
        ------
        ExprError
            A whole-number name without a proper range.
        """
        checked = self._ranges(ranges)
        if self.type == BOOL:
            return (0, 1)
        return interval(self._tree, checked, dict(self._types), None)

    def decide(self, ranges: Mapping[str, Any]) -> tuple[Any, Any]:
        """Bounds on the expression's value where each name lies in its range, true/false parts decided.

        Parameters
        ----------
        ranges : mapping
            ``(lo, hi)`` for every whole-number name, an end possibly ``±math.inf`` (a statistic
            known only to be at least ``lo``); a true/false name as ``(0, 0)``, ``(1, 1)`` or
            ``(0, 1)`` (left out: either).

        Returns
        -------
        tuple
            ``(lo, hi)``; for a true/false expression ``(1, 1)`` when it holds for every value in the
            ranges, ``(0, 0)`` when it holds for none, else ``(0, 1)``.
        """
        for name, kind in self._types:
            if kind != BOOL and name not in ranges:
                self._fail(f"no range for {_name(name)}")
        return interval(self._tree, ranges, dict(self._types), None, True)

    def check_range(self, ranges: Mapping[str, Any], limit: int = 2**62) -> tuple[int, int]:
        """Refuse an expression whose values, or any intermediate value, may overflow.

        Parameters
        ----------
        ranges : mapping
            As for :meth:`interval`.
        limit : int, optional
            The largest magnitude allowed anywhere in the computation
            (``2**62`` by default, safely inside 64-bit integers).

        Returns
        -------
        tuple of int
            The expression's :meth:`interval`.

        Raises
        ------
        ExprError
            If the interval of any part of the expression reaches beyond
            ``-limit .. limit``.  A divisor whose range includes 0 is not an
            error here (:meth:`evaluate` checks divisors).
        """
        checked = self._ranges(ranges)
        seen: list = []
        out = interval(self._tree, checked, dict(self._types), seen)
        for (lo, hi), pos in seen:  # innermost first: where the values first grow too large
            top = max(abs(lo), abs(hi))
            if top > limit:
                self._fail(f"may exceed 64-bit integers: values up to about {_about(top)} (limit {_about(limit)})", pos)
        return (0, 1) if self.type == BOOL else out


def evaluate_tree(tree: Tree, env: Mapping[str, Any], where: str = "expression") -> Any:
    """The value of a subtree of a checked expression (see :attr:`Expr.tree`) under ``env``.

    ``env`` maps the names the subtree reads to ints, bools or numpy arrays,
    as for :meth:`Expr.evaluate`; a division by zero raises :class:`ExprError`.
    """
    holder = Expr("(part of an expression)", INT, frozenset(), tree, (), where)
    values: dict[str, np.ndarray] = {}
    if tree[0] == "const":  # a number as written: no value to look up
        return _Run(holder, values).run(tree, None)
    if tree[0] == "name":  # one name: its value, as the loop below would make it
        v = env.get(tree[2])
        if type(v) is int and _INT64_MIN <= v <= _INT64_MAX:
            return np.int64(v)
    for k, v in env.items():
        array = np.asarray(v)
        values[k] = holder._value(k, BOOL if array.dtype.kind == "b" else INT, array)
    with np.errstate(over="raise"):
        out = _Run(holder, values).run(tree, None)
    return out
