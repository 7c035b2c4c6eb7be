"""Every result the API returns shows itself compactly: a short ``repr`` and a small HTML table for Jupyter.

The numbers shown are ``float(Fraction)`` of the exact probabilities, as
percentages; the HTML table also has the exact fraction.
"""

from fractions import Fraction
from pathlib import Path

import pytest

from analysis.engine import display, willpower as engine_willpower
from analysis.model.spec import load, rules_of
from analysis.present import tables
from analysis.engine.markov import ExactChain
from analysis.systems.cards import deck
from analysis.systems.classic import health, pools
from analysis.systems.hunter import desperation
from analysis.systems.requiem import beast, dice as requiem
from analysis.systems.v5 import conflict, dice as v5dice, fight, roll, rouse, willpower
from analysis.systems.werewolf import rage

EXAMPLES = Path(__file__).resolve().parents[1] / "analysis" / "model" / "examples"
_ATTACK = health.Attack(damage_dice=6, kind="lethal")


def _key(obj):
    """A probability the object must show, by an independent route (its own exact API)."""
    if hasattr(obj, "p_win") and isinstance(getattr(type(obj), "p_win", None), property):
        return obj.p_win
    if hasattr(obj, "p_success"):
        return obj.p_success
    return None


#: (name, thunk making the result, a probability it must show, or None)
RESULTS = [
    ("V5 MechanicOdds", lambda: roll.odds(5, 2, 3), lambda o: o.p_win),
    (
        "V5 MechanicOdds with Willpower",
        lambda: roll.odds(5, 2, 3, strategy="maximize_win"),
        lambda o: o.willpower_spent,
    ),
    ("RemorseOdds", lambda: roll.remorse(7, 3), lambda o: o.keep_humanity),
    ("V5 MechanicReading", lambda: v5dice.read_roll([1, 5, 10], [10, 1], 2), None),
    ("Decision", lambda: willpower.decide([1, 2, 10], [5, 6], 3, "reroll_failures"), lambda o: o.p_win),
    ("HungerDistribution", lambda: rouse.rouse(1, 3), lambda o: o.hunger[2]),
    ("SurgeOdds", lambda: rouse.surge(5, 2, 3, 2), lambda o: o.hunger_after.hunger[2]),
    (
        "FightResult",
        lambda: fight.fight(conflict.Combatant(pool=5), conflict.Combatant(pool=4), turns=4),
        lambda o: o.probability("b_impaired"),
    ),
    ("Werewolf MechanicOdds", lambda: rage.odds(5, 2, 3), lambda o: o.p_win),
    (
        "MechanicOdds of a designer's file, a house rule, after Willpower",
        lambda: engine_willpower.odds(
            rules_of(load(EXAMPLES / "hunger-one-cancels.toml"), {"cancel_per_one": 2}),
            "maximize_win",
            pool=5,
            hunger=2,
            difficulty=3,
        ),
        lambda o: o.willpower_spent,
    ),
    ("Werewolf MechanicReading", lambda: rage.read_roll([1, 5], [1, 2], 2, violent=True), None),
    ("Hunter MechanicOdds", lambda: desperation.odds(5, 2, 3), lambda o: o.p_win),
    ("Hunter MechanicReading", lambda: desperation.read_roll([1, 5], [1], 2), None),
    ("La Soif MechanicOdds", lambda: beast.odds(5, 2), lambda o: o.p_success),
    ("Requiem MechanicOdds", lambda: requiem.odds(5), lambda o: o.p_success),
    ("SoifLadder", lambda: beast.soif_ladder(11, 3, 2, 2), None),
    ("CardOdds", lambda: deck.odds(10, 15, 1), lambda o: o.p_win),
    ("OpposedOdds", lambda: deck.opposed(10, 8, 1), lambda o: o.classes()["success"]),
    ("SceneOdds", lambda: deck.scene([(6, 12, 1)] * 3), lambda o: o.compulsions[1]),
    ("Classic MechanicOdds", lambda: pools.odds(5, 6), lambda o: o.success),
    ("Classic MechanicReading", lambda: pools.read_pool([1, 6, 8], 6), None),
    ("LevelOdds", lambda: health.damage(5), lambda o: o.levels[1]),
    (
        "Blows",
        lambda: health.blows(_ATTACK, health.Fighter(creature="mortal"), max_blows=3),
        lambda o: o.at_least("incapacitated", 3),
    ),
    (
        "Fight",
        lambda: health.fight(
            health.Fighter(attack=_ATTACK, name="Ana"), health.Fighter(attack=_ATTACK, name="Bo"), turns=3
        ),
        lambda o: o.outcomes()["a_wins"],
    ),
    ("ExactChain", lambda: ExactChain.from_fractions("ab", [{0: Fraction(1, 2), 1: Fraction(1, 2)}, {1: 1}]), None),
]


@pytest.fixture(scope="module", params=RESULTS, ids=[r[0] for r in RESULTS])
def result(request):
    name, make, key = request.param
    obj = make()
    return name, obj, None if key is None else key(obj)


def test_the_repr_is_short_and_shows_the_key_number(result):
    name, obj, key = result
    text = repr(obj)
    lines = text.splitlines()
    assert 1 <= len(lines) <= 5, f"{name}: {len(lines)} lines"
    assert all(len(line) <= 160 for line in lines), f"{name}: a line of {max(map(len, lines))} characters"
    assert text.startswith(type(obj).__name__ + "(")
    internals = ["class_ways", "ExactChain(", "array(", "Attack(", "Fighter(", "Counts(", "rules=", "{"]
    if name != "ExactChain":  # a chain's denominator is what it is about
        internals.append("denominator")
    else:
        internals.remove("ExactChain(")
    for internal in internals:
        assert internal not in text, f"{name} dumps {internal}"
    if key is not None:
        assert isinstance(key, Fraction)
        assert display.percent(key) in text, f"{name} does not show {display.percent(key)}"


def test_the_html_is_a_small_table_with_the_key_number(result):
    name, obj, key = result
    page = obj._repr_html_()
    assert page.startswith("<table>") and page.endswith("</table>")
    assert type(obj).__name__ in page
    assert len(page) < 5000
    if key is not None:
        assert f"<td style='text-align:right'>{display.percent(key)}</td>" in page
        exact = f"{key.numerator}/{key.denominator}" if key.denominator != 1 else str(key)
        if len(exact) <= display.FRACTION_CHARS:
            assert exact in page


def test_printing_blows_does_not_dump_a_nested_object(capsys):
    b = health.blows(_ATTACK, health.Fighter(creature="mortal"), max_blows=3)
    print(b)
    out = capsys.readouterr().out
    assert len(out) < 600 and "chain" not in out and "ways" not in out
    assert f"incapacitated after 3 blows {float(b.at_least('incapacitated', 3)):.2%}" in out


def test_percentages_are_correctly_rounded_and_never_a_false_zero():
    assert display.percent(Fraction(1, 3)) == "33.33%"
    assert display.percent(Fraction(2, 3)) == "66.67%"
    assert display.percent(Fraction(0)) == "0.00%" and display.percent(Fraction(1)) == "100.00%"
    assert display.percent(Fraction(1, 10**9)) == "<0.01%"
    assert display.percent(1 - Fraction(1, 10**9)) == ">99.99%"
    # the float is float(Fraction): correctly rounded even where the ratio of two big ints is not exact
    big = Fraction(10**40 + 1, 3 * 10**40)
    assert display.percent(big) == f"{float(big):.2%}"


def test_a_house_rule_is_named_in_the_repr():
    text = repr(roll.odds(5, 2, 3, rules=v5dice.V5Rules(crit_bonus=3)))
    assert "house rules crit_bonus=3" in text
    assert "house rules" not in repr(roll.odds(5, 2, 3))


def test_comparison_renders_as_html():
    c = tables.compare(
        "v5-official", "v5-two-hunger-ones-for-bestial", {"pool": 3, "hunger": 3, "difficulty": 3}, exact=True
    )
    page = c._repr_html_()
    assert "v5-two-hunger-ones-for-bestial" in page and "<table>" in page
    top = c.top(1)
    assert display.percent(top["difference"][0]) in page
