"""docs/rules.md states every rule the code counts, and the project cites no text a user cannot read."""

import re
from fractions import Fraction
import subprocess
from pathlib import Path

import pytest

from analysis.workbench import rulesets
from analysis.model.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
RULES_PAGE = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def _rules_classes():
    """Every rules class of every system, nested ones included."""
    seen, todo = [], []
    for name in rulesets.SYSTEMS:
        todo.append(type(rulesets.official(name).rules))
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.append(cls)
        todo.extend(f.type for f in cls.fields_info() if f.nested)
    return seen


@pytest.mark.parametrize("cls", _rules_classes(), ids=lambda c: c.__name__)
def test_every_option_is_stated(cls):
    assert issubclass(cls, Rules)
    assert f"`{cls.__name__}`" in RULES_PAGE, f"docs/rules.md does not name {cls.__name__}"
    missing = [f.name for f in cls.fields_info() if f"`{f.name}`" not in RULES_PAGE]
    assert not missing, f"docs/rules.md does not state {cls.__name__} options {missing}"


def test_every_shipped_rule_set_and_class_is_named():
    names = rulesets.names()
    assert names
    missing = sorted({n for n in names if f"`{n}`" not in RULES_PAGE})
    assert not missing, f"docs/rules.md does not name the rule sets {missing}"
    for system in rulesets.SYSTEMS.values():
        classes = [c[0] if isinstance(c, tuple) else c for c in system.classes]
        absent = [c for c in classes if f"`{c}`" not in RULES_PAGE]
        assert not absent, f"docs/rules.md does not name {system.name} classes {absent}"


def _tracked_text_files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("not a git checkout")
    for name in out.stdout.splitlines():
        path = ROOT / name
        if path.suffix in {".py", ".md", ".toml", ".ipynb", ".txt", ".cfg"} or path.name == "Makefile":
            yield name, path


def test_no_reference_a_user_cannot_read():
    """Nothing points at the private rule notes or numbered source files the project does not ship."""
    pattern = re.compile(r"\bRULES\.md|\bDESIGN\b|\.\./shared|(?i:\bseeds?\s+0\d\d\b|\bseed's\b)")
    hits = []
    for name, path in _tracked_text_files():
        if name == "tests/test_docs.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{name}:{n}: {line.strip()[:80]}")
    assert not hits, "references to texts a user cannot read:\n" + "\n".join(hits)


# ------------------------------------------- the words say what is counted


def _legend_meaning(rule_set_name, column):
    from analysis.present import tables

    rs = rulesets.load(rule_set_name)
    system = rulesets.system(rs.system)
    line = tables.legend([column], system, tables.rule_meanings(rs))[0]
    return line.split(": ", 1)[1]


@pytest.mark.parametrize("name", ["hunter-official", "hunter-critical-ignores-ones"])
def test_hunter_p_desperation_one_is_worded_as_counted(name):
    """The column counts the trouble a Desperation 1 brings, and its legend says so under every rule set.

    It was worded "a Desperation die shows 1", which the house rule's critical wins contradict.
    """
    from analysis.systems import hunter

    rules = rulesets.load(name).rules
    h = hunter.odds(1, 2, 1, rules)
    assert h.p_desperation_one == h.overreach_or_despair + h.despair
    if name == "hunter-critical-ignores-ones":
        assert h.p_desperation_one == Fraction(47, 250) != Fraction(19, 100)  # P(a Desperation 1)
    text = _legend_meaning(name, "p_desperation_one")
    assert "Overreach or Despair" in text, text
    assert not text.startswith("chance that a Desperation die shows 1"), text
    assert "`p_desperation_one` is the chance that the Desperation dice bring" in RULES_PAGE


def test_chance_beast_die_one_is_worded_as_counted():
    """A chance Beast die's 1 is counted once, as dramatic; the page said dramatic and bestial."""
    from analysis.systems.requiem import beast

    o = beast.odds(0, 1)
    classes = o.classes()
    assert classes["dramatic_failure"] == Fraction(1, 10) and classes["bestial_failure"] == 0
    flat = " ".join(RULES_PAGE.split())
    assert "both a dramatic and a bestial failure" not in flat
    assert "its 1 is counted once, as a `dramatic_failure` and never as a `bestial_failure`" in flat


@pytest.mark.parametrize("name", ["werewolf-official", "werewolf-brutal-adds-two"])
def test_brutal_win_is_worded_as_counted(name):
    """brutal_win also holds a violent Brutal roll that wins without the bonus (a critical one too)."""
    from analysis.systems import werewolf

    rules = rulesets.load(name).rules
    reading = werewolf.read_roll([10, 10], [1, 2], 1, violent=True, rules=rules)
    assert reading.outcome == "brutal_win"
    text = _legend_meaning(name, "brutal_win")
    assert "also when it would win without them" in text and ("at least" in text or "or more" in text), text
    assert "also one that would win without them" in " ".join(RULES_PAGE.split())


@pytest.mark.parametrize("option", ["soak_ones_cancel", "tie_damage"])
def test_rulings_on_one_source_name_the_other_reading(option):
    """Rulings that rest on one source say so, and name the option that gives the other reading."""
    flat = " ".join(RULES_PAGE.split())
    rulings = [p for p in flat.split("- Ruling on one source:")[1:]]
    assert any(f"`{option} =" in p.split(" - ")[0] for p in rulings), option
    from analysis.systems.classic.health import DamageRules
    from analysis.systems.v5.conflict import ConflictRules

    assert any(option in (f.name for f in cls.fields_info()) for cls in (DamageRules, ConflictRules))


def test_blood_surge_at_potency_one_says_it_rests_on_one_table():
    from analysis.systems.v5 import rouse

    assert rouse.potency_effects(1)["surge_bonus"] == 2
    flat = " ".join(RULES_PAGE.split())
    assert "Blood Surge of 2 dice at Blood Potency 1 rests on that one table" in flat


def test_blood_surge_at_potency_one_reads_either_way():
    """The other reading of the Blood Potency table is an option: 1 die at Blood Potency 1, as at 0, and the
    surged roll is then the roll with one die more (a rule set's [rouse] table sets it)."""
    from analysis.workbench import rulesets
    from analysis.systems.v5 import roll as v5
    from analysis.systems.v5 import rouse

    one = rouse.RouseRules(surge_dice_at_potency_1=1)
    assert rouse.potency_effects(1, one)["surge_bonus"] == 1
    assert [rouse.potency_effects(bp, one)["surge_bonus"] for bp in (0, 2, 10)] == [1, 2, 6]
    assert rouse.surge(4, 2, 3, 1, rouse_rules=one).roll.classes() == v5.odds(5, 2, 3).classes()
    assert rouse.surge(4, 2, 3, 1).roll.classes() == v5.odds(6, 2, 3).classes()
    assert "surge_dice_at_potency_1 = 1" in " ".join(RULES_PAGE.split())
    with pytest.raises(ValueError):
        rouse.RouseRules(surge_dice_at_potency_1=3)
    rs = rulesets.from_toml('name = "bp1"\nsystem = "v5"\n[rouse]\nsurge_dice_at_potency_1 = 1\n')
    assert rs.sub("rouse").surge_dice_at_potency_1 == 1
