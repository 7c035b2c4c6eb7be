"""Ten-card tests (the ten-card test rules), counted exactly.

Attribute + 2 x skill + a drawn card, with Hunger confirmation draws."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.rules import Rules, rule
from analysis import decks as _decks
from analysis.exact import ClassWays, fractions_over
from analysis.validate import as_values, check_bool, check_int, check_probability, materialise
from analysis import display as _display

#: The deck, in kernel order: Ace, 2..10 of one suit.
CARDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
#: The four outcome classes of a test, mutually exclusive, in table-column order.
CLASSES = ("success", "failure", "bestial_success", "bestial_failure")
#: Columns of :func:`table`, in order.
TABLE_COLUMNS = ("base", "difficulty", "hunger") + CLASSES + ("p_success",)
#: Columns of :func:`opposed_table`, in order.
OPPOSED_COLUMNS = ("base", "defense", "hunger", "initiator_wins", "bestial_success", "bestial_failure")
#: Columns of :func:`scene_table`, in order.
SCENE_COLUMNS = (
    ("test", "base", "difficulty", "hunger")
    + CLASSES
    + ("p_win", "win_after_win", "win_after_loss", "bestial_after_bestial")
)

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
#: ``CardRules.ace`` choices: ``fails`` (the card rules: an Ace always fails its
#: drawer), ``low`` (the Ace counts 1 and does not fail by itself), ``high``
#: (the Ace counts 11 and does not fail by itself).
ACE_RULES = ("fails", "low", "high")
#: ``CardRules.ties`` choices: who a tie goes to (the card rules: the initiator;
#: in a static test, a total equal to the difficulty succeeds).
TIE_RULES = ("initiator", "defender")
#: ``CardRules.confirmation`` choices: where the Hunger confirmation card
#: comes from (the card rules: the same deck's remaining nine cards).
CONFIRMATIONS = ("same_deck", "fresh_deck")

MAX_HUNGER = 5
#: Totals and difficulties above this are refused (no table needs them).
MAX_VALUE = 1000
#: Longest scene :func:`scene` counts (the state count grows as tests**2).
MAX_SCENE = 20


@dataclass(frozen=True)
class CardRules(Rules):
    """A ten-card rule set.  The defaults are the ten-card test rules as ruled in docs/rules.md.

    Attributes
    ----------
    ace : str
        ``"fails"`` (default): a drawn Ace always fails its drawer.
        ``"low"``: the Ace counts 1, ``"high"``: it counts 11; either way it
        no longer fails by itself.  The Ace calls for and confirms Hunger
        confirmation draws under every rule.
    ties : str
        ``"initiator"`` (default): a total equal to the difficulty succeeds,
        and equal totals in an opposed test go to the initiator.
        ``"defender"``: the initiator must beat the difficulty or the
        defender's total.
    confirmation : str
        ``"same_deck"`` (default): the Hunger confirmation card is drawn from
        the same deck's remaining nine cards.  ``"fresh_deck"``: from a full
        deck of its own (a 10 or an Ace then confirms 2 times in 10).
    reshuffle : bool
        Scenes only.  True (default): the deck is whole again for every
        test.  False: one scene deck is not reshuffled between tests (until
        it runs out, when all ten cards are shuffled back).
    """

    ace: str = rule(
        "fails",
        choices=ACE_RULES,
        help="fails (default): a drawn Ace always fails its drawer; low: it counts 1, high: 11, "
        "and no longer fails by itself.",
    )
    ties: str = rule(
        "initiator",
        choices=TIE_RULES,
        help="initiator (default): a total equal to the difficulty or the defender's succeeds; "
        "defender: the initiator must beat it.",
    )
    confirmation: str = rule(
        "same_deck",
        choices=CONFIRMATIONS,
        help="Where the Hunger confirmation card comes from: same_deck (default, the remaining nine) or fresh_deck.",
    )
    reshuffle: bool = rule(
        True, help="Scenes only: the deck is whole again for every test (default true); false: one scene deck."
    )

    @property
    def values(self) -> tuple:
        """What each card (Ace, 2..10) adds to the total."""
        ace = {"fails": 1, "low": 1, "high": 11}[self.ace]
        return (ace,) + tuple(range(2, 11))

    @property
    def auto_fail(self) -> tuple:
        """1 for the cards that fail their drawer whatever the total."""
        return (1 if self.ace == "fails" else 0,) + (0,) * 9

    @property
    def triggers(self) -> tuple:
        """1 for the cards that call for (and confirm) a confirmation draw: Ace and 10."""
        return (1,) + (0,) * 8 + (1,)

    def deck(self):
        """The deck as the kernels take it: (values, auto_fail, triggers) int64 arrays."""
        return tuple(np.array(a, dtype=np.int64) for a in (self.values, self.auto_fail, self.triggers))

    @property
    def win_on_tie(self) -> int:
        return 1 if self.ties == "initiator" else 0

    @property
    def fresh_confirmation(self) -> int:
        return 1 if self.confirmation == "fresh_deck" else 0


OFFICIAL = CardRules()


def _deck(rules: CardRules) -> tuple:
    """The deck as the engine takes it: (values, auto_fail, triggers) tuples."""
    return (rules.values, rules.auto_fail, rules.triggers)


def _hungry(hungers) -> tuple:
    """1 for a Hunger of 1 or more (a confirmation slot), else 0."""
    return tuple(1 if h >= 1 else 0 for h in hungers)


def _denominator(rules: CardRules, opposed: bool = False) -> int:
    return _decks.denominator(len(CARDS), rules.fresh_confirmation, opposed)


# ------------------------------------------------------------------ counting


def _static_ways(bases: tuple, difficulties: tuple, hungers: tuple, rules: CardRules) -> np.ndarray:
    return _decks.grid_ways(
        False, _deck(rules), bases, difficulties, _hungry(hungers), rules.win_on_tie, rules.fresh_confirmation
    )


def _opposed_ways(bases: tuple, defenses: tuple, hungers: tuple, rules: CardRules) -> np.ndarray:
    return _decks.grid_ways(
        True, _deck(rules), bases, defenses, _hungry(hungers), rules.win_on_tie, rules.fresh_confirmation
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
    ways = _static_ways((base,), (difficulty,), (hunger,), rules)[0, 0, 0]
    return CardOdds(
        base=base,
        difficulty=difficulty,
        hunger=hunger,
        rules=rules,
        denominator=_denominator(rules),
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
        denominator=_denominator(rules, opposed=True),
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
    ways = _static_ways(tuple(bases), tuple(diffs), tuple(hungers), rules).reshape(-1, _decks.N_CLASSES)
    ways = np.concatenate([ways, ways[:, [_decks.SUCCESS]] + ways[:, [_decks.BESTIAL_SUCCESS]]], axis=1)
    grid = np.array(np.meshgrid(bases, diffs, hungers, indexing="ij")).reshape(3, -1)
    values = _values_frame(ways, _denominator(rules), exact)
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
    values = _values_frame(ways, _denominator(rules, opposed=True), exact)
    cols = {"base": grid[0], "defense": grid[1], "hunger": grid[2]}
    for j, name in enumerate(OPPOSED_COLUMNS[3:]):
        cols[name] = values[:, j]
    return pd.DataFrame(cols)


# ------------------------------------------------------------------ scenes


def _check_scene(tests) -> tuple:
    # a set (no order), a dict or a text is refused; at most one test past the limit is read
    tests = materialise(
        "tests",
        tests,
        "a list of (base, difficulty) or (base, difficulty, hunger) tuples",
        MAX_SCENE,
        too_many=f"a scene must have 1..{MAX_SCENE} tests, got {{count}}",
    )
    if not 1 <= len(tests) <= MAX_SCENE:
        raise ValueError(f"a scene must have 1..{MAX_SCENE} tests, got {len(tests)}")
    out = []
    for i, t in enumerate(tests, 1):
        if isinstance(t, dict):
            unknown = set(t) - {"base", "difficulty", "hunger"}
            if unknown or not {"base", "difficulty"} <= set(t):
                raise ValueError(f"test {i}: expected keys base, difficulty and optionally hunger, got {sorted(t)}")
            t = (t["base"], t["difficulty"], t.get("hunger", 0))
        if isinstance(t, (str, bytes)) or not hasattr(t, "__len__") or len(t) not in (2, 3):
            raise ValueError(f"test {i}: expected (base, difficulty) or (base, difficulty, hunger), got {t!r}")
        base = check_int(f"test {i}: base", t[0], 0, MAX_VALUE)
        diff = check_int(f"test {i}: difficulty", t[1], 0, MAX_VALUE)
        hunger = check_int(f"test {i}: hunger", t[2], 0, MAX_HUNGER) if len(t) == 3 else 0
        out.append((base, diff, hunger))
    return tuple(out)


def _scene_counts(tests: tuple, rules: CardRules):
    hungry = _hungry(h for _, _, h in tests)
    return _decks.scene_counts(
        _deck(rules),
        tuple((b, d, f) for (b, d, _), f in zip(tests, hungry)),
        rules.win_on_tie,
        rules.fresh_confirmation,
        int(rules.reshuffle),
    )


_GROUPS = {
    "win": ("success", "bestial_success"),
    "loss": ("failure", "bestial_failure"),
    "bestial": ("bestial_success", "bestial_failure"),
}


def _group(name: str) -> tuple:
    if name in CLASSES:
        return (name,)
    if name in _GROUPS:
        return _GROUPS[name]
    raise ValueError(f"unknown outcome {name!r}; choose from {', '.join(CLASSES + tuple(_GROUPS))}")


@dataclass(frozen=True)
class SceneOdds:
    """The exact odds of a scene: several static tests, one after another.

    Tests are numbered from 1.  With ``rules.reshuffle`` False they draw
    from one scene deck that is not reshuffled, so what one test draws
    changes what the next can draw.
    """

    tests: tuple
    rules: CardRules
    marginal_ways: np.ndarray
    pair_ways: np.ndarray
    count_ways: np.ndarray
    denominators: tuple

    def _index(self, test) -> int:
        return check_int("test", test, 1, len(self.tests)) - 1

    def classes(self, test: int) -> dict:
        """The four classes of one test as ``{name: Fraction}`` (over all that went before)."""
        t = self._index(test)
        return {c: Fraction(int(self.marginal_ways[t, k]), self.denominators[t]) for k, c in enumerate(CLASSES)}

    def p_win(self, test: int) -> Fraction:
        """Probability that this test is won (bestially or not)."""
        c = self.classes(test)
        return c["success"] + c["bestial_success"]

    def after(self, test: int, given: str, outcome: str = "win") -> Fraction:
        """P(test ends in ``outcome`` | the test before it ended in ``given``).

        ``given`` and ``outcome`` are a class name or ``"win"``, ``"loss"``,
        ``"bestial"``.  Raises ValueError for test 1, or when ``given``
        cannot happen.
        """
        t = self._index(test)
        if t == 0:
            raise ValueError("test 1 has no test before it; choose a test from 2 on")
        rows = [CLASSES.index(c) for c in _group(given)]
        cols = [CLASSES.index(c) for c in _group(outcome)]
        joint = sum(int(self.pair_ways[t - 1, i, j]) for i in rows for j in cols)
        cond = sum(int(self.pair_ways[t - 1, i, j]) for i in rows for j in range(_decks.N_CLASSES))
        if cond == 0:
            raise ValueError(f"test {t} cannot end in {given!r}, so nothing follows from it")
        return Fraction(joint, cond)

    @property
    def wins(self) -> dict:
        """Distribution of the number of tests won: ``{wins: Fraction}``."""
        den = self.denominators[-1]
        return {w: Fraction(int(x), den) for w, x in enumerate(self.count_ways.sum(axis=1)) if x}

    @property
    def compulsions(self) -> dict:
        """Distribution of the number of bestial results (Compulsions) in the scene."""
        den = self.denominators[-1]
        return {b: Fraction(int(x), den) for b, x in enumerate(self.count_ways.sum(axis=0)) if x}

    def __str__(self) -> str:
        deck = "reshuffled before every test" if self.rules.reshuffle else "one deck, not reshuffled"
        lines = [f"Card scene of {len(self.tests)} tests ({deck})"]
        for i, (b, d, h) in enumerate(self.tests, 1):
            c = self.classes(i)
            lines.append(
                f"  test {i}: base {b} vs {d}, Hunger {h}: win {float(self.p_win(i)):.2%}, "
                f"bestial {float(c['bestial_success'] + c['bestial_failure']):.2%}"
            )
        lines.append("  Compulsions: " + ", ".join(f"{b}: {float(p):.2%}" for b, p in self.compulsions.items()))
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.display`)."""
        head = [f"{len(self.tests)} tests", "reshuffled" if self.rules.reshuffle else "one scene deck"]
        rows = [(f"test {i + 1} win", self.p_win(i + 1)) for i in range(len(self.tests))]
        rows += [(f"{k} compulsions", p) for k, p in self.compulsions.items()]
        return head, rows


def scene(tests, rules: CardRules = OFFICIAL) -> SceneOdds:
    """Exact odds of a scene of static tests drawn one after another.

    Parameters
    ----------
    tests : list of tuples
        ``(base, difficulty)`` or ``(base, difficulty, hunger)`` per test (or
        dicts with those keys), 1..20 tests.
    rules : CardRules
        ``rules.reshuffle`` False draws every test (and, with same-deck
        confirmation, every confirmation card) from one scene deck that is
        not reshuffled until it runs out.  Default: reshuffled every test.

    Returns
    -------
    SceneOdds
        Each test's classes, the odds of a test given the one before
        (``after``), and the distributions of wins and of Compulsions.
    """
    tests = _check_scene(tests)
    rules = CardRules.require(rules)
    marg, pair, count, dens = _scene_counts(tests, rules)
    return SceneOdds(tests=tests, rules=rules, marginal_ways=marg, pair_ways=pair, count_ways=count, denominators=dens)


def scene_table(tests, rules: CardRules = OFFICIAL, exact: bool = False) -> pd.DataFrame:
    """One row per test of a scene: its classes and how it follows the test before.

    Columns ``test, base, difficulty, hunger, success, failure,
    bestial_success, bestial_failure, p_win, win_after_win, win_after_loss,
    bestial_after_bestial``.  The ``..._after_...`` columns are conditional
    on the previous test; they are NaN (``None`` with ``exact``) for test 1
    and where the condition cannot happen.
    """
    exact = check_bool("exact", exact)
    s = scene(tests, rules)
    rows = []
    for i, (b, d, h) in enumerate(s.tests, 1):
        row = {"test": i, "base": b, "difficulty": d, "hunger": h, **s.classes(i), "p_win": s.p_win(i)}
        for col, given, outcome in (
            ("win_after_win", "win", "win"),
            ("win_after_loss", "loss", "win"),
            ("bestial_after_bestial", "bestial", "bestial"),
        ):
            try:
                row[col] = s.after(i, given, outcome)
            except ValueError:
                row[col] = None
        rows.append(row)
    df = pd.DataFrame(rows, columns=list(SCENE_COLUMNS))
    if not exact:
        for c in SCENE_COLUMNS[4:]:
            df[c] = [np.nan if v is None else float(v) for v in df[c]]
    return df


# ------------------------------------------------------------------ V5 comparison

COMPARE_COLUMNS = (
    "pool",
    "difficulty",
    "hunger",
    "v5_win",
    "card_base",
    "card_difficulty",
    "card_win",
    "v5_messy_critical",
    "v5_bestial_failure",
    "card_bestial_success",
    "card_bestial_failure",
)


def nearest_card_test(p: Fraction, card_difficulty: int, rules: CardRules = OFFICIAL) -> int:
    """The base whose card test against ``card_difficulty`` wins nearest to ``p``.

    Candidates are the bases from the one no card can lift to the difficulty
    up to the difficulty itself (never below 0).  Equal distances go to the
    lower chance; bases with the same chance to the smallest base.
    """
    p = check_probability("p", p)
    card_difficulty = check_int("card_difficulty", card_difficulty, 0, MAX_VALUE)
    rules = CardRules.require(rules)
    lo = max(0, card_difficulty - max(rules.values) - 1)
    bases = tuple(range(lo, card_difficulty + 1))
    ways = _static_ways(bases, (card_difficulty,), (0,), rules)[:, 0, 0]
    den = _denominator(rules)
    best: tuple[Fraction, Fraction, int] | None = None
    for b, w in zip(bases, ways):
        q = Fraction(int(w[_decks.SUCCESS] + w[_decks.BESTIAL_SUCCESS]), den)
        key = (abs(q - p), q, b)
        if best is None or key < best:
            best = key
    assert best is not None  # bases runs up to the card difficulty: never empty
    return best[2]


def compare_v5(
    pools=range(1, 11),
    difficulties=range(1, 6),
    hungers=range(0, 6),
    card_difficulty: int = 12,
    rules: CardRules = OFFICIAL,
    v5_rules=None,
    exact: bool = False,
) -> pd.DataFrame:
    """For each V5 pool, Difficulty and Hunger: the card test that wins about as often.

    The card test is ``card_base`` vs ``card_difficulty`` with the success
    chance nearest to V5's chance to win (see :func:`nearest_card_test`; any
    card difficulty gives the same chances, shifted).  Beside it, the
    bestial chances of both systems at that Hunger: V5's messy critical and
    bestial failure, the card test's bestial success and bestial failure.

    Parameters
    ----------
    pools, difficulties, hungers : int, SPEC string or iterable of ints
        V5 pools (0..1000), Difficulties (>= 0) and Hunger (0..5).
    card_difficulty : int
        The card difficulty to express the matching test against (default 12).
    rules : CardRules
        Card rules (the ten-card test rules by default).
    v5_rules : analysis.v5.V5Rules, optional
        V5 rules (official by default).
    exact : bool
        False: float64 probabilities.  True: ``Fraction`` objects.

    Returns
    -------
    pandas.DataFrame
        Columns ``pool, difficulty, hunger, v5_win, card_base,
        card_difficulty, card_win, v5_messy_critical, v5_bestial_failure,
        card_bestial_success, card_bestial_failure``.
    """
    exact = check_bool("exact", exact)
    from analysis.systems.v5 import roll as v5

    rules = CardRules.require(rules)
    card_difficulty = check_int("card_difficulty", card_difficulty, 0, MAX_VALUE)
    kwargs = {} if v5_rules is None else {"rules": v5_rules}
    v5df = v5.table(pools, hungers, difficulties, exact=True, **kwargs)
    rows = []
    for r in v5df.itertuples(index=False):
        base = nearest_card_test(r.p_win, card_difficulty, rules)
        card = _odds(base, card_difficulty, int(r.hunger), rules)
        rows.append(
            {
                "pool": r.pool,
                "difficulty": r.difficulty,
                "hunger": r.hunger,
                "v5_win": r.p_win,
                "card_base": base,
                "card_difficulty": card_difficulty,
                "card_win": card.p_win,
                "v5_messy_critical": r.messy_critical,
                "v5_bestial_failure": r.bestial_failure,
                "card_bestial_success": card.bestial_success,
                "card_bestial_failure": card.bestial_failure,
            }
        )
    df = pd.DataFrame(rows, columns=list(COMPARE_COLUMNS))
    df = df.sort_values(["pool", "difficulty", "hunger"], kind="stable").reset_index(drop=True)
    for c in ("pool", "difficulty", "hunger", "card_base", "card_difficulty"):
        df[c] = df[c].astype(np.int64)
    if not exact:
        for c in (
            "v5_win",
            "card_win",
            "v5_messy_critical",
            "v5_bestial_failure",
            "card_bestial_success",
            "card_bestial_failure",
        ):
            df[c] = df[c].astype(float)
    return df


__all__ = [
    "CARDS",
    "CLASSES",
    "TABLE_COLUMNS",
    "OPPOSED_COLUMNS",
    "SCENE_COLUMNS",
    "COMPARE_COLUMNS",
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
    "nearest_card_test",
    "compare_v5",
]
