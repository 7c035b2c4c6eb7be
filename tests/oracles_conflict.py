"""Independent references for V5 conflicts: brute force over ordered rolls and a Fraction chain.

Nothing here imports ``kernels`` or ``analysis``: the rules of docs/rules.md
(Conflict, Trackers) are restated directly, so that agreement
with the toolkit means something.  Sides and rules are plain dicts:

side: ``pool, boxes, superficial, aggravated, vampire, weapon, damage
("superficial" or "aggravated"), attacks``;
rules: ``tie_damage, tie_adds_weapon, tie_needs_successes, halve,
round_up, penalty``.

Official dice only: a die succeeds on 6..10 and each pair of 10s adds two
successes.  A Hunger die is still a d10 with the same faces, so Hunger does
not change successes and the oracle ignores it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache

OFFICIAL = dict(tie_damage=1, tie_adds_weapon=False, tie_needs_successes=False, halve=True, round_up=True, penalty=2)


def roll_successes(faces) -> int:
    """Successes of one ordered roll: 6+ succeeds, each pair of 10s adds 2."""
    tens = sum(1 for f in faces if f == 10)
    return sum(1 for f in faces if f >= 6) + 2 * (tens // 2)


@lru_cache(maxsize=None)
def success_counts(pool: int) -> tuple:
    """Counter items (successes, ordered rolls) over all 10**pool rolls."""
    return tuple(sorted(Counter(roll_successes(r) for r in itertools.product(range(1, 11), repeat=pool)).items()))


def brute_margin(pool_a: int, pool_b: int) -> dict:
    """``{A successes - B successes: Fraction}`` over every ordered roll of both pools."""
    counts = Counter()
    for ra in itertools.product(range(1, 11), repeat=pool_a):
        sa = roll_successes(ra)
        for rb in itertools.product(range(1, 11), repeat=pool_b):
            counts[sa - roll_successes(rb)] += 1
    total = 10 ** (pool_a + pool_b)
    return {m: Fraction(n, total) for m, n in sorted(counts.items())}


def marked(raw: int, kind: str, target: dict, physical: bool, rules: dict) -> int:
    """Points marked on the target's track after halving (vampires, Superficial, physical)."""
    if raw > 0 and kind == "superficial" and physical and target["vampire"] and rules["halve"]:
        return -(-raw // 2) if rules["round_up"] else raw // 2
    return raw


def take(sup: int, agg: int, boxes: int, amount: int, kind: str) -> tuple:
    """Mark ``amount`` points: fill empty boxes, then turn Superficial into Aggravated."""
    for _ in range(amount):
        if sup + agg < boxes:
            if kind == "superficial":
                sup += 1
            else:
                agg += 1
        elif sup:
            sup, agg = sup - 1, agg + 1
    return sup, agg


def turn_damage(a: dict, b: dict, pool_a: int, pool_b: int, rules: dict, physical=True) -> dict:
    """``{(points marked on A, points marked on B): Fraction}`` for one turn."""
    out = Counter()
    for sa, na in success_counts(pool_a):
        for sb, nb in success_counts(pool_b):
            to_a = to_b = 0
            if sa > sb and a["attacks"]:
                to_b = marked(sa - sb + a["weapon"], a["damage"], b, physical, rules)
            elif sb > sa and b["attacks"]:
                to_a = marked(sb - sa + b["weapon"], b["damage"], a, physical, rules)
            elif sa == sb and rules["tie_damage"] and not (rules["tie_needs_successes"] and sa == 0):
                extra_a = b["weapon"] if rules["tie_adds_weapon"] else 0
                extra_b = a["weapon"] if rules["tie_adds_weapon"] else 0
                if b["attacks"]:
                    to_a = marked(rules["tie_damage"] + extra_a, b["damage"], a, physical, rules)
                if a["attacks"]:
                    to_b = marked(rules["tie_damage"] + extra_b, a["damage"], b, physical, rules)
            out[(to_a, to_b)] += na * nb
    total = 10 ** (pool_a + pool_b)
    return {k: Fraction(n, total) for k, n in out.items()}


def fraction_fight(a: dict, b: dict, turns: int, rules: dict = OFFICIAL, until="out", physical=True) -> dict:
    """Per-turn columns of a fight by a plain Fraction Markov chain with history flags.

    The state carries both trackers, who was Impaired first, who was out
    first, and whether the fight has stopped; stopped states stay put.
    Returns ``{column: [Fraction for turn 0..turns]}`` with the columns of
    ``analysis.systems.v5.conflict.FIGHT_COLUMNS``, plus ``"joint"``: the final
    ``{((A sup, A agg), (B sup, B agg)): Fraction}``.
    """

    def impaired(t, side):
        return t[0] + t[1] == side["boxes"]

    def out(t, side):
        return t[1] == side["boxes"]

    def first(flag, hit_a, hit_b):
        if flag is not None or not (hit_a or hit_b):
            return flag
        return "both" if hit_a and hit_b else ("a" if hit_a else "b")

    def stopped(ta, tb):
        if until == "out":
            return out(ta, a) or out(tb, b)
        return impaired(ta, a) or impaired(tb, b)

    ta0 = (a["superficial"], a["aggravated"])
    tb0 = (b["superficial"], b["aggravated"])
    s0 = (ta0, tb0, first(None, impaired(ta0, a), impaired(tb0, b)), first(None, out(ta0, a), out(tb0, b)))
    dist = {s0 + (stopped(ta0, tb0),): Fraction(1)}
    cols = {
        c: []
        for c in (
            "a_impaired",
            "b_impaired",
            "a_impaired_first",
            "b_impaired_first",
            "both_impaired_together",
            "a_out_first",
            "b_out_first",
            "both_out_together",
            "over",
        )
    }

    def record():
        def p(pred):
            return sum((q for s, q in dist.items() if pred(s)), Fraction(0))

        cols["a_impaired"].append(p(lambda s: impaired(s[0], a)))
        cols["b_impaired"].append(p(lambda s: impaired(s[1], b)))
        for name, who in (("a_impaired_first", "a"), ("b_impaired_first", "b"), ("both_impaired_together", "both")):
            cols[name].append(p(lambda s, who=who: s[2] == who))
        for name, who in (("a_out_first", "a"), ("b_out_first", "b"), ("both_out_together", "both")):
            cols[name].append(p(lambda s, who=who: s[3] == who))
        cols["over"].append(p(lambda s: s[4]))

    record()
    for _ in range(turns):
        new = Counter()
        for (ta, tb, fi, fo, stop), q in dist.items():
            if stop:
                new[(ta, tb, fi, fo, stop)] += q
                continue
            pa = max(0, a["pool"] - rules["penalty"]) if impaired(ta, a) else a["pool"]
            pb = max(0, b["pool"] - rules["penalty"]) if impaired(tb, b) else b["pool"]
            for (da, db), r in turn_damage(a, b, pa, pb, rules, physical).items():
                na = take(*ta, a["boxes"], da, b["damage"])
                nb = take(*tb, b["boxes"], db, a["damage"])
                key = (
                    na,
                    nb,
                    first(fi, impaired(na, a), impaired(nb, b)),
                    first(fo, out(na, a), out(nb, b)),
                    stopped(na, nb),
                )
                new[key] += q * r
        dist = dict(new)
        record()
    joint = Counter()
    for (ta, tb, *_), q in dist.items():
        joint[(ta, tb)] += q
    cols["joint"] = dict(joint)
    return cols


def fraction_expected_turns(a: dict, b: dict, rules: dict = OFFICIAL, until="out", physical=True) -> Fraction:
    """Expected turns until the fight stops, by first-step analysis with memoised recursion."""

    def stop(ta, tb):
        if until == "out":
            return ta[1] == a["boxes"] or tb[1] == b["boxes"]
        return sum(ta) == a["boxes"] or sum(tb) == b["boxes"]

    @lru_cache(maxsize=None)
    def expect(ta, tb):
        if stop(ta, tb):
            return Fraction(0)
        pa = max(0, a["pool"] - rules["penalty"]) if sum(ta) == a["boxes"] else a["pool"]
        pb = max(0, b["pool"] - rules["penalty"]) if sum(tb) == b["boxes"] else b["pool"]
        stay, acc = Fraction(0), Fraction(1)
        for (da, db), r in turn_damage(a, b, pa, pb, rules, physical).items():
            na = take(*ta, a["boxes"], da, b["damage"])
            nb = take(*tb, b["boxes"], db, a["damage"])
            if (na, nb) == (ta, tb):
                stay += r
            else:
                acc += r * expect(na, nb)
        return acc / (1 - stay)

    return expect((a["superficial"], a["aggravated"]), (b["superficial"], b["aggravated"]))
