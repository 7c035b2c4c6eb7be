"""The statistics a mechanic's rules read of a roll, and their reduction for one rule set.

A roll's outcome depends only on a few statistics: the number of dice
showing each (kind, mark) pair a rule reads, or a mark summed over every
kind that has it.  :func:`stats_of` lists them for a mechanic; for a rule set
(its parameters fixed) it simplifies the rules and fuses, caps or drops
statistics, so that the engine (:mod:`analysis.engine.count`) counts a
smaller grid with the same ways per class and per success value.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import gcd
from typing import TYPE_CHECKING, Callable, Collection, Container, Iterable, Mapping, cast

from analysis.model.expr import BOOL, Expr
from analysis.model.spec import Mechanic

if TYPE_CHECKING:
    from analysis.model.expr import Tree

#: The linear sums of :func:`_linear_terms`: ``(kinds, occurrences)``, ``kinds[root]`` "zero" or None,
#: ``occurrences[statistic]`` its ``(root, coefficient)`` pairs.
_Roots = tuple[list[str | None], dict[str, list[tuple[int, int]]]]


# ------------------------------------------------------------------ statistics


@dataclass(frozen=True)
class Stats:
    """What the rules read of a roll: named statistics, each a weighted set of (kind, mark) pairs.

    The statistics of a mechanic (``stats_of(mech)``) are one per mark read,
    each pair weighing 1, uncapped, read by the file's own expressions.  The
    statistics of a rule set (``stats_of(mech, values)``) are those of the
    rules with the parameters substituted and simplified (see
    :func:`_reduce`): some fused into one axis (``success+ten``: the sum of
    its members), some capped (``cap``: every value from ``cap`` up reads
    alike, the grid keeps ``cap`` for all of them), and the expressions
    rewritten to read them.
    """

    names: tuple[str, ...]  # e.g. ("ten", "hunger.one", "success+ten")
    members: tuple[tuple[tuple[int, int], ...], ...]  # per statistic: tuple of (kind index, mark index)
    rule_axes: tuple[str, ...]  # axes the counts, outcomes or successes read
    weights: tuple[tuple[int, ...], ...] = ()  # per statistic, per member: what a die showing it adds
    # (1 unless fused over a shared pair)
    caps: tuple[int | None, ...] = ()  # per statistic: None, or the value standing for every
    # value from it up
    counts: tuple[tuple[str, Expr], ...] = ()  # the counts as the grid evaluates them
    whens: tuple[Expr | None, ...] = ()  # per outcome rule, then per column given by ``when``: its
    # ``when`` as the grid evaluates it
    #: None, or (a rule set's statistics for one value of a true/false count, :func:`splits`) the cells of
    #: the grid these statistics count: where that count has that value
    region: Expr | None = None

    def weight(self, s: int, pair: tuple[int, int]) -> int:
        """What a die showing ``pair`` (kind index, mark index) adds to statistic ``s``."""
        for p, w in zip(self.members[s], self.weights[s]):
            if p == pair:
                return w
        return 0

    @property
    def capped(self) -> bool:
        return any(c is not None for c in self.caps)


def _read_names(mech: Mechanic, counts: Iterable[tuple[str, Expr]], whens: Iterable[Expr | None]) -> set[str]:
    read: set[str] = set()
    for e in [e for _, e in counts] + [w for w in whens if w is not None]:
        read |= set(e.names)
    if mech.successes is not None:
        read.add(mech.successes)
    return read


@lru_cache(maxsize=64)
def stats_of(
    mech: Mechanic,
    values: tuple[tuple[str, bool | int], ...] | None = None,
    given: tuple[str, bool] | None = None,
) -> Stats:
    """The statistics of a mechanic (``values`` None), or of one rule set (``values``: parameter pairs);
    ``given``: ``(count, value)``, those of the rule set where a true/false count (:func:`splits`) has that
    value, its :attr:`Stats.region`."""
    if values is not None:
        return _reduce(mech, dict(values), given)
    whens = tuple(o.when for o in mech.outcomes) + tuple(c.when for c in mech.flags)
    read = _read_names(mech, mech.counts, whens)
    names: list[str] = []
    members: list[tuple[tuple[int, int], ...]] = []
    for ki, k in enumerate(mech.kinds):
        for mi, m in enumerate(k.marks):
            if f"{k.name}.{m}" in read:
                names.append(f"{k.name}.{m}")
                members.append(((ki, mi),))
    for m in dict.fromkeys(m for k in mech.kinds for m in k.marks):
        if m in read:
            names.append(m)
            members.append(tuple((ki, k.marks.index(m)) for ki, k in enumerate(mech.kinds) if m in k.marks))
    rule_axes = tuple(a for a in mech.axis_names if a in read)
    return Stats(
        tuple(names),
        tuple(members),
        rule_axes,
        tuple(tuple(1 for _ in m) for m in members),
        tuple(None for _ in names),
        tuple(mech.counts),
        whens,
    )


# ------------------------------------------------------------------ a rule set's statistics, smaller
# With the parameters fixed, the rules often read less than the file says:
# ``2 if specialty else 1`` is 1, ``one if ones_cancel else 0`` is ``one``.
# The trees are simplified with the parameters substituted (exactly: every
# fold gives the value the tree gives, everywhere, and never drops a part
# whose evaluation could refuse), then
#
# * statistics read only together are FUSED: if, in every linear sum (a
#   chain of + - unary - and products with a constant) that holds any of
#   them, each of A, B, ... appears exactly once and all with the same
#   coefficient c, and they appear nowhere else, every expression reads
#   them only as c * (A + B + ...).  One axis holding the sum then gives
#   every expression the same value: the sum's first member is replaced by
#   the fused statistic and the others by 0.
# * a statistic read only by comparisons is CAPPED: if its every occurrence
#   is a direct operand of a comparison whose neighbouring operands read no
#   statistic (only constants, axes and counts that read no statistic),
#   each comparison has one value for all x >= t, where t follows from the
#   interval [lo, hi] of the other side over every axis value: x >= e and
#   x < e are decided from x >= hi, x > e, x <= e, x == e and x != e from
#   x >= hi + 1.  With cap = max(0, every t), every value from cap up reads
#   alike under every rule and context, so the kernel saturates the
#   statistic at cap (adds the ways of all of them into the cell cap).
# * a statistic the simplified rules no longer read is dropped.
#
# Before fusing, a count that is a linear sum of statistics is written into
# every tree that reads it (and left out of the counts, but the successes'
# own), so the rules show which statistics they read and how; and where some
# statistics read in the same sums differ only in a zero test (``ten == 0``
# beside ``success + ten``), that test reads a FLAG instead: a statistic of
# its own counting the dice that show any of the test's marks (0 exactly when
# the positive sum is), capped at 1.  The sums then fuse.
#
# The ways summed per class and per success value are then those of the
# full grid: each reduced cell gathers full cells that every rule reads
# alike.

_LINEAR = ("add", "sub", "neg")
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}


def _is_const(node: Tree, kind: type | None = None) -> bool:
    if node[0] != "const":
        return False
    if kind is bool:
        return isinstance(node[2], bool)
    if kind is int:
        return not isinstance(node[2], bool)
    return True


def _fold(node: Tree, params: Mapping[str, bool | int]) -> Tree:
    """``node`` with the parameters substituted and constant parts folded (same value everywhere).

    A part that is dropped is never one whose evaluation could refuse
    (a division by zero where its value is used): parts are dropped only
    where the evaluator would not use them (an unchosen branch, the parts
    after an ``and`` / ``or`` is decided by a constant) or where they are
    constants.
    """
    op, pos = node[0], node[1]
    if op == "const":
        return node
    if op == "name":
        if node[2] in params:
            v = params[node[2]]
            return ("const", pos, v if isinstance(v, bool) else int(v))
        return node
    if op == "cmp":
        kids = [_fold(k, params) for k in node[3:]]
        if all(_is_const(k, int) for k in kids):
            vals = [k[2] for k in kids]
            return ("const", pos, all(_COMPARE[o](a, b) for o, a, b in zip(node[2], vals, vals[1:])))
        return ("cmp", pos, node[2], *kids)
    kids = [_fold(k, params) for k in node[2:]]
    if op == "if":
        cond, yes, no = kids
        if _is_const(cond, bool):
            return yes if cond[2] else no  # the other branch is never used
        return ("if", pos, *kids)
    if op in ("and", "or"):
        decisive = op == "or"  # the constant that decides an 'or' is true, an 'and' false
        keep: list[Tree] = []
        for k in kids:
            if _is_const(k, bool):
                if k[2] == decisive:
                    # the parts after it are never used; the ones before are still evaluated
                    if not keep:
                        return ("const", pos, decisive)
                    keep.append(k)
                    break
                continue  # a neutral constant
            keep.append(k)
        if not keep:
            return ("const", pos, not decisive)
        return keep[0] if len(keep) == 1 else (op, pos, *keep)
    if op == "not":
        return ("const", pos, not kids[0][2]) if _is_const(kids[0], bool) else ("not", pos, kids[0])
    if all(_is_const(k, int) for k in kids):
        vals = [k[2] for k in kids]
        if op in ("floordiv", "ceildiv", "mod") and vals[1] == 0:
            return (op, pos, *kids)  # refused when evaluated, as before
        value = {
            "add": lambda: vals[0] + vals[1],
            "sub": lambda: vals[0] - vals[1],
            "mul": lambda: vals[0] * vals[1],
            "floordiv": lambda: vals[0] // vals[1],
            "ceildiv": lambda: -((-vals[0]) // vals[1]),
            "mod": lambda: vals[0] % vals[1],
            "neg": lambda: -vals[0],
            "abs": lambda: abs(vals[0]),
            "min": lambda: min(vals),
            "max": lambda: max(vals),
        }[op]()
        return ("const", pos, value)
    a = kids[0]
    b = cast("Tree", kids[1] if len(kids) > 1 else None)  # None only for a one-operand op, which reads no b
    if op == "add":
        if _is_const(a, int) and a[2] == 0:
            return b
        if _is_const(b, int) and b[2] == 0:
            return a
    if op == "sub" and _is_const(b, int) and b[2] == 0:
        return a
    if op == "mul":
        if _is_const(a, int) and a[2] == 1:
            return b
        if _is_const(b, int) and b[2] == 1:
            return a
    return (op, pos, *kids)


def _tree_names(node: Tree, out: set[str]) -> set[str]:
    if node[0] == "name":
        out.add(node[2])
    for k in node[3:] if node[0] == "cmp" else node[2:]:
        if isinstance(k, tuple):
            _tree_names(k, out)
    return out


def _with_tree(e: Expr, tree: Tree, types: Mapping[str, str]) -> Expr:
    """An :class:`Expr` like ``e`` (its text, for messages) counting ``tree`` instead."""
    names = _tree_names(tree, set())
    return Expr(
        e.text,
        e.type,
        frozenset(names),
        _tree=tree,
        _types=tuple(sorted((n, types.get(n, e.name_types.get(n, "int"))) for n in names)),
        _where=getattr(e, "_where", "expression"),
    )


def _linear(node: Tree) -> bool:
    op = node[0]
    return op in _LINEAR or (op == "mul" and (_is_const(node[2], int) or _is_const(node[3], int)))


def _positive_sum(node: Tree, stat_names: Container[str]) -> bool:
    """Whether ``node`` is a sum of statistics with positive constant coefficients (and nothing else)."""
    op = node[0]
    if op == "name":
        return node[2] in stat_names
    if op == "add":
        return _positive_sum(node[2], stat_names) and _positive_sum(node[3], stat_names)
    if op == "mul":
        for const, other in ((node[2], node[3]), (node[3], node[2])):
            if _is_const(const, int) and const[2] > 0:
                return _positive_sum(other, stat_names)
    return False


def _zero_test(op: str, k: int) -> bool:
    """Whether ``r op k`` has one value for every r >= 1 (so, for r >= 0, it reads only whether r is 0)."""
    return k <= 1 if op in (">=", "<") else k <= 0


def _linear_terms(node: Tree, stat_names: Container[str], roots: _Roots, lin: tuple[int, int] | None = None) -> None:
    """Record each statistic read in ``node``: ``(root id, coefficient)`` of the linear sum it is a term of.

    ``roots`` is ``(kinds, occurrences)``: ``kinds[root]`` is "zero" for a
    sum of statistics with positive coefficients compared so that only
    whether it is 0 matters (``success + ten == 0``), else None;
    ``occurrences[name]`` lists the statistic's ``(root, coefficient)``.
    A statistic read outside a linear sum is its own root (coefficient 1).
    """
    op = node[0]
    if op == "name":
        if node[2] in stat_names:
            if lin is None:
                lin = (len(roots[0]), 1)
                roots[0].append(None)
            roots[1].setdefault(node[2], []).append(lin)
        return
    if op == "const":
        return
    if not _linear(node):
        if op == "cmp" and len(node) == 5:
            for i, j in ((3, 4), (4, 3)):
                symbol = node[2][0] if i == 3 else _FLIP[node[2][0]]
                if _is_const(node[j], int) and _zero_test(symbol, node[j][2]) and _positive_sum(node[i], stat_names):
                    root = len(roots[0])
                    roots[0].append("zero")
                    _linear_terms(node[i], stat_names, roots, (root, 1))
                    return
        for k in node[3:] if op == "cmp" else node[2:]:
            _linear_terms(k, stat_names, roots, None)
        return
    if lin is None:
        lin = (len(roots[0]), 1)
        roots[0].append(None)
    root, coef = lin
    if op == "add":
        _linear_terms(node[2], stat_names, roots, (root, coef))
        _linear_terms(node[3], stat_names, roots, (root, coef))
    elif op == "sub":
        _linear_terms(node[2], stat_names, roots, (root, coef))
        _linear_terms(node[3], stat_names, roots, (root, -coef))
    elif op == "neg":
        _linear_terms(node[2], stat_names, roots, (root, -coef))
    else:  # a product with a constant
        const, other = (node[2], node[3]) if _is_const(node[2], int) else (node[3], node[2])
        _linear_terms(other, stat_names, roots, (root, coef * const[2]))


def _substitute(node: Tree, mapping: Mapping[str, str | int]) -> Tree:
    """``node`` with statistic names replaced: ``mapping[name]`` is a new name, or 0."""
    op = node[0]
    if op == "name" and node[2] in mapping:
        new = mapping[node[2]]
        return ("const", node[1], 0) if new == 0 else ("name", node[1], new)
    if op in ("const", "name"):
        return node
    if op == "cmp":
        return (op, node[1], node[2], *(_substitute(k, mapping) for k in node[3:]))
    return (op, node[1], *(_substitute(k, mapping) for k in node[2:]))


def _signatures(names: Collection[str], roots: _Roots) -> dict[str, tuple[tuple[object, ...], int]]:
    """Per statistic read only in linear sums, exactly once per sum: ``((sums, sign, zero tests), scale)``,
    its coefficient in each sum that is not a zero test divided by their common factor (``sums``), and
    the zero tests that read it; statistics with the same first part fuse (:func:`_fusions`)."""
    kinds, occurrences = roots
    signature: dict[str, tuple[tuple[object, ...], int]] = {}
    for n in names:
        per_root: dict[int, int] = {}
        for root, coef in occurrences.get(n, []):
            if root in per_root:
                per_root = {}
                break  # read twice in one sum
            per_root[root] = coef
        regular = [(r, c) for r, c in sorted(per_root.items()) if kinds[r] != "zero"]
        zero = frozenset(r for r in per_root if kinds[r] == "zero")
        if not per_root or any(c == 0 for _, c in regular):
            continue
        if regular:
            g = 0
            for _, c in regular:
                g = gcd(g, abs(c))
            sign = 1 if regular[0][1] > 0 else -1
            norm = tuple((r, c // (g * sign)) for r, c in regular)
            signature[n] = ((norm, sign, zero), abs(regular[0][1]))
        else:
            signature[n] = (((), 1, zero), 1)
    return signature


def _inline_sums(
    counts: list[tuple[str, Expr, Tree]],
    whens: list[tuple[Expr | None, Tree | None]],
    stat_names: Container[str],
    keep: str | None,
) -> tuple[list[tuple[str, Expr, Tree]], list[tuple[Expr | None, Tree | None]]]:
    """The counts that are linear sums of statistics (``normal_tens = normal.ten_again + normal.ten``)
    written into every rule that reads them, and left out of the counts (but ``keep``, the successes):
    fusion and caps then see which statistics the rules read, and how."""
    sums: dict[str, Tree] = {}

    def put(node: Tree) -> Tree:
        op = node[0]
        if op == "name":
            return sums.get(node[2], node)
        if op == "const":
            return node
        start = 3 if op == "cmp" else 2
        return (*node[:start], *(put(k) for k in node[start:]))

    def is_sum(node: Tree) -> bool:
        op = node[0]
        if op == "name":
            return node[2] in stat_names
        if op == "const":
            return _is_const(node, int)
        if op in _LINEAR or op == "mul":
            return _linear(node) and all(is_sum(k) for k in node[2:])
        return False

    out: list[tuple[str, Expr, Tree]] = []
    for cname, e, t in counts:
        t = _fold(put(t), {}) if sums else t
        if cname != keep and e.type != BOOL and is_sum(t):
            sums[cname] = t
        else:
            out.append((cname, e, t))
    if not sums:
        return counts, whens
    return out, [(e, None if t is None else _fold(put(t), {})) for e, t in whens]


def _zero_flags(trees: list[Tree], names: Collection[str]) -> dict[frozenset[str], str]:
    """The zero tests to read through a statistic of their own: ``{statistics summed: flag name}``.

    A statistic read in the same sums as others but also in a zero test
    (``normal_tens == 0`` beside ``successes = success + normal_tens``) cannot
    fuse with them; a flag statistic counting the dice that show any mark of
    the test's sum (0 exactly when the sum is, capped at 1) answers the test
    instead, and the sums fuse."""
    roots: _Roots = ([], {})
    for t in trees:
        _linear_terms(t, names, roots)
    signature = _signatures(names, roots)
    by_sig: dict[tuple[object, ...], list[str]] = {}
    for n, ((norm, sign, _), _) in signature.items():
        if norm:
            by_sig.setdefault((norm, sign), []).append(n)
    marked: set[int] = set()
    for members in by_sig.values():
        zeros = {cast("frozenset[int]", signature[m][0][2]) for m in members}
        if len(members) > 1 and len(zeros) > 1:
            for z in zeros:
                marked |= z
    tests: dict[int, set[str]] = {}
    for n, occ in roots[1].items():
        for root, _ in occ:
            if root in marked:
                tests.setdefault(root, set()).add(n)
    return {frozenset(v): "any(" + "+".join(sorted(v)) + ")" for v in tests.values()}


def _read_flags(node: Tree, flags: Mapping[frozenset[str], str], stat_names: Container[str]) -> Tree:
    """``node`` with each zero test over a sum of ``flags`` reading its flag statistic instead."""
    op = node[0]
    if op in ("name", "const"):
        return node
    if op == "cmp" and len(node) == 5:
        for i, j in ((3, 4), (4, 3)):
            symbol = node[2][0] if i == 3 else _FLIP[node[2][0]]
            if _is_const(node[j], int) and _zero_test(symbol, node[j][2]) and _positive_sum(node[i], stat_names):
                flag = flags.get(frozenset(_tree_names(node[i], set())))
                if flag is not None:
                    new = list(node)
                    new[i] = ("name", node[i][1], flag)
                    return tuple(new)
                break
    start = 3 if op == "cmp" else 2
    return (*node[:start], *(_read_flags(k, flags, stat_names) for k in node[start:]))


def _fusions(names: Collection[str], roots: _Roots) -> list[tuple[str, list[tuple[str, int]]]]:
    """``[(fused name, [(member, weight), ...])]``: the statistics to fuse, each group's weights.

    Statistics A, B, ... fuse into L = wA*A + wB*B + ... (weights positive,
    one of them 1) when each is read only in linear sums, exactly once per
    sum, in the same sums, with coefficients c*wA, c*wB, ... in every sum
    that is not a zero test (one c per sum); in a zero test any positive
    coefficients do (a positive sum of statistics is 0 exactly when each is,
    exactly when L is).
    """
    signature = _signatures(names, roots)
    by_sig: dict[tuple[object, ...], list[str]] = {}
    for n in names:
        if n in signature:
            by_sig.setdefault(signature[n][0], []).append(n)
    out = []
    for members in by_sig.values():
        if len(members) < 2:
            continue
        g = 0
        for m in members:
            g = gcd(g, signature[m][1])
        weights = [signature[m][1] // g for m in members]
        if min(weights) != 1:
            continue  # no member to stand for the sum with coefficient 1
        out.append(
            ("+".join(m if w == 1 else f"{w}*{m}" for m, w in zip(members, weights)), list(zip(members, weights)))
        )
    return out


def _interval_of(tree: Tree, types: Mapping[str, str], ranges: Mapping[str, tuple[int, int]]) -> tuple[int, int]:
    """``(lo, hi)`` of a statistic-free part of a tree, over the given ranges."""
    names = _tree_names(tree, set())
    part = Expr(
        "(part)", "int", frozenset(names), _tree=tree, _types=tuple(sorted((n, types.get(n, "int")) for n in names))
    )
    return part.interval(ranges)


def _cap_of(op: str, hi: int) -> int:
    """From which x the comparison ``x op e`` (e <= hi) has one value."""
    return hi if op in (">=", "<") else hi + 1


def splits(mech: Mechanic, values: tuple[tuple[str, bool | int], ...]) -> tuple[str, ...]:
    """The true/false counts a rule set's rules choose between two expressions by (``a if crit else
    b``): each may split the grid in two (:func:`stats_of`'s ``given``), each part reading only its
    own branch."""
    params = dict(values)
    kinds = {cname: e.type for cname, e in mech.counts}
    found: list[str] = []

    def walk(node: Tree) -> None:
        op = node[0]
        if op in ("name", "const"):
            return
        if op == "if" and node[2][0] == "name" and kinds.get(node[2][2]) == BOOL and node[2][2] not in found:
            found.append(node[2][2])
        for k in node[3:] if op == "cmp" else node[2:]:
            walk(k)

    for _, e in mech.counts:
        walk(_fold(e.tree, params))
    for o in mech.outcomes:
        if o.when is not None:
            walk(_fold(o.when.tree, params))
    return tuple(found)


def _reduce(mech: Mechanic, params: Mapping[str, bool | int], given: tuple[str, bool] | None = None) -> Stats:
    """The statistics of one rule set: simplified, fused, capped (see the comment above); with ``given``,
    of the cells where that count has that value (it reads as that value, and its own rule becomes the
    region)."""
    raw = stats_of(mech)
    applies = [o.applies is None or bool(o.applies.evaluate(params)) for o in mech.outcomes]
    types: dict[str, str] = {}
    counts: list[tuple[str, Expr, Tree]] = []
    region: tuple[Expr, Tree] | None = None
    for cname, e in mech.counts:
        types.update(e.name_types)
        if given is not None and cname == given[0]:
            tree = _fold(e.tree, params)
            region = (e, tree if given[1] else ("not", tree[1], tree))
            params = {**params, cname: given[1]}  # read as its value from here on
            continue
        counts.append((cname, e, _fold(e.tree, params)))
    whens: list[tuple[Expr | None, Tree | None]] = []
    for o, ok in zip(mech.outcomes, applies):
        if o.when is None or not ok:
            whens.append((o.when, None))
        else:
            types.update(o.when.name_types)
            whens.append((o.when, _fold(o.when.tree, params)))
    for col in mech.flags:
        when = cast(Expr, col.when)
        types.update(when.name_types)
        whens.append((when, _fold(when.tree, params)))
    if region is not None:  # reduced with the rules, as the last of them (taken off at the end)
        whens.append(region)
    # sums of statistics written where they are read, then zero tests that keep a sum apart read a flag
    counts, whens = _inline_sums(counts, whens, set(raw.names), mech.successes)
    trees = [t for _, _, t in counts] + [t for _, t in whens if t is not None]
    members_of = {n: (m, w) for n, m, w in zip(raw.names, raw.members, raw.weights)}
    flags = _zero_flags(trees, set(raw.names))
    if flags:
        counts = [(c, e, _read_flags(t, flags, set(raw.names))) for c, e, t in counts]
        whens = [(e, None if t is None else _read_flags(t, flags, set(raw.names))) for e, t in whens]
        trees = [t for _, _, t in counts] + [t for _, t in whens if t is not None]
        for summed, flag in flags.items():
            pairs = tuple(dict.fromkeys(p for n in raw.names if n in summed for p in members_of[n][0]))
            members_of[flag] = (pairs, tuple(1 for _ in pairs))
            types[flag] = "int"
    read: set[str] = set()
    for t in trees:
        _tree_names(t, read)
    bare = {mech.successes} if mech.successes is not None else set()
    names = [n for n in members_of if n in read or n in bare]

    # fusion: statistics read only as one weighted sum
    roots: _Roots = ([], {})
    for t in trees:
        _linear_terms(t, names, roots)
    for n in bare:
        if n in names:
            roots[1].setdefault(n, []).append((len(roots[0]), 1))
            roots[0].append(None)
    fused = _fusions(names, roots)
    groups: dict[str, str] = {}
    mapping: dict[str, str | int] = {}
    for gname, parts in fused:
        lead = next(m for m, w in parts if w == 1)
        for m, _ in parts:
            groups[m] = gname
            mapping[m] = gname if m == lead else 0
    if groups:
        counts = [(c, e, _fold(_substitute(t, mapping), {})) for c, e, t in counts]
        whens = [(e, None if t is None else _fold(_substitute(t, mapping), {})) for e, t in whens]
    # the statistics now: unfused ones in file order, then the fused ones
    stat_names: list[str] = []
    stat_members: list[tuple[tuple[int, int], ...]] = []
    stat_weights: list[tuple[int, ...]] = []
    for n in names:
        if n not in groups:
            stat_names.append(n)
            stat_members.append(members_of[n][0])
            stat_weights.append(members_of[n][1])
    for gname, parts in fused:
        weight: dict[tuple[int, int], int] = {}
        for m, w in parts:
            for pair, pw in zip(*members_of[m]):
                weight[pair] = weight.get(pair, 0) + w * pw
        stat_names.append(gname)
        stat_members.append(tuple(weight))
        stat_weights.append(tuple(weight.values()))
    for gname, _ in fused:
        types[gname] = "int"

    # capping: statistics read only as direct operands of comparisons with statistic-free sides
    trees = [t for _, _, t in counts] + [t for _, t in whens if t is not None]
    stat_set = set(stat_names)
    depends = set(stat_set)
    ranges = {a.name: a.range for a in mech.axes}
    for cname, e, t in counts:
        used = _tree_names(t, set())
        if used & depends:
            depends.add(cname)
        elif e.type != BOOL:
            ranges[cname] = _with_tree(e, t, types).interval(ranges)
    caps = {n: 0 for n in stat_set if n not in bare}

    def scan(node: Tree, parent_ok: bool) -> None:
        op = node[0]
        if op == "name":
            if node[2] in caps and not parent_ok:
                caps.pop(node[2])
            return
        if op == "const":
            return
        if op == "cmp":
            ops, kids = node[2], node[3:]
            for i, k in enumerate(kids):
                if k[0] == "name" and k[2] in caps:
                    for j in (i - 1, i + 1):
                        if not 0 <= j < len(kids):
                            continue
                        other = kids[j]
                        if _tree_names(other, set()) & depends:
                            caps.pop(k[2], None)
                            break
                        # x on the left of ops[i], or on the right of ops[i-1] (flipped)
                        symbol = ops[i] if j == i + 1 else _FLIP[ops[i - 1]]
                        _, hi = _interval_of(other, types, ranges)
                        if k[2] in caps:
                            caps[k[2]] = max(caps[k[2]], _cap_of(symbol, hi))
                else:
                    scan(k, False)
            return
        for k in node[2:]:
            scan(k, False)

    for t in trees:
        scan(t, False)
    reduced_counts = tuple((c, _with_tree(e, t, types)) for c, e, t in counts)
    reduced_whens = tuple(
        e if t is None else _with_tree(cast("Expr", e), t, types)  # t from e's tree
        for e, t in whens
    )
    read = _read_names(mech, reduced_counts, reduced_whens)
    rule_axes = tuple(a for a in mech.axis_names if a in read)
    mask = None
    if region is not None:
        mask, reduced_whens = reduced_whens[-1], reduced_whens[:-1]
    return Stats(
        tuple(stat_names),
        tuple(stat_members),
        rule_axes,
        tuple(stat_weights),
        tuple(caps.get(n) for n in stat_names),
        reduced_counts,
        reduced_whens,
        mask,
    )


#: A tree with a rule set's parameters substituted and its constant parts folded (the same value
#: everywhere): the public name of :func:`_fold`, for the engine's other parts.
fold = _fold
