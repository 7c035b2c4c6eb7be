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

WEREWOLF_CLASSES = ("total_failure", "win_at_cost", "win", "critical_win", "brutal_win", "brutal_failure")
HUNTER_CLASSES = ("total_failure", "win_at_cost", "win", "critical_win", "overreach_or_despair", "despair")


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
        return "critical_win" if tens >= 2 else "win"
    return "total_failure" if succ == 0 else "win_at_cost"


def brute_force_werewolf(pool, rage, difficulty, violent=False, *, success_face=6, crit_bonus=2,
                         brutal_rage_dice=2, brutal_bonus=4, rage_replaces_dice=True):
    """Exact class probabilities by enumerating every ordered roll (small pools only)."""
    r = min(rage, pool) if rage_replaces_dice else rage
    normal = pool - r if rage_replaces_dice else pool
    feats = _features(normal, r, success_face, crit_bonus, 2)
    out = dict.fromkeys(WEREWOLF_CLASSES, 0)
    for (succ, tens, lows), n in feats.items():
        out[classify_werewolf(succ, tens, lows, difficulty, violent, brutal_rage_dice=brutal_rage_dice,
                              brutal_bonus=brutal_bonus)] += n
    return {c: Fraction(w, 10 ** (normal + r)) for c, w in out.items()}


def classify_hunter(succ, tens, ones, difficulty, *, despair_ones=1, critical_ignores_desperation=False):
    """The rules restated: the class of one Hunter roll."""
    trouble = ones >= despair_ones
    if succ >= difficulty:
        if tens >= 2 and (critical_ignores_desperation or not trouble):
            return "critical_win"
        return "overreach_or_despair" if trouble else "win"
    if trouble:
        return "despair"
    return "total_failure" if succ == 0 else "win_at_cost"


def brute_force_hunter(pool, desperation, difficulty, *, success_face=6, crit_bonus=2, despair_ones=1,
                       desperation_replaces_dice=False, critical_ignores_desperation=False):
    """Exact class probabilities by enumerating every ordered roll (small pools only)."""
    d = min(desperation, pool) if desperation_replaces_dice else desperation
    normal = pool - d if desperation_replaces_dice else pool
    feats = _features(normal, d, success_face, crit_bonus, 1)
    out = dict.fromkeys(HUNTER_CLASSES, 0)
    for (succ, tens, ones), n in feats.items():
        out[classify_hunter(succ, tens, ones, difficulty, despair_ones=despair_ones,
                            critical_ignores_desperation=critical_ignores_desperation)] += n
    return {c: Fraction(w, 10 ** (normal + d)) for c, w in out.items()}
