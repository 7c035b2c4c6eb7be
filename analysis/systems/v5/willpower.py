"""V5 Willpower rerolls: the named strategies and the decision for a rolled hand.

A strategy is the one :class:`analysis.engine.strategy.Strategy` every
mechanic takes; its exact odds are counted by the one Willpower engine
(:mod:`analysis.engine.willpower`, through :func:`analysis.systems.v5.roll.odds`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

from analysis.engine import display as _display
from analysis.engine.strategy import Strategy, offered, strategy_of
from analysis.systems.v5 import dice as v5
from analysis.model.validate import check_faces

__all__ = ["MAX_REROLL", "STRATEGIES", "Decision", "Strategy", "decide", "optimal"]

#: Dice a Willpower reroll may take (docs/rules.md: up to three normal dice).
MAX_REROLL = 3
_WIN = {"plain_win": 1, "critical_win": 1, "messy_critical": 1}


def optimal(values: dict, name: str = "optimal") -> Strategy:
    """The exact optimum for a value of each final outcome class.

    ``values`` maps class names (``analysis.systems.v5.dice.CLASSES``) to numbers (int,
    Fraction, or float, taken exactly as written in decimal); missing classes
    are worth 0.  Example: ``optimal({"plain_win": 1, "critical_win": 1,
    "messy_critical": 0.5, "bestial_failure": -1})``.
    """
    if not isinstance(values, dict) or not values:
        raise ValueError("values must be a non-empty dict of outcome class -> number")
    strategy = Strategy(name, values=values)
    strategy.check(v5.OFFICIAL.mechanic().mechanic)  # the classes and the scale of the values, now
    return strategy


#: V5's named strategies (the one table's, :data:`analysis.engine.strategy.STRATEGIES`).
STRATEGIES = offered("reroll_failures", "maximize_win", "maximize_critical", "avoid_messy")


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
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.engine.display`)."""
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
    strategy = strategy_of(strategy, STRATEGIES)
    first = v5.read_roll(normal, hunger, difficulty, rules)
    fails = [f for f in normal if f < rules.success_face]
    succs = [f for f in normal if rules.success_face <= f < 10]
    tens = [f for f in normal if f == 10]
    won = first.outcome in _WIN

    worth = {c: Fraction(int(c in _WIN)) for c in v5.CLASSES} if strategy.win else dict(strategy.values)
    rerolls = not strategy.keep and (strategy.kinds is None or "normal" in strategy.kinds)

    def value(dist):
        return sum((worth.get(c, Fraction(0)) * p for c, p in dist.items()), Fraction(0))

    keep = {c: Fraction(int(c == first.outcome)) for c in v5.CLASSES}
    best = ((), keep, value(keep))
    if rerolls and strategy.reroll_failures:
        if not won and fails:
            chosen = tuple(fails[:MAX_REROLL])
            rest = list(normal)
            for f in chosen:
                rest.remove(f)
            dist = _after(rest, len(chosen), hunger, difficulty, rules)
            best = (chosen, dist, value(dist))
    elif rerolls:
        for k in range(1, min(MAX_REROLL, len(normal)) + 1):
            for rf in range(min(len(fails), k), -1, -1):
                for rs in range(min(len(succs), k - rf), -1, -1):
                    rt = k - rf - rs
                    if rt > len(tens):
                        continue
                    chosen = tuple(fails[:rf] + succs[:rs] + tens[:rt])
                    rest = fails[rf:] + succs[rs:] + tens[rt:]
                    dist = _after(rest, k, hunger, difficulty, rules)
                    if any(dist[c] > 0 and first.outcome != c for c in strategy.forbid):
                        continue
                    if value(dist) > best[2]:
                        best = (chosen, dist, value(dist))
    return Decision(strategy.name, best[0], first.outcome, best[1], best[2])
