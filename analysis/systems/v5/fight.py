"""V5 fights: a conflict fought turn after turn, as an exact Markov chain of both trackers."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast
from math import gcd

import numpy as np
import pandas as pd

from analysis.engine.markov import ExactChain
from analysis.engine.exact import fractions_over
from analysis.model.validate import check_bool, check_choice, check_int
from analysis.engine import display as _display

from analysis.systems.v5.conflict import (
    FIGHT_COLUMNS,
    MAX_TURNS,
    MAX_WORK,
    OFFICIAL,
    UNTIL,
    Combatant,
    ConflictRules,
    Tracker,
    check_sides,
    outcome_ways,
)


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
    :class:`analysis.engine.markov.ExactChain` (its sparse rows ``indptr``,
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
    def of_fight(
        cls,
        states,
        indptr,
        indices,
        weight_ids,
        weights,
        denominator: int,
        *,
        stopped: np.ndarray,
        potential: np.ndarray,
    ) -> "FightChain":
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
        return [
            self.states[r]
            for r in range(len(self.states))
            if reach[r] and not self.stopped[r] and stay[r] == self.denominator
        ]

    def is_absorbing(self) -> bool:
        """True when the fight stops with probability 1 (no reachable stuck state)."""
        return not self.stuck_states()

    def expected_turns(self) -> Fraction:
        """Exact expected number of turns until the fight stops.

        Damage never heals within a fight, so the moves between distinct
        states form an acyclic graph; the expectation follows by back
        substitution from the stopped states, in exact Fractions
        (:meth:`analysis.engine.markov.ExactChain.expected_steps`).
        """
        stuck = self.stuck_states()
        if stuck:
            raise ValueError(
                f"this fight can go on forever: from {stuck[0]} no roll deals any damage "
                f"(check attacks, pools and tie_damage)"
            )
        # finite: no state is stuck, so every roll reaches a stopped state
        return cast(Fraction, self.expected_steps(np.flatnonzero(self.stopped).tolist(), start=self.start))

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.engine.display`)."""
        return (
            [f"{len(self.states)} states", f"{int(self.stopped.sum())} where the fight stops"],
            [("expected turns", f"{float(self.expected_turns()):.4g}")],
        )


def _build_chain(a: Combatant, b: Combatant, rules: ConflictRules, track: str, until: str) -> FightChain:
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
                classes[(ka, kb)] = outcome_ways(a, b, rules, track, ka, kb)
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
        targets = apply_a[ia_all[sel][:, None], d_a[None, :]] * nb + apply_b[ib_all[sel][:, None], d_b[None, :]]
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
        tuple(((sa.superficial, sa.aggravated), (sb.superficial, sb.aggravated)) for sa in states_a for sb in states_b),
        indptr,
        np.concatenate(cols_l)[order],
        np.concatenate(ids_l)[order],
        weights,
        den,
        stopped=absorbing,
        potential=potential,
    )


def fight_chain(
    a: Combatant, b: Combatant, rules: ConflictRules = OFFICIAL, track: str = "health", until: str = "out"
) -> FightChain:
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
    a, b, rules, track = check_sides(a, b, rules, track)
    until = check_choice("until", until, UNTIL)
    return _cached_chain(a, b, rules, track, until)


@lru_cache(maxsize=64)
def _cached_chain(a, b, rules, track, until):
    return _build_chain(a, b, rules, track, until)


def _run_chain(chain: FightChain, groups: np.ndarray, turns: int, want_final: bool):
    """Exact probabilities of each group after every turn, and the ways of
    each state at the end (over the last bound), by the chain's kernel."""
    r = chain.run(
        chain.start,
        turns,
        groups=groups,
        final=want_final,
        max_work=MAX_WORK,
        what="turns of this fight",
        smaller="use smaller pools or smaller trackers",
    )
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
        return pd.DataFrame(
            {
                "a_superficial": [r[0] for r in rows],
                "a_aggravated": [r[1] for r in rows],
                "b_superficial": [r[2] for r in rows],
                "b_aggravated": [r[3] for r in rows],
                "probability": [r[4] if exact else float(r[4]) for r in rows],
            }
        )

    def expected_turns(self) -> Fraction:
        """Exact expected number of turns until the fight stops (not capped by ``turns``)."""
        return self.chain.expected_turns()

    def __str__(self) -> str:
        word = {"out": "a side is out", "impaired": "a side is Impaired"}[self.until]
        lines = [
            f"V5 fight on {self.track}, {self.turns} turns, stops when {word}",
            f"  A: pool {self.a.pool}, {'vampire' if self.a.vampire else 'mortal'}; "
            f"B: pool {self.b.pool}, {'vampire' if self.b.vampire else 'mortal'}",
        ]
        if self.rules != OFFICIAL:
            lines.append(f"  house rules: {self.rules.changes()}")
        for c in FIGHT_COLUMNS[1:]:
            p = self.columns[c][self.turns]
            lines.append(f"  {c:<24}{float(p):8.2%}")
        return "\n".join(lines)

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self):
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.engine.display`)."""
        head = [
            f"A pool {self.a.pool}",
            f"B pool {self.b.pool}",
            f"track {self.track}",
            f"until {self.until}",
            f"{self.turns} turns",
        ]
        if self.rules != OFFICIAL:
            head.append("house rules " + ", ".join(f"{k}={v!r}" for k, v in self.rules.changes().items()))
        return head, [(c, self.columns[c][self.turns]) for c in FIGHT_COLUMNS[1:]]


def fight(
    a: Combatant,
    b: Combatant,
    turns: int = 10,
    rules: ConflictRules = OFFICIAL,
    until: str = "out",
    track: str = "health",
    joint: bool = False,
) -> FightResult:
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
    a, b, rules, track = check_sides(a, b, rules, track)
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
        first, _, _ = _run_chain(stop, np.array((sa & ~sb, sb & ~sa, sa & sb), dtype=np.int64), turns, False)
    else:
        first = probs[:, 6:]
    columns = {
        "a_impaired": tuple(probs[:, 0]),
        "b_impaired": tuple(probs[:, 1]),
        "a_impaired_first": tuple(first[:, 0]),
        "b_impaired_first": tuple(first[:, 1]),
        "both_impaired_together": tuple(first[:, 2]),
        "a_out_first": tuple(probs[:, 2]),
        "b_out_first": tuple(probs[:, 3]),
        "both_out_together": tuple(probs[:, 4]),
        "over": tuple(probs[:, 5]),
    }
    joint_dist = None
    if joint:
        nonzero = [s for s, x in enumerate(final.tolist()) if x]
        probs_final = fractions_over(np.array([final[s] for s in nonzero], dtype=object), bound)
        joint_dist = {main.states[s]: p for s, p in zip(nonzero, probs_final)}
    return FightResult(a, b, rules, track, until, turns, columns, main, joint_dist)
