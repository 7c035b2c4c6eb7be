"""The mechanic engine: exact ways of every count state of a pool of several kinds of dice.

A mechanic (``analysis.mechanic``) rolls a few *kinds* of dice (normal,
Hunger, Rage, a designer's own); every face of a kind carries one *mark*
(success, ten, one, ...).  What a roll means depends only on a few
*statistics*: each statistic is the number of dice showing one of a set of
(kind, mark) pairs (``ten`` summed over every kind, ``hunger.one`` for one
kind).  These kernels count, exactly, the ways each vector of statistics can
come up, then sum those ways into outcome classes through a class table the
rules layer computed from the mechanic's rules.

A kind of ``n`` dice contributes one term per composition ``c`` of ``n``
into its marks, weighted by the multinomial coefficient times the product
of ``faces[m] ** c[m]``: the category-count vectors of DESIGN, never the
ordered rolls.  Kinds are convolved one after the other over a dense grid of
statistics, flattened with row-major strides; the grid is sized so that no
statistic can pass its axis (each axis holds the most dice its pairs can
show), so a flat offset never wraps.  :func:`mechanic_ways_capped` instead
holds each statistic at its axis's last cell (saturation), for statistics
the rules only compare with a bound.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from ._jit import IntArray, kernel
from .multiset import addmod, fill_powers, mulmod


@kernel
def _first_composition(n: int, parts: int, c: IntArray) -> None:
    """Set ``c[:parts]`` to the first composition of ``n`` (all in the last part)."""
    for i in range(parts):
        c[i] = 0
    c[parts - 1] = n


@kernel
def _next_composition(parts: int, c: IntArray) -> bool:
    """Step ``c[:parts]`` to the next composition of the same total; False after the last.

    Compositions are walked in reverse lexicographic order of ``c[parts-1]``
    first (the odometer of Nijenhuis and Wilf's NEXCOM, read right to left):
    move one unit from the last non-zero part (except the first part) to its
    left neighbour, gathering everything to its right back into the last part.
    """
    # find the rightmost part j >= 1 holding something
    j = parts - 1
    while j >= 1 and c[j] == 0:
        j -= 1
    if j < 1:
        return False
    rest = c[j] - 1
    c[j] = 0
    c[j - 1] += 1
    c[parts - 1] += rest
    return True


@kernel
def mechanic_ways(
    dice: IntArray,
    faces: IntArray,
    marks: IntArray,
    contrib: IntArray,
    strides: IntArray,
    mod: int,
    binom: IntArray,
    out: IntArray,
) -> int:
    """Add the ways of every roll of the pool into the statistics grid ``out``.

    Parameters
    ----------
    dice : int64[K]
        Dice of each kind.
    faces : int64[K, M]
        ``faces[k, m]``: faces of a kind-``k`` die carrying mark ``m``
        (``m < marks[k]``; the rest of the row is ignored).
    marks : int64[K]
        Number of marks of each kind (>= 1).
    contrib : int64[K, M, S]
        ``contrib[k, m, s]``: 1 if a kind-``k`` die showing mark ``m`` counts
        towards statistic ``s``, else 0.
    strides : int64[S]
        Row-major strides of the statistics grid.
    mod : int64
        0 for plain int64 (the caller checked :func:`mechanic_ways_bound`),
        else a prime below 2**31.
    binom : int64[N, N]
        Binomial table (``fill_binomials``) with ``N > max(dice)``.
    out : int64[G]
        The flattened grid, zeroed by the caller (``G`` = product of the
        axis sizes, every axis at least the most dice it can count, plus 1).
        ``out[i]`` receives the ways of the statistics vector at ``i``.

    Returns
    -------
    int64
        The number of non-zero cells written (the caller may ignore it).
    """
    n_kinds = dice.shape[0]
    m_max = faces.shape[1]
    n_stats = strides.shape[0]
    top = 0
    for k in range(n_kinds):
        top = max(top, dice[k])
    powers = np.empty((n_kinds, m_max, top + 1), dtype=np.int64)
    for k in range(n_kinds):
        for m in range(marks[k]):
            fill_powers(faces[k, m], mod, powers[k, m])
    # flat offset of one die of kind k showing mark m
    step = np.zeros((n_kinds, m_max), dtype=np.int64)
    for k in range(n_kinds):
        for m in range(marks[k]):
            for s in range(n_stats):
                step[k, m] += contrib[k, m, s] * strides[s]
    size = out.shape[0]
    cur = np.zeros(size, dtype=np.int64)
    cur[0] = 1
    live = np.zeros(size, dtype=np.int64)
    live[0] = 0
    n_live = 1
    nxt = np.zeros(size, dtype=np.int64)
    c = np.zeros(m_max, dtype=np.int64)
    for k in range(n_kinds):
        n = dice[k]
        parts = marks[k]
        for i in range(n_live):
            nxt[live[i]] = 0
        _first_composition(n, parts, c)
        more = True
        while more:
            w = 1
            left = n
            off = 0
            for m in range(parts):
                w = mulmod(w, mulmod(binom[left, c[m]], powers[k, m, c[m]], mod), mod)
                left -= c[m]
                off += c[m] * step[k, m]
            if w != 0:
                for i in range(n_live):
                    src = live[i]
                    x = cur[src]
                    if x != 0:
                        dst = src + off
                        nxt[dst] = addmod(nxt[dst], mulmod(x, w, mod), mod)
            more = _next_composition(parts, c)
        # gather the live cells of nxt (scan the reachable span only)
        hi = 0
        for i in range(n_live):
            hi = max(hi, live[i])
        reach = 0
        for m in range(parts):
            reach = max(reach, step[k, m])
        hi = min(size - 1, hi + n * reach)
        n_live = 0
        for i in range(hi + 1):
            v = nxt[i]
            if v != 0:
                live[n_live] = i
                n_live += 1
        for i in range(hi + 1):
            cur[i] = nxt[i]
            nxt[i] = 0
    for i in range(n_live):
        out[live[i]] = addmod(out[live[i]], cur[live[i]], mod)
    return n_live


@kernel
def mechanic_ways_capped(
    dice: IntArray,
    faces: IntArray,
    marks: IntArray,
    contrib: IntArray,
    shape: IntArray,
    mod: int,
    binom: IntArray,
    out: IntArray,
) -> int:
    """:func:`mechanic_ways` on a grid whose axes saturate: a statistic never passes its last cell.

    Parameters are those of :func:`mechanic_ways`, except ``shape`` (int64[S],
    each axis size >= 1) in place of the strides, and ``contrib[k, m, s]``
    may be any whole number >= 0 (what a kind-``k`` die showing ``m`` adds
    to statistic ``s``).  A statistic whose value would pass ``shape[s] - 1``
    is held at ``shape[s] - 1``: that cell gathers the ways of every value
    from ``shape[s] - 1`` up (the rules layer caps a statistic only where
    all those values read alike).  An axis at least as long as the most the
    statistic can reach, plus 1, never saturates, and the grid is then that
    of :func:`mechanic_ways`.

    Returns
    -------
    int64
        The number of non-zero cells written.
    """
    n_kinds = dice.shape[0]
    m_max = faces.shape[1]
    n_stats = shape.shape[0]
    top = 0
    for k in range(n_kinds):
        top = max(top, dice[k])
    powers = np.empty((n_kinds, m_max, top + 1), dtype=np.int64)
    for k in range(n_kinds):
        for m in range(marks[k]):
            fill_powers(faces[k, m], mod, powers[k, m])
    strides = np.ones(n_stats, dtype=np.int64)
    for s in range(n_stats - 2, -1, -1):
        strides[s] = strides[s + 1] * shape[s + 1]
    size = out.shape[0]
    cur = np.zeros(size, dtype=np.int64)
    cur[0] = 1
    live = np.zeros(size, dtype=np.int64)
    n_live = 1
    coords = np.zeros((size, n_stats), dtype=np.int64)  # coordinates of the live cells
    nxt = np.zeros(size, dtype=np.int64)
    c = np.zeros(m_max, dtype=np.int64)
    inc = np.zeros(n_stats, dtype=np.int64)
    for k in range(n_kinds):
        n = dice[k]
        parts = marks[k]
        for i in range(n_live):
            rest = live[i]
            for s in range(n_stats):
                coords[i, s] = rest // strides[s]
                rest -= coords[i, s] * strides[s]
        _first_composition(n, parts, c)
        more = True
        while more:
            w = 1
            left = n
            for s in range(n_stats):
                inc[s] = 0
            for m in range(parts):
                w = mulmod(w, mulmod(binom[left, c[m]], powers[k, m, c[m]], mod), mod)
                left -= c[m]
                for s in range(n_stats):
                    inc[s] += c[m] * contrib[k, m, s]
            if w != 0:
                for i in range(n_live):
                    x = cur[live[i]]
                    if x != 0:
                        dst = 0
                        for s in range(n_stats):
                            dst += min(coords[i, s] + inc[s], shape[s] - 1) * strides[s]
                        nxt[dst] = addmod(nxt[dst], mulmod(x, w, mod), mod)
            more = _next_composition(parts, c)
        n_live = 0
        for i in range(size):
            cur[i] = nxt[i]
            nxt[i] = 0
            if cur[i] != 0:
                live[n_live] = i
                n_live += 1
    for i in range(n_live):
        out[live[i]] = addmod(out[live[i]], cur[live[i]], mod)
    return n_live


@kernel
def mechanic_classify(
    ways: IntArray, classes: IntArray, n_classes: int, mod: int, out: IntArray, bad: IntArray
) -> None:
    """Sum the ways of a statistics grid into classes, for several class tables at once.

    Parameters
    ----------
    ways : int64[G]
        Output of :func:`mechanic_ways`.
    classes : int64[C, G]
        One class table per context (a Difficulty, an action): the class of
        each grid cell, or -1 where the rules classify nothing.
    n_classes : int64
        Number of classes (``out.shape[1]``).
    mod : int64
        As for :func:`mechanic_ways`.
    out : int64[C, n_classes]
        Overwritten: ways per class for each table.
    bad : int64[C]
        Overwritten: for each table, the first grid index with ways that the
        table leaves unclassified, or -1.
    """
    for t in range(classes.shape[0]):
        bad[t] = -1
        for k in range(n_classes):
            out[t, k] = 0
    for i in range(ways.shape[0]):
        w = ways[i]
        if w == 0:
            continue
        for t in range(classes.shape[0]):
            k = classes[t, i]
            if k < 0:
                if bad[t] < 0:
                    bad[t] = i
            else:
                out[t, k] = addmod(out[t, k], w, mod)


@kernel
def mechanic_values(ways: IntArray, values: IntArray, mod: int, out: IntArray) -> None:
    """Ways of each value of a count over a statistics grid (a histogram).

    Parameters
    ----------
    ways : int64[G]
        Output of :func:`mechanic_ways`.
    values : int64[C, G]
        One value table per context, each value shifted to be >= 0 and
        below ``out.shape[1]``.
    mod : int64
        As for :func:`mechanic_ways`.
    out : int64[C, V]
        Overwritten: ways of each value, per context.
    """
    for t in range(out.shape[0]):
        for v in range(out.shape[1]):
            out[t, v] = 0
    for i in range(ways.shape[0]):
        w = ways[i]
        if w == 0:
            continue
        for t in range(values.shape[0]):
            v = values[t, i]
            out[t, v] = addmod(out[t, v], w, mod)


@kernel
def mechanic_chain(
    start: IntArray,
    kind: int,
    faces: IntArray,
    marks: IntArray,
    contrib: IntArray,
    shape: IntArray,
    emit: IntArray,
    classes: IntArray,
    values: IntArray,
    mod: int,
    out_classes: IntArray,
    out_values: IntArray,
    bad: IntArray,
) -> None:
    """Add dice of one kind to a statistics grid one at a time, classifying at the counts asked.

    Every pool of a table that differs only in one kind's dice is counted in
    one walk: the grid of the other kinds' dice (``start``) takes one die of
    ``kind`` after another, and after each count listed in ``emit`` its ways
    are summed into classes and values as :func:`mechanic_classify` and
    :func:`mechanic_values` do.  A die adds ``contrib[kind, m]`` to the
    statistics, held at each axis's last cell as in
    :func:`mechanic_ways_capped` (an axis long enough never saturates).

    Parameters
    ----------
    start : int64[G]
        Ways of the other kinds' dice on the grid (from :func:`mechanic_ways`
        or :func:`mechanic_ways_capped`, in the same ``mod``); read only.
    kind : int64
        The kind whose dice are added.
    faces, marks, contrib, shape
        As for :func:`mechanic_ways_capped`.
    emit : int64[E]
        Dice counts of ``kind``, increasing, after which to classify.
    classes : int64[C, G]
        As for :func:`mechanic_classify`.
    values : int64[C, G]
        As for :func:`mechanic_values` (ignored when ``out_values`` has no column).
    mod : int64
        As for :func:`mechanic_ways`.
    out_classes : int64[E, C, K]
        Overwritten: ways per class, per emitted count and context.
    out_values : int64[E, C, V]
        Overwritten: ways of each value, per emitted count and context.
    bad : int64[E, C]
        Overwritten: as for :func:`mechanic_classify`, per emitted count.
    """
    n_stats = shape.shape[0]
    size = start.shape[0]
    strides = np.ones(n_stats, dtype=np.int64)
    for s in range(n_stats - 2, -1, -1):
        strides[s] = strides[s + 1] * shape[s + 1]
    parts = marks[kind]
    # where one die showing mark m takes each cell (coordinates only grow, so dest >= the cell)
    dest = np.empty((parts, size), dtype=np.int64)
    for i in range(size):
        rest = i
        for s in range(n_stats):
            coord = rest // strides[s]
            rest -= coord * strides[s]
            for m in range(parts):
                if s == 0:
                    dest[m, i] = 0
                dest[m, i] += min(coord + contrib[kind, m, s], shape[s] - 1) * strides[s]
    weight = np.empty(parts, dtype=np.int64)
    for m in range(parts):
        weight[m] = faces[kind, m] % mod if mod > 0 else faces[kind, m]
    cur = start.copy()
    nxt = np.zeros(size, dtype=np.int64)
    hi = 0
    for i in range(size):
        if cur[i] != 0:
            hi = i
    n = 0
    for e in range(emit.shape[0]):
        while n < emit[e]:
            top = 0
            for i in range(hi + 1):
                x = cur[i]
                if x == 0:
                    continue
                for m in range(parts):
                    d = dest[m, i]
                    # residues below 2**31 times a face count: a cell gathers at most ``parts`` such
                    # products before it is reduced below (far inside int64); plain counts are
                    # ordered rolls (the bound)
                    nxt[d] += x * weight[m]
                    if d > top:
                        top = d
            for i in range(max(hi, top) + 1):
                cur[i] = nxt[i] % mod if mod > 0 else nxt[i]
                nxt[i] = 0
            hi = top
            n += 1
        mechanic_classify(cur, classes, out_classes.shape[2], mod, out_classes[e], bad[e])
        if out_values.shape[2] > 0:
            mechanic_values(cur, values, mod, out_values[e])


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted): an upper bound on every number the kernels
# above hold, for ``analysis.exact.count``.

from .multiset import binomials_bound, powers_bound  # noqa: E402


def mechanic_ways_bound(
    dice: Iterable[int],
    faces: Sequence[Iterable[int]] | IntArray,
    marks: Sequence[int] | IntArray,
    binom_size: int | None = None,
) -> int:
    """Upper bound on every number :func:`mechanic_ways`, :func:`mechanic_classify` and
    :func:`mechanic_values` hold.

    Every cell of the grid and every class or value sum is a number of
    ordered rolls, at most ``prod(sides ** dice)``; a composition's weight
    (a multinomial times face powers) is at most the ordered rolls of its
    kind, and a partial product of it at most that too; a product of a cell
    and a weight is a number of ordered rolls of the kinds so far.  The
    power and binomial tables add their own largest entries.

    Parameters
    ----------
    dice, faces, marks
        As for :func:`mechanic_ways`.
    binom_size : int, optional
        Rows of the binomial table; default ``max(dice) + 1``.

    Returns
    -------
    int
        A Python int.
    """
    dice = [int(d) for d in dice]
    total = 1
    for k, n in enumerate(dice):
        row = [int(f) for f in list(faces[k])[: int(marks[k])]]
        total *= sum(row) ** n
    top = max(dice, default=0)
    size = top + 1 if binom_size is None else int(binom_size)
    powers = max(
        (powers_bound(int(f), top + 1) for k in range(len(dice)) for f in list(faces[k])[: int(marks[k])]), default=1
    )
    return max(total, powers, binomials_bound(size))


def mechanic_ways_capped_bound(
    dice: Iterable[int],
    faces: Sequence[Iterable[int]] | IntArray,
    marks: Sequence[int] | IntArray,
    binom_size: int | None = None,
) -> int:
    """Upper bound on every number :func:`mechanic_ways_capped` (and the classifying kernels after it) hold.

    Saturation only gathers the ways of disjoint sets of ordered rolls into
    one cell, so every cell is still a number of ordered rolls of the kinds
    so far, at most ``prod(sides ** dice)``; weights, powers and binomials
    are those of :func:`mechanic_ways`.  The bound is therefore
    :func:`mechanic_ways_bound`'s (same arguments).
    """
    return mechanic_ways_bound(dice, faces, marks, binom_size)


def mechanic_chain_bound(start_bound: int, sides: Iterable[int], dice: Iterable[int]) -> int:
    """Upper bound on every number :func:`mechanic_chain` holds, walking up to ``dice`` of each kind.

    Each cell after a die is a number of ordered rolls of the dice so far,
    and so is each product ``x * faces[m]`` added into it (the rolls where
    the new die shows ``m``), and each class or value sum: all at most
    ``prod(sides ** dice)`` for the most dice walked; ``start`` holds at
    most ``start_bound`` (its kernel's bound).

    Parameters
    ----------
    start_bound : int
        The bound of the kernel call that made ``start``.
    sides, dice : sequences of int
        Faces of each kind, and the most dice of each kind the walk reaches.
    """
    total = 1
    for side, n in zip(sides, dice):
        total *= int(side) ** int(n)
    return max(int(start_bound), total, max((int(f) for f in sides), default=1))
