"""Properties of every V5 roll (hypothesis)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.systems.v5 import roll as v5

pools = st.integers(0, 40)
hungers = st.integers(0, 5)
difficulties = st.integers(0, 25)
rules = st.builds(
    v5.V5Rules,
    success_face=st.integers(2, 10),
    crit_bonus=st.integers(0, 4),
    messy_hunger_tens=st.integers(1, 2),
    bestial_hunger_ones=st.integers(1, 2),
    hunger_one_taints_win=st.booleans(),
    hunger_replaces_dice=st.booleans(),
)


@given(pools, hungers, difficulties, rules)
def test_classes_sum_to_one(pool, hunger, difficulty, r):
    o = v5.odds(pool, hunger, difficulty, r)
    assert sum(o.classes().values()) == 1
    assert all(p >= 0 for p in o.classes().values())
    assert sum(o.successes.values()) == 1
    reached = sum(p for s, p in o.successes.items() if s >= difficulty)
    if r.hunger_one_taints_win:
        assert o.p_win <= reached
    else:
        assert o.p_win == reached


@given(pools, hungers, difficulties)
def test_more_dice_never_lowers_p_win(pool, hunger, difficulty):
    assert v5.odds(pool + 1, hunger, difficulty).p_win >= v5.odds(pool, hunger, difficulty).p_win


@given(pools, hungers, difficulties)
def test_hunger_never_changes_p_win(pool, hunger, difficulty):
    assert v5.odds(pool, hunger, difficulty).p_win == v5.odds(pool, 0, difficulty).p_win


@given(pools, difficulties)
def test_hunger_zero_has_no_beast(pool, difficulty):
    o = v5.odds(pool, 0, difficulty)
    assert o.messy_critical == 0 and o.bestial_failure == 0


@given(pools, hungers, difficulties)
def test_margin_is_successes_shifted(pool, hunger, difficulty):
    o = v5.odds(pool, hunger, difficulty)
    assert o.margin == {s - difficulty: p for s, p in o.successes.items()}
    assert o.mean_margin == o.mean_successes - difficulty
    assert isinstance(o.mean_successes, Fraction)


@given(st.integers(0, 12), hungers, difficulties)
def test_table_row_equals_odds(pool, hunger, difficulty):
    row = v5.table(pool, hunger, difficulty, exact=True).iloc[0]
    o = v5.odds(pool, hunger, difficulty)
    assert {c: row[c] for c in v5.CLASSES} == o.classes()
    assert row["p_win"] == o.p_win


@pytest.mark.parametrize("mod", [0, 2147483647, 1000003])
def test_small_binomial_tables_match_the_kernel(mod):
    """The Python-built binomial tables (quick start-up) equal the kernel's, both sides of the switch."""
    import numpy as np

    from analysis.engine import pairs_count
    from kernels.multiset import fill_binomials

    for size in (1, 2, 7, pairs_count.SMALL_BINOMIALS, pairs_count.SMALL_BINOMIALS + 1):
        want = np.empty((size, size), dtype=np.int64)
        fill_binomials(mod, want)
        got = pairs_count.binomials(size, mod)
        assert got.dtype == np.int64 and not got.flags.writeable
        assert (got == want).all(), (size, mod)


def test_v5_odds_are_the_engines_one_odds_type():
    """V5's odds are MechanicOdds (as Werewolf's, Hunter's and a designer's file's): the classes by name
    against the table, the dice of each kind, the flag of a bestial failure with no success."""
    from analysis.engine.results import MechanicOdds
    from analysis.systems import v5

    o = v5.odds(7, 3, 3, strategy="maximize_win")
    assert type(o) is MechanicOdds and o.strategy == "maximize_win"
    row = v5.table(7, 3, 3, exact=True, strategy="maximize_win").iloc[0]
    assert o.messy_critical == row["messy_critical"] and o.willpower_spent == row["willpower_spent"]
    assert (o.pool, o.hunger, o.difficulty, o.normal_dice, o.hunger_dice) == (7, 3, 3, 4, 3)
    plain = v5.odds(7, 3, 3)
    assert v5.bestial_total_failure(plain) == plain.successes[0] - plain.total_failure > 0
    assert v5.bestial_total_failure(v5.odds(7, 3, 0)) == 0
