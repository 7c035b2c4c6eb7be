"""Exact Markov chains in the rules layer: build integer steps, run them, read Fractions."""
from __future__ import annotations

from fractions import Fraction
from math import lcm, prod

import numpy as np

from kernels.markov import markov_run

from .exact import exact_counts, fractions_over


class Step:
    """One step of a chain: ``{state: {next_state: probability}}`` made exact.

    Probabilities may be Fractions or ints; every row must sum to exactly 1
    (checked).  The step is stored as integer ways over one denominator.
    """

    def __init__(self, n_states: int, rows: dict, label: str = ""):
        self.n_states = n_states
        self.label = label
        den = 1
        for i in range(n_states):
            row = rows.get(i, {i: 1})
            total = sum(Fraction(p) for p in row.values())
            if total != 1:
                raise ValueError(f"step {label!r}: the row of state {i} sums to {total}, not 1")
            if any(Fraction(p) < 0 for p in row.values()):
                raise ValueError(f"step {label!r}: a negative probability in the row of state {i}")
            den = lcm(den, *(Fraction(p).denominator for p in row.values()))
        self.denominator = den
        self.rows = [{j: int(Fraction(p) * den) for j, p in rows.get(i, {i: 1}).items() if p}
                     for i in range(n_states)]

    def is_stochastic(self) -> bool:
        """Every row's ways sum to exactly the step's denominator."""
        return all(sum(r.values()) == self.denominator for r in self.rows)


def run(start: dict, steps: list, n_states: int) -> list:
    """Exact distribution after each step.

    Parameters
    ----------
    start : dict
        ``{state: probability}`` summing to 1.
    steps : list of Step
    n_states : int

    Returns
    -------
    list of numpy object arrays of Fractions, one per step plus the start.
    """
    start_den = lcm(*(Fraction(p).denominator for p in start.values()))
    start_ways = np.zeros(n_states, dtype=np.int64)
    for i, p in start.items():
        start_ways[i] = int(Fraction(p) * start_den)
    n_edges = max((sum(len(r) for r in s.rows) for s in steps), default=1)
    T = len(steps)
    ptr = np.zeros((T, n_states + 1), dtype=np.int64)
    to = np.zeros((T, max(n_edges, 1)), dtype=np.int64)
    w = np.zeros((T, max(n_edges, 1)), dtype=np.int64)
    for t, s in enumerate(steps):
        j = 0
        for i, row in enumerate(s.rows):
            ptr[t, i] = j
            for k, ways in row.items():
                to[t, j], w[t, j] = k, ways
                j += 1
        ptr[t, n_states] = j
    dens = [start_den]
    for s in steps:
        dens.append(dens[-1] * s.denominator)
    if any(s.denominator >= 2**31 for s in steps) or start_den >= 2**31:
        raise ValueError("a step's probabilities are too finely divided for the exact kernel")

    def compute(mod):
        out = np.empty((T + 1, n_states), dtype=np.int64)
        markov_run(start_ways, ptr, to, w, mod, out)
        return out

    ways = exact_counts(compute, prod(s.denominator for s in steps) * start_den)
    den_arr = np.array(dens, dtype=object)[:, None]
    if ways.dtype != object:
        ways = ways.astype(object)
    fr = fractions_over(ways, den_arr)
    return [fr[t] for t in range(T + 1)]
