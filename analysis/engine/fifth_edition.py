"""Result types of the 5th-edition rolls with special dice (Werewolf's Rage, Hunter's Desperation, V5's Hunger).

:class:`SpecialOdds` holds the exact odds of one roll of normal and special
dice; :class:`Reading` is what every reading of a landed roll shares.  They
hold numbers only: the counting is done elsewhere (the mechanic engine,
:mod:`analysis.engine.count`, for Werewolf and Hunter), so importing this
module imports no kernels.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


class Reading:
    """What every 5th-edition roll reading shares (a mixin of the systems' frozen
    ``RollReading`` dataclasses, which have ``successes``, ``difficulty`` and
    ``outcome``, and name their winning classes in ``WIN_CLASSES``)."""

    WIN_CLASSES: tuple[str, ...] = ()
    # declared for the type checker only: the dataclasses that mix this in hold the fields
    successes: int
    difficulty: int
    outcome: str

    @property
    def margin(self) -> int:
        """Successes beyond the Difficulty (negative when short)."""
        return self.successes - self.difficulty

    @property
    def won(self) -> bool:
        """Whether the outcome is one of the system's winning classes."""
        return self.outcome in self.WIN_CLASSES


@dataclass(frozen=True)
class SpecialOdds:
    """The exact odds of one roll of normal and special dice (a system's odds class extends it).

    Probabilities are ``Fraction``s: ``ways / denominator`` where
    ``denominator`` counts every way the dice (and any Willpower reroll) can
    land.
    """

    pool: int
    difficulty: int
    normal_dice: int
    special_dice: int
    denominator: int
    class_ways: dict
    success_ways: tuple
    win_classes: tuple

    def probability(self, outcome: str):
        """Exact probability of one outcome class."""
        if outcome not in self.class_ways:
            raise ValueError(f"unknown outcome class {outcome!r}; choose from {', '.join(self.class_ways)}")
        return Fraction(self.class_ways[outcome], self.denominator)

    def classes(self) -> dict:
        """Every class as ``{name: Fraction}``, in order (they sum to exactly 1)."""
        return {c: self.probability(c) for c in self.class_ways}

    @property
    def p_win(self):
        """Probability that the roll wins (the sum of the win classes)."""
        return sum((self.probability(c) for c in self.win_classes), Fraction(0))

    @property
    def successes(self) -> dict:
        """Exact distribution of the final successes: ``{successes: Fraction}`` (non-zero only)."""
        return {s: Fraction(w, self.denominator) for s, w in enumerate(self.success_ways) if w}

    @property
    def mean_successes(self):
        """Expected final successes."""
        return Fraction(sum(s * w for s, w in enumerate(self.success_ways)), self.denominator)

    @property
    def margin(self) -> dict:
        """Exact distribution of margin = successes - Difficulty."""
        return {s - self.difficulty: p for s, p in self.successes.items()}


def success_tuple(success_ways: dict) -> tuple:
    """Ways of each number of successes 0..top from ``{successes: ways}`` (successes never below 0)."""
    if any(s < 0 for s in success_ways):
        raise ValueError("a roll of the 5th-edition systems never counts fewer than 0 successes")
    top = max(success_ways, default=0)
    return tuple(int(success_ways.get(s, 0)) for s in range(top + 1))
