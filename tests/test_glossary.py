"""One glossary: every axis, outcome class and table column of every system is a named term."""
import pytest

from analysis import glossary, rulesets


@pytest.mark.parametrize("name", list(rulesets.SYSTEMS))
def test_every_column_of_every_system_is_a_term(name):
    system = rulesets.SYSTEMS[name]
    known = glossary.terms()
    cells = [[int(spec.split("-")[0].split(",")[0])] for _, spec in system.axes]
    df = system.table_function(*cells, rules=system.rules_class(), exact=False)
    missing = [c for c in df.columns if c not in known]
    assert not missing, f"{name} table columns neither in analysis/glossary.py nor in its SYSTEM: {missing}"
    for axis in system.axis_names:
        assert axis in known
    assert system.classes, f"{name} names no outcome classes"
    for cls, meaning in system.classes:
        assert cls in known and cls in df.columns and meaning


def test_classes_are_exclusive_and_sum_to_one():
    for system in rulesets.SYSTEMS.values():
        cells = [[int(spec.split("-")[0].split(",")[0]) + 1] for _, spec in system.axes]
        df = system.table_function(*cells, rules=system.rules_class(), exact=True)
        assert sum(df[c].iloc[0] for c, _ in system.classes) == 1, system.name


def test_meaning_and_suggestions():
    assert "Willpower" in glossary.meaning("strategy")
    with pytest.raises(ValueError, match="did you mean pool"):
        glossary.meaning("pol")
