"""The mechanic engine's one counting kernel: dice added one at a time to a grid of count states.

A mechanic (``analysis.model.spec``) rolls a few *kinds* of dice (normal,
Hunger, Rage, a designer's own); every face of a kind carries one *mark*
(success, ten, one, ...).  What a roll means depends only on a few count
states (the statistics grid of ``analysis.engine.pool``, or the
pair-of-tens states of ``analysis.engine.pairs_count``).  A die of a kind showing
mark ``m`` moves every state to one state, given by the caller as a table
(``dest``), in as many ways as the kind has faces with that mark: so the
ways of every state after ``n`` dice are ``n`` steps of a walk, and every
pool of a table that differs in one kind's dice alone is a prefix of one
walk.  At the counts asked, the ways are summed into outcome classes and a
histogram of values through tables the rules layer computed (per context:
a Difficulty, an action).  The states are counts per category of face (a
roll as a multiset); the ordered rolls are never listed.  A die of many marks (a chain of
dice rolled again) takes a variant of the walk that adds the marks reaching a
long axis's last cell once (:func:`mechanic_walk_tails`); both classify
through :func:`classify`.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from kernels._jit import IntArray, kernel


#: Above this many ways per die, a walk in a prime's arithmetic reduces each product as it is added
#: (:func:`mechanic_walk`): 2**31 residues times the ways, gathered from 2**22 states, stay in int64.
WIDE_WEIGHTS = 1024
#: A wide walk's sums are reduced modulo its prime only once past this: a residue times a residue (below
#: 2**62) added to a sum below it stays inside int64, and the division is paid once in a few additions.
WIDE_SUM = 2**62


@kernel
def mechanic_walk(
    cur: IntArray,
    nxt: IntArray,
    dest: IntArray,
    weight: IntArray,
    emit: IntArray,
    classes: IntArray,
    values: IntArray,
    mod: int,
    out_classes: IntArray,
    out_values: IntArray,
    bad: IntArray,
) -> None:
    """Add dice of one kind to the states one at a time, classifying at the counts asked.

    Parameters
    ----------
    cur : int64[G]
        Ways of each state before the first die (in ``mod``'s arithmetic);
        overwritten with the ways after ``emit[-1]`` dice.
    nxt : int64[G]
        Scratch, zero on entry and on return.
    dest : int64[M, G]
        ``dest[m, i]``: the state a die showing mark ``m`` takes state ``i``
        to, never below ``i`` (counts only grow).
    weight : int64[M]
        Faces of the kind carrying each mark (a few dozen), or the ways of each sum of a die rolled
        again (residues below ``mod``; their sum above :data:`WIDE_WEIGHTS`).
    emit : int64[E]
        Dice counts, increasing (the first may be 0), after which to classify.
    classes : int64[C, G]
        One class table per context: the class of each state, or -1 where
        the rules classify nothing (C may be 0: nothing classified).
    values : int64[C, G]
        One value table per context, each value >= 0 and below
        ``out_values.shape[2]`` (ignored when that is 0).
    mod : int64
        0 for plain int64 (the caller checked :func:`mechanic_walk_bound`),
        else a prime below 2**31.
    out_classes : int64[E, C, K]
        Overwritten: ways per class, per emitted count and context.
    out_values : int64[E, C, V]
        Overwritten: ways of each value, per emitted count and context.
    bad : int64[E, C]
        Overwritten: per emitted count and context, the first state with
        ways that the class table leaves unclassified, or -1.
    """
    size = cur.shape[0]
    parts = weight.shape[0]
    hi = 0
    for i in range(size):
        if cur[i] != 0:
            hi = i
    # wide weights (the ways of a die rolled again, residues of up to 2**31) are reduced at each
    # product; a die's faces (a few dozen) are gathered first and reduced once per state
    sides = 0
    for m in range(parts):
        sides += weight[m]
    wide = mod > 0 and sides > WIDE_WEIGHTS
    n = 0
    for e in range(emit.shape[0]):
        while n < emit[e]:
            # a residue below 2**31 times a face count (at most a few dozen), gathered from at most
            # G <= 2**22 states before it is reduced below: inside int64; plain counts are ordered
            # rolls (the bound)
            top = 0
            for i in range(hi + 1):
                x = cur[i]
                if x == 0:
                    continue
                for m in range(parts):
                    d = dest[m, i]
                    if wide:  # a product below 2**62 added to a sum below 2**62, reduced only past it
                        v = nxt[d] + x * weight[m]
                        nxt[d] = v % mod if v >= WIDE_SUM else v
                    else:
                        nxt[d] += x * weight[m]
                    if d > top:
                        top = d
            # a cell without ways needs no division
            for i in range(max(hi, top) + 1):
                x = nxt[i]
                cur[i] = x % mod if mod > 0 and x != 0 else x
                nxt[i] = 0
            hi = top
            n += 1
        classify(cur, hi, e, classes, values, mod, out_classes, out_values, bad)


@kernel
def classify(
    cur: IntArray,
    hi: int,
    e: int,
    classes: IntArray,
    values: IntArray,
    mod: int,
    out_classes: IntArray,
    out_values: IntArray,
    bad: IntArray,
) -> None:
    """The ways of the states ``0..hi`` summed into the classes and values of count ``e`` of a walk (the
    arrays of :func:`mechanic_walk`), the first state left unclassified noted in ``bad``."""
    n_ctx = classes.shape[0]
    n_cls = out_classes.shape[2]
    n_val = out_values.shape[2]
    for t in range(n_ctx):
        bad[e, t] = -1
        for k in range(n_cls):
            out_classes[e, t, k] = 0
        for v in range(n_val):
            out_values[e, t, v] = 0
    for i in range(hi + 1):
        w = cur[i]
        if w == 0:
            continue
        for t in range(n_ctx):
            k = classes[t, i]
            if k < 0:
                if bad[e, t] < 0:
                    bad[e, t] = i
            else:
                acc = out_classes[e, t, k] + w
                out_classes[e, t, k] = acc - mod if mod > 0 and acc >= mod else acc
            if n_val > 0:
                v = values[t, i]
                acc = out_values[e, t, v] + w
                out_values[e, t, v] = acc - mod if mod > 0 and acc >= mod else acc


@kernel
def mechanic_walk_tails(
    cur: IntArray,
    nxt: IntArray,
    dest: IntArray,
    weight: IntArray,
    tail: IntArray,
    group_end: IntArray,
    first: IntArray,
    stride: int,
    size_big: int,
    emit: IntArray,
    classes: IntArray,
    values: IntArray,
    mod: int,
    out_classes: IntArray,
    out_values: IntArray,
    bad: IntArray,
) -> None:
    """:func:`mechanic_walk` for a die of many marks (a chain of dice rolled again) whose marks reach the
    last cell of one large axis: the same ways, in fewer steps.

    The marks come in groups that move the other axes alike, each in increasing order of what it adds
    along the large axis (``stride`` apart in the grid, ``size_big`` cells, the last holding every value
    from it up); ``group_end[g]`` ends group ``g`` (the first starts at 0) and ``first[g, r]`` is its
    first mark that adds ``r`` or more.  From a state ``r`` cells short of the last, every mark of a group
    from ``first[g, r]`` on takes it to the same state: their ways are added once, ``tail[m]`` (the
    weights of the group from mark ``m`` on, summed, in ``mod``'s arithmetic).  Other arrays as
    :func:`mechanic_walk`.
    """
    size = cur.shape[0]
    groups = group_end.shape[0]
    hi = 0
    for i in range(size):
        if cur[i] != 0:
            hi = i
    sides = 0
    for m in range(weight.shape[0]):
        sides += weight[m]
    wide = mod > 0 and sides > WIDE_WEIGHTS
    n = 0
    for e in range(emit.shape[0]):
        while n < emit[e]:
            top = 0
            for i in range(hi + 1):
                x = cur[i]
                if x == 0:
                    continue
                short = size_big - 1 - (i // stride) % size_big
                lo = 0
                for g in range(groups):
                    end = group_end[g]
                    f = first[g, short]
                    for m in range(lo, f):
                        d = dest[m, i]
                        if wide:
                            v = nxt[d] + x * weight[m]
                            nxt[d] = v % mod if v >= WIDE_SUM else v
                        else:
                            nxt[d] += x * weight[m]
                        if d > top:
                            top = d
                    if f < end:  # the group's marks from f on: one state, their ways added once
                        d = dest[f, i]
                        if wide:
                            v = nxt[d] + x * tail[f]
                            nxt[d] = v % mod if v >= WIDE_SUM else v
                        else:
                            nxt[d] += x * tail[f]
                        if d > top:
                            top = d
                    lo = end
            for i in range(max(hi, top) + 1):
                x = nxt[i]
                cur[i] = x % mod if mod > 0 and x != 0 else x
                nxt[i] = 0
            hi = top
            n += 1
        classify(cur, hi, e, classes, values, mod, out_classes, out_values, bad)


#: How a die's marks reach the last cell of a large axis (:func:`mechanic_walk_tails`):
#: ``(group_end, first, stride, size_big)``.
Tails = tuple[IntArray, IntArray, int, int]


def walk(
    cur: IntArray,
    dest: IntArray,
    weight: IntArray,
    emit: Sequence[int],
    mod: int,
    classes: IntArray | None = None,
    n_classes: int = 0,
    values: IntArray | None = None,
    n_values: int = 0,
    tails: Tails | None = None,
) -> tuple[IntArray, IntArray, IntArray]:
    """:func:`mechanic_walk` with its scratch and outputs made here (plain Python): walks ``cur`` in
    place through ``emit`` and returns ``(out_classes, out_values, bad)``; without ``classes``
    nothing is classified (the walk only leaves the ways after ``emit[-1]`` dice in ``cur``).  With
    ``tails`` (``(group_end, first, stride, size_big)``, the marks ordered in their groups): the same
    walk by :func:`mechanic_walk_tails`."""
    size = cur.shape[0]
    if classes is None:
        classes = np.empty((0, size), dtype=np.int64)
    if values is None:
        values = np.empty((classes.shape[0], size if n_values else 0), dtype=np.int64)
    n_emit, n_ctx = len(emit), classes.shape[0]
    out_classes = np.empty((n_emit, n_ctx, n_classes), dtype=np.int64)
    out_values = np.empty((n_emit, n_ctx, n_values), dtype=np.int64)
    bad = np.empty((n_emit, n_ctx), dtype=np.int64)
    nxt = np.zeros(size, dtype=np.int64)
    steps = np.array(emit, dtype=np.int64)
    if tails is None:
        mechanic_walk(cur, nxt, dest, weight, steps, classes, values, mod, out_classes, out_values, bad)
    else:
        group_end, first, stride, size_big = tails
        tail = np.empty_like(weight)
        start = 0
        for end in group_end.tolist():  # each group's weights from each mark on (residues below 2**31 each)
            sums = np.cumsum(weight[start:end][::-1])[::-1]
            tail[start:end] = sums % mod if mod else sums
            start = end
        mechanic_walk_tails(
            cur,
            nxt,
            dest,
            weight,
            tail,
            group_end,
            first,
            stride,
            size_big,
            steps,
            classes,
            values,
            mod,
            out_classes,
            out_values,
            bad,
        )
    return out_classes, out_values, bad


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted): an upper bound on every number the kernel
# above holds, for ``analysis.engine.exact.count``.


def mechanic_walk_bound(sides: Iterable[int], dice: Iterable[int]) -> int:
    """Upper bound on every number :func:`mechanic_walk` holds, from a start of one way (a single
    state) through walks of up to ``dice`` of each kind.

    Each state after a die is a number of ordered rolls of the dice so far,
    and so is each product ``x * weight[m]`` added into it (the rolls where
    the new die shows ``m``), and each class or value sum: all at most
    ``prod(sides ** dice)`` for the most dice walked, and the weights at
    most the sides.

    Parameters
    ----------
    sides, dice : sequences of int
        Faces of each kind, and the most dice of each kind the walks reach.
    """
    total = 1
    top = 1
    for side, n in zip(sides, dice):
        total *= int(side) ** int(n)
        top = max(top, int(side))
    return max(total, top)
