"""Classic damage, soak and the health track: the health chapter's example, brute force, chains, errors."""

from fractions import Fraction
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.systems.classic import health as hl
from analysis.cli import main

from tests.oracles_classic import (
    apply_levels,
    brute_attack,
    brute_blows,
    brute_damage,
    brute_fight,
    brute_pool,
    levels_through,
    severity,
    soak_pool,
    taken_kind,
)


def as_track(h: hl.Health):
    """A Health in the oracle's form: sorted box letters and the condition."""
    return tuple(sorted("A" * h.aggravated + "L" * h.lethal + "B" * h.bashing)), h.condition


# ------------------------------------------------ the health chapter's example


def test_seed_kincaid_hits_veronica():
    # 8, 6, 7, 9 + two Potence = six levels; Stamina 2 soaks 3, 8 = one; five bashing halved to two
    r = hl.read_damage(damage_dice=[8, 6, 7, 9], auto=2, soak_dice=[3, 8], kind="bashing", target="vampire")
    assert (r.damage_successes, r.levels_rolled, r.soak_successes, r.after_soak, r.halved, r.levels) == (
        4,
        6,
        1,
        5,
        True,
        2,
    )


def test_seed_veronica_hits_kincaid():
    # one die, a 9: one level; Kincaid's 4, 5, 1, 9, 3 soaks nothing (the 1 cancels the 9);
    # the one bashing level halves to nothing
    r = hl.read_damage(damage_dice=[9], auto=0, soak_dice=[4, 5, 1, 9, 3], kind="bashing", target="vampire")
    assert (r.levels_rolled, r.soak_successes, r.after_soak, r.levels) == (1, 0, 1, 0)


def test_seed_attacks_exact_distributions():
    kincaid = hl.damage(4, auto=2, stamina=2, kind="bashing", target="vampire")
    assert kincaid.levels == brute_damage(4, 2, 2, "bashing", "vampire")
    assert sum(kincaid.levels.values()) == 1
    assert kincaid.max_levels == 3  # at most (4 + 2) // 2
    veronica = hl.damage(1, auto=0, stamina=4, fortitude=1, kind="bashing", target="vampire")
    assert veronica.levels == brute_damage(1, 0, 4, "bashing", "vampire", 1)
    assert veronica.levels == {0: 1}  # one die can never get a level through halving


def test_seed_example_on_the_cli(capsys):
    argv = [
        "damage",
        "--dice",
        "4",
        "--auto",
        "2",
        "--soak",
        "2",
        "--kind",
        "bashing",
        "--target",
        "vampire",
        "--format",
        "csv",
        "--exact",
    ]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "levels,probability,rule_set"
    rows = [line.split(",") for line in lines[1:]]
    assert {rule_set for _, _, rule_set in rows} == {"classic-official"}
    got = {int(a): Fraction(b) for a, b, _ in rows}
    assert got == brute_damage(4, 2, 2, "bashing", "vampire")


# ---------------------------------------------------------- damage, brute force


@given(
    dice=st.integers(0, 3),
    auto=st.integers(0, 2),
    stamina=st.integers(0, 3),
    fortitude=st.integers(0, 2),
    kind=st.sampled_from(hl.KINDS),
    target=st.sampled_from(hl.CREATURES),
    firearm=st.booleans(),
    aim=st.sampled_from(hl.AIMS),
)
def test_damage_matches_brute_force(dice, auto, stamina, fortitude, kind, target, firearm, aim):
    if target == "mortal":
        fortitude = 0
    got = hl.damage(dice, auto, stamina, kind, target, fortitude, firearm=firearm, aim=aim)
    assert got.levels == brute_damage(dice, auto, stamina, kind, target, fortitude, firearm=firearm, aim=aim)
    assert got.mean_levels == sum(n * p for n, p in got.levels.items())


@given(
    damage_difficulty=st.integers(2, 10),
    soak_difficulty=st.integers(2, 10),
    damage_ones_cancel=st.booleans(),
    soak_ones_cancel=st.booleans(),
    vampire_bashing=st.sampled_from(hl.VAMPIRE_BASHING),
    kind=st.sampled_from(hl.KINDS),
    vital=st.sampled_from(hl.VITAL_SPOT_LETHAL),
    target=st.sampled_from(hl.CREATURES),
)
def test_damage_house_rules_match_brute_force(
    damage_difficulty, soak_difficulty, damage_ones_cancel, soak_ones_cancel, vampire_bashing, kind, vital, target
):
    knobs = dict(
        damage_difficulty=damage_difficulty,
        soak_difficulty=soak_difficulty,
        damage_ones_cancel=damage_ones_cancel,
        soak_ones_cancel=soak_ones_cancel,
        vampire_bashing=vampire_bashing,
    )
    rules = hl.DamageRules(vital_spot_lethal=vital, **knobs)
    fort = 1 if target == "vampire" else 0
    got = hl.damage(3, 1, 2, kind, target, fort, aim="vital", rules=rules)
    assert got.levels == brute_damage(3, 1, 2, kind, target, fort, aim="vital", vital_spot_lethal=vital, **knobs)


@given(
    damage=st.lists(st.integers(1, 10), max_size=6),
    auto=st.integers(0, 3),
    soak=st.lists(st.integers(1, 10), max_size=6),
    kind=st.sampled_from(hl.KINDS),
)
def test_read_damage_matches_the_rules_restated(damage, auto, soak, kind):
    r = hl.read_damage(damage, auto, soak, kind, "vampire")
    assert r.levels == levels_through(tuple(damage), auto, tuple(soak), kind, "vampire")


def test_soak_follows_the_seed():
    for kind in hl.KINDS:
        for target in hl.CREATURES:
            fort = 2 if target == "vampire" else 0
            assert hl.soak_dice(hl.resolve_kind(kind, target), target, 3, fort) == soak_pool(
                taken_kind(kind, target), target, 3, fort
            )
    assert hl.soak_dice("lethal", "mortal", 3) == 0  # mortals can't soak lethal
    assert hl.soak_dice("aggravated", "vampire", 3, 2) == 2  # only Fortitude soaks aggravated
    assert hl.resolve_kind("lethal", "vampire", firearm=True) == "bashing"
    assert hl.resolve_kind("lethal", "vampire", firearm=True, aim="head") == "lethal"
    assert hl.resolve_kind("aggravated", "mortal") == "lethal"
    vital = hl.DamageRules(vital_spot_lethal="mortals")
    assert hl.resolve_kind("bashing", "mortal", aim="vital", rules=vital) == "lethal"
    assert hl.resolve_kind("bashing", "vampire", aim="vital", rules=vital) == "bashing"
    assert hl.resolve_kind("bashing", "mortal", aim="vital") == "bashing"  # option off by default


@pytest.mark.parametrize(
    "pool, difficulty, specialty, base, auto, stamina, kind, target",
    [
        (2, 6, False, 1, 0, 1, "bashing", "vampire"),
        (2, 7, True, 1, 1, 1, "lethal", "vampire"),
        (3, 6, False, 0, 1, 1, "bashing", "mortal"),
        (2, 6, False, 2, 0, 0, "aggravated", "mortal"),
    ],
)
def test_attack_roll_matches_brute_force(pool, difficulty, specialty, base, auto, stamina, kind, target):
    attack = hl.Attack(base, kind, auto, attack_pool=pool, difficulty=difficulty, specialty=specialty)
    got = hl.blow(attack, hl.Fighter(target, stamina))
    taken = taken_kind(kind, target)
    assert got.levels == brute_attack(
        pool, difficulty, specialty, base, auto, soak_pool(taken, target, stamina, 0), taken, target
    )


def test_big_damage_rolls_stay_exact():
    # 30 damage dice + 10 soak dice: 10**40 outcomes, far past int64.  Independent count:
    # damage successes are binomial (5 faces of 10 succeed, 1s don't cancel); a soak roll
    # has o ones, s successes and 10 - o - s plain failures, net max(0, s - o).
    odds = hl.damage(30, 0, 10, "lethal", "vampire")
    assert odds.denominator == 10**40
    expected = [0] * 31
    for d in range(31):
        for o in range(11):
            for s_ in range(11 - o):
                ways = comb(30, d) * 5**30 * comb(10, o) * comb(10 - o, s_) * 5**s_ * 4 ** (10 - o - s_)
                expected[max(0, d - max(0, s_ - o))] += ways
    assert list(odds.level_ways) == expected


# ---------------------------------------------------------------- health track


def test_take_damage_follows_the_seed():
    full_bashing = hl.Health(bashing=7)
    assert full_bashing.level == "Incapacitated"
    assert hl.take_damage(full_bashing, 1, "bashing", "vampire").condition == "torpor"
    assert hl.take_damage(full_bashing, 1, "lethal", "vampire").condition == "torpor"
    assert hl.take_damage(full_bashing, 1, "aggravated", "vampire").condition == "final_death"
    assert hl.take_damage(full_bashing, 1, "bashing", "mortal").condition == "dead"
    torpor = hl.Health(lethal=7, condition="torpor")
    assert hl.take_damage(torpor, 3, "lethal", "vampire") == torpor
    assert hl.take_damage(torpor, 1, "aggravated", "vampire").condition == "final_death"
    h = hl.take_damage(hl.Health(bashing=2), 3, "lethal", "vampire")
    assert (h.aggravated, h.lethal, h.bashing, h.level, h.boxes) == (0, 3, 2, "Mauled", "XXX//..")
    assert [hl.Health(bashing=n).penalty() for n in range(8)] == [0, 0, 1, 1, 2, 2, 5, None]


@given(
    start=st.tuples(st.integers(0, 3), st.integers(0, 2), st.integers(0, 2)),
    levels=st.integers(0, 9),
    kind=st.sampled_from(hl.KINDS),
    target=st.sampled_from(hl.CREATURES),
)
def test_take_damage_matches_the_rules_restated(start, levels, kind, target):
    h = hl.Health(*start)
    got = hl.take_damage(h, levels, kind, target)
    assert as_track(got) == apply_levels(as_track(h), levels, kind, target)
    assert got.severity == severity(as_track(got))


@pytest.mark.parametrize(
    "attack, victim, k",
    [
        (hl.Attack(2, "lethal", 1), hl.Fighter("mortal", 1), 4),
        (hl.Attack(3, "bashing", 1), hl.Fighter("vampire", 1, 1), 4),
        (hl.Attack(2, "aggravated", 2), hl.Fighter("vampire", 2, 1, hl.Health(bashing=3)), 3),
    ],
)
def test_blows_match_brute_force(attack, victim, k):
    result = hl.blows(attack, victim, k)
    per = brute_damage(attack.damage_dice, attack.auto, victim.stamina, attack.kind, victim.creature, victim.fortitude)
    assert result.per_blow.levels == per
    kind = taken_kind(attack.kind, victim.creature)
    for n in range(k + 1):
        expected = brute_blows(per, kind, victim.creature, n, start=as_track(victim.health))
        got = {}
        for h, p in result.state(n).items():
            got[as_track(h)] = got.get(as_track(h), 0) + p
        assert got == {t: p for t, p in expected.items() if p}


def test_first_passage_and_expectation_when_every_blow_wounds():
    # one automatic lethal success and no soak: a mortal is Incapacitated within 7 blows
    result = hl.blows(hl.Attack(2, "lethal", 1), hl.Fighter("mortal", 3), 8)
    pmf, tail, never = result.first("incapacitated")
    assert tail == 0 and never == 0 and sum(pmf) == 1
    assert result.expected("incapacitated") == sum(k * p for k, p in enumerate(pmf))
    table = result.table(exact=True)
    for k in range(1, 9):
        assert table.incapacitated_or_worse[k] - table.incapacitated_or_worse[k - 1] == pmf[k]
    assert list(table.torpor_or_worse) == list(table.final_death)  # a mortal just dies
    assert result.eventually("final_death") == 1


def test_vampire_under_bashing_never_meets_final_death():
    result = hl.blows(hl.Attack(5, "bashing", 2), hl.Fighter("vampire", 1), 12)
    assert result.eventually("torpor") == 1
    assert result.eventually("final_death") == 0
    assert result.expected("final_death") is None
    pmf, tail, never = result.first("final_death")
    assert never == 1 and tail == 0 and sum(pmf) == 0
    pmf, tail, never = result.first("torpor")
    assert never == 0 and sum(pmf) + tail == 1


def test_harmless_blows_never_end():
    # Veronica's punch can never hurt Kincaid: the chain is a single absorbing state
    result = hl.blows(hl.Attack(1, "bashing"), hl.Fighter("vampire", 4, 1), 5)
    assert len(result.chain) == 1 and result.chain.is_absorbing()
    assert result.eventually("incapacitated") == 0 and result.expected() is None


def test_victim_penalties_feed_into_the_victims_own_roll():
    attack, victim = hl.Attack(2, "lethal", 1), hl.Fighter("mortal", 1)
    result = hl.blows(attack, victim, 3)
    per = brute_damage(2, 1, 1, "lethal", "mortal")
    pen = {0: 0, 1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 5}
    expected = {"cannot_act": Fraction(0), "botch": Fraction(0), "failure": Fraction(0), "success": Fraction(0)}
    for track, p in brute_blows(per, "lethal", "mortal", 3).items():
        if severity(track):
            expected["cannot_act"] += p
            continue
        outcomes, _ = brute_pool(max(0, 5 - pen[len(track[0])]), 6)
        for name, q in outcomes.items():
            expected[name] += p * q
    assert result.victim_roll(3, 5, 6) == expected
    assert sum(result.penalty(3).values()) == 1


FIGHTERS = [
    dict(creature="vampire", stamina=1, fortitude=0, attack_pool=2, difficulty=6, damage_dice=1, auto=1, kind="lethal"),
    dict(creature="mortal", stamina=1, fortitude=0, attack_pool=3, difficulty=6, damage_dice=1, auto=1, kind="bashing"),
]


def _fighter(d, name):
    return hl.Fighter(
        d["creature"],
        d["stamina"],
        d["fortitude"],
        name=name,
        attack=hl.Attack(
            d["damage_dice"], d["kind"], d["auto"], attack_pool=d["attack_pool"], difficulty=d["difficulty"]
        ),
    )


@pytest.mark.parametrize("order", ["a", "simultaneous"])
@pytest.mark.parametrize("until", ["incapacitated", "final_death"])
def test_fight_matches_brute_force(order, until):
    a, b = _fighter(FIGHTERS[0], "Ash"), _fighter(FIGHTERS[1], "Bea")
    turns = 3
    result = hl.fight(a, b, first=order, until=until, turns=turns)
    sev = hl.UNTIL.index(until) + 1
    for k in range(turns + 1):
        expected = brute_fight(FIGHTERS[0], FIGHTERS[1], k, until=sev, order=order)
        got = {}
        for (ha, hb), p in result.state(k).items():
            key = (as_track(ha), as_track(hb))
            got[key] = got.get(key, 0) + p
        assert got == {s: p for s, p in expected.items() if p}
    out = result.outcomes()
    assert sum(out.values()) == 1
    if order == "a":
        assert out["both"] == 0


def test_fight_b_first_is_the_mirror_of_a_first():
    a, b = _fighter(FIGHTERS[0], "Ash"), _fighter(FIGHTERS[1], "Bea")
    ab = hl.fight(a, b, first="b", turns=4)
    ba = hl.fight(b, a, first="a", turns=4)
    assert ab.outcomes()["a_wins"] == ba.outcomes()["b_wins"]
    assert ab.expected_turns() == ba.expected_turns()
    assert list(ab.table(exact=True).a_wins) == list(ba.table(exact=True).b_wins)


def test_every_chain_is_stochastic_and_absorbing():
    kincaid = hl.Fighter("vampire", 4, 1, name="Kincaid", attack=hl.Attack(4, "bashing", 2, attack_pool=6))
    veronica = hl.Fighter("vampire", 2, 0, name="Veronica", attack=hl.Attack(1, "bashing", 0, attack_pool=5))
    chains = [hl.fight(kincaid, veronica, until=s, turns=2).chain for s in hl.UNTIL]
    chains += [hl.fight(veronica, kincaid, first="simultaneous", turns=2).chain]
    for kind in hl.KINDS:
        for target in hl.CREATURES:
            chains.append(hl.blows(hl.Attack(3, kind, 1, attack_pool=4), hl.Fighter(target, 2), 2).chain)
    for chain in chains:
        assert chain.is_stochastic() and chain.is_absorbing()
        for row in chain.rows:
            assert sum(row.values()) == chain.denominator
        chain.topological_order()  # damage never heals: no cycles


def test_kincaid_against_veronica_is_a_rout():
    kincaid = hl.Fighter("vampire", 4, 1, name="Kincaid", attack=hl.Attack(4, "bashing", 2, attack_pool=6))
    veronica = hl.Fighter("vampire", 2, 0, name="Veronica", attack=hl.Attack(1, "bashing", 0, attack_pool=5))
    out = hl.fight(kincaid, veronica, turns=3).outcomes()
    assert out["a_wins"] > Fraction(999, 1000) and out["never"] == 0
    # Veronica needs four net attack successes (four extra dice) to push a level through Kincaid
    assert 0 < out["b_wins"] < Fraction(1, 10**6)


def test_torpor_lookup():
    assert hl.torpor_length(10) == "one day"
    assert hl.torpor_length(6) == "one month"
    assert hl.torpor_length(0) == "a millennium or more"
    assert list(hl.torpor_table().humanity) == list(range(10, -1, -1))


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: hl.damage(-1), "dice must be 0..200, got -1"),
        (lambda: hl.damage(3, kind="fire"), "kind must be one of bashing, lethal, aggravated, got 'fire'"),
        (lambda: hl.damage(3, target="werewolf"), "target must be one of vampire, mortal"),
        (lambda: hl.damage(3, stamina=-2), "stamina must be 0..50, got -2"),
        (lambda: hl.damage(3, target="mortal", fortitude=1), "a mortal has no Fortitude"),
        (lambda: hl.damage(3, auto=1.5), "auto must be a whole number"),
        (lambda: hl.read_damage([8], 0, [5], "lethal", "mortal"), "a mortal cannot soak lethal"),
        (lambda: hl.read_damage([11], 0, []), "each face of damage_dice must be 1..10, got 11"),
        (lambda: hl.DamageRules(soak_difficulty=11), "soak_difficulty must be 2..10, got 11"),
        (lambda: hl.DamageRules(vampire_bashing="halve"), "vampire_bashing must be one of"),
        (lambda: hl.DamageRules(penalties=(0, 1)), "penalties must be 6 numbers"),
        (lambda: hl.Attack(3, attack_pool=5, aim="head"), "difficulty 8 or more, got 6"),
        (lambda: hl.Attack(3, difficulty=1), "difficulty must be 2..10, got 1"),
        (lambda: hl.Health(bashing=5, lethal=3), "a health track has 7 boxes, got 8 marked"),
        (lambda: hl.Fighter("mortal", health=hl.Health(condition="torpor")), "a mortal cannot be in torpor"),
        (lambda: hl.blows(hl.Attack(2), hl.Fighter(), max_blows=-1), "max_blows must be 0..1000"),
        (lambda: hl.fight(hl.Fighter(), hl.Fighter(), until="bored"), "until must be one of"),
        (lambda: hl.torpor_length(11), "humanity must be 0..10, got 11"),
    ],
)
def test_bad_input_is_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["damage", "--dice", "-1", "--kind", "lethal", "--target", "mortal"], "dice must be 0..200, got -1"),
        (
            ["damage", "--dice", "3", "--kind", "lethal", "--target", "mortal", "--fortitude", "2"],
            "a mortal has no Fortitude",
        ),
        (
            [
                "blows",
                "--dice",
                "3",
                "--kind",
                "lethal",
                "--target",
                "mortal",
                "--attack-difficulty",
                "11",
                "--attack-pool",
                "3",
            ],
            "difficulty must be 2..10, got 11",
        ),
    ],
)
def test_cli_bad_input_exits_2_with_one_sentence(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_unknown_kind_exits_2_with_one_sentence(capsys):
    with pytest.raises(SystemExit) as caught:  # argparse refuses it before the API sees it
        main(["damage", "--dice", "3", "--kind", "fire", "--target", "mortal"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'fire'" in err and err.count("\n") == 1


def test_cli_blows(capsys):
    argv = [
        "blows",
        "--dice",
        "2",
        "--auto",
        "1",
        "--soak",
        "3",
        "--kind",
        "lethal",
        "--target",
        "mortal",
        "--max-blows",
        "8",
        "--format",
        "csv",
        "--exact",
    ]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "blows,incapacitated_or_worse,torpor_or_worse,final_death,rule_set"
    table = hl.blows(hl.Attack(2, "lethal", 1), hl.Fighter("mortal", 3), 8).table(exact=True)
    assert len(lines) == 10 and lines[-1] == ",".join(
        ["8"]
        + [str(table[c].iloc[-1]) for c in ("incapacitated_or_worse", "torpor_or_worse", "final_death")]
        + ["classic-official"]
    )


def test_penalty_knobs():
    attack, victim = hl.Attack(2, "lethal", 1), hl.Fighter("mortal", 1)
    no_pain = hl.DamageRules(penalties=(0, 0, 0, 0, 0, 0))
    result = hl.blows(attack, victim, 3, rules=no_pain)
    standing = 1 - result.victim_roll(3, 5)["cannot_act"]
    outcomes, _ = brute_pool(5, 6)
    roll = result.victim_roll(3, 5)
    assert {k: roll[k] for k in outcomes} == {k: standing * p for k, p in outcomes.items()}
    # wound penalties come off the damage dice too, under the option
    rules = hl.DamageRules(wound_penalty_on_damage=True)
    attack = hl.Attack(3, "lethal", 0, attack_pool=4)
    got = hl.blow(attack, hl.Fighter("vampire", 1), penalty=2, rules=rules)
    assert got.levels == brute_attack(2, 6, False, 1, 0, 1, "lethal", "vampire")
    default = hl.blow(attack, hl.Fighter("vampire", 1), penalty=2)
    assert default.levels == brute_attack(2, 6, False, 3, 0, 1, "lethal", "vampire")


def test_a_fight_nobody_can_win_never_ends():
    result = hl.fight(hl.Fighter(), hl.Fighter(), turns=2)
    assert result.outcomes() == {"a_wins": 0, "b_wins": 0, "both": 0, "never": 1}
    assert result.expected_turns() is None and result.chain.is_absorbing()
