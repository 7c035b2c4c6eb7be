"""A scene of ten-card tests: several static tests one after another, from one deck or reshuffled.

With ``CardRules.reshuffle`` False the tests draw from one scene deck that is
not reshuffled, so what one test draws changes what the next can draw:
:func:`scene` counts each test's classes, the odds of a test given the one
before, and the distributions of wins and of Compulsions, exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.engine import decks as _decks
from analysis.engine.exact import ArrayFields
from analysis.engine import display as _display
from analysis.systems.cards.rules import (
    CLASSES,
    MAX_HUNGER,
    MAX_SCENE,
    MAX_VALUE,
    OFFICIAL,
    CardRules,
    engine_deck,
    hunger_slots,
)
from analysis.model.validate import check_bool, check_int, materialise

#: Columns of :func:`scene_table`, in order.
SCENE_COLUMNS = (
    ("test", "base", "difficulty", "hunger")
    + CLASSES
    + ("p_win", "win_after_win", "win_after_loss", "bestial_after_bestial")
)


def _check_scene(tests) -> tuple:
    # a set (no order), a dict or a text is refused; at most one test past the limit is read
    tests = materialise(
        "tests",
        tests,
        "a list of (base, difficulty) or (base, difficulty, hunger) tuples",
        MAX_SCENE,
        too_many=f"a scene must have 1..{MAX_SCENE} tests, got {{count}}",
    )
    if not 1 <= len(tests) <= MAX_SCENE:
        raise ValueError(f"a scene must have 1..{MAX_SCENE} tests, got {len(tests)}")
    out = []
    for i, t in enumerate(tests, 1):
        if isinstance(t, dict):
            unknown = set(t) - {"base", "difficulty", "hunger"}
            if unknown or not {"base", "difficulty"} <= set(t):
                raise ValueError(f"test {i}: expected keys base, difficulty and optionally hunger, got {sorted(t)}")
            t = (t["base"], t["difficulty"], t.get("hunger", 0))
        if isinstance(t, (str, bytes)) or not hasattr(t, "__len__") or len(t) not in (2, 3):
            raise ValueError(f"test {i}: expected (base, difficulty) or (base, difficulty, hunger), got {t!r}")
        base = check_int(f"test {i}: base", t[0], 0, MAX_VALUE)
        diff = check_int(f"test {i}: difficulty", t[1], 0, MAX_VALUE)
        hunger = check_int(f"test {i}: hunger", t[2], 0, MAX_HUNGER) if len(t) == 3 else 0
        out.append((base, diff, hunger))
    return tuple(out)


def _scene_counts(tests: tuple, rules: CardRules):
    hungry = hunger_slots(h for _, _, h in tests)
    return _decks.scene_counts(
        engine_deck(rules),
        tuple((b, d, f) for (b, d, _), f in zip(tests, hungry)),
        rules.win_on_tie,
        rules.fresh_confirmation,
        int(rules.reshuffle),
    )


_GROUPS = {
    "win": ("success", "bestial_success"),
    "loss": ("failure", "bestial_failure"),
    "bestial": ("bestial_success", "bestial_failure"),
}


def _group(name: str) -> tuple:
    if name in CLASSES:
        return (name,)
    if name in _GROUPS:
        return _GROUPS[name]
    raise ValueError(f"unknown outcome {name!r}; choose from {', '.join(CLASSES + tuple(_GROUPS))}")


@dataclass(frozen=True, eq=False)
class SceneOdds(ArrayFields):
    """The exact odds of a scene: several static tests, one after another.

    Tests are numbered from 1.  With ``rules.reshuffle`` False they draw
    from one scene deck that is not reshuffled, so what one test draws
    changes what the next can draw.
    """

    tests: tuple
    rules: CardRules
    marginal_ways: np.ndarray
    pair_ways: np.ndarray
    count_ways: np.ndarray
    denominators: tuple

    def _index(self, test) -> int:
        return check_int("test", test, 1, len(self.tests)) - 1

    def classes(self, test: int) -> dict:
        """The four classes of one test as ``{name: Fraction}`` (over all that went before)."""
        t = self._index(test)
        return {c: Fraction(int(self.marginal_ways[t, k]), self.denominators[t]) for k, c in enumerate(CLASSES)}

    def p_win(self, test: int) -> Fraction:
        """Probability that this test is won (bestially or not)."""
        c = self.classes(test)
        return c["success"] + c["bestial_success"]

    def after(self, test: int, given: str, outcome: str = "win") -> Fraction:
        """P(test ends in ``outcome`` | the test before it ended in ``given``).

        ``given`` and ``outcome`` are a class name or ``"win"``, ``"loss"``,
        ``"bestial"``.  Raises ValueError for test 1, or when ``given``
        cannot happen.
        """
        t = self._index(test)
        if t == 0:
            raise ValueError("test 1 has no test before it; choose a test from 2 on")
        rows = [CLASSES.index(c) for c in _group(given)]
        cols = [CLASSES.index(c) for c in _group(outcome)]
        joint = sum(int(self.pair_ways[t - 1, i, j]) for i in rows for j in cols)
        cond = sum(int(self.pair_ways[t - 1, i, j]) for i in rows for j in range(_decks.N_CLASSES))
        if cond == 0:
            raise ValueError(f"test {t} cannot end in {given!r}, so nothing follows from it")
        return Fraction(joint, cond)

    @property
    def wins(self) -> dict:
        """Distribution of the number of tests won: ``{wins: Fraction}``."""
        den = self.denominators[-1]
        return {w: Fraction(int(x), den) for w, x in enumerate(self.count_ways.sum(axis=1)) if x}

    @property
    def compulsions(self) -> dict:
        """Distribution of the number of bestial results (Compulsions) in the scene."""
        den = self.denominators[-1]
        return {b: Fraction(int(x), den) for b, x in enumerate(self.count_ways.sum(axis=0)) if x}

    def __str__(self) -> str:
        deck = "reshuffled before every test" if self.rules.reshuffle else "one deck, not reshuffled"
        lines = [f"Card scene of {len(self.tests)} tests ({deck})"]
        for i, (b, d, h) in enumerate(self.tests, 1):
            c = self.classes(i)
            lines.append(
                f"  test {i}: base {b} vs {d}, Hunger {h}: win {float(self.p_win(i)):.2%}, "
                f"bestial {float(c['bestial_success'] + c['bestial_failure']):.2%}"
            )
        lines.append("  Compulsions: " + ", ".join(f"{b}: {float(p):.2%}" for b, p in self.compulsions.items()))
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.engine.display`)."""
        head = [f"{len(self.tests)} tests", "reshuffled" if self.rules.reshuffle else "one scene deck"]
        rows = [(f"test {i + 1} win", self.p_win(i + 1)) for i in range(len(self.tests))]
        rows += [(f"{k} compulsions", p) for k, p in self.compulsions.items()]
        return head, rows


def scene(tests, rules: CardRules = OFFICIAL) -> SceneOdds:
    """Exact odds of a scene of static tests drawn one after another.

    Parameters
    ----------
    tests : list of tuples
        ``(base, difficulty)`` or ``(base, difficulty, hunger)`` per test (or
        dicts with those keys), 1..20 tests.
    rules : CardRules
        ``rules.reshuffle`` False draws every test (and, with same-deck
        confirmation, every confirmation card) from one scene deck that is
        not reshuffled until it runs out.  Default: reshuffled every test.

    Returns
    -------
    SceneOdds
        Each test's classes, the odds of a test given the one before
        (``after``), and the distributions of wins and of Compulsions.
    """
    tests = _check_scene(tests)
    rules = CardRules.require(rules)
    marg, pair, count, dens = _scene_counts(tests, rules)
    return SceneOdds(tests=tests, rules=rules, marginal_ways=marg, pair_ways=pair, count_ways=count, denominators=dens)


def scene_table(tests, rules: CardRules = OFFICIAL, exact: bool = False) -> pd.DataFrame:
    """One row per test of a scene: its classes and how it follows the test before.

    Columns ``test, base, difficulty, hunger, success, failure,
    bestial_success, bestial_failure, p_win, win_after_win, win_after_loss,
    bestial_after_bestial``.  The ``..._after_...`` columns are conditional
    on the previous test; they are NaN (``None`` with ``exact``) for test 1
    and where the condition cannot happen.
    """
    exact = check_bool("exact", exact)
    s = scene(tests, rules)
    rows = []
    for i, (b, d, h) in enumerate(s.tests, 1):
        row = {"test": i, "base": b, "difficulty": d, "hunger": h, **s.classes(i), "p_win": s.p_win(i)}
        for col, given, outcome in (
            ("win_after_win", "win", "win"),
            ("win_after_loss", "loss", "win"),
            ("bestial_after_bestial", "bestial", "bestial"),
        ):
            try:
                row[col] = s.after(i, given, outcome)
            except ValueError:
                row[col] = None
        rows.append(row)
    df = pd.DataFrame(rows, columns=list(SCENE_COLUMNS))
    if not exact:
        for c in SCENE_COLUMNS[4:]:
            df[c] = [np.nan if v is None else float(v) for v in df[c]]
    return df
