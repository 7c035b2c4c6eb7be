"""The Willpower strategies of every mechanic: how a player uses a reroll after seeing the dice.

A mechanic file's ``[willpower]`` table (:mod:`analysis.model.spec`) says
which dice a reroll may take; a :class:`Strategy` says which reroll a player
takes, and :mod:`analysis.engine.willpower` counts the odds after it.

Strategies (one :class:`Strategy` type for every mechanic):

``none``
    Never reroll (Willpower kept).
``reroll_failures``
    A roll that is not a win rerolls up to ``dice`` of its failed dice (the
    ``failures`` marks; by the ``[willpower]`` kinds order, then the marks
    order); a win keeps its dice.
``maximize_win``
    The reroll with the highest exact chance to win.
``maximize_critical``
    The reroll with the highest exact chance of a critical (the classes
    ``critical_win`` and ``messy_critical``, as V5 names them): for a file
    whose classes include both.
``avoid_messy``
    The reroll with the highest exact chance to win that never risks turning
    a roll into a ``messy_critical``: for a file with that class.
``normal_dice_only``
    The reroll with the highest exact chance to win, of ``normal`` dice only
    (Werewolf's: a Rage die is never rerolled; not among a file's, :data:`NAMES`).
``Strategy(values={class: weight})``
    The reroll with the highest expected value of the final class.
    ``forbid=(class, ...)`` never takes a reroll that could make a roll of
    another class into one of those; ``kinds=(kind, ...)`` rerolls only
    those kinds.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

import numpy as np

from analysis.model.validate import did_you_mean

from analysis.model.spec import Mechanic, Willpower

if TYPE_CHECKING:
    from kernels._jit import IntArray

#: The named strategies.
NAMES = ("none", "reroll_failures", "maximize_win", "maximize_critical", "avoid_messy")
#: A class's value in a strategy: a whole number, a Fraction or a decimal.
_Number = Fraction | int | float


@dataclass(frozen=True)
class Strategy:
    """How a player uses a Willpower reroll after seeing the dice, for any mechanic.

    Attributes
    ----------
    name : str
        Shown in tables (default ``"custom"``).
    values : tuple of (class, Fraction) pairs (a dict is accepted)
        Value of each final outcome class (classes left out are worth 0):
        the reroll of highest expected value is taken.
    win : bool
        Every win class is worth 1 (``maximize_win``), instead of ``values``.
    reroll_failures : bool
        A roll that is not a win rerolls up to the mechanic's Willpower dice
        of its failed dice; a win keeps them.
    keep : bool
        Never reroll (``none``).
    forbid : tuple of class names
        Never take a reroll that could turn a roll of another class into one
        of these.
    kinds : tuple of kind names, or None
        Reroll only dice of these kinds (None: every kind the mechanic's
        ``[willpower]`` lists).
    """

    # the fields as __post_init__ leaves them; the constructor also takes a dict of values and lists,
    # which the __init__ below states
    name: str = "custom"
    values: tuple[tuple[str, Fraction], ...] = ()
    win: bool = False
    reroll_failures: bool = False
    keep: bool = False
    forbid: tuple[str, ...] = ()
    kinds: tuple[str, ...] | None = None

    if TYPE_CHECKING:  # what the constructor takes (the dataclass's own __init__ runs)

        def __init__(
            self,
            name: str = "custom",
            values: Mapping[str, _Number] | Sequence[tuple[str, _Number]] = (),
            win: bool = False,
            reroll_failures: bool = False,
            keep: bool = False,
            forbid: Sequence[str] = (),
            kinds: Sequence[str] | None = None,
        ) -> None: ...

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a strategy's name is text, got {self.name!r}")
        values = self.values
        if isinstance(values, dict):
            values = tuple(values.items())
        if not isinstance(values, (tuple, list)):
            raise ValueError(f"values map outcome classes to numbers, got {type(values).__name__}")
        pairs = []
        for pair in values:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2 or not isinstance(pair[0], str):
                raise ValueError(f"values must be (outcome class, number) pairs, got {pair!r}")
            k, v = pair
            if isinstance(v, float):
                if v != v or v in (float("inf"), float("-inf")):
                    raise ValueError(f"the value of {k} must be finite, got {v}")
                v = Fraction(repr(v))
            if isinstance(v, bool) or not isinstance(v, numbers.Rational):
                raise ValueError(f"the value of {k} must be a whole number, a Fraction or a decimal, got {v!r}")
            pairs.append((k, Fraction(v)))
        if len({k for k, _ in pairs}) != len(pairs):
            raise ValueError("values name an outcome class twice")
        object.__setattr__(self, "values", tuple(pairs))
        for flag in ("win", "reroll_failures", "keep"):
            if not isinstance(getattr(self, flag), bool):
                raise ValueError(f"{flag} must be true or false, got {getattr(self, flag)!r}")
        if sum([bool(pairs) or self.win, self.reroll_failures, self.keep]) > 1 or (pairs and self.win):
            raise ValueError("a strategy is one of: values (or win), reroll_failures, keep")
        if not (pairs or self.win or self.reroll_failures or self.keep):
            raise ValueError("a strategy needs values (a number per outcome class), win, reroll_failures or keep")
        for key in ("forbid", "kinds"):
            got = getattr(self, key)
            if got is None and key == "kinds":
                continue
            if isinstance(got, str) or not isinstance(got, (tuple, list)) or not all(isinstance(x, str) for x in got):
                raise ValueError(f"{key} must be a tuple of names, got {got!r}")
            object.__setattr__(self, key, tuple(got))
        if self.kinds is not None and not self.kinds:
            raise ValueError("kinds must name at least one kind of die (None: every rerollable kind)")

    @property
    def mode(self) -> str:
        return "keep" if self.keep else "failures" if self.reroll_failures else "best"

    def integer_values(self, mech: Mechanic) -> IntArray:
        """The value of each class of ``mech`` (in its class order) as exact integers (a common scale)."""
        classes = mech.classes
        if self.win:
            return np.array([int(c in mech.win_classes) for c in classes], dtype=np.int64)
        known = dict(self.values)
        for k in known:
            if k not in classes:
                raise ValueError(_unknown_class(mech, k))
        fracs = [known.get(c, Fraction(0)) for c in classes]
        den = lcm(*(f.denominator for f in fracs))
        ints = [int(f * den) for f in fracs]
        if max(abs(i) for i in ints) > 10**9:
            raise ValueError("the strategy's values are too finely divided or too large; use simpler numbers")
        return np.array(ints, dtype=np.int64)

    def check(self, mech: Mechanic) -> None:
        """Refuse (one sentence) a strategy that names a class or kind ``mech`` does not have."""
        wp = willpower_of(mech)
        if STRATEGIES.get(self.name) == self:  # a named strategy: the classes it needs, by name
            missing = [k for k in dict.fromkeys([*(k for k, _ in self.values), *self.forbid]) if k not in mech.classes]
            if missing:
                raise ValueError(
                    f"the strategy {self.name} needs the outcome class{'es' if len(missing) > 1 else ''} "
                    f"{' and '.join(missing)}, which the {mech.name} mechanic does not have (its classes: "
                    f"{', '.join(mech.classes)})"
                )
        for k in self.forbid:
            if k not in mech.classes:
                raise ValueError(_unknown_class(mech, k))
        for k in self.kinds or ():
            if k not in wp.kinds:
                raise ValueError(
                    f"the {mech.name} mechanic's Willpower does not reroll {k!r} dice; it "
                    f"rerolls {', '.join(wp.kinds)}{did_you_mean(k, list(wp.kinds))}"
                )
        if self.reroll_failures and not wp.failures:
            raise ValueError(
                f"the {mech.name} mechanic's [willpower] names no failures, so it has no reroll_failures strategy"
            )
        if not self.keep and not self.reroll_failures:
            self.integer_values(mech)


def _unknown_class(mech: Mechanic, k: str) -> str:
    return (
        f"unknown outcome class {k!r} of the {mech.name} mechanic; choose from "
        f"{', '.join(mech.classes)}{did_you_mean(k, list(mech.classes))}"
    )


#: Every named strategy, the one table: a system offers some of them (:func:`offered`), a mechanic file
#: with a ``[willpower]`` table those of :data:`NAMES`.
STRATEGIES = {
    "none": Strategy("none", keep=True),
    "reroll_failures": Strategy("reroll_failures", reroll_failures=True),
    "maximize_win": Strategy("maximize_win", win=True),
    "maximize_critical": Strategy("maximize_critical", values={"critical_win": 1, "messy_critical": 1}),
    "avoid_messy": Strategy("avoid_messy", win=True, forbid=("messy_critical",)),
    # the chance to win, rerolling normal dice only (Werewolf: Rage dice are never rerolled)
    "normal_dice_only": Strategy("normal_dice_only", win=True, kinds=("normal",)),
}


def offered(*names: str) -> dict[str, Strategy]:
    """``{name: strategy}`` of the named strategies a system offers, from the one table."""
    return {name: STRATEGIES[name] for name in names}


def unknown(name: object, known: Iterable[str]) -> ValueError:
    """The one-sentence error for a strategy name that is not known, with a "did you mean"."""
    names = ["none"] + [k for k in known if k != "none"]
    hint = did_you_mean(name, names)
    return ValueError(f"unknown Willpower strategy {name!r}; choose from {', '.join(names)}{hint}")


def strategy_of(strategy: str | Strategy | None, known: Mapping[str, Strategy] | None = None) -> Strategy:
    """A :class:`Strategy` itself, or the strategy of a name among ``known`` (a system's, :func:`offered`;
    default: those of a mechanic file, :data:`NAMES`); ``None`` is ``none``.  Any other value is refused
    in one sentence naming the strategies known."""
    if strategy is None:
        return STRATEGIES["none"]
    if isinstance(strategy, Strategy):
        return strategy
    known = offered(*NAMES) if known is None else known
    if isinstance(strategy, str) and strategy in known:
        return known[strategy]
    raise unknown(strategy, known)


def willpower_of(mech: Mechanic) -> Willpower:
    if mech.willpower is None:
        raise ValueError(f"the {mech.name} mechanic has no Willpower reroll (its file has no [willpower] table)")
    return mech.willpower
