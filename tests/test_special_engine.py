"""The 5th-edition engine: one class lookup for the kernels and read_roll, and exact paths that agree."""
import itertools
from collections import Counter

import numpy as np
import pytest

from analysis import exact
from analysis import special_dice as sd
from analysis.systems.hunter import desperation as hunter
from analysis.systems.v5 import roll as v5
from analysis.systems.werewolf import rage as werewolf
from kernels import special as ks
from kernels import v5 as kv5
from tests import oracles


def test_v5_class_table_is_the_v5_rules_on_every_feature():
    # the kernel lookup against the independent restatement of the V5 rules
    for messy, bestial, taint in itertools.product((1, 2), (1, 2), (0, 1)):
        table = kv5.v5_class_table(messy, bestial, taint)
        bonus = kv5.v5_mark_bonus()
        for s, tens, ec, oc, d in itertools.product(range(8), range(4), range(3), range(3), range(6)):
            got = v5.CLASSES[ks.classify_one(s, int(tens >= 2), ec, oc, d, bonus, table)]
            want = oracles.classify_v5(s, tens, ec, oc, d, messy_hunger_tens=messy,
                                       bestial_hunger_ones=bestial, hunger_one_taints_win=bool(taint))
            assert got == want, (messy, bestial, taint, s, tens, ec, oc, d)


def _read_roll_counts(read, classes, n_normal, n_special, difficulty):
    """Ways per class from reading every ordered roll of the dice with the Python read_roll."""
    out = Counter()
    for faces in itertools.product(range(1, 11), repeat=n_normal + n_special):
        out[read(list(faces[:n_normal]), list(faces[n_normal:]), difficulty).outcome] += 1
    return [out[c] for c in classes]


CASES = [
    pytest.param("v5", lambda rules: (lambda n, s, d: v5.read_roll(n, s, d, rules)), v5.CLASSES,
                 [v5.OFFICIAL, v5.V5Rules(messy_hunger_tens=2, bestial_hunger_ones=2, hunger_one_taints_win=True)],
                 marks=pytest.mark.slow, id="v5"),
    pytest.param("werewolf", lambda rules: (lambda n, s, d: werewolf.read_roll(n, s, d, False, rules)),
                 werewolf.CLASSES, [werewolf.OFFICIAL, werewolf.WerewolfRules(brutal_rage_dice=1)],
                 marks=pytest.mark.slow, id="werewolf"),
    pytest.param("werewolf-violent", lambda rules: (lambda n, s, d: werewolf.read_roll(n, s, d, True, rules)),
                 werewolf.CLASSES, [werewolf.OFFICIAL, werewolf.WerewolfRules(brutal_bonus=2, success_face=8)],
                 marks=pytest.mark.slow, id="werewolf-violent"),
    pytest.param("hunter", lambda rules: (lambda n, s, d: hunter.read_roll(n, s, d, rules)), hunter.CLASSES,
                 [hunter.OFFICIAL, hunter.HunterRules(critical_ignores_desperation=True, despair_ones=2)],
                 marks=pytest.mark.slow, id="hunter"),
]


def _kernel_class_ways(name, rules, n_normal, n_special, difficulty):
    if name == "v5":  # V5 is counted by the mechanic engine (its pair-of-tens path)
        from analysis.mechanic import engine

        cell = dict(pool=n_normal + n_special, hunger=n_special, difficulty=difficulty)
        (ways,) = engine.count_cells(v5.mechanic_rules(rules), [cell])
        return list(ways.class_ways)
    engine = rules.engine(name.endswith("violent")) if name.startswith("werewolf") else rules.engine()
    _, classes, _ = sd.counts(engine, n_normal, n_special, (difficulty,))
    return [int(w) for w in classes[0]]


@pytest.mark.parametrize("name,reader,classes,rule_sets", CASES,
                         ids=[getattr(c, "id", None) or c[0] for c in CASES])
def test_python_read_roll_and_the_kernel_agree_on_every_small_roll(name, reader, classes, rule_sets):
    # every ordered roll of up to 4 dice read one by one in Python, against the grid kernel's class ways
    for rules in rule_sets:
        read = reader(rules)
        for n_normal, n_special in itertools.product(range(3), range(4)):
            if n_normal + n_special > 4:
                continue
            for difficulty in range(0, 6):
                want = _read_roll_counts(read, classes, n_normal, n_special, difficulty)
                got = _kernel_class_ways(name, rules, n_normal, n_special, difficulty)
                assert got == want, (name, rules, n_normal, n_special, difficulty)


@pytest.mark.parametrize("engine", [werewolf.OFFICIAL.engine(False), werewolf.OFFICIAL.engine(True),
                                    hunter.OFFICIAL.engine(), werewolf.WerewolfRules(
                                        rage_replaces_dice=False).engine(True)])
def test_int64_and_modular_paths_agree(engine):
    # pool 18 fits int64: the plain and the forced modular (CRT) paths give the same integers
    for n_normal, n_special in ((18, 0), (15, 3), (13, 5)):
        a_ways, a_cls, den = sd.counts(engine, n_normal, n_special, (0, 1, 5, 9, 14, 30))
        b_ways, b_cls, _ = sd.counts(engine, n_normal, n_special, (0, 1, 5, 9, 14, 30), True)
        assert a_cls.dtype == np.int64 and b_cls.dtype == object
        assert a_ways.tolist() == b_ways.tolist() and a_cls.tolist() == b_cls.tolist()
        assert all(sum(row) == den for row in a_cls.tolist())


def test_big_pools_take_the_modular_path_exactly():
    # pool 40: 10**40 ways do not fit int64; the grid kernel and the per-roll count agree through CRT
    for mod_system, kw in ((werewolf, {"violent": 1}), (hunter, {})):
        special = "rage" if mod_system is werewolf else "desperation"
        df = mod_system.table(40, 5, 20, exact=True, **kw)
        o = mod_system.odds(40, 5, 20, **kw)
        row = df.iloc[0]
        assert [row[c] for c in mod_system.CLASSES] == list(o.classes().values())
        assert sum(o.classes().values()) == 1
        assert o.denominator > exact.INT64_MAX
        assert max(o.class_ways.values()) > exact.INT64_MAX
        assert row[special] == 5


def test_engine_refuses_a_bad_table():
    with pytest.raises(ValueError):
        sd.Engine.of((5, 4, 1), (1, 4, 4, 1), 2, (0, 0, 0), np.zeros((3, 2, 3, 2)), 6, True)
    with pytest.raises(ValueError):
        sd.Engine.of((5, 4, 1), (1, 4, 4, 2), 2, (0, 0, 0), np.zeros((3, 2, 3, 3)), 6, True)
