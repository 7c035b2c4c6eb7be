"""The mechanic engine: exact against every ordered roll, against the systems' own counts, and its limits."""

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from analysis.workbench import rulesets
from analysis.engine import count as engine
from analysis.model import spec
from analysis.model.spec import shipped

SHIPPED = ("v5", "werewolf", "hunter", "classic")


def mechanic(name):
    return shipped(rulesets.system(name))


def _orderings(faces) -> int:
    """How many ordered rolls show this sorted tuple of faces."""
    from math import factorial

    out = factorial(len(faces))
    for n in Counter(faces).values():
        out //= factorial(n)
    return out


def brute_classes(rules, cell):
    """Every ordered roll of the cell's dice read by ``read_roll``: exact class probabilities.

    Ordered rolls showing the same faces per kind read alike, so each multiset
    is read once and weighted by its number of orderings.
    """
    mech = rules.mechanic
    env = {**rules.params, **cell}
    dice = engine.dice_of(mech, env)
    counts = Counter()
    succ = Counter()
    per_kind = [
        list(itertools.combinations_with_replacement(range(1, k.sides + 1), n)) for k, n in zip(mech.kinds, dice)
    ]
    total = 0
    for hands in itertools.product(*per_kind):
        weight = 1
        for hand in hands:
            weight *= _orderings(hand)
        reading = engine.read_roll(rules, {k.name: list(h) for k, h in zip(mech.kinds, hands)}, **cell)
        counts[reading.outcome] += weight
        if reading.successes is not None:
            succ[reading.successes] += weight
        total += weight
    assert total == np.prod([k.sides**n for k, n in zip(mech.kinds, dice)])
    return ({c: Fraction(counts[c], total) for c in mech.classes}, {s: Fraction(w, total) for s, w in succ.items()})


def cells_up_to(mech, most_dice, params=None):
    """Cells whose rolls have at most ``most_dice`` dice (under ``params``), over small axis values."""
    params = mech.defaults() if params is None else params
    small = {a.name: range(a.range[0], min(a.range[1], a.range[0] + 5) + 1) for a in mech.axes}
    if "difficulty" in small and mech.name != "classic":
        small["difficulty"] = range(0, 4)
    if "violent" in small:
        small["violent"] = (1,)  # the violent action reads every rule; the other is the same minus the bonus
    return cells_within(mech, params, small, most_dice)


def cells_within(mech, params, values, most_dice):
    """Every cell of the product of ``values`` (``{axis: values}``) rolling at most ``most_dice`` dice."""
    out = []
    for combo in itertools.product(*values.values()):
        cell = dict(zip(values, combo))
        try:
            n = sum(engine.dice_of(mech, {**params, **cell}))
        except spec.MechanicError:
            continue
        if n <= most_dice:
            out.append(cell)
    return out


@pytest.mark.parametrize("name", SHIPPED)
def test_engine_equals_read_roll_on_every_ordered_roll(name):
    """Every cell of up to 2 dice here; the slow tier's twin takes 3 and 4 dice."""
    mech = mechanic(name)
    rules = engine.rules_of(mech)
    cells = cells_up_to(mech, 2)
    assert cells
    for cell in cells:
        o = engine.odds(rules, **cell)
        classes, succ = brute_classes(rules, cell)
        assert o.classes() == classes, cell
        assert o.successes == succ, cell


@pytest.mark.slow
@pytest.mark.parametrize("name", SHIPPED)
def test_engine_equals_read_roll_with_three_and_four_dice(name):
    mech = mechanic(name)
    rules = engine.rules_of(mech)
    for cell in cells_up_to(mech, 4):
        if sum(engine.dice_of(mech, {**rules.params, **cell})) < 3:
            continue
        o = engine.odds(rules, **cell)
        assert (o.classes(), o.successes) == brute_classes(rules, cell), cell


HOUSE = {
    "v5": [
        {"crit_bonus": 1},
        {"messy_hunger_tens": 2, "bestial_hunger_ones": 2},
        {"hunger_one_taints_win": True},
        {"hunger_replaces_dice": False, "success_face": 8},
    ],
    "werewolf": [{"brutal_bonus": 2}, {"rage_replaces_dice": False, "brutal_rage_dice": 1}],
    "hunter": [{"critical_ignores_desperation": True}, {"desperation_replaces_dice": True, "despair_ones": 2}],
    "classic": [{"ones_cancel": False}, {"specialty": True}],
}


@pytest.mark.parametrize("name,changes", [(n, c) for n, cs in HOUSE.items() for c in cs])
def test_house_rules_read_every_roll_alike(name, changes):
    mech = mechanic(name)
    rules = engine.rules_of(mech, changes)
    for cell in cells_up_to(mech, 2, rules.params)[::3]:
        o = engine.odds(rules, **cell)
        assert (o.classes(), o.successes) == brute_classes(rules, cell), (changes, cell)


def test_classes_sum_to_one_and_columns_are_their_sums():
    for name in SHIPPED:
        mech = mechanic(name)
        df = engine.table(engine.rules_of(mech), exact=True)
        assert (df[list(mech.classes)].sum(axis=1) == 1).all()
        for col in mech.columns:
            assert (df[col.name] == df[list(col.classes)].sum(axis=1)).all()


def test_floats_are_the_floats_of_the_fractions():
    rules = engine.rules_of(mechanic("v5"))
    exact = engine.table(rules, exact=True, pool="14-20", hunger="0-5", difficulty="1-9")
    floats = engine.table(rules, pool="14-20", hunger="0-5", difficulty="1-9")
    for col in ("plain_win", "messy_critical", "p_win"):
        assert [float(x) for x in exact[col]] == list(floats[col])


def test_past_int64_the_modular_path_is_exact():
    """20 dice pass 2**63: primes and CRT; equal to a Python-int count by generating function."""
    rules = engine.rules_of(mechanic("classic"))
    o = engine.odds(rules, pool=22, difficulty=6)
    assert o.denominator == 10**22
    # ones cancel: net = successes - ones; count by a polynomial in Python ints (x: net, y: a success seen)
    poly = {(0, False): 1}
    for _ in range(22):
        nxt = Counter()
        for (net, seen), w in poly.items():
            nxt[(net - 1, seen)] += w  # a one
            nxt[(net, seen)] += 4 * w  # 2..5
            nxt[(net + 1, True)] += 5 * w  # 6..10
        poly = nxt
    botch = sum(w for (net, seen), w in poly.items() if not seen and net < 0)
    success = sum(w for (net, _), w in poly.items() if net >= 1)
    assert o.class_ways["botch"] == botch and o.class_ways["success"] == success


def test_a_roll_no_rule_matches_is_refused_with_its_counts():
    text = """
[mechanic]
name = "gappy"
[axes]
pool = { default = "1-3", range = [0, 10] }
[kinds.d]
dice = "pool"
faces = { miss = "1..5", hit = "6..10" }
[[outcomes]]
name = "two"
when = "hit >= 2"
[[outcomes]]
name = "none"
when = "hit == 0"
"""
    rules = engine.rules_of(spec.from_toml(text, "gappy.toml"))
    assert engine.odds(rules, pool=0).classes() == {"two": 0, "none": 1}
    with pytest.raises(spec.MechanicError, match=r"gappy.toml: no outcome rule matches the roll with hit=1"):
        engine.odds(rules, pool=1)


def test_a_grid_past_the_limit_is_refused_before_any_work(monkeypatch):
    monkeypatch.setattr(engine, "MAX_GRID", 1000)
    rules = engine.rules_of(mechanic("classic"))
    with pytest.raises(spec.MechanicError, match="count states"):
        engine.odds(rules, pool=40, difficulty=6)


def test_read_roll_reads_the_official_v5_example():
    rules = engine.rules_of(mechanic("v5"))
    r = engine.read_roll(rules, {"normal": [10, 5, 7, 2], "hunger": [10, 1]}, difficulty=4)
    assert r.outcome == "messy_critical" and r.successes == 5 and r.won


def test_meanings_follow_the_parameters():
    mech = mechanic("v5")
    assert "at least 1 of the 10s on Hunger dice" in mech.meanings()["messy_critical"]
    assert "at least 2 of the 10s" in mech.meanings({"messy_hunger_tens": 2})["messy_critical"]
    assert "house rule" in mech.meanings({"hunger_one_taints_win": True})["failure"]
    assert "house rule" not in mech.meanings()["failure"]


def test_dice_counts_out_of_range_are_refused():
    text = """
[mechanic]
name = "neg"
[axes]
pool = { default = "1-3", range = [0, 10] }
[kinds.d]
dice = "pool - 5"
faces = { hit = "1..10" }
[[outcomes]]
name = "any"
"""
    rules = engine.rules_of(spec.from_toml(text, "neg.toml"))
    with pytest.raises(spec.MechanicError, match="would roll -4 dice at pool=1"):
        engine.odds(rules, pool=1)


def test_a_shipped_systems_legend_follows_its_house_rule():
    from analysis.present.tables import rule_meanings

    official = rulesets.load("v5-official")
    assert rule_meanings(official) == {}  # the official wording stays
    messy = rulesets.load("v5-two-hunger-tens-for-messy")
    assert "at least 2 of the 10s on Hunger dice" in rule_meanings(messy)["messy_critical"]
    bestial = rulesets.load("v5-two-hunger-ones-for-bestial")
    assert "2 or more Hunger dice show 1" in rule_meanings(bestial)["bestial_failure"]


def test_a_table_handed_out_is_the_callers_to_change():
    # the engine keeps each table it made and hands out copies (shallow where pandas copies on write):
    # a caller's changes never reach the next caller
    from analysis.workbench import rulesets
    from analysis.engine import count as engine
    from analysis.model.spec import shipped

    rules = engine.rules_of(shipped(rulesets.system("v5")))
    engine.clear_caches()
    first = engine.table(rules, pool="1-3", hunger="0-1", difficulty="1-2")
    want = first.copy(deep=True)
    first.iloc[0, 3] = -1.0
    first["pool"] += 100
    again = engine.table(rules, pool="1-3", hunger="0-1", difficulty="1-2")
    assert again.equals(want)
    again.iloc[:, 4] = 7.0
    assert engine.table(rules, pool="1-3", hunger="0-1", difficulty="1-2").equals(want)
    # nor do changes to its labels' names (the column labels of a mechanic's tables are kept)
    again.columns.name, again.index.name = "renamed", "rows"
    engine.clear_caches()
    for grid in ({"pool": "1-3", "hunger": "0-1", "difficulty": "1-2"}, {"pool": "2", "hunger": "0-2"}):
        fresh = engine.table(rules, **grid)
        assert fresh.columns.name is None and fresh.index.name is None
    assert engine.table(rules, pool="1-3", hunger="0-1", difficulty="1-2").columns.name is None
