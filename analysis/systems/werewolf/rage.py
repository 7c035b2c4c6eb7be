"""Werewolf: the Apocalypse 5th edition rolls with Rage dice, counted exactly by the mechanic engine.

The rules as counted here (Werewolf: the Apocalypse 5th edition, core book):
Rage dice replace normal dice, as many as the werewolf's Rage (up to the
whole pool).  Every die showing 6 or more is a success and each pair of 10s
on any dice adds 2 more.  When two or more Rage dice show a 1 or a 2 the
outcome is *Brutal*: on a violent action the roll gains 4 successes, on any
other action it fails outright.

The rules are written once, as data, in this package's ``mechanic.toml``;
the fields of :class:`WerewolfRules` are its parameters, and
:mod:`analysis.engine.count` (:mod:`analysis.engine.willpower` after a
Willpower reroll) counts every roll exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from analysis.engine import at_least as _al, distribution
from analysis.systems import counted as _counted
from analysis.engine import count as _engine
from analysis.model.rules import Rules
from analysis.engine.reading import MechanicReading
from analysis.engine.results import MechanicOdds
from analysis.systems.werewolf import willpower as _wp
from analysis.model.validate import as_values, check_bool, check_count, check_faces, check_int

#: The six outcome classes, mutually exclusive, in table-column order.
CLASSES = ("total_failure", "failure", "plain_win", "critical_win", "brutal_win", "brutal_failure")
TOTAL_FAILURE, FAILURE, PLAIN_WIN, CRITICAL_WIN, BRUTAL_WIN, BRUTAL_FAILURE = range(6)
_WIN_CLASSES = ("plain_win", "critical_win", "brutal_win")
#: Derived columns of :func:`table`: each the sum of these classes.
DERIVED = {"p_win": _WIN_CLASSES, "p_brutal": ("brutal_win", "brutal_failure")}
#: Columns of :func:`table`, in order.
TABLE_COLUMNS = ("pool", "rage", "difficulty", "violent") + CLASSES + tuple(DERIVED)
MAX_RAGE = 5
#: Pools above this are refused.
MAX_POOL = 1000


@dataclass(frozen=True)
@_counted.fields_from_file("analysis.systems.werewolf")
class WerewolfRules(_counted.CountedRules, Rules):
    """A Werewolf 5th edition rule set.  The defaults are the official rules; the fields are the
    parameters of this package's ``mechanic.toml``."""

    @property
    def rage_faces(self) -> tuple[int, int, int, int]:
        """Faces of a Rage die: (1s and 2s, other failures, successes below ten, tens)."""
        return self.faces("rage")


OFFICIAL = WerewolfRules()


def _check_violent(violent) -> bool:
    """``violent`` of one roll: True or False (1 and "yes" are refused, as every flag's are; the table's
    ``violent`` axis is the one that takes 0 and 1)."""
    return check_bool("violent", violent)


def odds(
    pool: int, rage: int, difficulty: int, violent: bool = False, rules: WerewolfRules = OFFICIAL, strategy=None
) -> MechanicOdds:
    """Exact odds of a Werewolf roll with Rage dice.

    Parameters
    ----------
    pool : int
        Dice in the pool after modifiers (0..1000).
    rage : int
        The werewolf's Rage, 0..5: that many Rage dice replace normal dice.
    difficulty : int
        Successes needed to win (>= 0).
    violent : bool
        True for an action of violence: a Brutal outcome adds successes
        instead of failing the roll.
    rules : WerewolfRules
        Official rules by default.
    strategy : None, str or analysis.engine.willpower.Strategy
        A Willpower strategy (``maximize_win``: reroll up to three normal or
        Rage dice not showing 1-2 for the best chance to win;
        ``normal_dice_only``: the same, never rerolling a Rage die;
        ``reroll_failures``: a roll that is not a win rerolls up to three
        failed dice, normal dice first, never a Rage 1 or 2): the odds are
        then those after the strategy's reroll, and ``willpower_spent`` says
        how often it rerolls.

    Returns
    -------
    analysis.engine.results.MechanicOdds
        The one odds type of a counted roll: exact Fractions for the six
        outcome classes (``odds.brutal_win``), ``p_win``, ``p_brutal``, the
        distributions of successes and margin; ``odds.normal_dice`` and
        ``odds.rage_dice`` the dice rolled.

    Raises
    ------
    ValueError
        On a pool outside 0..1000, Rage outside 0..5, a negative Difficulty
        or a value that is not a whole number.
    """
    pool = check_int("pool", pool, 0, MAX_POOL)
    rage = check_int("rage", rage, 0, MAX_RAGE)
    difficulty = check_int("difficulty", difficulty, 0)
    violent = _check_violent(violent)
    rules = WerewolfRules.require(rules)
    cell = {"pool": pool, "rage": rage, "difficulty": difficulty, "violent": int(violent)}
    return _counted.cell_odds(rules, cell, strategy, _wp.STRATEGIES)


def table(
    pools,
    rages,
    difficulties,
    violent=0,
    rules: WerewolfRules = OFFICIAL,
    exact: bool = False,
    strategy=None,
    at_least=None,
    check_only: bool = False,
):
    """A tidy odds table: one row per (pool, rage, difficulty, violent).

    Parameters
    ----------
    pools, rages, difficulties, violent : int, SPEC string or iterable of ints
        SPEC is ``7``, a range ``1-20`` or a list ``3,5,7``; ``violent`` is
        0 (not a violent action), 1 (violent) or ``0-1`` (both).
    rules : WerewolfRules
        Official rules by default.
    exact : bool
        False: float64 probabilities.  True: ``Fraction`` objects.
    strategy : None, str, willpower.Strategy, or a list of them
        Odds after a Willpower strategy (see :func:`odds`); adds the columns
        ``willpower_spent`` and ``p_win_gain`` (``p_win`` minus ``p_win``
        without Willpower, exact).  A list, or names separated by commas
        (``"none,maximize_win"``; ``none``: no Willpower), gives them side
        by side with a ``strategy`` column after the axes.
    at_least : None, int or SPEC string
        Adds a column ``p_at_least_N`` per N: the exact chance of N or more
        successes (pairs of 10s with their bonus, a Brutal bonus included).

    check_only : bool
        Check everything (the values, the size, the work of each strategy's
        reroll) and count nothing: returns None, or raises as the table would.

    Returns
    -------
    pandas.DataFrame
        Columns ``pool, rage, difficulty, violent``, the six classes (summing
        to exactly 1), then ``p_win`` and ``p_brutal`` (then ``willpower_spent``
        and ``p_win_gain`` with a strategy, then the ``p_at_least_N`` columns).
    """
    exact = check_bool("exact", exact)
    if isinstance(violent, bool):
        violent = int(violent)
    axes = {
        "pool": as_values("pool", pools, 0, MAX_POOL),
        "rage": as_values("rage", rages, 0, MAX_RAGE),
        "difficulty": as_values("difficulty", difficulties, 0),
        "violent": as_values("violent (0 or 1)", violent, 0, 1),
    }
    rules = WerewolfRules.require(rules)

    return _counted.table(
        rules.mechanic(),
        axes,
        exact=exact,
        at_least=None if at_least is None else _al.parse(at_least),
        strategy=strategy,
        strategies=_wp.STRATEGIES,
        check_only=check_bool("check_only", check_only),
    )


# ------------------------------------------------------------ reading a roll


def read_roll(normal, rage, difficulty: int, violent: bool = False, rules: WerewolfRules = OFFICIAL) -> MechanicReading:
    """Read rolled dice by the rules: successes (Brutal bonus included), margin and outcome class.

    Parameters
    ----------
    normal, rage : sequences of int
        Faces (1..10) shown by the normal dice and by the Rage dice.
    difficulty : int
        Successes needed.
    violent : bool
        True for an action of violence.

    Examples
    --------
    >>> read_roll([7, 3], [1, 2, 9], 3, violent=True).outcome
    'brutal_win'
    >>> read_roll([7, 3], [1, 2, 9], 3).outcome
    'brutal_failure'
    """
    normal = check_faces("normal", normal)
    rage = check_faces("rage", rage)
    check_count("rage", len(rage), MAX_RAGE, "Rage dice", "Rage")
    difficulty = check_int("difficulty", difficulty, 0)
    violent = _check_violent(violent)
    rules = WerewolfRules.require(rules)
    return _engine.read_roll(
        rules.mechanic(), {"normal": normal, "rage": rage}, difficulty=difficulty, violent=int(violent)
    )


# ------------------------------------------------------------ Rage checks


def rage_check(rules: WerewolfRules = OFFICIAL) -> Fraction:
    """Probability that one Rage check loses a point of Rage (the die shows 1-5)."""
    rules = WerewolfRules.require(rules)
    return Fraction(rules.success_face - 1, 10)


def rage_after_checks(rage: int, checks: int, rules: WerewolfRules = OFFICIAL) -> dict:
    """Exact distribution of Rage after ``checks`` Rage checks: ``{rage: Fraction}``.

    Each check rolls one die; a failure (1-5) loses a point of Rage, which
    never drops below 0.

    Examples
    --------
    >>> rage_after_checks(1, 2)
    {0: Fraction(3, 4), 1: Fraction(1, 4)}
    """
    rage = check_int("rage", rage, 0, MAX_RAGE)
    checks = check_int("checks", checks, 0, 1000)
    q = rage_check(rules)
    out: dict[int, Fraction] = {}
    for lost in range(checks + 1):
        left = max(0, rage - lost)
        out[left] = out.get(left, Fraction(0)) + comb(checks, lost) * q**lost * (1 - q) ** (checks - lost)
    return dict(sorted(out.items()))


def distribution_table(
    pools,
    rages,
    difficulties,
    violent=0,
    rules: WerewolfRules = OFFICIAL,
    exact: bool = False,
    max_successes=None,
    check_only: bool = False,
    strategy=None,
):
    """The exact distribution of successes (pairs of 10s with their bonus, a Brutal bonus included): one
    row per (pool, rage, difficulty, violent, successes) (:mod:`analysis.engine.distribution`)."""
    if isinstance(violent, bool):
        violent = int(violent)
    return distribution.mechanic_table(
        WerewolfRules.require(rules).mechanic(),
        {"pool": pools, "rage": rages, "difficulty": difficulties, "violent": violent},
        exact=exact,
        max_successes=max_successes,
        check_only=check_only,
        strategy=distribution.one_strategy(strategy, _wp.STRATEGIES),
    )
