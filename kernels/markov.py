"""Markov chains over integer ways: a sparse transition structure with integer weights.

A chain's transition matrix is given row by row in compressed sparse row
(CSR) form.  Row ``r`` holds the entries ``k`` in ``indptr[r]:indptr[r+1]``:
the chain moves from state ``r`` to state ``indices[k]`` with weight
``weights[weight_ids[k]]``.  Weights are integer *ways* over one common
denominator ``D`` per step (every row sums to ``D``), so the ways after ``t``
steps are integers over ``D**t`` and stay exact.  A row may list the same
target more than once: the entries add up.  Weights are looked up through
``weight_ids`` because a chain built from a few dice outcomes reuses a few
distinct weights many times, and the caller reduces only those modulo each
prime.

As everywhere in ``kernels``, ``mod == 0`` is plain int64 (the caller proved
every count fits: with start mass 1 the ways after ``t`` steps are at most
``D**t``, and every product formed is at most the next step's total; see
:func:`markov_run_bound` and :func:`markov_run_steps_bound`), and
``mod > 0`` is a prime below 2**31 for the modular exact path.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import numpy.typing as npt

from kernels._jit import IntArray, kernel
from kernels.multiset import addmod, mulmod


@kernel
def markov_step(
    indptr: IntArray, indices: IntArray, weight_ids: IntArray, weights: IntArray, mod: int, v: IntArray, out: IntArray
) -> None:
    """One step of the chain: ``out = v @ T`` in integer ways.

    Parameters
    ----------
    indptr : int64[S + 1]
        CSR row pointers of the transition matrix ``T`` over ``S`` states.
    indices : int64[K]
        Target state of each entry.
    weight_ids : int64[K]
        Index into ``weights`` of each entry's weight.
    weights : int64[W]
        Distinct weights (ways), already reduced modulo ``mod`` if > 0.
    mod : int64
        0 for plain int64 (caller checked the totals fit), else a prime below 2**31.
    v : int64[S]
        Ways of being in each state now.
    out : int64[S]
        Overwritten with the ways one step later.
    """
    n = indptr.shape[0] - 1
    for j in range(out.shape[0]):
        out[j] = 0
    for r in range(n):
        x = v[r]
        if x == 0:
            continue
        for k in range(indptr[r], indptr[r + 1]):
            c = indices[k]
            out[c] = addmod(out[c], mulmod(x, weights[weight_ids[k]], mod), mod)


@kernel
def markov_group_ways(v: IntArray, groups: IntArray, mod: int, out: IntArray) -> None:
    """Ways of being in each group of states: ``out[g] = sum_s groups[g, s] * v[s]``.

    Parameters
    ----------
    v : int64[S]
        Ways of being in each state.
    groups : int64[G, S]
        Membership (0 or 1) of each state in each group; groups may overlap.
    mod : int64
        As for :func:`markov_step`.
    out : int64[G]
        Overwritten with the ways of each group.
    """
    for g in range(groups.shape[0]):
        acc = 0
        for s in range(groups.shape[1]):
            if groups[g, s] != 0:
                acc = addmod(acc, v[s], mod)
        out[g] = acc


@kernel
def markov_run(
    start: IntArray,
    indptr: IntArray,
    indices: IntArray,
    weight_ids: IntArray,
    weights: IntArray,
    groups: IntArray,
    mod: int,
    out_groups: IntArray,
    out_final: IntArray,
) -> None:
    """Run the chain for ``T`` steps, recording the ways of each group after every step.

    Parameters
    ----------
    start : int64[S]
        Ways of each starting state (for a single start: 1 at that state).
    indptr, indices, weight_ids, weights : int64 arrays
        The transition structure, as for :func:`markov_step`.
    groups : int64[G, S]
        Membership (0 or 1) of each state in each group.
    mod : int64
        As for :func:`markov_step`.
    out_groups : int64[T + 1, G]
        Overwritten: ``out_groups[t, g]`` is the ways of group ``g`` after
        ``t`` steps (row 0: the start), over ``D**t``.
    out_final : int64[S]
        Overwritten with the ways of each state after ``T`` steps.
    """
    n = start.shape[0]
    cur = start.copy()
    if mod > 0:
        for s in range(n):
            cur[s] = cur[s] % mod
    nxt = cur.copy()
    markov_group_ways(cur, groups, mod, out_groups[0])
    for t in range(1, out_groups.shape[0]):
        markov_step(indptr, indices, weight_ids, weights, mod, cur, nxt)
        cur, nxt = nxt, cur
        markov_group_ways(cur, groups, mod, out_groups[t])
    for s in range(n):
        out_final[s] = cur[s]


@kernel
def markov_run_steps(start: IntArray, ptr: IntArray, to: IntArray, w: IntArray, mod: int, out: IntArray) -> None:
    """Run a sequence of different steps, keeping the distribution after each.

    Step ``t`` has its own CSR matrix (rows summing to its own denominator
    ``D_t``); the ways after ``t`` steps are over ``D_1 * ... * D_t``.

    Parameters
    ----------
    start : int64[S]
        Ways of each state before the first step.
    ptr : int64[T, S + 1]
        Row pointers of each step.
    to : int64[T, E]
        Target state of each entry (padded; only ``ptr`` ranges are read).
    w : int64[T, E]
        Ways of each entry.
    mod : int64
        As for :func:`markov_step`.
    out : int64[T + 1, S]
        Overwritten: ``out[0] = start``, ``out[t]`` the ways after ``t`` steps.
    """
    ids = np.arange(to.shape[1])
    for s in range(start.shape[0]):
        out[0, s] = start[s] % mod if mod > 0 else start[s]
    for t in range(ptr.shape[0]):
        weights = w[t].copy()
        if mod > 0:
            for k in range(weights.shape[0]):
                weights[k] %= mod
        markov_step(ptr[t], to[t], ids, weights, mod, out[t], out[t + 1])


@kernel
def markov_run_all(
    start: IntArray,
    indptr: IntArray,
    indices: IntArray,
    weight_ids: IntArray,
    weights: IntArray,
    mod: int,
    out: IntArray,
) -> None:
    """Run one chain for ``T`` steps, keeping the ways of every state after each.

    Parameters
    ----------
    start : int64[S]
        Ways of each starting state.
    indptr, indices, weight_ids, weights : int64 arrays
        The transition structure, as for :func:`markov_step` (``weights``
        already reduced modulo ``mod`` if > 0).
    mod : int64
        As for :func:`markov_step`.
    out : int64[T + 1, S]
        Overwritten: ``out[0] = start``, ``out[t]`` the ways after ``t`` steps,
        over ``D**t`` times the start's denominator.
    """
    for s in range(start.shape[0]):
        out[0, s] = start[s] % mod if mod > 0 else start[s]
    for t in range(1, out.shape[0]):
        markov_step(indptr, indices, weight_ids, weights, mod, out[t - 1], out[t])


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted): upper bounds on every number the kernels above
# hold, for ``analysis.engine.exact.count``.  They are worked out from the chain
# itself (the largest row sum), not from the denominator it promises.


def _exact_ints(name: str, values: npt.ArrayLike) -> list[int]:
    out = [int(v) for v in np.asarray(values, dtype=object).ravel().tolist()]
    if min(out, default=0) < 0:
        raise ValueError(f"{name} must be ways (0 or more), got a negative one")
    return out


def _row_sums(indptr: npt.ArrayLike, weight_of_entry: Sequence[int]) -> list[int]:
    ptr = [int(p) for p in np.asarray(indptr).tolist()]
    return [sum(weight_of_entry[ptr[r] : ptr[r + 1]]) for r in range(len(ptr) - 1)]


def markov_run_bound(
    start: npt.ArrayLike, indptr: npt.ArrayLike, weight_ids: npt.ArrayLike, weights: npt.ArrayLike, steps: int
) -> int:
    """Upper bound on every number :func:`markov_run` holds.

    Parameters
    ----------
    start, indptr, weight_ids, weights
        As for :func:`markov_run`; ``weights`` exact (Python ints or int64),
        before any reduction.
    steps : int
        ``T``, the steps run (``out_groups`` has ``T + 1`` rows).

    Returns
    -------
    int
        ``sum(start) * R ** T`` with ``R`` the largest row sum of weights
        (the denominator ``D``, for a chain whose rows sum to it): the total
        ways after ``T`` steps, which bounds every state's ways, every group
        (a part of them), and every product formed.  At least the largest
        weight and start (held too).
    """
    start = _exact_ints("start", start)
    weights = _exact_ints("weights", weights)
    ids = np.asarray(weight_ids).tolist()
    rows = _row_sums(indptr, [weights[i] for i in ids])
    mass = sum(start)
    top = max(rows, default=0)
    return max([mass, mass * top ** int(steps)] + start + weights)


def markov_run_steps_bound(start: npt.ArrayLike, ptr: IntArray, w: npt.ArrayLike) -> int:
    """Upper bound on every number :func:`markov_run_steps` holds.

    Parameters
    ----------
    start, ptr, w
        As for :func:`markov_run_steps`, exact (before any reduction).

    Returns
    -------
    int
        The largest of ``sum(start) * R_1 * ... * R_t`` over ``t``, with
        ``R_t`` the largest row sum of step ``t`` (its denominator
        ``D_t``): the total ways after each step, which bounds every
        state's ways and every product formed; at least the largest weight
        and start (held too).
    """
    start = _exact_ints("start", start)
    w = np.asarray(w, dtype=object)
    total = sum(start)
    best = max([total] + start)
    for t in range(np.asarray(ptr).shape[0]):
        weights = _exact_ints("weights", w[t])
        total *= max(_row_sums(ptr[t], weights), default=0)
        best = max([best, total] + weights)
    return best
