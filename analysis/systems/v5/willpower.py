"""V5 Willpower rerolls: named strategies and the decision for a rolled hand (their exact odds: the one
Willpower engine, :mod:`analysis.mechanic.willpower`, through :func:`analysis.systems.v5.roll.odds`)."""

from __future__ import annotations

import itertools
import numbers
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from analysis import display as _display
from analysis.rules import Rules, rule, toml_kind
from analysis.strategies import named
from analysis.systems.v5 import dice as v5
from analysis.validate import check_faces

#: Dice a Willpower reroll may take (docs/rules.md: up to three normal dice).
MAX_REROLL = 3
_WIN = {"plain_win": 1, "critical_win": 1, "messy_critical": 1}


@dataclass(frozen=True)
class Strategy(Rules):
    """How a player uses a Willpower reroll after seeing the dice.

    Attributes
    ----------
    name : str
        Shown in tables (default ``"custom"``).
    values : tuple of (class, Fraction) pairs
        Value of each final outcome class (classes left out are worth 0); the
        reroll with the highest expected value is taken, ties going to no
        reroll (Willpower is kept), then to fewer dice, then to rerolling
        failures before successes before 10s.  Unused by ``reroll_failures``.
    reroll_failures : bool
        The core rules' rule of thumb instead of an optimum: a roll that is not a
        win rerolls up to three of its failed normal dice; a win keeps them.
    forbid_new_messy : bool
        Never take a reroll that could turn a roll that is not a messy
        critical into one (with a Hunger 10 showing, that means no reroll).
    """

    name: str = rule("custom", help="The strategy's name, shown in tables.")
    values: tuple = rule(
        (),
        items=None,
        help="Value of each final outcome class (classes left out are worth 0); the "
        "reroll with the highest expected value is taken.",
    )
    reroll_failures: bool = rule(
        False,
        help="Rule of thumb instead of an optimum: a roll that is not a win rerolls up to three failed normal dice.",
    )
    forbid_new_messy: bool = rule(False, help="Never take a reroll that could turn a roll into a messy critical.")

    def check(self):
        for pair in self.values:
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise ValueError(f"values must be (outcome class, number) pairs, got {pair!r}")
            k, val = pair
            if k not in v5.CLASSES:
                raise ValueError(f"unknown outcome class {k!r}; choose from {', '.join(v5.CLASSES)}")
            if isinstance(val, bool) or not isinstance(val, numbers.Rational):
                raise ValueError(f"the value of {k} must be a whole number or a Fraction, got {val!r}")
        if len({k for k, _ in self.values}) != len(self.values):
            raise ValueError("values name an outcome class twice")

    def to_dict(self) -> dict:
        """As :meth:`Rules.to_dict`, the values as a table ``class = "p/q"``."""
        out = super().to_dict()
        out["values"] = {k: str(Fraction(v)) for k, v in self.values}
        return out

    @classmethod
    def from_dict(cls, data: object, prefix: str = ""):
        """As :meth:`Rules.from_dict`; ``values`` is a table of ``class = number`` (``"1/2"`` for a fraction)."""
        if isinstance(data, dict) and "values" in data:
            raw = data["values"]
            label = f"{prefix}values"
            if not isinstance(raw, dict):
                raise ValueError(f"field {label!r} must be a table of outcome class = number, got {toml_kind(raw)}")
            pairs = []
            for k, v in raw.items():
                try:
                    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
                        raise ValueError
                    number = Fraction(repr(v)) if isinstance(v, float) else Fraction(v)
                except (ValueError, ZeroDivisionError):
                    raise ValueError(
                        f"field '{label}.{k}' must be a number such as 1, 0.5 or \"1/3\", got {toml_kind(v)}"
                    ) from None
                pairs.append([k, number])
            data = {**data, "values": pairs}
        return super().from_dict(data, prefix)

    def value_of(self, outcome: str) -> Fraction:
        return dict(self.values).get(outcome, Fraction(0))

    def integer_values(self) -> np.ndarray:
        """The class values scaled to exact integers (common denominator)."""
        fracs = [self.value_of(c) for c in v5.CLASSES]
        den = lcm(*(f.denominator for f in fracs))
        ints = [int(f * den) for f in fracs]
        if max(abs(i) for i in ints) > 10**9:
            raise ValueError("the strategy's values are too finely divided; use simpler fractions")
        return np.array(ints, dtype=np.int64)


def optimal(values: dict, name: str = "optimal") -> Strategy:
    """The exact optimum for a value of each final outcome class.

    ``values`` maps class names (``analysis.v5.CLASSES``) to numbers (int,
    Fraction, or float, taken exactly as written in decimal); missing classes
    are worth 0.  Example: ``optimal({"plain_win": 1, "critical_win": 1,
    "messy_critical": 0.5, "bestial_failure": -1})``.
    """
    if not isinstance(values, dict) or not values:
        raise ValueError("values must be a non-empty dict of outcome class -> number")
    parsed = []
    for k, val in values.items():
        if k not in v5.CLASSES:
            raise ValueError(f"unknown outcome class {k!r}; choose from {', '.join(v5.CLASSES)}")
        if isinstance(val, bool) or not isinstance(val, (int, float, Fraction)):
            raise ValueError(f"the value of {k} must be a number, got {val!r}")
        if isinstance(val, float):
            if val != val or val in (float("inf"), float("-inf")):
                raise ValueError(f"the value of {k} must be finite, got {val}")
            val = Fraction(repr(val))
        parsed.append((k, Fraction(val)))
    strategy = Strategy(name=name, values=tuple(parsed))
    strategy.integer_values()  # validate the scale now
    return strategy


STRATEGIES = {
    "reroll_failures": Strategy("reroll_failures", reroll_failures=True),
    "maximize_win": optimal(_WIN, "maximize_win"),
    "maximize_critical": optimal({"critical_win": 1, "messy_critical": 1}, "maximize_critical"),
    "avoid_messy": Strategy(
        "avoid_messy", values=tuple((k, Fraction(v)) for k, v in _WIN.items()), forbid_new_messy=True
    ),
}


def strategy_of(strategy) -> Strategy:
    """A Strategy from a name in ``STRATEGIES`` or a Strategy itself."""
    return named(strategy, STRATEGIES, Strategy)


# ------------------------------------------------------- one rolled hand


@dataclass(frozen=True)
class Decision:
    """A strategy's choice for dice that have landed, and what follows."""

    strategy: str
    reroll: tuple  #: faces of the normal dice rerolled (empty: keep the roll)
    before: str  #: the outcome class as rolled
    after: dict  #: exact distribution of the final class, {class: Fraction}
    expected_value: Fraction  #: of the final class, by the strategy's values

    @property
    def p_win(self) -> Fraction:
        return sum((p for c, p in self.after.items() if c in _WIN), Fraction(0))

    @property
    def spends_willpower(self) -> bool:
        return bool(self.reroll)

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.display`)."""
        head = [
            self.strategy,
            f"reroll {list(self.reroll)}" if self.reroll else "keep the roll",
            f"rolled {self.before}",
        ]
        rows = [(f"after: {c}", p) for c, p in self.after.items() if p]
        rows += [("p_win", self.p_win), ("expected value", f"{float(self.expected_value):.4g}")]
        return head, rows


def _after(normal_kept, rerolled, hunger, difficulty, rules):
    dist = dict.fromkeys(v5.CLASSES, 0)
    for faces in itertools.product(range(1, 11), repeat=rerolled):
        dist[v5.read_roll(list(normal_kept) + list(faces), hunger, difficulty, rules).outcome] += 1
    total = 10**rerolled
    return {c: Fraction(w, total) for c, w in dist.items()}


def decide(normal, hunger, difficulty: int, strategy="maximize_win", rules: v5.V5Rules = v5.OFFICIAL) -> Decision:
    """Which normal dice a strategy rerolls for a rolled hand, and the exact odds after.

    Examples
    --------
    >>> d = decide([4, 3], [6, 1, 2], 2, "maximize_win")
    >>> d.reroll, d.p_win
    ((4, 3), Fraction(3, 4))
    """
    normal, hunger = check_faces("normal", normal), check_faces("hunger", hunger)  # read once
    strategy = strategy_of(strategy)
    first = v5.read_roll(normal, hunger, difficulty, rules)
    fails = [f for f in normal if f < rules.success_face]
    succs = [f for f in normal if rules.success_face <= f < 10]
    tens = [f for f in normal if f == 10]
    won = first.outcome in _WIN

    def value(dist):
        return sum((strategy.value_of(c) * p for c, p in dist.items()), Fraction(0))

    keep = {c: Fraction(int(c == first.outcome)) for c in v5.CLASSES}
    best = ((), keep, value(keep))
    if strategy.reroll_failures:
        if not won and fails:
            chosen = tuple(fails[:MAX_REROLL])
            rest = list(normal)
            for f in chosen:
                rest.remove(f)
            dist = _after(rest, len(chosen), hunger, difficulty, rules)
            best = (chosen, dist, value(dist))
    else:
        for k in range(1, min(MAX_REROLL, len(normal)) + 1):
            for rf in range(min(len(fails), k), -1, -1):
                for rs in range(min(len(succs), k - rf), -1, -1):
                    rt = k - rf - rs
                    if rt > len(tens):
                        continue
                    chosen = tuple(fails[:rf] + succs[:rs] + tens[:rt])
                    rest = fails[rf:] + succs[rs:] + tens[rt:]
                    dist = _after(rest, k, hunger, difficulty, rules)
                    if strategy.forbid_new_messy and dist["messy_critical"] > 0 and first.outcome != "messy_critical":
                        continue
                    if value(dist) > best[2]:
                        best = (chosen, dist, value(dist))
    return Decision(strategy.name, best[0], first.outcome, best[1], best[2])
