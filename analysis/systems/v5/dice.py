"""V5 dice: the rules, the outcome classes, their mechanic file for the engine, and reading rolled dice."""

from __future__ import annotations

from dataclasses import dataclass, replace

from analysis.systems import counted as _counted
from analysis.engine import count as engine
from analysis.model.rules import Rules
from analysis.engine.reading import MechanicReading
from analysis.model.validate import check_count, check_faces, check_int

#: The six outcome classes, mutually exclusive, in table-column order.
CLASSES = (
    "total_failure",
    "failure",
    "plain_win",
    "critical_win",
    "messy_critical",
    "bestial_failure",
)
#: Columns of :func:`table`, in order.
TABLE_COLUMNS = ("pool", "hunger", "difficulty") + CLASSES + ("p_win",)
WIN_CLASSES = ("plain_win", "critical_win", "messy_critical")
MAX_HUNGER = 5
#: Pools above this are refused: the count grows as pool**2 and a bigger
#: pool has no use at a table.
MAX_POOL = 1000


@dataclass(frozen=True)
@_counted.fields_from_file("analysis.systems.v5")
class V5Rules(_counted.CountedRules, Rules):
    """A V5 rule set.  The defaults are the official rules (docs/rules.md); the fields are the
    parameters of this package's ``mechanic.toml``."""

    def dice(self, pool: int, hunger: int) -> tuple[int, int]:
        """(normal dice, Hunger dice) rolled for ``pool`` at ``hunger``."""
        if self.hunger_replaces_dice:
            h = min(hunger, pool)
            return pool - h, h
        return pool, hunger

    @property
    def normal_faces(self) -> tuple[int, int, int]:
        """Faces of a normal die: (failures, successes below ten, tens)."""
        s = self.success_face
        return (s - 1, 10 - s, 1)

    @property
    def hunger_faces(self) -> tuple[int, int, int, int]:
        """Faces of a Hunger die: (ones, other failures, successes below ten, tens)."""
        s = self.success_face
        return (1, s - 2, 10 - s, 1)


OFFICIAL = V5Rules()


def mechanic():
    """V5's mechanic file (``mechanic.toml`` beside this module), as the engine reads it."""
    return V5Rules.SHIPPED_MECHANIC


def mechanic_rules(rules: V5Rules):
    """The engine's rule set (:class:`analysis.engine.count.MechanicRules`) of a V5 rule set (its
    :meth:`~analysis.systems.counted.CountedRules.mechanic`)."""
    return V5Rules.require(rules).mechanic()


def most_successes(dice: int, rules: V5Rules) -> int:
    """The most successes ``dice`` dice can show (every die a 10): a higher Difficulty reads as this plus 1."""
    return dice + rules.crit_bonus * (dice // 2)


def check_roll(pool, hunger, difficulty):
    pool = check_int("pool", pool, 0, MAX_POOL)
    hunger = check_int("hunger", hunger, 0, MAX_HUNGER)
    difficulty = check_int("difficulty", difficulty, 0)
    return pool, hunger, difficulty


# ------------------------------------------------------------ reading a roll


def read_roll(normal, hunger, difficulty: int, rules: V5Rules = OFFICIAL) -> MechanicReading:
    """Read rolled dice by the rules: the one reading of a roll
    (:class:`~analysis.engine.reading.MechanicReading`): its successes, margin and outcome class, the dice
    showing each mark (``reading.marks["hunger.one"]``).

    Parameters
    ----------
    normal, hunger : sequences of int
        Faces (1..10) shown by the normal dice and by the Hunger dice.
    difficulty : int
        Successes needed.

    Examples
    --------
    >>> read_roll([10, 5, 7, 2], [10, 1], 4).outcome
    'messy_critical'
    """
    normal = check_faces("normal", normal)
    hunger = check_faces("hunger", hunger)
    check_count("hunger", len(hunger), MAX_HUNGER, "Hunger dice", "Hunger")
    difficulty = check_int("difficulty", difficulty, 0)
    rules = V5Rules.require(rules)

    # a Difficulty above every success count these dice can show reads as one above it
    reachable = most_successes(len(normal) + len(hunger), rules) + 1
    got = engine.read_roll(
        mechanic_rules(rules), {"normal": normal, "hunger": hunger}, difficulty=min(difficulty, reachable)
    )
    return replace(got, values={**got.values, "difficulty": difficulty})
