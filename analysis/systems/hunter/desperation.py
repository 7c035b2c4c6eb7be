"""Hunter: the Reckoning 5th edition rolls with Desperation dice, counted exactly by the mechanic engine.

The rules as counted here (Hunter: the Reckoning 5th edition, core book):
Desperation dice are added on top of the pool (0 to 5 of them).  Every die
showing 6 or more is a success and each pair of 10s on any dice adds 2
more.  A Desperation die showing 1 brings trouble: on a failed roll the
hunter falls into Despair; on a win the player chooses between Overreach
(the win stands, at a price) and Despair.  Willpower rerolls up to three
dice, never Desperation dice.

The rules are written once, as data, in this package's ``mechanic.toml``;
the fields of :class:`HunterRules` are its parameters, and
:mod:`analysis.engine.count` (:mod:`analysis.engine.willpower` after a
Willpower reroll) counts every roll exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from analysis.engine import at_least as _al, distribution
from analysis.systems import counted as _counted
from analysis.engine import count as _engine
from analysis.model.rules import Rules
from analysis.engine.reading import MechanicReading
from analysis.engine.results import MechanicOdds
from analysis.engine.strategy import offered
from analysis.model.validate import as_values, check_bool, check_count, check_faces, check_int

#: The six outcome classes, mutually exclusive, in table-column order.
CLASSES = ("total_failure", "failure", "plain_win", "critical_win", "overreach_or_despair", "despair")
TOTAL_FAILURE, FAILURE, PLAIN_WIN, CRITICAL_WIN, OVERREACH_OR_DESPAIR, DESPAIR = range(6)
_WIN_CLASSES = ("plain_win", "critical_win", "overreach_or_despair")
#: Derived columns of :func:`table`: each the sum of these classes.
DERIVED = {"p_win": _WIN_CLASSES, "p_desperation_one": ("overreach_or_despair", "despair")}
#: Columns of :func:`table`, in order.
TABLE_COLUMNS = ("pool", "desperation", "difficulty") + CLASSES + tuple(DERIVED)
MAX_DESPERATION = 5
#: Pools above this are refused.
MAX_POOL = 1000
#: Dice a Willpower reroll may take (normal dice only).
MAX_REROLL = 3
#: The Willpower strategies by name (``none``, no Willpower, is always known too): ``reroll_failures``
#: (a roll that is not a win rerolls up to three failed normal dice) and ``maximize_win`` (the reroll of
#: up to three normal dice with the highest exact chance to win; ties: no reroll, then fewer dice).
STRATEGIES = offered("reroll_failures", "maximize_win")


@dataclass(frozen=True)
@_counted.fields_from_file("analysis.systems.hunter")
class HunterRules(_counted.CountedRules, Rules):
    """A Hunter 5th edition rule set.  The defaults are the official rules; the fields are the
    parameters of this package's ``mechanic.toml``."""

    @property
    def desperation_faces(self) -> tuple[int, int, int, int]:
        """Faces of a Desperation die: (ones, other failures, successes below ten, tens)."""
        return self.faces("desperation")


OFFICIAL = HunterRules()


def odds(pool: int, desperation: int, difficulty: int, rules: HunterRules = OFFICIAL, strategy=None) -> MechanicOdds:
    """Exact odds of a Hunter roll with Desperation dice.

    Parameters
    ----------
    pool : int
        Dice in the pool after modifiers (0..1000), not counting Desperation dice.
    desperation : int
        Desperation dice added to the roll, 0..5.
    difficulty : int
        Successes needed to win (>= 0).
    rules : HunterRules
        Official rules by default.
    strategy : None, str or analysis.engine.willpower.Strategy
        A Willpower strategy (``reroll_failures``: a roll that is not a win
        rerolls up to three failed normal dice; ``maximize_win``: the reroll
        of up to three normal dice with the best chance to win; Desperation
        dice are never rerolled): the odds are then those after the
        strategy's reroll, and ``willpower_spent`` says how often it
        rerolls.

    Returns
    -------
    analysis.engine.results.MechanicOdds
        The one odds type of a counted roll: exact Fractions for the six
        outcome classes (``odds.despair``), ``p_win``, ``p_desperation_one``,
        the distributions of successes and margin; ``odds.normal_dice`` and
        ``odds.desperation_dice`` the dice rolled.

    Raises
    ------
    ValueError
        On a pool outside 0..1000, Desperation outside 0..5, a negative
        Difficulty, a value that is not a whole number or an unknown
        strategy.
    """
    pool = check_int("pool", pool, 0, MAX_POOL)
    desperation = check_int("desperation", desperation, 0, MAX_DESPERATION)
    difficulty = check_int("difficulty", difficulty, 0)
    rules = HunterRules.require(rules)
    cell = {"pool": pool, "desperation": desperation, "difficulty": difficulty}
    return _counted.cell_odds(rules, cell, strategy, STRATEGIES)


def table(
    pools,
    desperations,
    difficulties,
    rules: HunterRules = OFFICIAL,
    exact: bool = False,
    at_least=None,
    strategy=None,
    check_only: bool = False,
):
    """A tidy odds table: one row per (pool, desperation, difficulty).

    Parameters
    ----------
    pools, desperations, difficulties : int, SPEC string or iterable of ints
        SPEC is ``7``, a range ``1-20`` or a list ``3,5,7``.
    rules : HunterRules
        Official rules by default.
    exact : bool
        False: float64 probabilities.  True: ``Fraction`` objects.
    at_least : None, int or SPEC string
        Adds a column ``p_at_least_N`` per N: the exact chance of N or more
        successes (pairs of 10s with their bonus).
    strategy : None, str, analysis.engine.willpower.Strategy, or a list of them
        Odds after a Willpower strategy (see :func:`odds`); adds the columns
        ``willpower_spent`` and ``p_win_gain`` (``p_win`` minus ``p_win``
        without Willpower, exact).  A list, or names separated by commas
        (``"none,maximize_win"``; ``none``: no Willpower), gives them side
        by side with a ``strategy`` column after the axes.

    check_only : bool
        Check everything (the values, the size, the work of each strategy's
        reroll) and count nothing: returns None, or raises as the table would.

    Returns
    -------
    pandas.DataFrame
        Columns ``pool, desperation, difficulty``, the six classes (summing
        to exactly 1), then ``p_win`` and ``p_desperation_one`` (then
        ``willpower_spent`` and ``p_win_gain`` with a strategy), then the
        ``p_at_least_N`` columns.
    """
    exact = check_bool("exact", exact)
    axes = {
        "pool": as_values("pool", pools, 0, MAX_POOL),
        "desperation": as_values("desperation", desperations, 0, MAX_DESPERATION),
        "difficulty": as_values("difficulty", difficulties, 0),
    }
    rules = HunterRules.require(rules)

    return _counted.table(
        rules.mechanic(),
        axes,
        exact=exact,
        at_least=None if at_least is None else _al.parse(at_least),
        strategy=strategy,
        strategies=STRATEGIES,
        check_only=check_bool("check_only", check_only),
    )


# ------------------------------------------------------------ reading a roll


def read_roll(normal, desperation, difficulty: int, rules: HunterRules = OFFICIAL) -> MechanicReading:
    """Read rolled dice by the rules: the one reading of a roll
    (:class:`~analysis.engine.reading.MechanicReading`): its successes, margin and outcome class, the dice
    showing each mark.

    Parameters
    ----------
    normal, desperation : sequences of int
        Faces (1..10) shown by the normal dice and by the Desperation dice.
    difficulty : int
        Successes needed.

    Examples
    --------
    >>> read_roll([7, 8, 3], [1, 6], 3).outcome
    'overreach_or_despair'
    >>> read_roll([7, 2, 3], [1, 6], 3).outcome
    'despair'
    """
    normal = check_faces("normal", normal)
    desperation = check_faces("desperation", desperation)
    check_count("desperation", len(desperation), MAX_DESPERATION, "Desperation dice", "Desperation")
    difficulty = check_int("difficulty", difficulty, 0)
    rules = HunterRules.require(rules)
    return _engine.read_roll(rules.mechanic(), {"normal": normal, "desperation": desperation}, difficulty=difficulty)


def distribution_table(
    pools,
    desperations,
    difficulties,
    rules: HunterRules = OFFICIAL,
    exact: bool = False,
    max_successes=None,
    check_only: bool = False,
    strategy=None,
):
    """The exact distribution of successes (pairs of 10s with their bonus): one row per (pool,
    desperation, difficulty, successes) (:mod:`analysis.engine.distribution`)."""
    return distribution.mechanic_table(
        HunterRules.require(rules).mechanic(),
        {"pool": pools, "desperation": desperations, "difficulty": difficulties},
        exact=exact,
        max_successes=max_successes,
        check_only=check_only,
        strategy=distribution.one_strategy(strategy, STRATEGIES),
    )
