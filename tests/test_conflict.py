"""V5 conflicts: margins, damage, trackers and fight chains against brute force and a Fraction chain."""

from fractions import Fraction

import numba
import numpy as np
import pytest
from hypothesis import given, strategies as st

from analysis.engine import exact
from analysis.systems.v5 import conflict as c, fight, roll as v5
from kernels import markov
from tests import oracles_conflict as oc

# ------------------------------------------------------------- margins


@pytest.mark.parametrize("pool_a, pool_b", [(a, b) for a in range(5) for b in range(5) if a + b <= 4])
def test_margin_matches_brute_force(pool_a, pool_b):
    assert c.margin_distribution(pool_a, pool_b) == oc.brute_margin(pool_a, pool_b)


def test_margin_by_hand():
    # one die each: each succeeds half the time
    assert c.margin_distribution(1, 1) == {-1: Fraction(1, 4), 0: Fraction(1, 2), 1: Fraction(1, 4)}
    assert c.margin_distribution(0, 0) == {0: 1}
    # two tens are four successes: 1/100 of rolls give margin 4 against nothing
    assert c.margin_distribution(2, 0)[4] == Fraction(1, 100)


@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 5), st.integers(0, 5))
def test_margin_is_the_difference_of_two_rolls(pool_a, pool_b, hunger_a, hunger_b):
    """Against a plain Python convolution of v5.odds' success distributions
    (pools up to 30 + 30 dice: the modular path beyond int64)."""
    got = c.margin_distribution(pool_a, pool_b, hunger_a, hunger_b)
    sa = v5.odds(pool_a, hunger_a, 0).successes
    sb = v5.odds(pool_b, hunger_b, 0).successes
    want = {}
    for i, p in sa.items():
        for j, q in sb.items():
            want[i - j] = want.get(i - j, 0) + p * q
    assert got == dict(sorted(want.items()))
    assert sum(got.values()) == 1
    assert c.margin_distribution(pool_b, pool_a, hunger_b, hunger_a) == {-m: p for m, p in got.items()}


@given(st.integers(0, 8), st.integers(0, 8), st.integers(0, 5), st.integers(2, 10), st.integers(0, 3))
def test_margin_follows_the_dice_rules(pool_a, pool_b, hunger, face, bonus):
    """Hunger dice added instead of replacing are just more dice of the same faces."""
    added = c.ConflictRules(dice=v5.V5Rules(hunger_replaces_dice=False, success_face=face, crit_bonus=bonus))
    plain = c.ConflictRules(dice=v5.V5Rules(success_face=face, crit_bonus=bonus))
    assert c.margin_distribution(pool_a, pool_b, hunger, 0, added) == c.margin_distribution(
        pool_a + hunger, pool_b, 0, 0, plain
    )
    chain = fight.fight_chain(c.Combatant(pool_a, hunger=hunger), c.Combatant(pool_b), added)
    assert all(s == 1 for s in chain.row_sums())


def test_margin_of_big_pools_is_exact():
    got = c.margin_distribution(100, 100, 5, 5)
    assert sum(got.values()) == 1
    assert all(isinstance(p, Fraction) for p in got.values())
    assert got[1] == got[-1]
    assert max(got.values()).denominator > exact.INT64_MAX


# ------------------------------------------------------------- damage

rules_st = st.builds(
    c.ConflictRules,
    tie_damage=st.integers(0, 2),
    tie_adds_weapon=st.booleans(),
    tie_needs_successes=st.booleans(),
    halve_superficial=st.booleans(),
    halve_rounding=st.sampled_from(["up", "down"]),
    impairment_penalty=st.integers(0, 3),
)


def oracle_rules(r: c.ConflictRules) -> dict:
    return dict(
        tie_damage=r.tie_damage,
        tie_adds_weapon=r.tie_adds_weapon,
        tie_needs_successes=r.tie_needs_successes,
        halve=r.halve_superficial,
        round_up=r.halve_rounding == "up",
        penalty=r.impairment_penalty,
    )


@st.composite
def sides(draw, max_pool=3, max_boxes=4):
    """A Combatant and the same side as the oracle's plain dict, with its track."""
    boxes = draw(st.integers(1, max_boxes))
    agg = draw(st.integers(0, boxes))
    sup = draw(st.integers(0, boxes - agg))
    vampire = draw(st.booleans())
    side = dict(
        pool=draw(st.integers(0, max_pool)),
        boxes=boxes,
        superficial=sup,
        aggravated=agg,
        vampire=vampire,
        weapon=draw(st.integers(0, 2)),
        damage=draw(st.sampled_from(c.DAMAGE_KINDS)),
        attacks=draw(st.booleans()),
    )
    return side, draw(st.integers(0, 5)) if vampire else 0


def combatant(side: dict, hunger: int, track: str) -> c.Combatant:
    tracker = c.Tracker(side["boxes"], side["superficial"], side["aggravated"])
    return c.Combatant(
        side["pool"],
        hunger=hunger,
        vampire=side["vampire"],
        weapon=side["weapon"],
        damage=side["damage"],
        attacks=side["attacks"],
        **{track: tracker},
    )


@given(sides(max_pool=4), sides(max_pool=3), rules_st, st.sampled_from(c.TRACKS))
def test_damage_matches_brute_force(side_a, side_b, rules, track):
    (a, ha), (b, hb) = side_a, side_b
    ca, cb = combatant(a, ha, track), combatant(b, hb, track)
    penalty = rules.impairment_penalty
    pa = max(0, a["pool"] - penalty) if a["superficial"] + a["aggravated"] == a["boxes"] else a["pool"]
    pb = max(0, b["pool"] - penalty) if b["superficial"] + b["aggravated"] == b["boxes"] else b["pool"]
    want = oc.turn_damage(a, b, pa, pb, oracle_rules(rules), physical=track == "health")
    got = c.damage_distribution(ca, cb, rules, track)
    assert got == {k: p for k, p in want.items() if p}
    assert sum(got.values()) == 1


def test_damage_rules_by_hand():
    def one_turn(**kw):
        # A's 3 dice against B's none: the row of margin 3 (A wins by 3)
        df = c.conflict_table(
            c.Combatant(3, **kw.get("a", {})), c.Combatant(0, **kw.get("b", {})), kw.get("rules", c.OFFICIAL)
        )
        return df.set_index("margin").loc[3, "damage_to_b"]

    assert one_turn() == 2  # a vampire halves 3 Superficial, rounding up
    assert one_turn(rules=c.ConflictRules(halve_rounding="down")) == 1
    assert one_turn(rules=c.ConflictRules(halve_superficial=False)) == 3
    assert one_turn(b=dict(vampire=False)) == 3  # mortals do not halve
    assert one_turn(a=dict(damage="aggravated")) == 3  # Aggravated is never halved
    assert one_turn(a=dict(weapon=2)) == 3  # (3 + 2) / 2 rounded up
    assert one_turn(a=dict(attacks=False)) == 0
    # a tie: both take 1, whatever the weapons (official), a vampire's 1 stays 1
    tie = c.conflict_table(c.Combatant(2, weapon=4), c.Combatant(2, vampire=False, weapon=3))
    row = tie[tie.winner == "tie"].iloc[0]
    assert (row.damage_to_a, row.damage_to_b) == (1, 1)
    tie = c.conflict_table(
        c.Combatant(2, weapon=4), c.Combatant(2, vampire=False, weapon=3), c.ConflictRules(tie_adds_weapon=True)
    )
    row = tie[tie.winner == "tie"].iloc[0]
    assert (row.damage_to_a, row.damage_to_b) == (2, 5)


def test_impaired_side_rolls_two_dice_fewer():
    hurt = c.Combatant(5, health=c.Tracker(5, superficial=5))
    fresh = c.Combatant(5)
    other = c.Combatant(4)
    assert c.damage_distribution(hurt, other) == c.damage_distribution(c.Combatant(3), other)
    assert c.damage_distribution(hurt, other) != c.damage_distribution(fresh, other)
    lenient = c.ConflictRules(impairment_penalty=0)
    assert c.damage_distribution(hurt, other, lenient) == c.damage_distribution(fresh, other, lenient)


# ------------------------------------------------------------- trackers


def test_tracker_by_the_rules():
    t = c.Tracker.health(stamina=2)
    assert t.boxes == 5 and not t.impaired
    t = t.take(5)
    assert (t.superficial, t.aggravated, t.impaired, t.out) == (5, 0, True, False)
    t = t.take(2)  # each further point turns a Superficial box Aggravated
    assert (t.superficial, t.aggravated) == (3, 2)
    t = t.take(1, "aggravated")
    assert (t.superficial, t.aggravated) == (2, 3)
    t = t.take(10)
    assert (t.superficial, t.aggravated, t.out) == (0, 5, True)
    assert t.take(3) == t
    assert c.Tracker.willpower(composure=3, resolve=2).boxes == 5
    # Aggravated fills empty boxes before turning Superficial ones
    t = c.Tracker(4, superficial=2).take(1, "aggravated")
    assert (t.superficial, t.aggravated) == (2, 1)


@given(
    st.integers(1, 8).flatmap(
        lambda n: st.tuples(
            st.just(n), st.integers(0, n), st.integers(0, 20), st.integers(0, 20), st.sampled_from(c.DAMAGE_KINDS)
        )
    )
)
def test_tracker_agrees_with_oracle_and_adds_up(args):
    boxes, sup, x, y, kind = args
    t = c.Tracker(boxes, superficial=sup)
    assert (t.take(x, kind).superficial, t.take(x, kind).aggravated) == oc.take(sup, 0, boxes, x, kind)
    assert t.take(x, kind).take(y, kind) == t.take(x + y, kind)
    assert t.take(x, kind).aggravated >= t.aggravated


# ------------------------------------------------------------- fights


def small_fight_cases():
    return st.tuples(sides(), sides(), rules_st, st.integers(1, 4), st.sampled_from(c.UNTIL), st.sampled_from(c.TRACKS))


@given(small_fight_cases())
def test_fight_matches_fraction_chain(case):
    (a, ha), (b, hb), rules, turns, until, track = case
    got = fight.fight(combatant(a, ha, track), combatant(b, hb, track), turns, rules, until, track, joint=True)
    want = oc.fraction_fight(a, b, turns, oracle_rules(rules), until, physical=track == "health")
    for col in c.FIGHT_COLUMNS[1:]:
        assert list(got.columns[col]) == want[col], col
    assert got.joint == {k: p for k, p in want["joint"].items() if p}


def side(pool, boxes, vampire=True, weapon=0, damage="superficial", sup=0, agg=0, attacks=True):
    return dict(
        pool=pool,
        boxes=boxes,
        superficial=sup,
        aggravated=agg,
        vampire=vampire,
        weapon=weapon,
        damage=damage,
        attacks=attacks,
    )


@pytest.mark.parametrize(
    "a, b, rules, until, track",
    [
        (side(3, 3), side(2, 4, vampire=False, weapon=1), c.OFFICIAL, "out", "health"),
        (side(3, 3, damage="aggravated"), side(3, 3, sup=1), c.OFFICIAL, "out", "health"),
        (
            side(2, 3, weapon=2),
            side(3, 2, vampire=False),
            c.ConflictRules(tie_adds_weapon=True, impairment_penalty=1),
            "out",
            "willpower",
        ),
        (side(3, 4), side(3, 3), c.ConflictRules(halve_rounding="down", tie_damage=2), "impaired", "health"),
    ],
)
def test_longer_fights_match_fraction_chain(a, b, rules, until, track):
    """Fights long enough that one side is Impaired turns before the other goes out."""
    turns = 7
    got = fight.fight(
        combatant(a, 1, track),
        combatant(b, 0 if not b["vampire"] else 2, track),
        turns,
        rules,
        until,
        track,
        joint=True,
    )
    want = oc.fraction_fight(a, b, turns, oracle_rules(rules), until, physical=track == "health")
    for col in c.FIGHT_COLUMNS[1:]:
        assert list(got.columns[col]) == want[col], col
    assert got.joint == {k: p for k, p in want["joint"].items() if p}
    if until == "out":  # the case is not trivial: a side is Impaired after the other
        assert (
            want["a_impaired"][-1] + want["b_impaired"][-1]
            > want["a_impaired_first"][-1] + want["b_impaired_first"][-1] + 2 * want["both_impaired_together"][-1]
        )


def test_smallest_fight_by_hand():
    """Two mortals with one Health box and one die each.  Turn 1: A wins (1/4) and
    B is Impaired, B wins (1/4), or a tie (1/2) marks both.  Impaired, a side rolls
    no dice, so on turn 2 every branch puts the first-hit side out (a tie at 0-0
    still deals 1 to both)."""
    side = c.Combatant(1, vampire=False, health=c.Tracker(1))
    r = fight.fight(side, side, turns=3)
    q, h = Fraction(1, 4), Fraction(1, 2)
    assert r.columns["a_impaired_first"] == (0, q, q, q)
    assert r.columns["b_impaired_first"] == (0, q, q, q)
    assert r.columns["both_impaired_together"] == (0, h, h, h)
    assert r.columns["a_out_first"] == (0, 0, q, q)
    assert r.columns["both_out_together"] == (0, 0, h, h)
    assert r.columns["over"] == (0, 0, 1, 1)
    assert r.expected_turns() == 2


@given(small_fight_cases())
def test_fight_columns_are_consistent(case):
    (a, ha), (b, hb), rules, turns, until, track = case
    r = fight.fight(combatant(a, ha, track), combatant(b, hb, track), turns, rules, until, track, joint=True)
    t = r.columns
    for col in c.FIGHT_COLUMNS[1:]:
        assert all(0 <= p <= 1 for p in t[col])
        assert list(t[col]) == sorted(t[col]), f"{col} is cumulative"
    for k in range(turns + 1):
        first = t["a_impaired_first"][k] + t["b_impaired_first"][k] + t["both_impaired_together"][k]
        out = t["a_out_first"][k] + t["b_out_first"][k] + t["both_out_together"][k]
        assert first <= 1 and out <= first
        assert max(t["a_impaired"][k], t["b_impaired"][k]) <= first
        if until == "out":
            assert out == t["over"][k]
        else:
            assert first == t["over"][k]
    assert sum(r.joint.values()) == 1  # nothing leaks


@given(small_fight_cases())
def test_swapping_sides_swaps_columns(case):
    (a, ha), (b, hb), rules, turns, until, track = case
    ab = fight.fight(combatant(a, ha, track), combatant(b, hb, track), turns, rules, until, track)
    ba = fight.fight(combatant(b, hb, track), combatant(a, ha, track), turns, rules, until, track)
    for x, y in (
        ("a_impaired", "b_impaired"),
        ("a_impaired_first", "b_impaired_first"),
        ("a_out_first", "b_out_first"),
    ):
        assert ab.columns[x] == ba.columns[y]
    for col in ("both_impaired_together", "both_out_together", "over"):
        assert ab.columns[col] == ba.columns[col]


# ------------------------------------------------- stochastic and absorbing


@given(
    sides(max_pool=6, max_boxes=6),
    sides(max_pool=6, max_boxes=6),
    rules_st,
    st.sampled_from(c.UNTIL),
    st.sampled_from(c.TRACKS),
)
def test_every_transition_structure_is_stochastic(side_a, side_b, rules, until, track):
    (a, ha), (b, hb) = side_a, side_b
    chain = fight.fight_chain(combatant(a, ha, track), combatant(b, hb, track), rules, track, until)
    assert all(s == 1 for s in chain.row_sums())
    trans = chain.transitions()
    for state, row in trans.items():
        assert sum(row.values()) == 1, state
        assert all(p > 0 for p in row.values())
    for r, state in enumerate(chain.states):
        if chain.stopped[r]:
            assert trans[state] == {state: 1}
        for nxt in trans[state]:  # damage never heals: every move is progress
            i = chain.states.index(nxt)
            assert nxt == state or chain.potential[i] > chain.potential[r]
    # the one-turn outcome tables are stochastic too
    for ia in (False, True):
        for ib in (False, True):
            rows, den = c.outcome_ways(combatant(a, ha, track), combatant(b, hb, track), rules, track, ia, ib)
            assert sum(w for *_, w in rows) == den


@pytest.mark.parametrize(
    "a, b, until",
    [
        (c.Combatant(6, hunger=2, stamina=3), c.Combatant(5, vampire=False, weapon=2), "out"),
        (c.Combatant(4), c.Combatant(4), "out"),
        (c.Combatant(5, damage="aggravated"), c.Combatant(7, stamina=3), "impaired"),
        (c.Combatant(3, vampire=False, attacks=False), c.Combatant(5, vampire=False), "out"),
    ],
)
def test_fight_chains_are_absorbing(a, b, until):
    chain = fight.fight_chain(a, b, until=until)
    assert chain.is_absorbing() and chain.stuck_states() == []
    r = fight.fight(a, b, turns=60, until=until)
    over = r.columns["over"]
    assert list(over) == sorted(over)
    assert 1 - over[-1] < Fraction(1, 10**4)  # the mass in stopped states tends to 1
    # E[T] = sum over t of P(T > t): the partial sums creep up to the exact expectation
    expected = r.expected_turns()
    partial = sum(1 - p for p in over[:-1])
    assert partial <= expected < partial + Fraction(1, 10**2)


def test_expected_turns_matches_first_step_oracle():
    a = dict(pool=3, boxes=3, superficial=0, aggravated=0, vampire=True, weapon=1, damage="superficial", attacks=True)
    b = dict(pool=2, boxes=4, superficial=1, aggravated=0, vampire=False, weapon=0, damage="aggravated", attacks=True)
    for until in c.UNTIL:
        want = oc.fraction_expected_turns(a, b, until=until)
        got = fight.fight(combatant(a, 2, "health"), combatant(b, 0, "health"), turns=1, until=until).expected_turns()
        assert got == want


def test_a_fight_that_cannot_end_is_detected():
    rules = c.ConflictRules(tie_needs_successes=True)
    a, b = c.Combatant(0), c.Combatant(0)
    chain = fight.fight_chain(a, b, rules)
    assert not chain.is_absorbing()
    r = fight.fight(a, b, turns=5, rules=rules)
    assert set(r.columns["over"]) == {0}
    with pytest.raises(ValueError, match="go on forever"):
        r.expected_turns()
    # two dodgers never hurt each other either
    assert not fight.fight_chain(c.Combatant(3, attacks=False), c.Combatant(3, attacks=False)).is_absorbing()


# ------------------------------------------------------- the exact path


def run_kernel(chain, turns, mod):
    n = len(chain.states)
    start = np.zeros(n, dtype=np.int64)
    start[chain.start] = 1
    groups = np.array([chain.stopped], dtype=np.int64)
    w = np.array([x % mod if mod else x for x in chain.weights], dtype=np.int64)
    og = np.empty((turns + 1, 1), dtype=np.int64)
    final = np.empty(n, dtype=np.int64)
    markov.markov_run(start, chain.indptr, chain.indices, chain.weight_ids, w, groups, mod, og, final)
    return np.concatenate([og.ravel(), final])


def test_int64_and_modular_chains_agree():
    chain = fight.fight_chain(c.Combatant(2), c.Combatant(1, vampire=False))
    turns = 3
    assert chain.denominator**turns <= exact.INT64_MAX
    plain = exact.int64_counts(lambda m: run_kernel(chain, turns, m), chain.denominator**turns)
    modular = exact.count(lambda m: run_kernel(chain, turns, m), chain.denominator**turns, force_modular=True)
    assert plain.dtype == np.int64 and plain.tolist() == modular.tolist()
    assert sum(plain[turns + 1 :].tolist()) == chain.denominator**turns


def test_the_guard_matters_int64_would_wrap():
    chain = fight.fight_chain(c.Combatant(6), c.Combatant(6))
    turns = 6
    bound = chain.denominator**turns
    assert bound > exact.INT64_MAX
    with pytest.raises(OverflowError):
        exact.int64_counts(lambda m: run_kernel(chain, turns, m), bound)
    exact_ways = exact.count(lambda m: run_kernel(chain, turns, m), bound)
    assert sum(exact_ways[turns + 1 :].tolist()) == bound
    assert run_kernel(chain, turns, 0).tolist() != exact_ways.tolist()  # unchecked int64 wraps
    r = fight.fight(c.Combatant(6), c.Combatant(6), turns=turns)
    assert r.columns["over"][turns] == Fraction(int(exact_ways[turns]), bound)


def test_markov_step_inside_a_users_njit():
    @numba.njit
    def two_steps(indptr, indices, ids, w, v):
        a = np.empty_like(v)
        b = np.empty_like(v)
        markov.markov_step(indptr, indices, ids, w, 0, v, a)
        markov.markov_step(indptr, indices, ids, w, 0, a, b)
        return b

    # a three-state chain over denominator 4: 0 -> 0 (1/4), 1 (1/2), 2 (1/4); 1 -> 2; 2 stays
    indptr = np.array([0, 3, 4, 5])
    indices = np.array([0, 1, 2, 2, 2])
    ids = np.array([0, 1, 0, 2, 2])
    w = np.array([1, 2, 4])
    got = two_steps(indptr, indices, ids, w, np.array([1, 0, 0]))
    assert got.tolist() == [1, 2, 13] and got.sum() == 16


# ------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda: c.Combatant(-1), "pool must be 0..100, got -1"),
        (lambda: c.Combatant(101), "pool must be 0..100"),
        (lambda: c.Combatant(3, hunger=6), "hunger must be 0..5, got 6"),
        (lambda: c.Combatant(3, hunger=2, vampire=False), "a mortal has no Hunger"),
        (lambda: c.Combatant(3, damage="fire"), "damage must be one of superficial, aggravated"),
        (lambda: c.Combatant(3, weapon=-1), "weapon"),
        (lambda: c.Combatant(3.5), "pool must be a whole number"),
        (lambda: c.Combatant(3, health=7), "health must be a Tracker"),
        (lambda: c.Combatant(3, stamina=0), "stamina"),
        (lambda: c.Combatant(-2, name="Dario"), "Dario: pool"),
        (lambda: c.Tracker(5, superficial=4, aggravated=2), "do not fit in 5 boxes"),
        (lambda: c.Tracker(0), "boxes must be 1..20"),
        (lambda: c.Tracker(5).take(-1), "damage must be at least 0"),
        (lambda: c.Tracker(5).take(1, "bashing"), "damage kind"),
        (lambda: c.ConflictRules(tie_damage=-1), "tie_damage"),
        (lambda: c.ConflictRules(halve_rounding="nearest"), "halve_rounding must be one of up, down"),
        (lambda: c.ConflictRules(halve_superficial=1), "True or False"),
        (lambda: c.ConflictRules(dice="official"), "dice must be a V5Rules"),
        (lambda: c.margin_distribution(3, 101), "pool_b must be 0..100"),
        (lambda: c.margin_distribution(3, 3, hunger_a=-1), "hunger_a"),
        (lambda: c.margin_distribution(3, 3, rules=v5.OFFICIAL), "rules must be a ConflictRules"),
        (lambda: fight.fight(c.Combatant(3), c.Combatant(3), turns=0), "turns must be 1..100, got 0"),
        (lambda: fight.fight(c.Combatant(3), c.Combatant(3), turns=101), "turns must be 1..100"),
        (lambda: fight.fight(c.Combatant(3), c.Combatant(3), until="dawn"), "until must be one of out, impaired"),
        (lambda: fight.fight(c.Combatant(3), c.Combatant(3), track="blood"), "track must be one of"),
        (lambda: fight.fight(c.Combatant(3), 3), "b must be a Combatant"),
        (lambda: c.damage_distribution(c.Combatant(3), c.Combatant(3), rules=None), "rules"),
        (lambda: fight.fight(c.Combatant(3), c.Combatant(3), turns=2).probability("winner"), "unknown column"),
        (lambda: fight.fight(c.Combatant(3), c.Combatant(3), turns=2).joint_table(), "joint=True"),
        (lambda: fight.fight(c.Combatant(3), c.Combatant(3), turns=2).probability("over", 3), "turn must be 0..2"),
    ],
)
def test_bad_input_is_a_value_error(make, words):
    with pytest.raises(ValueError, match=words):
        make()


def test_a_fight_too_big_to_count_is_refused_before_it_runs():
    big = c.Combatant(100, health=c.Tracker(20))
    with pytest.raises(ValueError, match="would take too long"):
        fight.fight(big, big, turns=100)


# ------------------------------------------------------------- tables


def test_tables_exact_and_float_agree():
    a, b = c.Combatant(5, hunger=3, weapon=1), c.Combatant(4, vampire=False)
    exact_t = c.conflict_table(a, b, exact=True)
    float_t = c.conflict_table(a, b)
    assert tuple(exact_t.columns) == c.CONFLICT_COLUMNS
    assert sum(exact_t.probability) == 1
    assert [float(p) for p in exact_t.probability] == float_t.probability.tolist()
    margins = c.margin_distribution(5, 4, 3, 0)
    assert dict(zip(exact_t.margin, exact_t.probability)) == margins
    r = fight.fight(a, b, turns=4, joint=True)
    t = r.table(exact=True)
    assert tuple(t.columns) == c.FIGHT_COLUMNS and len(t) == 5
    assert t.over.tolist() == list(r.columns["over"])
    assert r.table().over.tolist() == [float(p) for p in r.columns["over"]]
    j = r.joint_table(exact=True)
    assert sum(j.probability) == 1 and (j.probability > 0).all()
    assert "stops when a side is out" in str(r)
