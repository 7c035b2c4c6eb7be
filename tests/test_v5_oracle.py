"""The V5 engine against brute force over every ordered roll, and against icepool."""

import random
from fractions import Fraction

import pytest

from analysis.systems.v5 import roll as v5
from tests import oracles


@pytest.mark.parametrize("pool", [*range(0, 5), *(pytest.param(p, marks=pytest.mark.slow) for p in (5, 6))])
def test_all_small_pools_match_brute_force(pool):
    for hunger in range(0, 6):
        for difficulty in range(0, 9):
            got = v5.odds(pool, hunger, difficulty).classes()
            assert got == oracles.brute_force_v5(pool, hunger, difficulty), (pool, hunger, difficulty)


@pytest.mark.parametrize("pool", [*range(0, 5), *(pytest.param(p, marks=pytest.mark.slow) for p in (5, 6))])
def test_success_distribution_matches_brute_force(pool):
    for hunger in (0, 2, 5):
        assert v5.odds(pool, hunger, 1).successes == oracles.brute_force_successes(pool, hunger)


HOUSE_RULES = [
    dict(success_face=7),
    dict(success_face=10, crit_bonus=0),
    dict(crit_bonus=1),
    dict(messy_hunger_tens=2),
    dict(bestial_hunger_ones=2),
    dict(hunger_one_taints_win=True),
    # pool + Hunger dice: up to 7 dice, 10**7 rolls; test_added_hunger_dice_on_small_pools
    # covers every branch in the fast tier
    pytest.param(dict(hunger_replaces_dice=False), marks=pytest.mark.slow),
    dict(success_face=5, messy_hunger_tens=2, bestial_hunger_ones=2, hunger_one_taints_win=True),
]


@pytest.mark.parametrize("knobs", HOUSE_RULES, ids=lambda k: ",".join(f"{a}={b}" for a, b in k.items()))
def test_house_rules_match_brute_force(knobs):
    rules = v5.V5Rules(**knobs)
    for pool in range(0, 5):
        for hunger in (0, 1, 2, 3):
            for difficulty in range(0, 7):
                got = v5.odds(pool, hunger, difficulty, rules).classes()
                want = oracles.brute_force_v5(pool, hunger, difficulty, **knobs)
                assert got == want, (knobs, pool, hunger, difficulty)


def test_added_hunger_dice_on_small_pools():
    """Hunger dice added to the pool, up to 4 dice in all: every class is reachable (a messy
    critical needs two dice), against brute force; the big sweep above is in the slow tier."""
    rules = v5.V5Rules(hunger_replaces_dice=False)
    for pool in range(0, 3):
        for hunger in range(0, 4):
            if pool + hunger > 4:
                continue
            for difficulty in range(0, 5):
                got = v5.odds(pool, hunger, difficulty, rules).classes()
                want = oracles.brute_force_v5(pool, hunger, difficulty, hunger_replaces_dice=False)
                assert got == want, (pool, hunger, difficulty)


def test_table_matches_brute_force_with_house_rule():
    rules = v5.V5Rules(success_face=7, bestial_hunger_ones=2)
    df = v5.table("0-4", "0-4", "0-6", rules=rules, exact=True)
    for row in df.itertuples():
        want = oracles.brute_force_v5(row.pool, row.hunger, row.difficulty, success_face=7, bestial_hunger_ones=2)
        assert {c: getattr(row, c) for c in v5.CLASSES} == want


@pytest.mark.slow
def test_icepool_agrees_on_200_random_cells():
    rng = random.Random(2026_11_29)
    evaluator = oracles.icepool_v5_evaluator()
    cells = [(rng.randint(0, 25), rng.randint(0, 5), rng.randint(0, 12)) for _ in range(200)]
    for pool, hunger, difficulty in cells:
        want = oracles.icepool_v5(evaluator, pool, hunger, [difficulty])[difficulty]
        assert v5.odds(pool, hunger, difficulty).classes() == want, (pool, hunger, difficulty)
    # the same cells through table(), which takes the grid kernel and its exact path
    for pool, hunger, difficulty in cells[:40]:
        row = v5.table(pool, hunger, difficulty, exact=True).iloc[0]
        want = oracles.icepool_v5(evaluator, pool, hunger, [difficulty])[difficulty]
        assert {c: row[c] for c in v5.CLASSES} == want


def test_full_table_matches_pure_python_count():
    df = v5.table("1-20", "0-5", "0-10", exact=True)
    ref = oracles.multinomial_v5_table(range(1, 21), range(6), range(0, 11))
    for row in df.itertuples():
        want = ref[(row.pool, row.hunger, row.difficulty)]
        assert {c: getattr(row, c) for c in v5.CLASSES} == want
        assert row.p_win == want["plain_win"] + want["critical_win"] + want["messy_critical"]


def test_pool_100_hunger_5_is_exact():
    o = v5.odds(100, 5, 30)
    assert sum(o.classes().values()) == 1
    assert o.denominator == 10**100
    want = oracles.multinomial_v5_table([100], [5], [30])[(100, 5, 30)]
    assert o.classes() == want
    assert sum(o.successes.values()) == 1
    # the mean by linearity: 0.5 per die, plus 2 per pair of tens
    assert o.mean_successes > 50


def test_table_floats_are_the_exact_values_rounded():
    exact = v5.table("1-25", "0-5", "1-8", exact=True)
    floats = v5.table("1-25", "0-5", "1-8")
    for c in v5.CLASSES + ("p_win",):
        assert all(abs(float(a) - b) <= 1e-15 for a, b in zip(exact[c], floats[c]))
        assert floats[c].dtype == "float64"
        assert all(type(x) is Fraction for x in exact[c])


@pytest.mark.parametrize(
    "knobs", [{}, dict(bestial_hunger_ones=2, hunger_one_taints_win=True, success_face=8)], ids=["official", "house"]
)
def test_bestial_total_failure_matches_brute_force(knobs):
    # the flag, not a class: no success at all and enough Hunger 1s, over every ordered roll
    import itertools

    rules = v5.V5Rules(**knobs)
    for pool in range(0, 5):
        for hunger in range(0, 6):
            nn, nh = rules.dice(pool, hunger)
            both = 0
            for faces in itertools.product(range(1, 11), repeat=nn + nh):
                hits = sum(f >= rules.success_face for f in faces)  # no success means no 10 either
                both += hits == 0 and faces[nn:].count(1) >= rules.bestial_hunger_ones
            for difficulty in range(0, 4):
                want = Fraction(both, 10 ** (nn + nh)) if difficulty > 0 else 0
                assert v5.bestial_total_failure(v5.odds(pool, hunger, difficulty, rules)) == want, (pool, hunger)
