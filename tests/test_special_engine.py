"""The 5th-edition dice: one class lookup for the kernels and read_roll, and exact paths that agree.

V5 is counted by its own kernels; Werewolf and Hunter by the mechanic engine
(their ``mechanic.toml``), checked here against the rules restated in
``tests.oracles_special`` on every small roll.
"""

import itertools
from collections import Counter

import pytest

from analysis.engine import exact
from analysis.systems.hunter import desperation as hunter
from analysis.systems.v5 import roll as v5
from analysis.systems.werewolf import rage as werewolf
from kernels import special as ks
from tests import oracles
from tests import oracles_special
from tests import oracles_v5_kernels as kv5


def test_v5_class_table_is_the_v5_rules_on_every_feature():
    # the kernel lookup against the independent restatement of the V5 rules
    for messy, bestial, taint in itertools.product((1, 2), (1, 2), (0, 1)):
        table = kv5.v5_class_table(messy, bestial, taint)
        bonus = kv5.v5_mark_bonus()
        for s, tens, ec, oc, d in itertools.product(range(8), range(4), range(3), range(3), range(6)):
            got = v5.CLASSES[ks.classify_one(s, int(tens >= 2), ec, oc, d, bonus, table)]
            want = oracles.classify_v5(
                s,
                tens,
                ec,
                oc,
                d,
                messy_hunger_tens=messy,
                bestial_hunger_ones=bestial,
                hunger_one_taints_win=bool(taint),
            )
            assert got == want, (messy, bestial, taint, s, tens, ec, oc, d)


def _orderings(faces) -> int:
    """How many ordered rolls show this sorted tuple of faces."""
    from math import factorial

    out = factorial(len(faces))
    for n in Counter(faces).values():
        out //= factorial(n)
    return out


def _read_roll_counts(read, classes, n_normal, n_special, difficulty, per_multiset=False):
    """Ways per class from reading every ordered roll of the dice with the Python read_roll.

    ``per_multiset``: rolls showing the same faces on each kind of die are
    read once, weighted by their number of orderings (the mechanic engine's
    ``read_roll`` evaluates the rules file and is too slow to read 10**4
    rolls six times over).
    """
    out = Counter()
    if per_multiset:
        hands = itertools.product(
            itertools.combinations_with_replacement(range(1, 11), n_normal),
            itertools.combinations_with_replacement(range(1, 11), n_special),
        )
        for normal, special in hands:
            out[read(list(normal), list(special), difficulty).outcome] += _orderings(normal) * _orderings(special)
        assert sum(out.values()) == 10 ** (n_normal + n_special)
        return [out[c] for c in classes]
    for faces in itertools.product(range(1, 11), repeat=n_normal + n_special):
        out[read(list(faces[:n_normal]), list(faces[n_normal:]), difficulty).outcome] += 1
    return [out[c] for c in classes]


CASES = [
    pytest.param(
        "v5",
        lambda rules: lambda n, s, d: v5.read_roll(n, s, d, rules),
        v5.CLASSES,
        [v5.OFFICIAL, v5.V5Rules(messy_hunger_tens=2, bestial_hunger_ones=2, hunger_one_taints_win=True)],
        marks=pytest.mark.slow,
        id="v5",
    ),
    pytest.param(
        "werewolf",
        lambda rules: lambda n, s, d: werewolf.read_roll(n, s, d, False, rules),
        werewolf.CLASSES,
        [werewolf.OFFICIAL, werewolf.WerewolfRules(brutal_rage_dice=1)],
        marks=pytest.mark.slow,
        id="werewolf",
    ),
    pytest.param(
        "werewolf-violent",
        lambda rules: lambda n, s, d: werewolf.read_roll(n, s, d, True, rules),
        werewolf.CLASSES,
        [werewolf.OFFICIAL, werewolf.WerewolfRules(brutal_bonus=2, success_face=8)],
        marks=pytest.mark.slow,
        id="werewolf-violent",
    ),
    pytest.param(
        "hunter",
        lambda rules: lambda n, s, d: hunter.read_roll(n, s, d, rules),
        hunter.CLASSES,
        [hunter.OFFICIAL, hunter.HunterRules(critical_ignores_desperation=True, despair_ones=2)],
        marks=pytest.mark.slow,
        id="hunter",
    ),
]


def _engine_odds(name, rules, n_normal, n_special, difficulty):
    """The system's odds of exactly ``n_normal`` normal and ``n_special`` special dice (Werewolf, Hunter)."""
    if name.startswith("werewolf"):
        pool, rage = (n_normal + n_special, n_special) if rules.rage_replaces_dice else (n_normal, n_special)
        o = werewolf.odds(pool, rage, difficulty, name.endswith("violent"), rules)
    else:
        pool, desperation = (
            (n_normal + n_special, n_special) if rules.desperation_replaces_dice else (n_normal, n_special)
        )
        o = hunter.odds(pool, desperation, difficulty, rules)
    assert o.kind_dice == (n_normal, n_special)  # (normal, special) dice, the file's kinds in order
    return o


def _kernel_class_ways(name, rules, n_normal, n_special, difficulty):
    if name == "v5":  # V5 is counted by the mechanic engine (its pair-of-tens path)
        from analysis.engine import count as engine

        assert rules.hunger_replaces_dice  # the cases below: Hunger dice replace normal dice
        cell = dict(pool=n_normal + n_special, hunger=n_special, difficulty=difficulty)
        (ways,) = engine.count_cells(v5.mechanic_rules(rules), [cell])
        return list(ways.class_ways)
    o = _engine_odds(name, rules, n_normal, n_special, difficulty)
    return [o.class_ways[c] for c in o.class_ways]


def _oracle_counts(name, rules, classes, n_normal, n_special, difficulty):
    """Ways per class of every ordered roll, classed by the rules restated in ``tests.oracles_special``."""
    out = Counter()
    for faces in itertools.product(range(1, 11), repeat=n_normal + n_special):
        special = faces[n_normal:]
        tens = faces.count(10)
        succ = sum(1 for f in faces if f >= rules.success_face) + rules.crit_bonus * (tens // 2)
        if name.startswith("werewolf"):
            cls = oracles_special.classify_werewolf(
                succ,
                tens,
                sum(1 for f in special if f <= 2),
                difficulty,
                name.endswith("violent"),
                brutal_rage_dice=rules.brutal_rage_dice,
                brutal_bonus=rules.brutal_bonus,
            )
        else:
            cls = oracles_special.classify_hunter(
                succ,
                tens,
                special.count(1),
                difficulty,
                despair_ones=rules.despair_ones,
                critical_ignores_desperation=rules.critical_ignores_desperation,
            )
        out[cls] += 1
    return [out[c] for c in classes]


@pytest.mark.parametrize("name,reader,classes,rule_sets", CASES, ids=[getattr(c, "id", None) or c[0] for c in CASES])
def test_python_read_roll_and_the_kernel_agree_on_every_small_roll(name, reader, classes, rule_sets):
    # every ordered roll of up to 4 dice read one by one in Python, against the grid kernel's class ways
    for rules in rule_sets:
        read = reader(rules)
        for n_normal, n_special in itertools.product(range(3), range(4)):
            if n_normal + n_special > 4:
                continue
            for difficulty in range(0, 6):
                want = _read_roll_counts(read, classes, n_normal, n_special, difficulty, True)
                got = _kernel_class_ways(name, rules, n_normal, n_special, difficulty)
                assert got == want, (name, rules, n_normal, n_special, difficulty)
                if name != "v5":  # both from one mechanic file: each also against the rules restated
                    assert want == _oracle_counts(name, rules, classes, n_normal, n_special, difficulty), (
                        name,
                        rules,
                        n_normal,
                        n_special,
                        difficulty,
                    )


@pytest.mark.parametrize(
    "name,rules",
    [
        ("werewolf", werewolf.OFFICIAL),
        ("werewolf-violent", werewolf.OFFICIAL),
        ("hunter", hunter.OFFICIAL),
        ("werewolf-violent", werewolf.WerewolfRules(rage_replaces_dice=False)),
    ],
    ids=["werewolf", "werewolf-violent", "hunter", "werewolf-added-rage"],
)
def test_int64_and_modular_paths_agree(name, rules, monkeypatch):
    # pool 18 fits int64: the engine's plain and forced modular (CRT) paths give the same integers
    diffs = (0, 1, 5, 9, 14, 30)
    for n_normal, n_special in ((18, 0), (15, 3), (13, 5)):
        plain = [_engine_odds(name, rules, n_normal, n_special, d) for d in diffs]
        seen = []
        real = exact.count

        def modular(compute, bound, force_modular=False):
            out = real(compute, bound, force_modular=True)
            seen.append((bound <= exact.INT64_MAX, out.dtype))
            return out

        from analysis.engine import pairs_count
        from analysis.engine import count as mechanic_engine

        mechanic_engine.clear_caches()  # counted afresh, on the modular path
        with monkeypatch.context() as m:
            m.setattr(exact, "count", modular)
            m.setattr(pairs_count, "count", modular)  # the pair-of-tens path counts there
            forced = [_engine_odds(name, rules, n_normal, n_special, d) for d in diffs]
        mechanic_engine.clear_caches()
        assert seen and all(fits and dtype.kind == "O" for fits, dtype in seen)
        for a, b in zip(plain, forced):
            assert a.class_ways == b.class_ways and a.success_ways == b.success_ways
            assert sum(a.class_ways.values()) == a.denominator == 10 ** (n_normal + n_special)


def test_big_pools_take_the_modular_path_exactly():
    # pool 40: 10**40 ways do not fit int64; the grid kernel and the per-roll count agree through CRT
    # the table's violent axis takes 0 and 1; one roll's violent is True or False
    for mod_system, kw, odds_kw in ((werewolf, {"violent": 1}, {"violent": True}), (hunter, {}, {})):
        special = "rage" if mod_system is werewolf else "desperation"
        df = mod_system.table(40, 5, 20, exact=True, **kw)
        o = mod_system.odds(40, 5, 20, **odds_kw)
        row = df.iloc[0]
        assert [row[c] for c in mod_system.CLASSES] == list(o.classes().values())
        assert sum(o.classes().values()) == 1
        assert o.denominator > exact.INT64_MAX
        assert max(o.class_ways.values()) > exact.INT64_MAX
        assert row[special] == 5


def test_werewolf_and_hunter_import_neither_kernels_nor_the_pair_path():
    # their dice are counted by the mechanic engine from their mechanic.toml, not by code of their own
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "analysis" / "systems"
    files = sorted((root / "werewolf").rglob("*.py")) + sorted((root / "hunter").rglob("*.py"))
    assert len(files) >= 4
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            for name in names:
                assert not (name == "kernels" or name.startswith("kernels.")), (path, name)
                assert not name.startswith("analysis.engine.pairs"), (path, name)
