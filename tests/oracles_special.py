"""Independent references for Werewolf (Rage dice) and Hunter (Desperation dice): brute force over ordered rolls.

None of these import ``kernels`` or the counting code of ``analysis``; they
restate the rules of Werewolf: the Apocalypse 5th edition and Hunter: the
Reckoning 5th edition directly, so that agreement means something.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache

WEREWOLF_CLASSES = ("total_failure", "failure", "plain_win", "critical_win", "brutal_win", "brutal_failure")
HUNTER_CLASSES = ("total_failure", "failure", "plain_win", "critical_win", "overreach_or_despair", "despair")


@lru_cache(maxsize=None)
def _features(normal, special, success_face, crit_bonus, mark_top):
    """Counter of (successes, tens, special dice showing 1..mark_top) over every ordered roll."""
    feats = Counter()
    for faces in itertools.product(range(1, 11), repeat=normal + special):
        spec = faces[normal:]
        tens = faces.count(10)
        succ = sum(1 for f in faces if f >= success_face) + crit_bonus * (tens // 2)
        feats[(succ, tens, sum(1 for f in spec if f <= mark_top))] += 1
    return feats


def classify_werewolf(succ, tens, brutal_dice, difficulty, violent, *, brutal_rage_dice=2, brutal_bonus=4):
    """The rules restated: the class of one Werewolf roll."""
    if brutal_dice >= brutal_rage_dice:
        if violent and succ + brutal_bonus >= difficulty:
            return "brutal_win"
        return "brutal_failure"
    if succ >= difficulty:
        return "critical_win" if tens >= 2 else "plain_win"
    return "total_failure" if succ == 0 else "failure"


def brute_force_werewolf(
    pool,
    rage,
    difficulty,
    violent=False,
    *,
    success_face=6,
    crit_bonus=2,
    brutal_rage_dice=2,
    brutal_bonus=4,
    rage_replaces_dice=True,
):
    """Exact class probabilities by enumerating every ordered roll (small pools only)."""
    r = min(rage, pool) if rage_replaces_dice else rage
    normal = pool - r if rage_replaces_dice else pool
    feats = _features(normal, r, success_face, crit_bonus, 2)
    out = dict.fromkeys(WEREWOLF_CLASSES, 0)
    for (succ, tens, lows), n in feats.items():
        out[
            classify_werewolf(
                succ, tens, lows, difficulty, violent, brutal_rage_dice=brutal_rage_dice, brutal_bonus=brutal_bonus
            )
        ] += n
    return {c: Fraction(w, 10 ** (normal + r)) for c, w in out.items()}


def classify_hunter(succ, tens, ones, difficulty, *, despair_ones=1, critical_ignores_desperation=False):
    """The rules restated: the class of one Hunter roll."""
    trouble = ones >= despair_ones
    if succ >= difficulty:
        if tens >= 2 and (critical_ignores_desperation or not trouble):
            return "critical_win"
        return "overreach_or_despair" if trouble else "plain_win"
    if trouble:
        return "despair"
    return "total_failure" if succ == 0 else "failure"


def brute_force_hunter(
    pool,
    desperation,
    difficulty,
    *,
    success_face=6,
    crit_bonus=2,
    despair_ones=1,
    desperation_replaces_dice=False,
    critical_ignores_desperation=False,
):
    """Exact class probabilities by enumerating every ordered roll (small pools only)."""
    d = min(desperation, pool) if desperation_replaces_dice else desperation
    normal = pool - d if desperation_replaces_dice else pool
    feats = _features(normal, d, success_face, crit_bonus, 1)
    out = dict.fromkeys(HUNTER_CLASSES, 0)
    for (succ, tens, ones), n in feats.items():
        out[
            classify_hunter(
                succ,
                tens,
                ones,
                difficulty,
                despair_ones=despair_ones,
                critical_ignores_desperation=critical_ignores_desperation,
            )
        ] += n
    return {c: Fraction(w, 10 ** (normal + d)) for c, w in out.items()}


# ---------------------------------------------------------------- Werewolf Willpower

_WEREWOLF_WINS = ("plain_win", "critical_win", "brutal_win")


def _werewolf_class_of(normal, rage, difficulty, violent):
    faces = list(normal) + list(rage)
    tens = faces.count(10)
    succ = sum(1 for f in faces if f >= 6) + 2 * (tens // 2)
    return classify_werewolf(succ, tens, sum(1 for f in rage if f <= 2), difficulty, violent)


@lru_cache(maxsize=None)
def _after_reroll(kept_normal, kept_rage, k_normal, k_rage, difficulty, violent):
    """{class: ways out of 10**(k_normal + k_rage)} after rerolling those dice, by brute force."""
    out = Counter()
    for faces in itertools.product(range(1, 11), repeat=k_normal + k_rage):
        out[_werewolf_class_of(kept_normal + faces[:k_normal], kept_rage + faces[k_normal:], difficulty, violent)] += 1
    return out


def _category(face):
    return 0 if face < 6 else (1 if face < 10 else 2)


@lru_cache(maxsize=None)
def _werewolf_decision(normal, rage, difficulty, violent, rage_rerolls):
    """(kept normal, kept rage, rerolled normal, rerolled rage) for a sorted hand.

    Candidates are every choice of up to three dice by category (normal
    failures/successes/tens, Rage dice showing 3-5/6-9/10; a Rage 1 or 2 is
    never rerolled); the best expected number of wins is taken, ties going
    to no reroll, then fewer dice, then more of the earlier categories.
    """
    groups = [[f for f in normal if _category(f) == i] for i in range(3)]
    rgroups = [[f for f in rage if f > 2 and _category(f) == i] for i in range(3)]
    if not rage_rerolls:
        rgroups = [[], [], []]
    now = _werewolf_class_of(list(normal), list(rage), difficulty, violent)
    best_key = (-(10**3) * (now in _WEREWOLF_WINS), 0, ())
    best = (normal, rage, 0, 0)
    counts = [len(g) for g in groups + rgroups]
    for choice in itertools.product(*(range(c + 1) for c in counts)):
        k = sum(choice)
        if k == 0 or k > 3:
            continue
        kept_n = tuple(f for i, g in enumerate(groups) for f in g[choice[i] :])
        kept_r = tuple(f for f in rage if f <= 2) + tuple(f for i, g in enumerate(rgroups) for f in g[choice[3 + i] :])
        if not rage_rerolls:
            kept_r = tuple(rage)
        kn, kr = sum(choice[:3]), sum(choice[3:])
        dist = _after_reroll(kept_n, kept_r, kn, kr, difficulty, violent)
        ev = sum(w for c, w in dist.items() if c in _WEREWOLF_WINS) * 10 ** (3 - k)
        key = (-ev, k, tuple(-x for x in choice))
        if key < best_key:
            best_key, best = key, (kept_n, kept_r, kn, kr)
    return best


def brute_force_werewolf_willpower(pool, rage, difficulty, violent=False, rage_rerolls=True):
    """Exact class probabilities and P(Willpower spent) after the best reroll for a win."""
    r = min(rage, pool)
    n = pool - r
    big_r = min(3, pool)
    out = dict.fromkeys(WEREWOLF_CLASSES, 0)
    spent = 0
    for faces in itertools.product(range(1, 11), repeat=pool):
        normal, rolled = tuple(sorted(faces[:n])), tuple(sorted(faces[n:]))
        kept_n, kept_r, kn, kr = _werewolf_decision(normal, rolled, difficulty, violent, rage_rerolls)
        if kn + kr == 0:
            out[_werewolf_class_of(list(normal), list(rolled), difficulty, violent)] += 10**big_r
            continue
        spent += 10**big_r
        for c, w in _after_reroll(kept_n, kept_r, kn, kr, difficulty, violent).items():
            out[c] += w * 10 ** (big_r - kn - kr)
    total = 10 ** (pool + big_r)
    return {c: Fraction(w, total) for c, w in out.items()}, Fraction(spent, total)


# ---------------------------------------------------------------- reroll_failures and Hunter Willpower


def brute_force_werewolf_reroll_failures(pool, rage, difficulty, violent=False):
    """Exact class probabilities and P(Willpower spent) when a roll that is not a win rerolls up to
    three failed dice: normal dice showing 1-5 first, then Rage dice showing 3-5 (a Rage 1 or 2 stays)."""
    r = min(rage, pool)
    n = pool - r
    out = dict.fromkeys(WEREWOLF_CLASSES, Fraction(0))
    spent = Fraction(0)
    p_roll = Fraction(1, 10**pool)
    for faces in itertools.product(range(1, 11), repeat=pool):
        normal, rolled = tuple(sorted(faces[:n])), tuple(sorted(faces[n:]))
        now = _werewolf_class_of(list(normal), list(rolled), difficulty, violent)
        failed_n = [f for f in normal if f < 6]
        failed_r = [f for f in rolled if 3 <= f < 6]
        kn = min(3, len(failed_n))
        kr = min(3 - kn, len(failed_r))
        if now in _WEREWOLF_WINS or kn + kr == 0:
            out[now] += p_roll
            continue
        spent += p_roll
        kept_n = tuple(f for f in normal if f >= 6) + tuple(failed_n[kn:])
        kept_r = tuple(f for f in rolled if not 3 <= f < 6) + tuple(failed_r[kr:])
        for c, w in _after_reroll(kept_n, kept_r, kn, kr, difficulty, violent).items():
            out[c] += p_roll * Fraction(w, 10 ** (kn + kr))
    return out, spent


_HUNTER_WINS = ("plain_win", "critical_win", "overreach_or_despair")


def _hunter_class_of(normal, desperation, difficulty):
    faces = list(normal) + list(desperation)
    tens = faces.count(10)
    succ = sum(1 for f in faces if f >= 6) + 2 * (tens // 2)
    return classify_hunter(succ, tens, list(desperation).count(1), difficulty)


@lru_cache(maxsize=None)
def _hunter_after_reroll(kept_normal, desperation, k, difficulty):
    """{class: ways out of 10**k} after rerolling ``k`` normal dice, by brute force."""
    out = Counter()
    for faces in itertools.product(range(1, 11), repeat=k):
        out[_hunter_class_of(kept_normal + faces, desperation, difficulty)] += 1
    return out


@lru_cache(maxsize=None)
def _hunter_decision(normal, desperation, difficulty, strategy):
    """(kept normal dice, rerolled normal dice) for a sorted hand; Desperation dice are never rerolled.

    ``maximize_win``: every choice of up to three normal dice by category
    (failures 1-5, successes 6-9, tens), the best chance to win taken, ties
    going to no reroll, then fewer dice, then more of the earlier
    categories.  ``reroll_failures``: a roll that is not a win rerolls up to
    three of its failures.
    """
    groups = [[f for f in normal if _category(f) == i] for i in range(3)]
    now = _hunter_class_of(normal, desperation, difficulty)
    if strategy == "reroll_failures":
        k = min(3, len(groups[0]))
        if now in _HUNTER_WINS or k == 0:
            return normal, 0
        return tuple(groups[0][k:]) + tuple(groups[1]) + tuple(groups[2]), k
    best_key, best = (-(10**3) * (now in _HUNTER_WINS), 0, ()), (normal, 0)
    for choice in itertools.product(*(range(len(g) + 1) for g in groups)):
        k = sum(choice)
        if k == 0 or k > 3:
            continue
        kept = tuple(f for i, g in enumerate(groups) for f in g[choice[i] :])
        dist = _hunter_after_reroll(kept, desperation, k, difficulty)
        ev = sum(w for c, w in dist.items() if c in _HUNTER_WINS) * 10 ** (3 - k)
        key = (-ev, k, tuple(-x for x in choice))
        if key < best_key:
            best_key, best = key, (kept, k)
    return best


def brute_force_hunter_willpower(pool, desperation, difficulty, strategy):
    """Exact class and success probabilities and P(Willpower spent) after a Hunter Willpower strategy
    (``maximize_win`` or ``reroll_failures``; official rules, Desperation dice added to the pool)."""
    out = dict.fromkeys(HUNTER_CLASSES, Fraction(0))
    spent = Fraction(0)
    p_roll = Fraction(1, 10 ** (pool + desperation))
    for faces in itertools.product(range(1, 11), repeat=pool + desperation):
        normal, desp = tuple(sorted(faces[:pool])), tuple(sorted(faces[pool:]))
        kept, k = _hunter_decision(normal, desp, difficulty, strategy)
        if k == 0:
            out[_hunter_class_of(normal, desp, difficulty)] += p_roll
            continue
        spent += p_roll
        for c, w in _hunter_after_reroll(kept, desp, k, difficulty).items():
            out[c] += p_roll * Fraction(w, 10**k)
    return out, spent
