"""The engine's pair-of-tens fast path: taken only where the rules prove the shape, and equal to the general grid."""

import itertools
from fractions import Fraction

import pytest

from analysis.workbench import rulesets
from analysis.engine import count as engine, pairs
from analysis.model import spec
from analysis.model.spec import shipped
from tests.test_mechanic_engine import brute_classes


def cells(mech, pools, most_special=3):
    axes = {
        a.name: (pools if a.name == "pool" else range(a.range[0], min(a.range[1], most_special) + 1)) for a in mech.axes
    }
    axes["difficulty"] = range(0, 7)
    return [dict(zip(axes, c)) for c in itertools.product(*axes.values())]


@pytest.mark.parametrize(
    "name,changes",
    [
        ("v5", {}),
        ("v5", {"crit_bonus": 1, "hunger_one_taints_win": True}),
        ("v5", {"hunger_replaces_dice": False, "messy_hunger_tens": 2, "bestial_hunger_ones": 2}),
        ("werewolf", {}),
        ("werewolf", {"rage_replaces_dice": False, "brutal_rage_dice": 1, "brutal_bonus": 7}),
        ("hunter", {}),
        ("hunter", {"critical_ignores_desperation": True, "success_face": 9}),
    ],
)
def test_the_shipped_5th_edition_mechanics_take_it_and_agree_with_the_grid(name, changes):
    mech = shipped(rulesets.system(name))
    assert pairs.form(mech) is not None
    rules = engine.rules_of(mech, changes)
    grid = cells(mech, range(0, 9))
    assert pairs.count(rules, grid) is not None
    assert engine.count_cells(rules, grid) == engine.count_cells(rules, grid, general=True)


def test_classic_pools_are_not_of_that_shape():
    assert pairs.form(shipped(rulesets.system("classic"))) is None


BASE = """
[mechanic]
name = "almost"
successes = "successes"
[parameters]
bonus = {{ default = 2, range = [0, 5] }}
[axes]
pool = {{ default = "1-4", range = [0, 20] }}
hunger = {{ default = "0-1", range = [0, {top}] }}
difficulty = {{ default = "1-3", range = [0, 30] }}
[kinds.normal]
dice = "pool - min(hunger, pool)"
faces = {{ fail = "1..5", success = "6..9", ten = "10" }}
[kinds.hunger]
dice = "min(hunger, pool)"
faces = {{ one = "1", fail = "2..5", success = "6..9", ten = "10" }}
[counts]
successes = "{count}"
[[outcomes]]
name = "special"
when = "{special}"
[[outcomes]]
name = "win"
when = "successes >= difficulty"
win = true
[[outcomes]]
name = "miss"
"""


def mechanic(count="success + ten + bonus * floor(ten / 2)", special="false", top=3):
    return spec.from_toml(BASE.format(count=count, special=special, top=top), "almost.toml")


@pytest.mark.parametrize(
    "count,special,top,fast",
    [
        ("success + ten + bonus * floor(ten / 2)", "hunger.one >= 1 and successes < difficulty", 3, True),
        ("success + ten + bonus * floor(ten / 2)", "hunger.ten >= 2 and ten >= 2", 3, True),
        # a rule the four features cannot tell: refused by the syntax
        ("success + ten + bonus * floor(ten / 2)", "successes > difficulty", 3, False),
        ("success + ten + bonus * floor(ten / 2)", "ten >= 3", 3, False),
        ("success + ten + bonus * floor(ten / 2)", "successes == 2", 3, False),
        ("success + 2 * ten", "false", 3, False),
        ("success + ten + bonus * floor(ten / 3)", "false", 3, False),
        ("success + ten + bonus * floor(ten / 2) - hunger.one", "false", 3, False),
        ("success + ten + bonus * floor(ten / 2)", "difficulty >= 3 and hunger.one >= 1", 3, False),
        # syntax allows it, the exhaustive check refuses it: 3 Hunger 1s are not 2
        ("success + ten + bonus * floor(ten / 2)", "hunger.one >= 3", 3, False),
        ("success + ten + bonus * floor(ten / 2)", "hunger.one >= 3", 2, True),
        # a bonus that reads the marks up to 2: fine; up to 3: refused
        ("success + ten + bonus * floor(ten / 2) + (3 if hunger.one >= 2 else 0)", "false", 4, True),
        ("success + ten + bonus * floor(ten / 2) + (3 if hunger.one >= 3 else 0)", "false", 4, False),
    ],
)
def test_the_fast_path_is_taken_only_where_it_is_exact(count, special, top, fast):
    mech = mechanic(count, special, top)
    rules = engine.rules_of(mech)
    grid = [dict(pool=p, hunger=h, difficulty=d) for p in (0, 1, 2, 4) for h in range(0, top + 1) for d in range(0, 5)]
    got = pairs.count(rules, grid)
    assert (got is not None) == fast
    general = engine.count_cells(rules, grid, general=True)
    assert engine.count_cells(rules, grid) == general
    for cell, ways in [(c, w) for c, w in zip(grid, general) if c["pool"] <= 2][::6]:
        classes, succ = brute_classes(rules, cell)
        assert {c: Fraction(w, ways.denominator) for c, w in zip(mech.classes, ways.class_ways)} == classes


def test_big_pools_are_exact_by_the_fast_path():
    rules = engine.rules_of(shipped(rulesets.system("v5")))
    o = engine.odds(rules, pool=1000, hunger=5, difficulty=333)
    assert o.denominator == 10**1000 and sum(o.class_ways.values()) == 10**1000
    # p_win against the success distribution, summed apart from the classes
    assert o.p_win == sum(p for s, p in o.successes.items() if s >= 333)


@pytest.mark.parametrize(
    "name,changes",
    [("v5", {}), ("v5", {"hunger_replaces_dice": False}), ("werewolf", {"brutal_rage_dice": 1}), ("hunter", {})],
)
def test_a_whole_grid_in_one_call_equals_the_cells_counted_one_by_one(name, changes):
    mech = shipped(rulesets.system(name))
    rules = engine.rules_of(mech, changes)
    grid = {a.name: list(range(a.range[0], min(a.range[1], 3) + 1)) for a in mech.axes}
    grid["pool"] = [0, 1, 2, 5, 13, 29]  # 29 dice: past int64, the primes
    grid["difficulty"] = [0, 1, 4, 9]
    ways, dens = pairs.class_grid(rules, grid)
    cells = [dict(zip(grid, c)) for c in itertools.product(*grid.values())]
    one_by_one = engine.count_cells(rules, cells, general=False)
    assert [tuple(w) for w in ways.tolist()] == [c.class_ways for c in one_by_one]
    assert list(dens) == [c.denominator for c in one_by_one]


def test_the_engine_enters_the_pair_path_from_one_place():
    """``analysis.engine.count`` reads the pair-of-tens module only in ``_pair_path`` (and forgets its caches
    in ``clear_caches``): the fast path is chosen in one place."""
    import ast
    import inspect

    from analysis.engine import count

    tree = ast.parse(inspect.getsource(count))
    where = set()
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef):
            for node in ast.walk(fn):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "pairs":
                    where.add(fn.name)
    assert where == {"_pair_path", "clear_caches"}, where
