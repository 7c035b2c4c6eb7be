"""The Soif ladder of La Soif: the Soif a character shows at each current Vitae (vampires and ghouls).

Thirst starts at ``T`` Vitae (the character's maximum Vitae less Resolve +
Composure, plus Blood Potency for a vampire); the ``T`` boxes below it are
spread over the Soif levels, the lowest Vitae holding the highest level
(:func:`soif_ladder`, :func:`ghoul_soif_ladder`, docs/rules.md).
:func:`analysis.systems.requiem.beast.character_table` counts a character's
odds down the ladder.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.engine import display as _display
from analysis.model.validate import check_int

#: Soif levels of a vampire (0..5): that many dice of the pool are Beast dice.
MAX_SOIF = 5
#: Soif levels of a ghoul.
MAX_GHOUL_SOIF = 3
LADDER_MODES = ("written", "printed")
#: Blood Potency 1..10 -> maximum Vitae (1st edition, docs/rules.md).
VITAE_BY_BLOOD_POTENCY = {1: 10, 2: 11, 3: 12, 4: 13, 5: 14, 6: 15, 7: 20, 8: 30, 9: 50, 10: 100}
MAX_VITAE = 1000


@dataclass(frozen=True)
class SoifLadder:
    """The Soif at every current Vitae of one character.

    Attributes
    ----------
    kind : str
        ``"vampire"`` or ``"ghoul"``.
    max_vitae : int
    thirst_start : int
        ``T``: the Vitae from which Soif shows, as the formula gives it
        (may exceed ``max_vitae``, or be 0 or less: no Soif at all).
    levels : tuple of int
        Soif at Vitae 1, 2, ... (highest first), one per box.
    mode : str
        ``"written"`` or ``"printed"`` (vampires; see :func:`soif_ladder`).
    """

    kind: str
    max_vitae: int
    thirst_start: int
    levels: tuple
    mode: str = "written"

    def soif_at(self, vitae: int) -> int:
        """Soif at ``vitae`` current Vitae (0..max_vitae)."""
        vitae = check_int("vitae", vitae, 0, self.max_vitae)
        if vitae == 0:
            return self.levels[0] if self.levels else 0
        return self.levels[vitae - 1] if vitae <= len(self.levels) else 0

    def notation(self) -> str:
        """The house rule's notation, e.g. ``5/4/3/3/2/2/1/1`` (``-`` if no Soif)."""
        return "/".join(str(v) for v in self.levels) or "-"

    def table(self) -> pd.DataFrame:
        """Columns ``vitae, soif`` from full (max_vitae) to empty (0)."""
        vitae = list(range(self.max_vitae, -1, -1))
        return pd.DataFrame(
            {
                "vitae": np.array(vitae, dtype=np.int64),
                "soif": np.array([self.soif_at(v) for v in vitae], dtype=np.int64),
            }
        )

    def __str__(self) -> str:
        first = min(self.thirst_start, self.max_vitae)
        start = f"Soif from {first} Vitae down" if first > 0 else "no Soif above 0 Vitae"
        return (
            f"{self.kind} ladder ({self.mode}), {self.max_vitae} Vitae, T = {self.thirst_start}: "
            f"{self.notation()}  ({start})"
        )

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.engine.display`)."""
        return (
            [self.kind, f"max_vitae {self.max_vitae}", f"T {self.thirst_start}", self.mode],
            [("ladder", self.notation())],
        )


def _spread(boxes: int, n_levels: int) -> list:
    """Boxes per level 1..n: one each from level 1 upward, then doubled from 1, ..."""
    base, extra = divmod(boxes, n_levels)
    return [base + (1 if i < extra else 0) for i in range(n_levels)]


def _drop_lowest(counts: list, n: int) -> list:
    counts = list(counts)
    for i in range(len(counts)):
        take = min(n, counts[i])
        counts[i] -= take
        n -= take
    return counts


def _levels(counts: list) -> tuple:
    return tuple(level for level in range(len(counts), 0, -1) for _ in range(counts[level - 1]))


def _ladder(kind, max_vitae, thirst_start, n_levels, mode) -> SoifLadder:
    boxes = max(thirst_start, 0)
    if boxes <= max_vitae:
        counts = _spread(boxes, n_levels)
    elif mode == "written":
        counts = _drop_lowest(_spread(boxes, n_levels), boxes - max_vitae)
    else:  # printed: the excess boxes go to the highest levels first, then as many lowest are dropped
        counts = _spread(max_vitae, n_levels)
        excess = boxes - max_vitae
        for i in range(excess):
            counts[n_levels - 1 - i % n_levels] += 1
        counts = _drop_lowest(counts, excess)
    return SoifLadder(kind=kind, max_vitae=max_vitae, thirst_start=thirst_start, levels=_levels(counts), mode=mode)


def _check_mode(mode) -> str:
    if mode not in LADDER_MODES:
        raise ValueError(
            f"mode must be 'written' (the rule as written) or 'printed' "
            f"(the house rule's printed third example), got {mode!r}"
        )
    return mode


def vitae_max(blood_potency: int) -> int:
    """Maximum Vitae for a Blood Potency 1..10 (1st edition table)."""
    bp = check_int("blood_potency", blood_potency, 1, 10)
    return VITAE_BY_BLOOD_POTENCY[bp]


def soif_ladder(
    max_vitae: int | None, resolve: int, composure: int, blood_potency: int, mode: str = "written"
) -> SoifLadder:
    """A vampire's Soif ladder (the La Soif house rule, docs/rules.md).

    Thirst starts at ``T = max_vitae - (resolve + composure - blood_potency)``
    Vitae.  The ``T`` boxes (Vitae ``T`` down to 1) get Soif 1..5: one box
    each from 1 upward; more than five: double 1, then 2, ..., then triple
    1, ...; fewer than five: the highest levels are dropped.  Lower Vitae
    holds the higher Soif.  Above ``T``: Soif 0; at 0 Vitae: the ladder's
    highest level.

    Parameters
    ----------
    max_vitae : int or None
        The character's maximum Vitae (1..1000); None takes it from the
        1st edition Blood Potency table (:data:`VITAE_BY_BLOOD_POTENCY`).
    resolve, composure : int
        1..5, or up to the Blood Potency when it is above 5.
    blood_potency : int
        1..10.
    mode : str
        When ``T`` exceeds ``max_vitae``: ``"written"`` (default) drops the
        boxes of the lowest levels until ``T = max_vitae``; ``"printed"``
        first gives the excess boxes to the highest levels (5, then 4, ...)
        and then drops as many lowest-level boxes, which reproduces the
        house rule's printed third example.

    Returns
    -------
    SoifLadder

    Examples
    --------
    >>> soif_ladder(11, resolve=3, composure=2, blood_potency=2).notation()
    '5/4/3/3/2/2/1/1'
    """
    bp = check_int("blood_potency", blood_potency, 1, 10)
    top = max(5, bp)
    resolve = check_int("resolve", resolve, 1, top)
    composure = check_int("composure", composure, 1, top)
    max_vitae = VITAE_BY_BLOOD_POTENCY[bp] if max_vitae is None else check_int("max_vitae", max_vitae, 1, MAX_VITAE)
    mode = _check_mode(mode)
    return _ladder("vampire", max_vitae, max_vitae - (resolve + composure - bp), MAX_SOIF, mode)


def ghoul_soif_ladder(stamina: int, size: int, resolve: int, composure: int) -> SoifLadder:
    """A ghoul's Soif ladder: Vitae ``stamina + size`` (without Resilience),
    ``T = max - (resolve + composure)``, Soif levels 1..3.

    Parameters
    ----------
    stamina, resolve, composure : int
        1..5.
    size : int
        1..10 (a human is 5).
    """
    stamina = check_int("stamina", stamina, 1, 5)
    size = check_int("size", size, 1, 10)
    resolve = check_int("resolve", resolve, 1, 5)
    composure = check_int("composure", composure, 1, 5)
    max_vitae = stamina + size
    return _ladder("ghoul", max_vitae, max_vitae - (resolve + composure), MAX_GHOUL_SOIF, "written")


def check_ladder(ladder) -> SoifLadder:
    if not isinstance(ladder, SoifLadder):
        raise ValueError(
            f"ladder must be a SoifLadder (from soif_ladder or ghoul_soif_ladder), got {type(ladder).__name__}"
        )
    return ladder
