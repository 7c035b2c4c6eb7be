"""One Willpower engine for every mechanic (analysis.engine.willpower).

(a) equal, as exact Fractions, to V5's own Willpower kernel
    (tests/oracles_v5_kernels.v5_willpower_ways, kept as the reference since V5's
    odds are counted by this engine); the Werewolf module is now counted by
    this engine too, so its check here is of its API (strategy names, rules
    fields as parameters), and its exactness comes from (b) (house rules
    included) and the brute force of tests/test_werewolf.py;
(b) equal to a brute force over every ordered roll and every allowed reroll
    subset, the rules written here in plain Python (V5, Werewolf, Hunter and
    a designer's file);
(c) its buffers and its work limit refuse rather than overrun;
(d) a designer's mechanic file with a [willpower] table works.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from analysis.engine import count as engine
from analysis.model import spec
from analysis.engine import willpower as W
from analysis.engine.strategy import strategy_of
from analysis.systems.v5 import roll as v5
from analysis.systems.werewolf import rage as ww

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def _mechanic(system: str):
    return spec.load(ROOT / "analysis" / "systems" / system / "mechanic.toml")


def _rules(system: str, **changes):
    return engine.rules_of(_mechanic(system), changes)


def _equal(new, old, *, successes=True):
    assert new.classes() == old.classes()
    assert new.willpower_spent == old.willpower_spent
    if successes:
        assert new.successes == old.successes


# ------------------------------------------------------------------ (a) the existing modules

V5_NEW = {
    "reroll_failures": "reroll_failures",
    "maximize_win": "maximize_win",
    "maximize_critical": W.Strategy("maximize_critical", values={"critical_win": 1, "messy_critical": 1}),
    "avoid_messy": W.Strategy("avoid_messy", win=True, forbid=("messy_critical",)),
}


class _KernelOdds:
    """Classes, Willpower spent and successes of V5's own Willpower kernel (the reference)."""

    def __init__(self, pool, hunger, difficulty, rules, strategy):
        from analysis.engine import exact, pairs_count
        from analysis.systems.v5 import willpower as v5_wp
        from kernels import special as ks
        from tests import oracles_v5_kernels as kv5
        from tests import oracles_v5_kernels as kw

        strategy = strategy_of(strategy, v5_wp.STRATEGIES)
        nn, nh = rules.dice(pool, hunger)
        n, R = nn + nh, min(v5_wp.MAX_REROLL, nn)
        shape = (n + rules.crit_bonus * (n // 2) + 1, 2, kv5.CAP + 1, kv5.CAP + 1)
        w_n = np.array(rules.normal_faces, dtype=np.int64)
        w_h = np.array(rules.hunger_faces, dtype=np.int64)
        mech = v5.OFFICIAL.mechanic().mechanic
        assert mech.classes == v5.CLASSES  # the oracle's class order
        vals = np.zeros(6, dtype=np.int64) if strategy.reroll_failures else strategy.integer_values(mech)
        mode = kw.MODE_REROLL_FAILURES if strategy.reroll_failures else kw.MODE_OPTIMAL

        def compute(mod):
            out, spent = np.zeros(shape, dtype=np.int64), np.zeros(1, dtype=np.int64)
            kw.v5_willpower_ways(
                nn,
                nh,
                w_n,
                w_h,
                rules.crit_bonus,
                difficulty,
                rules.messy_hunger_tens,
                rules.bestial_hunger_ones,
                int(rules.hunger_one_taints_win),
                mode,
                vals,
                int("messy_critical" in strategy.forbid),
                R,
                mod,
                pairs_count.binomials(max(n, R) + 1, mod),
                out,
                spent,
            )
            return np.concatenate([out.ravel(), spent])

        flat = exact.count(compute, kw.v5_willpower_ways_bound(nn, nh, w_n, w_h, R, vals, max(n, R) + 1))
        ways, den = flat[:-1].reshape(shape), 10 ** (n + R)
        table = kv5.v5_class_table(rules.messy_hunger_tens, rules.bestial_hunger_ones, int(rules.hunger_one_taints_win))
        by_class = [0] * 6
        for (s, pair, ec, oc), w in np.ndenumerate(ways):
            if w:
                by_class[ks.classify_one(s, pair, ec, oc, difficulty, kv5.v5_mark_bonus(), table)] += int(w)
        self._classes = {c: Fraction(w, den) for c, w in zip(v5.CLASSES, by_class)}
        self.willpower_spent = Fraction(int(flat[-1]), den)
        per_s = ways.sum(axis=(1, 2, 3))
        self.successes = {s: Fraction(int(w), den) for s, w in enumerate(per_s) if w}

    def classes(self):
        return self._classes


def _v5_grid(rules, changes, strategy, pools, hungers, diffs):
    from analysis.systems.v5.dice import V5Rules

    old_rules = V5Rules(**changes)
    cells = [dict(pool=p, hunger=h, difficulty=d) for p in pools for h in hungers for d in diffs]
    got = W.count_cells(rules, V5_NEW[strategy], cells)
    for cell, ways in zip(cells, got):
        old = _KernelOdds(cell["pool"], cell["hunger"], cell["difficulty"], old_rules, strategy)
        den = ways.denominator
        assert {c: Fraction(w, den) for c, w in zip(rules.mechanic.classes, ways.class_ways)} == old.classes(), cell
        assert Fraction(ways.spent, den) == old.willpower_spent, cell
        assert {s: Fraction(w, den) for s, w in sorted(ways.success_ways.items())} == old.successes, cell


@pytest.mark.parametrize("strategy", list(V5_NEW))
def test_v5_equals_the_v5_module_on_every_small_cell(strategy):
    _v5_grid(_rules("v5"), {}, strategy, range(0, 9), range(0, 6), range(0, 7))


V5_VARIANTS = [
    {"success_face": 5},
    {"success_face": 10},
    {"crit_bonus": 0},
    {"crit_bonus": 1, "messy_hunger_tens": 2},
    {"bestial_hunger_ones": 2, "hunger_one_taints_win": True},
    {"hunger_replaces_dice": False},
]


@pytest.mark.parametrize("changes", V5_VARIANTS, ids=lambda c: ",".join(c))
@pytest.mark.parametrize(
    "strategy",
    [
        "maximize_win",
        "reroll_failures",
        pytest.param("maximize_critical", marks=pytest.mark.slow),
        pytest.param("avoid_messy", marks=pytest.mark.slow),
    ],
)
def test_v5_variants_equal_the_v5_module(strategy, changes):
    _v5_grid(_rules("v5", **changes), changes, strategy, range(0, 7), (0, 1, 3, 5), range(0, 6))


def test_v5_big_pools_take_the_exact_path_and_still_agree():
    # 10 ** 23 ordered outcomes: primes and CRT in both engines
    rules = _rules("v5")
    for cell in [(20, 2, 7), (20, 5, 12)]:
        for strategy in ("maximize_win", "reroll_failures"):
            new = W.odds(rules, strategy, pool=cell[0], hunger=cell[1], difficulty=cell[2])
            _equal(new, _KernelOdds(*cell, v5.OFFICIAL, strategy))


WEREWOLF_NEW = {
    "maximize_win": "maximize_win",
    "normal_dice_only": W.Strategy("normal_dice_only", win=True, kinds=("normal",)),
}


def _werewolf_grid(changes, strategy, pools, rages, diffs):
    from analysis.systems.werewolf.rage import WerewolfRules

    rules = _rules("werewolf", **changes)
    old_rules = WerewolfRules(**changes)
    cells = [dict(pool=p, rage=r, difficulty=d, violent=v) for p in pools for r in rages for d in diffs for v in (0, 1)]
    got = W.count_cells(rules, WEREWOLF_NEW[strategy], cells)
    for cell, ways in zip(cells, got):
        old = ww.odds(
            cell["pool"], cell["rage"], cell["difficulty"], bool(cell["violent"]), old_rules, strategy=strategy
        )
        den = ways.denominator
        assert {c: Fraction(w, den) for c, w in zip(rules.mechanic.classes, ways.class_ways)} == old.classes(), cell
        assert Fraction(ways.spent, den) == old.willpower_spent, cell
        assert {s: Fraction(w, den) for s, w in sorted(ways.success_ways.items())} == old.successes, cell


@pytest.mark.parametrize("strategy", list(WEREWOLF_NEW))
def test_werewolf_equals_the_werewolf_module(strategy):
    _werewolf_grid({}, strategy, range(0, 8), range(0, 6), range(0, 7))


@pytest.mark.parametrize(
    "changes",
    [{"brutal_rage_dice": 1}, {"brutal_bonus": 2, "success_face": 8}, {"rage_replaces_dice": False}, {"crit_bonus": 0}],
    ids=lambda c: ",".join(c),
)
def test_werewolf_variants_equal_the_werewolf_module(changes):
    _werewolf_grid(changes, "maximize_win", range(0, 6), (0, 1, 2, 5), (1, 2, 4, 6))


# ------------------------------------------------------------------ (b) brute force


def _v5(normal, hunger, difficulty):
    faces = list(normal) + list(hunger)
    tens = faces.count(10)
    succ = sum(1 for f in faces if 6 <= f <= 9) + tens + 2 * (tens // 2)
    if succ >= difficulty:
        if tens >= 2:
            return ("messy_critical" if 10 in hunger else "critical_win"), succ
        return "plain_win", succ
    if 1 in hunger:
        return "bestial_failure", succ
    return ("total_failure" if succ == 0 else "failure"), succ


def _werewolf(violent, crit_bonus=2, brutal_rage_dice=2, brutal_bonus=4):
    def read(normal, rage, difficulty):
        faces = list(normal) + list(rage)
        tens = faces.count(10)
        brutal = sum(1 for f in rage if f <= 2) >= brutal_rage_dice
        succ = (
            sum(1 for f in faces if 6 <= f <= 9)
            + tens
            + crit_bonus * (tens // 2)
            + (brutal_bonus if violent and brutal else 0)
        )
        if violent and brutal and succ >= difficulty:
            return "brutal_win", succ
        if brutal:
            return "brutal_failure", succ
        if succ >= difficulty:
            return ("critical_win" if tens >= 2 else "plain_win"), succ
        return ("total_failure" if succ == 0 else "failure"), succ

    return read


def _hunter(normal, desperation, difficulty):
    faces = list(normal) + list(desperation)
    tens = faces.count(10)
    succ = sum(1 for f in faces if 6 <= f <= 9) + tens + 2 * (tens // 2)
    if succ >= difficulty:
        if 1 in desperation:
            return "overreach_or_despair", succ
        return ("critical_win" if tens >= 2 else "plain_win"), succ
    if 1 in desperation:
        return "despair", succ
    return ("total_failure" if succ == 0 else "failure"), succ


V5_WINS = {"plain_win", "critical_win", "messy_critical"}
WEREWOLF_WINS = {"plain_win", "critical_win", "brutal_win"}
HUNTER_WINS = {"plain_win", "critical_win", "overreach_or_despair"}


def _d10_marks(rerollable_kinds, rage_kind=None):
    def marks(kind, face):
        if kind not in rerollable_kinds:
            return None
        if kind == rage_kind and face <= 2:
            return None
        return 0 if face < 6 else 1 if face < 10 else 2

    return marks


def brute_force(
    read,
    n_normal,
    n_special,
    difficulty,
    strategy,
    marks,
    wins,
    sides=10,
    max_dice=3,
    becomes=None,
    values=None,
    forbid=(),
):
    """Exact class and success distributions after a strategy, and the chance Willpower is spent.

    Every ordered roll of ``n_normal`` normal and ``n_special`` special dice
    and every subset of at most ``max_dice`` dice that ``marks`` allows are
    tried; a subset's outcome is every ordered way its dice can fall.
    ``strategy`` is ``maximize_win`` (ties: keep, fewer dice, the category
    order, most of the first category first) or ``reroll_failures``
    (category 0 and 3 are the failed dice).  ``becomes``: ``{kind: kind}``, the kind a rerolled die
    lands as (0 normal, 1 special; default its own).  ``values``: ``{class: worth}``, the reroll of the
    highest expected worth (default: 1 for each class of ``wins``); ``forbid``: classes no reroll may
    risk turning a roll of another class into.
    """
    worth = values if values is not None else {c: 1 for c in wins}
    n = n_normal + n_special
    kinds = [0] * n_normal + [1] * n_special
    faces_range = range(1, sides + 1)

    @lru_cache(maxsize=None)
    def after(kept_normal, kept_special, rerolled_kinds):
        rerolled_kinds = tuple((becomes or {}).get(k, k) for k in rerolled_kinds)
        dist, succ = {}, {}
        for new in itertools.product(faces_range, repeat=len(rerolled_kinds)):
            nn = list(kept_normal) + [f for f, k in zip(new, rerolled_kinds) if k == 0]
            ss = list(kept_special) + [f for f, k in zip(new, rerolled_kinds) if k == 1]
            c, s = read(nn, ss, difficulty)
            dist[c] = dist.get(c, 0) + 1
            succ[s] = succ.get(s, 0) + 1
        total = sides ** len(rerolled_kinds)
        return ({c: Fraction(w, total) for c, w in dist.items()}, {s: Fraction(w, total) for s, w in succ.items()})

    classes, successes, spent = {}, {}, Fraction(0)
    p_roll = Fraction(1, sides**n)
    for roll in itertools.product(faces_range, repeat=n):
        marked = [marks(k, f) for k, f in zip(kinds, roll)]
        cats = [None if m is None else 3 * k + m for k, m in zip(kinds, marked)]  # kind, then mark
        c0, s0 = read(
            [f for f, k in zip(roll, kinds) if k == 0], [f for f, k in zip(roll, kinds) if k == 1], difficulty
        )
        best = None  # (subset)
        if strategy == "reroll_failures":
            if c0 not in wins:
                fails = sorted((i for i in range(n) if cats[i] in (0, 3)), key=lambda i: cats[i])
                if fails:
                    best = tuple(fails[:max_dice])
        else:
            best_key = None
            best_value = Fraction(worth.get(c0, 0))
            options = []
            for k in range(1, min(max_dice, n) + 1):
                for subset in itertools.combinations(range(n), k):
                    if any(cats[i] is None for i in subset):
                        continue
                    vector = tuple(-sum(1 for i in subset if cats[i] == c) for c in range(6))
                    options.append(((k, vector), subset))
            options.sort()
            for key, subset in options:
                if key == best_key:
                    continue  # the same dice by category: the same outcomes
                dist, _ = after(*_split(roll, kinds, subset))
                if any(c in forbid and c != c0 for c in dist):  # a chance of a forbidden class: not taken
                    continue
                value = sum((p * worth.get(c, 0) for c, p in dist.items()), Fraction(0))
                if value > best_value:
                    best, best_value, best_key = subset, value, key
        if best is None:
            classes[c0] = classes.get(c0, 0) + p_roll
            successes[s0] = successes.get(s0, 0) + p_roll
            continue
        spent += p_roll
        dist, succ = after(*_split(roll, kinds, best))
        for c, p in dist.items():
            classes[c] = classes.get(c, 0) + p_roll * p
        for s, p in succ.items():
            successes[s] = successes.get(s, 0) + p_roll * p
    return classes, successes, spent


def _split(roll, kinds, subset):
    kept_n = tuple(sorted(f for i, (f, k) in enumerate(zip(roll, kinds)) if k == 0 and i not in subset))
    kept_s = tuple(sorted(f for i, (f, k) in enumerate(zip(roll, kinds)) if k == 1 and i not in subset))
    return kept_n, kept_s, tuple(kinds[i] for i in subset)


def _check_brute(odds, want):
    classes, successes, spent = want
    got = {c: p for c, p in odds.classes().items() if p}
    assert got == {c: p for c, p in classes.items() if p}
    assert odds.successes == {s: p for s, p in sorted(successes.items()) if p}
    assert odds.willpower_spent == spent


BRUTE_V5 = [
    (1, 0, 1),
    (2, 1, 2),
    (3, 1, 2),
    (3, 2, 3),
    pytest.param((4, 2, 2), marks=pytest.mark.slow),
    pytest.param((4, 4, 2), marks=pytest.mark.slow),
    pytest.param((4, 0, 3), marks=pytest.mark.slow),
    pytest.param((4, 1, 4), marks=pytest.mark.slow),
    pytest.param((4, 3, 1), marks=pytest.mark.slow),
]


@pytest.mark.parametrize("strategy", ["maximize_win", "reroll_failures"])
@pytest.mark.parametrize("cell", BRUTE_V5, ids=str)
def test_v5_brute_force(strategy, cell):
    pool, hunger, difficulty = cell
    want = brute_force(_v5, pool - hunger, hunger, difficulty, strategy, _d10_marks({0}), V5_WINS)
    _check_brute(W.odds(_rules("v5"), strategy, pool=pool, hunger=hunger, difficulty=difficulty), want)


BRUTE_WEREWOLF = [
    (2, 1, 2, 0),
    (3, 2, 2, 1),
    (3, 2, 5, 1),
    (3, 3, 3, 0),
    pytest.param((4, 2, 3, 1), marks=pytest.mark.slow),
    pytest.param((4, 3, 2, 0), marks=pytest.mark.slow),
    pytest.param((4, 4, 5, 1), marks=pytest.mark.slow),
    pytest.param((4, 1, 1, 0), marks=pytest.mark.slow),
]


@pytest.mark.parametrize("strategy", ["maximize_win", "reroll_failures"])
@pytest.mark.parametrize("cell", BRUTE_WEREWOLF, ids=str)
def test_werewolf_brute_force(strategy, cell):
    pool, rage, difficulty, violent = cell
    want = brute_force(
        _werewolf(violent), pool - rage, rage, difficulty, strategy, _d10_marks({0, 1}, rage_kind=1), WEREWOLF_WINS
    )
    got = W.odds(_rules("werewolf"), strategy, pool=pool, rage=rage, difficulty=difficulty, violent=violent)
    _check_brute(got, want)


BRUTE_WEREWOLF_HOUSE = [
    ({"brutal_rage_dice": 1}, (3, 2, 3, 0)),
    ({"brutal_bonus": 2, "crit_bonus": 0}, (3, 2, 4, 1)),
    ({"rage_replaces_dice": False}, (2, 2, 3, 1)),
    pytest.param({"crit_bonus": 5, "brutal_rage_dice": 1}, (4, 2, 6, 1), marks=pytest.mark.slow),
]


@pytest.mark.parametrize("strategy", ["maximize_win", "reroll_failures"])
@pytest.mark.parametrize("changes,cell", BRUTE_WEREWOLF_HOUSE, ids=str)
def test_werewolf_house_rules_brute_force(strategy, changes, cell):
    # the Werewolf module with house rules (its fields as the mechanic's parameters) against brute force
    pool, rage, difficulty, violent = cell
    rules = ww.WerewolfRules(**changes)
    n_normal, n_rage = (pool - rage, rage) if rules.rage_replaces_dice else (pool, rage)
    read = _werewolf(violent, rules.crit_bonus, rules.brutal_rage_dice, rules.brutal_bonus)
    want = brute_force(read, n_normal, n_rage, difficulty, strategy, _d10_marks({0, 1}, rage_kind=1), WEREWOLF_WINS)
    got = ww.odds(pool, rage, difficulty, bool(violent), rules, strategy=strategy)
    assert (got.normal_dice, got.rage_dice) == (n_normal, n_rage)
    _check_brute(got, want)


BRUTE_HUNTER = [
    (1, 1, 1),
    (2, 1, 2),
    pytest.param((3, 1, 3), marks=pytest.mark.slow),
    (2, 2, 2),
    (3, 0, 2),
    pytest.param((4, 0, 3), marks=pytest.mark.slow),
    pytest.param((3, 1, 1), marks=pytest.mark.slow),
]


@pytest.mark.parametrize("strategy", ["maximize_win", "reroll_failures"])
@pytest.mark.parametrize("cell", BRUTE_HUNTER, ids=str)
def test_hunter_brute_force(strategy, cell):
    pool, desperation, difficulty = cell  # Desperation dice are added to the pool
    want = brute_force(_hunter, pool, desperation, difficulty, strategy, _d10_marks({0}), HUNTER_WINS)
    got = W.odds(_rules("hunter"), strategy, pool=pool, desperation=desperation, difficulty=difficulty)
    _check_brute(got, want)


# ------------------------------------------------------------------ (d) a designer's file

DESIGNER = """
[mechanic]
name = "wildsix"
title = "Wild six: d6 pools with a wild die"
successes = "hits"

[axes]
pool = { default = "1-4", range = [0, 30] }
wild = { default = "0-1", range = [0, 2] }
target = { default = "1-3", range = [0, 100] }

[kinds.plain]
dice = "pool"
sides = 6
faces = { miss = "1 .. 3", hit = "4 .. 6" }

[kinds.wilds]
dice = "wild"
sides = 6
faces = { snake = "1", miss = "2 .. 3", hit = "4 .. 5", boom = "6" }

[counts]
hits = "hit + 2 * wilds.boom"

[willpower]
dice = 2
kinds = ["plain", "wilds"]
marks = ["miss", "hit"]
failures = ["miss"]

[[outcomes]]
name = "snake_eyes"
when = "wilds.snake >= 1 and hits < target"
[[outcomes]]
name = "win"
when = "hits >= target"
win = true
[[outcomes]]
name = "loss"
"""


def _wild(plain, wild, target):
    hits = sum(1 for f in plain if f >= 4) + sum(1 for f in wild if 4 <= f <= 5) + 2 * sum(1 for f in wild if f == 6)
    if 1 in wild and hits < target:
        return "snake_eyes", hits
    return ("win" if hits >= target else "loss"), hits


def _wild_marks(kind, face):
    if kind == 1 and face in (1, 6):
        return None
    return 0 if face <= 3 else 1


@pytest.mark.parametrize("strategy", ["maximize_win", "reroll_failures"])
@pytest.mark.parametrize(
    "cell",
    [
        (1, 1, 2),
        (2, 1, 2),
        (3, 1, 3),
        (2, 2, 3),
        pytest.param((4, 0, 3), marks=pytest.mark.slow),
        pytest.param((3, 2, 5), marks=pytest.mark.slow),
    ],
    ids=str,
)
def test_designer_file_with_willpower_matches_brute_force(strategy, cell):
    mech = spec.from_toml(DESIGNER, "wildsix.toml")
    assert mech.willpower == spec.Willpower(2, ("plain", "wilds"), ("miss", "hit"), ("miss",), True)
    pool, wild, target = cell
    want = brute_force(_wild, pool, wild, target, strategy, _wild_marks, {"win"}, sides=6, max_dice=2)
    got = W.odds(engine.rules_of(mech), strategy, pool=pool, wild=wild, target=target)
    _check_brute(got, want)


def test_designer_table_columns_and_gain():
    rules = engine.rules_of(spec.from_toml(DESIGNER, "wildsix.toml"))
    df = W.table(rules, "maximize_win", exact=True, pool="0-3", wild="0-1", target="1-2", at_least="1-2")
    assert list(df.columns) == [
        "pool",
        "wild",
        "target",
        "snake_eyes",
        "win",
        "loss",
        "p_win",
        "willpower_spent",
        "p_win_gain",
        "p_at_least_1",
        "p_at_least_2",
    ]
    base = engine.table(rules, exact=True, pool="0-3", wild="0-1", target="1-2")
    assert (df["p_win_gain"] == df["p_win"] - base["p_win"]).all()
    assert (df["p_win_gain"] >= 0).all() and (df["p_win_gain"] > 0).any()
    assert all(sum(row[c] for c in ("snake_eyes", "win", "loss")) == 1 for _, row in df.iterrows())
    floats = W.table(rules, "maximize_win", pool="0-3", wild="0-1", target="1-2")
    assert list(floats["p_win"]) == [float(x) for x in df["p_win"]]
    assert list(floats["p_win_gain"]) == [float(x) for x in df["p_win_gain"]]
    none = W.table(rules, "none", exact=True, pool="0-3", wild="0-1", target="1-2")
    assert (none["willpower_spent"] == 0).all() and (none["p_win_gain"] == 0).all()


def test_never_below_no_willpower_and_maximize_win_never_below_reroll_failures():
    for system, axes in [
        ("v5", dict(pool="1-12", hunger="0-5", difficulty="1-6")),
        ("hunter", dict(pool="1-10", desperation="0-3", difficulty="1-6")),
    ]:
        rules = _rules(system)
        best = W.table(rules, "maximize_win", exact=True, **axes)
        thumb = W.table(rules, "reroll_failures", exact=True, **axes)
        none = engine.table(rules, exact=True, **axes)
        assert (best["p_win"] >= thumb["p_win"]).all() and (thumb["p_win"] >= none["p_win"]).all()
        assert (best["p_win"] > thumb["p_win"]).any()


# ------------------------------------------------------------------ strategies and checks


def test_strategy_names_and_objects():
    rules = _rules("v5")
    assert (
        W.odds(rules, "none", pool=3, hunger=1, difficulty=2).classes()
        == engine.odds(rules, pool=3, hunger=1, difficulty=2).classes()
    )
    with pytest.raises(ValueError, match=r"unknown Willpower strategy 'maximise_win'.*did you mean maximize_win"):
        W.odds(rules, "maximise_win", pool=3, hunger=1, difficulty=2)
    with pytest.raises(ValueError, match="unknown outcome class 'critcal_win'.*did you mean critical_win"):
        W.odds(rules, W.Strategy(values={"critcal_win": 1}), pool=3, hunger=1, difficulty=2)
    with pytest.raises(ValueError, match="does not reroll 'hunger' dice"):
        W.odds(rules, W.Strategy(win=True, kinds=("hunger",)), pool=3, hunger=1, difficulty=2)
    with pytest.raises(ValueError, match="needs values"):
        W.Strategy("empty")
    with pytest.raises(ValueError, match="one of"):
        W.Strategy("both", win=True, reroll_failures=True)
    # values as a dict, floats taken as written, Fractions compared exactly
    s = W.Strategy("mine", values={"plain_win": 1, "critical_win": 1.5, "messy_critical": Fraction(1, 3)})
    assert list(s.integer_values(rules.mechanic)) == [0, 0, 6, 9, 2, 0]
    # a utility equal to maximize_win's is maximize_win
    same = W.Strategy("same", values={c: 1 for c in rules.mechanic.win_classes})
    assert (
        W.odds(rules, same, pool=5, hunger=2, difficulty=3).classes()
        == W.odds(rules, "maximize_win", pool=5, hunger=2, difficulty=3).classes()
    )
    # classic pools declare no Willpower reroll
    with pytest.raises(ValueError, match="has no Willpower reroll"):
        W.odds(_rules("classic"), "maximize_win", **{a.name: a.range[0] + 1 for a in _mechanic("classic").axes})


def test_ties_keep_willpower_then_fewer_dice():
    rules = _rules("v5")
    # a win at Difficulty 0 cannot get better: Willpower is never spent
    assert W.odds(rules, "maximize_win", pool=6, hunger=2, difficulty=0).willpower_spent == 0
    # a sure loss (Difficulty beyond reach) neither
    assert W.odds(rules, "maximize_win", pool=2, hunger=0, difficulty=40).willpower_spent == 0


@pytest.mark.parametrize(
    "text, message",
    [
        ("dice = 0\nkinds = ['plain']", r"\[willpower\] dice: must be 1..10"),
        (
            "dice = 2\nkinds = ['plane']",
            r"\[willpower\] kinds: 'plane' is not one of the kinds plain, wilds "
            r"\(did you mean plain\?\)",
        ),
        ("dice = 2\nkinds = []", r"\[willpower\] kinds: must be a list of kind names, at least one"),
        ("dice = 2\nkinds = ['plain']\nmarks = ['boom']", r"\[willpower\] marks: 'boom' is not one of the marks"),
        (
            "dice = 2\nkinds = ['plain']\nfailures = ['hit', 'hit']",
            r"\[willpower\] failures: names a rerollable mark twice",
        ),
        ("dice = 2\nkinds = ['plain']\nkeeps_kind = false", r"\[willpower\] keeps_kind: false needs becomes"),
        (
            "dice = 2\nkinds = ['plain']\nkeep_kind = true",
            r"\[willpower\]: unknown key 'keep_kind'.*did you mean keeps_kind",
        ),
        ("kinds = ['plain']", r"\[willpower\]: needs 'dice'"),
    ],
)
def test_willpower_table_errors_name_file_and_key(text, message):
    body = DESIGNER.replace('dice = 2\nkinds = ["plain", "wilds"]\nmarks = ["miss", "hit"]\nfailures = ["miss"]', text)
    assert body != DESIGNER
    with pytest.raises(spec.MechanicError, match=r"^wildsix\.toml, " + message):
        spec.from_toml(body, "wildsix.toml")


def test_files_without_willpower_still_load_and_reroll_failures_needs_failures():
    plain = DESIGNER.split("[willpower]")[0] + DESIGNER.split('failures = ["miss"]')[1]
    assert spec.from_toml(plain, "x.toml").willpower is None
    no_fail = DESIGNER.replace('failures = ["miss"]\n', "")
    rules = engine.rules_of(spec.from_toml(no_fail, "x.toml"))
    with pytest.raises(ValueError, match="names no failures"):
        W.odds(rules, "reroll_failures", pool=2, wild=1, target=2)
    assert W.odds(rules, "maximize_win", pool=2, wild=1, target=2).p_win > 0


def test_shipped_files_declare_their_willpower():
    assert _mechanic("v5").willpower == spec.Willpower(3, ("normal",), ("fail", "success", "ten"), ("fail",))
    assert _mechanic("werewolf").willpower == spec.Willpower(
        3, ("normal", "rage"), ("fail", "success", "ten"), ("fail",)
    )
    assert _mechanic("hunter").willpower == spec.Willpower(3, ("normal",), ("fail", "success", "ten"), ("fail",))
    assert _mechanic("classic").willpower is None


# ------------------------------------------------------------------ (c) buffers and limits


def _call(system="v5", strategy="maximize_win", **cell):
    return W.kernel_call(_rules(system), strategy, **cell)


CHOICE_NAMES = [
    "res_idx",
    "st_avail",
    "st_off",
    "opt_counts",
    "opt_off",
    "opt_v",
    "out_off",
    "out_w",
    "out_n",
    "cls",
    "values",
    "wins",
    "forbid",
    "fail_cats",
    "mode",
    "max_reroll",
    "common",
    "choice",
    "bad",
]
ADD_NAMES = [
    "res_ways",
    "res_idx",
    "st_w",
    "st_avail",
    "st_off",
    "opt_counts",
    "opt_off",
    "opt_v",
    "out_off",
    "out_w",
    "out_n",
    "cls",
    "succ",
    "choice",
    "max_reroll",
    "common",
    "mod",
    "class_out",
    "succ_out",
    "spent",
]


def test_kernels_run_from_their_arguments():
    from kernels.mechanic_willpower import willpower_add, willpower_choices

    call = _call(pool=5, hunger=2, difficulty=3)
    args = call.choice_arguments()
    willpower_choices(*args)
    assert (args[-2] == call.choices()).all()
    args = call.add_arguments(0)
    willpower_add(*args)
    assert list(np.concatenate([a.ravel() for a in args[-3:]])) == list(call.compute(0))


_SHARED_BREAKS = [
    ("out_n", lambda a: a + 1000, "an outcome count passes its outcome buffer"),
    ("out_off", lambda a: np.ascontiguousarray(a[:, :1]), "the outcome arrays differ in shape"),
    ("opt_v", lambda a: a + 10_000, "a reroll names an outcome row that does not exist"),
    ("max_reroll", lambda a: 2, "a reroll takes more dice than max_reroll"),  # a 3-dice reroll, 2-dice scratch
    ("opt_counts", lambda a: np.ascontiguousarray(a[:, :2]), "the reroll arrays do not match the categories"),
    ("st_off", lambda a: a + 10**9, "a state lies outside the grid"),
    ("res_idx", lambda a: a + 10**9, "a landed cell lies outside the grid"),
    ("choice", lambda a: np.zeros((a.shape[0], a.shape[1], 1), dtype=np.int32), "the choice buffer does not match"),
    ("cls", lambda a: a + 100, "a class table names a class that does not exist"),
]


@pytest.mark.parametrize(
    "name, broken, message",
    _SHARED_BREAKS
    + [
        ("fail_cats", lambda a: np.array([7], dtype=np.int64), "a failure category does not exist"),
        ("bad", lambda a: np.zeros(0, dtype=np.int64), "the class arrays differ in length"),
        ("mode", lambda a: 5, "unknown mode"),
    ],
    ids=lambda x: x if isinstance(x, str) and " " not in x else "",
)
def test_choices_kernel_refuses_buffers_that_do_not_fit(name, broken, message):
    from kernels.mechanic_willpower import willpower_choices

    args = _call(pool=5, hunger=2, difficulty=3).choice_arguments()
    i = CHOICE_NAMES.index(name)
    args[i] = broken(args[i])
    with pytest.raises(ValueError, match=message):
        willpower_choices(*args)


@pytest.mark.parametrize(
    "name, broken, message",
    _SHARED_BREAKS
    + [
        ("class_out", lambda a: np.zeros((a.shape[0], 2), dtype=np.int64), "a class that does not exist"),
        ("succ_out", lambda a: np.zeros((a.shape[0], 1), dtype=np.int64), "a success value passes the success buffer"),
        ("spent", lambda a: np.zeros(0, dtype=np.int64), "the outputs do not have one row per context"),
        ("st_w", lambda a: np.ascontiguousarray(a[:1]), "the weights or success tables do not match"),
    ],
    ids=lambda x: x if isinstance(x, str) and " " not in x else "",
)
def test_add_kernel_refuses_buffers_that_do_not_fit(name, broken, message):
    from kernels.mechanic_willpower import willpower_add

    call = _call(pool=5, hunger=2, difficulty=3)
    args = call.add_arguments(0)
    i = ADD_NAMES.index(name)
    args[i] = broken(args[i])
    with pytest.raises(ValueError, match=message):
        willpower_add(*args)


def test_choice_arrays_are_bounded(monkeypatch):
    monkeypatch.setattr(W, "MAX_CHOICES", 10)
    W._plan_cached.cache_clear()
    with pytest.raises(
        spec.MechanicError,
        match=r"would decide for about [\d,]+ landed rolls x contexts, over the "
        r"limit of 10",
    ):
        W.odds(_rules("v5"), "maximize_win", pool=5, hunger=2, difficulty=3)
    W._plan_cached.cache_clear()


def test_compositions_kernel_refuses_wrong_buffers():
    from kernels.mechanic_willpower import fill_compositions

    ok = np.zeros((10, 3), dtype=np.int64)
    assert fill_compositions(3, 3, ok) == 10
    assert sorted(map(tuple, ok.tolist())) == sorted(c for c in itertools.product(range(4), repeat=3) if sum(c) == 3)
    for bad in (np.zeros((9, 3), dtype=np.int64), np.zeros((11, 3), dtype=np.int64), np.zeros((10, 2), dtype=np.int64)):
        with pytest.raises(ValueError, match="fill_compositions"):
            fill_compositions(3, 3, bad)


def test_bound_refuses_values_that_cannot_be_weighed():
    from kernels.mechanic_willpower import mechanic_willpower_bound

    faces = np.array([[5, 4, 1]], dtype=np.int64)
    marks = np.array([3], dtype=np.int64)
    assert mechanic_willpower_bound((4,), faces, marks, 1000, [1, 0]) == 10**4 * 1000
    with pytest.raises(ValueError, match="too big to weigh exactly"):
        mechanic_willpower_bound((4,), faces, marks, 10**12, [10**9])


def test_work_is_estimated_and_refused_beyond_the_limit(monkeypatch):
    rules = _rules("werewolf")
    steps = W.work(rules, "maximize_win", pool=12, rage=3, difficulty=4, violent=0)
    assert 0 < steps < W.MAX_WORK
    monkeypatch.setattr(W, "MAX_WORK", steps - 1)
    W._plan_cached.cache_clear()
    with pytest.raises(
        spec.MechanicError,
        match=rf"would take about {steps:,} steps .* over the limit of "
        rf"{steps - 1:,}",
    ):
        W.odds(rules, "maximize_win", pool=12, rage=3, difficulty=4, violent=0)
    W._plan_cached.cache_clear()


def test_a_huge_reroll_is_refused_before_any_work():
    many = DESIGNER.replace("dice = 2\nkinds", "dice = 10\nkinds").replace(
        'wild = { default = "0-1", range = [0, 2] }', 'wild = { default = "0-1", range = [0, 30] }'
    )
    rules = engine.rules_of(spec.from_toml(many, "many.toml"))
    with pytest.raises(
        spec.MechanicError,
        match=r"^many\.toml: the Willpower reroll at 30 plain \+ 30 wilds dice "
        r"would take about [\d,]+ steps",
    ):
        W.odds(rules, "maximize_win", pool=30, wild=30, target=20)


def test_pool_30_answers_quickly():
    import time

    for system, cell in [
        ("v5", dict(pool=30, hunger=5, difficulty=6)),
        ("werewolf", dict(pool=30, rage=5, difficulty=6, violent=1)),
        ("hunter", dict(pool=30, desperation=5, difficulty=6)),
    ]:
        rules = _rules(system)
        for strategy in ("maximize_win", "reroll_failures"):
            W.odds(rules, strategy, **{**cell, "difficulty": 1})  # compiled, cached
            start = time.perf_counter()
            o = W.odds(rules, strategy, **cell)
            assert time.perf_counter() - start < 2.0  # well under 1 s alone; the bound allows a busy machine
            assert sum(o.classes().values()) == 1


def test_int64_and_primes_agree():
    from analysis.engine.exact import count

    for system, cell in [
        ("v5", dict(pool=6, hunger=2, difficulty=3)),
        ("werewolf", dict(pool=5, rage=3, difficulty=4, violent=1)),
    ]:
        call = _call(system, "maximize_win", **cell)
        plain = count(call.compute, call.bound())
        modular = count(call.compute, call.bound(), force_modular=True)
        assert [int(x) for x in plain] == [int(x) for x in modular]


def test_odds_object_reads_like_the_engines():
    o = W.odds(_rules("v5"), "maximize_win", pool=5, hunger=2, difficulty=3)
    assert isinstance(o, engine.MechanicOdds)
    assert sum(o.classes().values()) == 1 and o.p_win == o.probability("p_win")
    assert o.mean_successes == sum(s * p for s, p in o.successes.items())
    assert o.strategy == "maximize_win" and 0 < o.willpower_spent < 1
    assert "Willpower: maximize_win, spent" in str(o)


def test_a_table_is_bounded_as_a_whole(monkeypatch):
    rules = _rules("v5")
    one = W.work(rules, "maximize_win", pool=8, hunger=1, difficulty=3)
    monkeypatch.setattr(W, "MAX_TABLE_WORK", 3 * one)
    with pytest.raises(spec.MechanicError, match=r"over these 4 cells would take about [\d,]+ steps, over the limit"):
        W.table(rules, "maximize_win", pool=8, hunger=1, difficulty="1-4")


# ------------------------------------------------------------------ Willpower dice as an expression


@pytest.mark.parametrize("strategy", ["maximize_win", "reroll_failures"])
@pytest.mark.parametrize("cell", [(1, 1, 2), (2, 1, 2), (3, 0, 3), (2, 1, 3)], ids=str)
def test_a_reroll_of_every_die_as_an_expression_matches_brute_force(strategy, cell):
    """``dice = "pool + wild"``: every failed die may be rerolled (Shadowrun's Second Chance)."""
    mech = spec.from_toml(DESIGNER.replace("dice = 2\n", 'dice = "pool + wild"\n'), "second-chance.toml")
    pool, wild, target = cell
    want = brute_force(_wild, pool, wild, target, strategy, _wild_marks, {"win"}, sides=6, max_dice=pool + wild)
    got = W.odds(engine.rules_of(mech), strategy, pool=pool, wild=wild, target=target)
    _check_brute(got, want)


def test_willpower_dice_may_read_an_axis_that_sets_no_dice():
    """``dice = "min(target, 2)"``: cells of one pool with different Willpower dice are counted apart."""
    mech = spec.from_toml(DESIGNER.replace("dice = 2\n", 'dice = "min(target - 1, 2)"\n'), "by-target.toml")
    rules = engine.rules_of(mech)
    df = W.table(rules, "maximize_win", exact=True, pool="2", wild="1", target="1-3")
    for target in (1, 2, 3):
        want = brute_force(
            _wild, 2, 1, target, "maximize_win", _wild_marks, {"win"}, sides=6, max_dice=min(target - 1, 2)
        )
        row = df[df.target == target].iloc[0]
        assert {c: row[c] for c in ("snake_eyes", "win", "loss")} == {
            c: want[0].get(c, 0) for c in ("snake_eyes", "win", "loss")
        }
        assert row["willpower_spent"] == want[2]
    assert df[df.target == 1].iloc[0]["willpower_spent"] == 0  # no Willpower dice there


@pytest.mark.parametrize(
    "dice, words",
    [
        ('"pool +"', "[willpower] dice"),
        ('"nope"', "nope"),
        ('"pool > 1"', "[willpower] dice"),
    ],
)
def test_a_bad_willpower_dice_expression_is_refused(dice, words):
    with pytest.raises(spec.MechanicError, match=re.escape(words)):
        spec.from_toml(DESIGNER.replace("dice = 2\n", f"dice = {dice}\n"), "bad.toml")


def test_willpower_dice_up_to_the_pool_where_the_planner_allows(tmp_path, capsys):
    """``dice = "pool + wild"``: a reroll of every die, as far as the planner weighs it exactly and within
    its work limits; past that, one sentence naming the cell, before any counting."""
    text = DESIGNER.replace("dice = 2\n", 'dice = "pool + wild"\n')
    rules = engine.rules_of(spec.from_toml(text, "second-chance.toml"))
    two = engine.rules_of(spec.from_toml(DESIGNER, "wildsix.toml"))
    every = W.table(rules, "maximize_win", exact=True, pool="10", wild="1", target="4-6")
    some = W.table(two, "maximize_win", exact=True, pool="10", wild="1", target="4-6")
    assert (every["p_win"] >= some["p_win"]).all() and (every["p_win"] > some["p_win"]).any()
    assert all(sum(row[c] for c in ("snake_eyes", "win", "loss")) == 1 for _, row in every.iterrows())
    with pytest.raises(spec.MechanicError, match=r"a Willpower reroll of up to 25 dice at .* equally likely landings"):
        W.table(rules, "maximize_win", pool="24", wild="1", target="2")
    path = tmp_path / "second-chance.toml"
    path.write_text(text, encoding="utf-8")
    from tests.conftest import run_cli, systems_kept

    with systems_kept():
        code, out, err = run_cli(
            capsys, "table", path, "--pool", "1-30", "--wild", "1", "--target", "2", "--strategy", "maximize_win"
        )
    assert code == 2 and out == "" and "use fewer Willpower dice" in err and err.count("\n") == 1, err


# ------------------------------------------------------------------ a rerolled die of another kind

BECOMES_HUNGER = (
    (ROOT / "analysis" / "systems" / "v5" / "mechanic.toml")
    .read_text(encoding="utf-8")
    .replace('name = "v5"', 'name = "v5tainted"', 1)
    .replace("keeps_kind = true", 'becomes = "hunger"', 1)
)


@pytest.mark.parametrize("strategy", ["maximize_win", "reroll_failures"])
@pytest.mark.parametrize("cell", [(1, 0, 1), (2, 0, 2), (2, 1, 2), (3, 1, 2), (3, 2, 3), (3, 0, 3)], ids=str)
def test_a_rerolled_die_that_becomes_a_hunger_die_matches_brute_force(strategy, cell):
    """V5 with a house rule: a die Willpower rerolls is rolled as a Hunger die (its 1 bestial, its 10 messy)."""
    mech = spec.from_toml(BECOMES_HUNGER, "v5-tainted.toml")
    assert mech.willpower.becomes == (("normal", "hunger"),) and not mech.willpower.keeps_kind
    pool, hunger, difficulty = cell
    want = brute_force(_v5, pool - hunger, hunger, difficulty, strategy, _d10_marks({0}), V5_WINS, becomes={0: 1})
    got = W.odds(engine.rules_of(mech), strategy, pool=pool, hunger=hunger, difficulty=difficulty)
    _check_brute(got, want)
    plain = W.odds(_rules("v5"), strategy, pool=pool, hunger=hunger, difficulty=difficulty)
    if pool > hunger and strategy == "reroll_failures" and difficulty > 1:
        assert got.classes()["bestial_failure"] > plain.classes()["bestial_failure"]


@pytest.mark.parametrize(
    "willpower, words",
    [
        ('becomes = "nope"', "'nope' is not one of the kinds normal, hunger"),
        ('becomes = { hunger = "normal" }', "'hunger' is not a kind a reroll takes (normal)"),
        ('becomes = "normal"', "a rerolled normal die becomes normal"),
        ("keeps_kind = false", "false needs becomes"),
        ('keeps_kind = true\nbecomes = "hunger"', "true says a rerolled die stays its kind"),
        ("becomes = 3", "must be a kind name or a table of kind = kind"),
    ],
)
def test_a_bad_becomes_is_refused_in_one_sentence(willpower, words):
    text = BECOMES_HUNGER.replace('becomes = "hunger"', willpower, 1)
    with pytest.raises(spec.MechanicError, match=re.escape(words)):
        spec.from_toml(text, "bad.toml")


def test_a_rerolled_die_lands_with_the_sides_of_the_kind_it_becomes():
    """A d4 rerolled as a d6 wild die, worked by hand: a miss (1/2) rerolled lands as 1 snake, 2 misses,
    2 hits and a boom of six faces."""
    text = (
        DESIGNER.replace(
            'sides = 6\nfaces = { miss = "1 .. 3", hit = "4 .. 6" }',
            'sides = 4\nfaces = { miss = "1 .. 2", hit = "3 .. 4" }',
        )
        .replace("dice = 2\n", "dice = 1\n")
        .replace('kinds = ["plain", "wilds"]', 'kinds = ["plain"]\nbecomes = { plain = "wilds" }')
    )
    mech = spec.from_toml(text, "d4-to-wild.toml")
    assert [k.sides for k in mech.kinds] == [4, 6] and mech.willpower.becomes == (("plain", "wilds"),)
    rules = engine.rules_of(mech)
    got = W.odds(rules, "reroll_failures", pool=1, wild=0, target=1)
    assert got.classes() == {"snake_eyes": Fraction(1, 12), "win": Fraction(3, 4), "loss": Fraction(1, 6)}
    assert got.willpower_spent == Fraction(1, 2)
    assert W.odds(rules, "maximize_win", pool=1, wild=0, target=1).classes()["win"] == Fraction(3, 4)


# ------------------------------------------------------------------ V5's named strategies in a house rule

#: A small house rule with V5's classes: d6 pools with Hunger dice, a pair of 6s a critical.
CRITICAL_SIX = """
[mechanic]
name = "criticalsix"
title = "Critical six: d6 pools with Hunger dice"
successes = "successes"

[axes]
pool = { default = "1-3", range = [0, 10] }
hunger = { default = "0-2", range = [0, 3] }
difficulty = { default = "1-3", range = [0, 20] }

[kinds.normal]
dice = "pool - min(hunger, pool)"
sides = 6
faces = { fail = "1 .. 3", success = "4 .. 5", six = "6" }

[kinds.hunger]
dice = "min(hunger, pool)"
sides = 6
faces = { one = "1", fail = "2 .. 3", success = "4 .. 5", six = "6" }

[counts]
successes = "success + six + 2 * floor(six / 2)"

[willpower]
dice = 2
kinds = ["normal"]
marks = ["fail", "success", "six"]
failures = ["fail"]

[[outcomes]]
name = "messy_critical"
when = "successes >= difficulty and six >= 2 and hunger.six >= 1"
win = true
[[outcomes]]
name = "critical_win"
when = "successes >= difficulty and six >= 2"
win = true
[[outcomes]]
name = "plain_win"
when = "successes >= difficulty"
win = true
[[outcomes]]
name = "bestial_failure"
when = "hunger.one >= 1"
[[outcomes]]
name = "failure"
"""


def _critical_six(normal, hunger, difficulty):
    dice = normal + hunger
    six = sum(1 for f in dice if f == 6)
    successes = sum(1 for f in dice if f >= 4) + 2 * (six // 2)
    if successes >= difficulty and six >= 2:
        return ("messy_critical" if 6 in hunger else "critical_win"), successes
    if successes >= difficulty:
        return "plain_win", successes
    return ("bestial_failure" if 1 in hunger else "failure"), successes


def _six_marks(kind, face):
    if kind != 0:
        return None
    return 0 if face <= 3 else 1 if face <= 5 else 2


#: V5's named strategies, as the brute force reads them: (values, forbid).
NAMED = {
    "maximize_critical": ({"critical_win": 1, "messy_critical": 1}, ()),
    "avoid_messy": ({"plain_win": 1, "critical_win": 1, "messy_critical": 1}, ("messy_critical",)),
}


@pytest.mark.parametrize("strategy", list(NAMED))
@pytest.mark.parametrize("cell", [(2, 1, 2), (3, 1, 3), (3, 2, 2), (4, 1, 4), (3, 0, 3)], ids=str)
def test_v5s_named_strategies_in_a_house_rule_match_brute_force(strategy, cell):
    """maximize_critical and avoid_messy work for any file with V5's classes, by name, exactly."""
    mech = spec.from_toml(CRITICAL_SIX, "criticalsix.toml")
    pool, hunger, difficulty = cell
    values, forbid = NAMED[strategy]
    want = brute_force(
        _critical_six,
        pool - hunger,
        hunger,
        difficulty,
        "values",
        _six_marks,
        {"plain_win", "critical_win", "messy_critical"},
        sides=6,
        max_dice=2,
        values=values,
        forbid=forbid,
    )
    got = W.odds(engine.rules_of(mech), strategy, pool=pool, hunger=hunger, difficulty=difficulty)
    _check_brute(got, want)


def test_a_named_strategy_says_which_class_a_file_lacks():
    mech = spec.from_toml(DESIGNER, "wildsix.toml")
    with pytest.raises(ValueError) as exc:
        W.odds(engine.rules_of(mech), "maximize_critical", pool=2, wild=1, target=2)
    assert str(exc.value) == (
        "the strategy maximize_critical needs the outcome classes critical_win and messy_critical, which the "
        "wildsix mechanic does not have (its classes: snake_eyes, win, loss)"
    )
    with pytest.raises(ValueError, match="the strategy avoid_messy needs the outcome class messy_critical, which"):
        W.odds(engine.rules_of(mech), "avoid_messy", pool=2, wild=1, target=2)


@pytest.mark.parametrize("strategy", ["maximize_critical", "avoid_messy"])
def test_v5s_strategies_on_a_copy_of_v5s_file_equal_v5(strategy, tmp_path):
    """Cell for cell, a copy of V5's file under another name equals ``v5 --strategy`` (every column)."""
    from analysis.workbench import rulesets
    from tests.conftest import systems_kept

    text = (ROOT / "analysis" / "systems" / "v5" / "mechanic.toml").read_text(encoding="utf-8")
    path = tmp_path / "myv5.toml"
    path.write_text(re.sub(r'(?m)^name = "v5"', 'name = "myv5"', text, count=1), encoding="utf-8")
    axes = (list(range(0, 9)), list(range(0, 6)), list(range(0, 6)))
    with systems_kept():
        rs = rulesets.load(path)
        mine = rulesets.system(rs.system).table(*axes, rules=rs.rules, exact=True, strategy=strategy)
    want = v5.table(*axes, exact=True, strategy=strategy)
    assert list(mine.columns) == list(want.columns)
    assert mine.equals(want)
