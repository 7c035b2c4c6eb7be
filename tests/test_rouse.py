"""Rouse checks, nights, Blood Potency and Blood Surge: exact against the core rules and a plain chain."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis import cli
from analysis.engine import markov
from analysis.systems.v5 import rouse
from analysis.systems.v5 import roll as v5
from tests import oracles_markov as om


def plain_chain(start, checks, reroll):
    """Independent reference: enumerate every sequence of check results."""
    p = Fraction(1, 4) if reroll else Fraction(1, 2)
    dist, frenzy = {h: Fraction(0) for h in range(6)}, Fraction(0)
    for fails in itertools.product((False, True), repeat=checks):
        prob, h, fr = Fraction(1), start, False
        for f in fails:
            prob *= p if f else 1 - p
            if f:
                if h == 5:
                    fr = True
                h = min(5, h + 1)
        dist[h] += prob
        frenzy += prob if fr else 0
    return dist, frenzy


def test_seed_three_checks_keep_hunger_one_in_eight():
    d = rouse.rouse(0, 3)
    assert d.hunger[0] == Fraction(1, 8)
    assert d.mean == Fraction(3, 2)  # "gains 1.5 Hunger on average"


def test_seed_reroll_raises_hunger_one_in_four():
    for h in range(5):
        assert rouse.rouse(h, 1, reroll=True).hunger[h + 1] == Fraction(1, 4)


def test_seed_aggravated_healing_costs_hunger_seven_in_eight():
    night = rouse.night(1, ["aggravated"], exact=True)
    assert 1 - night.hunger_1.iloc[-1] == Fraction(7, 8)


def test_seed_blood_surge_example():
    assert rouse.surge(4, 0, 3, 1).roll.pool == 6
    assert v5.odds(4, 0, 3).p_win == Fraction(131, 400)
    assert round(float(rouse.surge(4, 0, 3, 2).roll.p_win) * 100, 1) == 66.6
    # the surged roll uses the old Hunger; the check may raise it afterwards
    s = rouse.surge(4, 2, 3, 2)
    assert s.roll.hunger == 2 and s.hunger_after.hunger[3] == Fraction(1, 2)


@given(st.integers(0, 5), st.integers(0, 9), st.booleans())
def test_chain_matches_enumeration(start, checks, reroll):
    d = rouse.rouse(start, checks, reroll)
    dist, frenzy = plain_chain(start, checks, reroll)
    assert d.hunger == dist and d.frenzy_test == frenzy
    assert sum(d.hunger.values()) == 1


def test_long_chains_stay_exact():
    from math import comb

    d = rouse.rouse(0, 200)  # denominator 2**200: the modular path
    assert sum(d.hunger.values()) == 1
    assert d.hunger[0] == Fraction(1, 2**200)
    # from Hunger 0 a frenzy test needs a sixth failed check: none = at most 5 failures
    assert d.frenzy_test == 1 - sum(Fraction(comb(200, k), 2**200) for k in range(6))


def test_every_step_is_stochastic():
    steps = [rouse._check_step(r, rouse.OFFICIAL, "x") for r in (False, True)]
    steps += [rouse._feed_step(n, k, "f") for n in range(6) for k in (False, True)]
    for step in steps:
        assert step.is_stochastic()
    with pytest.raises(ValueError, match="sums to"):
        markov.ExactChain((0, 1), [{0: 1}, {1: 1}], 2)


@given(
    st.integers(0, 5), st.lists(st.sampled_from(["rouse", "rouse+reroll", "feed:2", "kill", "aggravated"]), max_size=12)
)
def test_kernel_run_agrees_with_its_python_twin(start, steps):
    chains = [c for s in steps for c in rouse._parse_night_step(s, 1, rouse.OFFICIAL)[1]]
    got = markov.run({rouse._state(start, False): 1}, chains, rouse.N_STATES)
    ways = [0] * rouse.N_STATES
    ways[rouse._state(start, False)] = 1
    den = 1
    assert got[0].tolist() == [Fraction(w, den) for w in ways]
    for t, chain in enumerate(chains, 1):
        ways, den = om.step(chain.rows, ways), den * chain.denominator
        assert got[t].tolist() == [Fraction(w, den) for w in ways]


def test_night_steps_and_blood_potency():
    df = rouse.night(2, "wake,discipline:1,discipline:3,feed:2,kill", blood_potency=2, exact=True)
    assert list(df.label) == ["dusk", "wake", "discipline:1", "discipline:3", "feed:2", "kill"]
    # BP 2 rerolls the level-1 power's check (+1 with 1/4) but not the level-3 one
    after_wake = df.iloc[1]
    assert after_wake.hunger_3 == Fraction(1, 2)
    assert df.iloc[2].hunger_4 == Fraction(1, 2) * Fraction(1, 4)
    assert df.iloc[-1].hunger_0 == 1
    for row in df.itertuples():
        assert sum(getattr(row, c) for c in rouse.HUNGER_COLUMNS) == 1
    assert rouse.potency_effects(2) == {"blood_potency": 2, "surge_bonus": 2, "mend": 2, "rouse_reroll_level": 1}
    assert list(rouse.blood_potency_table().surge_bonus) == [1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    # feeding never goes below 1 without a kill
    fed = rouse.night(3, ["feed:5"], exact=True).iloc[-1]
    assert fed.hunger_1 == 1


def test_frenzy_test_at_hunger_5():
    d = rouse.rouse(5, 2)
    assert d.hunger[5] == 1 and d.frenzy_test == Fraction(3, 4)
    quiet = rouse.rouse(5, 2, rules=rouse.RouseRules(frenzy_at_max=False))
    assert quiet.frenzy_test == 0


def test_remorse_and_frenzy_rolls():
    r = v5.remorse(humanity=6, stains=3)
    assert (r.pool, r.keep_humanity, r.lose_humanity) == (1, Fraction(1, 2), Fraction(1, 2))
    assert v5.remorse(7, 0).keep_humanity == 1 - Fraction(1, 8)
    deg = v5.remorse(8, 4)
    assert deg.degeneration and deg.pool == 1
    o = v5.resist_frenzy(willpower=6, difficulty=3, superficial=2, humanity=8)
    assert o.pool == 6 and o.hunger == 0 and o.p_win == v5.odds(6, 0, 3).p_win


@pytest.mark.parametrize(
    "call",
    [
        lambda: rouse.rouse(6, 1),
        lambda: rouse.rouse(0, -1),
        lambda: rouse.potency_effects(11),
        lambda: rouse.night(1, ["sleep"]),
        lambda: rouse.night(1, ["discipline:x"]),
        lambda: rouse.night(1, ["wake"], blood_potency=-1),
        lambda: v5.remorse(11, 0),
        lambda: v5.frenzy_pool(5, superficial=6),
    ],
)
def test_bad_input_is_refused(call):
    with pytest.raises(ValueError):
        call()


def test_cli(capsys):
    assert cli.main(["rouse", "--hunger", "0", "--checks", "3", "--exact", "--format", "csv"]) == 0
    header, row = capsys.readouterr().out.strip().splitlines()
    assert header.split(",") == list(rouse.TABLE_COLUMNS) + ["rule_set"]
    assert row == "0,3,False,1/8,3/8,3/8,1/8,0,0,0,v5-official"
    assert cli.main(["rouse", "--hunger", "7", "--checks", "3"]) == 2
    assert "--hunger must be 0..5, got 7" in capsys.readouterr().err
