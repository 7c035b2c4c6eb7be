"""What every reading of a landed 5th-edition roll shares (V5's Hunger, Werewolf's Rage, Hunter's Desperation).

Their odds are the engine's one odds type, :class:`analysis.engine.results.MechanicOdds`; this module
holds numbers only, so importing it imports no kernels.
"""

from __future__ import annotations


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
