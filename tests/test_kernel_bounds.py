"""Each kernel module's bound function against the numbers its kernel really holds.

Every kernel is run as an instrumented twin: its plain Python body
(``py_func``) on object arrays of Python ints, so that nothing can wrap,
with ``mulmod`` and ``addmod`` replaced by recording versions, every array
store recorded, and every integer local variable of a kernel frame recorded
line by line.  The largest magnitude seen (inputs included) must be at most
the bound function's value; where the int64-or-primes choice hangs on it,
the bound must also be close to that largest number, not just safe.  The
twin is checked against the compiled kernel, so it is the same computation.
"""

from __future__ import annotations

import itertools
import os
import sys
from math import comb

import numpy as np
import pytest

import kernels
from analysis.engine.exact import INT64_MAX
from kernels import cards, classic, conflict, markov, mechanic, mechanic_willpower, multiset, special
from tests import oracles_v5_kernels as v5, oracles_v5_kernels as willpower

KERNEL_MODULES = (
    multiset,
    special,
    v5,
    mechanic,
    mechanic_willpower,
    cards,
    classic,
    conflict,
    markov,
)
KERNELS_DIR = os.path.dirname(os.path.abspath(kernels.__file__))
#: Files whose frames the twin watches: the kernels, and V5's former kernels kept as a reference.
WATCHED = (KERNELS_DIR, os.path.abspath(v5.__file__))


class _Tracker:
    """The largest magnitude of any count seen.

    Integer locals of a kernel frame are kept apart (``local_top``): a local
    no larger than the largest array extent may be an index (a loop
    variable, a position), and a count that small cannot threaten int64.
    """

    def __init__(self):
        self.top = 0
        self.local_top = 0
        self.extent = 0

    def see(self, value):
        if isinstance(value, np.ndarray):
            self.extent = max([self.extent] + list(value.shape))
            for v in value.ravel().tolist():
                self.see(v)
        elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            self.top = max(self.top, abs(int(value)))

    def see_local(self, value):
        self.local_top = max(self.local_top, abs(int(value)))

    def largest(self) -> int:
        return max(self.top, self.local_top if self.local_top > self.extent else 0)


class _Recorded(np.ndarray):
    """An object array that reports every value stored into it."""

    tracker: _Tracker | None = None

    def __setitem__(self, key, value):
        _Recorded.tracker.see(value)
        super().__setitem__(key, value)


def _objects(shape) -> np.ndarray:
    out = np.empty(shape, dtype=object)
    out.fill(0)
    if _Recorded.tracker is not None:
        _Recorded.tracker.extent = max([_Recorded.tracker.extent] + list(out.shape))
    return out.view(_Recorded)


def _as_objects(a: np.ndarray) -> np.ndarray:
    out = _objects(a.shape)
    flat = [int(x) for x in a.ravel().tolist()]
    if flat:
        np.ndarray.__setitem__(out.reshape(-1), slice(None), flat)
    return out


class _NumpyTwin:
    """numpy, except that the kernels' new int64 arrays are recorded object arrays."""

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def empty(shape, dtype=None):
        return _objects(shape)

    zeros = empty

    @staticmethod
    def zeros_like(a):
        return _objects(a.shape)


def _twin_mulmod(a, b, mod):
    v = a * b
    _Recorded.tracker.see(v)
    return v % mod if mod > 0 else v


def _twin_addmod(a, b, mod):
    v = a + b
    _Recorded.tracker.see(v)
    return v % mod if mod > 0 else v


def _patched_globals() -> list:
    """(module, name, twin value) for every kernel, mulmod, addmod and np."""
    out = []
    for module in KERNEL_MODULES:
        for name, value in list(vars(module).items()):
            if not hasattr(value, "py_func"):
                continue
            if name == "mulmod":
                out.append((module, name, _twin_mulmod))
            elif name == "addmod":
                out.append((module, name, _twin_addmod))
            else:
                out.append((module, name, value.py_func))
        if hasattr(module, "np"):
            out.append((module, "np", _NumpyTwin()))
    return out


@pytest.fixture
def twin():
    """``twin(kernel, *args)``: run the kernel's Python body on Python ints.

    Returns ``(largest count seen, args as object arrays)``; the output
    arguments hold the twin's results.  The kernel modules are patched only
    while the twin runs: outside it the compiled kernels are untouched.
    """

    def run(kernel, *args):
        tracker = _Tracker()
        _Recorded.tracker = tracker
        converted = [_as_objects(a) if isinstance(a, np.ndarray) else a for a in args]
        for a in converted:
            tracker.see(a)

        def local(frame, event, arg):
            for v in frame.f_locals.values():
                if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
                    tracker.see_local(v)
            if event == "return":
                tracker.see(arg)
            return local

        def tracer(frame, event, arg):
            if frame.f_code.co_filename.startswith(WATCHED):
                return local
            return None

        patches = _patched_globals()
        saved = [(module, name, getattr(module, name)) for module, name, _ in patches]
        for module, name, value in patches:
            setattr(module, name, value)
        sys.settrace(tracer)
        try:
            kernel.py_func(*converted)
        finally:
            sys.settrace(None)
            for module, name, value in saved:
                setattr(module, name, value)
            _Recorded.tracker = None
        return tracker.largest(), converted

    return run


def _ints(a) -> list:
    return [int(x) for x in np.asarray(a).ravel().tolist()]


def test_twin_records_what_the_kernel_forms(twin):
    # fill_powers forms 7**4 after storing 7**0..7**3
    top, (_, _, out) = twin(multiset.fill_powers, 7, 0, np.zeros(4, dtype=np.int64))
    assert _ints(out) == [1, 7, 49, 343] and top == 7**4


def test_twin_records_unreduced_locals(twin):
    # the Willpower kernel weighs rerolls in plain int locals (never through
    # mulmod): with a win worth 10**12 the expected value of rerolling one
    # failed die is 10**12 times its 5 winning faces
    w_n, w_h = _v5_faces(6)
    vals = np.array([0, 0, 10**12, 10**12, 10**12, 0], dtype=np.int64)
    shape = (2, 2, 3, 3)
    top, _ = twin(
        willpower.v5_willpower_ways,
        1,
        0,
        w_n,
        w_h,
        2,
        1,
        1,
        1,
        0,
        willpower.MODE_OPTIMAL,
        vals,
        0,
        1,
        0,
        _binom(2),
        np.zeros(shape, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )
    assert top >= 5 * 10**12
    assert top <= willpower.v5_willpower_ways_bound(1, 0, w_n, w_h, 1, vals, 2)


# ---------------------------------------------------------------- multiset


@pytest.mark.parametrize("size", [1, 2, 7, 12])
def test_binomials_bound(twin, size):
    top, (_, out) = twin(multiset.fill_binomials, 0, np.zeros((size, size), dtype=np.int64))
    assert _ints(out) == [comb(n, k) for n in range(size) for k in range(size)]
    assert top <= multiset.binomials_bound(size) == max(1, top)


@pytest.mark.parametrize("base,length", [(0, 3), (1, 5), (9, 1), (9, 6), (10, 0)])
def test_powers_bound(twin, base, length):
    top, _ = twin(multiset.fill_powers, base, 0, np.zeros(length, dtype=np.int64))
    assert top <= multiset.powers_bound(base, length)
    assert multiset.powers_bound(base, length) <= max(top, 1)


# ---------------------------------------------------------------------- v5


def _v5_faces(success_face):
    s = success_face
    return np.array([s - 1, 10 - s, 1], dtype=np.int64), np.array([1, s - 2, 10 - s, 1], dtype=np.int64)


def _binom(size, mod=0):
    out = np.empty((size, size), dtype=np.int64)
    multiset.fill_binomials(mod, out)
    return out


@pytest.mark.parametrize("success_face", [2, 6, 10])
@pytest.mark.parametrize("nn,nh", [(0, 0), (1, 0), (0, 1), (3, 2), (6, 0), (2, 5), (7, 3)])
def test_v5_pool_ways_bound(twin, success_face, nn, nh):
    w_n, w_h = _v5_faces(success_face)
    n = nn + nh
    size_s = n + 2 * (n // 2) + 1
    binom = _binom(n + 1)
    top_ways, (*_, ways) = twin(
        v5.v5_pool_ways, nn, nh, w_n, w_h, 2, 0, binom, np.zeros((size_s, 2, 3, 3), dtype=np.int64)
    )
    real = np.zeros((size_s, 2, 3, 3), dtype=np.int64)
    v5.v5_pool_ways(nn, nh, w_n, w_h, 2, 0, binom, real)
    assert _ints(ways) == _ints(real)
    diffs = np.arange(0, size_s + 1, dtype=np.int64)
    top_classes, _ = twin(v5.v5_classify, real, diffs, 1, 1, 1, 0, np.zeros((len(diffs), 6), dtype=np.int64))
    bound = v5.v5_pool_ways_bound(nn, nh, w_n, w_h, n + 1)
    assert type(bound) is int
    assert max(top_ways, top_classes) <= bound
    # tight: the total 10**n (or a face power), and a class at Difficulty 0
    # holds most of it
    assert int(real.sum()) == 10**n
    assert bound <= 4 * max(top_ways, top_classes)


def test_v5_grid_class_ways_bound(twin):
    w_n, w_h = _v5_faces(6)
    pools = np.array([0, 2, 5, 8], dtype=np.int64)
    hungers = np.array([0, 1, 3], dtype=np.int64)
    diffs = np.array([1, 4], dtype=np.int64)
    binom = _binom(9)
    for replaces in (1, 0):
        args = (pools, hungers, diffs, w_n, w_h, 2, 1, 1, 0, replaces, 0, binom)
        top, (*_, out) = twin(v5.v5_grid_class_ways, *args, np.zeros((4, 3, 2, 6), dtype=np.int64))
        real = np.zeros((4, 3, 2, 6), dtype=np.int64)
        v5.v5_grid_class_ways(*args, real)
        assert _ints(out) == _ints(real)
        bound = v5.v5_grid_class_ways_bound(pools.tolist(), hungers.tolist(), replaces, w_n, w_h, 9)
        assert top <= bound <= 10 * top


# --------------------------------------------------------------- willpower


@pytest.mark.parametrize(
    "mode,values",
    [
        (willpower.MODE_OPTIMAL, [0, 0, 1, 1, 1, 0]),
        (willpower.MODE_OPTIMAL, [-7, 2, 5, 5, 3, -9]),
        (willpower.MODE_REROLL_FAILURES, [0] * 6),
    ],
)
@pytest.mark.parametrize(
    "nn,nh,difficulty",
    [
        (1, 0, 1),
        (3, 1, 2),
        pytest.param(4, 2, 3, marks=pytest.mark.slow),
        pytest.param(2, 3, 5, marks=pytest.mark.slow),
    ],
)
def test_v5_willpower_ways_bound(twin, mode, values, nn, nh, difficulty):
    w_n, w_h = _v5_faces(6)
    n = nn + nh
    r = min(3, nn)
    vals = np.array(values, dtype=np.int64)
    binom = _binom(max(n, r) + 1)
    shape = (n + 2 * (n // 2) + 1, 2, 3, 3)
    args = (nn, nh, w_n, w_h, 2, difficulty, 1, 1, 0, mode, vals, 0, r, 0, binom)
    top, converted = twin(
        willpower.v5_willpower_ways, *args, np.zeros(shape, dtype=np.int64), np.zeros(1, dtype=np.int64)
    )
    real, spent = np.zeros(shape, dtype=np.int64), np.zeros(1, dtype=np.int64)
    willpower.v5_willpower_ways(*args, real, spent)
    assert _ints(converted[-2]) == _ints(real) and _ints(converted[-1]) == _ints(spent)
    assert int(real.sum()) == 10 ** (n + r)
    bound = willpower.v5_willpower_ways_bound(nn, nh, w_n, w_h, r, vals, max(n, r) + 1)
    assert type(bound) is int
    assert top <= bound <= 10 ** (n + r) * 10**2
    assert bound <= 100 * top


def test_willpower_bound_refuses_values_that_cannot_be_weighed():
    w_n, w_h = _v5_faces(6)
    with pytest.raises(ValueError, match="too big"):
        willpower.v5_willpower_ways_bound(5, 0, w_n, w_h, 3, [10**16] + [0] * 5)


# ------------------------------------------------------- mechanic Willpower


def _mechanic_rules(system: str):
    from analysis.engine import count as engine
    from analysis.model import spec

    return engine.rules_of(
        spec.load(os.path.join(os.path.dirname(KERNELS_DIR), "analysis", "systems", system, "mechanic.toml"))
    )


@pytest.mark.parametrize("strategy", ["maximize_win", "reroll_failures", "values"])
@pytest.mark.parametrize(
    "system,cell",
    [
        pytest.param("v5", dict(pool=3, hunger=1, difficulty=2), marks=pytest.mark.slow),
        ("v5", dict(pool=4, hunger=0, difficulty=0)),  # every roll a win: nothing rerolled, the bound is tight
        ("werewolf", dict(pool=3, rage=2, difficulty=3, violent=1)),
        pytest.param("hunter", dict(pool=4, desperation=1, difficulty=3), marks=pytest.mark.slow),
    ],
)
def test_mechanic_willpower_bound(twin, strategy, system, cell):
    from analysis.engine import willpower as wp

    rules = _mechanic_rules(system)
    if strategy == "values":  # large values of both signs, weighed exactly in plain int locals
        strategy = wp.Strategy("values", values=dict(zip(rules.mechanic.classes, [-7 * 10**8, 2, 5, 10**9, 3, -9])))
    call = wp.kernel_call(rules, strategy, **cell)
    if isinstance(strategy, wp.Strategy):  # the expected values reach |value| * L, and the bound says so
        assert call.bound() == 10**9 * call.plan.common
    # the decisions: exact expected values in plain int locals
    top_choice, converted = twin(mechanic_willpower.willpower_choices, *call.choice_arguments())
    assert _ints(converted[-2]) == _ints(call.choices())
    # the ways, added from those decisions
    top, converted = twin(mechanic_willpower.willpower_add, *call.add_arguments(0))
    real = call.add_arguments(0)
    mechanic_willpower.willpower_add(*real)
    for a, b in zip(converted[-3:], real[-3:]):
        assert _ints(a) == _ints(b)
    total = int(real[-3].sum(axis=1)[0])
    bound = call.bound()
    assert type(bound) is int
    assert max(top, top_choice) <= bound
    assert total <= bound <= total * max(abs(int(v)) for v in list(call.values) + [1])
    if cell.get("difficulty") == 0 and not isinstance(strategy, wp.Strategy):
        assert bound == total and 2 * top >= bound


def _walks(faces, contrib, shape):
    from analysis.engine.pool import walks

    faces_arr = np.zeros((len(faces), max(len(f) for f in faces)), dtype=np.int64)
    contrib_arr = np.zeros((len(faces), faces_arr.shape[1], len(shape)), dtype=np.int64)
    for k, f in enumerate(faces):
        faces_arr[k, : len(f)] = f
        contrib_arr[k, : len(f)] = contrib[k]
    marks = np.array([len(f) for f in faces], dtype=np.int64)
    return walks(faces_arr, marks, contrib_arr, tuple(shape), [1] * len(faces))


def _every_roll(dice, faces, contrib, shape):
    """The ways of each grid cell by brute force: every ordered roll, each statistic held at its last cell."""
    want = np.zeros(shape, dtype=object)
    sides = [[m for m, f in enumerate(row) for _ in range(f)] for row in faces]
    for roll in itertools.product(*[sides[k] for k, n in enumerate(dice) for _ in range(n)]):
        kinds = [k for k, n in enumerate(dice) for _ in range(n)]
        at = [0] * len(shape)
        for k, m in zip(kinds, roll):
            at = [a + c for a, c in zip(at, contrib[k][m])]
        want[tuple(min(a, n - 1) for a, n in zip(at, shape))] += 1
    return want.ravel()


@pytest.mark.parametrize(
    "dice,faces,contrib,shape",
    [
        # two kinds; statistic 0 saturates at 1, statistic 1 (a fused sum, weights 1 and 2) does not
        ((3, 2), ((4, 5, 1), (1, 4, 5)), (((0, 0), (0, 1), (0, 2)), ((1, 0), (0, 0), (0, 1))), (2, 11)),
        ((5, 1), ((3, 7), (2, 8)), (((1, 0), (0, 1)), ((1, 0), (0, 1))), (3, 7)),
        # one kind, both statistics saturating, one of them at 0 (a single cell)
        ((6,), ((1, 4, 5),), (((1, 0), (0, 1), (0, 0)),), (1, 3)),
        # nothing saturates
        ((4,), ((2, 3, 5),), (((1, 0), (0, 1), (0, 0)),), (5, 5)),
    ],
)
@pytest.mark.parametrize("walked", [0, -1])
def test_mechanic_walk_bound_and_counts(twin, dice, faces, contrib, shape, walked):
    """A walk adding one kind's dice one at a time gives, at every count it emits, the classes and
    values of every ordered roll of those dice; the bound covers every number it forms, and the
    modular walk gives the residues of the same counts."""
    from analysis.engine.pool import walk_ways

    walked %= len(dice)
    steps = _walks(faces, contrib, shape)
    size = int(np.prod(shape))
    base = list(dice)
    base[walked] = 0
    rng = np.random.default_rng(7)
    classes = rng.integers(0, 3, size=(2, size)).astype(np.int64)
    classes[1, -1] = -1  # a cell left unclassified by the second table
    values = rng.integers(0, 4, size=(2, size)).astype(np.int64)
    emit = np.arange(dice[walked] + 1, dtype=np.int64)
    shapes = [(len(emit), 2, 3), (len(emit), 2, 4), (len(emit), 2)]
    dest, weight, _ = steps[walked]

    def run(mod):
        start = walk_ways(base, steps, size, mod)
        out = [np.zeros(s, dtype=np.int64) for s in shapes]
        mechanic.mechanic_walk(start, np.zeros(size, dtype=np.int64), dest, weight, emit, classes, values, mod, *out)
        return start, out

    start, real = run(0)
    top, converted = twin(
        mechanic.mechanic_walk,
        walk_ways(base, steps, size, 0),
        np.zeros(size, dtype=np.int64),
        dest,
        weight,
        emit,
        classes,
        values,
        0,
        *(np.zeros(s, dtype=np.int64) for s in shapes),
    )
    for a, b in zip(converted[-3:], real):
        assert _ints(a) == _ints(b)
    mod = 1_000_003
    _, residues = run(mod)
    for e, n in enumerate(emit.tolist()):
        now = list(base)
        now[walked] = n
        ways = _every_roll(now, faces, contrib, shape)
        by_class = [[sum(w for w, c in zip(ways, classes[t]) if c == k) for k in range(3)] for t in range(2)]
        hist = [[sum(w for w, v in zip(ways, values[t]) if v == j) for j in range(4)] for t in range(2)]
        assert _ints(real[0][e]) == [x for row in by_class for x in row]
        assert _ints(real[1][e]) == [x for row in hist for x in row]
        unclassified = int(ways[-1] != 0)
        assert _ints(real[2][e]) == [-1, size - 1 if unclassified else -1]
        assert _ints(residues[0][e]) == [x % mod for row in by_class for x in row]
    assert _ints(start) == _ints(_every_roll(dice, faces, contrib, shape))  # the walk leaves the last count
    bound = mechanic.mechanic_walk_bound([sum(f) for f in faces], dice)
    assert type(bound) is int and top <= bound
    assert bound == max(int(np.prod([sum(f) ** n for f, n in zip(faces, dice)])), max(sum(f) for f in faces))


@pytest.mark.parametrize(
    "dice,faces,contrib,shape",
    [
        ((3, 2), ((4, 5, 1), (1, 4, 5)), (((0, 0), (0, 1), (0, 2)), ((1, 0), (0, 0), (0, 1))), (2, 11)),
        ((5, 1), ((3, 7), (2, 8)), (((1, 0), (0, 1)), ((1, 0), (0, 1))), (3, 7)),
        ((4,), ((2, 3, 5),), (((1, 0), (0, 1), (0, 0)),), (5, 5)),
        # a die whose marks add 0..4 along the long axis, in two groups of the short one
        ((4,), ((1, 2, 3, 1, 2, 1),), (((0, 0), (0, 1), (0, 3), (1, 0), (1, 2), (1, 4)),), (2, 9)),
    ],
)
def test_mechanic_walk_tails_bound_and_counts(twin, monkeypatch, dice, faces, contrib, shape):
    """The walk that adds the marks reaching the long axis's last cell once gives the counts of the plain
    walk, in int64 and modulo a prime, and every number it forms is within the plain walk's bound."""
    from analysis.engine import pool

    monkeypatch.setattr(pool, "TAIL_MARKS", 1)
    monkeypatch.setattr(pool, "TAIL_AXIS", 2)
    pool.clear_walks()
    steps = _walks(faces, contrib, shape)
    pool.clear_walks()
    size = int(np.prod(shape))
    dest, weight, tails = steps[0]
    assert tails is not None
    group_end, first, stride, size_big = tails
    rng = np.random.default_rng(11)
    classes = rng.integers(0, 3, size=(2, size)).astype(np.int64)
    values = rng.integers(0, 4, size=(2, size)).astype(np.int64)
    emit = np.arange(dice[0] + 1, dtype=np.int64)
    shapes = [(len(emit), 2, 3), (len(emit), 2, 4), (len(emit), 2)]
    base = [0] * len(dice)

    def tail_of(mod):
        out, start = np.empty_like(weight), 0
        for end in group_end.tolist():
            sums = np.cumsum(weight[start:end][::-1])[::-1]
            out[start:end] = sums % mod if mod else sums
            start = end
        return out

    for mod in (0, 1_000_003):
        plain = [np.zeros(s, dtype=np.int64) for s in shapes]
        start = pool.walk_ways(base, steps, size, mod)
        mechanic.mechanic_walk(start, np.zeros(size, dtype=np.int64), dest, weight, emit, classes, values, mod, *plain)
        top, converted = twin(
            mechanic.mechanic_walk_tails,
            pool.walk_ways(base, steps, size, mod),
            np.zeros(size, dtype=np.int64),
            dest,
            weight,
            tail_of(mod),
            group_end,
            first,
            stride,
            size_big,
            emit,
            classes,
            values,
            mod,
            *(np.zeros(s, dtype=np.int64) for s in shapes),
        )
        for a, b in zip(converted[-3:], plain):
            assert _ints(a) == _ints(b)
        if mod == 0:
            assert top <= mechanic.mechanic_walk_bound([sum(f) for f in faces], dice)
            ways = _every_roll([dice[0]] + [0] * (len(dice) - 1), faces, contrib, shape)
            assert _ints(converted[0]) == _ints(ways)


@pytest.mark.parametrize("n,faces", [(0, [3, 7]), (5, [5, 4, 1]), (9, [1, 2, 3, 4])])
def test_composition_weights_bound(twin, n, faces):
    parts = len(faces)
    comps = np.zeros((comb(n + parts - 1, parts - 1), parts), dtype=np.int64)
    mechanic_willpower.fill_compositions(n, parts, comps)
    f = np.array(faces, dtype=np.int64)
    binom = _binom(n + 1)
    top, converted = twin(
        mechanic_willpower.composition_weights, comps, f, 0, binom, np.zeros(len(comps), dtype=np.int64)
    )
    assert sum(_ints(converted[-1])) == sum(faces) ** n
    bound = mechanic_willpower.mechanic_willpower_bound((n,), f[None, :], np.array([parts]), 1, [1], n + 1)
    assert top <= bound


# ------------------------------------------------------------------- cards


def _small_deck(n=5):
    values = np.arange(n, dtype=np.int64)
    auto_fail = np.zeros(n, dtype=np.int64)
    auto_fail[0] = 1
    triggers = np.zeros(n, dtype=np.int64)
    triggers[0] = triggers[n - 1] = 1
    return values, auto_fail, triggers


@pytest.mark.parametrize("hungry", [[0, 0, 0], [1, 0, 1], pytest.param([1, 1, 1, 1], marks=pytest.mark.slow)])
@pytest.mark.parametrize("fresh,reshuffle", [(0, 0), (1, 0), (0, 1)])
def test_scene_ways_bound(twin, hungry, fresh, reshuffle):
    deck = _small_deck()
    t = len(hungry)
    weight_base = 60  # lcm(1..5)
    args = (
        *deck,
        np.full(t, 1, dtype=np.int64),
        np.full(t, 3, dtype=np.int64),
        np.array(hungry, dtype=np.int64),
        1,
        fresh,
        reshuffle,
        weight_base,
        0,
    )
    outs = (
        np.zeros((t, 4), dtype=np.int64),
        np.zeros((t - 1, 4, 4), dtype=np.int64),
        np.zeros((t + 1, t + 1), dtype=np.int64),
    )
    top, converted = twin(cards.scene_ways, *args, *outs)
    real = tuple(np.zeros_like(o) for o in outs)
    cards.scene_ways(*args, *real)
    assert [_ints(a) for a in converted[-3:]] == [_ints(a) for a in real]
    bound = cards.scene_ways_bound(hungry, weight_base)
    assert sum(_ints(real[2])) == bound  # every ordered slot value once
    assert top <= bound <= 4 * top


@pytest.mark.parametrize("opposed", [False, True])
def test_card_grid_bounds(twin, opposed):
    deck = _small_deck(6)
    kernel = cards.opposed_grid_ways if opposed else cards.static_grid_ways
    bases, others, hungry = (
        np.array([0, 2], dtype=np.int64),
        np.array([1, 4], dtype=np.int64),
        np.array([0, 1], dtype=np.int64),
    )
    for fresh in (0, 1):
        top, (*_, out) = twin(kernel, *deck, bases, others, hungry, 1, fresh, np.zeros((2, 2, 2, 4), dtype=np.int64))
        bound = (cards.opposed_grid_ways_bound if opposed else cards.static_grid_ways_bound)(6)
        assert top <= bound
        assert max(sum(_ints(out[i, j, h])) for i in range(2) for j in range(2) for h in range(2)) <= bound


# ----------------------------------------------------------------- classic


def _classic_die(difficulty, specialty, ones_cancel):
    faces = np.array([1, difficulty - 2, 10 - difficulty, 1], dtype=np.int64)
    values = np.array([-1 if ones_cancel else 0, 0, 1, 2 if specialty else 1], dtype=np.int64)
    return faces, values


def _sum_rows(n_max, faces, values):
    lo, hi = min(0, int(values.min())), max(0, int(values.max()))
    rows = np.zeros((n_max + 1, n_max * (hi - lo) + 1), dtype=np.int64)
    classic.classic_sum_ways(faces, values, 0, rows)
    return rows, n_max * lo


@pytest.mark.parametrize(
    "difficulty,specialty,ones_cancel", [(6, False, True), (3, True, False), (10, True, True), (2, False, False)]
)
@pytest.mark.parametrize("n_max", [0, 1, 2, 6])
def test_classic_pool_bounds(twin, difficulty, specialty, ones_cancel, n_max):
    faces, values = _classic_die(difficulty, specialty, ones_cancel)
    lo, hi = min(0, int(values.min())), max(0, int(values.max()))
    top_sum, (*_, rows) = twin(
        classic.classic_sum_ways, faces, values, 0, np.zeros((n_max + 1, n_max * (hi - lo) + 1), dtype=np.int64)
    )
    real, _ = _sum_rows(n_max, faces, values)
    assert _ints(rows) == _ints(real)
    bound = classic.classic_sum_ways_bound(n_max, faces, values)
    assert top_sum <= bound <= 10 * top_sum


@pytest.mark.parametrize("halve", [classic.HALVE_NONE, classic.HALVE_DOWN, classic.HALVE_UP])
@pytest.mark.parametrize("attack_dice,base_dice,soak", [(0, 2, 0), (1, 1, 0), (2, 2, 2), (3, 1, 1)])
def test_classic_damage_bounds(twin, halve, attack_dice, base_dice, soak):
    att_faces, att_values = _classic_die(6, True, True)
    dmg_faces, dmg_values = _classic_die(6, False, False)
    soak_faces, soak_values = _classic_die(6, False, False)
    e_max = attack_dice * int(att_values.max())
    n_max = base_dice + max(e_max - 1, 0)
    att_rows, att_lo = _sum_rows(attack_dice, att_faces, att_values)
    dmg_rows, dmg_lo = _sum_rows(n_max, dmg_faces, dmg_values)
    soak_rows, soak_lo = _sum_rows(soak, soak_faces, soak_values)
    size = n_max * int(dmg_values.max()) + 1
    args = (att_rows[attack_dice], att_lo, dmg_rows, dmg_lo, base_dice, 0, soak_rows[soak], soak_lo, halve, 0)
    top, (*_, out) = twin(classic.attack_level_ways, *args, np.zeros(size, dtype=np.int64))
    real = np.zeros(size, dtype=np.int64)
    classic.attack_level_ways(*args, real)
    assert _ints(out) == _ints(real)
    bound = classic.attack_level_ways_bound(attack_dice, n_max, soak)
    assert sum(_ints(real)) == 10 ** (attack_dice + n_max + soak)
    assert top <= bound <= 10 * top
    # no attack roll: the damage roll against soak alone
    top, (*_, out) = twin(
        classic.levels_after_soak,
        dmg_rows[base_dice],
        dmg_lo,
        1,
        soak_rows[soak],
        soak_lo,
        halve,
        0,
        np.zeros(size + 1, dtype=np.int64),
    )
    bound = classic.levels_after_soak_bound(10**base_dice, 10**soak)
    assert top <= bound == sum(_ints(out))


# ---------------------------------------------------------------- conflict


@pytest.mark.parametrize("seed", range(6))
def test_opposed_margin_ways_bound(twin, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 10**6, size=int(rng.integers(1, 8)))
    b = rng.integers(0, 10**6, size=int(rng.integers(1, 8)))
    a[0] = max(a[0], 1)
    top, (*_, out) = twin(conflict.opposed_margin_ways, a, b, 0, np.zeros(len(a) + len(b) - 1, dtype=np.int64))
    bound = conflict.opposed_margin_ways_bound(a.tolist(), b.tolist())
    assert sum(_ints(out)) == bound == sum(_ints(a)) * sum(_ints(b))
    assert top <= bound


# ------------------------------------------------------------------ markov


def _random_chain(rng, n_states, den):
    """CSR rows each summing to ``den``, possibly repeating a target."""
    indptr, indices, weights = [0], [], []
    for _ in range(n_states):
        k = int(rng.integers(1, 4))
        cuts = sorted(rng.integers(0, den + 1, size=k - 1).tolist())
        parts = [b - a for a, b in zip([0] + cuts, cuts + [den])]
        for p in parts:
            indices.append(int(rng.integers(0, n_states)))
            weights.append(p)
        indptr.append(len(indices))
    distinct = sorted(set(weights))
    ids = [distinct.index(w) for w in weights]
    return (
        np.array(indptr, dtype=np.int64),
        np.array(indices, dtype=np.int64),
        np.array(ids, dtype=np.int64),
        np.array(distinct, dtype=np.int64),
    )


@pytest.mark.parametrize("seed", range(4))
def test_markov_run_bound(twin, seed):
    rng = np.random.default_rng(seed)
    n, den, steps = 5, 36, 4
    indptr, indices, ids, weights = _random_chain(rng, n, den)
    start = np.zeros(n, dtype=np.int64)
    start[0], start[2] = 2, 1
    groups = np.array([[1] * n, [1, 0, 1, 0, 0], [0, 0, 0, 0, 1]], dtype=np.int64)
    outs = (np.zeros((steps + 1, 3), dtype=np.int64), np.zeros(n, dtype=np.int64))
    top, converted = twin(markov.markov_run, start, indptr, indices, ids, weights, groups, 0, *outs)
    real = tuple(np.zeros_like(o) for o in outs)
    markov.markov_run(start, indptr, indices, ids, weights, groups, 0, *real)
    assert [_ints(a) for a in converted[-2:]] == [_ints(a) for a in real]
    bound = markov.markov_run_bound(start, indptr, ids, weights.tolist(), steps)
    assert bound == 3 * den**steps
    assert top <= bound == top  # the all-states group holds the total


def test_markov_run_bound_reads_the_rows_not_a_promise():
    # a row summing to more than the stated denominator raises the bound
    indptr = np.array([0, 2, 3], dtype=np.int64)
    ids = np.array([0, 1, 1], dtype=np.int64)
    weights = [7, 5]  # rows sum to 12 and 5
    assert markov.markov_run_bound(np.array([1, 0]), indptr, ids, weights, 3) == 12**3
    with pytest.raises(ValueError):
        markov.markov_run_bound(np.array([1, 0]), indptr, ids, [7, -5], 3)


@pytest.mark.parametrize("seed", range(3))
def test_markov_run_steps_bound(twin, seed):
    rng = np.random.default_rng(seed)
    n, dens = 4, [6, 10, 36]
    chains = [_random_chain(rng, n, d) for d in dens]
    width = max(len(c[1]) for c in chains)
    ptr = np.stack([c[0] for c in chains])
    to = np.zeros((3, width), dtype=np.int64)
    w = np.zeros((3, width), dtype=np.int64)
    for t, (_, idx, ids, distinct) in enumerate(chains):
        to[t, : len(idx)] = idx
        w[t, : len(idx)] = distinct[ids]
    start = np.array([3, 0, 1, 0], dtype=np.int64)
    top, (*_, out) = twin(markov.markov_run_steps, start, ptr, to, w, 0, np.zeros((4, n), dtype=np.int64))
    real = np.zeros((4, n), dtype=np.int64)
    markov.markov_run_steps(start, ptr, to, w, 0, real)
    assert _ints(out) == _ints(real)
    bound = markov.markov_run_steps_bound(start, ptr, w)
    assert bound == 4 * 6 * 10 * 36 == sum(_ints(real[-1]))
    assert top <= bound


# ------------------------------------------------- every bound is exact


def test_bounds_are_python_ints_beyond_int64():
    w_n, w_h = _v5_faces(6)
    cases = [
        v5.v5_pool_ways_bound(30, 5, w_n, w_h),
        v5.v5_grid_class_ways_bound([40], [0, 5], 1, w_n, w_h),
        willpower.v5_willpower_ways_bound(20, 5, w_n, w_h, 3, np.array([0, 0, 1, 1, 1, 0])),
        cards.scene_ways_bound(np.ones(20, dtype=np.int64), np.int64(2520)),
        classic.classic_sum_ways_bound(np.int64(30), np.array([1, 4, 4, 1]), np.array([-1, 0, 1, 2])),
        classic.attack_level_ways_bound(10, 10, 10),
        conflict.opposed_margin_ways_bound(np.array([10**9] * 3), [10**12]),
    ]
    for bound in cases:
        assert type(bound) is int and bound > INT64_MAX
    assert cards.scene_ways_bound([1] * 20, 2520) == 2520**40
    assert v5.v5_pool_ways_bound(30, 5, w_n, w_h) == 10**35
    assert willpower.v5_willpower_ways_bound(20, 5, w_n, w_h, 3, [0] * 6) == 10**28
    assert multiset.binomials_bound(61) == comb(60, 30)


def test_the_int64_boundary_is_where_the_counts_leave_int64():
    """Just below the switch to primes the kernel's int64 run is right, just above it is not."""
    w_n, w_h = _v5_faces(6)
    for n, fits in ((18, True), (19, False)):
        assert (v5.v5_pool_ways_bound(n, 0, w_n, w_h) <= INT64_MAX) == fits
        assert (classic.classic_sum_ways_bound(n, [1, 4, 4, 1]) <= INT64_MAX) == fits
    assert list(itertools.takewhile(lambda t: cards.scene_ways_bound([0] * t, 2520) <= INT64_MAX, range(1, 10))) == [
        1,
        2,
        3,
        4,
        5,
    ]
