"""Brute-force references for classic pools, damage, soak and the health track.

Nothing here imports ``kernels`` or ``analysis``: the rules of docs/rules.md are
restated directly and every ordered roll is enumerated with
``itertools.product`` (small pools only), so that agreement means something.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from math import factorial

FACES = range(1, 11)
#: Dice lost at Bruised, Hurt, Injured, Wounded, Mauled, Crippled.
PENALTY = {0: 0, 1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 5}


def net_successes(roll, difficulty, specialty=False, ones_cancel=True):
    """Successes rolled (a 10 worth 2 with a specialty), minus 1s if they cancel, at least 0."""
    rolled = 0
    for f in roll:
        if f >= difficulty:
            rolled += 2 if (specialty and f == 10) else 1
    if ones_cancel:
        return max(0, rolled - roll.count(1))
    return rolled


def outcome(roll, difficulty, specialty=False, ones_cancel=True):
    if net_successes(roll, difficulty, specialty, ones_cancel) >= 1:
        return "success"
    if not any(f >= difficulty for f in roll) and 1 in roll:
        return "botch"
    return "failure"


@lru_cache(maxsize=None)
def brute_successes(pool, difficulty, specialty=False, ones_cancel=True):
    """Counter of net successes over all 10**pool ordered rolls."""
    return Counter(net_successes(r, difficulty, specialty, ones_cancel) for r in itertools.product(FACES, repeat=pool))


def brute_pool(pool, difficulty, specialty=False, ones_cancel=True):
    """{botch, failure, success} Fractions and the mean, by enumerating every ordered roll."""
    counts = Counter(outcome(r, difficulty, specialty, ones_cancel) for r in itertools.product(FACES, repeat=pool))
    total = 10**pool
    succ = brute_successes(pool, difficulty, specialty, ones_cancel)
    mean = Fraction(sum(s * n for s, n in succ.items()), total)
    return {k: Fraction(counts[k], total) for k in ("botch", "failure", "success")}, mean


def multinomial_pool(pool, difficulty, specialty=False, ones_cancel=True):
    """Exact integer ways of (botch, failure, success) by summing over how many
    dice show a one, a plain failure, a success below ten and a ten (any pool size)."""
    f_fail, f_succ = difficulty - 2, 10 - difficulty
    out = Counter()
    for o in range(pool + 1):
        for t in range(pool - o + 1):
            for s in range(pool - o - t + 1):
                f = pool - o - t - s
                ways = (
                    factorial(pool)
                    // (factorial(o) * factorial(t) * factorial(s) * factorial(f))
                    * f_succ**s
                    * f_fail**f
                )
                if ways == 0:
                    continue
                rolled = s + (2 if specialty else 1) * t
                net = rolled - o if ones_cancel else rolled
                if net >= 1:
                    out["success"] += ways
                elif rolled == 0 and o >= 1:
                    out["botch"] += ways
                else:
                    out["failure"] += ways
    return out


# ------------------------------------------------------------ damage and soak


def taken_kind(kind, target, firearm=False, aim="body", vital_spot_lethal="off"):
    """docs/rules.md: the kind the target actually takes."""
    if firearm and target == "vampire" and kind == "lethal" and aim != "head":
        kind = "bashing"
    if (
        aim == "vital"
        and kind == "bashing"
        and not firearm
        and (vital_spot_lethal == "everyone" or (vital_spot_lethal == "mortals" and target == "mortal"))
    ):
        kind = "lethal"
    if target == "mortal" and kind == "aggravated":
        kind = "lethal"
    return kind


def soak_pool(kind, target, stamina, fortitude):
    if target == "mortal":
        return stamina if kind == "bashing" else 0
    return fortitude if kind == "aggravated" else stamina + fortitude


def levels_through(
    damage_roll,
    auto,
    soak_roll,
    kind,
    target,
    *,
    damage_difficulty=6,
    soak_difficulty=6,
    damage_ones_cancel=False,
    soak_ones_cancel=True,
    vampire_bashing="halve_down",
):
    """Levels lost to one damage roll and one soak roll (both given as faces)."""
    dmg = net_successes(damage_roll, damage_difficulty, False, damage_ones_cancel) + auto
    soak = net_successes(soak_roll, soak_difficulty, False, soak_ones_cancel)
    through = max(0, dmg - soak)
    if target == "vampire" and kind == "bashing":
        if vampire_bashing == "halve_down":
            through = through // 2
        elif vampire_bashing == "halve_up":
            through = -(-through // 2)
    return through


def brute_damage(
    dice,
    auto,
    stamina,
    kind,
    target,
    fortitude=0,
    *,
    firearm=False,
    aim="body",
    vital_spot_lethal="off",
    damage_difficulty=6,
    soak_difficulty=6,
    damage_ones_cancel=False,
    soak_ones_cancel=True,
    vampire_bashing="halve_down",
):
    """{levels: Fraction} over every ordered damage roll and soak roll.

    The damage rolls and the soak rolls are each enumerated in full and
    tallied by their net successes; every pair of tallies is then combined
    (the same count as the product of both enumerations, in less time).
    """
    kind = taken_kind(kind, target, firearm, aim, vital_spot_lethal)
    n_soak = soak_pool(kind, target, stamina, fortitude)
    dmg = Counter(
        net_successes(r, damage_difficulty, False, damage_ones_cancel) for r in itertools.product(FACES, repeat=dice)
    )
    soak = Counter(
        net_successes(r, soak_difficulty, False, soak_ones_cancel) for r in itertools.product(FACES, repeat=n_soak)
    )
    counts = Counter()
    for d, nd in dmg.items():
        for s, ns in soak.items():
            through = max(0, d + auto - s)
            if target == "vampire" and kind == "bashing":
                if vampire_bashing == "halve_down":
                    through = through // 2
                elif vampire_bashing == "halve_up":
                    through = -(-through // 2)
            counts[through] += nd * ns
    total = 10 ** (dice + n_soak)
    return {n: Fraction(c, total) for n, c in sorted(counts.items())}


@lru_cache(maxsize=None)
def _tally(n, difficulty, specialty, ones_cancel):
    """Counter of net successes over every ordered roll of n dice."""
    return Counter(net_successes(r, difficulty, specialty, ones_cancel) for r in itertools.product(FACES, repeat=n))


@lru_cache(maxsize=None)
def brute_attack(
    attack_pool, attack_difficulty, specialty, base_dice, auto, n_soak, kind, target, vampire_bashing="halve_down"
):
    """{levels: Fraction} of an attack roll, then (on a hit) base + extra
    successes - 1 damage dice, then soak; every roll of each step enumerated."""
    out = Counter()
    soak = _tally(n_soak, 6, False, True)
    for e, ne in _tally(attack_pool, attack_difficulty, specialty, True).items():
        p_e = Fraction(ne, 10**attack_pool)
        if e < 1:
            out[0] += p_e
            continue
        n = base_dice + e - 1
        for d, nd in _tally(n, 6, False, False).items():
            for s, ns in soak.items():
                through = max(0, d + auto - s)
                if target == "vampire" and kind == "bashing":
                    through = {"halve_down": through // 2, "halve_up": -(-through // 2)}.get(vampire_bashing, through)
                out[through] += p_e * Fraction(nd * ns, 10 ** (n + n_soak))
    assert sum(out.values()) == 1
    return dict(sorted(out.items()))


# ---------------------------------------------------------------- health track


def apply_levels(track, levels, kind, target):
    """The track after losing levels; a track is (boxes, condition), boxes a
    sorted tuple of 'A', 'L', 'B' (at most seven), condition one of
    'alive', 'torpor', 'final_death', 'dead'."""
    boxes, condition = track
    if target == "mortal" and kind == "aggravated":
        kind = "lethal"
    if levels == 0 or condition in ("final_death", "dead"):
        return track
    if condition == "torpor":
        return (boxes, "final_death") if kind == "aggravated" else track
    letter = {"aggravated": "A", "lethal": "L", "bashing": "B"}[kind]
    boxes = list(boxes)
    for _ in range(levels):
        if len(boxes) < 7:
            boxes.append(letter)
        elif target == "mortal":
            condition = "dead"
        elif kind == "aggravated":
            condition = "final_death"
        elif condition != "final_death":
            condition = "torpor"
    return tuple(sorted(boxes)), condition


def severity(track):
    boxes, condition = track
    if condition == "alive":
        return 1 if len(boxes) == 7 else 0
    return 2 if condition == "torpor" else 3


def brute_blows(per_blow, kind, target, blows, start=((), "alive")):
    """{track: Fraction} after ``blows`` blows, by enumerating every sequence
    of per-blow level outcomes."""
    out = Counter()
    items = list(per_blow.items())
    for seq in itertools.product(items, repeat=blows):
        track, p = start, Fraction(1)
        for levels, q in seq:
            track = apply_levels(track, levels, kind, target)
            p *= q
        out[track] += p
    return out


def brute_fight(a, b, turns, until=1, order="a"):
    """{(track a, track b): Fraction} after ``turns`` turns of a fight.

    ``a`` and ``b`` are dicts: creature, stamina, fortitude, attack_pool,
    difficulty, damage_dice, auto, kind.  Each side's attack pool loses its
    wound penalty; a side at or past ``until`` ends the fight.
    """

    def hit(att, att_track, vic, vic_track):
        if severity(att_track) or severity(vic_track) >= until:
            return {vic_track: Fraction(1)}
        pool = att["attack_pool"] - PENALTY[len(att_track[0])]
        if pool <= 0:
            return {vic_track: Fraction(1)}
        kind = taken_kind(att["kind"], vic["creature"])
        n_soak = soak_pool(kind, vic["creature"], vic["stamina"], vic["fortitude"])
        dist = brute_attack(
            pool, att["difficulty"], False, att["damage_dice"], att["auto"], n_soak, kind, vic["creature"]
        )
        out = Counter()
        for levels, p in dist.items():
            out[apply_levels(vic_track, levels, kind, vic["creature"])] += p
        return out

    state = Counter({(((), "alive"), ((), "alive")): Fraction(1)})
    for _ in range(turns):
        nxt = Counter()
        for (ta, tb), p in state.items():
            if severity(ta) >= until or severity(tb) >= until:
                nxt[(ta, tb)] += p
                continue
            if order == "simultaneous":
                for tb2, q in hit(a, ta, b, tb).items():
                    for ta2, r in hit(b, tb, a, ta).items():
                        nxt[(ta2, tb2)] += p * q * r
            else:
                for tb2, q in hit(a, ta, b, tb).items():
                    for ta2, r in hit(b, tb2, a, ta).items():
                        nxt[(ta2, tb2)] += p * q * r
        state = nxt
    return state
