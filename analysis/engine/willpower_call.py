"""One pool's call of the Willpower kernels: what they read of the pool, and the call in any arithmetic.

The Willpower engine (:mod:`analysis.engine.willpower`) plans each pool
after a strategy: its :class:`Plan` holds everything that does not depend on
the arithmetic.  A :class:`Call` gives :func:`kernels.mechanic_willpower.willpower_choices`
and :func:`kernels.mechanic_willpower.willpower_add` their arguments for
any modulus, decides the rerolls once for every arithmetic, and bounds the
numbers they hold (:func:`analysis.engine.exact.count` runs it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from analysis.engine import seam
from analysis.engine.exact import ArrayFields

from analysis.engine import count as _engine
from analysis.engine import pool as _pool
from analysis.engine.pairs_count import binomials

if TYPE_CHECKING:  # (the kernels are imported when first counted)
    import numpy.typing as npt

    from kernels._jit import IntArray

    from analysis.engine.count import Context, Layout, MechanicRules
    from analysis.engine.strategy import Strategy

#: A rerollable kind of a plan: (kind index, its dice, its categories as (faces, offset step, rerollable
#: category or -1), the sides of a die rerolled from it: of the kind it becomes).
PlanKind = tuple[int, int, tuple[tuple[int, int, int], ...], int]


@dataclass(frozen=True, eq=False)
class Plan(ArrayFields):
    """Everything about one pool that does not depend on the arithmetic: what the kernel reads."""

    layout: Layout  # engine layout: faces_arr, marks_arr, contrib, shape, strides
    res_dice: np.ndarray
    res_idx: np.ndarray  # int64[R]: the grid cells the dice never rerolled reach
    kinds: tuple[PlanKind, ...]  # per rerollable kind: (kind index, n dice, its categories, rerolled sides)
    comps: tuple[IntArray, ...]  # per rerollable kind: int64[Q, M] compositions
    st_index: np.ndarray  # int64[P, Kr]: composition of each kind in each state
    st_avail: np.ndarray
    st_off: np.ndarray
    opt_counts: np.ndarray
    opt_off: np.ndarray
    opt_v: np.ndarray
    out_off: np.ndarray
    out_w: np.ndarray
    out_n: np.ndarray
    fail_cats: np.ndarray
    common: int
    steps: int  # work per context (landed rolls x outcomes weighed)

    def walk(self) -> list[np.ndarray]:
        """The states, their options and the options' outcomes, in the order both Willpower kernels
        read them (``st_avail`` to ``out_n``)."""
        return [
            self.st_avail,
            self.st_off,
            self.opt_counts,
            self.opt_off,
            self.opt_v,
            self.out_off,
            self.out_w,
            self.out_n,
        ]


class Call:
    """The kernel call of one pool after a strategy: its arguments for any arithmetic, and its bound."""

    def __init__(
        self, rules: MechanicRules, strategy: Strategy, plan: Plan, dice: tuple[int, ...], contexts: list[Context]
    ) -> None:
        _kw = seam.mechanic_willpower

        mech = rules.mechanic
        self.plan, self.dice, self.contexts = plan, dice, contexts
        shape = plan.layout[3]
        self.size = int(np.prod(shape))
        self.tables = [_engine.class_tables(rules, shape, c) for c in contexts]
        self.cls = np.ascontiguousarray(np.stack([t[0] for t in self.tables]))
        if mech.successes is not None:
            # the mechanic names its successes: every table has them
            self.succ = np.ascontiguousarray(np.stack([cast("IntArray", t[1]) for t in self.tables]))
            self.n_vals = int(self.succ.max()) + 1
        else:
            self.succ = np.zeros((len(contexts), self.size), dtype=np.int64)
            self.n_vals = 1
        self.n_classes = len(mech.classes)
        self.values = (
            strategy.integer_values(mech) if strategy.mode == "best" else np.zeros(self.n_classes, dtype=np.int64)
        )
        self.wins = np.array([int(c in mech.win_classes) for c in mech.classes], dtype=np.int64)
        self.forbid = np.array([int(c in strategy.forbid) for c in mech.classes], dtype=np.int64)
        self.mode = _kw.MODE_FAILURES if strategy.reroll_failures else _kw.MODE_BEST
        self.binom_size = max(max(dice, default=0), 1) + 1
        self.bad = np.full(len(contexts), -1, dtype=np.int64)
        self._choice: npt.NDArray[np.int32] | None = None
        faces_arr, marks_arr, contrib, _, _ = plan.layout
        self.res_dice = [int(n) for n in plan.res_dice]
        # what one die of each kind never rerolled does on the grid: made once, walked in every arithmetic
        self.res_walks = _pool.walks(faces_arr, marks_arr, contrib, shape, self.res_dice)

    def bound(self) -> int:
        _kw = seam.mechanic_willpower

        faces_arr, marks_arr = self.plan.layout[:2]
        return _kw.mechanic_willpower_bound(
            self.dice, faces_arr, marks_arr, self.plan.common, self.values, self.binom_size
        )

    def choice_arguments(self) -> list[Any]:
        """The arguments of :func:`kernels.mechanic_willpower.willpower_choices` (fresh outputs)."""
        plan = self.plan
        T = len(self.contexts)
        return [
            plan.res_idx,
            *plan.walk(),
            self.cls,
            self.values,
            self.wins,
            self.forbid,
            plan.fail_cats,
            self.mode,
            self.max_reroll,
            plan.common,
            np.zeros((T, len(plan.res_idx), len(plan.st_off)), dtype=np.int32),
            self.bad,
        ]

    @property
    def max_reroll(self) -> int:
        return int(self.plan.opt_counts.sum(axis=1).max(initial=1))

    def choices(self) -> npt.NDArray[np.int32]:
        """The reroll taken for every (context, landed cell, state): decided once, for every arithmetic."""
        if self._choice is None:
            _kw = seam.mechanic_willpower

            args = self.choice_arguments()
            _kw.willpower_choices(*args)
            self._choice = cast("npt.NDArray[np.int32]", args[-2])
        return self._choice

    def add_arguments(self, mod: int) -> list[Any]:
        """The arguments of :func:`kernels.mechanic_willpower.willpower_add` (fresh outputs) for ``mod``."""

        _kw = seam.mechanic_willpower

        plan = self.plan
        binom = binomials(self.binom_size, mod)
        res = _pool.walk_ways(self.res_dice, self.res_walks, self.size, mod)
        st_w = np.ones(len(plan.st_index), dtype=np.int64)
        for slot, (_, _, row, _) in enumerate(plan.kinds):
            w = np.empty(len(plan.comps[slot]), dtype=np.int64)
            _kw.composition_weights(plan.comps[slot], np.array([f for f, _, _ in row], dtype=np.int64), mod, binom, w)
            st_w = st_w * w[plan.st_index[:, slot]]
            if mod:
                st_w %= mod
        T = len(self.contexts)
        return [
            res,
            plan.res_idx,
            st_w,
            *plan.walk(),
            self.cls,
            self.succ,
            self.choices(),
            self.max_reroll,
            plan.common,
            mod,
            np.zeros((T, self.n_classes), dtype=np.int64),
            np.zeros((T, self.n_vals), dtype=np.int64),
            np.zeros(T, dtype=np.int64),
        ]

    def compute(self, mod: int) -> np.ndarray:
        _kw = seam.mechanic_willpower

        args = self.add_arguments(mod)
        _kw.willpower_add(*args)
        class_out, succ_out, spent = args[-3:]
        return np.concatenate([class_out.ravel(), succ_out.ravel(), spent])
