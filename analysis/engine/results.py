"""What the mechanic engine answers: a cell's exact ways and one roll's exact odds.

:class:`CellWays` holds the integers a count gives (ways per class and per
successes value, over the denominator of every way the dice land);
:class:`MechanicOdds` reads them as exact Fractions: classes, ``p_`` columns,
successes and their distribution.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Mapping

from analysis.model.validate import did_you_mean

from analysis.engine import display as _display, explode as _explode

if TYPE_CHECKING:
    from analysis.model.spec import MechanicRules


@dataclass(frozen=True)
class CellWays:
    """Exact ways of one cell: per class, per success value, and the denominator; after a Willpower
    strategy (:func:`analysis.engine.willpower.count_cells`), the Willpower dice spent too."""

    class_ways: tuple[int, ...]
    success_ways: dict[int, int]
    denominator: int
    dice: tuple[int, ...]
    #: None: ``success_ways`` lists every count; else (dice that roll again) the counts up to it,
    #: the rest of the denominator lying above it
    bound: int | None = field(default=None, kw_only=True)
    #: ways of each column given by when (a true/false expression of the roll), in file order
    column_ways: tuple[int, ...] = field(default=(), kw_only=True)
    #: after a strategy: the ways in which it rerolls (Willpower spent); 0 without Willpower
    spent: int = field(default=0, kw_only=True)


@dataclass(frozen=True)
class MechanicOdds:
    """The exact odds of one roll of a mechanic: Fractions over ``denominator`` (every way the dice land);
    after a Willpower strategy (``strategy``, its name), how often it spends Willpower too.  The one
    answer of the engine for a cell, with Willpower or without (:meth:`of`)."""

    rules: MechanicRules
    cell: tuple[tuple[str, int], ...]
    #: the dice of each kind (first rolls), in the file's order
    kind_dice: tuple[int, ...]
    class_ways: dict[str, int]
    success_ways: dict[int, int]
    denominator: int
    #: None: every success count is listed; else (dice that roll again) the counts up to it are
    bound: int | None = field(default=None, kw_only=True)
    #: ways of each column given by when (a true/false expression of the roll)
    column_ways: dict[str, int] = field(default_factory=dict, kw_only=True)
    #: the Willpower strategy the roll is counted after (its name), or None
    strategy: str | None = field(default=None, kw_only=True)
    #: after a strategy: the ways in which it rerolls (Willpower spent)
    willpower_spent_ways: int = field(default=0, kw_only=True)
    #: what its system was asked and the roll it built, where it builds the cell from them (Requiem: a
    #: pool of 0 or less rolls a chance die; La Soif: tempting the Beast adds Beast dice): read by name
    #: before the cell's values
    asked: tuple[tuple[str, object], ...] = field(default=(), kw_only=True)

    @classmethod
    def of(
        cls,
        rules: MechanicRules,
        cell: Mapping[str, int],
        ways: CellWays,
        strategy: str | None = None,
        asked: Mapping[str, object] | None = None,
    ) -> MechanicOdds:
        """The odds of ``cell`` from its counted :class:`CellWays` (after ``strategy``, its name, if any;
        ``asked``: what the system was asked and the roll it built, where it built the cell from them)."""
        mech = rules.mechanic
        return cls(
            rules,
            tuple(cell.items()),
            ways.dice,
            dict(zip(mech.classes, ways.class_ways)),
            ways.success_ways,
            ways.denominator,
            bound=ways.bound,
            column_ways=dict(zip((c.name for c in mech.flags), ways.column_ways)),
            strategy=strategy,
            willpower_spent_ways=ways.spent,
            asked=tuple((asked or {}).items()),
        )

    @property
    def willpower_spent(self) -> Fraction:
        """Exact probability that the strategy rerolls (Willpower spent); 0 without a strategy."""
        return Fraction(self.willpower_spent_ways, self.denominator)

    @property
    def values(self) -> dict[str, int]:
        """The cell: ``{axis: value}`` in the file's order."""
        return dict(self.cell)

    def __getattr__(self, name: str) -> Any:
        """A name of the mechanic read off the roll: an axis's or parameter's value (``odds.pool``,
        ``odds.specialty``), a class's or column's exact chance (``odds.plain_win``, ``odds.p_brutal``),
        the dice of a kind (``odds.rage_dice``)."""
        if name.startswith("_") or name in _OWN:  # (not yet set: a copy or pickle being made)
            raise AttributeError(name)
        asked = dict(self.asked)
        if name in asked:
            return asked[name]
        mech = self.rules.mechanic
        if name in mech.axis_names:
            return dict(self.cell)[name]
        if name in mech.parameter_map:
            return self.rules.params[name]
        if name in self.class_ways or name in self.column_ways or name in mech.column_names:
            return self.probability(name)
        kinds = [f"{k.name}_dice" for k in mech.kinds]
        if name in kinds:
            return self.kind_dice[kinds.index(name)]
        raise AttributeError(f"{type(self).__name__} of {mech.name} has no {name!r}{did_you_mean(name, self._names())}")

    def _names(self) -> list[str]:
        mech = self.rules.mechanic
        names = [*dict(self.asked), *mech.axis_names, *mech.parameter_map, *self.class_ways, *self.column_ways]
        return names + [*mech.column_names] + [f"{k.name}_dice" for k in mech.kinds]

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._names()))

    def _difficulty(self) -> int:
        """The cell's ``difficulty``, which a margin is counted from."""
        if "difficulty" not in self.values:
            raise ValueError(f"the {self.rules.mechanic.name} mechanic has no difficulty axis: no margin")
        return self.values["difficulty"]

    @property
    def margin(self) -> dict[int, Fraction]:
        """Exact distribution of the margin, successes minus the cell's ``difficulty`` (a mechanic with a
        Difficulty axis)."""
        difficulty = self._difficulty()
        return {s - difficulty: p for s, p in self.successes.items()}

    @property
    def mean_margin(self) -> Fraction:
        """Exact mean margin (mean successes minus the cell's ``difficulty``)."""
        return self.mean_successes - self._difficulty()

    def _repr_rows(self) -> tuple[list[str], list[tuple[str, object]]]:
        """What :mod:`analysis.engine.display` shows: the cell, house rules, strategy; the classes and
        columns, Willpower spent and the mean successes."""
        changes = self.rules.changes()
        cell = [f"{a} {v}" for a, v in self.cell]
        head = [f"{a} {v}" for a, v in self.asked] + [f"counted as {' '.join(cell)}"] if self.asked else cell
        if changes:
            head.append("house rules " + ", ".join(f"{k}={v!r}" for k, v in changes.items()))
        rows: list[tuple[str, object]] = [*self.classes().items(), *self.columns().items()]
        if self.strategy is not None:
            head.append(f"strategy {self.strategy}")
            rows.append(("willpower_spent", self.willpower_spent))
        if self.rules.mechanic.successes is not None and self.bound is None:
            rows.append(("mean successes", f"{float(self.mean_successes):.4g}"))
        return head, rows

    def probability(self, outcome: str) -> Fraction:
        """Exact probability of an outcome class or a derived ``p_`` column."""
        cols = {c.name: c.classes for c in self.rules.mechanic.columns}
        if outcome in self.class_ways:
            return Fraction(self.class_ways[outcome], self.denominator)
        if outcome in self.column_ways:
            return Fraction(self.column_ways[outcome], self.denominator)
        if outcome in cols:
            return Fraction(sum(self.class_ways[c] for c in cols[outcome]), self.denominator)

        raise ValueError(f"unknown outcome {outcome!r}{did_you_mean(outcome, list(self.class_ways) + list(cols))}")

    def classes(self) -> dict[str, Fraction]:
        """Every class as ``{name: Fraction}``, in table order (they sum to exactly 1)."""
        return {c: Fraction(w, self.denominator) for c, w in self.class_ways.items()}

    def columns(self) -> dict[str, Fraction]:
        """Every derived ``p_`` column as ``{name: Fraction}``."""
        return {c.name: self.probability(c.name) for c in self.rules.mechanic.columns}

    @property
    def p_win(self) -> Fraction:
        return sum(
            (Fraction(self.class_ways[c], self.denominator) for c in self.rules.mechanic.win_classes), Fraction(0)
        )

    @property
    def successes(self) -> dict[int, Fraction]:
        """Exact distribution of the mechanic's successes ``{n: Fraction}`` (non-zero only); with dice
        that roll again, every count from 0 (or the least) up to :attr:`bound`, zeros kept (:attr:`tail`:
        the chance of more)."""
        if self.rules.mechanic.successes is None:
            raise ValueError(f"the {self.rules.mechanic.name} mechanic names no successes count")
        if self.bound is not None:
            low = min(0, min(self.success_ways, default=0))
            return {s: Fraction(self.success_ways.get(s, 0), self.denominator) for s in range(low, self.bound + 1)}
        return {s: Fraction(w, self.denominator) for s, w in sorted(self.success_ways.items())}

    @property
    def tail(self) -> Fraction:
        """Exact chance of more successes than :attr:`bound` (0 where every count is listed)."""
        return 1 - sum(self.successes.values(), Fraction(0))

    @property
    def mean_successes(self) -> Fraction:
        """Exact mean successes (dice that roll again: from the chains' exact means,
        :func:`analysis.engine.explode.mean_successes`, where the successes are a sum of marks)."""
        if self.bound is not None:
            mean = _explode.mean_successes(self.rules.mechanic, self.rules.params, dict(self.cell), self.kind_dice)
            if mean is None:
                raise ValueError(
                    f"the {self.rules.mechanic.name} mechanic's dice roll again and its successes are not a "
                    f"sum of marks: their distribution is listed up to {self.bound}, their mean is not counted"
                )
            return mean
        return sum((s * p for s, p in self.successes.items()), Fraction(0))

    def at_least(self, n: int) -> Fraction:
        """Exact chance of ``n`` or more successes (with dice that roll again: ``n`` up to
        :attr:`bound` ``+ 1``)."""
        if self.bound is not None:
            if n > self.bound + 1:
                raise ValueError(f"successes are listed up to {self.bound}: at_least({n}) needs a larger bound")
            return 1 - sum((p for s, p in self.successes.items() if s < n), Fraction(0))
        return sum((p for s, p in self.successes.items() if s >= n), Fraction(0))

    def __str__(self) -> str:
        mech = self.rules.mechanic
        head = ", ".join(f"{a} {v}" for a, v in self.asked or self.cell)
        if self.asked:
            head += " (counted as " + ", ".join(f"{a} {v}" for a, v in self.cell) + ")"
        rolled = " + ".join(f"{n} {k.name}" for n, k in zip(self.kind_dice, mech.kinds) if n) or "no"
        lines = [f"{mech.title}: {head} ({rolled} dice)"]
        for name, p in list(self.classes().items()) + list(self.columns().items()):
            lines.append(f"  {name:<22}{float(p):8.2%}   {p}")
        if self.strategy is not None:
            lines.append(
                f"  Willpower: {self.strategy}, spent {float(self.willpower_spent):.2%}   {self.willpower_spent}"
            )
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html


#: MechanicOdds' own fields (never a name of the mechanic read off the roll)
_OWN = frozenset(f.name for f in fields(MechanicOdds))
