"""Exact finite Markov chains: integer ways over one common denominator.

:class:`ExactChain` holds one step's transitions and answers first-passage
questions; :func:`run` pushes a start distribution through a sequence of
chains (different steps may differ) with the numba kernel
``kernels.markov.markov_run_steps``, exact at any length by the modular path.
``ExactChain.distributions`` is its pure-Python twin (tests check they agree).
"""
from __future__ import annotations

from fractions import Fraction
from math import lcm, prod

import numpy as np

from kernels.markov import markov_run_steps

from .exact import exact_counts, fractions_over


class ExactChain:
    """A finite Markov chain whose transition probabilities are exact.

    Row ``i`` is stored as integer ways ``{j: w}`` over one common
    ``denominator``: ``P(i -> j) = w / denominator``.  The constructor checks
    that every row sums to exactly the denominator (the chain is stochastic)
    and that every way is a non-negative integer.  A distribution after
    ``k`` steps is a list of integers over ``denominator ** k``, so
    propagation is exact with Python integers and never overflows.

    Parameters
    ----------
    states : sequence of hashable
        The state labels, in order.
    rows : sequence of dict
        ``rows[i]`` maps a state index ``j`` to integer ways.
    denominator : int
        The common denominator, >= 1.
    """

    def __init__(self, states, rows, denominator: int):
        self.states = tuple(states)
        self.index = {s: i for i, s in enumerate(self.states)}
        if len(self.index) != len(self.states):
            raise ValueError("the states of a chain must be distinct")
        if len(rows) != len(self.states):
            raise ValueError(f"a chain of {len(self.states)} states needs as many rows, got {len(rows)}")
        if not isinstance(denominator, int) or denominator < 1:
            raise ValueError(f"the denominator must be a positive integer, got {denominator!r}")
        self.denominator = denominator
        self.rows = tuple({int(j): int(w) for j, w in row.items() if w} for row in rows)
        for i, row in enumerate(self.rows):
            if any(w < 0 for w in row.values()):
                raise ValueError(f"row {i} of the chain has a negative probability")
            if any(not 0 <= j < len(self.states) for j in row):
                raise ValueError(f"row {i} of the chain leads to an unknown state")
            if sum(row.values()) != denominator:
                raise ValueError(f"row {i} of the chain sums to {Fraction(sum(row.values()), denominator)}, not 1")

    @classmethod
    def from_fractions(cls, states, rows) -> "ExactChain":
        """A chain from rows of ``{j: Fraction}``, over the least common denominator."""
        den = 1
        for row in rows:
            for p in row.values():
                den = lcm(den, Fraction(p).denominator)
        int_rows = []
        for row in rows:
            r = {}
            for j, p in row.items():
                p = Fraction(p)
                r[j] = r.get(j, 0) + p.numerator * (den // p.denominator)
            int_rows.append(r)
        return cls(states, int_rows, den)

    def __len__(self) -> int:
        return len(self.states)

    def probability(self, i: int, j: int) -> Fraction:
        """``P(i -> j)`` as a Fraction (state indices)."""
        return Fraction(self.rows[i].get(j, 0), self.denominator)

    @property
    def absorbing(self) -> tuple:
        """Indices of the absorbing states (``P(i -> i) = 1``)."""
        return tuple(i for i, row in enumerate(self.rows) if row.get(i, 0) == self.denominator)

    def is_stochastic(self) -> bool:
        """Every row sums to exactly 1 (always true of a constructed chain)."""
        return all(sum(r.values()) == self.denominator and all(w >= 0 for w in r.values())
                   for r in self.rows)

    def is_absorbing(self) -> bool:
        """Every state can reach an absorbing state (an absorbing chain)."""
        absorbing = set(self.absorbing)
        if not absorbing:
            return False
        reverse = {i: set() for i in range(len(self))}
        for i, row in enumerate(self.rows):
            for j in row:
                reverse[j].add(i)
        seen, todo = set(absorbing), list(absorbing)
        while todo:
            j = todo.pop()
            for i in reverse[j] - seen:
                seen.add(i)
                todo.append(i)
        return len(seen) == len(self)

    def topological_order(self) -> list:
        """State indices so that every move other than staying put goes forward.

        Raises ValueError if the chain has a cycle longer than a self-loop
        (the exact first-passage formulas below need none).
        """
        order, mark = [], [0] * len(self)  # 0 new, 1 on the stack, 2 done
        for root in range(len(self)):
            if mark[root]:
                continue
            stack = [(root, iter(self.rows[root]))]
            mark[root] = 1
            while stack:
                i, it = stack[-1]
                for j in it:
                    if j == i:
                        continue
                    if mark[j] == 1:
                        raise ValueError("the chain has a cycle; exact first passage needs an acyclic chain")
                    if mark[j] == 0:
                        mark[j] = 1
                        stack.append((j, iter(self.rows[j])))
                        break
                else:
                    stack.pop()
                    mark[i] = 2
                    order.append(i)
        return order[::-1]

    def step(self, ways: list) -> list:
        """One step: integer ways over ``D**k`` in, over ``D**(k+1)`` out."""
        out = [0] * len(self)
        for i, w in enumerate(ways):
            if w:
                for j, p in self.rows[i].items():
                    out[j] += w * p
        return out

    def distributions(self, start: int, steps: int) -> list:
        """Integer ways of the state after 0..steps steps from state ``start``.

        Entry ``k`` is a list over states summing to ``denominator ** k``.
        """
        ways = [0] * len(self)
        ways[start] = 1
        out = [ways]
        for _ in range(steps):
            ways = self.step(ways)
            out.append(ways)
        return out

    def hitting_probability(self, targets) -> list:
        """Exact probability of ever reaching ``targets`` from each state.

        Solved by back-substitution along :meth:`topological_order`:
        ``h(i) = sum_{j != i} P(i, j) h(j) / (1 - P(i, i))``, and 0 for a
        state that stays put forever outside the targets.
        """
        targets = set(targets)
        h = [Fraction(0)] * len(self)
        for i in reversed(self.topological_order()):
            if i in targets:
                h[i] = Fraction(1)
                continue
            stay = self.rows[i].get(i, 0)
            if stay == self.denominator:
                continue
            acc = sum(w * h[j] for j, w in self.rows[i].items() if j != i)
            h[i] = Fraction(acc) / (self.denominator - stay)
        return h

    def expected_steps(self, targets) -> list:
        """Exact expected steps to reach ``targets`` from each state.

        ``None`` where the targets may never be reached (the expectation is
        infinite).  ``e(i) = (1 + sum_{j != i} P(i, j) e(j)) / (1 - P(i, i))``.
        """
        targets = set(targets)
        h = self.hitting_probability(targets)
        e = [None] * len(self)
        for i in reversed(self.topological_order()):
            if i in targets:
                e[i] = Fraction(0)
                continue
            if h[i] != 1:
                continue
            stay = self.rows[i].get(i, 0)
            acc = Fraction(self.denominator)
            for j, w in self.rows[i].items():
                if j != i:
                    acc += w * e[j]  # h[i] == 1 makes every reachable e[j] finite
            e[i] = acc / (self.denominator - stay)
        return e

    def first_passage(self, start: int, targets, steps: int):
        """Distribution of the first step at which ``targets`` is reached.

        Returns ``(pmf, tail, never)``: ``pmf[k]`` for ``k = 0..steps`` (a
        Fraction), ``tail = P(steps < T < inf)`` and ``never = P(T = inf)``,
        all exact; they sum to 1.
        """
        targets = set(targets)
        ways = [0] * len(self)
        ways[start] = 1
        den = 1
        pmf = []
        for k in range(steps + 1):
            if k:
                ways = self.step(ways)
                den *= self.denominator
            hit = sum(ways[t] for t in targets)
            pmf.append(Fraction(hit, den))
            for t in targets:  # absorbed: stop following them
                ways[t] = 0
        left = Fraction(sum(ways), den)
        h = self.hitting_probability(targets)
        reach_later = sum(Fraction(w, den) * h[i] for i, w in enumerate(ways) if w)
        return pmf, reach_later, left - reach_later


def run(start: dict, chains: list, n_states: int) -> list:
    """Exact distribution after each chain in turn.

    Parameters
    ----------
    start : dict
        ``{state index: probability}`` summing to 1.
    chains : list of ExactChain
        One per step, each over the same ``n_states`` states; each
        denominator must be below 2**31 (the kernel's modular products).
    n_states : int

    Returns
    -------
    list of object arrays of Fractions: the start, then after each step.
    """
    if sum(Fraction(p) for p in start.values()) != 1:
        raise ValueError("the start distribution must sum to 1")
    start_den = lcm(*(Fraction(p).denominator for p in start.values()))
    if any(len(c) != n_states for c in chains):
        raise ValueError(f"every step must have {n_states} states")
    if start_den >= 2**31 or any(c.denominator >= 2**31 for c in chains):
        raise ValueError("a step's probabilities are too finely divided for the exact kernel")
    start_ways = np.zeros(n_states, dtype=np.int64)
    for i, p in start.items():
        start_ways[i] = int(Fraction(p) * start_den)
    T = len(chains)
    n_edges = max([sum(len(r) for r in c.rows) for c in chains] + [1])
    ptr = np.zeros((T, n_states + 1), dtype=np.int64)
    to = np.zeros((T, n_edges), dtype=np.int64)
    w = np.zeros((T, n_edges), dtype=np.int64)
    for t, c in enumerate(chains):
        j = 0
        for i, row in enumerate(c.rows):
            ptr[t, i] = j
            for k, ways in row.items():
                to[t, j], w[t, j] = k, ways
                j += 1
        ptr[t, n_states] = j

    def compute(mod):
        out = np.empty((T + 1, n_states), dtype=np.int64)
        markov_run_steps(start_ways, ptr, to, w, mod, out)
        return out

    ways = exact_counts(compute, start_den * prod(c.denominator for c in chains))
    dens = [start_den]
    for c in chains:
        dens.append(dens[-1] * c.denominator)
    fr = fractions_over(ways.astype(object), np.array(dens, dtype=object)[:, None])
    return [fr[t] for t in range(T + 1)]
