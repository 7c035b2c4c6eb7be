"""Pure-Python stepping of exact Markov chains: the reference for the kernel engine.

Nothing here imports ``kernels`` or ``analysis``.  A chain is given as its
rows (``rows[i]`` maps a state index ``j`` to integer ways over one common
denominator ``den``) and every step is taken with Python integers, which
never overflow, so that agreement with ``analysis.engine.markov`` (numba kernel,
int64 or primes and the Chinese remainder theorem) means something.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm


def step(rows, ways: list) -> list:
    """One step: integer ways over ``den**k`` in, over ``den**(k+1)`` out."""
    out = [0] * len(rows)
    for i, w in enumerate(ways):
        if w:
            for j, p in rows[i].items():
                out[j] += w * p
    return out


def distributions(rows, start: int, steps: int) -> list:
    """Integer ways of the state after 0..steps steps from state ``start``.

    Entry ``k`` is a list over states summing to ``den ** k``.
    """
    ways = [0] * len(rows)
    ways[start] = 1
    out = [ways]
    for _ in range(steps):
        ways = step(rows, ways)
        out.append(ways)
    return out


def run_steps(start: dict, steps: list) -> list:
    """Exact distribution (Fractions) after each of several chains in turn.

    ``start`` is ``{state: Fraction}``; ``steps`` a list of ``(rows, den)``.
    """
    n = len(steps[0][0]) if steps else 1 + max(start)
    den = lcm(*(Fraction(p).denominator for p in start.values()))
    ways = [0] * n
    for i, p in start.items():
        ways[i] = int(Fraction(p) * den)
    out = [[Fraction(w, den) for w in ways]]
    for rows, d in steps:
        ways, den = step(rows, ways), den * d
        out.append([Fraction(w, den) for w in ways])
    return out


def first_passage(rows, den: int, start: int, targets, steps: int, hit):
    """First step at which ``targets`` is reached, stepping the chain itself.

    Returns ``(pmf, tail, never)`` as ``ExactChain.first_passage`` does;
    ``hit[i]`` is the exact probability of ever reaching the targets from
    state ``i`` (to split what is left after ``steps`` into later and never).
    """
    targets = set(targets)
    ways = [0] * len(rows)
    ways[start] = 1
    d = 1
    pmf = []
    for k in range(steps + 1):
        if k:
            ways = step(rows, ways)
            d *= den
        pmf.append(Fraction(sum(ways[t] for t in targets), d))
        for t in targets:  # absorbed: stop following them
            ways[t] = 0
    left = Fraction(sum(ways), d)
    later = sum((Fraction(w, d) * hit[i] for i, w in enumerate(ways) if w), Fraction(0))
    return pmf, later, left - later
