"""Random valid mechanic files against an independent brute force over every ordered roll.

hypothesis draws a file: one to three kinds of dice (d4 to d20), each face
range carrying a mark, counts that are weighted sums of marks (some clipped
at 0, some chosen by a condition), a successes count, outcome rules in
order with a parameter in a threshold, and a column given by when.  The
same draw is also a Python function of the marks shown (:class:`Rule`), so
the reference below reads each roll without the file's reader, the
engine's statistics grid, its fusing and capping, or its kernels: every
class, every success count and every ``p_at_least_N`` of small pools must
equal the count over every ordered roll exactly.  The fast tier draws a
few dozen files; the slow tier 150 valid and 120 hostile ones, and 12 hostile
files each in its own ``beastodds`` process under a memory limit and a time bound.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import factorial, prod

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from analysis.engine import count as engine
from analysis.model import spec
from tests.conftest import d6_mechanic, run_cli

SIDES = (4, 6, 8, 10, 12, 20)
#: The most ordered rolls a cell of the reference may have (it reads each multiset of faces once).
MOST_ROLLS = 20_000


# ----------------------------------------------------------------- expressions, as trees and text


def _text(node) -> str:
    """The file's text of an expression tree."""
    op = node[0]
    if op == "lin":
        _, terms, const = node
        parts = [f"{c} * {m}" if c != 1 else m for m, c in terms] + ([str(const)] if const or not terms else [])
        return "(" + " + ".join(parts) + ")"
    if op == "max0":
        return f"max(0, {_text(node[1])})"
    if op == "if":
        return f"({_text(node[2])} if {_text(node[1])} else {_text(node[3])})"
    if op in ("ge", "eq"):
        return f"{_text(node[1])} {'>=' if op == 'ge' else '=='} {node[2]}"
    if op == "gep":
        return f"{_text(node[1])} >= {node[2]}"
    if op == "not":
        return f"not ({_text(node[1])})"
    return f"({_text(node[1])}) {op} ({_text(node[2])})"


def _value(node, marks: dict, params: dict):
    """The value of an expression tree for the marks shown (``{mark: dice showing it}``)."""
    op = node[0]
    if op == "lin":
        _, terms, const = node
        return sum(c * marks[m] for m, c in terms) + const
    if op == "max0":
        return max(0, _value(node[1], marks, params))
    if op == "if":
        return _value(node[2] if _value(node[1], marks, params) else node[3], marks, params)
    if op == "ge":
        return _value(node[1], marks, params) >= node[2]
    if op == "eq":
        return _value(node[1], marks, params) == node[2]
    if op == "gep":
        return _value(node[1], marks, params) >= params[node[2]]
    if op == "not":
        return not _value(node[1], marks, params)
    a, b = _value(node[1], marks, params), _value(node[2], marks, params)
    return (a and b) if op == "and" else (a or b)


@dataclass(frozen=True)
class Rule:
    """A drawn mechanic: its file's text, and the same rules as Python."""

    text: str
    kinds: tuple  # per kind: (sides, ((mark, first face, last face), ...))
    successes: tuple  # the successes' tree
    outcomes: tuple  # ((class, when tree or None), ...) in order
    column: tuple | None  # the when tree of the column p_flag
    default: int  # the parameter's default

    def read(self, hands, params):
        """(class, successes, flag) of one roll: ``hands[k]`` the faces of kind ``k``'s dice."""
        marks = Counter()
        for (sides, ranges), hand in zip(self.kinds, hands):
            for face in hand:
                marks[next(m for m, lo, hi in ranges if lo <= face <= hi)] += 1
        marks = {m: marks[m] for _, ranges in self.kinds for m, _, _ in ranges}
        cls = next(c for c, when in self.outcomes if when is None or _value(when, marks, params))
        flag = None if self.column is None else bool(_value(self.column, marks, params))
        return cls, _value(self.successes, marks, params), flag


@st.composite
def rules(draw) -> Rule:
    n_kinds = draw(st.integers(1, 3))
    kinds = []
    names = []
    for k in range(n_kinds):
        sides = draw(st.sampled_from(SIDES))
        n_marks = draw(st.integers(2, min(4, sides)))
        cuts = sorted(draw(st.lists(st.integers(2, sides), min_size=n_marks - 1, max_size=n_marks - 1, unique=True)))
        starts = [1] + cuts
        ends = [c - 1 for c in cuts] + [sides]
        ranges = tuple((f"{'abc'[k]}{i}", lo, hi) for i, (lo, hi) in enumerate(zip(starts, ends)))
        kinds.append((sides, ranges))
        names += [m for m, _, _ in ranges]
    mark = st.sampled_from(names)

    def linear():
        terms = draw(st.lists(st.tuples(mark, st.integers(-2, 3)), min_size=1, max_size=3, unique_by=lambda t: t[0]))
        terms = [(m, c) for m, c in terms if c] or [(terms[0][0], 1)]
        return ("lin", tuple(terms), draw(st.integers(-1, 2)))

    def condition(depth=0):
        pick = draw(st.integers(0, 4 if depth < 1 else 1))
        if pick == 0:
            return ("ge", linear(), draw(st.integers(-1, 4)))
        if pick == 1:
            return ("eq", linear(), draw(st.integers(0, 2)))
        if pick == 2:
            return ("not", condition(depth + 1))
        return ("and" if pick == 3 else "or", condition(depth + 1), condition(depth + 1))

    shape = draw(st.integers(0, 2))
    if shape == 0:
        successes = linear()
    elif shape == 1:
        successes = ("max0", linear())
    else:
        successes = ("if", condition(1), ("max0", linear()), ("max0", linear()))
    outcomes = [("great", ("gep", ("lin", (("successes", 1),), 0), "t")), ("some", ("ge", linear(), 1))]
    if draw(st.booleans()):
        outcomes.insert(draw(st.integers(0, 2)), ("odd", condition()))
    outcomes.append(("none", None))
    column = condition() if draw(st.booleans()) else None
    default = draw(st.integers(1, 3))

    lines = [
        "[mechanic]",
        'name = "fuzz"',
        'successes = "successes"',
        "classes = [" + ", ".join(f'"{c}"' for c, _ in outcomes) + "]",
        "",
        "[parameters]",
        f'''t = {{ default = {default}, range = [0, 6], help = "a threshold" }}''',
        "",
        "[axes]",
    ]
    lines += [f'n{k} = {{ default = "0-2", range = [0, 4] }}' for k in range(n_kinds)]
    for k, (sides, ranges) in enumerate(kinds):
        faces = ", ".join(f'{m} = "{lo} .. {hi}"' for m, lo, hi in ranges)
        lines += ["", f"[kinds.{'abc'[k]}]", f'dice = "n{k}"', f"sides = {sides}", f"faces = {{ {faces} }}"]
    lines += ["", "[counts]", f'successes = "{_text(successes)}"']
    for c, when in outcomes:
        lines += ["", "[[outcomes]]", f'name = "{c}"']
        if when is not None:
            lines.append(f'when = "{_text(when)}"')
    if column is not None:
        lines += ["", "[columns.p_flag]", f'when = "{_text(column)}"']
    # the outcome rules read the successes by name: the Python rule reads them as a mark
    py_outcomes = tuple((c, _with_successes(w, successes)) for c, w in outcomes)
    return Rule("\n".join(lines) + "\n", tuple(kinds), successes, py_outcomes, column, default)


def _with_successes(node, successes):
    """``node`` with the name ``successes`` replaced by its tree (the Python rule has no counts)."""
    if node is None:
        return None
    if node[0] == "gep":
        return ("gep", successes, node[2])
    return node


# ----------------------------------------------------------------- the reference


def _orderings(hand) -> int:
    out = factorial(len(hand))
    for n in Counter(hand).values():
        out //= factorial(n)
    return out


def brute(rule: Rule, dice, params):
    """Exact (classes, successes, flag) of one cell over every ordered roll."""
    classes, succ, flags = Counter(), Counter(), Counter()
    total = prod(sides**n for (sides, _), n in zip(rule.kinds, dice))
    per_kind = [
        list(itertools.combinations_with_replacement(range(1, sides + 1), n)) for (sides, _), n in zip(rule.kinds, dice)
    ]
    for hands in itertools.product(*per_kind):
        weight = prod(_orderings(h) for h in hands)
        cls, s, flag = rule.read(hands, params)
        classes[cls] += weight
        succ[s] += weight
        flags[flag] += weight
    assert sum(classes.values()) == total
    return (
        {c: Fraction(classes[c], total) for c, _ in rule.outcomes},
        {s: Fraction(w, total) for s, w in sorted(succ.items())},
        Fraction(flags[True], total),
    )


def check(rule: Rule, t: int | None) -> None:
    mech = spec.from_toml(rule.text, "fuzz.toml")
    params = {"t": rule.default if t is None else t}
    rules = spec.rules_of(mech, None if t is None else {"t": t})
    n = len(rule.kinds)
    cells = [
        dict(zip((f"n{k}" for k in range(n)), dice))
        for dice in itertools.product(range(4), repeat=n)
        if prod(sides**d for (sides, _), d in zip(rule.kinds, dice)) <= MOST_ROLLS
    ]
    tops = [0, 1, 2, 3]
    table = engine.table(rules, exact=True, at_least=tops, **{a: sorted({c[a] for c in cells}) for a in cells[0]})
    rows = {tuple(int(r[a]) for a in cells[0]): r for _, r in table.iterrows()}
    for cell in cells:
        dice = tuple(cell.values())
        classes, succ, flag = brute(rule, dice, params)
        got = engine.odds(rules, **cell)
        assert got.classes() == classes, (rule.text, cell)
        assert got.successes == {s: p for s, p in succ.items() if p}, (rule.text, cell)
        if rule.column is not None:
            assert got.probability("p_flag") == flag, (rule.text, cell)
        row = rows[dice]
        for n_ in tops:
            want = sum((p for s, p in succ.items() if s >= n_), Fraction(0))
            assert row[f"p_at_least_{n_}"] == want, (rule.text, cell, n_)
        for c, p in classes.items():
            assert row[c] == p, (rule.text, cell, c)


@given(rules(), st.one_of(st.none(), st.integers(0, 6)))
@settings(max_examples=25)
def test_random_files_equal_every_ordered_roll(rule, t):
    check(rule, t)


@pytest.mark.slow
@given(rules(), st.one_of(st.none(), st.integers(0, 6)))
@settings(max_examples=150)
def test_random_files_equal_every_ordered_roll_long(rule, t):
    check(rule, t)


# ----------------------------------------------------------------- hostile files

_NAMES = itertools.count()


@st.composite
def hostile(draw) -> str:
    """A mechanic file with one hostile part: a deep or long expression, a huge constant or range, a
    divisor that some rolls make zero, or a name that collides."""
    parts = {"pool": "1-3", "top": "20", "sides": "6", "successes": "a1"}
    kind = draw(st.sampled_from(["deep", "long", "constant", "range", "divisor", "collide", "sides"]))
    if kind == "deep":
        n = draw(st.integers(5, 3000))
        parts["successes"] = "(" * n + "a1" + ")" * n
    elif kind == "long":
        parts["successes"] = " + ".join(["a1"] * draw(st.integers(10, 20000)))
    elif kind == "constant":
        op = draw(st.sampled_from(["+", "-", "*", "//"]))
        parts["successes"] = f"a1 * {draw(st.integers(10**3, 10**40))} {op} a0"
    elif kind == "range":
        parts["top"] = str(draw(st.integers(10**3, 10**30)))
        parts["pool"] = draw(st.sampled_from(["0-200", "5000", "1-3", f"{draw(st.integers(0, 10**12))}"]))
    elif kind == "divisor":
        parts["successes"] = draw(st.sampled_from(["a1 // (a0 - 1)", "a1 % (a1 - a0)", "max(0, 6 // (2 - a0))"]))
    elif kind == "sides":
        parts["sides"] = str(draw(st.sampled_from([0, 1, 3, 10**6, 10**20])))
    text = d6_mechanic(f"hostile{next(_NAMES)}", **parts)  # one process registers each file's name once
    if kind == "collide":
        text = text.replace(
            draw(st.sampled_from(['successes = "a1"', "t = {", "[kinds.die]", 'name = "some"'])),
            draw(st.sampled_from(['a0 = "a1"', "pool = {", "[kinds.a0]", 'name = "none"'])),
        )
    return text


def _hostile_file(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("hostile") / "m.toml"
    path.write_text(text)
    return path


def _answers_or_refuses(capsys, path, *argv):
    code, out, err = run_cli(capsys, "table", path, *argv)
    assert code in (0, 2), (path.read_text(), argv, err)
    if code == 2:
        assert out == "" and err.count("\n") == 1 and err.startswith("beastodds: error: "), (path.read_text(), err)
    else:
        assert out and "Traceback" not in err


@given(hostile(), st.sampled_from([(), ("--distribution",), ("--at-least", "1-3"), ("--exact",)]))
@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_hostile_files_answer_or_refuse_in_one_sentence(capsys, tmp_path_factory, text, argv):
    _answers_or_refuses(capsys, _hostile_file(tmp_path_factory, text), *argv)


@pytest.mark.slow
@given(hostile(), st.sampled_from([(), ("--distribution",), ("--at-least", "1-3"), ("--exact",)]))
@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_hostile_files_answer_or_refuse_in_one_sentence_long(capsys, tmp_path_factory, text, argv):
    _answers_or_refuses(capsys, _hostile_file(tmp_path_factory, text), *argv)


#: The memory (address space) and the time a beastodds process may take on one hostile file.
PROCESS_MEMORY = 6 * 2**30
PROCESS_SECONDS = 120


def _limited():  # pragma: no cover - runs in the child process
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (PROCESS_MEMORY, PROCESS_MEMORY))


@pytest.mark.slow
@given(hostile(), st.sampled_from([(), ("--distribution",), ("--at-least", "1-3")]))
@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_hostile_files_in_a_process_of_bounded_memory_and_time(tmp_path_factory, text, argv):
    """As a user runs it: ``beastodds table FILE`` in its own process, under a memory limit and a time
    bound, answers or ends in one line with exit 2 (an out-of-memory kill or a hang fails)."""
    import os
    import subprocess
    import sys

    path = _hostile_file(tmp_path_factory, text)
    run = subprocess.run(
        [sys.executable, "-m", "analysis.cli", "table", str(path), *argv],
        capture_output=True,
        text=True,
        timeout=PROCESS_SECONDS,
        preexec_fn=_limited,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )
    assert run.returncode in (0, 2), (text, argv, run.stderr[-2000:])
    if run.returncode == 2:
        lines = [line for line in run.stderr.splitlines() if line.startswith("beastodds: error: ")]
        assert run.stdout == "" and len(lines) == 1 and "Traceback" not in run.stderr, (text, run.stderr)
    else:
        assert run.stdout and "Traceback" not in run.stderr


# ----------------------------------------------------------------- hostile dice that roll again


def _exploding(
    name: str,
    successes: str,
    win: str,
    *,
    difficulty: str = '{ default = "1-3", range = [0, 100] }',
    cycle: bool = False,
) -> str:
    """A d6 file whose 6 rolls again (success on 5 and 6), or with ``cycle`` two d10 kinds whose 10 rolls
    again as the other kind; ``successes`` and the ``win`` rule as given."""
    if cycle:
        kinds = """[kinds.a]
dice = "pool"
faces = { miss = "1 .. 7", hit = "8 .. 9", ten = "10" }
again = { ten = "b" }
[kinds.b]
dice = "0"
faces = { miss = "1 .. 7", hit = "8 .. 9", ten = "10" }
again = { ten = "a" }
"""
    else:
        kinds = """[kinds.d6]
dice = "pool"
sides = 6
faces = { miss = "1 .. 4", hit = "5", six = "6" }
again = ["six"]
"""
    return f"""[mechanic]
name = "{name}"
successes = "successes"
[axes]
pool = {{ default = "1-5", range = [0, 1000] }}
difficulty = {difficulty}
{kinds}[counts]
successes = "{successes}"
[[outcomes]]
name = "win"
when = "{win}"
win = true
[[outcomes]]
name = "fail"
"""


def test_the_again_cycle_over_a_thousand_pools_is_sized_at_once(capsys, tmp_path):
    """Found by the fuzz below: the cycle over pools 0-1000 spent a minute finding primes and bounds for
    its estimate (one big power per pool) before refusing; now the estimate reads the bounds' sizes."""
    parts, _ = UNBOUNDED["cycle"]
    path = tmp_path / "cycle.toml"
    path.write_text(_exploding(f"unbounded{next(_NAMES)}", **parts))
    code, out, err = run_cli(capsys, "table", path, "--pool", "0-1000")
    assert code == 2 and out == "" and "about a minute" in err and err.count("\n") == 1, err


#: The shapes a hostile sender of dice that roll again tried (each with the command and options that ran
#: for minutes in silence before): each now answers, or refuses in one sentence naming the limit.
UNBOUNDED = {
    "falling": (dict(successes="hit - six", win="successes >= difficulty"), ["table", "--pool", "0-100"]),
    "falling-solve": (
        dict(successes="hit - six", win="successes >= difficulty"),
        ["solve", "--find", "pool", "--target", "p_win>=0.5"],
    ),
    "cycle": (
        dict(successes="hit - 3 * ten", win="successes >= difficulty", cycle=True),
        ["table", "--pool", "0-100"],
    ),
    # (pools 1-10 of it, refused once, now answer in seconds: the counts are whole over 6**(dice + bound))
    "late": (dict(successes="hit + six", win="successes * 1000 < 999999"), ["table", "--pool", "1-1000"]),
    "late-solve": (
        dict(successes="hit + six", win="successes * 1000 < 999999"),
        ["solve", "--find", "pool", "--target", "p_win<=0.5", "--within", "200-1000"],
    ),
    "difficulty": (
        dict(
            successes="hit + six",
            win="successes >= difficulty",
            difficulty='{ default = "5000", range = [0, 10000] }',
        ),
        ["table", "--distribution"],
    ),
}


@pytest.mark.parametrize("shape", sorted(UNBOUNDED))
def test_dice_that_roll_again_are_sized_before_counting(capsys, tmp_path, shape):
    """Falling successes, a rule settled only at a high count, an again-cycle with subtraction and a huge
    Difficulty: refused in one sentence naming the work and its limit, before the minutes of counting."""
    from analysis.engine.count import MAX_WORK

    parts, argv = UNBOUNDED[shape]
    path = tmp_path / f"{shape}.toml"
    path.write_text(_exploding(f"unbounded{next(_NAMES)}", **parts))
    code, out, err = run_cli(capsys, argv[0], path, *argv[1:])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert f"(limit {MAX_WORK:,}, about a minute)" in err, err


@pytest.mark.slow
@given(
    st.sampled_from(sorted(UNBOUNDED)),
    st.sampled_from(["0-3", "0-20", "5", "1-60", "0-1000"]),
    st.sampled_from([(), ("--distribution",), ("--at-least", "1-3")]),
)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_hostile_dice_that_roll_again_in_a_process_of_bounded_memory_and_time(tmp_path_factory, shape, pool, argv):
    """The shapes above at other pools, each as ``beastodds table`` in its own process under the memory limit
    and time bound: it answers or ends in one line with exit 2."""
    import os
    import subprocess
    import sys

    parts, _ = UNBOUNDED[shape]
    path = tmp_path_factory.mktemp("exploding") / "m.toml"
    path.write_text(_exploding(f"unbounded{next(_NAMES)}", **parts))
    run = subprocess.run(
        [sys.executable, "-m", "analysis.cli", "table", str(path), "--pool", pool, *argv],
        capture_output=True,
        text=True,
        timeout=PROCESS_SECONDS,
        preexec_fn=_limited,
        cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    )
    assert run.returncode in (0, 2), (shape, pool, argv, run.stderr[-2000:])
    if run.returncode == 2:
        lines = [line for line in run.stderr.splitlines() if line.startswith("beastodds: error: ")]
        assert run.stdout == "" and len(lines) == 1 and "Traceback" not in run.stderr, (shape, run.stderr)
    else:
        assert run.stdout and "Traceback" not in run.stderr
