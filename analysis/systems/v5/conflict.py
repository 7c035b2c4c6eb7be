"""V5 conflicts: opposed rolls, damage, Health and Willpower trackers, fights as exact Markov chains."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast
from math import gcd

import numpy as np
import pandas as pd

from kernels import conflict as _kc

from analysis.rules import Rules, rule
from analysis.systems.v5 import roll as v5
from analysis.markov import ExactChain
from analysis import exact as _exact
from analysis.exact import fractions_over
from analysis.validate import check_bool, check_choice, check_int
from analysis import display as _display

#: Kinds of damage, in the game's words.
DAMAGE_KINDS = ("superficial", "aggravated")
#: The tracker a conflict damages: Health (physical) or Willpower (social, mental).
TRACKS = ("health", "willpower")
#: When a fight stops: when a side is out (torpor or death) or first Impaired.
UNTIL = ("out", "impaired")
#: Largest pool in a conflict: the margin table is counted over 10**(both pools).
MAX_POOL = 100
#: Largest tracker; Health is Stamina + 3, Willpower Composure + Resolve.
MAX_BOXES = 20
#: Most turns a fight is followed for (V5 conflicts last about three).
MAX_TURNS = 100
#: A fight whose exact count needs more than this many multiply-adds (primes x
#: turns x transitions, plus rebuilding the counts from their residues; some
#: seconds) is refused with a suggestion rather than left to run; a fight of
#: pools 15 against 15 over 100 turns needs about a third of it.
MAX_WORK = 1_000_000_000

#: Columns of :meth:`FightResult.table`, in order.
FIGHT_COLUMNS = (
    "turn", "a_impaired", "b_impaired",
    "a_impaired_first", "b_impaired_first", "both_impaired_together",
    "a_out_first", "b_out_first", "both_out_together", "over",
)
#: Columns of :func:`conflict_table`, in order.
CONFLICT_COLUMNS = ("margin", "winner", "damage_to_a", "damage_to_b", "probability")


# ------------------------------------------------------------------ rules

@dataclass(frozen=True)
class ConflictRules(Rules):
    """How a V5 conflict deals damage.  Defaults are the rules (docs/rules.md).

    Attributes
    ----------
    tie_damage : int
        Damage each side takes on a tie (0..10); official 1.
    tie_adds_weapon : bool
        House rule: a tie also adds each attacker's weapon bonus.  Official False.
    tie_needs_successes : bool
        House rule: a tie at 0 successes each deals no damage.  Official False.
    halve_superficial : bool
        A vampire halves Superficial physical (Health) damage.  Official True;
        mortals never halve.
    halve_rounding : str
        ``"up"`` (official) or ``"down"``.
    impairment_penalty : int
        Dice lost by an Impaired side (0..10); official 2.  It applies to the
        pool of the conflict, which is physical for Health and social or mental
        for Willpower.
    dice : V5Rules
        The dice rules of the rolls (official by default).
    """

    tie_damage: int = rule(1, range=(0, 10), help="Damage each side takes on a tie (0..10); official 1.")
    tie_adds_weapon: bool = rule(False, help="House rule: a tie also adds each attacker's weapon bonus; "
                                             "official false.")
    tie_needs_successes: bool = rule(False, help="House rule: a tie at 0 successes each deals no damage; "
                                                 "official false.")
    halve_superficial: bool = rule(True, help="A vampire halves Superficial physical (Health) damage "
                                              "(official true); mortals never halve.")
    halve_rounding: str = rule("up", choices=("up", "down"),
                               help="How halved Superficial damage rounds: up (official) or down.")
    impairment_penalty: int = rule(2, range=(0, 10),
                                   help="Dice lost by an Impaired side in the conflict's pool (0..10); "
                                        "official 2.")
    dice: v5.V5Rules = rule(v5.OFFICIAL, help="The dice rules of the rolls (the official V5 rules by default).")


OFFICIAL = ConflictRules()


# --------------------------------------------------------------- trackers

@dataclass(frozen=True)
class Tracker:
    """A Health or Willpower tracker: boxes holding Superficial or Aggravated damage.

    Attributes
    ----------
    boxes : int
        Size of the track (1..20): Health = Stamina + 3, Willpower =
        Composure + Resolve.
    superficial, aggravated : int
        Boxes marked with each kind of damage.

    Examples
    --------
    >>> t = Tracker.health(stamina=2).take(6)
    >>> t.superficial, t.aggravated, t.impaired
    (4, 1, True)
    """

    boxes: int
    superficial: int = 0
    aggravated: int = 0

    def __post_init__(self):
        check_int("boxes", self.boxes, 1, MAX_BOXES)
        check_int("superficial damage", self.superficial, 0, self.boxes)
        check_int("aggravated damage", self.aggravated, 0, self.boxes)
        if self.superficial + self.aggravated > self.boxes:
            raise ValueError(
                f"{self.superficial} Superficial + {self.aggravated} Aggravated damage do not fit "
                f"in {self.boxes} boxes")

    @classmethod
    def health(cls, stamina: int, superficial: int = 0, aggravated: int = 0) -> "Tracker":
        """A Health tracker of Stamina + 3 boxes."""
        stamina = check_int("stamina", stamina, 1, MAX_BOXES - 3)
        return cls(stamina + 3, superficial, aggravated)

    @classmethod
    def willpower(cls, composure: int, resolve: int, superficial: int = 0,
                  aggravated: int = 0) -> "Tracker":
        """A Willpower tracker of Composure + Resolve boxes."""
        composure = check_int("composure", composure, 1, 10)
        resolve = check_int("resolve", resolve, 1, 10)
        return cls(composure + resolve, superficial, aggravated)

    @property
    def impaired(self) -> bool:
        """Every box holds damage: -2 dice (Health: physical pools)."""
        return self.superficial + self.aggravated == self.boxes

    @property
    def out(self) -> bool:
        """Every box is Aggravated: torpor for a vampire, death for a mortal (Health)."""
        return self.aggravated == self.boxes

    @property
    def unmarked(self) -> int:
        """Boxes holding no damage."""
        return self.boxes - self.superficial - self.aggravated

    def take(self, amount: int, kind: str = "superficial") -> "Tracker":
        """The tracker after ``amount`` points of damage of one kind, as marked.

        Halving (vampires, Superficial physical damage) is the conflict's job,
        not the tracker's: ``amount`` is what gets marked.  Each point fills an
        empty box; on a full track it turns one Superficial box Aggravated;
        once every box is Aggravated, further damage changes nothing.
        """
        amount = check_int("damage", amount, 0)
        check_choice("damage kind", kind, DAMAGE_KINDS)
        sup, agg = self.superficial, self.aggravated
        for _ in range(min(amount, 2 * self.boxes)):
            if sup + agg < self.boxes:
                if kind == "superficial":
                    sup += 1
                else:
                    agg += 1
            elif sup > 0:
                sup -= 1
                agg += 1
            else:
                break
        return Tracker(self.boxes, sup, agg)


# -------------------------------------------------------------- characters

@dataclass(frozen=True)
class Combatant:
    """One side of a conflict.

    Attributes
    ----------
    pool : int
        Dice the side rolls in this conflict (0..100), before Impairment.
    hunger : int
        Hunger 0..5 (vampires only; a mortal has none).  Under the official
        rules Hunger changes what a roll means, not its successes.
    stamina, composure, resolve : int
        Attributes for the default trackers: Health = Stamina + 3 (default
        Stamina 2), Willpower = Composure + Resolve (default 2 + 2).
    vampire : bool
        True: halves Superficial physical damage and falls into torpor;
        False (a mortal): no halving, and dies.
    weapon : int
        Weapon bonus added to the damage when this side wins (0..10).
    damage : str
        Kind of damage this side deals: ``"superficial"`` or ``"aggravated"``.
    attacks : bool
        False: the side only defends (dodges) and deals no damage, even on a tie.
    health, willpower : Tracker or None
        Override the default trackers (starting damage, extra boxes).
    name : str
        Used in error messages and printouts.
    """

    pool: int
    hunger: int = 0
    stamina: int = 2
    composure: int = 2
    resolve: int = 2
    vampire: bool = True
    weapon: int = 0
    damage: str = "superficial"
    attacks: bool = True
    health: Tracker | None = None
    willpower: Tracker | None = None
    name: str = ""

    def __post_init__(self):
        try:
            check_int("pool", self.pool, 0, MAX_POOL)
            check_int("hunger", self.hunger, 0, v5.MAX_HUNGER)
            check_int("weapon", self.weapon, 0, 10)
            check_bool("vampire", self.vampire)
            check_bool("attacks", self.attacks)
            check_choice("damage", self.damage, DAMAGE_KINDS)
            if not self.vampire and self.hunger:
                raise ValueError(f"a mortal has no Hunger: hunger must be 0, got {self.hunger}")
            if not isinstance(self.name, str):
                raise ValueError(f"name must be text, got {self.name!r}")
            for field, default in (("health", lambda: Tracker.health(self.stamina)),
                                   ("willpower", lambda: Tracker.willpower(self.composure,
                                                                           self.resolve))):
                value = getattr(self, field)
                if value is None:
                    object.__setattr__(self, field, default())
                elif not isinstance(value, Tracker):
                    raise ValueError(f"{field} must be a Tracker, got {type(value).__name__}")
        except ValueError as exc:
            if self.name:
                raise ValueError(f"{self.name}: {exc}") from None
            raise

    def tracker(self, track: str = "health") -> Tracker:
        """The Health or Willpower tracker."""
        return cast(Tracker, self.health if check_choice("track", track, TRACKS) == "health"
                    else self.willpower)  # both set by __post_init__

    @property
    def out_word(self) -> str:
        """What a full track of Aggravated Health means for this side."""
        return "torpor" if self.vampire else "death"


def _check_combatant(name: str, c) -> Combatant:
    if not isinstance(c, Combatant):
        raise ValueError(f"{name} must be a Combatant, got {type(c).__name__}")
    return c


# ------------------------------------------------------- one opposed roll

@lru_cache(maxsize=1024)
def _success_ways(pool: int, hunger: int, dice_rules: v5.V5Rules):
    """(ways per success count as Python ints, number of dice) of one V5 roll."""
    o = v5.odds(pool, hunger, 0, dice_rules)
    ways = list(o.success_ways)
    while len(ways) > 1 and ways[-1] == 0:
        ways.pop()
    return tuple(ways), o.normal_dice + o.hunger_dice


@lru_cache(maxsize=1024)
def _margin_ways(pool_a: int, hunger_a: int, pool_b: int, hunger_b: int, dice_rules: v5.V5Rules):
    """Signed margin ways ``{m: ways}`` (m = A's successes - B's), the ways of a
    0-0 tie, and the denominator ``10**(dice of both sides)``."""
    wa, da = _success_ways(pool_a, hunger_a, dice_rules)
    wb, db = _success_ways(pool_b, hunger_b, dice_rules)
    den = 10 ** (da + db)

    def compute(mod: int) -> np.ndarray:
        a = np.array([w % mod if mod else w for w in wa], dtype=np.int64)
        b = np.array([w % mod if mod else w for w in wb], dtype=np.int64)
        out = np.empty(len(wa) + len(wb) - 1, dtype=np.int64)
        _kc.opposed_margin_ways(a, b, mod, out)
        return out

    ways = _exact.count(compute, _kc.opposed_margin_ways_bound(wa, wb))
    offset = len(wb) - 1
    margins = {m - offset: int(w) for m, w in enumerate(ways.tolist()) if w}
    return margins, wa[0] * wb[0], den


def margin_distribution(pool_a: int, pool_b: int, hunger_a: int = 0, hunger_b: int = 0,
                        rules: ConflictRules = OFFICIAL) -> dict:
    """Exact distribution of the margin of an opposed V5 roll.

    Parameters
    ----------
    pool_a, pool_b : int
        Dice of each side (0..100).
    hunger_a, hunger_b : int
        Hunger of each side (0..5).
    rules : ConflictRules
        Only its ``dice`` rules matter here.

    Returns
    -------
    dict
        ``{margin: Fraction}`` with margin = A's successes - B's successes:
        positive, A wins by that margin; negative, B wins by ``-margin``;
        0, a tie.  Non-zero entries only; the values sum to exactly 1.

    Examples
    --------
    >>> margin_distribution(1, 1)
    {-1: Fraction(1, 4), 0: Fraction(1, 2), 1: Fraction(1, 4)}
    """
    pool_a = check_int("pool_a", pool_a, 0, MAX_POOL)
    pool_b = check_int("pool_b", pool_b, 0, MAX_POOL)
    hunger_a = check_int("hunger_a", hunger_a, 0, v5.MAX_HUNGER)
    hunger_b = check_int("hunger_b", hunger_b, 0, v5.MAX_HUNGER)
    rules = ConflictRules.require(rules)
    margins, _, den = _margin_ways(pool_a, hunger_a, pool_b, hunger_b, rules.dice)
    return {m: Fraction(w, den) for m, w in sorted(margins.items())}


def _marked(raw: int, kind: str, target: Combatant, track: str, rules: ConflictRules) -> int:
    """Damage as marked on ``target``'s track: vampires halve Superficial physical damage."""
    if raw and kind == "superficial" and track == "health" and target.vampire \
            and rules.halve_superficial:
        return (raw + 1) // 2 if rules.halve_rounding == "up" else raw // 2
    return raw


def _pool(c: Combatant, impaired: bool, rules: ConflictRules) -> int:
    return max(0, c.pool - rules.impairment_penalty) if impaired else c.pool


def _outcome_ways(a: Combatant, b: Combatant, rules: ConflictRules, track: str,
                  impaired_a: bool, impaired_b: bool):
    """One turn's rows ``(margin, damage to A, damage to B, ways)`` and the denominator.

    Damage is as marked on the track (after halving); ways are over
    ``10**(dice of both sides)`` with the Impairment penalty applied.
    """
    margins, zero_tie, den = _margin_ways(_pool(a, impaired_a, rules), a.hunger,
                                          _pool(b, impaired_b, rules), b.hunger, rules.dice)
    rows = []
    for m, w in sorted(margins.items()):
        if m > 0:
            rows.append((m, 0, _marked(m + a.weapon, a.damage, b, track, rules) if a.attacks else 0, w))
        elif m < 0:
            rows.append((m, _marked(-m + b.weapon, b.damage, a, track, rules) if b.attacks else 0, 0, w))
        else:
            tie_a = rules.tie_damage + (b.weapon if rules.tie_adds_weapon else 0)
            tie_b = rules.tie_damage + (a.weapon if rules.tie_adds_weapon else 0)
            to_a = _marked(tie_a, b.damage, a, track, rules) if b.attacks and rules.tie_damage else 0
            to_b = _marked(tie_b, a.damage, b, track, rules) if a.attacks and rules.tie_damage else 0
            if rules.tie_needs_successes and zero_tie:
                rows.append((0, 0, 0, zero_tie))
                w -= zero_tie
            if w:
                rows.append((0, to_a, to_b, w))
    return rows, den


def _check_sides(a, b, rules, track):
    a = _check_combatant("a", a)
    b = _check_combatant("b", b)
    rules = ConflictRules.require(rules)
    track = check_choice("track", track, TRACKS)
    return a, b, rules, track


def damage_distribution(a: Combatant, b: Combatant, rules: ConflictRules = OFFICIAL,
                        track: str = "health") -> dict:
    """Exact distribution of the damage one turn of conflict marks on each side.

    Both sides roll (an Impaired side, by its current tracker, loses the
    Impairment penalty); more successes wins and deals the margin plus its
    weapon, of its kind; a tie deals ``tie_damage`` to both.  A vampire
    halves Superficial Health damage (rounding up by default); a mortal
    does not.

    Parameters
    ----------
    a, b : Combatant
    rules : ConflictRules
    track : str
        ``"health"`` (physical conflict) or ``"willpower"`` (social, mental).

    Returns
    -------
    dict
        ``{(damage to A, damage to B): Fraction}``, as marked on the
        trackers; non-zero entries only, summing to exactly 1.
    """
    a, b, rules, track = _check_sides(a, b, rules, track)
    rows, den = _outcome_ways(a, b, rules, track, a.tracker(track).impaired,
                              b.tracker(track).impaired)
    out: dict = {}
    for _, to_a, to_b, w in rows:
        out[(to_a, to_b)] = out.get((to_a, to_b), 0) + w
    return {k: Fraction(w, den) for k, w in sorted(out.items())}


def conflict_table(a: Combatant, b: Combatant, rules: ConflictRules = OFFICIAL,
                   track: str = "health", exact: bool = False) -> pd.DataFrame:
    """One turn of conflict as a tidy table: one row per margin.

    Returns
    -------
    pandas.DataFrame
        Columns ``margin`` (A's successes - B's), ``winner`` (``a``, ``b`` or
        ``tie``), ``damage_to_a``, ``damage_to_b`` (as marked, after halving)
        and ``probability`` (float, or Fraction with ``exact=True``).
    """
    a, b, rules, track = _check_sides(a, b, rules, track)
    check_bool("exact", exact)
    rows, den = _outcome_ways(a, b, rules, track, a.tracker(track).impaired,
                              b.tracker(track).impaired)
    ways = np.array([r[3] for r in rows], dtype=object)
    probs = fractions_over(ways, den)
    return pd.DataFrame({
        "margin": [r[0] for r in rows],
        "winner": ["a" if r[0] > 0 else "b" if r[0] < 0 else "tie" for r in rows],
        "damage_to_a": [r[1] for r in rows],
        "damage_to_b": [r[2] for r in rows],
        "probability": list(probs) if exact else [float(p) for p in probs],
    })


# ------------------------------------------------------------ fight chain

def _side_states(start: Tracker, kind: str):
    """States (superficial, aggravated) reachable from ``start`` under damage of
    ``kind``, and ``apply[i, d]``: the state index after ``d`` points (d <= 2 * boxes)."""
    cap = 2 * start.boxes
    index = {(start.superficial, start.aggravated): 0}
    states = [start]
    todo = [start]
    while todo:
        t = todo.pop()
        for d in range(1, cap + 1):
            n = t.take(d, kind)
            key = (n.superficial, n.aggravated)
            if key not in index:
                index[key] = len(states)
                states.append(n)
                todo.append(n)
    apply = np.empty((len(states), cap + 1), dtype=np.int64)
    for i, t in enumerate(states):
        for d in range(cap + 1):
            n = t.take(d, kind)
            apply[i, d] = index[(n.superficial, n.aggravated)]
    return states, apply


class FightChain(ExactChain):
    """A fight as an exact Markov chain: joint tracker states, integer ways.

    A state is ``((A superficial, A aggravated), (B superficial, B aggravated))``
    on the track of the fight; the chain is an
    :class:`analysis.markov.ExactChain` (its sparse rows ``indptr``,
    ``indices``, ``weight_ids`` and ``weights``: row ``r`` moves to
    ``indices[k]`` for ``k`` in ``indptr[r]:indptr[r+1]`` with
    ``weights[weight_ids[k]] / denominator``), with what a fight adds:
    ``start``, the state the fight begins in (0); ``stopped``, a mask of the
    states where the fight has stopped (each moves to itself with weight
    ``denominator``: absorbing in the chain's sense, as a stuck state would
    be too); and ``potential`` (superficial + 2 x aggravated of both sides),
    which rises with every move to another state.
    """

    start: int
    stopped: np.ndarray
    potential: np.ndarray

    @classmethod
    def of_fight(cls, states, indptr, indices, weight_ids, weights, denominator: int, *,
                 stopped: np.ndarray, potential: np.ndarray) -> "FightChain":
        """The chain from its sparse rows (checked as :meth:`ExactChain.from_csr` does), starting at state 0."""
        chain = cls.from_csr(states, indptr, indices, weight_ids, weights, denominator)
        chain.start, chain.stopped, chain.potential = 0, stopped, potential
        return chain

    def reachable(self, start: int | None = None) -> np.ndarray:
        """Boolean mask of the states the fight can reach from its start (or from ``start``)."""
        return super().reachable(self.start if start is None else start)

    def stuck_states(self) -> list:
        """Reachable states the fight never leaves although it has not stopped.

        Damage only ever adds up, so every move to another state is progress;
        the fight ends with probability 1 exactly when this list is empty.
        """
        stay = self.stay_ways()
        reach = self.reachable()
        return [self.states[r] for r in range(len(self.states))
                if reach[r] and not self.stopped[r] and stay[r] == self.denominator]

    def is_absorbing(self) -> bool:
        """True when the fight stops with probability 1 (no reachable stuck state)."""
        return not self.stuck_states()

    def expected_turns(self) -> Fraction:
        """Exact expected number of turns until the fight stops.

        Damage never heals within a fight, so the moves between distinct
        states form an acyclic graph; the expectation follows by back
        substitution from the stopped states, in exact Fractions
        (:meth:`analysis.markov.ExactChain.expected_steps`).
        """
        stuck = self.stuck_states()
        if stuck:
            raise ValueError(
                f"this fight can go on forever: from {stuck[0]} no roll deals any damage "
                f"(check attacks, pools and tie_damage)")
        # finite: no state is stuck, so every roll reaches a stopped state
        return cast(Fraction, self.expected_steps(np.flatnonzero(self.stopped).tolist(), start=self.start))

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.display`)."""
        return ([f"{len(self.states)} states", f"{int(self.stopped.sum())} where the fight stops"],
                [("expected turns", f"{float(self.expected_turns()):.4g}")])


def _build_chain(a: Combatant, b: Combatant, rules: ConflictRules, track: str,
                 until: str) -> FightChain:
    ta, tb = a.tracker(track), b.tracker(track)
    # A takes damage of B's kind and B of A's
    states_a, apply_a = _side_states(ta, b.damage)
    states_b, apply_b = _side_states(tb, a.damage)
    na, nb = len(states_a), len(states_b)
    imp_a = np.array([t.impaired for t in states_a])
    imp_b = np.array([t.impaired for t in states_b])
    out_a = np.array([t.out for t in states_a])
    out_b = np.array([t.out for t in states_b])
    stop_a, stop_b = (out_a, out_b) if until == "out" else (imp_a, imp_b)
    absorbing = (stop_a[:, None] | stop_b[None, :]).ravel()
    n = na * nb

    # the outcomes of a turn for each Impairment class present among transient states
    classes = {}
    for ka in (False, True):
        for kb in (False, True):
            if ((imp_a == ka) & ~stop_a).any() and ((imp_b == kb) & ~stop_b).any():
                classes[(ka, kb)] = _outcome_ways(a, b, rules, track, ka, kb)
    den = max((d for _, d in classes.values()), default=1)
    cap_a, cap_b = apply_a.shape[1] - 1, apply_b.shape[1] - 1
    scaled = {}
    for key, (rows, d) in classes.items():
        merged: dict = {}
        for _, to_a, to_b, w in rows:
            k = (min(to_a, cap_a), min(to_b, cap_b))
            merged[k] = merged.get(k, 0) + w * (den // d)
        scaled[key] = merged
    g = den
    for merged in scaled.values():
        for w in merged.values():
            g = gcd(g, w)
    den //= g

    table: dict[int, int] = {den: 0}  # distinct weights -> id; the stopped states' self-loop first
    rows_l, cols_l, ids_l = [], [], []
    ia_all = np.repeat(np.arange(na), nb)
    ib_all = np.tile(np.arange(nb), na)
    stopped = np.flatnonzero(absorbing)
    rows_l.append(stopped)
    cols_l.append(stopped)
    ids_l.append(np.zeros(len(stopped), dtype=np.int64))
    for (ka, kb), merged in scaled.items():
        sel = np.flatnonzero((imp_a[ia_all] == ka) & (imp_b[ib_all] == kb) & ~absorbing)
        if not len(sel):
            continue
        keys = sorted(merged)
        d_a = np.array([k[0] for k in keys], dtype=np.int64)
        d_b = np.array([k[1] for k in keys], dtype=np.int64)
        wid = np.array([table.setdefault(merged[k] // g, len(table)) for k in keys], dtype=np.int64)
        targets = apply_a[ia_all[sel][:, None], d_a[None, :]] * nb \
            + apply_b[ib_all[sel][:, None], d_b[None, :]]
        rows_l.append(np.repeat(sel, len(keys)))
        cols_l.append(targets.ravel())
        ids_l.append(np.tile(wid, len(sel)))
    rows = np.concatenate(rows_l)
    order = np.argsort(rows, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
    pot_a = np.array([t.superficial + 2 * t.aggravated for t in states_a])
    pot_b = np.array([t.superficial + 2 * t.aggravated for t in states_b])
    weights = tuple(sorted(table, key=table.__getitem__))
    potential = (pot_a[:, None] + pot_b[None, :]).ravel()
    for arr in (absorbing, potential):
        arr.setflags(write=False)
    return FightChain.of_fight(
        tuple(((sa.superficial, sa.aggravated), (sb.superficial, sb.aggravated))
              for sa in states_a for sb in states_b),
        indptr, np.concatenate(cols_l)[order], np.concatenate(ids_l)[order], weights, den,
        stopped=absorbing, potential=potential)


def fight_chain(a: Combatant, b: Combatant, rules: ConflictRules = OFFICIAL,
                track: str = "health", until: str = "out") -> FightChain:
    """The exact transition structure of a fight (see :class:`FightChain`).

    Parameters
    ----------
    a, b : Combatant
        The two sides, with their trackers as the fight starts.
    rules : ConflictRules
    track : str
        ``"health"`` or ``"willpower"``: the tracker the conflict damages.
    until : str
        ``"out"``: the fight stops when a side's track is all Aggravated
        (torpor or death); ``"impaired"``: when a side is first Impaired.
    """
    a, b, rules, track = _check_sides(a, b, rules, track)
    until = check_choice("until", until, UNTIL)
    return _cached_chain(a, b, rules, track, until)


@lru_cache(maxsize=64)
def _cached_chain(a, b, rules, track, until):
    return _build_chain(a, b, rules, track, until)


def _run_chain(chain: FightChain, groups: np.ndarray, turns: int, want_final: bool):
    """Exact probabilities of each group after every turn, and the ways of
    each state at the end (over the last bound), by the chain's kernel."""
    r = chain.run(chain.start, turns, groups=groups, final=want_final, max_work=MAX_WORK,
                        what="turns of this fight", smaller="use smaller pools or smaller trackers")
    return r.probabilities("group_ways"), r.final, r.denominators[-1]


@dataclass(frozen=True, eq=False)
class FightResult:
    """Exact per-turn odds of a fight (:func:`fight`).

    ``columns[name][t]`` is a Fraction for turn ``t`` (0 = before the first
    roll), for each name in ``FIGHT_COLUMNS[1:]``; every column is the
    probability that the event has happened by that turn:

    - ``a_impaired``, ``b_impaired``: the side is Impaired;
    - ``a_impaired_first``, ``b_impaired_first``: the side became Impaired
      on a turn when the other was not (yet); ``both_impaired_together``:
      both on the same turn;
    - ``a_out_first``, ``b_out_first``, ``both_out_together``: the same for
      being out (every box Aggravated: torpor for a vampire, death for a
      mortal), i.e. ``b_out_first`` is A's victory;
    - ``over``: the fight has stopped (by ``until``).
    """

    a: Combatant
    b: Combatant
    rules: ConflictRules
    track: str
    until: str
    turns: int
    columns: dict
    chain: FightChain
    joint: dict | None

    def probability(self, column: str, turn: int | None = None) -> Fraction:
        """Exact probability of one column at one turn (default: the last)."""
        if column not in self.columns:
            raise ValueError(f"unknown column {column!r}; choose from {', '.join(FIGHT_COLUMNS[1:])}")
        turn = self.turns if turn is None else check_int("turn", turn, 0, self.turns)
        return self.columns[column][turn]

    def table(self, exact: bool = False) -> pd.DataFrame:
        """One row per turn 0..turns, columns ``FIGHT_COLUMNS`` (floats or Fractions)."""
        check_bool("exact", exact)
        data: dict[str, list[Any]] = {"turn": list(range(self.turns + 1))}
        for c in FIGHT_COLUMNS[1:]:
            data[c] = list(self.columns[c]) if exact else [float(p) for p in self.columns[c]]
        return pd.DataFrame(data)

    def joint_table(self, exact: bool = False) -> pd.DataFrame:
        """The joint state of both trackers after the last turn, one row per state."""
        check_bool("exact", exact)
        if self.joint is None:
            raise ValueError("the joint distribution was not asked for: call fight(..., joint=True)")
        rows = [(sa, ga, sb, gb, p) for ((sa, ga), (sb, gb)), p in self.joint.items()]
        return pd.DataFrame({
            "a_superficial": [r[0] for r in rows], "a_aggravated": [r[1] for r in rows],
            "b_superficial": [r[2] for r in rows], "b_aggravated": [r[3] for r in rows],
            "probability": [r[4] if exact else float(r[4]) for r in rows],
        })

    def expected_turns(self) -> Fraction:
        """Exact expected number of turns until the fight stops (not capped by ``turns``)."""
        return self.chain.expected_turns()

    def __str__(self) -> str:
        word = {"out": "a side is out", "impaired": "a side is Impaired"}[self.until]
        lines = [f"V5 fight on {self.track}, {self.turns} turns, stops when {word}",
                 f"  A: pool {self.a.pool}, {'vampire' if self.a.vampire else 'mortal'}; "
                 f"B: pool {self.b.pool}, {'vampire' if self.b.vampire else 'mortal'}"]
        if self.rules != OFFICIAL:
            lines.append(f"  house rules: {self.rules.changes()}")
        for c in FIGHT_COLUMNS[1:]:
            p = self.columns[c][self.turns]
            lines.append(f"  {c:<24}{float(p):8.2%}")
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.display`)."""
        head = [f"A pool {self.a.pool}", f"B pool {self.b.pool}", f"track {self.track}",
                f"until {self.until}", f"{self.turns} turns"]
        if self.rules != OFFICIAL:
            head.append("house rules " + ", ".join(f"{k}={v!r}" for k, v in self.rules.changes().items()))
        return head, [(c, self.columns[c][self.turns]) for c in FIGHT_COLUMNS[1:]]


def fight(a: Combatant, b: Combatant, turns: int = 10, rules: ConflictRules = OFFICIAL,
          until: str = "out", track: str = "health", joint: bool = False) -> FightResult:
    """Exact odds of a fight over turns, as a Markov chain on both trackers.

    Each turn both sides roll their pools (an Impaired side loses
    ``rules.impairment_penalty`` dice from the next turn on); the winner
    deals margin + weapon, a tie deals ``tie_damage`` to both, vampires halve
    Superficial Health damage.  Nothing is sampled: every way the dice can
    land on every turn is counted, in integers over one denominator per
    turn, and the odds are exact Fractions.

    Parameters
    ----------
    a, b : Combatant
        The two sides as the fight starts (their trackers may hold damage).
    turns : int
        Turns to follow (1..100); the default 10 covers most fights (V5
        conflicts are meant to last about three).
    rules : ConflictRules
    until : str
        ``"out"`` (default): the fight stops when a side is in torpor or dead
        (every box Aggravated); ``"impaired"``: when a side is first Impaired.
    track : str
        ``"health"`` (default, physical) or ``"willpower"`` (social, mental:
        no halving; every box Aggravated is then the end of the contest).
    joint : bool
        Also give the joint distribution of both trackers after ``turns``.

    Returns
    -------
    FightResult
        ``.table()`` per turn (see ``FIGHT_COLUMNS``), ``.probability(column,
        turn)``, ``.expected_turns()``, ``.joint_table()``.

    Examples
    --------
    >>> r = fight(Combatant(6, hunger=2), Combatant(5, vampire=False, weapon=2), turns=5)
    >>> r.probability("b_out_first") > r.probability("a_out_first")
    True
    """
    a, b, rules, track = _check_sides(a, b, rules, track)
    until = check_choice("until", until, UNTIL)
    turns = check_int("turns", turns, 1, MAX_TURNS)
    check_bool("joint", joint)
    main = _cached_chain(a, b, rules, track, until)
    boxes_a, boxes_b = a.tracker(track).boxes, b.tracker(track).boxes

    def flags(chain):
        """Impaired and out masks of each side over the chain's states."""
        ia = np.array([s[0][0] + s[0][1] == boxes_a for s in chain.states])
        ib = np.array([s[1][0] + s[1][1] == boxes_b for s in chain.states])
        oa = np.array([s[0][1] == boxes_a for s in chain.states])
        ob = np.array([s[1][1] == boxes_b for s in chain.states])
        return ia, ib, oa, ob

    ia, ib, oa, ob = flags(main)
    groups = [ia, ib, oa & ~ob, ob & ~oa, oa & ob, main.stopped]
    if until == "impaired":
        # the fight stops at the first Impairment: who was first is where it stopped
        groups += [ia & ~ib, ib & ~ia, ia & ib]
    probs, final, bound = _run_chain(main, np.array(groups, dtype=np.int64), turns, joint)
    if until == "out":
        # who was Impaired first: the same fight, stopped at the first Impairment
        stop = _cached_chain(a, b, rules, track, "impaired")
        sa, sb, _, _ = flags(stop)
        first, _, _ = _run_chain(stop, np.array((sa & ~sb, sb & ~sa, sa & sb), dtype=np.int64),
                                 turns, False)
    else:
        first = probs[:, 6:]
    columns = {
        "a_impaired": tuple(probs[:, 0]), "b_impaired": tuple(probs[:, 1]),
        "a_impaired_first": tuple(first[:, 0]), "b_impaired_first": tuple(first[:, 1]),
        "both_impaired_together": tuple(first[:, 2]),
        "a_out_first": tuple(probs[:, 2]), "b_out_first": tuple(probs[:, 3]),
        "both_out_together": tuple(probs[:, 4]), "over": tuple(probs[:, 5]),
    }
    joint_dist = None
    if joint:
        nonzero = [s for s, x in enumerate(final.tolist()) if x]
        probs_final = fractions_over(np.array([final[s] for s in nonzero], dtype=object), bound)
        joint_dist = {main.states[s]: p for s, p in zip(nonzero, probs_final)}
    return FightResult(a, b, rules, track, until, turns, columns, main, joint_dist)
