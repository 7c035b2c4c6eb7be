"""One glossary: every axis, outcome class and table column of every system is a named term."""

import pytest

from analysis.present import glossary
from analysis.workbench import rulesets


@pytest.mark.parametrize("name", list(rulesets.SYSTEMS))
def test_every_column_of_every_system_is_a_term(name):
    system = rulesets.SYSTEMS[name]
    known = glossary.terms()
    cells = [[int(spec.split("-")[0].split(",")[0])] for _, spec in system.axes]
    df = system.table(*cells, rules=system.rules(), exact=False)
    missing = [c for c in df.columns if c not in known]
    assert not missing, f"{name} table columns neither in analysis/present/glossary.py nor in its SYSTEM: {missing}"
    for axis in system.axis_names:
        assert axis in known
    assert system.classes, f"{name} names no outcome classes"
    for cls, meaning in system.classes:
        assert cls in known and cls in df.columns and meaning


def test_classes_are_exclusive_and_sum_to_one():
    for system in rulesets.SYSTEMS.values():
        cells = [[int(spec.split("-")[0].split(",")[0]) + 1] for _, spec in system.axes]
        df = system.table(*cells, rules=system.rules(), exact=True)
        assert sum(df[c].iloc[0] for c, _ in system.classes) == 1, system.name


def test_meaning_and_suggestions():
    assert "Willpower" in glossary.meaning("strategy")
    with pytest.raises(ValueError, match="did you mean pool"):
        glossary.meaning("pol")


#: Many cells of each system's grid: every class column sums to exactly 1 on each.
_MANY = {
    "v5": ("0-6", "0-5", "0-4"),
    "werewolf": ("0-5", "0-5", "0-3", "0-1"),
    "hunter": ("0-5", "0-5", "0-3"),
    "requiem": ("-1-8", "0-5"),
    "classic": ("0-8", "2-10"),
    "cards": ("0-12", "5-15", "0-1"),
}


@pytest.mark.parametrize("name", list(rulesets.SYSTEMS))
def test_classes_sum_to_one_on_many_cells_and_derived_columns_are_named_apart(name):
    system = rulesets.SYSTEMS[name]
    if name not in _MANY:
        pytest.skip(f"{name}: a system of the tests, not shipped")
    if name == "requiem":
        df = system.table([-1, 0, 1, 2, 3, 5, 8], "0-5", rules=system.rules(), exact=True)
    else:
        df = system.table(*_MANY[name], rules=system.rules(), exact=True)
    classes = [c for c, _ in system.classes]
    assert len(df) > 10
    for row in df[classes].itertuples(index=False):
        assert sum(row) == 1 and min(row) >= 0
    derived = [
        c
        for c in df.columns
        if c not in classes and c not in system.axis_names and not str(df[c].dtype).startswith("int")
    ]
    for c in derived:
        assert c.startswith(("p_", "mean_")), (name, c)


@pytest.mark.parametrize("name", ["v5", "werewolf", "hunter", "classic", "cards"])
def test_help_explains_every_class_and_derived_column(name, capsys):
    from analysis import cli

    with pytest.raises(SystemExit):
        cli.main([name, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    system = rulesets.SYSTEMS[name]
    assert "mutually exclusive, summing to 1" in text
    for cls, _ in system.classes:
        assert f"{cls}:" in text, (name, cls)
    for column in system.outcomes or ():
        assert f"{column}:" in text, (name, column)
