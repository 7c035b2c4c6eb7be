"""A whole-number parameter given by ``choices``, and given as none: the mechanic format's way of saying
what Requiem's ``again`` is (10, 9, 8, or none for no again), so that its rules classes are made from
its files like every other dice system's.

A designer's file takes the same keys: ``--set need=none`` and a rule set's ``need = "none"`` reach the
file as the number ``none`` names; a number that is not a choice is refused in one sentence, and so is a
file that says it badly.
"""

import dataclasses

import pytest

from analysis.model import spec
from analysis.systems import counted, from_file
from analysis.systems.requiem import beast, dice as requiem

from tests.test_mechanic_files import mechanic, refused, run, write

#: The small mechanic of the hostile-file tests with ``need`` given by choices: 1 or 2 hits, or none
#: (the file reads 9: no roll of at most 3 dice wins).
CHOICES = mechanic(
    name="choosy",
    **{
        'need = { default = 1, range = [1, 3], help = "hits a win needs" }': 'need = { default = 1, choices = [1, 2], '
        'none = { value = 9, means = "never a win" }, help = "hits a win needs, or none" }'
    },
)


def test_choices_and_none_are_read_into_the_parameter(tmp_path):
    mech = spec.load(write(tmp_path, CHOICES))
    (need,) = mech.parameters
    assert (need.choices, need.none, need.none_means, need.range) == ((1, 2), 9, "never a win", (1, 9))
    assert need.check(None) == 9 and need.check(2) == 2
    with pytest.raises(spec.MechanicError, match=r"need must be 1, 2 or none, got 3"):
        need.check(3)


def test_a_designers_file_takes_none_on_the_command_line_and_in_a_rule_set(capsys, tmp_path):
    path = write(tmp_path, CHOICES)
    code, out, err = run(capsys, "table", path, "--pool", "3", "--exact", "--set", "need=none")
    assert code == 0, err
    row = out.splitlines()[-1].split()
    assert row[:3] == ["3", "0", "1"]  # pool 3: no win (need 9), every roll a loss
    rules = from_file.rules_class(spec.load(path))
    assert rules(need=None).need is None
    assert from_file.mechanic_rules(rules(need=None)).params == {"need": 9}
    ruleset = tmp_path / "never.toml"
    ruleset.write_text(f'mechanic = "{path.name}"\nname = "never"\nneed = "none"\n')
    code, out, err = run(capsys, "table", ruleset, "--pool", "3", "--exact")
    assert code == 0, err
    assert out.splitlines()[-1].split()[:3] == ["3", "0", "1"]
    for bad in ("need=3", "need=9"):  # not a choice; the number none stands for is no choice either
        code, out, err = run(capsys, "table", path, "--set", bad)
        assert code == 2 and err.count("\n") == 1 and "1, 2 or none" in err, err


@pytest.mark.parametrize(
    "old, new, said",
    [
        ("choices = [1, 2]", "choices = [1, 2], range = [1, 3]", "a range or choices, not both"),
        ("choices = [1, 2]", "choices = [2, 3]", "the default 1 is not one of its choices"),
        ("choices = [1, 2]", "choices = [1, 1]", "a choice is listed twice"),
        ("choices = [1, 2]", "choices = []", "1 to 20 whole numbers"),
        ("choices = [1, 2]", 'choices = ["1"]', "must be a whole number"),
        ("value = 9", "value = 2", "none's value 2 is one of the choices"),
        ("value = 9, ", "", "needs 'value'"),
        ('means = "never a win"', 'mean = "never a win"', "did you mean means"),
        ("choices = [1, 2], ", "range = [1, 3], ", "none is given with choices"),
    ],
)
def test_a_parameter_badly_given_by_choices_is_refused(capsys, tmp_path, old, new, said):
    assert old in CHOICES
    err = refused(capsys, write(tmp_path, CHOICES.replace(old, new)))
    assert said in err and "parameter 'need'" in err, err


def test_a_true_false_parameter_takes_no_choices(capsys, tmp_path):
    text = CHOICES.replace("[parameters]\n", '[parameters]\nloud = { default = false, choices = [1] }\n')
    assert "has no range, choices or none" in refused(capsys, write(tmp_path, text))


def _files_fields(rules_class, mech) -> list:
    """The fields a rules class has from its file: name, default, help, range, choices, none."""
    out = []
    for f in dataclasses.fields(rules_class):
        if f.name in mech.parameter_map:
            info = f.metadata["rule"]
            out.append((f.name, f.default, info["help"], info["range"], info["choices"], info["none"]))
    return out


@pytest.mark.parametrize("rules_class", [requiem.RequiemRules, beast.BeastRules])
def test_requiems_rules_classes_are_made_from_their_files(rules_class):
    mech = rules_class.SHIPPED_MECHANIC
    assert mech is spec.shipped_in(
        "analysis.systems.requiem", "soif.toml" if rules_class is beast.BeastRules else "dice.toml"
    )
    fields = _files_fields(rules_class, mech)
    assert [f[0] for f in fields] == [p.name for p in mech.parameters]
    for (name, default, help_, range_, choices, none), p in zip(fields, mech.parameters):
        assert (default, help_) == (p.default, p.help)
        assert choices == p.choices and (range_ is None) == (p.choices is not None or p.is_bool)
    again = dict((f[0], f) for f in fields)["again"]
    assert again[4:] == ((10, 9, 8), "no again")
    # what the file does not count stays the class's own, after the file's fields
    own = [f.name for f in dataclasses.fields(rules_class) if f.name not in mech.parameter_map]
    assert own == ([] if rules_class is requiem.RequiemRules else ["frenzy_bonus_beast", "frenzy_roll_beast_dice"])
    # no again is the file's 11, read by the one translation every counted system uses
    assert rules_class(again=None).mechanic().params["again"] == 11
    assert rules_class(again=None).mechanic() == counted.mechanic_rules(mech, rules_class(again=None))


def test_a_class_may_not_declare_what_its_file_has():
    with pytest.raises(TypeError, match="takes again from analysis.systems.requiem's dice.toml"):

        @dataclasses.dataclass(frozen=True)
        @counted.fields_from_file("analysis.systems.requiem", file="dice.toml")
        class Twice(counted.CountedRules, requiem.Rules):
            again: int = 10
