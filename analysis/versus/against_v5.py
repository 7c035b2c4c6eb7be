"""Cross-system comparisons: La Soif against V5, ten-card tests against V5, paired explicitly.

Two systems can only be set side by side once it is said what the two rolls
share, and that choice decides the answer: at V5 Difficulty 1, La Soif gives
several times V5's bestial failures at the same pool and level; at
Difficulty 3, V5 gives more.  So :func:`versus` has no default for either:

* ``difficulty``: the V5 Difficulty (a SPEC; each value is a row).
* ``pairing``:

  - ``"rating"``: the same character on both sides.  La Soif: the same pool,
    Soif = Hunger (a Requiem roll succeeds on one success).  Ten-card tests:
    the same ``attribute`` and ``skill`` (the V5 pool is attribute + skill,
    the card base attribute + 2 x skill) against a ``card_difficulty`` you
    give: the card rules set no scale that matches a V5 Difficulty.
  - ``"chance"``: the same chance of success.  For each V5 roll, the La
    Soif pool (1..``SEARCH_TOP``, Soif = Hunger) or the card base (against
    ``card_difficulty``, default 12: another shifts the base, not the
    chances) whose chance of success is nearest V5's chance to win; equal
    distances go to the lower chance, equal chances to the smaller pool or
    base (:func:`analysis.versus.cards_v5.nearest_card_test`).

The card test's Hunger is V5's (from 1 on it draws a confirmation card).
Every value is counted exactly; ``exact=False`` gives ``float(Fraction)``.
"""

from __future__ import annotations

import bisect
import os
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from analysis.workbench.compare import spec_text
from analysis.workbench.solve import rule_set
from analysis.model.validate import InputError, as_values, check_bool, check_cells

from analysis.systems.cards import deck
from analysis.systems.requiem import beast
from analysis.systems.v5 import roll as v5
from analysis.systems.v5.dice import MAX_POOL

#: The pairings, and what each keeps equal.
PAIRINGS = {
    "rating": "the same character: the same pool (La Soif) or attribute and skill (ten-card tests)",
    "chance": "the same chance of success: the nearest La Soif pool or card base",
}
#: The systems set against V5 (by system name).
SIDES = {"requiem": "La Soif", "cards": "ten-card tests"}
#: La Soif pools the chance pairing searches (1..this, Requiem's largest pool; a chance die is no rating).
SEARCH_TOP = 200
#: The card difficulty of the chance pairing unless one is given (it shifts the base found, not the chances).
CHANCE_CARD_DIFFICULTY = 12
#: The V5 pools unless given (V5's own default).
DEFAULT_POOL = "1-10"
#: Most rows one comparison counts.
MAX_ROWS = 100_000

#: Key columns, by (side, pairing).
KEYS = {
    ("requiem", "rating"): ("pool", "hunger", "difficulty", "la_soif_pool", "soif"),
    ("requiem", "chance"): ("pool", "hunger", "difficulty", "la_soif_pool", "soif"),
    ("cards", "rating"): ("attribute", "skill", "pool", "card_base", "hunger", "difficulty", "card_difficulty"),
    ("cards", "chance"): ("pool", "hunger", "difficulty", "card_difficulty", "card_base"),
}
#: Value columns, by side: chance to win, bestial failures, the Beast on a win.
VALUES = {
    "requiem": (
        "v5_win",
        "la_soif_success",
        "win_difference",
        "v5_bestial_failure",
        "la_soif_bestial_failure",
        "bestial_difference",
        "bestial_ratio",
        "v5_messy_critical",
        "la_soif_beastly_critical",
    ),
    "cards": (
        "v5_win",
        "card_win",
        "win_difference",
        "v5_bestial_failure",
        "card_bestial_failure",
        "bestial_difference",
        "bestial_ratio",
        "v5_messy_critical",
        "card_bestial_success",
    ),
}


def _side_word(side: str) -> str:
    return f"{SIDES[side]} ({side})"


def _rule_set(word):
    """The rule set ``word`` names (a system, a shipped rule set, a file, rules), or one sentence."""
    try:
        return rule_set(word)
    except ValueError:
        if isinstance(word, str) and not word.endswith(".toml") and os.sep not in word and "/" not in word:
            raise ValueError(
                f"{word!r} is no system nor rule set; versus compares "
                f"{' or '.join(_side_word(s) for s in SIDES)} with V5 (v5), or a rule set "
                f"of theirs (see `beastodds rules`)"
            ) from None
        raise


def sides(side, v5="v5") -> tuple:
    """``(side rule set, V5 rule set)``: ``side`` a La Soif or ten-card rule set, ``v5`` a V5 one.

    Each is a system's name (``"requiem"``, ``"cards"``, ``"v5"``: their
    official rules), a shipped rule set, a rule-set TOML file, a
    :class:`analysis.workbench.rulesets.RuleSet` or a rules instance.  Any other pair
    (V5 first, two V5 rule sets, Werewolf, ...) is refused in one sentence.
    """
    a, b = _rule_set(side), _rule_set(v5)
    if a.system == "v5" and b.system in SIDES:
        raise ValueError(
            f"give V5 second: versus sets {_side_word(b.system)} against V5, "
            f"so the differences read {SIDES[b.system]} minus V5 "
            f"(beastodds versus {b.name} {a.name})"
        )
    if a.system not in SIDES or b.system != "v5":
        raise ValueError(
            f"versus compares {' or '.join(_side_word(s) for s in SIDES)} with V5 (v5), "
            f"got {a.name} (a {a.system} rule set) and {b.name} (a {b.system} rule set)"
        )
    return a, b


def _check_pairing(pairing) -> str:
    if pairing not in PAIRINGS:
        raise InputError(
            "pairing",
            f" must be rating (the same character on both sides) or chance (the "
            f"same chance of success), got {pairing!r}",
        )
    return pairing


def _fraction_columns(df: pd.DataFrame, keys, exact: bool) -> pd.DataFrame:
    for k in keys:
        df[k] = df[k].astype(np.int64)
    for c in df.columns:
        if c in keys:
            continue
        if exact:
            df[c] = pd.Series(df[c].tolist(), dtype=object)
        else:
            df[c] = np.array([np.nan if v is None else float(v) for v in df[c]], dtype=np.float64)
    return df


def _answer(row: dict, other_win: Fraction, other_bestial: Fraction) -> dict:
    """The columns that answer the question: the differences, and the ratio of bestial failures."""
    row["win_difference"] = other_win - row["v5_win"]
    row["bestial_difference"] = other_bestial - row["v5_bestial_failure"]
    v5_bestial = row["v5_bestial_failure"]
    row["bestial_ratio"] = other_bestial / v5_bestial if v5_bestial else None
    return row


class _Nearest:
    """The candidate whose chance is nearest a target: the lower chance, then the smaller value, on a
    tie (as :func:`analysis.versus.cards_v5.nearest_card_test`).

    ``candidates`` are ``(value, chance)`` pairs, in any order: nothing assumes that the chance grows
    with the value.  The distinct chances are sorted once (each with its smallest value), so a target is
    looked up by bisection among them, exactly.
    """

    def __init__(self, candidates):
        smallest = {}
        for v, q in candidates:
            q = Fraction(q)
            if q not in smallest or v < smallest[q]:
                smallest[q] = v
        self.chances = sorted(smallest)
        self.smallest = smallest

    def __call__(self, p: Fraction) -> tuple:
        i = bisect.bisect_left(self.chances, p)
        near = [q for q in self.chances[max(i - 1, 0) : i + 1]]
        q = min(near, key=lambda q: (abs(q - p), q))
        return self.smallest[q], q


def _v5_rows(pools, hungers, difficulties, rules) -> pd.DataFrame:
    return v5.table(pools, hungers, difficulties, rules, exact=True)


def _soif(side, v5_rules, pairing, difficulties, pool, hunger, names) -> tuple:

    pool = DEFAULT_POOL if pool is None else pool
    if pairing == "rating":
        pools = as_values("pool", pool, 1, beast.MAX_POOL)
    else:
        pools = as_values("pool", pool, 0, MAX_POOL)
    hungers = as_values("hunger", hunger, 0, beast.MAX_SOIF)
    _check_rows(names, pool=len(pools), hunger=len(hungers), difficulty=len(difficulties))
    fifth = _v5_rows(pools, hungers, difficulties, v5_rules)
    searched = pools if pairing == "rating" else range(1, SEARCH_TOP + 1)
    soif = beast.table(list(dict.fromkeys(searched)), hungers, side.rules, exact=True)
    by_cell = {(int(r.pool), int(r.soif)): r for r in soif.itertuples(index=False)}
    chances: dict[int, list[tuple[int, Fraction]]] = {}
    for (p, s), r in by_cell.items():
        chances.setdefault(s, []).append((p, r.p_success))
    by_level = {s: _Nearest(c) for s, c in chances.items()}
    rows, capped = [], 0
    for r in fifth.itertuples(index=False):
        level = int(r.hunger)
        if pairing == "rating":
            la_pool = int(r.pool)
        else:
            la_pool, _ = by_level[level](r.p_win)
            capped += la_pool == SEARCH_TOP and by_cell[(la_pool, level)].p_success < r.p_win
        la = by_cell[(la_pool, level)]
        row = {
            "pool": r.pool,
            "hunger": r.hunger,
            "difficulty": r.difficulty,
            "la_soif_pool": la_pool,
            "soif": level,
            "v5_win": r.p_win,
            "la_soif_success": la.p_success,
            "v5_bestial_failure": r.bestial_failure,
            "la_soif_bestial_failure": la.bestial_failure,
            "v5_messy_critical": r.messy_critical,
            "la_soif_beastly_critical": la.p_beastly_critical,
        }
        rows.append(_answer(row, la.p_success, la.bestial_failure))
    notes = []
    if capped:
        notes.append(
            f"{capped} row{'s' if capped != 1 else ''}: V5's chance to win is above that of "
            f"every La Soif pool searched (1-{SEARCH_TOP}); pool {SEARCH_TOP} is given"
        )
    return rows, notes


def _cards(side, v5_rules, pairing, difficulties, pool, hunger, attribute, skill, card_difficulty, names) -> tuple:

    hungers = as_values("hunger", hunger, 0, deck.MAX_HUNGER)
    card_diffs = as_values("card_difficulty", card_difficulty, 0, deck.MAX_VALUE)
    rules = side.rules
    if pairing == "rating":
        attributes = as_values("attribute", attribute, 0, 100)
        skills = as_values("skill", skill, 0, 100)
        _check_rows(
            names,
            attribute=len(attributes),
            skill=len(skills),
            hunger=len(hungers),
            difficulty=len(difficulties),
            card_difficulty=len(card_diffs),
        )
        sheets = [(a, s) for a in attributes for s in skills]
        pools = sorted({a + s for a, s in sheets})
        bases = sorted({a + 2 * s for a, s in sheets})
        fifth = {
            (int(r.pool), int(r.hunger), int(r.difficulty)): r
            for r in _v5_rows(pools, hungers, difficulties, v5_rules).itertuples(index=False)
        }
        card = {
            (int(r.base), int(r.difficulty), int(r.hunger)): r
            for r in deck.table(bases, card_diffs, hungers, rules, exact=True).itertuples(index=False)
        }
        cells: list[tuple[Any, ...]] = [
            (a, s, h, d, cd) for a, s in sheets for h in hungers for d in difficulties for cd in card_diffs
        ]
    else:
        pools = as_values("pool", DEFAULT_POOL if pool is None else pool, 0, MAX_POOL)
        _check_rows(
            names, pool=len(pools), hunger=len(hungers), difficulty=len(difficulties), card_difficulty=len(card_diffs)
        )
        v5df = _v5_rows(pools, hungers, difficulties, v5_rules)
        fifth = {(int(r.pool), int(r.hunger), int(r.difficulty)): r for r in v5df.itertuples(index=False)}
        card, candidates = {}, {}
        for cd in card_diffs:  # every base that can be nearest (nearest_card_test's), once per card difficulty
            lo = max(0, cd - max(rules.values) - 1)
            for r in deck.table(range(lo, cd + 1), cd, hungers, rules, exact=True).itertuples(index=False):
                card[(int(r.base), int(r.difficulty), int(r.hunger))] = r
            # the chance to win does not depend on Hunger (a confirmation card only makes it bestial)
            candidates[cd] = _Nearest((b, card[(b, cd, hungers[0])].p_success) for b in range(lo, cd + 1))
        cells = [(None, None, p, h, d, cd) for p in pools for h in hungers for d in difficulties for cd in card_diffs]
    rows = []
    for cell in cells:
        if pairing == "rating":
            a, s, h, d, cd = cell
            p, base = a + s, a + 2 * s
            v = fifth[(p, h, d)]
            head = {
                "attribute": a,
                "skill": s,
                "pool": p,
                "card_base": base,
                "hunger": h,
                "difficulty": d,
                "card_difficulty": cd,
            }
        else:
            _, _, p, h, d, cd = cell
            v = fifth[(p, h, d)]
            base, _ = candidates[cd](v.p_win)
            head = {"pool": p, "hunger": h, "difficulty": d, "card_difficulty": cd, "card_base": base}
        c = card[(base, cd, h)]
        row = {
            **head,
            "v5_win": v.p_win,
            "card_win": c.p_success,
            "v5_bestial_failure": v.bestial_failure,
            "card_bestial_failure": c.bestial_failure,
            "v5_messy_critical": v.messy_critical,
            "card_bestial_success": c.bestial_success,
        }
        rows.append(_answer(row, c.p_success, c.bestial_failure))
    return rows, []


def _check_rows(names=None, **counts) -> None:
    names = names or {}
    check_cells({names.get(k, k): n for k, n in counts.items()}, MAX_ROWS, "comparison")


def _spec(values) -> str:
    return spec_text(values)


def paired_text(side: str, pairing: str, difficulties, card_difficulties=None) -> str:
    """What :func:`versus` paired, in one sentence starting ``Paired:``."""
    d = _spec(difficulties)
    if side == "requiem":
        if pairing == "rating":
            return (
                f"Paired: V5 Difficulty {d}; equal rating: La Soif pool = V5 pool, Soif = Hunger "
                f"(La Soif succeeds on one success)."
            )
        return (
            f"Paired: V5 Difficulty {d}; equal chance: the La Soif pool (1-{SEARCH_TOP} searched) whose "
            f"chance of success is nearest V5's chance to win, Soif = Hunger."
        )
    cd = _spec(card_difficulties)
    if pairing == "rating":
        both = (
            f"V5 Difficulty {d} with card difficulty {cd}"
            if len(difficulties) == len(card_difficulties) == 1
            else f"V5 Difficulty {d} and card difficulty {cd}, each with each"
        )
        return (
            f"Paired: {both}; equal rating: the same attribute and "
            f"skill (V5 pool = attribute + skill, card base = attribute + 2 x skill), card Hunger = "
            f"V5 Hunger."
        )
    return (
        f"Paired: V5 Difficulty {d}; equal chance: the card base whose chance to win against card "
        f"difficulty {cd} is nearest V5's chance to win (the card difficulty shifts the base, not the "
        f"chances), card Hunger = V5 Hunger."
    )


def versus(
    side,
    v5="v5",
    *,
    difficulty,
    pairing,
    pool=None,
    hunger="0-5",
    attribute=None,
    skill=None,
    card_difficulty=None,
    exact: bool = False,
    names: dict | None = None,
) -> pd.DataFrame:
    """La Soif or ten-card tests against V5, one row per cell, paired as you say.

    Parameters
    ----------
    side : str, RuleSet or rules
        ``"requiem"`` (La Soif; alias ``"beast"``) or ``"cards"`` (ten-card
        tests), a shipped rule set of theirs, a rule-set TOML file, or rules.
    v5 : str, RuleSet or rules
        The V5 rules: ``"v5"`` (official), a shipped V5 rule set or a file.
    difficulty : int or SPEC
        The V5 Difficulty (required: the answer depends on it).
    pairing : str
        ``"rating"`` or ``"chance"`` (required; see the module's docstring).
    pool : int or SPEC
        V5 pools (default ``DEFAULT_POOL``, 1-10; La Soif by rating: the
        pool of both sides, 1..200).  Not
        with ten-card tests by rating, which take ``attribute`` and ``skill``.
    hunger : int or SPEC
        V5 Hunger 0..5; La Soif's Soif and the card test's Hunger are the same.
    attribute, skill : int or SPEC
        Ten-card tests by rating only (required there), 0..100 each.
    card_difficulty : int or SPEC
        Ten-card tests only: the total the card test must reach (0..1000).
        Required by rating; by chance, default 12 (it shifts the base found,
        not the chances).
    exact : bool
        ``Fraction`` cells instead of ``float(Fraction)``.
    names : dict, optional
        ``{parameter: how messages spell it}`` (``{"pool": "--pool"}``), for
        the size check's message on the command line.

    Returns
    -------
    pandas.DataFrame
        The key columns of :data:`KEYS`, then ``v5_win``, the other side's
        chance of success (``la_soif_success``: one success or more;
        ``card_win``), ``win_difference`` (the other side's minus V5's:
        above 0, the other system is easier), ``v5_bestial_failure``, the
        other side's bestial failure, ``bestial_difference`` (the other
        side's minus V5's) and ``bestial_ratio`` (the other side's over
        V5's; None, or NaN with floats, when V5's is 0), then the Beast on
        a win: ``v5_messy_critical`` beside ``la_soif_beastly_critical`` or
        ``card_bestial_success``.  ``attrs``: ``paired`` (the sentence of
        :func:`paired_text`), ``rule_sets`` (the two), ``pairing``,
        ``notes`` (a chance pairing that ran out of pools searched).

    Raises
    ------
    ValueError
        One sentence: an unknown or unsupported pair, a bad pairing, a value
        out of range, an option that does not go with the pairing.

    Examples
    --------
    >>> df = versus("requiem", "v5", difficulty=1, pairing="rating", pool=5, hunger=3, exact=True)
    >>> df.loc[0, "bestial_ratio"] > 4
    True
    """
    exact = check_bool("exact", exact)
    a, b = sides(side, v5)
    pairing = _check_pairing(pairing)
    if difficulty is None:
        raise InputError("difficulty", ": give the V5 Difficulty: the answer depends on it")
    difficulties = as_values("difficulty", difficulty, 0, None)
    if a.system == "requiem":
        for name, value in (("attribute", attribute), ("skill", skill), ("card_difficulty", card_difficulty)):
            if value is not None:
                raise InputError(name, " goes with ten-card tests; La Soif is paired by pool and Hunger")
        rows, notes = _soif(a, b.rules, pairing, difficulties, pool, hunger, names)
        card_diffs = None
    else:
        if pairing == "rating":
            missing = [n for n, v in (("attribute", attribute), ("skill", skill)) if v is None]
            if missing:
                raise InputError(
                    missing[0],
                    ": ten-card tests paired by rating need the character's "
                    "attribute and skill (V5 pool = attribute + skill, card base = "
                    "attribute + 2 x skill)",
                )
            if pool is not None:
                raise InputError(
                    "pool",
                    ": ten-card tests paired by rating take attribute and skill, and the V5 pool is attribute + skill",
                )
            if card_difficulty is None:
                raise InputError(
                    "card_difficulty",
                    ": give the card difficulty to set against the V5 "
                    "Difficulty: the card rules set no scale that matches one, and the answer "
                    "depends on it",
                )
        else:
            for name, value in (("attribute", attribute), ("skill", skill)):
                if value is not None:
                    raise InputError(
                        name, " goes with the rating pairing; paired by chance, ten-card tests take the V5 pool"
                    )
            if card_difficulty is None:
                card_difficulty = CHANCE_CARD_DIFFICULTY
        rows, notes = _cards(a, b.rules, pairing, difficulties, pool, hunger, attribute, skill, card_difficulty, names)

        card_diffs = as_values("card_difficulty", card_difficulty, 0, deck.MAX_VALUE)
    keys = KEYS[(a.system, pairing)]
    df = pd.DataFrame(rows, columns=list(keys) + list(VALUES[a.system]))
    df = _fraction_columns(df, keys, exact)
    df.attrs.update(
        paired=paired_text(a.system, pairing, difficulties, card_diffs),
        rule_sets=(a, b),
        pairing=pairing,
        notes=notes,
        keys=keys,
    )
    return df


__all__ = [
    "PAIRINGS",
    "SIDES",
    "SEARCH_TOP",
    "CHANCE_CARD_DIFFICULTY",
    "DEFAULT_POOL",
    "KEYS",
    "VALUES",
    "sides",
    "paired_text",
    "versus",
]
