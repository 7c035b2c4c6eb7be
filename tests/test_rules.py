"""The Rules base: field metadata, strict validation, changes, and TOML round trips of every rules class."""

import tomllib
from dataclasses import dataclass, replace

import numpy as np
import pytest
import tomli_w

from analysis.workbench import rulesets
from analysis.model.rules import FieldInfo, Rules, diff, rule
from analysis.systems.cards import deck as cards
from analysis.systems.classic import health, pools
from analysis.systems.requiem import beast, dice as requiem
from analysis.systems.v5 import conflict, roll as v5, rouse


@dataclass(frozen=True)
class _Inner(Rules):
    """A nested toy rule set."""

    faces: int = rule(10, range=(2, 20), help="Faces of the die.")
    explode: bool = rule(False, help="A top face is rolled again.")


@dataclass(frozen=True)
class _Outer(Rules):
    """A toy rule set with every kind of field and a cross-field check."""

    lo: int = rule(1, range=(0, 5), help="Lowest count.")
    hi: int = rule(3, range=(0, 5), help="Highest count.")
    mode: str = rule("up", choices=("up", "down"), help="Rounding: up or down.")
    again: int | None = rule(None, type=int, choices=(10, 9), none="no again", help="Face rolled again.")
    steps: tuple = rule((0, 1, 2), length=3, item_range=(0, 9), help="Three steps.")
    inner: _Inner = rule(_Inner(), help="The dice.")

    def check(self):
        if self.lo > self.hi:
            raise ValueError(f"lo must not exceed hi, got lo = {self.lo} and hi = {self.hi}")


# ------------------------------------------------------------ validation


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: v5.V5Rules(crit_bonus=25), "crit_bonus must be 0..20, got 25"),
        (lambda: v5.V5Rules(success_face=1), "success_face must be 2..10, got 1"),
        (lambda: v5.V5Rules(crit_bonus=2.0), "crit_bonus must be a whole number, got 2.0"),
        (lambda: v5.V5Rules(crit_bonus=True), "crit_bonus must be a whole number, got True"),
        (lambda: v5.V5Rules(crit_bonus=None), "crit_bonus must be 0..20, got None"),
        (lambda: v5.V5Rules(hunger_replaces_dice=1), "hunger_replaces_dice must be True or False, got 1"),
        (lambda: v5.V5Rules(hunger_replaces_dice="yes"), "hunger_replaces_dice must be True or False, got 'yes'"),
        (lambda: rouse.RouseRules(frenzy_at_max=0), "frenzy_at_max must be True or False, got 0"),
        (lambda: cards.CardRules(ace="joker"), "ace must be one of fails, low, high, got 'joker'"),
        (lambda: cards.CardRules(ace=1), "ace must be one of fails, low, high, got 1"),
        (lambda: conflict.ConflictRules(halve_rounding="nearest"), "halve_rounding must be one of up, down"),
        (lambda: conflict.ConflictRules(dice=rouse.RouseRules()), "dice must be a V5Rules, got RouseRules"),
        (lambda: requiem.RequiemRules(again=7), "again must be 10, 9, 8 or None (no again), got 7"),
        (lambda: requiem.RequiemRules(again=10.0), "again must be 10, 9, 8 or None (no again), got 10.0"),
        (lambda: health.DamageRules(penalties=(0, 1)), "penalties must be 6 numbers, got (0, 1)"),
        (lambda: health.DamageRules(penalties="012345"), "penalties must be 6 numbers"),
        (lambda: health.DamageRules(penalties=(0, 1, 1, 2, 2, 101)), "each of penalties must be 0..100, got 101"),
        (lambda: health.DamageRules(penalties=(0, 1, 1, 2, 2, 5.0)), "each of penalties must be a whole number"),
        (lambda: health.DamageRules(soak_difficulty=11), "soak_difficulty must be 2..10, got 11"),
        (lambda: pools.ClassicRules(ones_cancel=None), "ones_cancel must be True or False, got None"),
        (lambda: beast.BeastRules(beastly_ten_successes=0), "beastly_ten_successes must be 1..10, got 0"),
        (lambda: _Outer(lo=4, hi=2), "lo must not exceed hi, got lo = 4 and hi = 2"),
    ],
)
def test_every_field_is_checked_in_one_sentence_naming_it(make, message):
    with pytest.raises(ValueError) as err:
        make()
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_values_are_normalised_to_plain_python():
    r = v5.V5Rules(crit_bonus=np.int64(3))
    assert type(r.crit_bonus) is int and r == v5.V5Rules(crit_bonus=3)
    assert hash(r) == hash(v5.V5Rules(crit_bonus=3))
    d = health.DamageRules(penalties=[0, 0, 0, np.int64(1), 1, 1])
    assert d.penalties == (0, 0, 0, 1, 1, 1) and all(type(p) is int for p in d.penalties)
    assert requiem.RequiemRules(again=None).again is None
    assert replace(v5.OFFICIAL, crit_bonus=1).changes() == {"crit_bonus": 1}
    with pytest.raises(ValueError, match="crit_bonus must be 0..20, got 21"):
        replace(v5.OFFICIAL, crit_bonus=21)


def test_fields_info_describes_every_field():
    info = {f.name: f for f in _Outer.fields_info()}
    assert list(info) == ["lo", "hi", "mode", "again", "steps", "inner"]
    assert info["lo"] == FieldInfo("lo", int, 1, "Lowest count.", range=(0, 5))
    assert info["mode"].choices == ("up", "down") and info["mode"].type is str
    assert info["again"].none == "no again" and info["again"].default is None
    assert info["steps"].length == 3 and info["steps"].item_range == (0, 9)
    assert info["inner"].nested and info["inner"].type is _Inner
    assert info["lo"].allowed() == "0..5" and info["mode"].allowed() == "one of up, down"
    assert info["again"].allowed() == "10, 9 or None (no again)"
    assert info["again"].allowed(toml=True) == "10, 9 or none (no again)"


def test_a_field_without_rule_or_help_is_a_programming_error():
    with pytest.raises(TypeError, match="help"):
        rule(1, help="")
    with pytest.raises(TypeError, match="bool, int, float, str, tuple or Rules"):
        rule([1], help="A list.")

    @dataclass(frozen=True)
    class Bare(Rules):
        x: int = 1

    with pytest.raises(TypeError, match=r"Bare.x is not made with rule"):
        Bare()


def test_changes_are_against_the_class_defaults_and_nested_rules_diff_field_by_field():
    assert _Outer().changes() == {}
    o = _Outer(mode="down", inner=_Inner(explode=True))
    assert o.changes() == {"mode": "down", "inner": _Inner(explode=True)}
    assert o.flat_changes() == {"mode": ("up", "down"), "inner.explode": (False, True)}
    assert diff(_Outer(), o, "x.") == {"x.mode": ("up", "down"), "x.inner.explode": (False, True)}
    c = conflict.ConflictRules(tie_damage=2, dice=v5.V5Rules(crit_bonus=1))
    assert c.flat_changes() == {"tie_damage": (1, 2), "dice.crit_bonus": (2, 1)}
    assert beast.BeastRules(again=9, rote=True).changes() == {"again": 9, "rote": True}


def test_require_names_the_expected_class():
    assert v5.V5Rules.require(v5.OFFICIAL) is v5.OFFICIAL
    with pytest.raises(ValueError, match="rules must be a V5Rules, got str"):
        v5.V5Rules.require("official")
    assert requiem.RequiemRules.require(beast.OFFICIAL) is beast.OFFICIAL  # La Soif is Requiem dice too


# ------------------------------------------------------------ TOML dicts


def _toml_round_trip(r: Rules) -> Rules:
    text = tomli_w.dumps(r.to_dict())
    return type(r).from_dict(tomllib.loads(text))


def test_nested_rules_round_trip_as_toml_sub_tables():
    o = _Outer(lo=0, hi=5, mode="down", again=9, steps=(9, 0, 9), inner=_Inner(faces=6, explode=True))
    d = o.to_dict()
    assert d["inner"] == {"faces": 6, "explode": True} and d["steps"] == [9, 0, 9]
    assert _Outer().to_dict()["again"] == "none"
    text = tomli_w.dumps(d)
    assert "[inner]" in text
    assert _toml_round_trip(o) == o and _toml_round_trip(_Outer()) == _Outer()
    assert _Outer.from_dict({}) == _Outer()
    assert _Outer.from_dict({"inner": {"faces": 8}}) == _Outer(inner=_Inner(faces=8))


@pytest.mark.parametrize(
    "data, message",
    [
        (
            {"inner": {"face": 6}},
            "unknown field 'x.inner.face' in [x.inner] (did you mean x.inner.faces?); the fields are faces, explode",
        ),
        ({"inner": {"faces": 40}}, "x.inner.faces must be 2..20, got 40"),
        (
            {"inner": {"explode": 1}},
            "field 'x.inner.explode' must be true or false, got the number 1 "
            "(x.inner.explode: A top face is rolled again.)",
        ),
        ({"inner": 3}, "field 'x.inner' must be a table of _Inner fields ([x.inner]), got the number 3"),
        ({"again": 8}, "x.again must be 10, 9 or none (no again), got 8"),
        ({"again": "None"}, None),
        (
            {"again": "never"},
            "field 'x.again' must be a whole number or \"none\", got the text 'never' (x.again: Face rolled again.)",
        ),
        ({"steps": [1, 2]}, "x.steps must be an array of 3 numbers, got [1, 2]"),
        (
            {"steps": "1,2,3"},
            "field 'x.steps' must be an array of whole numbers, got the text '1,2,3' (x.steps: Three steps.)",
        ),
        ({"lo": 5, "hi": 1}, "lo must not exceed hi, got lo = 5 and hi = 1 (in [x])"),
        ({"mode": "sideways"}, "x.mode must be one of up, down, got 'sideways'"),
    ],
)
def test_from_dict_errors_name_the_dotted_field(data, message):
    if message is None:
        assert _Outer.from_dict(data, prefix="x.").again is None
        return
    with pytest.raises(ValueError) as err:
        _Outer.from_dict(data, prefix="x.")
    assert str(err.value) == message


def _every_rules_class() -> list:
    classes = []
    for system in rulesets.SYSTEMS.values():
        classes.append(system.rules)
        classes.extend(system.sub_rules_classes.values())
    classes.append(requiem.RequiemRules)  # plain Requiem dice: BeastRules.requiem()
    return classes


def _other_value(info: FieldInfo):
    """A valid value of the field that is not its default."""
    if info.nested:
        return _changed(info.type)
    if info.type is bool:
        return not info.default
    if info.choices is not None:
        return next(c for c in info.choices if c != info.default)
    if info.type is int:
        lo, hi = info.range
        return hi if info.default != hi else lo
    if info.type is tuple:
        lo, hi = info.item_range
        return tuple(hi if v != hi else lo for v in info.default)
    return info.default + "x"


def _changed(cls) -> Rules:
    return cls(**{f.name: _other_value(f) for f in cls.fields_info()})


def test_every_rules_class_of_every_system_is_a_rules_with_help():
    classes = _every_rules_class()
    assert {c.__name__ for c in classes} >= {
        "V5Rules",
        "RouseRules",
        "ConflictRules",
        "CardRules",
        "BeastRules",
        "RequiemRules",
        "ClassicRules",
        "DamageRules",
    }
    for cls in classes:
        assert issubclass(cls, Rules)
        for f in cls.fields_info():
            assert f.help and "\n" not in f.help, (cls, f.name)


@pytest.mark.parametrize("cls", _every_rules_class(), ids=lambda c: c.__name__)
def test_every_rules_class_round_trips_through_toml(cls):
    default, changed = cls(), _changed(cls)
    assert set(changed.changes()) == set(cls.field_names())
    for r in (default, changed):
        assert _toml_round_trip(r) == r
        assert cls.from_dict(r.to_dict()) == r


@pytest.mark.parametrize("system", list(rulesets.SYSTEMS.values()), ids=lambda s: s.name)
def test_every_system_rule_set_round_trips_with_all_its_tables(system, tmp_path):
    subs = {n: _changed(c) for n, c in system.sub_rules_classes.items()}
    rs = rulesets.RuleSet(
        system.name, f"{system.name}-everything", _changed(system.rules), "Every field changed.", sub_rules=subs
    )
    back = rulesets.load(rs.save(tmp_path / "all.toml"))
    assert back == rs and back.rules == rs.rules and back.subs() == subs
    n_fields = len(_flat(system.rules)) + sum(len(_flat(c)) for c in system.sub_rules_classes.values())
    assert len(rs.changes()) == n_fields
    official = rulesets.official(system)
    assert rulesets.from_toml(official.to_toml()) == official and official.changes() == {}


def _flat(cls) -> list:
    out = []
    for f in cls.fields_info():
        out.extend(_flat(f.type) if f.nested else [f.name])
    return out


# ------------------------------------------------------------ rule-set sub-tables


def test_systems_describe_their_sub_rules():
    assert rulesets.system("v5").sub_rules_classes == {"rouse": rouse.RouseRules, "conflict": conflict.ConflictRules}
    assert rulesets.system("classic").sub_rules_classes == {"damage": health.DamageRules}
    assert rulesets.system("cards").sub_rules_classes == {}


def test_rules_prints_every_table_of_a_rule_set(capsys):
    from analysis import cli

    assert cli.main(["rules", "v5-official"]) == 0
    out = capsys.readouterr().out
    for table in ("[rouse]", "[conflict]", "[conflict.dice]"):
        assert table in out
    assert rulesets.from_toml(out) == rulesets.load("v5-official")
    assert cli.main(["rules", "classic-official"]) == 0
    out = capsys.readouterr().out
    assert "[damage]" in out and "penalties = [0, 1, 1, 2, 2, 5]" in out


def test_a_file_may_change_only_one_sub_table(tmp_path):
    path = tmp_path / "quiet.toml"
    path.write_text('system = "v5"\n[rouse]\nfrenzy_at_max = false\n')
    rs = rulesets.load(path)
    assert rs.rules == v5.OFFICIAL
    assert rs.sub("rouse") == rouse.RouseRules(frenzy_at_max=False)
    assert rs.sub("conflict") == conflict.OFFICIAL
    assert rs.changes() == {"rouse.frenzy_at_max": (True, False)}
    shipped = rulesets.load("v5-rouse-no-frenzy-test-at-max")
    assert (rs.rules, rs.sub_rules) == (shipped.rules, shipped.sub_rules) and rs.name == "quiet"
    assert "rouse.frenzy_at_max = false (default true)" in rs.describe()
    path.write_text('system = "v5"\n[conflict.dice]\ncrit_bonus = 1\n')
    assert rulesets.load(path).sub("conflict") == conflict.ConflictRules(dice=v5.V5Rules(crit_bonus=1))


def test_sub_rules_equal_to_the_defaults_make_an_equal_rule_set():
    a = rulesets.RuleSet("v5", "a", v5.OFFICIAL)
    b = rulesets.RuleSet("v5", "a", v5.OFFICIAL, sub_rules={"rouse": rouse.OFFICIAL})
    assert a == b and hash(a) == hash(b) and b.sub_rules == ()
    assert rulesets.official("v5").name == "v5-official"
    with pytest.raises(ValueError, match=r"unknown field 'rous' among the v5 sub-rules \(did you mean rouse\?\)"):
        rulesets.RuleSet("v5", "a", v5.OFFICIAL, sub_rules={"rous": rouse.OFFICIAL})
    with pytest.raises(ValueError, match=r"the \[rouse\] rules must be a RouseRules, got ConflictRules"):
        rulesets.RuleSet("v5", "a", v5.OFFICIAL, sub_rules={"rouse": conflict.OFFICIAL})


def test_a_sub_rules_object_loads_as_a_rule_set_of_its_system():
    rs = rulesets.load(rouse.RouseRules(frenzy_at_max=False))
    assert rs.name == "v5-rouse-no-frenzy-test-at-max" and rs.rules == v5.OFFICIAL
    assert rulesets.load(health.DamageRules(vital_spot_lethal="everyone")).name == "classic-vital-spots-lethal"
    custom = rulesets.load(rouse.RouseRules(success_face=5))
    assert custom.name == "v5-custom" and custom.sub("rouse").success_face == 5
    assert rulesets.load(v5.V5Rules()).name == "v5-official"


def test_every_sub_table_has_a_shipped_variant():
    for system in rulesets.SYSTEMS.values():
        for table in system.sub_rule_names:
            assert any(table in dict(rs.sub_rules) for rs in rulesets.variants(system.name)), table


@pytest.mark.parametrize(
    "text, words",
    [
        (
            'system = "v5"\n[rouse]\nsucces_face = 5\n',
            ["unknown field 'rouse.succes_face' in [rouse]", "did you mean rouse.success_face?"],
        ),
        ('system = "v5"\nrouse = 3\n', ["field 'rouse' must be a table of RouseRules fields", "the number 3"]),
        (
            'system = "v5"\n[rose]\nsuccess_face = 5\n',
            ["unknown field 'rose' for a v5 rule set (did you mean rouse?)", "tables [rouse], [conflict]"],
        ),
        ('system = "v5"\n[conflict.dice]\ncrit_bonus = 25\n', ["conflict.dice.crit_bonus must be 0..20, got 25"]),
        (
            'system = "v5"\n[rouse]\nfrenzy_at_max = "no"\n',
            ["field 'rouse.frenzy_at_max' must be true or false, got the text 'no'", "hunger frenzy test"],
        ),
        ('system = "classic"\n[damage]\npenalties = [0, 1]\n', ["damage.penalties must be an array of 6 numbers"]),
        (
            'system = "classic"\n[damage]\nvital_spot_lethal = "always"\n',
            ["damage.vital_spot_lethal must be one of off, mortals, everyone, got 'always'"],
        ),
        ('system = "requiem"\nagain = 7\n', ["again must be 10, 9, 8 or none (no again), got 7"]),
        ('system = "requiem"\nagain = "none"\nrote = true\n', None),
        ('system = "cards"\n[rouse]\nsuccess_face = 5\n', ["unknown field 'rouse' for a cards rule set"]),
    ],
)
def test_bad_sub_tables_are_refused_naming_the_field(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    if words is None:
        assert rulesets.load(path).rules == beast.BeastRules(again=None, rote=True)
        return
    with pytest.raises(ValueError) as err:
        rulesets.load(path)
    message = str(err.value)
    assert message.startswith(f"{path}: ") and "\n" not in message
    for w in words:
        assert w in message


def test_register_wants_a_rules_class(monkeypatch):
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class Plain:
        x: int = 1

    monkeypatch.setattr(rulesets, "SYSTEMS", dict(rulesets.SYSTEMS))
    with pytest.raises(ValueError, match="must be a dataclass derived from analysis.model.rules.Rules, got Plain"):
        rulesets.register("plain", Plain, lambda pools, rules, exact=False: None, axes={"pool": "1"})


def test_v5_willpower_strategies_are_the_one_strategy_type():
    from fractions import Fraction

    from analysis.engine import strategy as one
    from analysis.systems.v5 import willpower

    custom = willpower.optimal({"plain_win": 1, "messy_critical": 0.5, "bestial_failure": Fraction(-1, 3)}, "mine")
    for s in list(willpower.STRATEGIES.values()) + [custom]:
        assert type(s) is one.Strategy and s == one.Strategy(**{f: getattr(s, f) for f in s.__dataclass_fields__})
    assert dict(custom.values) == {"plain_win": 1, "messy_critical": Fraction(1, 2), "bestial_failure": Fraction(-1, 3)}
    assert willpower.STRATEGIES["avoid_messy"].forbid == ("messy_critical",)
    with pytest.raises(ValueError, match="reroll_failures must be true or false, got 1"):
        willpower.Strategy("x", reroll_failures=1)
    with pytest.raises(ValueError, match="unknown outcome class 'won' of the v5 mechanic"):
        willpower.optimal({"won": 1})
    with pytest.raises(ValueError, match="the value of plain_win must be finite, got nan"):
        willpower.optimal({"plain_win": float("nan")})
    with pytest.raises(ValueError, match="values name an outcome class twice"):
        willpower.Strategy("x", values=(("plain_win", 1), ("plain_win", 2)))


def test_a_registered_system_may_have_sub_rules(monkeypatch, tmp_path):
    import pandas as pd

    def toy_table(pools, rules, exact=False):
        return pd.DataFrame({"pool": pools, "p": [0.5] * len(pools)})

    monkeypatch.setattr(rulesets, "SYSTEMS", dict(rulesets.SYSTEMS))
    rulesets.register("toy", _Inner, toy_table, axes={"pool": "1-3"}, sub_rules={"extra": _Outer})
    path = tmp_path / "toy.toml"
    path.write_text('system = "toy"\nfaces = 6\n[extra]\nmode = "down"\n[extra.inner]\nexplode = true\n')
    rs = rulesets.load(path)
    assert rs.rules == _Inner(faces=6) and rs.sub("extra") == _Outer(mode="down", inner=_Inner(explode=True))
    assert rs.changes() == {"faces": (10, 6), "extra.mode": ("up", "down"), "extra.inner.explode": (False, True)}
    assert rulesets.from_toml(rs.to_toml()) == rs
    rulesets.register("toy2", _Inner, toy_table, axes={"pool": "1-3"}, sub_rules={"faces": _Outer})
    path.write_text('system = "toy2"\n')
    with pytest.raises(ValueError, match="names 'faces' both as a rules field and as a sub-rules table"):
        rulesets.load(path)


def test_compare_names_a_change_of_another_mechanic():
    from analysis.present import tables

    cmp = tables.compare(
        "v5-official", "v5-rouse-no-frenzy-test-at-max", {"pool": "1-3", "hunger": 1, "difficulty": 1}, exact=True
    )
    assert cmp.changes() == {"rouse.frenzy_at_max": (True, False)}
    assert "changed: rouse.frenzy_at_max true -> false" in cmp.describe()
    assert all(d == 0 for d in cmp.table["difference"])
    two = tables.compare("v5-official", "v5-two-hunger-ones-for-bestial", {"pool": 2, "hunger": 1, "difficulty": 1})
    assert two.changes() == {"bestial_hunger_ones": (1, 2)}
