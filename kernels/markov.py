"""Markov chains with integer transition weights: exact distributions after each step.

Each step ``t`` is a sparse matrix in CSR form whose rows sum to one common
integer denominator ``q_t``: ``w[t, j]`` ways from state ``i`` to ``to[t, j]``
for ``j`` in ``ptr[t, i] .. ptr[t, i + 1] - 1``.  After ``t`` steps the ways
are over ``q_1 * ... * q_t``; the caller picks int64 or the modular path
(``kernels.multiset``) from that bound.
"""
from ._jit import kernel
from .multiset import addmod, mulmod


@kernel
def markov_run(start, ptr, to, w, mod, out):
    """Run a chain of sparse integer steps, keeping the distribution after each.

    Parameters
    ----------
    start : int64[S]
        Ways of each state before the first step.
    ptr : int64[T, S + 1]
        Row pointers of each step's CSR matrix.
    to : int64[T, E]
        Target state of each transition (padded; only ``ptr`` ranges are read).
    w : int64[T, E]
        Ways of each transition.
    mod : int64
        0 for int64 (caller checked the bound), else a prime below 2**31.
    out : int64[T + 1, S]
        Overwritten: ``out[0] = start``, ``out[t]`` the ways after ``t`` steps.
    """
    n_steps = ptr.shape[0]
    n_states = start.shape[0]
    for i in range(n_states):
        out[0, i] = start[i] % mod if mod > 0 else start[i]
    for t in range(n_steps):
        for i in range(n_states):
            out[t + 1, i] = 0
        for i in range(n_states):
            x = out[t, i]
            if x == 0:
                continue
            for j in range(ptr[t, i], ptr[t, i + 1]):
                k = to[t, j]
                out[t + 1, k] = addmod(out[t + 1, k], mulmod(x, w[t, j], mod), mod)
