"""Exact finite Markov chains: integer ways over one common denominator.

:class:`ExactChain` is the one chain type of the toolkit: its states, its
moves as integer ways over a denominator (stored in compressed sparse rows
for the numba kernels of ``kernels.markov``), and its exact answers:

- :meth:`ExactChain.run`: the distribution after every step, or the mass of
  chosen groups of states, pushed through the kernel;
- :meth:`ExactChain.distributions`, :meth:`ExactChain.first_passage`: the
  same for the common questions;
- :meth:`ExactChain.hitting_probability`, :meth:`ExactChain.expected_steps`:
  exact Fractions by back-substitution (the chains of the games only ever
  stay put or move forward: damage does not heal within a fight).

:func:`run` pushes a start distribution through a sequence of different
chains (a night of Rouse checks and feedings).

Counts after ``t`` steps are integers over ``D**t``; where that bound fits in
int64 the kernel runs once in int64, beyond it runs once per prime below
2**31 and the counts are rebuilt by the Chinese remainder theorem
(``analysis.engine.exact``), so nothing ever overflows.  A run whose exact count
would take too long is refused, before it starts, with a sentence saying
how many steps would do.
"""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Hashable,
    Iterable,
    Iterator,
    Mapping,
    NoReturn,
    Self,
    Sequence,
    TypeVar,
    cast,
    overload,
)

import numpy as np
import numpy.typing as npt


from analysis.engine import display as _display, progress
from analysis.engine.exact import INT64_MAX, count, fractions_over, passes
from analysis.engine import seam

if TYPE_CHECKING:  # (the kernels are imported when first counted, through the seam)
    from kernels._jit import IntArray

#: A run whose exact count needs more than this many multiply-adds (primes x
#: steps x transitions, plus rebuilding the counts from their residues; some
#: seconds) is refused with a suggestion rather than left to run.
MAX_WORK = 1_000_000_000


#: The exact Fractions a run may build, in decimal digits (numerators and
#: denominators of every kept step; about 0.4 byte a digit, some seconds per
#: 10 million): a bigger result is refused before the run starts.
MAX_DIGITS = 100_000_000

_REPORT: contextvars.ContextVar[tuple[bool, str] | None] = contextvars.ContextVar(
    "beastodds_markov_report", default=None
)

#: A start of a run: a state index, or ``{state index: probability}`` summing to 1.
Start = int | dict[int, Fraction | int]
#: A state label (any hashable value) of :meth:`ExactChain.explore`.
_State = TypeVar("_State", bound=Hashable)


@contextlib.contextmanager
def reporting(show: bool = True, desc: str = "chain") -> Iterator[None]:
    """Within this block, every chain run draws a progress bar on stderr (``show``).

    A run advances its bar once per kernel pass (one per prime of the exact
    path) and once per step turned into Fractions; Ctrl-C is seen between
    them, so a long run stops within about a second.  A command wraps its
    work in it: ``with markov.reporting(show, "fight"): ...``.
    """
    token = _REPORT.set((bool(show), desc))
    try:
        yield
    finally:
        _REPORT.reset(token)


@contextlib.contextmanager
def _bar(total: int, unit: str) -> Iterator[Callable[..., object]]:
    """The progress bar of the current :func:`reporting` block (a silent one outside)."""
    report = _REPORT.get()
    if report is None or not report[0]:
        yield lambda n=1: None
        return

    bar = progress.progress_bar(total, report[1], unit, True)
    try:
        yield bar.update
    finally:
        bar.close()


def _counted(compute: Callable[[int], np.ndarray], bound: int, force_modular: bool = False) -> np.ndarray:
    """:func:`analysis.engine.exact.count` with a progress bar over its kernel passes."""
    k = 1 if bound <= INT64_MAX and not force_modular else passes(int(bound))
    with _bar(k, "pass") as update:

        def each(mod: int) -> np.ndarray:
            out = compute(mod)
            update()
            return out

        return count(each, bound, force_modular=force_modular)


def result_digits(dens: Iterable[int], n_states: int) -> int:
    """Decimal digits of the exact Fractions of ``n_states`` states over each of ``dens``
    (numerators at most as long as their denominators)."""
    return sum(2 * n_states * (int(d).bit_length() * 30103 // 100000 + 1) for d in dens)


def _refuse_digits(digits: int, steps: int, fits: int, what: str, smaller: str) -> NoReturn:
    unit = what.split()[0]
    hint = f"ask for at most {fits} {unit}" if fits else smaller
    raise ValueError(
        f"the exact result of {steps} {what} would hold about {digits:,} digits (limit {MAX_DIGITS:,}); {hint}"
    )


# ------------------------------------------------------------ the exact path


def _work(bound: int, counts: int, kernel_work: int) -> int:
    """Multiply-adds of an exact run of ``counts`` counts up to ``bound``: the
    kernel once per prime, then the rebuild (Garner's algorithm over ``k``
    primes, in numpy, costs about ``k**2`` multiply-adds a count plus a
    fixed cost per pass)."""
    k = passes(int(bound))
    rebuild = 0 if k == 1 else k * k * (counts + 1500) * 6 // 5
    return k * kernel_work + rebuild


def _most_steps(work: Callable[[int], int], steps: int, max_work: int) -> int:
    """The most steps below ``steps`` whose work is within ``max_work`` (0: none);
    the work grows with the steps."""
    lo, hi = 0, steps - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if work(mid) <= max_work:
            lo = mid
        else:
            hi = mid - 1
    return lo if lo >= 1 and work(lo) <= max_work else 0


def _reduced(weights: Iterable[int], mod: int) -> IntArray:
    """Python-int weights as an int64 array, reduced modulo ``mod`` if > 0."""
    return np.array([int(w) % mod if mod else int(w) for w in weights], dtype=np.int64)


def _refuse(steps: int, fits: int, n_states: int, den: int, what: str, smaller: str) -> NoReturn:
    unit = what.split()[0]
    hint = f"ask for at most {fits} {unit}" if fits else smaller
    raise ValueError(
        f"counting {steps} {what} exactly would take too long "
        f"({n_states} states, a {len(str(den))}-digit denominator each {unit.rstrip('s')}); {hint}"
    )


def _start_ways(start: object, n_states: int) -> tuple[IntArray, int]:
    """``(int64 ways, denominator)`` of a start: a state index or ``{index: probability}``."""
    if isinstance(start, (int, np.integer)) and not isinstance(start, bool):
        start = {int(start): 1}
    if not isinstance(start, dict) or not start:
        raise ValueError("the start must be a state index or a {state index: probability} dict")
    probs = {int(i): Fraction(p) for i, p in start.items()}
    if any(not 0 <= i < n_states for i in probs):
        raise ValueError(f"the start names a state outside the chain's {n_states} states")
    if any(p < 0 for p in probs.values()) or sum(probs.values()) != 1:
        raise ValueError("the start distribution must be non-negative and sum to 1")
    den = lcm(*(p.denominator for p in probs.values()))
    if den > INT64_MAX:
        raise ValueError("the start distribution is too finely divided for the exact kernel")
    ways = np.zeros(n_states, dtype=np.int64)
    for i, p in probs.items():
        ways[i] = p.numerator * (den // p.denominator)
    return ways, den


# --------------------------------------------------------------- the chain


class ExactChain:
    """A finite Markov chain whose transition probabilities are exact.

    Row ``i`` is integer ways ``{j: w}`` over one common ``denominator``:
    ``P(i -> j) = w / denominator``.  The constructor checks that every row
    sums to exactly the denominator (the chain is stochastic) and that every
    way is a non-negative integer.  The chain is stored in compressed sparse
    rows (``indptr``, ``indices``, ``weight_ids`` into the distinct
    ``weights``) for the kernels; ``rows`` gives the dicts back.

    Parameters
    ----------
    states : sequence of hashable
        The state labels, in order.
    rows : sequence of dict
        ``rows[i]`` maps a state index ``j`` to integer ways.
    denominator : int
        The common denominator, >= 1.

    Examples
    --------
    >>> c = ExactChain.from_fractions("ab", [{0: Fraction(1, 2), 1: Fraction(1, 2)}, {1: 1}])
    >>> c.expected_steps([1])
    [Fraction(2, 1), Fraction(0, 1)]
    """

    # set by _set (every constructor); the labels are any hashable values
    states: tuple[Any, ...]
    index: dict[Any, int]
    indptr: IntArray
    indices: IntArray
    weight_ids: IntArray
    weights: tuple[int, ...]
    denominator: int
    _rows: tuple[dict[int, int], ...] | None

    def __init__(self, states: Iterable[Hashable], rows: Sequence[Mapping[int, int]], denominator: int) -> None:
        states = tuple(states)
        if len(rows) != len(states):
            raise ValueError(f"a chain of {len(states)} states needs as many rows, got {len(rows)}")
        _check_denominator(denominator)
        clean = tuple({int(j): int(w) for j, w in row.items() if w} for row in rows)
        for i, row in enumerate(clean):
            if any(w < 0 for w in row.values()):
                raise ValueError(f"row {i} of the chain has a negative probability")
            if any(not 0 <= j < len(states) for j in row):
                raise ValueError(f"row {i} of the chain leads to an unknown state")
            if sum(row.values()) != denominator:
                raise ValueError(f"row {i} of the chain sums to {Fraction(sum(row.values()), denominator)}, not 1")
        table: dict[int, int] = {}
        indptr = np.zeros(len(states) + 1, dtype=np.int64)
        indices: list[int] = []
        ids: list[int] = []
        for i, row in enumerate(clean):
            for j, w in row.items():
                indices.append(j)
                ids.append(table.setdefault(w, len(table)))
            indptr[i + 1] = len(indices)
        self._set(
            states, indptr, np.array(indices, dtype=np.int64), np.array(ids, dtype=np.int64), tuple(table), denominator
        )
        self._rows = clean

    @classmethod
    def from_fractions(cls, states: Iterable[Hashable], rows: Sequence[Mapping[int, Fraction | int]]) -> Self:
        """A chain from rows of ``{j: Fraction}``, over the least common denominator."""
        den = 1
        for row in rows:
            for p in row.values():
                den = lcm(den, Fraction(p).denominator)
        int_rows = []
        for row in rows:
            r: dict[int, int] = {}
            for j, p in row.items():
                p = Fraction(p)
                r[j] = r.get(j, 0) + p.numerator * (den // p.denominator)
            int_rows.append(r)
        return cls(states, int_rows, den)

    @classmethod
    def from_csr(
        cls,
        states: Iterable[Hashable],
        indptr: npt.ArrayLike,
        indices: npt.ArrayLike,
        weight_ids: npt.ArrayLike,
        weights: Iterable[int],
        denominator: int,
    ) -> Self:
        """A chain from compressed sparse rows, as the kernels take it.

        Row ``r`` moves to ``indices[k]`` with ``weights[weight_ids[k]]``
        ways for ``k`` in ``indptr[r]:indptr[r+1]``; a row may name the same
        target more than once (the ways add up).  ``weights`` are Python
        ints (they may exceed int64); every row must sum to ``denominator``.
        """
        states = tuple(states)
        _check_denominator(denominator)
        indptr, indices, weight_ids = (np.array(a, dtype=np.int64) for a in (indptr, indices, weight_ids))
        weights = tuple(int(w) for w in weights)
        n = len(states)
        if (
            indptr.shape != (n + 1,)
            or indptr[0] != 0
            or np.any(np.diff(indptr) < 0)
            or indptr[-1] != len(indices)
            or len(weight_ids) != len(indices)
        ):
            raise ValueError(f"the sparse rows do not describe a chain of {n} states")
        if len(indices) and (indices.min() < 0 or indices.max() >= n):
            raise ValueError("a row of the chain leads to an unknown state")
        if len(weight_ids) and (weight_ids.min() < 0 or weight_ids.max() >= len(weights)):
            raise ValueError("a move of the chain names an unknown weight")
        if any(w < 0 for w in weights):
            raise ValueError("the chain has a negative probability")
        chain = cls.__new__(cls)
        chain._set(states, indptr, indices, weight_ids, weights, denominator)
        chain._rows = None
        for i, s in enumerate(chain.row_sums()):
            if s != 1:
                raise ValueError(f"row {i} of the chain sums to {s}, not 1")
        return chain

    @classmethod
    def explore(cls, start: _State, moves: Callable[[_State], Mapping[_State, Fraction | int]]) -> Self:
        """The chain of the states reachable from ``start`` (which becomes state 0).

        ``moves(s)`` gives ``{next state: probability}`` for a state label
        ``s``; states are discovered depth first and numbered as found.
        """
        rows: dict[_State, Mapping[_State, Fraction | int]] = {}
        order, seen, todo = [start], {start}, [start]
        while todo:
            s = todo.pop()
            rows[s] = moves(s)
            for t in rows[s]:
                if t not in seen:
                    seen.add(t)
                    order.append(t)
                    todo.append(t)
        idx = {s: i for i, s in enumerate(order)}
        return cls.from_fractions(order, [{idx[t]: p for t, p in rows[s].items()} for s in order])

    def _set(
        self,
        states: tuple[Any, ...],
        indptr: IntArray,
        indices: IntArray,
        weight_ids: IntArray,
        weights: tuple[int, ...],
        denominator: int,
    ) -> None:
        self.states = states
        self.index = {s: i for i, s in enumerate(states)}
        if len(self.index) != len(states):
            raise ValueError("the states of a chain must be distinct")
        for a in (indptr, indices, weight_ids):
            a.setflags(write=False)
        self.indptr, self.indices, self.weight_ids = indptr, indices, weight_ids
        self.weights = weights
        self.denominator = denominator

    # ------------------------------------------------------------ structure

    def __len__(self) -> int:
        return len(self.states)

    @property
    def rows(self) -> tuple[dict[int, int], ...]:
        """``rows[i]``: ``{j: ways}`` with repeated targets added up."""
        if self._rows is None:
            out = []
            for r in range(len(self)):
                row: dict[int, int] = {}
                for k in range(self.indptr[r], self.indptr[r + 1]):
                    j = int(self.indices[k])
                    row[j] = row.get(j, 0) + self.weights[self.weight_ids[k]]
                out.append({j: w for j, w in row.items() if w})
            self._rows = tuple(out)
        return self._rows

    def probability(self, i: int, j: int) -> Fraction:
        """``P(i -> j)`` as a Fraction (state indices)."""
        return Fraction(self.rows[i].get(j, 0), self.denominator)

    def transitions(self) -> dict[Any, dict[Any, Fraction]]:
        """``{state: {next state: Fraction}}`` by state label."""
        return {
            s: {self.states[j]: Fraction(w, self.denominator) for j, w in row.items()}
            for s, row in zip(self.states, self.rows)
        }

    def row_sums(self) -> list[Fraction]:
        """Each row's total as a Fraction (all 1 in a chain)."""
        w = np.array(self.weights, dtype=object)[self.weight_ids] if len(self.weight_ids) else np.zeros(0, dtype=object)
        sums = [sum(w[self.indptr[r] : self.indptr[r + 1]].tolist()) for r in range(len(self))]
        return [Fraction(s, self.denominator) for s in sums]

    def stay_ways(self) -> list[int]:
        """Ways of staying put, state by state."""
        return [row.get(i, 0) for i, row in enumerate(self.rows)]

    @property
    def absorbing(self) -> tuple[int, ...]:
        """Indices of the absorbing states (``P(i -> i) = 1``)."""
        return tuple(i for i, w in enumerate(self.stay_ways()) if w == self.denominator)

    def is_stochastic(self) -> bool:
        """Every row sums to exactly 1 (always true of a constructed chain)."""
        return all(s == 1 for s in self.row_sums()) and all(w >= 0 for w in self.weights)

    def reachable(self, start: int) -> np.ndarray:
        """Boolean mask of the states reachable from state index ``start``."""
        seen = np.zeros(len(self), dtype=bool)
        seen[start] = True
        todo = [start]
        while todo:
            r = todo.pop()
            for c in self.indices[self.indptr[r] : self.indptr[r + 1]].tolist():
                if not seen[c]:
                    seen[c] = True
                    todo.append(c)
        return seen

    def is_absorbing(self) -> bool:
        """Every state can reach an absorbing state (an absorbing chain)."""
        absorbing = set(self.absorbing)
        if not absorbing:
            return False
        reverse: dict[int, set[int]] = {i: set() for i in range(len(self))}
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

    def topological_order(self, start: int | None = None) -> list[int]:
        """State indices so that every move other than staying put goes forward.

        With ``start``, only the states reachable from it.  Raises
        ValueError if the chain has a cycle longer than a self-loop (the
        exact first-passage formulas below need none).
        """
        order: list[int] = []
        mark = [0] * len(self)  # 0 new, 1 on the stack, 2 done
        roots = range(len(self)) if start is None else (start,)
        rows = self.rows
        for root in roots:
            if mark[root]:
                continue
            stack = [(root, iter(rows[root]))]
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
                        stack.append((j, iter(rows[j])))
                        break
                else:
                    stack.pop()
                    mark[i] = 2
                    order.append(i)
        return order[::-1]

    # ------------------------------------------------ exact by substitution

    @overload
    def hitting_probability(self, targets: Iterable[int], start: None = None) -> list[Fraction]: ...
    @overload
    def hitting_probability(self, targets: Iterable[int], start: int) -> Fraction: ...
    def hitting_probability(self, targets: Iterable[int], start: int | None = None) -> list[Fraction] | Fraction:
        """Exact probability of ever reaching ``targets`` from each state.

        Solved by back-substitution along :meth:`topological_order`:
        ``h(i) = sum_{j != i} P(i, j) h(j) / (1 - P(i, i))``, and 0 for a
        state that stays put forever outside the targets.  With ``start``,
        only the states reachable from it are solved and ``h(start)`` is
        returned.
        """
        h = self._hitting(set(targets), self.topological_order(start))
        return h if start is None else h[start]

    def _hitting(self, targets: set[int], order: list[int]) -> list[Fraction]:
        h = [Fraction(0)] * len(self)
        rows = self.rows
        for i in reversed(order):
            if i in targets:
                h[i] = Fraction(1)
                continue
            stay = rows[i].get(i, 0)
            if stay == self.denominator:
                continue
            acc = sum(w * h[j] for j, w in rows[i].items() if j != i)
            h[i] = Fraction(acc) / (self.denominator - stay)
        return h

    @overload
    def expected_steps(self, targets: Iterable[int], start: None = None) -> list[Fraction | None]: ...
    @overload
    def expected_steps(self, targets: Iterable[int], start: int) -> Fraction | None: ...
    def expected_steps(
        self, targets: Iterable[int], start: int | None = None
    ) -> list[Fraction | None] | Fraction | None:
        """Exact expected steps to reach ``targets`` from each state.

        ``None`` where the targets may never be reached (the expectation is
        infinite).  ``e(i) = (1 + sum_{j != i} P(i, j) e(j)) / (1 - P(i, i))``.
        With ``start``, only the states reachable from it are solved and
        ``e(start)`` is returned.
        """
        targets = set(targets)
        order = self.topological_order(start)
        h = self._hitting(targets, order)
        e: list[Fraction | None] = [None] * len(self)
        rows = self.rows
        for i in reversed(order):
            if i in targets:
                e[i] = Fraction(0)
                continue
            if h[i] != 1:
                continue
            stay = rows[i].get(i, 0)
            acc = Fraction(self.denominator)
            for j, w in rows[i].items():
                if j != i:
                    acc += w * cast(Fraction, e[j])  # h[i] == 1 makes every reachable e[j] finite
            e[i] = acc / (self.denominator - stay)
        return e if start is None else e[start]

    # ------------------------------------------------------ exact by kernel

    def run(
        self,
        start: Start,
        steps: int,
        groups: npt.ArrayLike | None = None,
        final: bool = False,
        *,
        max_work: int = MAX_WORK,
        what: str = "steps of this chain",
        smaller: str = "use a smaller chain",
        force_modular: bool = False,
    ) -> "ChainRun":
        """Push a start distribution through ``steps`` steps, exactly, in the kernel.

        Parameters
        ----------
        start : int or dict
            A state index, or ``{state index: probability}`` summing to 1.
        steps : int
            Steps to take (>= 0).
        groups : array of 0/1, shape (G, S), optional
            Without groups the ways of every state after every step are
            kept (``ChainRun.ways``); with groups only the ways of each
            group (``ChainRun.group_ways``): cheaper for long runs.
        final : bool
            Also keep the ways of every state after the last step.
        max_work, what, smaller
            The refusal: a run needing more than ``max_work`` multiply-adds
            is refused with "counting N {what} exactly would take too long",
            suggesting fewer steps or ``smaller``.
        force_modular : bool
            Take the modular path even where int64 would do (tests).

        Returns
        -------
        ChainRun
        """
        start_ways, start_den = _start_ways(start, len(self))
        if not isinstance(steps, (int, np.integer)) or isinstance(steps, bool) or steps < 0:
            raise ValueError(f"the number of steps must be a whole number >= 0, got {steps!r}")
        steps = int(steps)
        n, den = len(self), self.denominator
        edges = len(self.indices)
        if groups is not None:
            groups = np.asarray(groups, dtype=np.int64)
            if groups.ndim != 2 or groups.shape[1] != n:
                raise ValueError(f"groups must be a 0/1 array of shape (groups, {n})")
        width = n if groups is None else groups.shape[0]

        def work(t: int) -> int:
            counts = (t + 1) * width + (n if final else 0)
            return _work(start_den * den**t, counts, (t + 1) * (edges + (n if groups is None else groups.size)))

        if work(steps) > max_work:
            _refuse(steps, _most_steps(work, steps, max_work), n, den, what, smaller)

        def compute(mod: int) -> np.ndarray:
            w = _reduced(self.weights, mod)
            last = np.empty(n, dtype=np.int64)
            if groups is None:
                out = np.empty((steps + 1, n), dtype=np.int64)
                seam.markov.markov_run_all(start_ways, self.indptr, self.indices, self.weight_ids, w, mod, out)
                last[:] = out[steps]
            else:
                out = np.empty((steps + 1, groups.shape[0]), dtype=np.int64)
                seam.markov.markov_run(
                    start_ways, self.indptr, self.indices, self.weight_ids, w, groups, mod, out, last
                )
            return np.concatenate([out.ravel(), last]) if final else out.ravel()

        # markov_run_all holds the same numbers as markov_run (every state, not groups)
        bound = seam.markov.markov_run_bound(start_ways, self.indptr, self.weight_ids, self.weights, steps)
        flat = _counted(compute, bound, force_modular=force_modular)
        cut = (steps + 1) * width
        table = flat[:cut].reshape(steps + 1, width)
        return ChainRun(
            denominators=tuple(start_den * den**s for s in range(steps + 1)),
            ways=table if groups is None else None,
            group_ways=table if groups is not None else None,
            final=flat[cut:] if final else None,
        )

    def after(self, start: Start, steps: int, **refusal: Any) -> np.ndarray:
        """Exact distribution (object array of Fractions) after ``steps`` steps.

        Only the last step's states are rebuilt, so a long run costs little
        more than its kernel.  ``refusal``: ``max_work``, ``what``,
        ``smaller`` as for :meth:`run`.
        """
        r = self.run(start, steps, groups=np.zeros((0, len(self)), dtype=np.int64), final=True, **refusal)
        return r.probabilities("final")

    def distributions(self, start: int, steps: int) -> list[list[int]]:
        """Integer ways of the state after 0..steps steps from state ``start``.

        Entry ``k`` is a list of Python ints over states summing to
        ``denominator ** k`` (counted by the kernel).
        """
        ways: list[list[int]] = cast(np.ndarray, self.run(start, steps).ways).tolist()  # kept without groups
        return ways

    def with_absorbing(self, targets: Iterable[int]) -> ExactChain:
        """The same chain with every state of ``targets`` made absorbing."""
        targets = set(int(t) for t in targets)
        table = {w: i for i, w in enumerate(self.weights)}
        stay = table.setdefault(self.denominator, len(table))
        indptr: list[int] = [0]
        indices: list[int] = []
        ids: list[int] = []
        for r in range(len(self)):
            if r in targets:
                indices.append(r)
                ids.append(stay)
            else:
                lo, hi = self.indptr[r], self.indptr[r + 1]
                indices += self.indices[lo:hi].tolist()
                ids += self.weight_ids[lo:hi].tolist()
            indptr.append(len(indices))
        return ExactChain.from_csr(self.states, indptr, indices, ids, tuple(table), self.denominator)

    def first_passage(
        self, start: int, targets: Iterable[int], steps: int
    ) -> tuple[list[Fraction], Fraction, Fraction]:
        """Distribution of the first step at which ``targets`` is reached.

        Returns ``(pmf, tail, never)``: ``pmf[k]`` for ``k = 0..steps`` (a
        Fraction), ``tail = P(steps < T < inf)`` and ``never = P(T = inf)``,
        all exact; they sum to 1.  The targets are made absorbing and the
        kernel counts the mass on them after every step.
        """
        targets = sorted(set(int(t) for t in targets))
        stopped = self.with_absorbing(targets)
        mask = np.zeros((1, len(self)), dtype=np.int64)
        mask[0, targets] = 1
        r = stopped.run(start, steps, groups=mask, final=True)
        group_ways, final = cast(np.ndarray, r.group_ways), cast(np.ndarray, r.final)  # both kept
        by = [Fraction(int(w), d) for w, d in zip(group_ways[:, 0].tolist(), r.denominators)]
        pmf = [by[0]] + [by[k] - by[k - 1] for k in range(1, steps + 1)]
        den = r.denominators[-1]
        h = self.hitting_probability(targets)
        left = [(i, int(w)) for i, w in enumerate(final.tolist()) if w and i not in set(targets)]
        reach_later = sum((Fraction(w, den) * h[i] for i, w in left), Fraction(0))
        never = Fraction(sum(w for _, w in left), den) - reach_later
        return pmf, reach_later, never

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self) -> tuple[list[str], list[tuple[str, object]]]:
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.engine.display`)."""
        return ([f"{len(self.states)} states", f"denominator {self.denominator}"], [])


def _check_denominator(denominator: object) -> None:
    if not isinstance(denominator, int) or isinstance(denominator, bool) or denominator < 1:
        raise ValueError(f"the denominator must be a positive integer, got {denominator!r}")


@dataclass(frozen=True, eq=False)
class ChainRun:
    """The exact counts of :meth:`ExactChain.run`.

    Row ``t`` of ``ways`` (every state) or ``group_ways`` (each group) is
    integer ways after ``t`` steps over ``denominators[t]``; ``final`` is the
    ways of every state after the last step, over ``denominators[-1]``.
    Arrays are int64 where the counts fit, else object arrays of Python ints.
    """

    denominators: tuple[int, ...]
    ways: np.ndarray | None
    group_ways: np.ndarray | None
    final: np.ndarray | None

    def probabilities(self, which: str = "ways") -> np.ndarray:
        """``ways``, ``group_ways`` or ``final`` as exact Fractions (object array)."""
        if which not in ("ways", "group_ways", "final"):
            raise ValueError(f"choose ways, group_ways or final, got {which!r}")
        arr = getattr(self, which)
        if arr is None:
            raise ValueError(f"this run did not keep {which}")
        if which == "final":
            return fractions_over(arr, self.denominators[-1])
        return fractions_over(arr, np.array(self.denominators, dtype=object)[:, None])

    __repr__ = _display.text
    _repr_html_ = _display.html

    def _repr_rows(self) -> tuple[list[str], list[tuple[str, object]]]:
        """Head and rows of the compact repr and the Jupyter table (:mod:`analysis.engine.display`)."""
        kept = [w for w in ("ways", "group_ways", "final") if getattr(self, w) is not None]
        return ([f"{len(self.denominators) - 1} steps", "kept " + ", ".join(kept)], [])


def run(
    start: Start,
    chains: Sequence[ExactChain],
    n_states: int,
    *,
    max_work: int = MAX_WORK,
    what: str = "steps of this chain",
    smaller: str = "use fewer steps",
    keep: Iterable[int] | None = None,
) -> list[np.ndarray | None]:
    """Exact distribution after each chain in turn.

    Parameters
    ----------
    start : dict
        ``{state index: probability}`` summing to 1.
    chains : list of ExactChain
        One per step, each over the same ``n_states`` states.
    n_states : int
    max_work, what, smaller
        A run needing more multiply-adds, or whose kept Fractions would hold
        more than ``MAX_DIGITS`` digits, is refused before it starts, as for
        :meth:`ExactChain.run`.
    keep : iterable of int, optional
        The steps (0 = the start) whose distributions are wanted; the others
        are left as None (default: every step).  Turning the counts into
        Fractions is the costly part of a long run.

    Returns
    -------
    list of object arrays of Fractions: the start, then after each step
    (None for a step not in ``keep``).
    """
    if any(len(c) != n_states for c in chains):
        raise ValueError(f"every step must have {n_states} states")
    start_ways, start_den = _start_ways(start, n_states)
    T = len(chains)
    dens = [start_den]
    for c in chains:
        dens.append(dens[-1] * c.denominator)
    n_edges = max([len(c.indices) for c in chains] + [1])

    def work(t: int) -> int:
        return _work(dens[t], (t + 1) * n_states, (t + 1) * (n_edges + n_states))

    if work(T) > max_work:
        _refuse(T, _most_steps(work, T, max_work), n_states, max(c.denominator for c in chains), what, smaller)
    kept = sorted(set(range(T + 1) if keep is None else (int(t) for t in keep)))
    if kept and not 0 <= kept[0] <= kept[-1] <= T:
        raise ValueError(f"keep names a step outside 0..{T}")
    digits = result_digits((dens[t] for t in kept), n_states)
    if digits > MAX_DIGITS:
        fits, total = 0, 0
        for t in kept:  # the most steps whose kept Fractions fit
            total += result_digits((dens[t],), n_states)
            if total > MAX_DIGITS:
                break
            fits = t
        _refuse_digits(digits, T, fits, what, smaller)
    ptr = np.zeros((T, n_states + 1), dtype=np.int64)
    to = np.zeros((T, n_edges), dtype=np.int64)
    for t, c in enumerate(chains):
        ptr[t] = c.indptr
        to[t, : len(c.indices)] = c.indices

    def compute(mod: int) -> np.ndarray:
        w = np.zeros((T, n_edges), dtype=np.int64)
        for t, c in enumerate(chains):
            w[t, : len(c.indices)] = _reduced(c.weights, mod)[c.weight_ids]
        out = np.empty((T + 1, n_states), dtype=np.int64)
        seam.markov.markov_run_steps(start_ways, ptr, to, w, mod, out)
        return out

    exact_w = np.zeros((T, n_edges), dtype=object)
    for t, c in enumerate(chains):
        exact_w[t, : len(c.indices)] = [c.weights[i] for i in c.weight_ids]
    ways = _counted(compute, seam.markov.markov_run_steps_bound(start_ways, ptr, exact_w))
    out: list[np.ndarray | None] = [None] * (T + 1)
    with _bar(len(kept), "step") as update:
        for t in kept:  # one step at a time: the bar moves and Ctrl-C is seen between them
            out[t] = fractions_over(ways[t].astype(object), dens[t])
            update()
    return out
