"""A rule set's smaller statistics grid (simplified, fused, capped) counts exactly what the full grid counts."""

import pytest

from analysis.workbench import rulesets
from analysis.engine import count as engine
from analysis.model import spec
from analysis.model.spec import shipped

from tests.test_mechanic_engine import HOUSE, SHIPPED, cells_within


def unreduced(rules, cells):
    """The engine on the mechanic's own statistics (one per mark read, uncapped): the reference."""
    original = engine._stats
    engine.clear_caches()
    engine._stats = lambda mech, *values: original(mech)
    try:
        return engine.count_cells(rules, cells)
    finally:
        engine._stats = original
        engine.clear_caches()


def grid_cells(mech, params, per_axis=4, most_dice=9):
    """Cells over a spread of each axis's values, with at most ``most_dice`` dice."""
    values = {}
    for a in mech.axes:
        lo, hi = a.range
        values[a.name] = sorted({lo, hi, *range(lo, hi + 1, max(1, (hi - lo) // per_axis))})
    small = {a.name: range(a.range[0], min(a.range[1], a.range[0] + 3) + 1) for a in mech.axes}
    return cells_within(mech, params, values, most_dice) + cells_within(mech, params, small, most_dice)


def assert_same(rules, cells):
    assert cells
    got = engine.count_cells(rules, cells)
    want = unreduced(rules, cells)
    for cell, g, w in zip(cells, got, want):
        assert (g.class_ways, g.success_ways, g.denominator) == (w.class_ways, w.success_ways, w.denominator), cell


@pytest.mark.parametrize(
    "name,changes",
    [(n, {}) for n in SHIPPED]
    + [(n, c) for n, cs in HOUSE.items() for c in cs]
    + [("classic", {"specialty": True, "ones_cancel": False})],
)
def test_every_shipped_rule_set_counts_alike_on_the_smaller_grid(name, changes):
    mech = shipped(rulesets.system(name))
    rules = engine.rules_of(mech, changes)
    assert_same(rules, grid_cells(mech, rules.params))


def test_classic_grids():
    mech = shipped(rulesets.system("classic"))
    stats = lambda **ch: engine._stats(mech, engine.rules_of(mech, ch).values)
    official = stats()
    assert official.names == ("one", "success+ten") and official.caps == (None, None)
    assert stats(ones_cancel=False).caps == (1, None)  # 1s only make the botch: one >= 1
    special = stats(specialty=True)
    assert special.names == ("one", "success+2*ten") and special.weights[1] == (1, 2)
    # the grid of a 200-dice pool: 201 x 201 (x 401 with a specialty) cells, not 201**3
    faces = engine.faces_of(mech, {"difficulty": 6})
    assert engine._layout(mech, official, faces, (200,))[3] == (201, 201)
    assert engine._layout(mech, special, faces, (200,))[3] == (201, 401)
    assert engine._layout(mech, stats(ones_cancel=False), faces, (200,))[3] == (2, 201)


# ------------------------------------------------------------------ hand-written mechanics


def toy(counts: str, outcomes: list, successes="net", parameters=""):
    """A one-kind d10 mechanic: marks one (1), fail (2..difficulty-1), success (difficulty..9), ten (10)."""
    rules = "\n".join(f'[[outcomes]]\nname = "{n}"\n' + (f'when = "{w}"\n' if w else "") for n, w in outcomes)
    text = f'''
[mechanic]
name = "toy"
title = "toy"
source = "tests"
description = "a test mechanic"
{f'successes = "{successes}"' if successes else ""}

[parameters]
{parameters}

[axes]
pool = {{ default = "1-3", range = [0, 12] }}
difficulty = {{ default = "6", range = [2, 10] }}

[kinds.die]
dice = "pool"
faces = {{ one = "1", fail = "2 .. difficulty - 1", success = "difficulty .. 9", ten = "10" }}

[counts]
{counts}

{rules}
'''
    return spec.from_toml(text, source="toy.toml")


def toy_cells():
    return [{"pool": p, "difficulty": d} for p in (0, 1, 2, 3, 5, 8, 12) for d in (2, 3, 6, 9, 10)]


def check(mech, changes=None):
    rules = engine.rules_of(mech, changes)
    assert_same(rules, toy_cells())
    return engine._stats(mech, rules.values)


def test_unequal_coefficients_do_not_fuse():
    s = check(toy('net = "success + 2 * ten - one"', [("win", "success + ten >= 2"), ("fail", None)]))
    assert set(s.names) == {"one", "success", "ten"} and s.caps == (None, None, None)


def test_a_zero_test_fits_any_positive_weights_but_not_a_threshold():
    s = check(toy('net = "success + 2 * ten - one"', [("botch", "success + ten == 0 and one >= 1"), ("fail", None)]))
    assert set(s.names) == {"one", "success+2*ten"}
    s = check(toy('net = "success + 2 * ten - one"', [("botch", "success + ten <= 1 and one >= 1"), ("fail", None)]))
    assert set(s.names) == {"one", "success", "ten"}
    # a negative coefficient is no zero test of a positive sum
    s = check(toy('net = "success + 2 * ten"', [("odd", "success - ten == 0"), ("fail", None)]))
    assert set(s.names) == {"success", "ten"}


def test_a_statistic_read_twice_in_one_sum_or_alone_does_not_fuse():
    s = check(toy('net = "success + ten + success - one"', [("win", "net >= 1"), ("fail", None)]))
    assert "success" in s.names and "ten" in s.names
    s = check(toy('net = "success + ten"', [("win", "net >= 1"), ("tens", "ten >= 2"), ("fail", None)]))
    assert "success" in s.names and s.caps[s.names.index("ten")] is None
    # fused and then capped: read only as (success + ten) >= 2
    s = check(toy('net = "one"', [("win", "success + ten >= 2"), ("fail", None)]))
    assert s.names == ("one", "success+ten") and s.caps == (None, 2)


def test_caps_follow_the_operator_and_the_other_side():
    for text, cap in [
        ("one >= 2", 2),
        ("one > 2", 3),
        ("one < 2", 2),
        ("one <= 2", 3),
        ("one == 2", 3),
        ("one != 2", 3),
        ("2 <= one", 2),
        ("2 < one", 3),
        ("-3 <= one", 0),
        ("1 < one < 3", 3),
        ("one >= 1 or one == difficulty", 11),
        ("one > difficulty - 4", 7),
    ]:
        s = check(toy('net = "success + ten"', [("botch", text), ("fail", None)]))
        assert s.caps[s.names.index("one")] == cap, text


def test_no_cap_where_the_other_side_reads_a_statistic_or_the_operand_is_not_bare():
    for text in ["one >= success", "one * 2 >= 3", "max(one, 1) >= 2", "one + 0 * ten >= 1 and ten == 0"]:
        s = check(toy('net = "success + ten"', [("botch", text), ("fail", None)]))
        assert s.caps[s.names.index("one")] is None, text
    # a count reading a statistic is a side that reads a statistic
    s = check(toy('net = "success + ten"\nrolled = "success"', [("botch", "one >= rolled"), ("fail", None)]))
    assert s.caps[s.names.index("one")] is None
    # the successes themselves are read as a value
    s = check(toy('x = "one >= 1"', [("botch", "x"), ("fail", None)], successes="one"))
    assert s.caps[s.names.index("one")] is None


def test_parameters_fold_away():
    params = 'bonus = { default = 1, range = [0, 3] }\nharsh = { default = false }'
    mech = toy(
        'net = "max(0, success + ten * (bonus + 1) - (one if harsh else 0))"',
        [("botch", "success + ten == 0 and one >= (2 if harsh else 1)"), ("win", "net >= 1"), ("fail", None)],
        parameters=params,
    )
    assert set(check(mech).names) == {"one", "success+2*ten"}
    assert check(mech).caps[check(mech).names.index("one")] == 1
    s = check(mech, {"bonus": 0, "harsh": True})
    assert set(s.names) == {"one", "success+ten"} and s.caps == (None, None)
    s = check(mech, {"bonus": 2, "harsh": True})
    assert set(s.names) == {"one", "success+3*ten"}


def test_a_refused_division_stays_refused():
    mech = toy(
        'net = "success + ten"\nz = "0"',
        [("odd", "false and success // z == 1"), ("bad", "success // z == 1 and false"), ("fail", None)],
    )
    rules = engine.rules_of(mech)
    with pytest.raises(Exception, match="division by zero"):
        engine.count_cells(rules, [{"pool": 2, "difficulty": 6}])


def test_an_unmatched_roll_names_a_capped_statistic_as_a_bound():
    mech = toy('net = "success + ten"', [("botch", "one == 0"), ("win", "one >= 3")])
    with pytest.raises(spec.MechanicError, match="one=1"):
        engine.count_cells(engine.rules_of(mech), [{"pool": 2, "difficulty": 6}])
    mech = toy('net = "success + ten"', [("botch", "one == 0"), ("win", "one == 1")])
    with pytest.raises(spec.MechanicError, match="one>=2"):
        engine.count_cells(engine.rules_of(mech), [{"pool": 3, "difficulty": 6}])


def test_a_count_that_sums_statistics_is_read_as_that_sum():
    # ones = one: read only by ones >= 1, so one is capped at 1 (a count reading it once hid that)
    s = check(toy('net = "success + ten"\nones = "one"', [("botch", "net == 0 and ones >= 1"), ("fail", None)]))
    assert s.caps[s.names.index("one")] == 1
    assert "ones" not in dict(s.counts)  # written where it is read
    # tens = ten: the sum net reads it through the count, so success and ten fuse
    s = check(toy('tens = "ten"\nnet = "success + tens"', [("win", "net >= 2"), ("fail", None)]))
    assert s.names == ("success+ten",)
    # the successes' own count is kept (its value is the histogram's), though it is a sum
    s = check(toy('net = "success + ten"', [("win", "net >= 2"), ("fail", None)]))
    assert "net" in dict(s.counts)


def test_a_zero_test_beside_a_sum_reads_a_flag_and_the_sum_fuses():
    # ten is in the sum net and in a zero test: a flag (any ten, capped at 1) answers the test
    s = check(toy('net = "success + ten"', [("clean", "net >= 2 and ten == 0"), ("win", "net >= 2"), ("fail", None)]))
    assert set(s.names) == {"any(ten)", "success+ten"} and s.caps[s.names.index("any(ten)")] == 1
    # the same through counts, and a zero test over two marks (>= 1 is a zero test too)
    s = check(
        toy(
            'tens = "ten"\nlow = "one + success"\nnet = "low + tens"',
            [("mixed", "net >= 3 and one + success >= 1"), ("win", "net >= 3"), ("fail", None)],
        )
    )
    assert set(s.names) == {"any(one+success)", "one+success+ten"}
    # no flag where the statistics read alike anyway (both in the zero test): they fuse as before
    s = check(toy('net = "success + ten"', [("nil", "net == 0"), ("fail", None)]))
    assert s.names == ("success+ten",)
    # no flag for a threshold (ten >= 2 is not a zero test): ten stays a statistic of its own
    s = check(toy('net = "success + ten"', [("wild", "net >= 2 and ten >= 2"), ("fail", None)]))
    assert set(s.names) == {"success", "ten"}


SOIF = "analysis/systems/requiem/soif.toml"


@pytest.mark.parametrize(
    "changes",
    [{}, {"again": 8, "rote": True, "bestial_counts_rerolled_ones": True, "rote_chance_die": True}, {"again": 11}],
)
def test_la_soif_file_has_a_small_grid(changes):
    """La Soif's file: every count that is a sum is read as one, the normal dice's tens and the chance
    Beast die's 10 answer their zero tests through flags, and what remains is one sum of the plain
    successes (dice that roll again: open), the Beast dice's tens and their rerolled successes, and
    flags capped at 1: no statistic ranges over the dice, but the Beast dice's tens.  (The full grid
    is too big to count as a reference here: tests/test_beast_oracle.py holds La Soif's counts to brute
    force, and tests/test_beast_api.py pins the tables its again-dice counter of old gave.)"""
    mech = spec.load(SOIF)
    rules = engine.rules_of(mech, changes)
    stats = engine._stats(mech, rules.values)
    uncapped = [n for n, c in zip(stats.names, stats.caps) if c is None]
    assert len(uncapped) == 3 and "beast.ten_again+beast.ten+beast_first_one.ten_again+beast_first_one.ten" in uncapped
