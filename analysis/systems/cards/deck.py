"""Ten-card tests (the ten-card test rules), counted exactly.

Attribute + 2 x skill + a drawn card, with Hunger confirmation draws: one
static or opposed test, from the character sheet or from its totals, and
their tables.  The rules are in :mod:`analysis.systems.cards.rules`, scenes
of several tests in :mod:`analysis.systems.cards.scenes` (their names are
importable from here too, ``__all__``); the comparison with V5, which counts
with this module, is :mod:`analysis.versus.cards_v5`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.engine import decks as _decks, display as _display
from analysis.engine.exact import ClassWays, fractions_over
from analysis.systems.cards.rules import (
    ACE_RULES,
    CARDS,
    CLASSES,
    CONFIRMATIONS,
    MAX_HUNGER,
    MAX_SCENE,  # noqa: F401  (deck.MAX_SCENE, as before)
    MAX_VALUE,
    OFFICIAL,
    TIE_RULES,
    CardRules,
    denominator,
    engine_deck,
    hunger_slots,
)
from analysis.systems.cards.scenes import SCENE_COLUMNS, SceneOdds, scene, scene_table
from analysis.model.validate import as_values, check_bool, check_int

#: Columns of :func:`table`, in order.
TABLE_COLUMNS = ("base", "difficulty", "hunger") + CLASSES + ("p_success",)
#: Columns of :func:`opposed_table`, in order.
OPPOSED_COLUMNS = ("base", "defense", "hunger", "initiator_wins", "bestial_success", "bestial_failure")

#: Skills a character may test without having them (the ten-card test rules: the combat
#: skills).  Without the skill, weapon qualities don't apply.  English and
#: the card rules' German names, any case.
SKILL_FREE = {
    "athletics": "Athletics",
    "athletik": "Athletics",
    "melee": "Melee",
    "nahkampf": "Melee",
    "brawl": "Brawl",
    "handgemenge": "Brawl",
    "firearms": "Firearms",
    "schusswaffen": "Firearms",
}
#: Penalty to the initiator of a combat test, by light.
LIGHT_PENALTY = {"normal": 0, "dim": 3, "dark": 6}


# ------------------------------------------------------------------ counting


def static_ways(bases: tuple, difficulties: tuple, hungers: tuple, rules: CardRules) -> np.ndarray:
    return _decks.grid_ways(
        False,
        engine_deck(rules),
        bases,
        difficulties,
        hunger_slots(hungers),
        rules.win_on_tie,
        rules.fresh_confirmation,
    )


def _opposed_ways(bases: tuple, defenses: tuple, hungers: tuple, rules: CardRules) -> np.ndarray:
    return _decks.grid_ways(
        True, engine_deck(rules), bases, defenses, hunger_slots(hungers), rules.win_on_tie, rules.fresh_confirmation
    )


# ------------------------------------------------------------------ one test


@dataclass(frozen=True)
class CardOdds(ClassWays):
    """The exact odds of one static test.

    Probabilities are ``Fraction``s: ``ways / denominator``, where the
    denominator counts every ordered draw of the first card and the card a
    confirmation would take (10 x 9 = 90 from one deck, 100 with a fresh
    confirmation deck).  The four classes are mutually exclusive and sum to 1.
    """

    base: int
    difficulty: int
    hunger: int
    rules: CardRules
    denominator: int
    class_ways: dict

    success = property(lambda self: self.probability("success"), doc="Won, not bestial.")
    failure = property(lambda self: self.probability("failure"), doc="Lost, not bestial.")
    bestial_success = property(
        lambda self: self.probability("bestial_success"),
        doc="Won, and the confirmation card made it bestial (a Compulsion).",
    )
    bestial_failure = property(
        lambda self: self.probability("bestial_failure"),
        doc="Lost, and the confirmation card made it bestial (a Compulsion).",
    )

    @property
    def p_success(self) -> Fraction:
        """Probability of succeeding at the test, bestially or not (``success + bestial_success``)."""
        return self.success + self.bestial_success

    @property
    def p_win(self) -> Fraction:
        """The same as :attr:`p_success`: the chance of winning the test, bestially or not."""
        return self.p_success

    @property
    def p_bestial(self) -> Fraction:
        """Probability of a bestial result (a Compulsion), won or lost."""
        return self.bestial_success + self.bestial_failure

    def __str__(self) -> str:
        lines = [f"Card test: base {self.base} + card vs difficulty {self.difficulty}, Hunger {self.hunger}"]
        if self.rules != OFFICIAL:
            lines.append(f"house rules: {self.rules.changes()}")
        for name, p in list(self.classes().items()) + [("p_win", self.p_win)]:
            lines.append(f"  {name:<16}{float(p):8.2%}   {p}")
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html


def _check_hunger(hunger) -> int:
    return check_int("hunger", hunger, 0, MAX_HUNGER)


def _odds(base: int, difficulty: int, hunger: int, rules: CardRules) -> CardOdds:
    ways = static_ways((base,), (difficulty,), (hunger,), rules)[0, 0, 0]
    return CardOdds(
        base=base,
        difficulty=difficulty,
        hunger=hunger,
        rules=rules,
        denominator=denominator(rules),
        class_ways={c: int(w) for c, w in zip(CLASSES, ways)},
    )


def odds(base: int, difficulty: int, hunger: int = 0, rules: CardRules = OFFICIAL) -> CardOdds:
    """Exact odds of a static test: ``base + card >= difficulty``.

    Parameters
    ----------
    base : int
        Attribute + 2 x skill - penalties (0..1000); see :func:`base_total`
        and :func:`skill_test` to start from the character sheet.
    difficulty : int
        The total to reach (0..1000).
    hunger : int
        The vampire's Hunger, 0..5.  From 1 on, a 10 or an Ace calls for a
        confirmation card, and a 10 or an Ace there makes the test bestial.
    rules : CardRules
        The official card rules by default.

    Returns
    -------
    CardOdds
        Exact Fractions of ``success``, ``failure``, ``bestial_success`` and
        ``bestial_failure`` (summing to 1), and ``p_win``, ``p_bestial``.

    Raises
    ------
    ValueError
        On a negative or non-whole value, or Hunger outside 0..5.
    """
    base = check_int("base", base, 0, MAX_VALUE)
    difficulty = check_int("difficulty", difficulty, 0, MAX_VALUE)
    return _odds(base, difficulty, _check_hunger(hunger), CardRules.require(rules))


@dataclass(frozen=True)
class OpposedOdds(ClassWays):
    """The exact odds of an opposed test, from the initiator's side.

    The denominator counts the initiator's first card, the card a
    confirmation would take, and the defender's card (10 x 9 x 10 = 900
    with same-deck confirmation).  ``class_ways`` holds the four mutually
    exclusive classes ``success, failure, bestial_success, bestial_failure``
    of the initiator's test.
    """

    base: int
    defense: int
    hunger: int
    rules: CardRules
    denominator: int
    class_ways: dict

    @property
    def initiator_wins(self) -> Fraction:
        """Probability the initiator wins, bestially or not."""
        return self.probability("success") + self.probability("bestial_success")

    @property
    def defender_wins(self) -> Fraction:
        """Probability the initiator loses (bestially or not)."""
        return 1 - self.initiator_wins

    bestial_success = property(
        lambda self: self.probability("bestial_success"), doc="The initiator wins, bestially (part of initiator_wins)."
    )
    bestial_failure = property(
        lambda self: self.probability("bestial_failure"), doc="The initiator loses, bestially (part of defender_wins)."
    )

    def __str__(self) -> str:
        lines = [
            f"Opposed card test: initiator base {self.base} + card vs defense "
            f"{self.defense} + card, Hunger {self.hunger}"
        ]
        if self.rules != OFFICIAL:
            lines.append(f"house rules: {self.rules.changes()}")
        for name in ("initiator_wins", "bestial_success", "bestial_failure", "defender_wins"):
            p = getattr(self, name)
            lines.append(f"  {name:<16}{float(p):8.2%}   {p}")
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html


def _opposed(base: int, defense: int, hunger: int, rules: CardRules) -> OpposedOdds:
    ways = _opposed_ways((base,), (defense,), (hunger,), rules)[0, 0, 0]
    return OpposedOdds(
        base=base,
        defense=defense,
        hunger=hunger,
        rules=rules,
        denominator=denominator(rules, opposed=True),
        class_ways={c: int(w) for c, w in zip(CLASSES, ways)},
    )


def opposed(base: int, defense: int, hunger: int = 0, rules: CardRules = OFFICIAL) -> OpposedOdds:
    """Exact odds of an opposed test: initiator ``base + card`` vs ``defense + card``.

    Each side draws from a full deck of its own.  Higher total wins, ties go
    to the initiator (``rules.ties``), an Ace fails its drawer (both Aces:
    the initiator does not win).  The initiator's Hunger works as in a
    static test; the defender draws no confirmation card.

    Parameters
    ----------
    base : int
        Initiator's attribute + 2 x skill - penalties (0..1000).
    defense : int
        Defender's attribute + maximum Willpower (0..1000).
    hunger : int
        The initiator's Hunger, 0..5.
    rules : CardRules
        The official card rules by default.

    Returns
    -------
    OpposedOdds
        Exact ``initiator_wins``, ``bestial_success`` (part of the wins),
        ``bestial_failure`` (part of the losses), ``defender_wins``.

    Raises
    ------
    ValueError
        On a negative or non-whole value, or Hunger outside 0..5.
    """
    base = check_int("base", base, 0, MAX_VALUE)
    defense = check_int("defense", defense, 0, MAX_VALUE)
    return _opposed(base, defense, _check_hunger(hunger), CardRules.require(rules))


# ------------------------------------------------------ from the character sheet


def _skill_name(skill_name):
    if skill_name is None:
        return None
    if not isinstance(skill_name, str) or not skill_name.strip():
        raise ValueError(f"skill_name must be the skill's name, got {skill_name!r}")
    return skill_name.strip()


def base_total(
    attribute: int,
    skill: int,
    *,
    skill_name: str | None = None,
    combat: bool | None = None,
    light: str = "normal",
    penalty: int = 0,
    weapon_bonus: int = 0,
) -> int:
    """The initiator's total before the card: attribute + 2 x skill - penalties.

    Parameters
    ----------
    attribute, skill : int
        Dots (0..100 each).
    skill_name : str, optional
        The skill tested.  A test needs the skill (``skill >= 1``), except
        Athletics, Melee, Brawl and Firearms (German names accepted too).
    combat : bool, optional
        Whether this is a combat test (light penalties apply).  Default:
        True for those four skills, else False.
    light : str
        ``"normal"``, ``"dim"`` (-3 in combat) or ``"dark"`` (-6 in combat).
    penalty : int
        Any further penalty the storyteller sets (>= 0).
    weapon_bonus : int
        What a weapon's qualities add to the total (>= 0; the card rules give no
        numbers).  Counts only when the character has the skill.

    Returns
    -------
    int
        The total before the card; it may be negative after penalties.

    Raises
    ------
    ValueError
        On a negative or non-whole value, an unknown light, or a test
        without the skill that the rules don't allow.
    """
    attribute = check_int("attribute", attribute, 0, 100)
    skill = check_int("skill", skill, 0, 100)
    name = _skill_name(skill_name)
    penalty = check_int("penalty", penalty, 0, MAX_VALUE)
    weapon_bonus = check_int("weapon_bonus", weapon_bonus, 0, MAX_VALUE)
    if light not in LIGHT_PENALTY:
        raise ValueError(f"light must be one of {', '.join(LIGHT_PENALTY)}, got {light!r}")
    skill_free = name is not None and name.lower() in SKILL_FREE
    if combat is None:
        combat = skill_free
    else:
        combat = check_bool("combat", combat)
    if skill == 0 and not skill_free:
        what = f"a {name} test" if name else "this test"
        raise ValueError(
            f"{what} needs the skill: without it a character cannot attempt it "
            f"(only Athletics, Melee, Brawl and Firearms may be tried without the skill"
            f"{'' if name else '; name the skill with skill_name'})"
        )
    total = attribute + 2 * skill - penalty
    if combat:
        total -= LIGHT_PENALTY[light]
    if skill > 0:
        total += weapon_bonus
    return total


def skill_test(
    attribute: int,
    skill: int,
    difficulty: int,
    *,
    skill_name: str | None = None,
    hunger: int = 0,
    combat: bool | None = None,
    light: str = "normal",
    penalty: int = 0,
    weapon_bonus: int = 0,
    rules: CardRules = OFFICIAL,
) -> CardOdds:
    """Exact odds of a static test from the character sheet.

    ``attribute + 2 x skill - penalties + card >= difficulty``; the keyword
    arguments are those of :func:`base_total` and :func:`odds`.  A test of a
    skill the character lacks is refused (ValueError) unless it is
    Athletics, Melee, Brawl or Firearms.
    """
    base = base_total(
        attribute, skill, skill_name=skill_name, combat=combat, light=light, penalty=penalty, weapon_bonus=weapon_bonus
    )
    difficulty = check_int("difficulty", difficulty, 0, MAX_VALUE)
    return _odds(base, difficulty, _check_hunger(hunger), CardRules.require(rules))


def opposed_test(
    attribute: int,
    skill: int,
    defender_attribute: int,
    defender_willpower: int,
    *,
    skill_name: str | None = None,
    hunger: int = 0,
    combat: bool | None = None,
    light: str = "normal",
    penalty: int = 0,
    weapon_bonus: int = 0,
    rules: CardRules = OFFICIAL,
) -> OpposedOdds:
    """Exact odds of an opposed test from both character sheets.

    Initiator: ``attribute + 2 x skill - penalties + card`` (as in
    :func:`base_total`); defender: ``defender_attribute + maximum Willpower
    + card``.  See :func:`opposed`.
    """
    base = base_total(
        attribute, skill, skill_name=skill_name, combat=combat, light=light, penalty=penalty, weapon_bonus=weapon_bonus
    )
    defense = check_int("defender_attribute", defender_attribute, 0, 100) + check_int(
        "defender_willpower", defender_willpower, 0, 100
    )
    return _opposed(base, defense, _check_hunger(hunger), CardRules.require(rules))


# ------------------------------------------------------------------ tables


def _values_frame(ways, den, exact):
    if exact:
        return fractions_over(ways, den)
    return ways.astype(np.float64) / float(den)


def table(bases, difficulties, hungers=0, rules: CardRules = OFFICIAL, exact: bool = False) -> pd.DataFrame:
    """A tidy odds table of static tests: one row per (base, difficulty, hunger).

    Parameters
    ----------
    bases, difficulties, hungers : int, SPEC string or iterable of ints
        SPEC is ``7``, a range ``1-20`` or a list ``3,5,7``.  ``base`` is
        attribute + 2 x skill - penalties (0..1000), Hunger 0..5.
    rules : CardRules
        The official card rules by default.
    exact : bool
        False: float64 probabilities.  True: ``Fraction`` objects.

    Returns
    -------
    pandas.DataFrame
        Columns ``base, difficulty, hunger, success, failure,
        bestial_success, bestial_failure`` (the four classes, summing to 1),
        then ``p_success``: the chance to succeed, bestially or not
        (``success + bestial_success``).
    """
    exact = check_bool("exact", exact)
    bases = as_values("base", bases, 0, MAX_VALUE)
    diffs = as_values("difficulty", difficulties, 0, MAX_VALUE)
    hungers = as_values("hunger", hungers, 0, MAX_HUNGER)
    rules = CardRules.require(rules)
    ways = static_ways(tuple(bases), tuple(diffs), tuple(hungers), rules).reshape(-1, _decks.N_CLASSES)
    ways = np.concatenate([ways, ways[:, [_decks.SUCCESS]] + ways[:, [_decks.BESTIAL_SUCCESS]]], axis=1)
    grid = np.array(np.meshgrid(bases, diffs, hungers, indexing="ij")).reshape(3, -1)
    values = _values_frame(ways, denominator(rules), exact)
    cols = {"base": grid[0], "difficulty": grid[1], "hunger": grid[2]}
    for j, name in enumerate(CLASSES + ("p_success",)):
        cols[name] = values[:, j]
    return pd.DataFrame(cols)


def opposed_table(bases, defenses, hungers=0, rules: CardRules = OFFICIAL, exact: bool = False) -> pd.DataFrame:
    """A tidy odds table of opposed tests: one row per (base, defense, hunger).

    Parameters
    ----------
    bases, defenses, hungers : int, SPEC string or iterable of ints
        The initiator's base (attribute + 2 x skill - penalties), the
        defender's attribute + maximum Willpower (each 0..1000), and the
        initiator's Hunger (0..5).
    rules : CardRules
        The official card rules by default.
    exact : bool
        False: float64 probabilities.  True: ``Fraction`` objects.

    Returns
    -------
    pandas.DataFrame
        Columns ``base, defense, hunger, initiator_wins, bestial_success,
        bestial_failure``.  ``initiator_wins`` counts every win, bestial or
        not; ``bestial_success`` is the bestial part of it and
        ``bestial_failure`` the bestial part of the losses.
    """
    exact = check_bool("exact", exact)
    bases = as_values("base", bases, 0, MAX_VALUE)
    defenses = as_values("defense", defenses, 0, MAX_VALUE)
    hungers = as_values("hunger", hungers, 0, MAX_HUNGER)
    rules = CardRules.require(rules)
    ways = _opposed_ways(tuple(bases), tuple(defenses), tuple(hungers), rules).reshape(-1, _decks.N_CLASSES)
    ways = np.stack(
        [
            ways[:, _decks.SUCCESS] + ways[:, _decks.BESTIAL_SUCCESS],
            ways[:, _decks.BESTIAL_SUCCESS],
            ways[:, _decks.BESTIAL_FAILURE],
        ],
        axis=1,
    )
    grid = np.array(np.meshgrid(bases, defenses, hungers, indexing="ij")).reshape(3, -1)
    values = _values_frame(ways, denominator(rules, opposed=True), exact)
    cols = {"base": grid[0], "defense": grid[1], "hunger": grid[2]}
    for j, name in enumerate(OPPOSED_COLUMNS[3:]):
        cols[name] = values[:, j]
    return pd.DataFrame(cols)


__all__ = [
    "CARDS",
    "CLASSES",
    "TABLE_COLUMNS",
    "OPPOSED_COLUMNS",
    "SCENE_COLUMNS",
    "SKILL_FREE",
    "LIGHT_PENALTY",
    "ACE_RULES",
    "TIE_RULES",
    "CONFIRMATIONS",
    "CardRules",
    "OFFICIAL",
    "CardOdds",
    "OpposedOdds",
    "SceneOdds",
    "odds",
    "opposed",
    "base_total",
    "skill_test",
    "opposed_test",
    "table",
    "opposed_table",
    "scene",
    "scene_table",
]
