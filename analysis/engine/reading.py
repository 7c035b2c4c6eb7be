"""One landed roll of a mechanic read by its rules: its counts, its outcome class, whether it wins.

:func:`read_roll` takes the faces each kind of die shows (and the axes the
rules read, such as the Difficulty) and gives a :class:`MechanicReading`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from analysis.model.validate import check_int, did_you_mean

from analysis.engine import display as _display

from analysis.engine.pool import MAX_DICE
from analysis.model.spec import MechanicError, faces_of
from analysis.engine.stats import stats_of as _stats
from analysis.engine.stats_grid import eval_counts as _eval_counts

if TYPE_CHECKING:
    from analysis.model.spec import MechanicRules


@dataclass(frozen=True)
class MechanicReading:
    """What one landed roll means: its outcome class and whether it wins, its counts (the file's
    ``[counts]``, its successes among them), the dice showing each mark and the axes it was read at.
    The one reading of a roll, every system's (``v5.read_roll``, ``werewolf.read_roll``...)."""

    outcome: str
    counts: dict[str, int]
    successes: int | None
    won: bool
    #: the axes it was read at, as given (a Difficulty, a violent action)
    values: dict[str, int] = field(default_factory=dict, kw_only=True)
    #: the dice showing each mark, per kind (``"hunger.one"``) and over every kind that has it (``"ten"``)
    marks: dict[str, int] = field(default_factory=dict, kw_only=True)

    @property
    def margin(self) -> int:
        """Successes beyond the Difficulty (negative when short)."""
        if self.successes is None or "difficulty" not in self.values:
            raise ValueError("a margin needs the successes and the Difficulty the roll was read at")
        return self.successes - self.values["difficulty"]

    def __getattr__(self, name: str) -> Any:
        """An axis it was read at or a count by name (``reading.difficulty``, ``reading.brutal_outcome``)."""
        if name.startswith("_") or name in _OWN:  # (not yet set: a copy or pickle being made)
            raise AttributeError(name)
        if name in self.values:
            return self.values[name]
        if name in self.counts:
            return self.counts[name]
        known = [*self.values, *self.counts]
        raise AttributeError(f"{type(self).__name__} has no {name!r}{did_you_mean(name, known)}")

    def _repr_rows(self) -> tuple[list[str], list[tuple[str, object]]]:
        """What :mod:`analysis.engine.display` shows: the axes; the outcome, the successes, the counts and
        the marks the dice show."""
        rows: list[tuple[str, object]] = [("outcome", self.outcome), ("won", self.won)]
        rows += [(c, v) for c, v in self.counts.items()]
        rows += [(m, n) for m, n in self.marks.items() if n and "." in m]
        return [f"{a} {v}" for a, v in self.values.items()], rows

    __repr__ = _display.text
    _repr_html_ = _display.html


#: MechanicReading's own fields (never a name read off the roll)
_OWN = frozenset(f.name for f in fields(MechanicReading))


def read_roll(rules: MechanicRules, faces: Mapping[str, Iterable[int]], **cell: object) -> MechanicReading:
    """Read landed dice by the mechanic's rules.

    For example ``read_roll(r, {"normal": [3, 10], "hunger": [1]}, difficulty=2)``.

    ``faces`` maps each kind to the faces its dice show (a kind left out
    rolled no dice); where dice roll again, every face counted is listed
    under the kind it was rolled as (a rote die's first face, replaced, is
    not).  Axes the rules read (a Difficulty) are given as keywords;
    the pool axes need not be.
    """
    mech = rules.mechanic
    stats = _stats(mech)
    kinds = {k.name: k for k in mech.kinds}
    if not isinstance(faces, dict):
        raise ValueError("faces must map each kind of die to the faces it shows")
    for name in faces:
        if name not in kinds:
            raise ValueError(
                f"the {mech.name} mechanic has no kind of die {name!r}{did_you_mean(str(name), list(kinds))}"
            )
    ctx: dict[str, int] = {}
    for a in mech.axes:
        if a.name in cell:
            ctx[a.name] = check_int(a.name, cell[a.name], a.range[0], a.range[1])
        elif a.name in stats.rule_axes:
            raise ValueError(f"reading a roll of the {mech.name} mechanic needs {a.name}")
    params = rules.params
    env: dict[str, Any] = {**params, **ctx}
    # faces by mark need the axes the faces read (a classic difficulty): those given
    face_env = {**env, **{a.name: ctx.get(a.name, a.range[0]) for a in mech.axes}}
    layout = faces_of(mech, face_env)
    marks_of: dict[int, dict[str, int]] = {}
    for ki, k in enumerate(mech.kinds):
        shown = [check_int(f"a {k.name} die", f, 1, k.sides) for f in (faces.get(k.name) or [])]
        if len(shown) > MAX_DICE:
            raise ValueError(f"at most {MAX_DICE} {k.name} dice")
        per_mark: dict[str, int] = {}
        for mark, ranges in k.faces:
            face_set: set[int] = set()
            for lo_e, hi_e in ranges:
                face_set |= set(range(int(lo_e.evaluate(face_env)), int(hi_e.evaluate(face_env)) + 1))
            per_mark[mark] = sum(f in face_set for f in shown)
        marks_of[ki] = per_mark
    del layout
    for s, name in enumerate(stats.names):
        env[name] = sum(marks_of[ki][mech.kinds[ki].marks[mi]] for ki, mi in stats.members[s])
    bounds = {k: (int(v), int(v)) for k, v in env.items()}
    _eval_counts(mech, env, bounds)
    outcome: str | None = None
    for o in mech.outcomes:
        if o.applies is not None and not bool(o.applies.evaluate(params)):
            continue
        if o.when is None or bool(o.when.evaluate(env)):
            outcome = o.name
            break
    if outcome is None:
        raise MechanicError(
            f"{mech.origin}: no outcome rule matches this roll ({', '.join(f'{n}={env[n]}' for n in stats.names)})"
        )
    counts = {c: int(env[c]) for c, _ in mech.counts}
    succ = int(env[mech.successes]) if mech.successes is not None else None
    marks: dict[str, int] = {}
    for ki, k in enumerate(mech.kinds):
        for mark, n in marks_of[ki].items():
            marks[f"{k.name}.{mark}"] = n
            marks[mark] = marks.get(mark, 0) + n
    return MechanicReading(outcome, counts, succ, outcome in mech.win_classes, values=ctx, marks=marks)
