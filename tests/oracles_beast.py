"""Independent references for Requiem dice and La Soif: brute force and icepool.

Nothing here imports ``kernels`` or ``analysis``.  The rules of docs/rules.md are
restated directly: every face of every die is enumerated with
``itertools.product``, again-rolls are enumerated face by face down to a
depth, and the mass cut at that depth is kept, so that every success count
up to the depth is exact and the cut mass is accounted for.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache

TENTH = Fraction(1, 10)
CLASSES = ("dramatic_failure", "bestial_failure", "failure", "plain_success", "exceptional_success")


@lru_cache(maxsize=None)
def again_roll(again: int | None, depth: int):
    """One die rolled again (after an again face): ``({successes: p}, cut)``.

    8+ succeeds; a face >= ``again`` is rolled again and adds.  After
    ``depth`` more rolls the rest is cut: ``cut`` is its probability (every
    cut path already has more than ``depth`` successes).
    """
    dist: Counter = Counter()
    cut = Fraction(0)
    for face in range(1, 11):
        s = 1 if face >= 8 else 0
        if again is not None and face >= again:
            if depth == 0:
                cut += TENTH
                continue
            sub, sub_cut = again_roll(again, depth - 1)
            for t, p in sub.items():
                dist[s + t] += TENTH * p
            cut += TENTH * sub_cut
        else:
            dist[s] += TENTH
    return dict(dist), cut


@lru_cache(maxsize=None)
def again_rolls(again: int | None, k: int, depth: int):
    """``k`` independent again-rolls summed: ``({successes: p}, cut)``;
    exact for every total up to ``depth``."""
    dist, cut = {0: Fraction(1)}, Fraction(0)
    one, one_cut = again_roll(again, depth - 1)
    for _ in range(k):
        new: Counter = Counter()
        for a, p in dist.items():
            for b, q in one.items():
                new[a + b] += p * q
        cut = cut + (1 - cut) * one_cut
        dist = dict(new)
    return dist, cut


def _die_records(rote: bool, failed=lambda f: f < 8):
    """Each die's face (after a rote reroll of a failed first roll), whether
    it first showed 1, and its weight out of ``unit`` (10, or 100 with rote):
    ``([((face, first_one), weight)], unit)``."""
    rec: Counter = Counter()
    for first in range(1, 11):
        if rote and failed(first):
            for second in range(1, 11):
                rec[(second, first == 1)] += 1
        else:
            rec[(first, first == 1)] += 10 if rote else 1
    return sorted(rec.items()), (100 if rote else 10)


def dice_for(pool, soif, *, tempt=False, frenzy=False, frenzy_bonus_beast=False, chance_die_is_beast=True):
    """``(dice, beast dice, chance)`` restated from docs/rules.md."""
    total = pool + (soif if (tempt or frenzy) else 0)
    if total <= 0:
        return 1, (1 if chance_die_is_beast and soif >= 1 else 0), True
    wanted = soif * (2 if tempt else 1) + (soif if frenzy and frenzy_bonus_beast else 0)
    return total, min(wanted, total), False


def brute_force(
    pool,
    soif=0,
    *,
    again=10,
    rote=False,
    chance_die_again=True,
    rote_chance_die=False,
    chance_die_is_beast=True,
    beastly_ten_successes=2,
    bestial_counts_rerolled_ones=False,
    tempt=False,
    frenzy=False,
    frenzy_bonus_beast=False,
    exceptional_successes=5,
    depth=8,
):
    """Exact odds by enumeration.

    Returns a dict: ``dice``, ``beast_dice``, ``chance``; ``successes``
    ``{s: Fraction}`` exact for ``s <= depth``; ``beyond`` = P(successes >
    depth) (enumerated beyond-depth paths plus the cut mass); the five
    classes; ``p_beastly_critical``; ``p_success``.  Needs ``depth >=
    exceptional_successes``.
    """
    assert depth >= exceptional_successes
    n, nb, chance = dice_for(
        pool,
        soif,
        tempt=tempt,
        frenzy=frenzy,
        frenzy_bonus_beast=frenzy_bonus_beast,
        chance_die_is_beast=chance_die_is_beast,
    )
    # (base successes, dice rolled again, beastly?, bestial 1?, dramatic?) -> p
    keys: Counter = Counter()
    if chance:
        # a rote action also rerolls a failed chance die (rote_chance_die); without rote, nothing is rerolled
        records, unit = _die_records(rote and rote_chance_die, failed=lambda f: f < 10)
        for (face, first_one), w in records:
            p = Fraction(w, unit)
            if face == 1:
                keys[(0, 0, False, False, True)] += p
            elif face < 10:
                keys[(0, 0, False, bool(nb and bestial_counts_rerolled_ones and first_one), False)] += p
            elif nb:
                keys[(beastly_ten_successes, 0, True, False, False)] += p
            else:
                rolls_again = chance_die_again and again is not None
                keys[(1, 1 if rolls_again else 0, False, False, False)] += p
    else:
        records, unit = _die_records(rote)
        int_keys: Counter = Counter()
        for combo in itertools.product(records, repeat=n):
            p = 1
            for _, w in combo:
                p *= w
            faces = [face for (face, _), _ in combo]
            normal, beast = faces[: n - nb], faces[n - nb :]
            beastly = 10 in beast and 10 not in normal
            base = again_count = 0
            for i, face in enumerate(faces):
                if face < 8:
                    continue
                if beastly and i >= n - nb and face == 10:
                    base += beastly_ten_successes
                    continue
                base += 1
                if again is not None and face >= again:
                    again_count += 1
            ones = [f == 1 or (bestial_counts_rerolled_ones and one) for (f, one), _ in combo[n - nb :]]
            int_keys[(base, again_count, beastly, any(ones), False)] += p
        for key, w in int_keys.items():
            keys[key] = Fraction(w, unit**n)
    successes: Counter = Counter()
    beyond = Fraction(0)
    classes = dict.fromkeys(CLASSES, Fraction(0))
    beastly_p = Fraction(0)
    for (base, k, beastly, bestial, dramatic), p in keys.items():
        if beastly:
            beastly_p += p
        if base == 0:  # no success rolled, so nothing rolled again
            assert k == 0
            successes[0] += p
            name = "dramatic_failure" if dramatic else "bestial_failure" if bestial else "failure"
            classes[name] += p
            continue
        dist, cut = again_rolls(again, k, depth)
        beyond += p * cut
        for t, q in dist.items():
            s = base + t
            if s <= depth:
                successes[s] += p * q
            else:
                beyond += p * q
            name = "plain_success" if s < exceptional_successes else "exceptional_success"
            classes[name] += p * q
        classes["exceptional_success"] += p * cut
    return {
        "dice": n,
        "beast_dice": nb,
        "chance": chance,
        "successes": {s: successes[s] for s in range(depth + 1)},
        "beyond": beyond,
        "classes": classes,
        "p_beastly_critical": beastly_p,
        "p_success": 1 - successes[0],
    }


# ---------------------------------------------------------------- icepool

BIG = 10**6


def icepool_requiem(pool: int, again: int | None = 10, rote: bool = False, depth: int = 10):
    """Plain Requiem successes by icepool's again-dice: ``({s: Fraction}, beyond)``.

    Exact for ``s <= depth``: the again-roll is cut after ``depth`` levels
    and the cut paths are sent to ``BIG`` successes, so ``beyond`` (the
    chance of more than ``depth``) includes them.
    """
    import icepool

    faces = [0] * 7
    for face in (8, 9, 10):
        faces.append(1 + icepool.Again if again is not None and face >= again else 1)
    if again is None:
        again_die = icepool.Die(faces)
    else:
        again_die = icepool.Die(faces, again_depth=depth, again_end=BIG)
    if rote:
        first = icepool.d10.reroll(lambda f: f < 8, depth=1)
        die = first.map(lambda f: 0 if f < 8 else (1 + again_die if again is not None and f >= again else 1))
    else:
        die = again_die
    total = pool @ die
    den = total.denominator()
    dist = {s: Fraction(total.quantity(s), den) for s in range(depth + 1)}
    return dist, 1 - sum(dist.values())
