"""Willpower rerolls for any mechanic: the exact outcome of a landed roll after a strategy's reroll.

The mechanic engine (:mod:`kernels.mechanic`) counts the ways of every
vector of the statistics its rules read.  A reroll needs more: how many
dice of each rerollable (kind, mark) category a roll shows.  The layer
above (:mod:`analysis.engine.willpower`) splits a landed roll in two:

* the kinds that are never rerolled, folded into the rule statistics grid
  by :func:`kernels.mechanic.mechanic_walk` (the *residual* grid);
* the rerollable kinds, kept as explicit category-count vectors (the
  *states*): one count per rerollable mark, and the other marks merged by
  what the rules read of them.  Their weights (multinomials times face
  powers) come from :func:`composition_weights`.

A roll's flat index in the rule grid is linear in its category counts, so
a reroll that takes ``r`` dice of each category subtracts a fixed offset,
and each way the rerolled dice can fall adds one.  For every landed roll
and every context (a Difficulty, an action) :func:`willpower_choices` picks
the strategy's reroll, once (a decision does not depend on the arithmetic),
and :func:`willpower_add` adds the ways of every outcome, by final class and
by final successes, in int64 or modulo each prime of the exact path.

Decisions compare expected values exactly, in int64 integers that are
never reduced modulo a prime: an outcome's ways are brought to a common
denominator ``L`` of every reroll (``L / sides ** k`` per way), so the
expected value of a reroll is ``sum(value * ways)`` over the same ``L`` as
keeping the roll (``value * L``).  :func:`mechanic_willpower_bound` checks
that these fit before any call.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from kernels._jit import IntArray, kernel
from kernels.multiset import addmod, binomials_bound, fill_powers, mulmod, powers_bound

#: Strategy modes of :func:`willpower_ways`.
MODE_BEST = 0  #: the reroll of the highest exact expected value of the class values
MODE_FAILURES = 1  #: a roll that is not a win rerolls up to R of its failed dice


@kernel
def fill_compositions(n: int, parts: int, out: IntArray) -> int:
    """Every composition of ``n`` into ``parts`` parts, one per row of ``out``.

    Parameters
    ----------
    n, parts : int64
        The total and the number of parts (``parts >= 1``).
    out : int64[Q, P]
        ``Q`` must be the number of compositions, ``C(n + parts - 1,
        parts - 1)``, and ``P >= parts``; refused otherwise (never written
        past).

    Returns
    -------
    int64
        The number of rows written.
    """
    if parts < 1 or out.shape[1] < parts:
        raise ValueError("fill_compositions: out has fewer columns than parts")
    # an odometer: all in the last part first; then move one unit from the
    # rightmost non-empty part (not the first) to its left neighbour, and
    # gather what lies right of it back into the last part
    c = np.zeros(parts, dtype=np.int64)
    c[parts - 1] = n
    q = 0
    more = True
    while more:
        if q >= out.shape[0]:
            raise ValueError("fill_compositions: out has fewer rows than compositions")
        for m in range(parts):
            out[q, m] = c[m]
        q += 1
        j = parts - 1
        while j >= 1 and c[j] == 0:
            j -= 1
        if j < 1:
            more = False
        else:
            rest = c[j] - 1
            c[j] = 0
            c[j - 1] += 1
            c[parts - 1] += rest
    if q != out.shape[0]:
        raise ValueError("fill_compositions: out has more rows than compositions")
    return q


@kernel
def composition_weights(comps: IntArray, faces: IntArray, mod: int, binom: IntArray, out: IntArray) -> None:
    """Ways of each category-count vector of one kind: a multinomial times the face powers.

    Parameters
    ----------
    comps : int64[Q, M]
        Category counts, every row summing to the same number of dice ``n``.
    faces : int64[M]
        Faces of the die in each category.
    mod : int64
        0 for plain int64 (the caller checked the bound), else a prime below 2**31.
    binom : int64[N, N]
        Binomial table with ``N > n``.
    out : int64[Q]
        Overwritten with the ways.
    """
    n_cat = comps.shape[1]
    if faces.shape[0] < n_cat or out.shape[0] < comps.shape[0]:
        raise ValueError("composition_weights: faces or out is too small")
    top = 0
    for q in range(comps.shape[0]):
        s = 0
        for m in range(n_cat):
            s += comps[q, m]
        top = max(top, s)
    if top >= binom.shape[0]:
        raise ValueError("composition_weights: the binomial table is too small")
    powers = np.empty((n_cat, top + 1), dtype=np.int64)
    for m in range(n_cat):
        fill_powers(faces[m], mod, powers[m])
    for q in range(comps.shape[0]):
        left = 0
        for m in range(n_cat):
            left += comps[q, m]
        w = 1
        for m in range(n_cat):
            c = comps[q, m]
            w = mulmod(w, mulmod(binom[left, c], powers[m, c], mod), mod)
            left -= c
        out[q] = w


@kernel
def _check_plan(
    res_n: int,
    st_avail: IntArray,
    st_off: IntArray,
    opt_counts: IntArray,
    opt_off: IntArray,
    opt_v: IntArray,
    out_off: IntArray,
    out_w: IntArray,
    out_n: IntArray,
    cls: IntArray,
    max_reroll: int,
    G: int,
) -> None:
    """Refuse (ValueError) plan arrays that do not fit one another: never index past a buffer."""
    P = st_avail.shape[0]
    C = st_avail.shape[1]
    O = opt_counts.shape[0]
    V = out_n.shape[0]
    if st_off.shape[0] != P:
        raise ValueError("willpower kernel: the state arrays differ in length")
    if opt_counts.shape[1] != C or opt_off.shape[0] != O or opt_v.shape[0] != O:
        raise ValueError("willpower kernel: the reroll arrays do not match the categories")
    if out_off.shape[0] != V or out_w.shape[0] != V or out_off.shape[1] != out_w.shape[1]:
        raise ValueError("willpower kernel: the outcome arrays differ in shape")
    for v in range(V):
        if out_n[v] < 0 or out_n[v] > out_off.shape[1]:
            raise ValueError("willpower kernel: an outcome count passes its outcome buffer")
    for o in range(O):
        if opt_v[o] < 0 or opt_v[o] >= V:
            raise ValueError("willpower kernel: a reroll names an outcome row that does not exist")
        k = 0
        for c in range(C):
            if opt_counts[o, c] < 0:
                raise ValueError("willpower kernel: a reroll takes a negative number of dice")
            k += opt_counts[o, c]
        if k < 1 or k > max_reroll:
            raise ValueError("willpower kernel: a reroll takes more dice than max_reroll (or none)")
    if cls.shape[1] != G:
        raise ValueError("willpower kernel: the class tables do not match the grid")
    for p in range(P):
        if st_off[p] < 0 or st_off[p] >= G:
            raise ValueError("willpower kernel: a state lies outside the grid")
    if res_n < 0:
        raise ValueError("willpower kernel: no landed cells")


@kernel
def willpower_choices(
    res_idx: IntArray,
    st_avail: IntArray,
    st_off: IntArray,
    opt_counts: IntArray,
    opt_off: IntArray,
    opt_v: IntArray,
    out_off: IntArray,
    out_w: IntArray,
    out_n: IntArray,
    cls: IntArray,
    values: IntArray,
    wins: IntArray,
    forbid: IntArray,
    fail_cats: IntArray,
    mode: int,
    max_reroll: int,
    common: int,
    choice: npt.NDArray[np.int32],
    bad: IntArray,
) -> None:
    """The strategy's reroll for every landed roll and context (the same in every arithmetic).

    Parameters
    ----------
    res_idx : int64[R]
        The grid cells the dice that are never rerolled can reach (flat,
        row-major in the rule grid; every one with ways).
    st_avail : int64[P, C]
        Dice of each rerollable category in each state of the rerollable dice.
    st_off : int64[P]
        Flat offset of each state in the rule grid.
    opt_counts : int64[O, C]
        The rerolls a strategy may take (dice of each category), in tie
        order: fewer dice first, then the category order, most of each
        first.  A reroll is taken only where the state shows its dice.
    opt_off : int64[O]
        Flat offset of the dice each reroll takes away.
    opt_v : int64[O]
        Row of ``out_off``, ``out_w``, ``out_n`` for the rerolled dice of
        each reroll (how many of each kind).
    out_off, out_w : int64[V, J]
        Each way the rerolled dice can fall (merged by its offset): the flat
        offset it adds and its exact ways brought to the common denominator.
    out_n : int64[V]
        Outcomes in each row.
    cls : int64[T, G]
        Per context: the class of each grid cell (-1: no rule matches).
    values : int64[K]
        Integer value of each class (``MODE_BEST``).
    wins : int64[K]
        1 for a winning class (``MODE_FAILURES`` keeps a win's dice).
    forbid : int64[K]
        1 for a class a reroll must never risk making of a roll of another
        class (``MODE_BEST``).
    fail_cats : int64[F]
        Categories of failed dice, in the order ``MODE_FAILURES`` takes them.
    mode : int64
        :data:`MODE_BEST` or :data:`MODE_FAILURES`.
    max_reroll : int64
        Most dice a reroll takes.
    common : int64
        The common denominator ``L`` of every reroll: keeping a roll is
        worth ``value * L``, a reroll ``sum(value * ways)``, compared
        exactly (the reroll must be strictly better, so ties keep).
    choice : int32[T, R, P]
        Overwritten: the reroll taken (row of ``opt_counts``), -1 to keep.
    bad : int64[T]
        Overwritten: per context, the first grid index a roll reaches that no
        rule classifies, or -1.

    Every buffer is checked against the others before any work: a size that
    does not match raises ``ValueError`` instead of writing past an array.
    """
    G = cls.shape[1]
    T = cls.shape[0]
    P = st_avail.shape[0]
    C = st_avail.shape[1]
    O = opt_counts.shape[0]
    K = values.shape[0]
    R = res_idx.shape[0]
    _check_plan(R, st_avail, st_off, opt_counts, opt_off, opt_v, out_off, out_w, out_n, cls, max_reroll, G)
    if choice.shape[0] != T or choice.shape[1] != R or choice.shape[2] != P:
        raise ValueError("willpower_choices: the choice buffer does not match contexts x cells x states")
    if wins.shape[0] != K or forbid.shape[0] != K or bad.shape[0] != T:
        raise ValueError("willpower_choices: the class arrays differ in length")
    for f in range(fail_cats.shape[0]):
        if fail_cats[f] < 0 or fail_cats[f] >= C:
            raise ValueError("willpower_choices: a failure category does not exist")
    for t in range(T):
        bad[t] = -1
        for i in range(G):
            if cls[t, i] >= K:
                raise ValueError("willpower_choices: a class table names a class that does not exist")
    for ri in range(R):
        if res_idx[ri] < 0 or res_idx[ri] >= G:
            raise ValueError("willpower_choices: a landed cell lies outside the grid")
    if mode != MODE_BEST and mode != MODE_FAILURES:
        raise ValueError("willpower_choices: unknown mode")

    want = np.zeros(C, dtype=np.int64)
    for ri in range(R):
        r = res_idx[ri]
        for p in range(P):
            idx0 = r + st_off[p]
            if idx0 >= G:
                raise ValueError("willpower_choices: a landed roll lies outside the grid")
            for t in range(T):
                choice[t, ri, p] = -1
                cls0 = cls[t, idx0]
                if cls0 < 0:
                    if bad[t] < 0:
                        bad[t] = idx0
                    continue
                best = -1
                if mode == MODE_FAILURES:
                    if wins[cls0] == 0:
                        left = max_reroll
                        k = 0
                        for c in range(C):
                            want[c] = 0
                        for f in range(fail_cats.shape[0]):
                            c = fail_cats[f]
                            take = min(st_avail[p, c], left)
                            want[c] = take
                            left -= take
                            k += take
                        if k > 0:
                            for o in range(O):
                                same = True
                                for c in range(C):
                                    if opt_counts[o, c] != want[c]:
                                        same = False
                                        break
                                if same:
                                    best = o
                                    break
                            if best < 0:
                                raise ValueError("willpower_choices: the failures' reroll is not among the rerolls")
                else:
                    best_ev = values[cls0] * common
                    for o in range(O):
                        fits = True
                        for c in range(C):
                            if opt_counts[o, c] > st_avail[p, c]:
                                fits = False
                                break
                        if not fits:
                            continue
                        base = idx0 - opt_off[o]
                        v = opt_v[o]
                        ev = 0
                        risky = False
                        for j in range(out_n[v]):
                            i = base + out_off[v, j]
                            if i < 0 or i >= G:
                                raise ValueError("willpower_choices: a reroll outcome lies outside the grid")
                            c1 = cls[t, i]
                            if c1 < 0:
                                if bad[t] < 0:
                                    bad[t] = i
                                continue
                            if forbid[c1] == 1 and c1 != cls0:
                                risky = True
                                break
                            ev += values[c1] * out_w[v, j]
                        if not risky and ev > best_ev:
                            best_ev = ev
                            best = o
                choice[t, ri, p] = best


@kernel
def willpower_add(
    res_ways: IntArray,
    res_idx: IntArray,
    st_w: IntArray,
    st_avail: IntArray,
    st_off: IntArray,
    opt_counts: IntArray,
    opt_off: IntArray,
    opt_v: IntArray,
    out_off: IntArray,
    out_w: IntArray,
    out_n: IntArray,
    cls: IntArray,
    succ: IntArray,
    choice: npt.NDArray[np.int32],
    max_reroll: int,
    common: int,
    mod: int,
    class_out: IntArray,
    succ_out: IntArray,
    spent: IntArray,
) -> None:
    """Add the ways of every final roll after the rerolls ``choice`` holds, by class and successes.

    Parameters
    ----------
    res_ways : int64[G]
        Ways of the dice that are never rerolled, over the rule grid
        (:func:`kernels.mechanic.mechanic_walk`, in this arithmetic).
    res_idx, st_avail, st_off, opt_counts, opt_off, opt_v, out_off, out_w, out_n, max_reroll, common
        As for :func:`willpower_choices`.
    st_w : int64[P]
        Ways of each state of the rerollable dice (this arithmetic).
    cls, succ : int64[T, G]
        Per context: the class of each grid cell and its successes shifted
        to ``0 .. succ_out.shape[1] - 1``.
    choice : int32[T, R, P]
        Output of :func:`willpower_choices`.
    mod : int64
        0 for int64 (the caller checked :func:`mechanic_willpower_bound`),
        else a prime below 2**31.
    class_out : int64[T, K]
        Zeroed by the caller; ways by final class.
    succ_out : int64[T, S]
        Zeroed by the caller; ways by final successes (shifted).
    spent : int64[T]
        Zeroed by the caller; ways in which Willpower was spent.

    Over the denominator ``prod(sides ** dice) * common``.  Every buffer is
    checked first, as for :func:`willpower_choices`.
    """
    G = res_ways.shape[0]
    T = cls.shape[0]
    P = st_avail.shape[0]
    O = opt_counts.shape[0]
    K = class_out.shape[1]
    S = succ_out.shape[1]
    R = res_idx.shape[0]
    _check_plan(R, st_avail, st_off, opt_counts, opt_off, opt_v, out_off, out_w, out_n, cls, max_reroll, G)
    if st_w.shape[0] != P or succ.shape[0] != T or succ.shape[1] != G:
        raise ValueError("willpower_add: the weights or success tables do not match")
    if choice.shape[0] != T or choice.shape[1] != R or choice.shape[2] != P:
        raise ValueError("willpower_add: the choice buffer does not match contexts x cells x states")
    if class_out.shape[0] != T or succ_out.shape[0] != T or spent.shape[0] != T:
        raise ValueError("willpower_add: the outputs do not have one row per context")
    for t in range(T):
        for i in range(G):
            if cls[t, i] >= K:
                raise ValueError("willpower_add: a class table names a class that does not exist")
            if succ[t, i] < 0 or succ[t, i] >= S:
                raise ValueError("willpower_add: a success value passes the success buffer")
    for ri in range(R):
        if res_idx[ri] < 0 or res_idx[ri] >= G:
            raise ValueError("willpower_add: a landed cell lies outside the grid")
    for t in range(T):
        for ri in range(R):
            for p in range(P):
                if choice[t, ri, p] < -1 or choice[t, ri, p] >= O:
                    raise ValueError("willpower_add: a choice names a reroll that does not exist")

    full = common % mod if mod > 0 else common
    for ri in range(R):
        r = res_idx[ri]
        wr = res_ways[r]
        for p in range(P):
            w = mulmod(wr, st_w[p], mod)
            if w == 0:
                continue
            idx0 = r + st_off[p]
            if idx0 >= G:
                raise ValueError("willpower_add: a landed roll lies outside the grid")
            for t in range(T):
                best = choice[t, ri, p]
                cls0 = cls[t, idx0]
                if cls0 < 0:
                    continue
                if best < 0:
                    wf = mulmod(w, full, mod)
                    class_out[t, cls0] = addmod(class_out[t, cls0], wf, mod)
                    s0 = succ[t, idx0]
                    succ_out[t, s0] = addmod(succ_out[t, s0], wf, mod)
                    continue
                spent[t] = addmod(spent[t], mulmod(w, full, mod), mod)
                base = idx0 - opt_off[best]
                v = opt_v[best]
                for j in range(out_n[v]):
                    i = base + out_off[v, j]
                    if i < 0 or i >= G:
                        raise ValueError("willpower_add: a reroll outcome lies outside the grid")
                    c1 = cls[t, i]
                    if c1 < 0:
                        continue
                    wj = out_w[v, j] % mod if mod > 0 else out_w[v, j]
                    x = mulmod(w, wj, mod)
                    class_out[t, c1] = addmod(class_out[t, c1], x, mod)
                    s1 = succ[t, i]
                    succ_out[t, s1] = addmod(succ_out[t, s1], x, mod)


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted): an upper bound on every number the kernels
# above hold, for ``analysis.engine.exact.count``.


def landed_ways_bound(
    dice: Iterable[int],
    faces: Sequence[Iterable[int]] | IntArray,
    marks: Sequence[int] | IntArray,
    binom_size: int | None = None,
) -> int:
    """Upper bound on the numbers of a landed roll's count: its ordered rolls and the tables.

    Every cell of the grid and every class or value sum is a number of
    ordered rolls, at most ``prod(sides ** dice)``; a composition's weight
    (a multinomial times face powers) is at most the ordered rolls of its
    kind, and a partial product of it at most that too.  The power and
    binomial tables add their own largest entries.

    Parameters
    ----------
    dice : sequence of int
        Dice of each kind.
    faces : int64[K, M]
        Faces of each kind carrying each mark (``m < marks[k]``).
    marks : int64[K]
        Number of marks of each kind.
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


def mechanic_willpower_bound(
    dice: Iterable[int],
    faces: Sequence[Iterable[int]] | IntArray,
    marks: Sequence[int] | IntArray,
    common: int,
    values: Iterable[int],
    binom_size: int | None = None,
) -> int:
    """Upper bound on every number :func:`willpower_choices`, :func:`willpower_add` and
    :func:`composition_weights` hold.

    Parameters
    ----------
    dice, faces, marks
        The pool as for :func:`landed_ways_bound` (every kind, the
        rerollable ones included).
    common : int
        The common denominator ``L`` of every reroll.
    values : sequence of int
        The integer class values a decision weighs.
    binom_size : int, optional
        Rows of the binomial table.

    Returns
    -------
    int
        The ways of the landed roll times ``L`` (every way of the roll and
        of its reroll, the largest accumulated count), or the table bounds.

    Raises
    ------
    ValueError
        If an expected value (``|value| * L`` at most, summed over outcomes
        whose ways add up to ``L``) would not fit in int64: decisions are
        compared exactly and never reduced modulo a prime, so the exact path
        cannot help.
    """
    common = int(common)
    top = max([1] + [abs(int(v)) for v in values])
    if top * common > 2**63 - 1:
        raise ValueError(
            f"a Willpower reroll over {common} equally likely outcomes, with outcome values as "
            f"large as {top}, is too big to weigh exactly; use fewer dice or simpler values"
        )
    landed = landed_ways_bound(dice, faces, marks, binom_size)
    return max(landed * common, top * common, common)
