"""V5 blood: Rouse checks, Hunger over a night, Blood Potency and Blood Surge, exactly."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd

from analysis.engine import display as _display
from analysis.engine.results import MechanicOdds
from analysis.model.rules import Rules, rule
from analysis.systems.v5 import dice as v5, roll as _roll
from analysis.model.validate import as_values, check_bool, check_int, materialise
from analysis.engine import markov


MAX_HUNGER = 5
#: Most Rouse checks one call counts (``rouse``, ``table``), and most steps of a night.
MAX_CHECKS = 10_000
#: Blood Potency 0..10 (docs/rules.md): Blood Surge bonus dice,
#: Superficial damage mended per Rouse check, and the highest Discipline
#: level whose Rouse check may be rerolled (0: none).
SURGE_BONUS = (1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)
MEND = (1, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5)
ROUSE_REROLL_LEVEL = (0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
HUNGER_COLUMNS = tuple(f"hunger_{h}" for h in range(MAX_HUNGER + 1))
TABLE_COLUMNS = ("start_hunger", "checks", "reroll") + HUNGER_COLUMNS + ("frenzy_test",)
N_STATES = 2 * (MAX_HUNGER + 1)  # Hunger 0..5, with or without a frenzy test so far


@dataclass(frozen=True)
class RouseRules(Rules):
    """Rouse check rules; defaults per docs/rules.md.

    Attributes
    ----------
    success_face : int
        Lowest face that keeps Hunger (2..10); official 6.
    frenzy_at_max : bool
        A failed check at Hunger 5 calls for a hunger frenzy test (official
        True); Hunger stays 5 either way.
    surge_dice_at_potency_1 : int
        Dice a Blood Surge adds at Blood Potency 1: 2 as the core book's
        table prints it (official), or 1, the other reading.
    """

    success_face: int = rule(6, range=(2, 10), help="Lowest face that keeps Hunger (2..10); official 6.")
    frenzy_at_max: bool = rule(
        True,
        help="A failed check at Hunger 5 calls for a hunger frenzy test (official true); Hunger stays 5 either way.",
    )
    surge_dice_at_potency_1: int = rule(
        2,
        range=(1, 2),
        help="Dice a Blood Surge adds at Blood Potency 1 (1 or 2); official 2, "
        "as the core book's Blood Potency table prints it (1: the "
        "reading that keeps Blood Potency 0's single die).",
    )

    def p_rise(self, reroll: bool) -> Fraction:
        """Chance one check raises Hunger: a fail, or two fails with the reroll."""
        fail = Fraction(self.success_face - 1, 10)
        return fail * fail if reroll else fail


OFFICIAL = RouseRules()


def _state(hunger: int, frenzy: bool) -> int:
    return hunger + (MAX_HUNGER + 1) * int(frenzy)


def _check_step(reroll: bool, rules: RouseRules, label: str) -> markov.ExactChain:
    return _check_chain(reroll, rules)


@lru_cache(maxsize=64)
def _check_chain(reroll: bool, rules: RouseRules) -> markov.ExactChain:
    """One Rouse check's chain (made once per rule set: a night repeats it)."""
    p = rules.p_rise(reroll)
    rows = {}
    for frenzy in (False, True):
        for h in range(MAX_HUNGER + 1):
            if h < MAX_HUNGER:
                fail_to = _state(h + 1, frenzy)
            else:  # Hunger stays 5; a failure calls for a hunger frenzy test
                fail_to = _state(h, frenzy or rules.frenzy_at_max)
            row = {_state(h, frenzy): 1 - p}
            row[fail_to] = row.get(fail_to, 0) + p
            rows[_state(h, frenzy)] = row
    return _chain(rows)


def _feed_step(slake: int, kill: bool, label: str) -> markov.ExactChain:
    """Feeding lowers Hunger by ``slake`` but not below 1; only a kill reaches 0."""
    rows = {}
    for frenzy in (False, True):
        for h in range(MAX_HUNGER + 1):
            new = 0 if kill else (h if h <= 1 else max(1, h - slake))
            rows[_state(h, frenzy)] = {_state(new, frenzy): 1}
    return _chain(rows)


def _chain(rows: dict) -> markov.ExactChain:
    return markov.ExactChain.from_fractions(range(N_STATES), [rows[i] for i in range(N_STATES)])


def _start(hunger: int) -> dict:
    return {_state(hunger, False): 1}


@dataclass(frozen=True)
class HungerDistribution:
    """Exact Hunger after some Rouse checks (and whether a frenzy test came up)."""

    hunger: dict  #: {Hunger 0..5: Fraction}
    frenzy_test: Fraction  #: P(some check failed at Hunger 5)

    @property
    def mean(self) -> Fraction:
        return sum((h * p for h, p in self.hunger.items()), Fraction(0))

    __repr__ = _display.text
    _repr_html_ = _display.html


def _read(dist) -> HungerDistribution:
    hunger = {h: dist[_state(h, False)] + dist[_state(h, True)] for h in range(MAX_HUNGER + 1)}
    frenzy = sum((dist[_state(h, True)] for h in range(MAX_HUNGER + 1)), Fraction(0))
    return HungerDistribution(hunger, frenzy)


def rouse(start_hunger: int, checks: int, reroll: bool = False, rules: RouseRules = OFFICIAL) -> HungerDistribution:
    """Exact Hunger after ``checks`` Rouse checks from ``start_hunger``.

    Each check: a die at ``success_face`` or more keeps Hunger, else +1 (cap
    5); with ``reroll`` (Blood Potency allowance) two dice, keep the better.
    A failed check at Hunger 5 is a hunger frenzy test (``frenzy_test``).

    >>> rouse(0, 3).hunger[0]
    Fraction(1, 8)
    """
    start_hunger = check_int("start hunger", start_hunger, 0, MAX_HUNGER)
    checks = check_int("checks", checks, 0, MAX_CHECKS)
    RouseRules.require(rules)
    step = _check_step(check_bool("reroll", reroll), rules, "rouse")
    return _read(step.after(_start(start_hunger), checks, what="checks of this chain", smaller="use fewer checks"))


def table(start_hungers, checks, reroll=False, rules: RouseRules = OFFICIAL, exact: bool = False) -> pd.DataFrame:
    """Tidy table: Hunger distribution after each number of checks.

    Columns ``start_hunger, checks, reroll, hunger_0 .. hunger_5, frenzy_test``.
    """
    exact = check_bool("exact", exact)
    starts = as_values("start hunger", start_hungers, 0, MAX_HUNGER)
    counts = as_values("checks", checks, 0, MAX_CHECKS)
    RouseRules.require(rules)
    if isinstance(reroll, (str, bytes)) or not hasattr(reroll, "__iter__"):
        rerolls = [check_bool("reroll", reroll)]
    else:
        rerolls = [check_bool("reroll", r) for r in materialise("reroll", reroll, "True, False or a list of them")]
        if not rerolls:
            raise ValueError("reroll: the list is empty; give True, False or both")

    rows = []
    for r in rerolls:
        step = _check_step(r, rules, "rouse")
        for h in starts:
            # only the asked-for counts become Fractions (a progress bar moves per count)
            dists = markov.run(
                _start(h),
                [step] * max(counts),
                N_STATES,
                what="checks of this table",
                smaller="use fewer checks",
                keep=counts,
            )
            for n in counts:
                d = _read(dists[n])
                rows.append([h, n, r] + [d.hunger[k] for k in range(MAX_HUNGER + 1)] + [d.frenzy_test])
    df = pd.DataFrame(rows, columns=TABLE_COLUMNS)
    for c in HUNGER_COLUMNS + ("frenzy_test",):
        df[c] = df[c].astype(object) if exact else df[c].astype(float)
    return df


# ------------------------------------------------------------ Blood Potency


def potency_effects(blood_potency: int, rules: RouseRules = OFFICIAL) -> dict:
    """Surge bonus, Superficial mended per Rouse, Rouse reroll level at ``blood_potency`` (0..10)
    (the surge at Blood Potency 1 as ``rules.surge_dice_at_potency_1`` reads it)."""
    bp = check_int("blood_potency", blood_potency, 0, 10)
    rules = RouseRules.require(rules)
    surge_bonus = rules.surge_dice_at_potency_1 if bp == 1 else SURGE_BONUS[bp]
    return {
        "blood_potency": bp,
        "surge_bonus": surge_bonus,
        "mend": MEND[bp],
        "rouse_reroll_level": ROUSE_REROLL_LEVEL[bp],
    }


def blood_potency_table(rules: RouseRules = OFFICIAL) -> pd.DataFrame:
    """The Blood Potency table, BP 0..10."""
    return pd.DataFrame([potency_effects(bp, rules) for bp in range(11)])


@dataclass(frozen=True)
class SurgeOdds:
    """A Blood Surge: the surged roll (at the old Hunger) and the Hunger after."""

    roll: MechanicOdds
    hunger_after: HungerDistribution

    __repr__ = _display.text
    _repr_html_ = _display.html


def surge(
    pool: int,
    hunger: int,
    difficulty: int,
    blood_potency: int,
    rules: v5.V5Rules = v5.OFFICIAL,
    rouse_rules: RouseRules = OFFICIAL,
) -> SurgeOdds:
    """Blood Surge: a Rouse check adds dice by Blood Potency to one roll.

    The surged roll uses the old Hunger (a failed check raises it after).
    """
    bonus = potency_effects(blood_potency, rouse_rules)["surge_bonus"]

    roll = _roll.odds(check_int("pool", pool, 0, v5.MAX_POOL - bonus) + bonus, hunger, difficulty, rules)
    return SurgeOdds(roll, rouse(hunger, 1, False, rouse_rules))


# -------------------------------------------------------------- a night

_NIGHT_HELP = "wake | rouse | rouse+reroll | surge | mend | blush | aggravated | discipline:LEVEL | feed:N | kill"


def _parse_night_step(step: str, bp: int, rules: RouseRules):
    """(label, [ExactChain, ...]) for one named step of a night."""
    if not isinstance(step, str):
        raise ValueError(f"a night step must be a string ({_NIGHT_HELP}), got {step!r}")
    name, _, arg = step.strip().partition(":")
    allowance = ROUSE_REROLL_LEVEL[bp]
    if name in ("wake", "rouse", "surge", "mend", "blush") and not arg:
        return step, [_check_step(False, rules, step)]
    if name == "rouse+reroll" and not arg:
        return step, [_check_step(True, rules, step)]
    if name == "aggravated" and not arg:  # one Aggravated point: three Rouse checks
        return step, [_check_step(False, rules, step)] * 3
    if name == "discipline":
        level = _int_arg(step, arg, 1, 10)
        return step, [_check_step(level <= allowance, rules, step)]
    if name == "feed":
        return step, [_feed_step(_int_arg(step, arg, 0, MAX_HUNGER), False, step)]
    if name == "kill" and not arg:
        return step, [_feed_step(MAX_HUNGER, True, step)]
    raise ValueError(f"unknown night step {step!r}; use {_NIGHT_HELP}")


def _int_arg(step, arg, lo, hi):
    try:
        value = int(arg)
    except ValueError:
        raise ValueError(f"night step {step!r} needs a whole number after ':'") from None
    return check_int(f"the number in {step!r}", value, lo, hi)


def night(
    start_hunger: int, steps, blood_potency: int = 1, rules: RouseRules = OFFICIAL, exact: bool = False
) -> pd.DataFrame:
    """Hunger over a night: the exact distribution after each step.

    Parameters
    ----------
    start_hunger : int
        Hunger at dusk (0..5).
    steps : sequence of str
        ``wake`` (the evening Rouse check), ``rouse``, ``rouse+reroll``,
        ``surge``, ``mend``, ``blush`` (one Rouse check each),
        ``aggravated`` (mend one Aggravated point: three checks),
        ``discipline:LEVEL`` (a power's Rouse check, rerolled if LEVEL is
        within the Blood Potency allowance), ``feed:N`` (slake N Hunger, not
        below 1), ``kill`` (feed to Hunger 0).
    blood_potency : int
        0..10; sets the Discipline reroll allowance.

    Returns
    -------
    DataFrame
        Columns ``step, label, hunger_0 .. hunger_5, frenzy_test, mean_hunger``;
        row 0 is dusk.
    """
    exact = check_bool("exact", exact)
    start_hunger = check_int("start hunger", start_hunger, 0, MAX_HUNGER)
    bp = check_int("blood_potency", blood_potency, 0, 10)
    RouseRules.require(rules)
    if isinstance(steps, str):
        steps = [s for s in steps.split(",") if s.strip()]
    steps = materialise("steps", steps, "a list of steps such as [\"wake\", \"rouse\"]", MAX_CHECKS)
    labels, chain, marks = ["dusk"], [], [0]
    for s in steps:
        label, parts = _parse_night_step(s, bp, rules)
        chain += parts
        labels.append(label.strip())
        marks.append(len(chain))

    dists = markov.run(_start(start_hunger), chain, N_STATES, what="checks of this night", smaller="use fewer steps")
    rows = []
    for i, (label, t) in enumerate(zip(labels, marks)):
        d = _read(dists[t])
        rows.append([i, label] + [d.hunger[h] for h in range(MAX_HUNGER + 1)] + [d.frenzy_test, d.mean])
    df = pd.DataFrame(rows, columns=("step", "label") + HUNGER_COLUMNS + ("frenzy_test", "mean_hunger"))
    if not exact:
        for c in HUNGER_COLUMNS + ("frenzy_test", "mean_hunger"):
            df[c] = df[c].astype(float)
    return df


def hunger_matrix(df: pd.DataFrame) -> np.ndarray:
    """The hunger_0..hunger_5 columns of a table as a float array (for plots)."""
    return df[list(HUNGER_COLUMNS)].to_numpy(dtype=float)
