"""Rule sets as data: the registry, TOML load and save, shipped variants, and errors that name the field."""

import dataclasses
import tomllib
from dataclasses import dataclass

import pytest

from tests.conftest import run_cli

from analysis.workbench import rulesets
from analysis.model.rules import Rules, rule
from analysis.systems.cards import deck as cards
from analysis.systems.v5 import roll as v5
from analysis.workbench.rulesets import RuleSet


def test_v5_and_cards_are_registered():
    assert list(rulesets.SYSTEMS)[:2] == ["v5", "cards"]
    assert rulesets.system("v5").rules is v5.V5Rules
    assert rulesets.system("cards").table is cards.table
    assert rulesets.system("v5").axis_names == ("pool", "hunger", "difficulty")


@pytest.mark.parametrize("rs", rulesets.variants(), ids=lambda rs: rs.name)
def test_shipped_variant_loads_and_round_trips(rs):
    assert rs.source == f"shipped:{rs.name}.toml"
    assert rs.name.startswith(rs.system + "-")
    assert rs.description
    back = rulesets.from_toml(rs.to_toml())
    assert back == rs and back.rules == rs.rules and back.description == rs.description
    assert rulesets.load(rs.name) == rs


def test_every_registered_system_ships_its_defaults_and_variants():
    for name, system in rulesets.SYSTEMS.items():
        shipped = rulesets.variants(name)
        assert rulesets.official(system).rules == system.rules()
        assert rulesets.official(system).source.startswith("shipped:")
        assert sum(1 for rs in shipped if rs.changes()) >= 1, name
        assert len({(rs.rules, rs.sub_rules) for rs in shipped}) == len(shipped), "two shipped variants are the same"
    assert rulesets.load("v5-two-hunger-ones-for-bestial").rules == v5.V5Rules(bestial_hunger_ones=2)


def test_save_and_load_a_file(tmp_path):
    rs = RuleSet("v5", "v5-mine", v5.V5Rules(crit_bonus=3, hunger_replaces_dice=False), "Mine.")
    path = rs.save(tmp_path / "mine.toml")
    text = path.read_text()
    assert 'system = "v5"' in text and "crit_bonus = 3" in text and "hunger_replaces_dice = false" in text
    back = rulesets.load(path)
    assert back == rs and back.description == "Mine." and back.source == str(path)
    assert rulesets.load(str(path)) == rs
    assert rs.changes() == {"crit_bonus": (2, 3), "hunger_replaces_dice": (True, False)}


def test_fields_left_out_take_the_defaults_and_the_name_defaults_to_the_file(tmp_path):
    path = tmp_path / "short.toml"
    path.write_text('system = "cards"\nace = "low"\n')
    rs = rulesets.load(path)
    assert rs.name == "short" and rs.rules == cards.CardRules(ace="low")


def test_a_rules_object_is_named_after_the_shipped_variant_it_equals():
    assert rulesets.load(v5.V5Rules(messy_hunger_tens=2)).name == "v5-two-hunger-tens-for-messy"
    assert rulesets.load(v5.V5Rules()).name == "v5-official"
    assert rulesets.load(v5.V5Rules(crit_bonus=5)).name == "v5-custom"


@pytest.mark.parametrize(
    "text, words",
    [
        (
            'system = "v5"\nbestial_ones = 2\n',
            ["unknown field 'bestial_ones'", "did you mean bestial_hunger_ones?", "success_face, crit_bonus"],
        ),
        ('system = "v5"\nbestial_hunger_ones 2\n', ["not valid TOML", "line 2", "'bestial_hunger_ones 2'"]),
        ('system = "v5"\nbestial_hunger_ones = 3\n', ["bestial_hunger_ones must be 1..2, got 3"]),
        (
            'system = "v5"\nbestial_hunger_ones = "2"\n',
            ["field 'bestial_hunger_ones' must be a whole number, got the text '2'", "(1 or 2)"],
        ),
        (
            'system = "v5"\nhunger_replaces_dice = 1\n',
            ["field 'hunger_replaces_dice' must be true or false, got the number 1"],
        ),
        ('system = "v5"\n[crit_bonus]\nx = 1\n', ["field 'crit_bonus' must be a whole number, got a table"]),
        ('system = "cards"\nace = "middle"\n', ["ace must be one of fails, low, high, got 'middle'"]),
        ('name = "x"\ncrit_bonus = 2\n', ['no "system" key', "v5, cards"]),
        ('system = "vampire"\n', ["field 'system' must be one of v5, cards", "got the text 'vampire'"]),
        ('system = "v5"\nname = 5\n', ["field 'name' must be"]),
        ('system = "v5"\ndescription = ["a"]\n', ["field 'description' must be a text"]),
    ],
)
def test_bad_files_are_refused_naming_the_field(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError) as err:
        rulesets.load(path)
    message = str(err.value)
    assert message.startswith(f"{path}: ")
    for w in words:
        assert w in message
    assert "\n" not in message


def test_missing_file_and_unknown_names():
    with pytest.raises(ValueError, match="no such rule-set file"):
        rulesets.load("nowhere/mine.toml")
    with pytest.raises(ValueError, match=r"unknown rule set 'v5-oficial' \(did you mean v5-official\?\)"):
        rulesets.load("v5-oficial")
    with pytest.raises(ValueError, match="a rule set is"):
        rulesets.load(42)


@pytest.mark.parametrize("name", ["v5", "werewolf", "hunter", "requiem", "beast", "cards", "classic"])
def test_a_system_name_is_its_official_rule_set(name, capsys):
    """`beastodds table v5` (and page, booklet, compare) read a system's name as its official rules."""
    rs = rulesets.load(name)
    assert rs == rulesets.official(name)
    assert rs.rules == rulesets.system(name).rules()
    code, out, err = run_cli(capsys, "table", name, "--format", "csv")
    assert code == 0, err
    code, want, err = run_cli(capsys, "table", rs.name, "--format", "csv")
    assert code == 0 and out == want


@dataclass(frozen=True)
class _ToyRules(Rules):
    """A toy rule set."""

    again: int | None = rule(10, choices=(10, 9, 8), none=True, help="Face rolled again (8..10), or none.")
    name_of_die: str = rule("d10", help="What the die is called.")


def _toy_table(pools, rules, exact=False):
    import pandas as pd

    return pd.DataFrame({"pool": pools, "p": [0.5] * len(pools)})


@pytest.fixture
def toy_system(monkeypatch):
    monkeypatch.setattr(rulesets, "SYSTEMS", dict(rulesets.SYSTEMS))
    return rulesets.register("toy", _ToyRules, _toy_table, axes={"pool": "1-3"}, title="Toy")


def test_a_new_system_registers_in_one_call(toy_system, tmp_path):
    assert rulesets.system("toy") is toy_system
    rs = RuleSet("toy", "toy-no-again", _ToyRules(again=None))
    text = rs.to_toml()
    assert 'again = "none"' in text
    assert rulesets.from_toml(text).rules == _ToyRules(again=None)
    path = tmp_path / "t.toml"
    path.write_text('system = "toy"\nagain = 7\n')
    with pytest.raises(ValueError, match="again must be 10, 9, 8 or none, got 7"):
        rulesets.load(path)
    path.write_text('system = "toy"\nagain = true\n')
    with pytest.raises(ValueError, match=r"must be a whole number or \"none\".*Face rolled again"):
        rulesets.load(path)
    assert {f.name: f.help for f in _ToyRules.fields_info()} == {
        "again": "Face rolled again (8..10), or none.",
        "name_of_die": "What the die is called.",
    }
    assert rulesets.official(toy_system).name == "toy-official"


def test_outcomes_named_at_registration_are_the_ones_compared(monkeypatch):
    from analysis.present import tables

    monkeypatch.setattr(rulesets, "SYSTEMS", dict(rulesets.SYSTEMS))
    rulesets.register("toy", _ToyRules, _toy_table, axes={"pool": "1-3"}, outcomes="p")
    cmp = tables.compare(_ToyRules(), _ToyRules(again=8))
    assert cmp.outcomes == ("p",) and len(cmp.table) == 3
    rulesets.register("toy", _ToyRules, _toy_table, axes={"pool": "1-3"}, outcomes=["q"], replace=True)
    with pytest.raises(ValueError, match="the toy table has no column 'q'"):
        tables.compare(_ToyRules(), _ToyRules(again=8))


def test_register_refuses_bad_entries(toy_system):
    with pytest.raises(ValueError, match="already registered"):
        rulesets.register("toy", _ToyRules, _toy_table, axes={"pool": "1-3"})
    with pytest.raises(ValueError, match="system name"):
        rulesets.register("Toy Two", _ToyRules, _toy_table, axes={"pool": "1-3"})
    with pytest.raises(ValueError, match="pool"):
        rulesets.register("toy2", _ToyRules, _toy_table, axes={"pool": "3-1"})
    with pytest.raises(ValueError, match="outcomes must be column names"):
        rulesets.register("toy6", _ToyRules, _toy_table, axes={"pool": "1"}, outcomes=[3])
    with pytest.raises(ValueError, match="at least one axis"):
        rulesets.register("toy3", _ToyRules, _toy_table, axes={})
    with pytest.raises(ValueError, match="unknown system 'toy4'"):
        rulesets.system("toy4")
    # code is given as objects, never as a module's name in a string (no tool could follow it)
    with pytest.raises(ValueError, match="the rules of system 'toy5' are a class, got 'analysis.nowhere:Rules'"):
        rulesets.register("toy5", "analysis.nowhere:Rules", _toy_table, axes={"pool": "1"})
    with pytest.raises(ValueError, match="the table of system 'toy5' is a function"):
        rulesets.register("toy5", _ToyRules, "analysis.nowhere:table", axes={"pool": "1"})
    with pytest.raises(ValueError, match="sub_rules of system 'toy5'"):
        rulesets.register("toy5", _ToyRules, _toy_table, axes={"pool": "1"}, sub_rules={"x": "m:Rules"})
    assert "toy5" not in rulesets.SYSTEMS


def test_shipped_files_are_plain_toml_with_matching_names():
    files = [(s, p) for s in rulesets.SYSTEMS.values() for p in s.variant_files()]
    assert len(files) >= 10
    for system, p in files:
        data = tomllib.loads(p.read_text())
        assert data["name"] == p.name[:-5]
        assert data["system"] == system.name, "a system's variants live in its own folder"
        assert set(data) >= {"system", "name", "description"}


def test_rule_sets_are_frozen_values():
    rs = rulesets.load("v5-official")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rs.name = "x"
    assert hash(rs) == hash(rulesets.load("v5-official"))
