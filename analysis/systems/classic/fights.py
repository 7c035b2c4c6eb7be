"""Classic blows and fights: one attack on a fighter, repeated blows, and a two-sided fight, as exact chains."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

import numpy as np
import pandas as pd

from analysis.systems.classic import pools as _classic
from analysis.engine.markov import ExactChain
from analysis.model.validate import check_bool, check_choice, check_int
from analysis.engine import display as _display

from analysis.systems.classic.damage import (
    AIMS,
    CREATURES,
    KINDS,
    MAX_TRAIT,
    NO_HALVING,
    OFFICIAL,
    DamageRules,
    LevelOdds,
    level_ways,
    halving,
    resolve_kind,
    soak_dice,
)
from analysis.systems.classic.track import Health, take_damage

#: Where a chain of blows or a fight stops, mildest first.  For a mortal,
#: death counts as reaching "torpor" and "final_death" alike.
UNTIL = ("incapacitated", "torpor", "final_death")
#: The columns of :meth:`Blows.table`: the chance of being at or past each
#: condition of ``UNTIL`` (cumulative, so named "or worse").
TABLE_CONDITIONS = ("incapacitated_or_worse", "torpor_or_worse", "final_death")
MAX_STEPS = 1000


# ------------------------------------------------------- attacks and fighters


@dataclass(frozen=True)
class Attack:
    """One attack, repeated blow after blow.

    Attributes
    ----------
    damage_dice : int
        Strength + weapon: the damage dice of a hit with one net success.
    kind : str
        ``"bashing"``, ``"lethal"`` or ``"aggravated"``.
    auto : int
        Automatic damage successes (Potence).
    attack_pool : int or None
        Dice of the attack roll (e.g. Dexterity + Brawl).  None: every blow
        hits and adds no damage dice.  With a pool, a net of ``e >= 1``
        successes hits and adds ``e - 1`` damage dice; wound penalties
        reduce this pool.
    difficulty : int
        Difficulty of the attack roll, 2..10 (default 6; 8 for the head).
    specialty : bool
        A 10 on the attack roll counts as two successes.
    firearm : bool
        A gunshot (vampires take it as bashing unless aimed at the head).
    aim : str
        ``"body"``, ``"head"`` or ``"vital"``.
    """

    damage_dice: int
    kind: str = "bashing"
    auto: int = 0
    attack_pool: int | None = None
    difficulty: int = 6
    specialty: bool = False
    firearm: bool = False
    aim: str = "body"

    def __post_init__(self):
        check_int("damage_dice", self.damage_dice, 0, _classic.MAX_POOL)
        check_choice("kind", self.kind, KINDS)
        check_int("auto", self.auto, 0, MAX_TRAIT)
        if self.attack_pool is not None:
            check_int("attack_pool", self.attack_pool, 0, _classic.MAX_POOL)
        _classic.check_difficulty(self.difficulty)
        check_bool("specialty", self.specialty)
        check_bool("firearm", self.firearm)
        check_choice("aim", self.aim, AIMS)
        if self.attack_pool is not None and self.aim != "body" and self.difficulty < 8:
            raise ValueError(
                f"an attack aimed at the {self.aim if self.aim == 'head' else 'vital spot'} "
                f"is made at difficulty 8 or more, got {self.difficulty}"
            )


@dataclass(frozen=True)
class Fighter:
    """A character who takes blows (and may strike back).

    Attributes
    ----------
    creature : str
        ``"vampire"`` or ``"mortal"``.
    stamina, fortitude : int
        Soak traits (a mortal has no Fortitude).
    health : Health
        The track at the start (default unhurt).
    attack : Attack or None
        How this fighter strikes in a fight (None: does not strike).
    name : str
        A label for tables and plots.
    """

    creature: str = "vampire"
    stamina: int = 2
    fortitude: int = 0
    health: Health = field(default_factory=Health)
    attack: Attack | None = None
    name: str = ""

    def __post_init__(self):
        check_choice("creature", self.creature, CREATURES)
        check_int("stamina", self.stamina, 0, MAX_TRAIT)
        check_int("fortitude", self.fortitude, 0, MAX_TRAIT)
        if self.creature == "mortal" and self.fortitude:
            raise ValueError(f"a mortal has no Fortitude (got {self.fortitude}); ghouls are not modelled")
        if not isinstance(self.health, Health):
            raise ValueError(f"health must be a Health, got {type(self.health).__name__}")
        if self.creature == "mortal" and self.health.condition in ("torpor", "final_death"):
            raise ValueError(f"a mortal cannot be in {self.health.condition.replace('_', ' ')}")
        if self.creature == "vampire" and self.health.condition == "dead":
            raise ValueError("a vampire is never 'dead': use final_death")
        if self.attack is not None and not isinstance(self.attack, Attack):
            raise ValueError(f"attack must be an Attack or None, got {type(self.attack).__name__}")

    @property
    def label(self) -> str:
        return self.name or self.creature


def blow(attack: Attack, victim: Fighter, penalty: int = 0, rules: DamageRules = OFFICIAL) -> LevelOdds:
    """Exact levels lost by ``victim`` to one blow of ``attack``.

    ``penalty`` is the attacker's wound penalty (dice off the attack roll,
    and off the damage roll if ``rules.wound_penalty_on_damage``).
    """
    if not isinstance(attack, Attack):
        raise ValueError(f"attack must be an Attack, got {type(attack).__name__}")
    if not isinstance(victim, Fighter):
        raise ValueError(f"victim must be a Fighter, got {type(victim).__name__}")
    penalty = check_int("penalty", penalty, 0)
    rules = DamageRules.require(rules)
    taken = resolve_kind(attack.kind, victim.creature, firearm=attack.firearm, aim=attack.aim, rules=rules)
    n_soak = soak_dice(taken, victim.creature, victim.stamina, victim.fortitude)
    halve = halving(rules, victim.creature, taken)
    base = attack.damage_dice
    if rules.wound_penalty_on_damage:
        base = max(0, base - penalty)
    if attack.attack_pool is None:
        ways, den = level_ways(-1, 6, False, base, attack.auto, n_soak, halve, rules)
        roll = "every blow hits"
    else:
        pool = max(0, attack.attack_pool - penalty)
        ways, den = level_ways(pool, attack.difficulty, attack.specialty, base, attack.auto, n_soak, halve, rules)
        roll = f"attack {pool} dice at difficulty {attack.difficulty}"
    desc = (
        f"{roll}; {base} damage dice + {attack.auto} automatic vs {n_soak} soak dice: "
        f"{taken} to a {victim.creature}" + (" (halved)" if halve != NO_HALVING else "")
    )
    return LevelOdds(description=desc, kind=taken, denominator=den, level_ways=ways)


@lru_cache(maxsize=1024)
def _blow(attack, creature, stamina, fortitude, penalty, rules) -> LevelOdds:
    return blow(attack, Fighter(creature, stamina, fortitude), penalty, rules)


def _check_until(until: str) -> int:
    return UNTIL.index(check_choice("until", until, UNTIL)) + 1


def _check_fighter(name, f) -> Fighter:
    if not isinstance(f, Fighter):
        raise ValueError(f"{name} must be a Fighter, got {type(f).__name__}")
    return f


def _distribution(ways: list, states, den: int) -> dict:
    return {s: Fraction(w, den) for s, w in zip(states, ways) if w}


def _ways(chain: ExactChain, steps: int, what: str) -> tuple:
    """Integer ways of every state after 0..steps steps from state 0 (the
    start), over ``chain.denominator ** k``: counted by the chain's kernel."""
    ways = cast(np.ndarray, chain.run(0, steps, what=what, smaller="use smaller pools").ways)  # (no groups)
    return tuple(tuple(row) for row in ways.tolist())


# ------------------------------------------------------------ repeated blows


@dataclass(frozen=True)
class Blows:
    """Exact results of repeated blows on one victim (see :func:`blows`).

    ``chain`` is the exact Markov chain over the victim's health tracks;
    ``ways[k]`` the integer ways of each state after ``k`` blows over
    ``chain.denominator ** k``.
    """

    attack: Attack
    victim: Fighter
    rules: DamageRules
    per_blow: LevelOdds
    chain: ExactChain
    max_blows: int
    ways: tuple

    def state(self, k: int) -> dict:
        """``{Health: Fraction}`` after ``k`` blows."""
        k = check_int("blows", k, 0, self.max_blows)
        return _distribution(self.ways[k], self.chain.states, self.chain.denominator**k)

    def at_least(self, until: str, k: int) -> Fraction:
        """Probability of being at or past ``until`` after ``k`` blows."""
        sev = _check_until(until)
        return sum((p for h, p in self.state(k).items() if h.severity >= sev), Fraction(0))

    def penalty(self, k: int) -> dict:
        """The victim's wound penalty after ``k`` blows: ``{dice lost or None: Fraction}``
        (None: cannot act)."""
        out: dict = {}
        for h, p in self.state(k).items():
            key = h.penalty(self.rules)
            out[key] = out.get(key, 0) + p
        return out

    def victim_roll(
        self,
        k: int,
        pool: int,
        difficulty: int = 6,
        specialty: bool = False,
        rules: _classic.ClassicRules = _classic.OFFICIAL,
    ) -> dict:
        """The victim's own roll after ``k`` blows, wound penalties included.

        Returns ``{"cannot_act", "botch", "failure", "success": Fraction}``:
        the pool loses the penalty of the lowest marked box.
        """
        pool = check_int("pool", pool, 0, _classic.MAX_POOL)
        out = {"cannot_act": Fraction(0), "botch": Fraction(0), "failure": Fraction(0), "success": Fraction(0)}
        for pen, p in self.penalty(k).items():
            if pen is None:
                out["cannot_act"] += p
                continue
            o = _classic.odds(max(0, pool - pen), difficulty, specialty, rules)
            for name, q in o.classes().items():
                out[name] += p * q
        return out

    def first(self, until: str = "incapacitated"):
        """First blow at which the victim is at or past ``until``.

        Returns ``(pmf, tail, never)``: ``pmf[k]`` = P(first at blow ``k``)
        for ``k = 0..max_blows``, ``tail`` = P(later), ``never`` = P(never);
        exact, summing to 1.
        """
        sev = _check_until(until)
        start = self.chain.index[self.victim.health]
        targets = [i for i, h in enumerate(self.chain.states) if h.severity >= sev]
        return self.chain.first_passage(start, targets, self.max_blows)

    def expected(self, until: str = "incapacitated"):
        """Exact expected blows to reach ``until``, or None if it may never come."""
        sev = _check_until(until)
        targets = [i for i, h in enumerate(self.chain.states) if h.severity >= sev]
        return self.chain.expected_steps(targets)[self.chain.index[self.victim.health]]

    def eventually(self, until: str = "incapacitated") -> Fraction:
        """Exact probability that the blows ever bring the victim to ``until``."""
        sev = _check_until(until)
        targets = [i for i, h in enumerate(self.chain.states) if h.severity >= sev]
        return self.chain.hitting_probability(targets)[self.chain.index[self.victim.health]]

    def table(self, exact: bool = False) -> pd.DataFrame:
        """Columns ``blows, incapacitated_or_worse, torpor_or_worse, final_death``:
        the probability of being at or past each after 0..max_blows blows
        (cumulative: Incapacitated or worse includes torpor and death; a
        mortal's death counts for torpor and final_death)."""
        exact = check_bool("exact", exact)
        rows: dict[str, Any] = {"blows": np.arange(self.max_blows + 1)}
        for sev, name in enumerate(TABLE_CONDITIONS, start=1):
            vals = []
            for k, ways in enumerate(self.ways):
                p = Fraction(
                    sum(w for w, h in zip(ways, self.chain.states) if h.severity >= sev), self.chain.denominator**k
                )
                vals.append(p if exact else float(p))
            rows[name] = vals
        return pd.DataFrame(rows)

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.engine.display`)."""
        head = [self.per_blow.description] + ([f"on {self.victim.name}"] if self.victim.name else [])
        head.append(f"{self.max_blows} blows")
        rows = []
        for until in UNTIL:
            rows.append((f"{until} after {self.max_blows} blows", self.at_least(until, self.max_blows)))
        for until in UNTIL:
            rows.append((f"{until} eventually", self.eventually(until)))
        mean = self.expected("incapacitated")
        rows.append(("expected blows to incapacitated", "never certain" if mean is None else f"{float(mean):.4g}"))
        return head, rows


def blows(attack: Attack, victim: Fighter, max_blows: int = 20, rules: DamageRules = OFFICIAL) -> Blows:
    """Repeated blows of one attack on one victim, as an exact Markov chain.

    The attacker is unhurt (no wound penalty); each blow's levels follow
    :func:`blow`.  The states are the victim's health tracks; Final Death
    (or a mortal's death) is absorbing, and so is any state the attack can
    no longer change (torpor under bashing or lethal blows).

    Parameters
    ----------
    attack : Attack
    victim : Fighter
    max_blows : int
        Blows to follow (0..1000).
    rules : DamageRules

    Returns
    -------
    Blows
        Exact state distributions per blow, first-passage distributions,
        expected blows and probabilities of ever reaching each condition.
    """
    if not isinstance(attack, Attack):
        raise ValueError(f"attack must be an Attack, got {type(attack).__name__}")
    victim = _check_fighter("victim", victim)
    max_blows = check_int("max_blows", max_blows, 0, MAX_STEPS)
    rules = DamageRules.require(rules)
    per = blow(attack, victim, 0, rules)
    dist = per.levels

    def moves(h: Health) -> dict[Health, Fraction | int]:
        out: dict[Health, Fraction | int] = {}
        for n, p in dist.items():
            t = take_damage(h, n, per.kind, victim.creature)
            out[t] = out.get(t, 0) + p
        return out

    chain = ExactChain.explore(victim.health, moves)
    ways = _ways(chain, max_blows, "blows of this attack")
    return Blows(attack, victim, rules, per, chain, max_blows, ways)


# --------------------------------------------------------------- two-sided fight

FIRST = ("a", "b", "simultaneous")


@dataclass(frozen=True)
class Fight:
    """Exact results of a two-sided fight (see :func:`fight`).

    States are pairs ``(health of a, health of b)``; a state where either
    side is at or past ``until`` ends the fight (absorbing).
    """

    a: Fighter
    b: Fighter
    order: str
    until: str
    rules: DamageRules
    chain: ExactChain
    turns: int
    ways: tuple

    def state(self, k: int) -> dict:
        """``{(health a, health b): Fraction}`` after ``k`` turns."""
        k = check_int("turns", k, 0, self.turns)
        return _distribution(self.ways[k], self.chain.states, self.chain.denominator**k)

    def _sets(self):
        sev = _check_until(self.until)
        a_out = [i for i, (ha, hb) in enumerate(self.chain.states) if ha.severity >= sev and hb.severity < sev]
        b_out = [i for i, (ha, hb) in enumerate(self.chain.states) if hb.severity >= sev and ha.severity < sev]
        both = [i for i, (ha, hb) in enumerate(self.chain.states) if ha.severity >= sev and hb.severity >= sev]
        return a_out, b_out, both

    def outcomes(self) -> dict:
        """Exact probabilities of how the fight ends.

        ``a_wins`` (b reaches ``until``, a does not), ``b_wins``, ``both``
        (in the same turn, only when striking simultaneously) and ``never``
        (neither side can bring the other down).
        """
        a_out, b_out, both = self._sets()
        start = self.chain.index[(self.a.health, self.b.health)]
        p_b = self.chain.hitting_probability(b_out)[start]
        p_a = self.chain.hitting_probability(a_out)[start]
        p_both = self.chain.hitting_probability(both)[start]
        return {"a_wins": p_b, "b_wins": p_a, "both": p_both, "never": 1 - p_a - p_b - p_both}

    def expected_turns(self):
        """Exact expected turns until the fight ends, or None if it may never end."""
        a_out, b_out, both = self._sets()
        start = self.chain.index[(self.a.health, self.b.health)]
        return self.chain.expected_steps(a_out + b_out + both)[start]

    def end(self):
        """Turn at which the fight ends: ``(pmf, tail, never)`` as in :meth:`Blows.first`."""
        a_out, b_out, both = self._sets()
        start = self.chain.index[(self.a.health, self.b.health)]
        return self.chain.first_passage(start, a_out + b_out + both, self.turns)

    def table(self, exact: bool = False) -> pd.DataFrame:
        """Columns ``turn, a_wins, b_wins, both, going_on``: the probability that
        the fight has ended that way by each turn, or is still going on."""
        exact = check_bool("exact", exact)
        a_out, b_out, both = self._sets()
        cols: dict[str, Any] = {
            "turn": np.arange(self.turns + 1),
            "a_wins": [],
            "b_wins": [],
            "both": [],
            "going_on": [],
        }
        for k, ways in enumerate(self.ways):
            den = self.chain.denominator**k
            pa, pb, pboth = (Fraction(sum(ways[i] for i in s), den) for s in (b_out, a_out, both))
            for name, p in (("a_wins", pa), ("b_wins", pb), ("both", pboth), ("going_on", 1 - pa - pb - pboth)):
                cols[name].append(p if exact else float(p))
        return pd.DataFrame(cols)

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.engine.display`)."""
        head = [
            f"a {self.a.label}",
            f"b {self.b.label}",
            f"first {self.order}",
            f"until {self.until}",
            f"{self.turns} turns",
        ]
        rows = list(self.outcomes().items())
        mean = self.expected_turns()
        rows.append(("expected turns", "may never end" if mean is None else f"{float(mean):.4g}"))
        return head, rows


def fight(
    a: Fighter,
    b: Fighter,
    first: str = "a",
    until: str = "incapacitated",
    turns: int = 20,
    rules: DamageRules = OFFICIAL,
) -> Fight:
    """A two-sided fight as an exact Markov chain over both health tracks.

    Each turn both sides strike once with their :class:`Attack`, in the
    order ``first`` says (``"a"``, ``"b"`` or ``"simultaneous"``); each
    side's wound penalty comes off its own attack roll, a side that cannot
    act (Incapacitated or worse, or no dice left) does not strike, and a side
    brought to ``until`` before its turn does not strike back.

    Parameters
    ----------
    a, b : Fighter
        The two sides, each with an ``attack`` (None: never strikes).
    first : str
        Who strikes first each turn (default ``"a"``).
    until : str
        ``"incapacitated"`` (default), ``"torpor"`` or ``"final_death"``: the
        fight ends when either side is at or past it.
    turns : int
        Turns to follow (0..1000).
    rules : DamageRules

    Returns
    -------
    Fight
    """
    a = _check_fighter("a", a)
    b = _check_fighter("b", b)
    first = check_choice("first", first, FIRST)
    sev = _check_until(until)
    turns = check_int("turns", turns, 0, MAX_STEPS)
    rules = DamageRules.require(rules)

    def strike(attacker: Fighter, h_att: Health, victim: Fighter, h_vic: Health) -> dict:
        """``{victim's new health: Fraction}`` after the attacker's action."""
        pen = h_att.penalty(rules)
        if attacker.attack is None or pen is None or h_vic.severity >= sev:
            return {h_vic: Fraction(1)}
        if attacker.attack.attack_pool is not None and attacker.attack.attack_pool - pen <= 0:
            return {h_vic: Fraction(1)}  # wounds leave no dice: the action fails
        per = _blow(attacker.attack, victim.creature, victim.stamina, victim.fortitude, pen, rules)
        out: dict = {}
        for n, p in per.levels.items():
            t = take_damage(h_vic, n, per.kind, victim.creature)
            out[t] = out.get(t, 0) + p
        return out

    def moves(s: tuple[Health, Health]) -> dict[tuple[Health, Health], Fraction | int]:
        ha, hb = s
        if ha.severity >= sev or hb.severity >= sev:
            return {s: Fraction(1)}
        out: dict[tuple[Health, Health], Fraction | int] = {}
        if first == "simultaneous":
            for hb2, p in strike(a, ha, b, hb).items():
                for ha2, q in strike(b, hb, a, ha).items():
                    out[(ha2, hb2)] = out.get((ha2, hb2), 0) + p * q
            return out
        if first == "a":
            for hb2, p in strike(a, ha, b, hb).items():
                for ha2, q in strike(b, hb2, a, ha).items():
                    out[(ha2, hb2)] = out.get((ha2, hb2), 0) + p * q
        else:
            for ha2, p in strike(b, hb, a, ha).items():
                for hb2, q in strike(a, ha2, b, hb).items():
                    out[(ha2, hb2)] = out.get((ha2, hb2), 0) + p * q
        return out

    chain = ExactChain.explore((a.health, b.health), moves)
    ways = _ways(chain, turns, "turns of this fight")
    return Fight(a, b, first, until, rules, chain, turns, ways)
