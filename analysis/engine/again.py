"""Exploding-dice engine: exact success counts of d10 pools whose high faces are rolled again."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt


from analysis.engine import exact as _exact
from analysis.engine.exact import fractions_over
from analysis.model.validate import check_bool
from analysis.engine import seam

#: One roll of :func:`count_rolls`: ``(dice, beast_dice, chance)``.
Roll = tuple[int, int, bool]
#: The rules knobs of :func:`count_rolls`: ``(success_face, again_face, rote, chance_die_again,
#: rote_chance_die, beastly_value, bestial_any)``.
Engine = tuple[int, int, bool, bool, bool, int, bool]


@dataclass(frozen=True)
class Counts:
    """Exact integer counts of one roll.

    ``P(s successes) = success_ways[s] / 10**(s + scale)`` for ``s`` up to
    ``len(success_ways) - 1``; the flags are ways over ``10**scale``.

    Attributes
    ----------
    scale : int
        Rolls of the first throw (dice, twice for a rote action).
    success_ways : tuple of int
        Ways of exactly ``s`` successes, ``s = 0..max_successes``.
    dramatic : int
        Ways of a dramatic failure (a chance die showing 1).
    bestial : int
        Ways of a failure with a Beast die showing 1.
    beastly : int
        Ways of a 10 on some Beast die and on no normal die.
    """

    scale: int
    success_ways: tuple[int, ...]
    dramatic: int
    bestial: int
    beastly: int


def _flag_ways(nn: int, nb: int, success_face: int, rote: bool, bestial_any: bool) -> tuple[int, int]:
    """Bestial failure and beastly critical ways of a pool, over ``10**(c*n)``.

    A failed roll is one where every die's face fails (no success, so no
    again); it is bestial when a Beast die shows a 1 (with a rote action: its
    final face, or with ``bestial_any`` a 1 on either roll).  A beastly
    critical needs a 10 on some Beast die's face and on no normal die's.

    Parameters
    ----------
    nn, nb : int
        Normal dice and Beast dice.
    success_face : int
        Lowest face that is a success.
    rote : bool
        Each die rolls twice (``c = 2``) when its first roll fails.
    bestial_any : bool
        With ``rote``, a 1 on either roll of a Beast die counts.

    Returns
    -------
    tuple of int
        ``(bestial, beastly)`` ways.
    """
    fail = success_face - 1
    if rote:
        unit, ten = 100, 10 + fail
        all_fail = fail * fail
        beast_fail_no_one = (fail - 1) ** 2 if bestial_any else fail * (fail - 1)
    else:
        unit, ten = 10, 1
        all_fail = fail
        beast_fail_no_one = fail - 1
    bestial = all_fail**nn * (all_fail**nb - beast_fail_no_one**nb)
    no_ten = unit - ten
    beastly = no_ten**nn * (unit**nb - no_ten**nb)
    return bestial, beastly


@lru_cache(maxsize=256)
def count_rolls(rolls: tuple[Roll, ...], max_successes: int, engine: Engine) -> tuple[Counts, ...]:
    """Exact counts for many rolls under one rule set.

    Parameters
    ----------
    rolls : tuple of (dice, beast_dice, chance)
        ``chance``: a single chance die (``dice == 1``; ``beast_dice`` 1 if
        it is a Beast die).
    max_successes : int
        Success counts 0..max_successes are counted; the rest is the tail.
    engine : tuple
        ``(success_face, again_face, rote, chance_die_again, rote_chance_die,
        beastly_value, bestial_any)``: the lowest success face, the lowest
        face rolled again (11: none), whether a failed die rolls once more,
        whether a chance die's 10 is rolled again, whether a rote action
        rerolls a failed chance die, the successes of a Beast die's 10 and
        whether a 1 on either roll of a rote Beast die counts.

    Returns
    -------
    tuple of Counts
        One per roll, in the order of ``rolls``.
    """
    success_face, again_face, rote, chance_again, rote_chance, beastly_value, bestial_any = engine
    n_s = max_successes + 1
    result: dict[Roll, Counts] = {}
    pools = sorted({(d - b, b) for d, b, chance in rolls if not chance})
    c = 2 if rote else 1
    if pools:
        nn = np.array([a for a, _ in pools], dtype=np.int64)
        nb = np.array([b for _, b in pools], dtype=np.int64)

        def run(mod: int, index: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
            out = np.empty((len(index), n_s), dtype=np.int64)
            seam.again.beast_grid_ways(
                nn[index], nb[index], success_face, again_face, int(rote), beastly_value, mod, out
            )
            return out

        bounds = [seam.again.beast_grid_ways_bound([a], [b], max_successes, rote) for a, b in pools]
        for index, ways in _exact.count_blocks(run, bounds):
            for row, i in enumerate(index):
                a, b = pools[i]
                bestial, beastly = _flag_ways(a, b, success_face, rote, bestial_any)
                result[(a + b, b, False)] = Counts(
                    scale=c * (a + b),
                    success_ways=tuple(int(x) for x in ways[row].tolist()),
                    dramatic=0,
                    bestial=bestial,
                    beastly=beastly,
                )
    for d, b, chance in set(rolls):
        if not chance:
            continue
        cc = 2 if rote_chance else 1

        def run_chance(mod: int, b: int = b) -> npt.NDArray[np.int64]:
            out = np.empty(n_s, dtype=np.int64)
            flags = np.empty(3, dtype=np.int64)
            seam.again.chance_die_ways(
                success_face,
                again_face,
                int(chance_again),
                int(rote_chance),
                b,
                beastly_value,
                int(bestial_any),
                mod,
                out,
                flags,
            )
            return np.concatenate([out, flags])

        flat = _exact.count(run_chance, seam.again.chance_die_ways_bound(max_successes, rote_chance))
        values = [int(x) for x in flat.tolist()]
        result[(d, b, True)] = Counts(
            scale=cc,
            success_ways=tuple(values[:n_s]),
            dramatic=values[n_s],
            bestial=values[n_s + 1],
            beastly=values[n_s + 2],
        )
    return tuple(result[r] for r in rolls)


def distribution_ways(counts: Counts) -> tuple[list[int], list[int], list[int], int]:
    """``(exactly, at_least, more, denominator)`` ways for ``s = 0..S``.

    All over one denominator ``10**(S + scale)``: ``exactly[s]`` is the
    chance of exactly ``s`` successes, ``at_least[s]`` of ``s`` or more,
    ``more[s]`` of more than ``s`` (``more[S]`` is the exact tail).

    Parameters
    ----------
    counts : Counts
        Counted up to ``S = len(counts.success_ways) - 1`` successes.

    Returns
    -------
    tuple
        ``(exactly, at_least, more, denominator)``: three lists of int and an int.
    """
    big_s = len(counts.success_ways) - 1
    den = 10 ** (big_s + counts.scale)
    exactly = [w * 10 ** (big_s - s) for s, w in enumerate(counts.success_ways)]
    at_least: list[int] = []
    more: list[int] = []
    rest = den
    for w in exactly:
        at_least.append(rest)
        rest -= w
        more.append(rest)
    return exactly, at_least, more, den


def to_values(ways: npt.ArrayLike, dens: npt.ArrayLike, exact: bool) -> np.ndarray:
    """Ways over denominators as Fractions (``exact``) or correctly rounded floats.

    Parameters
    ----------
    ways, dens : array_like of int
        Numerators and denominators, broadcast together.
    exact : bool
        True: ``Fraction`` objects; False: float64.

    Returns
    -------
    numpy.ndarray
        Of the broadcast shape.
    """
    exact = check_bool("exact", exact)
    ways = np.asarray(ways, dtype=object)
    dens = np.asarray(dens, dtype=object)
    if exact:
        return fractions_over(ways, dens)
    out = np.empty(np.broadcast_shapes(ways.shape, dens.shape), dtype=np.float64)
    flat = out.reshape(-1)
    for i, (w, d) in enumerate(
        zip(np.broadcast_to(ways, out.shape).ravel().tolist(), np.broadcast_to(dens, out.shape).ravel().tolist())
    ):
        flat[i] = w / d  # Python ints: correctly rounded
    return out


def truncate(counts: Counts, max_successes: int) -> Counts:
    """The same counts, kept for success counts ``0..max_successes`` only.

    Parameters
    ----------
    counts : Counts
        Counts of success counts up to at least ``max_successes``.
    max_successes : int
        The highest success count kept.

    Returns
    -------
    Counts
    """
    return dataclasses.replace(counts, success_ways=counts.success_ways[: max_successes + 1])


def mean_successes(roll: Roll, engine: Engine) -> Fraction:
    """The exact mean successes of one roll (``(dice, beast_dice, chance)`` of :func:`count_rolls`).

    Again-dice have no highest count, but their mean is a plain fraction.  A
    fresh again-die has mean ``E = (10 - f) / (10 - h)`` (``f`` failing faces,
    ``h`` faces rolled again).  A die's first face (after a rote reroll of a
    failure) counts 1 on a success, plus ``E`` on an again face; a beastly 10
    counts ``beastly_value``.  The ways of :func:`count_rolls`,
    ``(AB**nn - A**nn) * AB**nb + A**nn * AC**nb`` (``A``: a face other than a
    10, ``AB``: any face with the again rule, ``AC``: any face with beastly
    10s), differentiated at 1, give the mean
    ``(nn + nb) * AB'(1) + A(1)**nn * nb * (AC'(1) - AB'(1))``; a chance die
    succeeds on a 10 alone.
    """
    success_face, again_face, rote, chance_again, rote_chance, beastly_value, _ = engine
    dice, beast_dice, chance = roll
    fail = success_face - 1
    again = 11 - again_face if again_face <= 10 else 0
    chain = Fraction(10 - fail, 10 - again)  # one fresh again-die
    if chance:
        p_ten = Fraction(19, 100) if rote_chance else Fraction(1, 10)
        if beast_dice:
            return p_ten * beastly_value
        return p_ten * (1 + chain if chance_again and again_face <= 10 else 1)
    q_success = Fraction(10 + fail, 100) if rote else Fraction(1, 10)  # each face from success_face up
    a = 1 - q_success  # A(1): the face is not a 10
    a_mean = sum(
        (q_success * (1 + chain if face >= again_face else 1) for face in range(success_face, 10)), Fraction(0)
    )
    ten = 1 + chain if again_face <= 10 else Fraction(1)
    ab = a_mean + q_success * ten
    ac = a_mean + q_success * beastly_value
    nn, nb = dice - beast_dice, beast_dice
    return (nn + nb) * ab + a**nn * nb * (ac - ab)
