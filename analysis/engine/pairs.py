"""The engine's fast path for pair-of-tens pools.

A mechanic proved to have that shape is counted by generating functions.

Many d10 mechanics (V5's Hunger dice, Werewolf's Rage dice, Hunter's
Desperation dice, and designers' files built like them) roll *normal* dice
and one kind of *special* dice, count a success per success face, and add
a bonus for each pair of 10s on any dice.  For them the general statistics
grid grows as ``pool ** 2`` (successes times tens), but four features
suffice: the successes (pairs counted), whether a pair of 10s shows, and
the special dice's 10s and marks up to 2.  :mod:`analysis.engine.pairs_count`
(with the kernels of :mod:`kernels.special`) counts exactly those features,
in int64, primes or Python-int generating functions, for pools of any size.

:func:`form` decides, from the syntax of the rules alone, whether a
mechanic has that shape; what the syntax leaves open is then checked by
evaluating the mechanic's own rules exhaustively (:func:`count` returns None
and the general engine counts instead when anything does not hold), so the
fast path never changes a number:

* two kinds of d10, ``normal`` and ``special`` (any names); the rules read
  the marks ``S`` and ``T`` summed over both kinds (``success``, ``ten``)
  and at most the special kind's ``T`` mark and one other special mark;
* the successes count is a sum of ``S``, ``T``, ``k * floor(T / 2)`` (``k``
  read from parameters and axes) and bonus terms that read no ``S``,
  ``T`` nor counts of them;
* the outcome rules read the successes only as ``successes >= D`` or
  ``successes < D`` (``D`` one axis, the Difficulty) and as ``successes ==
  0`` and its equivalents; ``T`` only as ``T >= 2`` (a pair) and its
  equivalents; ``S`` not at all; other counts read neither;
* evaluated over every band of successes, both pair values and every count
  of special marks and 10s (all of them, up to the most special dice the
  axes allow), the rules give one class per (band, pair, capped special
  10s, capped marks), and the bonus depends on the capped marks alone.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Literal, Mapping, Sequence, cast, overload

import numpy as np

from analysis.engine import seam
from analysis.engine import pairs_count as _sd
from analysis.engine.progress import progress_bar

from analysis.model.expr import evaluate_tree
from analysis.engine.pool import MAX_DICE, dice_table, pool_axes as _pool_axes
from analysis.engine.results import CellWays
from analysis.model.spec import Mechanic, MechanicRules, Outcome, faces_of
from analysis.engine.stats import stats_of

if TYPE_CHECKING:
    from analysis.engine.pairs_count import Engine, Finish
    from kernels._jit import IntArray

    from analysis.model.expr import Tree
    from analysis.engine.stats_grid import Context

#: The special dice's 10s and marks are told apart up to this many (0, 1, 2 or more).
CAP = seam.shapes.CAP
#: The most special dice the exhaustive check walks; mechanics allowing more use the general engine.
MAX_SPECIAL = 12
#: (successes, difficulty) representatives of each band: every truth value an allowed atom can take.
_BANDS = {"none": ((0, 1), (0, 2)), "short": ((1, 2), (2, 3)), "win": ((0, 0), (1, 1), (3, 2))}
_BAND_INDEX = {"none": 0, "short": 1, "win": 2}  # kernels.special.BAND_NONE, BAND_SHORT, BAND_WIN

# comparisons of the successes with a constant whose truth is "successes == 0" or its negation
_ZERO_ATOMS = {("==", 0), ("!=", 0), (">", 0), (">=", 1), ("<", 1), ("<=", 0)}
# comparisons of the tens with a constant whose truth is "a pair of tens" or its negation
_PAIR_ATOMS = {(">=", 2), (">", 1), ("<", 2), ("<=", 1)}
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


@dataclass(frozen=True)
class Form:
    """What :func:`form` found: the kinds, marks and parts of a pair-of-tens mechanic."""

    normal: int  # kind indices
    special: int
    success: str  # the bare marks S and T
    ten: str
    count: str  # the successes count
    pair_factor: Tree | None  # the tree of k in k * floor(T / 2), or None for k = 1
    bonus: tuple[Tree, ...]  # trees of the bonus terms
    difficulty: str  # the axis D
    special_ten: str | None  # "kind.mark" statistics read of the special dice
    special_mark: str | None


def _names(node: Tree) -> set[str]:
    if node[0] == "name":
        return {node[2]}
    out: set[str] = set()
    for kid in node[2:]:
        if _is_node(kid):
            out |= _names(kid)
    return out


def _occurrences(node: Tree, name: str) -> int:
    """How many times ``name`` is read in a tree."""
    if node[0] == "name":
        return int(node[2] == name)
    return sum(_occurrences(k, name) for k in node[2:] if _is_node(k))


def _band_atoms(node: Tree, count: str, difficulty: str) -> int:
    """How many ``count >= difficulty``-like comparisons a tree holds."""
    if node[0] == "cmp" and len(node[2]) == 1:
        pair = {
            (node[3][0], node[3][2] if node[3][0] == "name" else None),
            (node[4][0], node[4][2] if node[4][0] == "name" else None),
        }
        return int(pair == {("name", count), ("name", difficulty)})
    return sum(_band_atoms(k, count, difficulty) for k in node[2:] if _is_node(k))


def _is_node(x: object) -> bool:
    return isinstance(x, tuple) and len(x) >= 2 and isinstance(x[0], str) and isinstance(x[1], str)


def _terms(node: Tree) -> list[Tree]:
    """The terms of a chain of additions."""
    if node[0] == "add":
        return _terms(node[2]) + _terms(node[3])
    return [node]


def _pair_term(node: Tree, ten: str) -> Tree | Literal[False] | None:
    """``k`` (a tree, None for 1) if ``node`` is ``floor(ten / 2)`` times ``k``, else False."""

    def is_half(n: Tree) -> bool:
        return cast(bool, n[0] == "floordiv" and n[2] == ("name", n[2][1], ten) and n[3][0] == "const" and n[3][2] == 2)

    if is_half(node):
        return None
    if node[0] == "mul":
        if is_half(node[3]) and ten not in _names(node[2]):
            return cast("Tree", node[2])
        if is_half(node[2]) and ten not in _names(node[3]):
            return cast("Tree", node[3])
    return False


def _atoms_ok(node: Tree, count: str, ten: str, success: str, axes: tuple[str, ...], found: set[str]) -> bool:
    """Whether an outcome rule reads the successes, tens and successes marks only in the allowed atoms."""
    touched = _names(node) & {count, ten, success}
    if not touched:
        return True
    op = node[0]
    if op in ("and", "or", "not"):
        return all(_atoms_ok(k, count, ten, success, axes, found) for k in node[2:])
    if op == "if":
        return all(_atoms_ok(k, count, ten, success, axes, found) for k in node[2:5]) and not (
            _names(node[3]) | _names(node[4])
        ) & {count, ten, success}
    if op != "cmp" or len(node[2]) != 1:
        return False
    symbol, left, right = node[2][0], node[3], node[4]
    if left[0] != "name" or left[2] not in (count, ten):
        left, right, symbol = right, left, _MIRROR[symbol]
    if left[0] != "name":
        return False
    if left[2] == count:
        if right[0] == "const":
            return (symbol, right[2]) in _ZERO_ATOMS
        if right[0] == "name" and right[2] in axes and symbol in (">=", "<"):
            found.add(right[2])
            return True
        return False
    if left[2] == ten:
        return right[0] == "const" and (symbol, right[2]) in _PAIR_ATOMS
    return False


@lru_cache(maxsize=64)
def form(mech: Mechanic) -> Form | None:
    """The pair-of-tens form of a mechanic, from the syntax of its rules, or None (see the module docstring)."""
    if (
        len(mech.kinds) != 2
        or any(k.sides != 10 for k in mech.kinds)
        or mech.successes is None
        or mech.explodes
        or mech.flags
    ):
        return None
    counts = dict(mech.counts)
    count = mech.successes
    if count not in counts:
        return None
    terms = _terms(counts[count].tree)
    stats = stats_of(mech)
    bare = [n for n in stats.names if "." not in n]
    # T: the bare mark halved by a pair term; S: the other bare mark
    ten: str | None = None
    pair_factor: Tree | None = None
    for t in terms:
        for candidate in bare:
            term = _pair_term(t, candidate)
            if term is not False:
                if ten is not None:
                    return None
                ten, pair_factor = candidate, term
    if ten is None or len(bare) != 2:
        return None
    success = next(n for n in bare if n != ten)
    if any(ten not in k.marks for k in mech.kinds):
        return None
    dotted = [n for n in stats.names if "." in n]
    special: int | None = None
    for n in dotted:
        kind = n.split(".")[0]
        index = [k.name for k in mech.kinds].index(kind)
        if special is None:
            special = index
        elif special != index:
            return None
    if special is None:
        special = 1
    normal = 1 - special
    special_ten: str | None = None
    special_mark: str | None = None
    for n in dotted:
        mark = n.split(".")[1]
        if mark == ten:
            special_ten = n
        elif mark == success or special_mark is not None:
            return None
        else:
            special_mark = n
    # the successes count: S + T + k * floor(T / 2) + bonus terms reading no S, T or successes
    seen = {"s": 0, "t": 0, "pair": 0}
    bonus: list[Tree] = []
    for t in terms:
        if t[0] == "name" and t[2] == success:
            seen["s"] += 1
        elif t[0] == "name" and t[2] == ten:
            seen["t"] += 1
        elif _pair_term(t, ten) is not False:
            seen["pair"] += 1
        elif _names(t) & {success, ten}:
            return None
        else:
            bonus.append(t)
    if seen != {"s": 1, "t": 1, "pair": 1}:
        return None
    if pair_factor is not None and _names(pair_factor) & (set(stats.names) | set(counts)):
        return None
    # every other count reads no S, T nor the successes count
    for name, e in mech.counts:
        if name != count and set(e.names) & {success, ten, count}:
            return None
    for t in bonus:
        if _names(t) & {count}:
            return None
    axes = mech.axis_names
    found: set[str] = set()
    for o in mech.outcomes:
        if o.when is not None and not _atoms_ok(o.when.tree, count, ten, success, axes, found):
            return None
    if len(found) != 1:
        return None
    (difficulty,) = found
    # the Difficulty is read nowhere but in the band atoms
    side = [e.tree for n, e in mech.counts if n != count] + list(bonus)
    side += [pair_factor] if pair_factor is not None else []
    if any(difficulty in _names(t) for t in side):
        return None
    uses = sum(_occurrences(o.when.tree, difficulty) for o in mech.outcomes if o.when is not None)
    if uses != sum(_band_atoms(o.when.tree, count, difficulty) for o in mech.outcomes if o.when is not None):
        return None
    for k in mech.kinds:
        for _, ranges in k.faces:
            for lo, hi in ranges:
                if (set(lo.names) | set(hi.names)) & set(axes):
                    return None
    return Form(normal, special, success, ten, count, pair_factor, tuple(bonus), difficulty, special_ten, special_mark)


def _value(tree: Tree, env: Mapping[str, Any]) -> Any:
    """The value of a subtree under ``env`` (through the expression module's public evaluator)."""
    return evaluate_tree(tree, env)


def _most_special(mech: Mechanic, f: Form, params: Mapping[str, bool | int]) -> int:
    """The most special dice any cell of the axes' ranges can roll."""
    ranges = {k: (int(v), int(v)) for k, v in params.items()}
    for a in mech.axes:
        ranges[a.name] = a.range
    return int(mech.kinds[f.special].dice.interval(ranges)[1])


def _faces(
    mech: Mechanic, f: Form, params: Mapping[str, bool | int]
) -> tuple[tuple[int, int, int], tuple[int, int, int, int]]:
    """(normal faces (fail, S, T), special faces (mark, other, S, T)) under these parameters."""
    env = {**params, **{a.name: a.range[0] for a in mech.axes}}
    faces = faces_of(mech, env)
    normal = dict(zip(mech.kinds[f.normal].marks, faces[f.normal]))
    special = dict(zip(mech.kinds[f.special].marks, faces[f.special]))
    n_s, n_t = normal.get(f.success, 0), normal.get(f.ten, 0)
    mark = f.special_mark.partition(".")[2] if f.special_mark else None
    p_m = special.get(mark, 0) if mark else 0
    p_s, p_t = special.get(f.success, 0), special.get(f.ten, 0)
    return (10 - n_s - n_t, n_s, n_t), (p_m, 10 - p_m - p_s - p_t, p_s, p_t)


@lru_cache(maxsize=MAX_SPECIAL + 1)
def _points(top: int) -> tuple[IntArray, ...]:
    """Every point the exhaustive check evaluates, as read-only columns ``(ec, oc, band, successes,
    difficulty, pair, tens, capped marks, cell)``: special 10s ``ec`` and marks ``oc`` the dice can
    show (up to ``top`` special dice), each band's representatives (its table index, then successes
    and Difficulty), tens making no pair (0, 1) or a pair (2, 3), then ``min(oc, CAP)`` and the
    point's cell in the flat class table (band, pair, capped 10s, capped marks)."""
    points = [
        (ec, oc, _BAND_INDEX[band], s, d, pair, tens)
        for ec in range(top + 1)
        for oc in range(top + 1 - ec)
        for band, reps in _BANDS.items()
        for s, d in reps
        for pair, tens in ((0, 0), (0, 1), (1, 2), (1, 3))
    ]
    ec, oc, band, s, d, pair, tens = (np.array(col, dtype=np.int64) for col in zip(*points))
    c_oc = np.minimum(oc, CAP)
    cell = np.ravel_multi_index((band, pair, np.minimum(ec, CAP), c_oc), (3, 2, CAP + 1, CAP + 1))
    out = (ec, oc, band, s, d, pair, tens, c_oc, cell)
    for a in out:
        a.setflags(write=False)
    return out


@lru_cache(maxsize=256)
def _engine_of(rules: MechanicRules, f: Form, context: Context, replaces: bool = True) -> Engine | None:
    """The :class:`analysis.engine.pairs_count.Engine` of these rules in one context (its special dice
    replacing normal dice, or added), or None where the check fails."""
    mech = rules.mechanic
    params = rules.params
    base = {**params, **dict(context)}
    top = _most_special(mech, f, params)
    if top > MAX_SPECIAL:
        return None
    factor = 1 if f.pair_factor is None else int(_value(f.pair_factor, base))
    if factor < 0:
        return None
    counts = [(n, e) for n, e in mech.counts if n != f.count]
    active = [o for o in mech.outcomes if o.applies is None or bool(o.applies.evaluate(params))]
    index = {c: i for i, c in enumerate(mech.classes)}
    table = np.zeros((3, 2, CAP + 1, CAP + 1), dtype=np.int64)
    # every point at once (numpy), special 10s and marks the rules do not read too: the kernel
    # tells them apart all the same, and each needs its class
    ec, oc, band, succ, diff, pair, tens, c_oc, cell = _points(top)
    env: dict[str, Any] = dict(base)
    if f.special_ten:
        env[f.special_ten] = ec
    if f.special_mark:
        env[f.special_mark] = oc
    for name, e in counts:
        env[name] = e.evaluate(env)
    b = np.zeros(len(ec) if f.bonus else 0, dtype=np.int64)
    for t in f.bonus:
        b = b + np.broadcast_to(np.asarray(_value(t, env), dtype=np.int64), (len(ec),))
    env.update({f.count: succ, f.difficulty: diff, f.ten: tens})
    # each point's class: the first rule that holds (each rule's truth found in the file's order,
    # then written last rule first, so that the first one holding is written last)
    ordered: list[Outcome] = []
    for o in active:
        ordered.append(o)
        if o.when is None:  # (the rules after it never apply)
            break
    hits = [None if o.when is None else o.when.evaluate(env) for o in ordered]
    cls = np.full(len(ec), -1, dtype=np.int64)
    for o, hit in zip(ordered[::-1], hits[::-1]):
        if hit is None:
            cls.fill(index[o.name])
        else:
            cls[hit] = index[o.name]  # (a single truth value: every point or none)
    caught = bool(ordered) and ordered[-1].when is None  # (a last rule without 'when' takes the rest)
    if not caught and (cls < 0).any():
        return None  # a point no rule classifies
    # the bonus of each capped mark count (0 for counts no point has), and the class of each table
    # cell: each written from its points, then read back, so that points that disagree are caught
    # (the bonus must depend on the capped marks alone; one cell, one class)
    mark_bonus = [0] * (CAP + 1)
    if f.bonus:
        if (b < 0).any():
            return None
        bonus = np.zeros(CAP + 1, dtype=np.int64)
        bonus[c_oc] = b
        if (bonus[c_oc] != b).any():
            return None
        mark_bonus = bonus.tolist()
    flat = table.ravel()
    flat[cell] = cls
    if (flat[cell] != cls).any():
        return None
    normal_faces, special_faces = _faces(mech, f, params)
    return _sd.Engine.of(normal_faces, special_faces, factor, mark_bonus, table, len(mech.classes), replaces)


def special_engine(rules: MechanicRules, context: Iterable[tuple[str, int]] = ()) -> Engine | None:
    """The :class:`analysis.engine.pairs_count.Engine` that counts these rules by the pair-of-tens path
    in one context (the (axis, value) pairs the outcome rules read besides the Difficulty), or None
    where the mechanic or these rules do not have that shape."""
    f = form(rules.mechanic)
    return None if f is None else _engine_of(rules, f, tuple(context))


def _grouped(rules: MechanicRules, cells: Sequence[Mapping[str, int]]) -> tuple[Any, ...] | None:
    """``(form, groups, engines)`` of cells the pair-of-tens engine counts (``groups``: per (dice,
    context), each cell's position and Difficulty; ``engines`` per context), or None (the mechanic or
    these rules do not have that shape)."""
    mech = rules.mechanic
    f = form(mech)
    if f is None:
        return None
    stats = stats_of(mech)
    params = rules.params
    groups: dict[tuple[tuple[int, ...], Context], list[tuple[int, int]]] = {}
    pool_axes = _pool_axes(mech)
    known = dice_table(mech, params, cells)
    for i, cell in enumerate(cells):
        dice = known[tuple(cell[a] for a in pool_axes)]
        context = tuple((a, int(cell[a])) for a in stats.rule_axes if a != f.difficulty)
        groups.setdefault((dice, context), []).append((i, int(cell[f.difficulty])))
    engines: dict[Context, Engine | None] = {}
    for _, context in groups:
        if context not in engines:
            engines[context] = _engine_of(rules, f, context)
            if engines[context] is None:
                return None
    return f, groups, engines


def takes(rules: MechanicRules, cells: Sequence[Mapping[str, int]]) -> bool:
    """Whether the pair-of-tens engine counts these cells (:func:`count` gives them, not None)."""
    return _grouped(rules, cells) is not None


def count(rules: MechanicRules, cells: Sequence[Mapping[str, int]]) -> list[CellWays] | None:
    """Exact :class:`analysis.engine.count.CellWays` of each cell by the pair-of-tens engine, or None
    (the mechanic or these rules do not have that shape: count with the general engine)."""
    grouped = _grouped(rules, cells)
    if grouped is None:
        return None
    f, groups, engines = grouped
    out: list[CellWays | None] = [None] * len(cells)
    for (dice, context), members in groups.items():
        eng = cast("Engine", engines[context])  # None returned above
        nn, ns = dice[f.normal], dice[f.special]
        diffs = tuple(sorted({d for _, d in members}))
        ways, classes, den = _sd.counts(eng, nn, ns, diffs)
        succ = _success_ways(eng, nn, ns, ways)
        row = {d: i for i, d in enumerate(diffs)}
        for i, d in members:
            by_class = tuple(int(w) for w in classes[row[d]])
            out[i] = CellWays(by_class, succ, den, dice)
    return cast("list[CellWays]", out)  # every cell is in one group


def _success_ways(eng: Engine, nn: int, ns: int, ways: np.ndarray) -> dict[int, int]:
    """``{successes: ways}`` of a pool (cached with the pool's ways, which they only read)."""
    key = (eng, nn, ns)
    got = _SUCCESS.get(key)
    if got is None or got[0] is not ways:
        got = _SUCCESS[key] = (ways, {s: w for s, w in enumerate(_sd.success_ways(eng, ways)) if w})
        if len(_SUCCESS) > 4096:
            _SUCCESS.pop(next(iter(_SUCCESS)))
    return dict(got[1])


_SUCCESS: dict[tuple[Engine, int, int], tuple[np.ndarray, dict[int, int]]] = {}


def clear_caches() -> None:
    """Forget the engines and success distributions this module keeps."""
    _SUCCESS.clear()
    _engine_of.cache_clear()


@overload
def class_grid(
    rules: MechanicRules,
    grid: Mapping[str, Sequence[int]],
    finish: None = None,
    picks: None = None,
    progress: bool = False,
) -> tuple[np.ndarray, np.ndarray] | None: ...
@overload
def class_grid(
    rules: MechanicRules,
    grid: Mapping[str, Sequence[int]],
    finish: Finish,
    picks: None = None,
    progress: bool = False,
) -> np.ndarray | None: ...
@overload
def class_grid(
    rules: MechanicRules,
    grid: Mapping[str, Sequence[int]],
    finish: None,
    picks: Sequence[Sequence[int]],
    progress: bool = False,
) -> np.ndarray | None: ...
def class_grid(
    rules: MechanicRules,
    grid: Mapping[str, Sequence[int]],
    finish: Finish | None = None,
    picks: Sequence[Sequence[int]] | None = None,
    progress: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray] | None:
    """Values of a whole grid from its class ways, in one kernel call per context, or None.

    ``grid`` is ``{axis: values}`` in the mechanic's axis order.  Where the
    mechanic has the pair-of-tens shape and its two dice axes roll
    ``(A - min(B, A), min(B, A))`` or ``(A, B)`` dice (checked on every
    cell of the grid), the 5th-edition grid kernel counts every pool of the
    grid at once.  ``finish(ways, denominators)`` turns each block of counts
    (class ways of shape (..., classes) and denominators (..., 1), int64 or
    Python ints) into values (..., V); returns the values of shape
    (cells, V), the cells in the grid's product order.  Without ``finish``:
    ``(ways, denominators)`` of shape (cells, classes) and (cells,), object
    arrays of Python ints.  With ``picks`` instead (lists of class indices):
    the floats of :func:`analysis.engine.pairs_count.grid_floats`, the classes then
    each pick's chance, with no Python int in between.  ``progress``: a bar
    on stderr while the pools too big for the kernels' chain are counted by
    generating functions (:func:`analysis.engine.pairs_count.grid_blocks`), when
    the grid has any.
    """
    mech = rules.mechanic
    f = form(mech)
    if f is None:
        return None
    axes = list(grid)
    pool_axes = _pool_axes(mech)
    if len(pool_axes) != 2 or f.difficulty not in grid:
        return None
    shape = _dice_shape(mech, f, rules.params, pool_axes, grid)
    if shape is None:
        return None
    a_name, b_name, replaces = shape
    stats = stats_of(mech)
    others = [a for a in stats.rule_axes if a != f.difficulty]
    if set(others) & {a_name, b_name}:
        return None
    counts_only = finish is None and picks is None
    if finish is None and picks is None:

        def finish(ways: np.ndarray, dens: np.ndarray) -> np.ndarray:
            # the counts as Python ints, each cell's denominator last
            return _sd.counts_only(ways.astype(object), dens.astype(object))

    engines = []
    for ctx_values in itertools.product(*(grid[a] for a in others)):
        eng = _engine_of(rules, f, tuple(zip(others, ctx_values)), replaces)
        if eng is None:
            return None
        engines.append(eng)
    a_values, b_values, d_values = list(grid[a_name]), list(grid[b_name]), list(grid[f.difficulty])
    big = sum(_sd.big_pools(eng, a_values, b_values) for eng in engines) * len(b_values) if progress else 0
    blocks = []
    with progress_bar(big, f"{mech.name} exact", "cell", big > 0, leave=False) as bar:
        for eng in engines:
            if finish is None:
                blocks.append(_sd.grid_floats(eng, a_values, b_values, d_values, picks or (), bar.update))
            else:
                blocks.append(_sd.grid_ways(eng, a_values, b_values, d_values, finish, bar.update))
    if not others and axes == [a_name, b_name, f.difficulty]:  # the kernel's order is the grid's
        values = blocks[0].reshape(-1, blocks[0].shape[-1])
        return (values[:, :-1], values[:, -1]) if counts_only else values
    values = np.stack(blocks)  # (contexts, A, B, D, V)
    # every cell's position on each axis, in the grid's product order
    at = dict(zip(axes, (i.ravel() for i in np.indices([len(grid[a]) for a in axes]))))
    ctx = np.ravel_multi_index([at[a] for a in others], [len(grid[a]) for a in others]) if others else 0
    values = values[ctx, at[a_name], at[b_name], at[f.difficulty]]
    return (values[:, :-1], values[:, -1]) if counts_only else values


def _dice_shape(
    mech: Mechanic,
    f: Form,
    params: Mapping[str, bool | int],
    pool_axes: tuple[str, ...],
    grid: Mapping[str, Sequence[int]],
) -> tuple[str, str, bool] | None:
    """``(A, B, replaces)``: the dice axes such that every (A, B) of the grid rolls
    ``(A - min(B, A), min(B, A))`` normal and special dice (``replaces``) or ``(A, B)``;
    None if neither holds (the dice expressions evaluated over the whole grid at once, with numpy)."""
    first, second = (np.asarray(grid[a], dtype=np.int64) for a in pool_axes)
    a0, b0 = first[:, None], second[None, :]  # (every cell of the grid, by broadcasting)
    env = {**params, pool_axes[0]: a0, pool_axes[1]: b0}
    dice: list[np.ndarray] = []
    for k in (f.normal, f.special):
        n = mech.kinds[k].dice.evaluate(env)
        if ((n < 0) | (n > MAX_DICE)).any():
            return None  # the general path refuses it with the cell named
        dice.append(n)
    first_axis, second_axis = (pool_axes[0], a0), (pool_axes[1], b0)
    for (a_name, a), (b_name, b) in ((first_axis, second_axis), (second_axis, first_axis)):
        both = np.minimum(b, a)
        for replaces in (True, False):
            want = (a - both, both) if replaces else (a, b)
            if (dice[0] == want[0]).all() and (dice[1] == want[1]).all():
                return a_name, b_name, replaces
    return None
