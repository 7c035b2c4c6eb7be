"""Dice that roll again or are rote: one die's whole chain as one step of the engine's walk, exactly.

A kind's ``again`` marks roll again: a die showing one counts its mark and
a die of the named kind is rolled too (the same kind by default), whose own
``again`` marks roll again in turn, without end.  A kind's ``rote`` marks
(where ``rote_applies`` holds) are rolled once more: a die of the kind's
``dice`` showing one is rolled again as a die of the named kind, the new
face replacing the first (dice rolled again are never rote).

The engine (:mod:`analysis.engine.count`) adds dice to a grid of
statistics, each axis saturating at its last cell.  One die of such a kind
moves a cell by the sum of its chain's marks, so the die's step is the
exact distribution of that sum on the saturating axes (:func:`die_steps`):
a finite Markov chain over (kind to roll, sum so far), solved exactly in
Fractions, whose denominators become the die's "sides".  A statistic that
a chain can raise without end (:func:`open_statistics`) has no last value:
its axis ends at a bound ``T`` standing for "``T`` or more", and the grid's
cells there are counted exactly but read only where every rule is decided
for every value from ``T`` up (:func:`undecided`, by intervals:
:meth:`analysis.model.expr.Expr.decide`).  The engine raises ``T`` until
they are, or refuses naming the rule.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import TYPE_CHECKING, Any, Mapping, Sequence, cast


from analysis.model.spec import Faces, Mechanic, MechanicError, faces_of
from analysis.engine.stats import fold

if TYPE_CHECKING:
    from analysis.model.expr import Expr
    from analysis.engine.stats import Stats

#: Most distinct sums one die's chain may make on the grid (each becomes one step of the walk).
MAX_STEPS = 20_000
#: Most boxes of cells at the bound checked for each context to prove the rules decided there.
MAX_BOXES = 1_000_000


def _index(mech: Mechanic) -> dict[str, int]:
    """Each kind's position, by name."""
    return {k.name: i for i, k in enumerate(mech.kinds)}


def _rolled_again(mech: Mechanic) -> list[set[int]]:
    """Per kind, the kinds its again marks roll."""
    index = _index(mech)
    return [{index[t] for _, t in k.again} for k in mech.kinds]


def _closure(starts, nxt: Sequence[set[int]]) -> set[int]:
    """``starts`` and every kind the again marks of those kinds roll, in turn."""
    out: set[int] = set()
    todo = list(starts)
    while todo:
        i = todo.pop()
        if i not in out:
            out.add(i)
            todo.extend(nxt[i])
    return out


def chain_kinds(mech: Mechanic) -> frozenset[int]:
    """Indices of the kinds a die may roll again and again: those with ``again`` marks and every kind
    an again mark names (directly or through others)."""
    return frozenset(_closure((i for i, k in enumerate(mech.kinds) if k.again), _rolled_again(mech)))


def recurrent_kinds(mech: Mechanic) -> frozenset[int]:
    """Indices of the kinds one die's chain may roll more than once: on a cycle of again marks, or
    rolled again by such a kind (in turn)."""
    nxt = _rolled_again(mech)
    after = [_closure(nxt[i], nxt) for i in range(len(mech.kinds))]  # the kinds a die of each rolls next
    cyclic = {i for i in range(len(mech.kinds)) if i in after[i]}
    return frozenset(cyclic | {j for i in cyclic for j in after[i]})


def open_statistics(mech: Mechanic, stats: Stats) -> tuple[bool, ...]:
    """Per statistic, whether a chain of dice rolled again can raise it without end: it counts a mark
    that rolls again on a kind a chain may roll more than once (:func:`recurrent_kinds`).  Every other
    mark is shown at most once per die: a die's chain visits every other kind at most once, and ends
    on one face that does not roll again."""
    again = [dict(k.again) for k in mech.kinds]
    recurrent = recurrent_kinds(mech)
    return tuple(
        any(k in recurrent and mech.kinds[k].marks[m] in again[k] for k, m in members) for members in stats.members
    )


def first_rolls(
    mech: Mechanic, stats: Stats, params: Mapping[str, Any], free: Sequence[bool]
) -> tuple[int, ...] | None:
    """Per kind, the rolls of one of its dice before any roll again (2 where it is rote, else 1), where
    every count of the grid is proven a whole number over ``base ** E`` (``base`` a multiple of every
    kind's faces, ``E`` these rolls over the pool's dice plus every axis's last value); None where not.

    Read a roll's dice in turn, each die's first rolls, then its chain, a roll again read only where
    what it may raise (every statistic the kinds it rolls in turn count) is not all at its axis's
    last cell: the cell the roll lands in is known from those rolls.  Each roll again read follows a
    mark that raised some statistic still below its last cell, and so is paid for by that statistic
    (at most its last value in all), when either the mark raises a statistic whose axis holds every
    value the dice can make (``free``: neither capped nor held at the bound; it is below its last value
    until every die has counted on it), or the mark raises every statistic the dice rolled after it
    count.  Every cell's chance is then a sum of chances of at most ``E`` rolls, a whole number over
    ``base ** E``: the counts need primes for ``base ** E``, not for the chains' own denominators
    (:mod:`analysis.engine.count`).
    """
    index = _index(mech)
    nxt = _rolled_again(mech)
    for ki, k in enumerate(mech.kinds):
        for m, t in k.again:
            mi = k.marks.index(m)
            raised = {s for s in range(len(stats.names)) if stats.weight(s, (ki, mi)) >= 1}
            if any(free[s] for s in raised):
                continue
            after = _closure([index[t]], nxt)
            counted = {s for s, members in enumerate(stats.members) if any(kj in after for kj, _ in members)}
            if not counted <= raised:
                return None
    return tuple(2 if k.rote_on(params) else 1 for k in mech.kinds)


def unbounded(mech: Mechanic, stats: Stats) -> set[str]:
    """The statistics that chains raise without end and no cap holds (each an axis up to the bound)."""
    caps = stats.caps or (None,) * len(stats.names)
    return {n for n, o, c in zip(stats.names, open_statistics(mech, stats), caps) if o and c is None}


def region_reads_unbounded(mech: Mechanic, stats: Stats) -> bool:
    """Whether a grid's region reads (through counts too) a statistic of :func:`unbounded` (no region:
    False)."""
    if stats.region is None:
        return False
    opened = unbounded(mech, stats)
    counts = dict(stats.counts)
    seen: set[str] = set()
    todo = list(stats.region.names)
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            if n in counts:
                todo.extend(counts[n].names)
    return bool(seen & opened)


def reach(mech: Mechanic, params: Mapping[str, Any], k: int) -> tuple[int, ...]:
    """The kinds whose faces one die of kind ``k``'s ``dice`` may show: itself, its rote kinds, and
    every kind their again marks roll (in turn)."""
    index = _index(mech)
    return tuple(sorted(_closure([k, *(index[t] for _, t in mech.kinds[k].rote_on(params))], _rolled_again(mech))))


def check_faces(mech: Mechanic, faces: Faces, params: Mapping[str, Any], where: str) -> None:
    """Refuse a layout whose chains may never end: every kind a chain can reach must lead, through its
    again marks, to a face that does not roll again."""
    index = _index(mech)
    stops = {
        i for i, k in enumerate(mech.kinds) if any(n and m not in dict(k.again) for m, n in zip(k.marks, faces[i]))
    }
    grew = True
    while grew:
        grew = False
        for i, k in enumerate(mech.kinds):
            if i not in stops and any(faces[i][k.marks.index(m)] and index[t] in stops for m, t in k.again):
                stops.add(i)
                grew = True
    for i in sorted(chain_kinds(mech) - stops):
        raise MechanicError(
            f"{mech.origin}: kind {mech.kinds[i].name!r} rolls again on every face its chain can show "
            f"({where}): its dice would never stop"
        )


def die_steps(
    mech: Mechanic,
    stats: Stats,
    faces: Faces,
    params: Mapping[str, Any],
    tops: Sequence[int],
    k: int,
) -> tuple[list[tuple[int, ...]], list[int]]:
    """The exact step of one die of kind ``k``'s ``dice`` on the grid (:func:`_die_steps`), worked out once
    per grid: the calls of a sweep that differ only in their dice share it, and so do grids that differ only
    along statistics the die's chain never adds to (where it stays at 0 whatever the axis's last cell)."""
    shown = reach(mech, params, k)
    held = tuple(
        int(t) if any(stats.weight(s, (i, m)) for i in shown for m in range(len(faces[i])) if faces[i][m]) else 0
        for s, t in enumerate(tops)
    )
    sums, weights = _die_steps(mech, stats, faces, tuple(sorted(params.items())), held, k)
    return list(sums), list(weights)


@lru_cache(maxsize=256)
def _die_steps(
    mech: Mechanic,
    stats: Stats,
    faces: Faces,
    params_items: tuple[tuple[str, Any], ...],
    tops: tuple[int, ...],
    k: int,
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The exact step of one die of kind ``k``'s ``dice`` on the grid: ``(sums, weights)``.

    ``sums[j]`` is a vector of statistics (each held at ``tops``, the axis's last cell) and
    ``weights[j]`` the ways of it over ``sum(weights)`` (Python ints: the lowest common denominator
    of the exact chances).  The die's rote reroll, its again chain and every kind the chain rolls
    are followed: pending dice are taken sum by sum in increasing order (a mark never lowers a
    statistic), and where marks that roll again leave the sum unchanged (a statistic held at its
    last cell, or read by no rule) the dice pending at one sum solve a small linear system.
    """
    params = dict(params_items)
    kinds = mech.kinds
    index = _index(mech)
    n_stats = len(stats.names)
    top = tops

    def moves(i: int) -> list[tuple[str, Fraction, tuple[int, ...], int | None]]:
        """(mark, chance, contribution, kind rolled next or None) for each mark of a die of kind ``i``."""
        kind = kinds[i]
        again = dict(kind.again)
        sides = sum(faces[i])
        out = []
        for mi, m in enumerate(kind.marks):
            if faces[i][mi]:
                c = tuple(stats.weight(s, (i, mi)) for s in range(n_stats))
                out.append((m, Fraction(faces[i][mi], sides), c, index[again[m]] if m in again else None))
        return out

    table = {i: moves(i) for i in range(len(kinds))}
    zero = tuple(0 for _ in range(n_stats))

    def step(v: tuple[int, ...], c: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(min(a + b, t) for a, b, t in zip(v, c, top))

    pending: dict[tuple[int, ...], dict[int, Fraction]] = {}
    final: dict[tuple[int, ...], Fraction] = {}

    def add(where: dict, key, value: Fraction) -> None:
        where[key] = where.get(key, Fraction(0)) + value

    # the first face: a rote mark rolls a fresh die of its kind instead of counting
    rote = {m: index[t] for m, t in kinds[k].rote_on(params)}
    for m, p, c, nxt in table[k]:
        if m in rote:
            add(pending.setdefault(zero, {}), rote[m], p)
        elif nxt is None:
            add(final, step(zero, c), p)
        else:
            add(pending.setdefault(step(zero, c), {}), nxt, p)
    while pending:
        v = min(pending, key=sum)  # nothing pending lies below it
        mass = pending.pop(v)
        rolled = _rolled(mass, table, v, step)
        for i, y in rolled.items():
            for _, p, c, nxt in table[i]:
                w = step(v, c)
                if nxt is None:
                    add(final, w, y * p)
                elif w != v:
                    add(pending.setdefault(w, {}), nxt, y * p)
        if len(final) + len(pending) > MAX_STEPS:
            raise MechanicError(
                f"{mech.origin}: a die of kind {kinds[k].name!r} rolled again makes more than {MAX_STEPS:,} "
                f"different counts; ask for fewer successes or a smaller grid"
            )
    sums = sorted(final)
    den = lcm(*(final[s].denominator for s in sums))
    return tuple(sums), tuple(int(final[s] * den) for s in sums)


def clear_caches() -> None:
    """Forget the dice steps worked out (:func:`die_steps`)."""
    _die_steps.cache_clear()


def _rolled(mass: dict[int, Fraction], table, v, step) -> dict[int, Fraction]:
    """The dice of each kind rolled at the sum ``v``, from ``mass`` pending there: with the marks that
    roll again without moving the sum, ``y = mass + y M`` (``M[i][j]``: the chance that a die of kind
    ``i`` rolls a die of kind ``j`` at the same sum), solved exactly by Gauss-Jordan elimination."""
    # the marks that roll again at this sum: (kind rolled next, chance) per kind
    stays = {
        i: [(nxt, p) for _, p, c, nxt in moves if nxt is not None and step(v, c) == v] for i, moves in table.items()
    }
    kinds = sorted(_closure(mass, [{j for j, _ in stays[i]} for i in range(len(table))]))
    pos = {i: n for n, i in enumerate(kinds)}
    # (I - M)^T y = mass
    matrix = [[Fraction(int(r == col)) for col in range(len(kinds))] for r in range(len(kinds))]
    for i in kinds:
        for nxt, p in stays[i]:
            matrix[pos[nxt]][pos[i]] -= p
    y = _solve(matrix, [mass.get(i, Fraction(0)) for i in kinds])
    return {i: y[n] for n, i in enumerate(kinds) if y[n] != 0}


def _solve(matrix: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction]:
    """The exact solution ``x`` of ``matrix x = rhs`` (Gauss-Jordan elimination in Fractions)."""
    size = len(rhs)
    a = [list(row) + [b] for row, b in zip(matrix, rhs)]
    for col in range(size):
        piv = next((r for r in range(col, size) if a[r][col] != 0), None)
        if piv is None:  # pragma: no cover - check_faces refuses chains that never stop
            raise MechanicError("a chain of dice rolled again never stops")
        a[col], a[piv] = a[piv], a[col]
        inv = 1 / a[col][col]
        a[col] = [x * inv for x in a[col]]
        for r in range(size):
            if r != col and a[r][col] != 0:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[r][size] for r in range(size)]


def mean_successes(
    mech: Mechanic, params: Mapping[str, Any], cell: Mapping[str, int], dice: Sequence[int]
) -> Fraction | None:
    """The exact mean of the successes of one cell where dice roll again, or None where the successes
    are not a sum of marks (each times a number; then only their distribution up to a bound is known).

    A die of kind ``j`` (not rote) adds, on average, ``x_j = sum_m p_jm (a_m + [m rolls again] x_t)``
    (``a_m`` the mark's weight in the successes, ``t`` the kind rolled again): a linear system over
    the kinds, solved exactly; a die of a kind's ``dice`` adds the same, its rote marks replaced by a
    fresh die of their kind.
    """
    env = {**params, **cell}
    if mech.successes is None:
        return None
    counts = dict(mech.counts)
    linear: dict[str, dict[str, Fraction] | None] = {}
    for name, e in mech.counts:
        linear[name] = _linear_sum(fold(e.tree, params), linear, env)
    coef = linear.get(mech.successes) if mech.successes in counts else {mech.successes: Fraction(1)}
    if coef is None:
        return None
    faces = faces_of(mech, env)
    kinds = mech.kinds
    index = _index(mech)

    def weight(i: int, m: str) -> Fraction:
        return coef.get(f"{kinds[i].name}.{m}", Fraction(0)) + coef.get(m, Fraction(0))

    marks_read = {n for n in coef if n}
    known = {f"{k.name}.{m}" for k in kinds for m in k.marks} | {m for k in kinds for m in k.marks}
    if marks_read - known:
        return None
    size = len(kinds)
    matrix = [[Fraction(int(r == c)) for c in range(size)] for r in range(size)]
    rhs = [Fraction(0)] * size
    for i, k in enumerate(kinds):
        sides = sum(faces[i])
        again = dict(k.again)
        for mi, m in enumerate(k.marks):
            if not faces[i][mi]:
                continue
            p = Fraction(faces[i][mi], sides)
            rhs[i] += p * weight(i, m)
            if m in again:
                matrix[i][index[again[m]]] -= p
    fresh = _solve(matrix, rhs)
    total = coef.get("", Fraction(0))
    for i, (k, n) in enumerate(zip(kinds, dice)):
        if not n:
            continue
        rote = {m: index[t] for m, t in k.rote_on(params)}
        if not rote:
            total += n * fresh[i]
            continue
        sides = sum(faces[i])
        again = dict(k.again)
        one = Fraction(0)
        for mi, m in enumerate(k.marks):
            if faces[i][mi]:
                p = Fraction(faces[i][mi], sides)
                if m in rote:
                    one += p * fresh[rote[m]]
                else:
                    one += p * (weight(i, m) + (fresh[index[again[m]]] if m in again else 0))
        total += n * one
    return total


def _linear_sum(node, linear: Mapping[str, dict[str, Fraction] | None], env: Mapping[str, Any]):
    """``{name: coefficient, "": constant}`` of a (parameter-folded) tree that is a sum of marks and counts
    times numbers, or None."""
    op = node[0]
    if op == "const":
        return None if isinstance(node[2], bool) else {"": Fraction(node[2])}
    if op == "name":
        name = node[2]
        if name in linear:
            return linear[name]
        if name in env:
            v = env[name]
            return None if isinstance(v, bool) else {"": Fraction(int(v))}
        return {name: Fraction(1)}
    if op == "neg":
        inner = _linear_sum(node[2], linear, env)
        return None if inner is None else {k: -v for k, v in inner.items()}
    if op in ("add", "sub"):
        a, b = _linear_sum(node[2], linear, env), _linear_sum(node[3], linear, env)
        if a is None or b is None:
            return None
        sign = 1 if op == "add" else -1
        out = dict(a)
        for k, v in b.items():
            out[k] = out.get(k, Fraction(0)) + sign * v
        return out
    if op == "mul":
        a, b = _linear_sum(node[2], linear, env), _linear_sum(node[3], linear, env)
        if a is None or b is None:
            return None
        if set(a) <= {""}:
            a, b = b, a
        if not set(b) <= {""}:
            return None
        c = b.get("", Fraction(0))
        return {k: v * c for k, v in a.items()}
    return None


def undecided(
    mech: Mechanic,
    stats: Stats,
    shape: tuple[int, ...],
    params: Mapping[str, Any],
    context: Mapping[str, int],
    open_axes: Sequence[bool],
    need: int | None,
) -> str | None:
    """Why the grid's saturated cells cannot be read at this bound, or None where they can.

    On an open axis (``open_axes``) the last cell stands for every value from it up.  For each cell
    with some open statistic there, the counts, then the outcome rules in order, are bounded by
    intervals (:meth:`analysis.model.expr.Expr.decide`): the rule giving the cell's class must be
    decided true and every rule before it decided false for every such value, and each column given
    by when decided; with ``need``, the successes must be known there or exceed ``need`` (so every
    count up to ``need`` is exact and the rest lies above it).  Returns the rule (or ``successes``)
    that is not decided, in words: that of the first such cell in the grid's order.

    The cells are taken as boxes (a range of values per statistic): a box decided as a whole is
    decided in each of its cells (an interval over a box holds every cell's), and a box that is not
    is halved along its first axis that is not one cell, the lower half first, down to single cells.
    """
    opened = [s for s, o in enumerate(open_axes) if o]
    base: dict[str, Any] = {name: (int(v), int(v)) for name, v in {**params, **context}.items()}
    # an expression's bounds depend only on the ranges of the names it reads: each worked out once
    known: dict[tuple[int, tuple], tuple] = {}
    reads: dict[int, tuple[str, ...]] = {}

    def decide(e: Expr, ranges: dict[str, Any]) -> tuple:
        names = reads.get(id(e))
        if names is None:
            names = reads[id(e)] = tuple(sorted(e.names))
        key = (id(e), tuple(ranges.get(n) for n in names))
        got = known.get(key)
        if got is None:
            got = known[key] = e.decide(ranges)
        return got

    live = [
        (o, when)
        for o, when in zip(mech.outcomes, stats.whens)
        if o.applies is None or bool(o.applies.evaluate(params))
    ]
    flags = list(zip(mech.flags, stats.whens[len(mech.outcomes) :]))

    def why(box: Sequence[tuple[Any, Any]]) -> str | None:
        """What the box leaves undecided, or None."""
        ranges = dict(base)
        for name, r in zip(stats.names, box):
            ranges[name] = r
        for cname, e in stats.counts:
            ranges[cname] = decide(e, ranges)
        if stats.region is not None:  # a grid of one region (analysis.engine.count._regions): its cells only
            inside = decide(stats.region, ranges)
            if inside == (0, 0):
                return None
            if inside != (1, 1):
                return f"the choice {stats.region.text!r}"
        for o, when in live:
            got = (1, 1) if when is None else decide(when, ranges)
            if got == (1, 1):
                break
            if got != (0, 0):
                return f"the rule of {o.name!r}"
        for col, when in flags:
            if decide(cast("Expr", when), ranges) not in ((0, 0), (1, 1)):
                return f"the column {col.name!r}"
        if need is not None and mech.successes is not None:
            lo, hi = ranges.get(mech.successes, (-math.inf, math.inf))
            if not (lo > need or lo == hi):  # above every count asked for, or known exactly
                return f"the successes up to {need}"
        return None

    def halves(box: list[tuple[Any, Any]]) -> tuple[list, list] | None:
        """The box halved along its first axis that is not one cell (the lower half first), or None."""
        for s, (lo, hi) in enumerate(box):
            last = shape[s] - 1
            if lo == hi or (open_axes[s] and lo == last):
                continue
            if open_axes[s] and hi == math.inf:  # the values below the bound, then the bound's cell
                cut = last - 1
                low, high = (lo, cut), (last, math.inf)
            else:
                cut = (lo + hi) // 2
                low, high = (lo, cut), (cut + 1, hi)
            return box[:s] + [low] + box[s + 1 :], box[:s] + [high] + box[s + 1 :]
        return None

    checked = 0
    # the cells with some open statistic at its last cell, each once: the first such axis fixed there
    for n, s in enumerate(opened):
        box: list[tuple[Any, Any]] = [(0, size - 1) if not o else (0, math.inf) for size, o in zip(shape, open_axes)]
        for before in opened[:n]:
            box[before] = (0, shape[before] - 2)
        box[s] = (shape[s] - 1, math.inf)
        if any(lo > hi for lo, hi in box):
            continue
        todo = [box]
        while todo:
            box = todo.pop()
            checked += 1
            if checked > MAX_BOXES:
                raise MechanicError(
                    f"{mech.origin}: dice that roll again need more than {MAX_BOXES:,} checks of the counts "
                    f"at the bound; ask for a smaller grid"
                )
            reason = why(box)
            if reason is None:
                continue
            split = halves(box)
            if split is None:
                return reason
            todo.extend(reversed(split))
    return None
