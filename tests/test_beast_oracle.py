"""La Soif and Requiem dice against independent references: brute force and icepool."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.systems.requiem import beast
from analysis.systems.requiem import dice as requiem

from tests.oracles_beast import brute_force, icepool_requiem

DEPTH = 7


def check_against_brute(pool, soif, *, tempt=False, frenzy=False, depth=DEPTH, **knobs):
    rules = beast.BeastRules(**knobs)
    got = beast.odds(pool, soif, rules, tempt=tempt, frenzy=frenzy, max_successes=depth)
    want = brute_force(pool, soif, tempt=tempt, frenzy=frenzy, depth=depth, **knobs)
    assert (got.dice, got.beast_dice, got.chance) == (want["dice"], want["beast_dice"], want["chance"])
    assert got.successes == want["successes"]
    assert got.tail == want["beyond"]
    assert got.classes() == want["classes"]
    assert got.p_beastly_critical == want["p_beastly_critical"]
    assert got.p_success == want["p_success"]


@pytest.mark.parametrize("pool", [*range(0, 5), pytest.param(5, marks=pytest.mark.slow)])
@pytest.mark.parametrize("soif", [0, 1, 2, 3, 5])
def test_default_rules_match_brute_force(pool, soif):
    """Every face of every die enumerated, pools up to 5, the house rule's defaults."""
    check_against_brute(pool, soif)


@pytest.mark.parametrize("again", [9, 8, None])
@pytest.mark.parametrize("pool,soif", [(4, 2), (5, 5), (0, 2), (0, 0)])
def test_other_again_rules_match_brute_force(pool, soif, again):
    check_against_brute(pool, soif, again=again)


@pytest.mark.parametrize("pool,soif", [(4, 0), (4, 2), (3, 3), (0, 1)])
@pytest.mark.parametrize("rerolled_ones", [False, True])
def test_rote_matches_brute_force(pool, soif, rerolled_ones):
    check_against_brute(pool, soif, rote=True, bestial_counts_rerolled_ones=rerolled_ones, rote_chance_die=True)


@pytest.mark.parametrize("pool,soif", [(2, 2), (3, 2), (0, 2), (-2, 3), pytest.param(1, 5, marks=pytest.mark.slow)])
def test_tempting_matches_brute_force(pool, soif):
    check_against_brute(pool, soif, tempt=True)


@settings(max_examples=40)
@given(
    pool=st.integers(-2, 3),
    soif=st.integers(0, 5),
    again=st.sampled_from([10, 9, 8, None]),
    rote=st.booleans(),
    chance_die_again=st.booleans(),
    rote_chance_die=st.booleans(),
    chance_die_is_beast=st.booleans(),
    beastly=st.integers(1, 4),
    rerolled_ones=st.booleans(),
    bonus=st.sampled_from(["none", "tempt", "frenzy", "frenzy_beast"]),
    exceptional=st.integers(1, 6),
)
def test_any_rules_match_brute_force(
    pool,
    soif,
    again,
    rote,
    chance_die_again,
    rote_chance_die,
    chance_die_is_beast,
    beastly,
    rerolled_ones,
    bonus,
    exceptional,
):
    # keep the enumeration small: at most 4 dice rolled (3 for a rote action)
    extra = soif if bonus != "none" else 0
    pool = min(pool, (3 if rote else 4) - extra)
    check_against_brute(
        pool,
        soif,
        again=again,
        rote=rote,
        chance_die_again=chance_die_again,
        rote_chance_die=rote_chance_die,
        chance_die_is_beast=chance_die_is_beast,
        beastly_ten_successes=beastly,
        bestial_counts_rerolled_ones=rerolled_ones,
        tempt=bonus == "tempt",
        frenzy=bonus.startswith("frenzy"),
        frenzy_bonus_beast=bonus == "frenzy_beast",
        exceptional_successes=exceptional,
    )


@pytest.mark.parametrize("pool", [1, 2, 5, 8])
@pytest.mark.parametrize("again,rote", [(10, False), (9, False), (8, False), (None, False), (10, True), (8, True)])
def test_plain_requiem_matches_icepool(pool, again, rote):
    depth = 12
    dist, beyond = icepool_requiem(pool, again, rote, depth)
    got = requiem.odds(pool, requiem.RequiemRules(again=again, rote=rote), max_successes=depth)
    assert got.successes == dist
    assert got.tail == beyond
    # soif 0 is plain Requiem
    assert beast.odds(pool, 0, beast.BeastRules(again=again, rote=rote), max_successes=depth).successes == dist


@pytest.mark.parametrize(
    "pool", [12, pytest.param(20, marks=pytest.mark.slow), pytest.param(30, marks=pytest.mark.slow)]
)
def test_large_pools_match_icepool_on_the_exact_path(pool):
    """10**(S + pool) is far beyond int64 here: the modular path must be exact."""
    depth = 25
    dist, beyond = icepool_requiem(pool, 10, False, depth)
    got = requiem.odds(pool, max_successes=depth)
    assert got.successes == dist
    assert got.tail == beyond


def test_chance_die_by_hand():
    """1st edition chance die: 1 in 10 dramatic, 10 succeeds and is rolled again."""
    o = requiem.odds(0)
    assert o.dramatic_failure == Fraction(1, 10)
    assert o.failure == Fraction(8, 10)
    assert o.p_success == Fraction(1, 10)
    # the 10's reroll is a normal die: 8+ adds one more (3 in 10), then 10-again
    assert o.successes[1] == Fraction(1, 10) * Fraction(7, 10)
    assert o.successes[2] == Fraction(1, 10) * (Fraction(2, 10) + Fraction(1, 10) * Fraction(7, 10))
    assert requiem.odds(0, requiem.RequiemRules(chance_die_again=False)).successes[1] == Fraction(1, 10)
