"""One Willpower engine for every mechanic: exact odds after a strategy's reroll.

A mechanic file with a ``[willpower]`` table (:mod:`analysis.model.spec`)
lets the player, once, after seeing the dice, reroll up to ``dice`` dice of
the kinds it lists, each showing one of its ``marks``; a rerolled die keeps
its kind.  For every way the dice can land, the strategy picks the reroll,
and every way the rerolled dice can fall is counted: exact odds, never
simulated.

Strategies (``none``, ``reroll_failures``, ``maximize_win``, or values of
the final classes) are :class:`Strategy` (:mod:`analysis.engine.strategy`).

Ties between rerolls of equal value go to no reroll (Willpower is kept),
then to fewer dice, then to the order of the categories (the
``[willpower]`` kinds in their order, within a kind its ``marks`` in their
order: failures before successes before 10s), taking most of the first
category first.  Expectations are compared exactly in integers, never in
floats.

How it counts: the dice that are never rerolled are folded into the
engine's statistics grid (:func:`kernels.mechanic.mechanic_walk`); the
rerollable kinds are kept as category-count vectors (one count per
rerollable mark: the extra statistics a reroll needs) weighted by
multinomials; :func:`kernels.mechanic_willpower.willpower_choices`
decides once, and :func:`kernels.mechanic_willpower.willpower_add` adds
the ways of every reroll outcome in each arithmetic of the exact path.
The work (landed rolls x reroll outcomes x contexts) is estimated first (an
upper estimate: every reroll weighed in full for every landed roll) and
refused beyond :data:`MAX_WORK` for one pool, :data:`MAX_TABLE_WORK` for a
whole table.

This module is the Willpower engine's public face (:func:`odds`,
:func:`table`, :func:`count_cells`, :func:`check_work`, :func:`work`) and
does the counting: the plan of each pool, with every limit checked, and its
count.  The strategies are in :mod:`analysis.engine.strategy`, the kernel
call of one pool in :mod:`analysis.engine.willpower_call`; their names stay
importable from here.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm
from typing import Iterator, Literal, Mapping, Sequence, cast, overload

import numpy as np
import pandas as pd

from analysis.engine import seam
from analysis.engine.at_least import ways_at_least
from analysis.engine.exact import INT64_MAX, count, ratios
from analysis.model.validate import check_bool

from analysis.engine import count as _engine
from analysis.engine.results import CellWays
from analysis.engine.count import Context, Faces, MechanicOdds, MechanicRules
from analysis.model.spec import Mechanic, MechanicError, Willpower
from analysis.engine.strategy import (
    NAMES as NAMES,
    STRATEGIES as STRATEGIES,
    Strategy as Strategy,
    strategy_of as strategy_of,
    willpower_of as _willpower_of,
)
from analysis.engine.willpower_call import Call as _Call, Plan as _Plan, PlanKind as _Kind

#: Most steps (landed rolls x reroll outcomes weighed x contexts) one pool
#: may take; more is refused, with the estimate, before any work.
MAX_WORK = 2_000_000_000
#: Most steps of one call over many cells (a table): the sum over its pools.
MAX_TABLE_WORK = 20_000_000_000
#: Most rerolls a strategy may weigh for one roll (the options themselves).
MAX_OPTIONS = 200_000
#: Most decisions kept at once (landed rolls x contexts of one pool, 4 bytes each).
MAX_CHOICES = 25_000_000


# ------------------------------------------------------------------ the plan of one pool


def _compositions_count(n: int, parts: int) -> int:
    return comb(n + parts - 1, parts - 1) if parts > 0 else int(n == 0)


def _descending(counts_cap: list[int], k: int) -> Iterator[tuple[int, ...]]:
    """Vectors ``x`` with ``x[i] <= counts_cap[i]`` summing to ``k``, in lexicographic descending order."""
    if not counts_cap:
        if k == 0:
            yield ()
        return
    first, rest = counts_cap[0], counts_cap[1:]
    room = sum(rest)
    for x in range(min(first, k), -1, -1):
        if k - x > room:
            break
        for tail in _descending(rest, k - x):
            yield (x,) + tail


@overload
def _plan(
    rules: MechanicRules,
    strategy: Strategy,
    dice: tuple[int, ...],
    faces: Faces,
    n_contexts: int,
    wp_dice: int,
    estimate: Literal[False] = False,
) -> _Plan: ...
@overload
def _plan(
    rules: MechanicRules,
    strategy: Strategy,
    dice: tuple[int, ...],
    faces: Faces,
    n_contexts: int,
    wp_dice: int,
    estimate: Literal[True],
) -> int: ...
def _plan(
    rules: MechanicRules,
    strategy: Strategy,
    dice: tuple[int, ...],
    faces: Faces,
    n_contexts: int,
    wp_dice: int,
    estimate: bool = False,
) -> _Plan | int:
    """The plan of one pool's kernel calls; ``estimate=True``: only its steps per context (an int), every
    limit checked, nothing that grows with the pool built.  ``wp_dice``: the most dice the reroll takes
    there (the ``[willpower]`` dice, in this pool)."""
    mech = rules.mechanic
    wp = cast(Willpower, mech.willpower)  # the callers checked it (_willpower_of)
    stats = _engine.statistics(mech)
    index = {k.name: i for i, k in enumerate(mech.kinds)}
    # a die rerolled as another kind counts towards that kind's statistics: their axes hold those dice too
    dice_max = list(dice)
    for kname, target in wp.becomes:
        dice_max[index[target]] += min(wp_dice, dice[index[kname]])
    layout = _engine.layout(mech, stats, faces, tuple(dice_max))
    faces_arr, marks_arr, contrib, shape, strides = layout
    grid = int(np.prod(shape))
    where = " + ".join(f"{n} {k.name}" for n, k in zip(dice, mech.kinds)) + " dice"
    if grid > _engine.MAX_GRID:
        raise MechanicError(
            f"{mech.origin}: {sum(dice)} dice make {grid:,} count states "
            f"(limit {_engine.MAX_GRID:,} for the general engine); ask for a smaller pool"
        )

    def step(ki: int, mi: int) -> int:
        return sum(int(strides[s]) for s in range(len(stats.names)) if (ki, mi) in stats.members[s])

    allowed = set(strategy.kinds) if strategy.kinds is not None else set(wp.kinds)
    kinds: list[_Kind] = []
    # cats: (kind slot, faces, step, failure?, allowed?) of the rerollable categories
    cats: list[tuple[int, int, int, bool, bool]] = []
    outcome_groups: list[tuple[tuple[int, int], ...]] = []
    for slot, kname in enumerate(wp.kinds):
        ki = index[kname]
        kind = mech.kinds[ki]
        cat_row: list[tuple[int, int, int]] = []
        other: dict[int, int] = {}
        for mark in wp.marks:
            if mark in kind.marks:
                mi = kind.marks.index(mark)
                if faces[ki][mi] > 0:
                    cat_row.append((faces[ki][mi], step(ki, mi), len(cats)))
                    cats.append(
                        (slot, faces[ki][mi], step(ki, mi), mark in wp.failures and kname in allowed, kname in allowed)
                    )
        for mi, mark in enumerate(kind.marks):
            if mark not in wp.marks and faces[ki][mi] > 0:
                s = step(ki, mi)
                other[s] = other.get(s, 0) + faces[ki][mi]
        cat_row += [(f, s, -1) for s, f in other.items()]
        # a rerolled die lands as a die of the kind it becomes (its own, unless the file says otherwise)
        ti = index[wp.becomes_kind(kname)]
        by_step: dict[int, int] = {}
        for mi in range(len(mech.kinds[ti].marks)):
            if faces[ti][mi] > 0:
                s = step(ti, mi)
                by_step[s] = by_step.get(s, 0) + faces[ti][mi]
        outcome_groups.append(tuple(by_step.items()))
        kinds.append((ki, dice[ki], tuple(cat_row), mech.kinds[ti].sides))
    rerollable = {ki for ki, *_ in kinds}
    res_dice = np.array([0 if ki in rerollable else n for ki, n in enumerate(dice)], dtype=np.int64)

    # the rerolls a strategy may weigh, in tie order
    usable = [c for c in range(len(cats)) if cats[c][4]]
    cap_kind = {slot: kinds[slot][1] for slot in range(len(kinds))}
    top = min(wp_dice, sum(cap_kind[cats[c][0]] for c in usable)) if strategy.mode != "keep" else 0
    n_options = sum(comb(len(usable) + k - 1, k) for k in range(1, top + 1))
    if n_options > MAX_OPTIONS:
        raise MechanicError(
            f"{mech.origin}: a Willpower reroll of up to {top} dice over {len(usable)} kinds of "
            f"rerollable dice has {n_options:,} choices at {where} (limit {MAX_OPTIONS:,}); "
            f"use fewer Willpower dice"
        )
    options = []
    for k in range(1, top + 1):
        for vec in _descending([min(k, cap_kind[cats[c][0]]) for c in usable], k):
            per_kind = [0] * len(kinds)
            for c, x in zip(usable, vec):
                per_kind[cats[c][0]] += x
            if all(per_kind[s] <= cap_kind[s] for s in range(len(kinds))):
                taken = [0] * len(cats)
                for c, x in zip(usable, vec):
                    taken[c] = x
                options.append((tuple(taken), tuple(per_kind)))
    vs = sorted({pk for _, pk in options}, key=lambda pk: (sum(pk), tuple(-x for x in pk)))
    common = 1
    for pk in vs:
        den = 1
        for slot, n in enumerate(pk):
            den *= kinds[slot][3] ** n
        common = lcm(common, den)
    if common > INT64_MAX:  # each reroll outcome's weight is a whole number over this one denominator
        raise MechanicError(
            f"{mech.origin}: a Willpower reroll of up to {top} dice at {where} has {common:,} equally likely "
            f"landings, more than the planner weighs exactly ({INT64_MAX:,}); use fewer Willpower dice"
        )

    # work, before building anything that grows with the pool
    n_res = 1
    for ki, n in enumerate(res_dice.tolist()):
        n_res *= _compositions_count(n, int(marks_arr[ki]))
    n_res = min(n_res, grid)
    n_states = 1
    for _, n, row, _ in kinds:
        n_states *= _compositions_count(n, len(row))
    n_out = {pk: int(np.prod([_compositions_count(n, len(outcome_groups[s])) for s, n in enumerate(pk)])) for pk in vs}
    if strategy.mode == "best":
        per = sum(len(cats) + n_out[pk] for _, pk in options)
    else:
        per = len(options) * max(len(cats), 1) + max(n_out.values(), default=0)
    steps = n_res * n_states * (per + 1)
    work = steps * n_contexts
    if n_res * n_states * n_contexts > MAX_CHOICES:
        raise MechanicError(
            f"{mech.origin}: the Willpower reroll at {where} would decide for about "
            f"{n_res * n_states * n_contexts:,} landed rolls x contexts, over the limit of "
            f"{MAX_CHOICES:,}; ask for a smaller pool or fewer cells"
        )
    if work > MAX_WORK:
        raise MechanicError(
            f"{mech.origin}: the Willpower reroll at {where} would take about {work:,} steps "
            f"({n_res * n_states:,} landed rolls x {per + 1:,} reroll outcomes weighed x "
            f"{n_contexts} contexts), over the limit of {MAX_WORK:,}; ask for a smaller pool, "
            f"fewer cells or fewer Willpower dice"
        )
    if estimate:
        return steps

    # the grid cells the dice never rerolled reach (each with ways: every face count is positive)
    _kw = seam.mechanic_willpower

    reach = np.zeros(1, dtype=np.int64)
    for ki, n in enumerate(res_dice.tolist()):
        if n == 0:
            continue
        m = int(marks_arr[ki])
        present = [g for g in range(m) if faces_arr[ki, g] > 0]
        steps_k = np.array(
            [int(contrib[ki, g, : len(strides)] @ strides) if len(stats.names) else 0 for g in present], dtype=np.int64
        )
        comp_rows = np.zeros((_compositions_count(n, len(present)), len(present)), dtype=np.int64)
        _kw.fill_compositions(n, len(present), comp_rows)
        reach = np.unique(np.add.outer(reach, comp_rows @ steps_k).ravel())
    res_idx = np.ascontiguousarray(reach, dtype=np.int64)

    # the outcomes of each count of rerolled dice per kind, merged by offset
    out_rows = []
    for pk in vs:
        joint = {0: 1}
        den = 1
        for slot, n in enumerate(pk):
            if n == 0:
                continue
            den *= kinds[slot][3] ** n
            groups = outcome_groups[slot]
            nxt: dict[int, int] = {}
            for comp in _all_compositions(n, len(groups)):
                w, left, off = 1, n, 0
                for (s, f), x in zip(groups, comp):
                    w *= comb(left, x) * f**x
                    left -= x
                    off += x * s
                for o0, w0 in joint.items():
                    nxt[o0 + off] = nxt.get(o0 + off, 0) + w0 * w
            joint = nxt
        scale = common // den
        out_rows.append(sorted((o, w * scale) for o, w in joint.items() if w))
    width = max([len(r) for r in out_rows] + [1])
    out_off = np.zeros((len(vs), width), dtype=np.int64)
    out_w = np.zeros((len(vs), width), dtype=np.int64)
    out_n = np.zeros(len(vs), dtype=np.int64)
    for v, outs in enumerate(out_rows):
        out_n[v] = len(outs)
        for j, (o, w) in enumerate(outs):
            out_off[v, j] = o
            out_w[v, j] = w
    v_index = {pk: v for v, pk in enumerate(vs)}
    n_cats = max(len(cats), 1)
    opt_counts = np.zeros((len(options), n_cats), dtype=np.int64)
    opt_off = np.zeros(len(options), dtype=np.int64)
    opt_v = np.zeros(len(options), dtype=np.int64)
    for o, (full, pk) in enumerate(options):
        opt_counts[o, : len(full)] = full
        opt_off[o] = sum(x * cats[c][2] for c, x in enumerate(full))
        opt_v[o] = v_index[pk]
    fail_cats = np.array([c for c in range(len(cats)) if cats[c][3]], dtype=np.int64)

    # the states of the rerollable dice: every composition of each kind, combined
    comps = []
    for _, n, row, _ in kinds:
        q = _compositions_count(n, len(row))
        out = np.zeros((q, len(row)), dtype=np.int64)
        _kw.fill_compositions(n, len(row), out)
        comps.append(out)
    sizes = [len(c) for c in comps]
    st_index = (
        np.indices(sizes).reshape(len(sizes), -1).T.astype(np.int64) if sizes else np.zeros((1, 0), dtype=np.int64)
    )
    st_avail = np.zeros((len(st_index), n_cats), dtype=np.int64)
    st_off = np.zeros(len(st_index), dtype=np.int64)
    for slot, (_, _, row, _) in enumerate(kinds):
        chosen = comps[slot][st_index[:, slot]]
        for m, (_, s, c) in enumerate(row):
            st_off += chosen[:, m] * s
            if c >= 0:
                st_avail[:, c] = chosen[:, m]
    return _Plan(
        layout,
        res_dice,
        res_idx,
        tuple(kinds),
        tuple(comps),
        st_index,
        st_avail,
        st_off,
        opt_counts,
        opt_off,
        opt_v,
        out_off,
        out_w,
        out_n,
        fail_cats,
        common,
        steps,
    )


def _all_compositions(n: int, parts: int) -> Iterator[tuple[int, ...]]:
    for cut in itertools.combinations(range(n + parts - 1), parts - 1):
        prev, out = -1, []
        for x in cut + (n + parts - 1,):
            out.append(x - prev - 1)
            prev = x
        yield tuple(out)


# ------------------------------------------------------------------ counting


#: The cells of each pool: ``{(dice, faces, Willpower dice): [(cell index, context)]}`` (:func:`_groups`).
_Groups = dict[tuple[tuple[int, ...], Faces, int], list[tuple[int, Context]]]


def _groups(rules: MechanicRules, cells: Sequence[Mapping[str, int]]) -> _Groups:
    """``{(dice, faces, Willpower dice): [(cell index, context)]}``: the cells of each pool (and number of
    Willpower dice, where the file says it with an expression), and what the rules read of them."""
    mech = rules.mechanic
    stats = _engine.statistics(mech)
    params = rules.params
    wp = _willpower_of(mech)
    read = _engine.pool_axes(mech)
    if not isinstance(wp.dice, int):
        read += tuple(a for a in mech.axis_names if a in wp.dice.names and a not in read)
    groups: _Groups = {}
    known: dict[tuple[int, ...], tuple[tuple[int, ...], Faces, int]] = {}
    for i, cell in enumerate(cells):
        env = {**params, **cell}
        at = tuple(cell[a] for a in read)
        key = known.get(at)
        if key is None:
            key = known[at] = (_engine.dice_of(mech, env), _engine.faces_of(mech, env), wp.dice_at(env, mech.origin))
        groups.setdefault(key, []).append((i, _engine.context_of(stats, env)))
    return groups


def _rerolling(mech: Mechanic, strategy: str | Strategy | None) -> Strategy | None:
    """The strategy, checked against the mechanic's Willpower table, or None where it rerolls nothing."""
    strategy = strategy_of(strategy)
    _willpower_of(mech)
    strategy.check(mech)
    return None if strategy.keep else strategy


def check_work(
    rules: MechanicRules,
    strategy: str | Strategy | None,
    cells: Sequence[Mapping[str, int]],
    groups: _Groups | None = None,
) -> int:
    """The estimated steps of counting ``cells`` after ``strategy``, each pool's estimated from its sizes alone
    (nothing that grows with the pool is built): a pool past :data:`MAX_WORK` (or the engine's other limits),
    or a total past :data:`MAX_TABLE_WORK`, is refused with the estimate before any counting."""
    mech = rules.mechanic
    strategy = _rerolling(mech, strategy)
    if strategy is None:
        return 0
    total = 0
    for (dice, faces, wp_dice), members in (_groups(rules, cells) if groups is None else groups).items():
        n_contexts = len(dict.fromkeys(c for _, c in members))
        total += _steps_cached(rules, strategy, dice, faces, n_contexts, wp_dice) * n_contexts
    if total > MAX_TABLE_WORK:
        raise MechanicError(
            f"{mech.origin}: the Willpower reroll over these {len(cells):,} cells would take "
            f"about {total:,} steps, over the limit of {MAX_TABLE_WORK:,}; ask for fewer cells"
        )
    return total


def count_cells(
    rules: MechanicRules, strategy: str | Strategy | None, cells: Sequence[Mapping[str, int]]
) -> list[CellWays]:
    """Exact :class:`CellWays` after ``strategy`` for each cell (a dict of axis values), each pool counted once.

    The work is estimated (:func:`check_work`) before any pool is counted."""
    mech = rules.mechanic
    strategy = strategy_of(strategy)
    _willpower_of(mech)
    strategy.check(mech)
    if strategy.keep:
        return [
            CellWays(w.class_ways, w.success_ways, w.denominator, w.dice) for w in _engine.count_cells(rules, cells)
        ]
    stats = _engine.statistics(mech)
    params = rules.params
    groups = _groups(rules, cells)
    check_work(rules, strategy, cells, groups)
    plans: dict[tuple[tuple[int, ...], Faces, int], _Plan] = {}
    for (dice, faces, wp_dice), members in groups.items():
        contexts = list(dict.fromkeys(c for _, c in members))
        plans[(dice, faces, wp_dice)] = _plan_cached(rules, strategy, dice, faces, len(contexts), wp_dice)
    out: list[CellWays | None] = [None] * len(cells)
    for (dice, faces, wp_dice), members in groups.items():
        plan = plans[(dice, faces, wp_dice)]
        contexts = list(dict.fromkeys(c for _, c in members))
        call = _Call(rules, strategy, plan, dice, contexts)
        flat = count(call.compute, call.bound())
        bad, tables, shape = call.bad, call.tables, plan.layout[3]
        n_classes, n_vals, has_succ = len(mech.classes), call.n_vals, mech.successes is not None
        for t, b in enumerate(bad):
            if b >= 0:
                where = _engine.where(mech, {**params, **dict(contexts[t])})
                raise MechanicError(
                    f"{mech.origin}: no outcome rule matches the roll with "
                    f"{_engine.state_text(mech, stats, shape, int(b))} ({where}); add a last "
                    f"[[outcomes]] rule without 'when' to catch the rest"
                )
        T = len(contexts)
        by_class = flat[: T * n_classes].reshape(T, n_classes)
        hist = flat[T * n_classes : T * (n_classes + n_vals)].reshape(T, n_vals)
        spent = flat[T * (n_classes + n_vals) :]
        den = plan.common
        for k, n in zip(mech.kinds, dice):
            den *= k.sides**n
        for i, c in members:
            t = contexts.index(c)
            succ_ways: dict[int, int] = {}
            if has_succ:
                known = tables[t][2].tolist()
                succ_ways = {known[v]: int(w) for v, w in enumerate(hist[t].tolist()) if w}
            out[i] = CellWays(tuple(int(w) for w in by_class[t].tolist()), succ_ways, den, dice, spent=int(spent[t]))
    return cast("list[CellWays]", out)  # every cell is in one group


def kernel_call(rules: MechanicRules, strategy: str | Strategy | None, **cell: object) -> _Call:
    """The kernel calls of one cell (for tests and benchmarks: ``call.choice_arguments()``,
    ``call.add_arguments(mod)``, ``call.bound()``)."""
    mech = rules.mechanic
    strategy = strategy_of(strategy)
    _willpower_of(mech)
    strategy.check(mech)
    values = _engine.check_cell(mech, cell)
    env = {**rules.params, **values}
    dice, faces = _engine.dice_of(mech, env), _engine.faces_of(mech, env)
    plan = _plan_cached(rules, strategy, dice, faces, 1, _willpower_of(mech).dice_at(env, mech.origin))
    return _Call(rules, strategy, plan, dice, [_engine.context_of(_engine.statistics(mech), env)])


@lru_cache(maxsize=256)
def _plan_cached(
    rules: MechanicRules, strategy: Strategy, dice: tuple[int, ...], faces: Faces, n_contexts: int, wp_dice: int
) -> _Plan:
    return _plan(rules, strategy, dice, faces, n_contexts, wp_dice)


@lru_cache(maxsize=4096)
def _steps_cached(
    rules: MechanicRules, strategy: Strategy, dice: tuple[int, ...], faces: Faces, n_contexts: int, wp_dice: int
) -> int:
    return _plan(rules, strategy, dice, faces, n_contexts, wp_dice, estimate=True)


def work(rules: MechanicRules, strategy: str | Strategy | None, **cell: object) -> int:
    """The estimated steps of counting one cell after ``strategy`` (refused beyond :data:`MAX_WORK`)."""
    mech = rules.mechanic
    strategy = _rerolling(mech, strategy)
    if strategy is None:
        return 0
    values = _engine.check_cell(mech, cell)
    env = {**rules.params, **values}
    dice, faces = _engine.dice_of(mech, env), _engine.faces_of(mech, env)
    return _plan_cached(rules, strategy, dice, faces, 1, _willpower_of(mech).dice_at(env, mech.origin)).steps


# ------------------------------------------------------------------ results


#: The odds of a cell after a Willpower strategy: the engine's one answer for a cell,
#: :class:`~analysis.engine.results.MechanicOdds` (its ``strategy`` and ``willpower_spent``).
WillpowerOdds = MechanicOdds


def odds(rules: MechanicRules, strategy: str | Strategy | None = "maximize_win", **cell: object) -> WillpowerOdds:
    """Exact odds of one cell after a Willpower strategy.

    For example ``odds(rules, "maximize_win", pool=7, hunger=2, difficulty=3)``.

    ``strategy`` is a name (``none``, ``reroll_failures``, ``maximize_win``)
    or a :class:`Strategy`.
    """
    mech = rules.mechanic
    strategy = strategy_of(strategy)
    values = _engine.check_cell(mech, cell)
    (ways,) = count_cells(rules, strategy, [values])
    return MechanicOdds.of(rules, values, ways, strategy.name)


def table(
    rules: MechanicRules,
    strategy: str | Strategy | None = "maximize_win",
    exact: bool = False,
    at_least: object = None,
    **axes: object,
) -> pd.DataFrame:
    """A tidy odds table after a Willpower strategy: one row per cell.

    Columns: the axes, the classes and ``p_`` columns (after the reroll),
    ``willpower_spent`` (the chance the strategy rerolls) and ``p_win_gain``
    (exact ``p_win`` minus ``p_win`` without Willpower), then the
    ``p_at_least_N`` columns asked for.  ``exact=True`` gives Fractions,
    else floats equal to ``float(Fraction)``.  Axes as for
    :func:`analysis.engine.count.table`.
    """
    exact = check_bool("exact", exact)
    mech = rules.mechanic
    strategy = strategy_of(strategy)
    grid, cells, tops = _engine.resolve_grid(mech, axes, at_least)
    after = count_cells(rules, strategy, cells)
    before: Sequence[CellWays] = after if strategy.keep else _engine.count_cells(rules, cells)
    index = {c: i for i, c in enumerate(mech.classes)}
    wins = [index[c] for c in mech.win_classes]
    cols = {a: np.array([c[a] for c in cells], dtype=np.int64) for a in grid}
    names = list(mech.classes) + [c.name for c in mech.columns] + ["willpower_spent"]
    rows = []
    for w in after:
        row = list(w.class_ways)
        row += [sum(w.class_ways[index[c]] for c in col.classes) for col in mech.columns]
        rows.append(row + [w.spent])
    num = np.array(rows, dtype=object).reshape(len(cells), len(names))
    den = np.array([w.denominator for w in after], dtype=object)[:, None]
    values = ratios(num, den, exact)
    for j, n in enumerate(names):
        cols[n] = values[:, j]
    gain = [
        Fraction(sum(a.class_ways[i] for i in wins), a.denominator)
        - Fraction(sum(b.class_ways[i] for i in wins), b.denominator)
        for a, b in zip(after, before)
    ]
    cols["p_win_gain"] = np.array(gain if exact else [float(g) for g in gain], dtype=object if exact else float)
    if tops:
        num = np.array([ways_at_least(w.success_ways, tops) for w in after], dtype=object).reshape(
            len(cells), len(tops)
        )
        values = ratios(num, den, exact)
        for j, top in enumerate(tops):
            cols[f"p_at_least_{top}"] = values[:, j]
    return pd.DataFrame(cols)
