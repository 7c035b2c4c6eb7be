"""Independent references: brute force over ordered rolls, icepool, and a pure-Python count.

None of these import ``kernels`` or the counting code of ``analysis``; they
restate docs/rules.md directly so that agreement means something.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from math import factorial

CLASSES = ("total_failure", "failure", "plain_win", "critical_win", "messy_critical", "bestial_failure")


def classify_v5(
    successes,
    tens,
    hunger_tens,
    hunger_ones,
    difficulty,
    *,
    messy_hunger_tens=1,
    bestial_hunger_ones=1,
    hunger_one_taints_win=False,
):
    """docs/rules.md, restated: the outcome class of one V5 roll."""
    if successes >= difficulty:
        if tens >= 2:
            return "messy_critical" if hunger_tens >= messy_hunger_tens else "critical_win"
        if hunger_one_taints_win and hunger_ones >= bestial_hunger_ones:
            return "failure"
        return "plain_win"
    if hunger_ones >= bestial_hunger_ones:
        return "bestial_failure"
    return "total_failure" if successes == 0 else "failure"


@lru_cache(maxsize=None)
def _brute_features(normal, hunger, success_face, crit_bonus, replaces):
    """Counter of (successes, tens, Hunger tens, Hunger ones) over all 10**n ordered rolls."""
    feats = Counter()
    for normal_faces in itertools.product(range(1, 11), repeat=normal):
        n_succ = sum(1 for f in normal_faces if f >= success_face)
        n_tens = normal_faces.count(10)
        for hunger_faces in itertools.product(range(1, 11), repeat=hunger):
            tens = n_tens + hunger_faces.count(10)
            succ = n_succ + sum(1 for f in hunger_faces if f >= success_face) + crit_bonus * (tens // 2)
            feats[(succ, tens, hunger_faces.count(10), hunger_faces.count(1))] += 1
    return feats


def brute_force_v5(
    pool,
    hunger,
    difficulty,
    *,
    success_face=6,
    crit_bonus=2,
    messy_hunger_tens=1,
    bestial_hunger_ones=1,
    hunger_one_taints_win=False,
    hunger_replaces_dice=True,
):
    """Exact class probabilities by enumerating every ordered roll (small pools only)."""
    if hunger_replaces_dice:
        h = min(hunger, pool)
        normal = pool - h
    else:
        normal, h = pool, hunger
    feats = _brute_features(normal, h, success_face, crit_bonus, hunger_replaces_dice)
    total = 10 ** (normal + h)
    out = dict.fromkeys(CLASSES, 0)
    for (succ, tens, htens, hones), n in feats.items():
        out[
            classify_v5(
                succ,
                tens,
                htens,
                hones,
                difficulty,
                messy_hunger_tens=messy_hunger_tens,
                bestial_hunger_ones=bestial_hunger_ones,
                hunger_one_taints_win=hunger_one_taints_win,
            )
        ] += n
    return {c: Fraction(w, total) for c, w in out.items()}


def brute_force_successes(pool, hunger, success_face=6, crit_bonus=2):
    """Exact distribution of successes by enumerating every ordered roll."""
    h = min(hunger, pool)
    feats = _brute_features(pool - h, h, success_face, crit_bonus, True)
    dist = Counter()
    for (succ, *_), n in feats.items():
        dist[succ] += n
    return {s: Fraction(n, 10**pool) for s, n in sorted(dist.items())}


def multinomial_v5_table(pools, hungers, difficulties):
    """The whole table by a pure-Python multinomial count over category vectors.

    Returns ``{(pool, hunger, difficulty): {class: Fraction}}``.  Official rules.
    Normal dice: fail 5 faces, success 4, ten 1; Hunger dice: one 1, fail 4,
    success 4, ten 1.
    """
    result = {}
    for pool in pools:
        for hunger in hungers:
            h = min(hunger, pool)
            n = pool - h
            feats = Counter()
            for c in range(n + 1):
                for b in range(n - c + 1):
                    a = n - b - c
                    wn = factorial(n) // (factorial(a) * factorial(b) * factorial(c)) * 5**a * 4**b
                    for e in range(h + 1):
                        for o in range(h - e + 1):
                            for g in range(h - e - o + 1):
                                f = h - e - o - g
                                wh = (
                                    factorial(h)
                                    // (factorial(e) * factorial(o) * factorial(g) * factorial(f))
                                    * 4**g
                                    * 4**f
                                )
                                t = c + e
                                feats[(b + g + t + 2 * (t // 2), t, e, o)] += wn * wh
            total = 10**pool
            for d in difficulties:
                out = dict.fromkeys(CLASSES, 0)
                for (succ, tens, htens, hones), w in feats.items():
                    out[classify_v5(succ, tens, htens, hones, d)] += w
                result[(pool, hunger, d)] = {c: Fraction(w, total) for c, w in out.items()}
    return result


# ---------------------------------------------------------------- icepool


def icepool_v5_evaluator():
    """An icepool MultisetEvaluator for a V5 roll, reusable across calls.

    Inputs: the normal dice pool and the Hunger dice pool (d10s).  The final
    outcome is (successes, tens, min(Hunger tens, 2), min(Hunger ones, 2)).
    """
    import icepool

    class V5Evaluator(icepool.MultisetEvaluator):
        def initial_state(self, order, outcomes, *sizes):
            return (0, 0, 0, 0)

        def next_state(self, state, order, outcome, normal, hunger):
            succ, tens, htens, hones = state
            if outcome >= 6:
                succ += normal + hunger
            if outcome == 10:
                tens += normal + hunger
                htens = min(2, htens + hunger)
            if outcome == 1:
                hones = min(2, hones + hunger)
            return (succ, tens, htens, hones)

        def final_outcome(self, final_state, order, outcomes, *sizes):
            succ, tens, htens, hones = final_state
            return (succ + 2 * (tens // 2), tens, htens, hones)

        @property
        def next_state_key(self):
            return type(self)

    return V5Evaluator()


def icepool_v5(evaluator, pool, hunger, difficulties):
    """Class probabilities for each difficulty from an icepool evaluation."""
    import icepool

    h = min(hunger, pool)
    d10 = icepool.d10
    die = evaluator.evaluate(d10.pool(pool - h), d10.pool(h))
    total = die.denominator()
    out = {}
    for d in difficulties:
        ways = dict.fromkeys(CLASSES, 0)
        for (succ, tens, htens, hones), q in die.items():
            ways[classify_v5(succ, tens, htens, hones, d)] += q
        out[d] = {c: Fraction(w, total) for c, w in ways.items()}
    return out


# ---------------------------------------------------------------- Willpower

_WIN_CLASSES = ("plain_win", "critical_win", "messy_critical")
ORACLE_STRATEGIES = {
    # name: (values by class, reroll_failures, forbid_new_messy)
    "reroll_failures": ({}, True, False),
    "maximize_win": ({c: 1 for c in _WIN_CLASSES}, False, False),
    "maximize_critical": ({"critical_win": 1, "messy_critical": 1}, False, False),
    "avoid_messy": ({c: 1 for c in _WIN_CLASSES}, False, True),
}


def _roll_class(normal, hunger, difficulty):
    tens = normal.count(10) + hunger.count(10)
    succ = sum(f >= 6 for f in normal + hunger) + 2 * (tens // 2)
    return classify_v5(succ, tens, hunger.count(10), hunger.count(1), difficulty)


@lru_cache(maxsize=None)
def _reroll_dist(kept, hunger, k, difficulty):
    """{class: ways out of 10**k} after rerolling k dice beside the kept faces."""
    out = Counter()
    for faces in itertools.product(range(1, 11), repeat=k):
        out[_roll_class(list(kept) + list(faces), list(hunger), difficulty)] += 1
    return out


@lru_cache(maxsize=None)
def _decision(normal, hunger, difficulty, strategy):
    """(kept faces, dice rerolled) for a sorted hand, by brute force over position subsets."""
    values, reroll_failures, forbid = ORACLE_STRATEGIES[strategy]
    now = _roll_class(list(normal), list(hunger), difficulty)
    if reroll_failures:
        fails = [i for i, f in enumerate(normal) if f < 6]
        if now in _WIN_CLASSES or not fails:
            return normal, 0
        chosen = set(fails[:3])
        return tuple(f for i, f in enumerate(normal) if i not in chosen), len(chosen)
    best_key, best = None, (normal, 0)
    best_value = Fraction(values.get(now, 0))
    for k in range(1, min(3, len(normal)) + 1):
        for positions in itertools.combinations(range(len(normal)), k):
            kept = tuple(f for i, f in enumerate(normal) if i not in positions)
            dist = _reroll_dist(kept, hunger, k, difficulty)
            if forbid and dist["messy_critical"] and now != "messy_critical":
                continue
            value = sum(Fraction(values.get(c, 0) * w, 10**k) for c, w in dist.items())
            chosen = [normal[i] for i in positions]
            key = (k, -sum(f < 6 for f in chosen), -sum(6 <= f < 10 for f in chosen))
            if value > best_value or (value == best_value and best_key is not None and key < best_key):
                best_value, best_key, best = value, key, (kept, k)
    return best


def brute_force_willpower(pool, hunger, difficulty, strategy):
    """Exact classes and P(Willpower spent) after a strategy, over every ordered roll."""
    h = min(hunger, pool)
    n = pool - h
    R = min(3, n)
    ways = Counter()
    spent = 0
    for normal in itertools.product(range(1, 11), repeat=n):
        for hung in itertools.product(range(1, 11), repeat=h):
            kept, k = _decision(tuple(sorted(normal)), tuple(sorted(hung)), difficulty, strategy)
            if k == 0:
                ways[_roll_class(list(normal), list(hung), difficulty)] += 10**R
                continue
            spent += 10**R
            for c, w in _reroll_dist(kept, tuple(sorted(hung)), k, difficulty).items():
                ways[c] += w * 10 ** (R - k)
    total = 10 ** (pool + R)
    return {c: Fraction(ways[c], total) for c in CLASSES}, Fraction(spent, total)
