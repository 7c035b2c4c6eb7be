"""Rule expressions compiled for ``kernels.rules_vm`` against their numpy evaluation, the reference.

:mod:`analysis.mechanic.program` answers only where numpy's answer is sure to be
the same: here every answer it gives is checked against
:meth:`analysis.mechanic.expr.Expr.evaluate` on every rule of every shipped
mechanic and on random expressions (zero divisors, values at the edge of
64-bit integers), and it must decline (None) wherever numpy raises.  The
class tables of the pair path are checked the same way, compiled against
numpy, on every shipped mechanic and on random rule sets.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from analysis import rulesets
from analysis.mechanic import engine, pairs, program, spec
from analysis.mechanic.expr import ExprError, parse
from analysis.mechanic.system import shipped
from kernels import rules_vm

EDGE = [0, 1, -1, 2, -2, 7, -7, 2**31, -(2**31), 2**62, -(2**62), 2**63 - 1, -(2**63)]


def _numpy(e, env):
    """The numpy evaluation as int64 lanes (true/false as 1/0), or the exception it raises."""
    try:
        out = e.evaluate(env)
    except ExprError as err:
        return err
    return np.asarray(out).astype(np.int64)


def _compiled(e, env, n):
    inputs = {
        k: (np.asarray(v, dtype=np.int64).reshape(-1), 1) if np.ndim(v) else program.scalar(v) for k, v in env.items()
    }
    return program.values(e.tree, inputs, n)


def _agree(e, env, n) -> bool:
    """The compiled answer equals numpy's, or it declines where numpy raises (True: it answered)."""
    ref = _numpy(e, env)
    got = _compiled(e, env, n)
    if isinstance(ref, Exception):
        assert got is None, (e.text, env)
        return False
    if got is None:
        return False
    assert np.array_equal(got, np.broadcast_to(ref, (n,))), (e.text, got, ref)
    return True


def _shipped_rule_sets():
    for name in ("v5", "werewolf", "hunter"):
        yield engine.rules_of(shipped(rulesets.system(name)))


def _expressions(mech):
    for _, e in mech.counts:
        yield e
    for o in mech.outcomes:
        if o.when is not None:
            yield o.when
    for k in mech.kinds:
        yield k.dice


@pytest.mark.parametrize("rules", list(_shipped_rule_sets()), ids=lambda r: r.mechanic.name)
def test_every_shipped_rule_compiled_is_its_numpy_value(rules):
    rng = np.random.default_rng(5)
    mech = rules.mechanic
    n = 400
    answered = 0
    for e in _expressions(mech):
        env = dict(rules.params)
        for name, kind in e.name_types.items():
            if name not in env:
                env[name] = rng.integers(0, 2, n).astype(bool) if kind == "bool" else rng.integers(0, 12, n)
        answered += _agree(e, env, n)
    assert answered == len(list(_expressions(mech)))  # small counts: it answers every one


_ATOMS = ["a", "b", "c", "3", "0", "-2", "12"]


def _random_int(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(_ATOMS)
    k = rng.randrange(9)
    x, y = _random_int(rng, depth - 1), _random_int(rng, depth - 1)
    if k == 0:
        return f"({x} + {y})"
    if k == 1:
        return f"({x} - {y})"
    if k == 2:
        return f"({x} * {y})"
    if k == 3:
        return f"({x} // {y})" if rng.random() < 0.5 else f"({x} % {y})"
    if k == 4:
        return f"ceil({x} / {y})" if rng.random() < 0.5 else f"floor({x} / {y})"
    if k == 5:
        return f"{rng.choice(['min', 'max'])}({x}, {y}, {_random_int(rng, depth - 1)})"
    if k == 6:
        return f"abs({x})" if rng.random() < 0.5 else f"(-{x})"
    if k == 7:
        return f"({x} if {_random_bool(rng, depth - 1)} else {y})"
    return x


def _random_bool(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(["p", "q", "true", "false"])
    k = rng.randrange(4)
    if k == 0:
        ops = rng.choices(["<", "<=", ">", ">=", "==", "!="], k=rng.choice([1, 1, 2]))
        parts = [_random_int(rng, depth - 1) for _ in range(len(ops) + 1)]
        return "(" + parts[0] + "".join(f" {o} {p}" for o, p in zip(ops, parts[1:])) + ")"
    if k == 1:
        return f"not {_random_bool(rng, depth - 1)}"
    return f"({_random_bool(rng, depth - 1)} {rng.choice(['and', 'or'])} {_random_bool(rng, depth - 1)})"


NAMES = {"a": "int", "b": "int", "c": "int", "p": "bool", "q": "bool"}


@pytest.mark.parametrize("seed", range(6))
def test_random_expressions_compiled_agree_with_numpy(seed):
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    answered = declined = 0
    for _ in range(150):
        text = _random_int(rng, 4) if rng.random() < 0.5 else _random_bool(rng, 4)
        e = parse(text, names=NAMES)
        n = 64
        small = rng.random() < 0.7
        env = {
            k: (nrng.integers(-20, 21, n) if small else nrng.choice(EDGE, n))
            if t == "int"
            else nrng.integers(0, 2, n) > 0
            for k, t in NAMES.items()
        }
        if _agree(e, env, n):
            answered += 1
        else:
            declined += 1
    assert answered > 60 and declined > 5  # both ways taken


def test_overflow_and_zero_divisors_are_left_to_numpy():
    for text, a, b in [
        ("a + b", 2**62, 2**62),
        ("a - b", -(2**62), 2**62 + 1),
        ("a * b", 2**40, 2**30),
        ("a * b", -(2**63), 2),
        ("-a", -(2**63), 0),
        ("abs(a)", -(2**63), 0),
        ("a // b", 5, 0),
        ("a % b", 5, 0),
        ("a // b", -(2**63), -1),
        ("ceil(a / b)", -(2**63), 3),
    ]:
        e = parse(text, names={"a": "int", "b": "int"})
        lanes = {"a": (np.array([1, a]), 1), "b": (np.array([1, b]), 1)}
        assert program.values(e.tree, lanes, 2) is None, text
    # at the edge but inside: answered, and equal to numpy (a product of -2**63 itself may be declined)
    for text, a, b in [
        ("a + b", 2**62, 2**62 - 1),
        ("a - b", -(2**62), 2**62),
        ("a * b", -(2**62) + 1, 2),
        ("a * b", -(2**63), 1),
    ]:
        e = parse(text, names={"a": "int", "b": "int"})
        assert _agree(e, {"a": np.array([a, 0]), "b": np.array([b, 0])}, 2), text


def test_a_grid_of_lanes_reads_each_axis_in_turn():
    e = parse("pool - min(hunger, pool) + 100 * hunger", names={"pool": "int", "hunger": "int"})
    pools, hungers = np.arange(0, 7), np.array([0, 2, 5])
    got = program.values(e.tree, {"pool": (pools, len(hungers)), "hunger": (hungers, 1)}, len(pools) * len(hungers))
    want = [p - min(h, p) + 100 * h for p, h in itertools.product(pools.tolist(), hungers.tolist())]
    assert got.tolist() == want
    lanes = {"pool": (pools.tolist(), len(hungers)), "hunger": (hungers.tolist(), 1)}  # (lists do as well)
    for text, every in (("pool >= hunger - 5", True), ("pool >= hunger", False), ("pool // hunger >= 0", None)):
        e = parse(text, names={"pool": "int", "hunger": "int"})
        assert program.holds(e.tree, lanes, len(pools) * len(hungers)) is every, text


def test_the_machine_refuses_a_stack_too_small_and_a_missing_name_is_declined():
    e = parse("max(a, b, c)", names={"a": "int", "b": "int", "c": "int"})
    code, names, depth = program.program(e.tree)
    lanes = (np.zeros(1, np.int64), np.zeros(3, np.int64), np.ones(3, np.int64), np.ones(3, np.int64))
    for stack, words in (((depth - 1, 4), "shallower"), ((depth, 3), "narrower")):
        with pytest.raises(ValueError, match=words):
            rules_vm.rules_run(code, 0, len(code), *lanes, 4, np.zeros(stack, np.int64))
    for div, size in ((0, 1), (1, 0), (1, 2)):  # a divisor of 0 (no end), no values, values past the data
        bad = (lanes[0], lanes[1], np.full(3, div, np.int64), np.full(3, size, np.int64))
        with pytest.raises(ValueError, match="do not fit"):
            rules_vm.rules_run(code, 0, len(code), *bad, 4, np.zeros((depth, 4), np.int64))
    assert program.values(e.tree, {"a": program.scalar(1), "b": program.scalar(2)}, 4) is None
    big = {"a": program.scalar(1), "b": program.scalar(2), "c": program.scalar(2**70)}  # beyond int64
    assert big["c"] is None and program.values(e.tree, big, 4) is None
    assert program.values(e.tree, {**big, "c": program.scalar(-5)}, 4).tolist() == [2] * 4


@pytest.mark.parametrize("seed", range(4))
def test_the_first_rule_that_holds_classifies_each_lane(seed):
    rng = random.Random(100 + seed)
    nrng = np.random.default_rng(seed)
    n = 50
    env = {
        "a": nrng.integers(-5, 6, n),
        "b": nrng.integers(-5, 6, n),
        "c": nrng.integers(0, 3, n),
        "p": nrng.integers(0, 2, n) > 0,
        "q": nrng.integers(0, 2, n) > 0,
    }
    answered = 0
    for _ in range(20):
        whens = [parse(_random_bool(rng, 3), names=NAMES) for _ in range(rng.randint(1, 4))]
        rules = [(w.tree, i) for i, w in enumerate(whens)] + ([(None, 9)] if rng.random() < 0.5 else [])
        inputs = {k: (v.astype(np.int64), 1) for k, v in env.items()}
        got = program.classes(rules, inputs, n)
        want = []
        hits = [_numpy(w, env) for w in whens]
        if any(isinstance(h, Exception) for h in hits):
            assert got is None
            continue
        for i in range(n):
            k = next((c for (t, c), h in zip(rules, hits + [None]) if h is None or np.broadcast_to(h, (n,))[i]), -1)
            want.append(k)
        if got is not None:
            assert got.tolist() == want
            answered += 1
    assert answered >= 10


def _pair_engines(rules, monkeypatch, end=0):
    """The pair path's engine of these rules, compiled and by numpy, in the context of each other
    axis the rules read at the ``end`` (0 or 1) of its range."""
    mech = rules.mechanic
    f = pairs.form(mech)
    axes = {a.name: a for a in mech.axes}
    context = tuple((a, axes[a].range[end]) for a in engine.statistics(mech).rule_axes if a != f.difficulty)
    answers = []
    with monkeypatch.context() as m:  # the compiled path, its answers seen
        real = program.classes
        m.setattr(program, "classes", lambda *a, **k: answers.append(real(*a, **k)) or answers[-1])
        compiled = pairs._engine_of.__wrapped__(rules, f, context, True)
    assert answers and all(a is not None for a in answers)  # the machine answered
    with monkeypatch.context() as m:  # the numpy path: the machine declining every rule
        for name in ("classes", "values", "holds"):
            m.setattr(program, name, lambda *a, **k: None)
        reference = pairs._engine_of.__wrapped__(rules, f, context, True)
    return compiled, reference


@pytest.mark.parametrize("rules", list(_shipped_rule_sets()), ids=lambda r: r.mechanic.name)
@pytest.mark.parametrize("end", [0, 1])
def test_the_pair_path_class_table_compiled_is_numpy_s(rules, end, monkeypatch):
    compiled, reference = _pair_engines(rules, monkeypatch, end)
    assert compiled is not None and compiled == reference


def test_house_rules_class_tables_compiled_are_numpy_s(monkeypatch):
    v5 = shipped(rulesets.system("v5"))
    for messy, bestial, taint, crit in itertools.product((1, 2), (1, 2), (False, True), (0, 2, 5)):
        rules = engine.rules_of(
            v5,
            {
                "messy_hunger_tens": messy,
                "bestial_hunger_ones": bestial,
                "hunger_one_taints_win": taint,
                "crit_bonus": crit,
            },
        )
        compiled, reference = _pair_engines(rules, monkeypatch)
        assert compiled == reference


def test_the_dice_shape_compiled_is_numpy_s(monkeypatch):
    for name in ("v5", "werewolf", "hunter"):
        for replaces in (True, False):
            mech = shipped(rulesets.system(name))
            changes = {"hunger_replaces_dice": replaces} if name == "v5" else {}
            rules = engine.rules_of(mech, changes)
            f = pairs.form(mech)
            axes = engine.pool_axes(mech)
            for grid in ({axes[0]: list(range(0, 9)), axes[1]: [0, 1, 4]}, {axes[0]: [3, 0, 7], axes[1]: [2]}):
                answers = []
                with monkeypatch.context() as m:  # the compiled path, its answers seen
                    real = program.holds
                    m.setattr(program, "holds", lambda *a, **k: answers.append(real(*a, **k)) or answers[-1])
                    compiled = pairs._dice_shape(mech, f, rules.params, axes, grid)
                assert answers and all(a is not None for a in answers)
                with monkeypatch.context() as m:  # the numpy path: the machine declining
                    m.setattr(program, "holds", lambda *a, **k: None)
                    reference = pairs._dice_shape(mech, f, rules.params, axes, grid)
                assert compiled == reference and compiled is not None


def test_a_designer_file_whose_dice_do_not_have_the_shape_is_found_so_by_both():
    mech = spec.from_toml(
        """
[mechanic]
name = "odd"
successes = "successes"
[axes]
pool = { default = "1-5", range = [0, 20] }
hunger = { default = "0-2", range = [0, 5] }
difficulty = { default = "1-3", range = [0, 20] }
[kinds.normal]
dice = "pool"
faces = { fail = "1..5", success = "6..9", ten = "10" }
[kinds.hunger]
dice = "hunger * 2"
faces = { one = "1", fail = "2..5", success = "6..9", ten = "10" }
[counts]
successes = "success + ten + 2 * floor(ten / 2)"
[[outcomes]]
name = "win"
when = "successes >= difficulty"
[[outcomes]]
name = "miss"
""",
        "odd.toml",
    )
    rules = engine.rules_of(mech)
    f = pairs.form(mech)
    assert f is not None
    grid = {"pool": [1, 2, 3], "hunger": [0, 1, 2]}
    assert pairs._dice_shape(mech, f, rules.params, ("pool", "hunger"), grid) is None
