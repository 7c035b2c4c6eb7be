"""Requiem again-dice and Beast pools: ways for each number of successes.

A die that explodes ("10-again": a 10 is rerolled and the reroll adds, without
end) has infinite support, but only finitely many ways to reach ``s``
successes: every reroll follows an again face, which is itself a success, so
a die that yields ``s`` successes was rolled at most ``s + 1`` times.  Hence
``10**(s + 1) * P(die yields s)`` is an integer, and for a pool of ``n`` dice
``10**(s + c*n) * P(pool yields s)`` is an integer too, where ``c`` is the
number of base rolls of each die (1; 2 for a rote action, whose failed dice
are rolled once more).  The kernels work with these integers ("ways at scale
``10**(s + c*n)``"), truncated at the largest success count the caller asks
for; the exact tail beyond is one minus the rest.

A pool's dice are split by what their *face* shows (the first roll, or the
rote reroll of a failed die): not a 10, a 10 that follows the again rule, or
(on a Beast die, when no normal die shows a 10) a beastly 10 that is not
rerolled and counts as ``beastly_value`` successes.  Polynomials in the
number of successes, one per face kind, are raised to the numbers of dice
and multiplied; nothing depends on the order of the dice.

Every count at scale ``10**(s + c*n)`` is at most that power of ten (it is a
probability times it), and so is every product formed on the way, so the
caller proves int64 suffices by checking ``10**(S + c*n)`` (``S`` the largest
success count; :func:`beast_grid_ways_bound`, :func:`chance_die_ways_bound`)
or passes a prime ``mod`` (see ``kernels.multiset``).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from kernels._jit import IntArray, kernel
from kernels.multiset import addmod, mulmod


@kernel
def submod(a: int, b: int, mod: int) -> int:
    """Difference ``a - b`` (in 0..mod-1 when ``mod > 0``; the caller
    guarantees ``a >= b`` when ``mod == 0``)."""
    v = a - b
    if mod > 0 and v < 0:
        v += mod
    return v


@kernel
def powmod(base: int, exp: int, mod: int) -> int:
    """``base ** exp`` (reduced modulo ``mod`` when ``mod > 0``)."""
    v = 1
    b = base % mod if mod > 0 else base
    for _ in range(exp):
        v = mulmod(v, b, mod)
    return v


@kernel
def fill_again_chain(success_face: int, again_face: int, mod: int, out: IntArray) -> None:
    """Successes of one freshly rolled again-die, at scale ``10**(s + 1)``.

    ``out[s] = 10**(s + 1) * P(s successes)`` for a die that succeeds on
    ``success_face``..10 and is rolled again (the reroll adding) on
    ``again_face``..10, without end.

    Parameters
    ----------
    success_face : int64
        Lowest success face (8 in Requiem).
    again_face : int64
        Lowest face rolled again (10, 9 or 8); 11 for no again.
        ``again_face >= success_face``.
    mod : int64
        0 for plain int64, else a prime below 2**31.
    out : int64[S + 1]
        Overwritten, ``S >= 0``.

    Notes
    -----
    With ``f`` failing faces, ``g`` successes not rolled again and ``h``
    again faces: ``P(0) = f/10``, ``P(1) = g/10 + (h/10)(f/10)`` and
    ``P(s) = (h/10) P(s - 1)`` for ``s >= 2``, so ``out[0] = f``,
    ``out[1] = 10 g + h f`` and ``out[s] = h out[s - 1]``.
    """
    fail = success_face - 1
    again = 0
    if again_face <= 10:
        again = 11 - again_face
    plain = 10 - fail - again
    n = out.shape[0]
    out[0] = fail
    if n > 1:
        out[1] = addmod(mulmod(10, plain, mod), mulmod(again, fail, mod), mod)
    for s in range(2, n):
        out[s] = mulmod(again, out[s - 1], mod)


@kernel
def fill_face_polys(
    success_face: int,
    again_face: int,
    rote: int,
    beastly_value: int,
    mod: int,
    not_ten: IntArray,
    ten: IntArray,
    beastly_ten: IntArray,
) -> None:
    """One die's successes by the kind of its face, at scale ``10**(s + c)``.

    ``c`` is 1, or 2 for a rote die (a failed first roll is rolled once more
    and that reroll is the die's face; later again-rolls are not rote).

    Parameters
    ----------
    success_face, again_face : int64
        As for :func:`fill_again_chain`.
    rote : int64
        1 for a rote die, else 0.
    beastly_value : int64
        Successes a beastly 10 counts for (it is not rolled again).
    mod : int64
        0 for plain int64, else a prime below 2**31.
    not_ten, ten, beastly_ten : int64[S + 1]
        Overwritten.  ``not_ten[s]``: the face is not a 10 and the die yields
        ``s``; ``ten[s]``: the face is a 10 following the again rule;
        ``beastly_ten[s]``: the face is a 10 counted as a beastly 10.  Each
        is ``10**(s + c)`` times the probability.
    """
    n = not_ten.shape[0]
    chain = np.empty(n, dtype=np.int64)
    fill_again_chain(success_face, again_face, mod, chain)
    fail = success_face - 1
    if rote == 1:
        w_success = 10 + fail  # a face shows on the first roll, or after a failed one
        w_fail = fail  # only after a failed first roll
    else:
        w_success = 1
        w_fail = 1
    for s in range(n):
        not_ten[s] = 0
        ten[s] = 0
        beastly_ten[s] = 0
    not_ten[0] = mulmod(fail, w_fail, mod)
    for face in range(success_face, 10):
        if face >= again_face:
            for s in range(1, n):
                not_ten[s] = addmod(not_ten[s], mulmod(w_success, chain[s - 1], mod), mod)
        elif n > 1:
            not_ten[1] = addmod(not_ten[1], mulmod(10, w_success, mod), mod)
    if again_face <= 10:
        for s in range(1, n):
            ten[s] = mulmod(w_success, chain[s - 1], mod)
    elif n > 1:
        ten[1] = mulmod(10, w_success, mod)
    if beastly_value < n:
        beastly_ten[beastly_value] = mulmod(w_success, powmod(10, beastly_value, mod), mod)


@kernel
def poly_mul(x: IntArray, y: IntArray, mod: int, out: IntArray) -> None:
    """Truncated product: ``out[s] = sum(x[i] * y[s - i])`` for ``s < len(out)``.

    Parameters
    ----------
    x, y, out : int64[S + 1]
        ``out`` is overwritten and must not be ``x`` or ``y``.
    mod : int64
        0 for plain int64, else a prime below 2**31.
    """
    n = out.shape[0]
    for s in range(n):
        out[s] = 0
    for i in range(n):
        if x[i] == 0:
            continue
        for j in range(n - i):
            if y[j] != 0:
                out[i + j] = addmod(out[i + j], mulmod(x[i], y[j], mod), mod)


@kernel
def fill_powers_poly(base: IntArray, mod: int, out: IntArray) -> None:
    """``out[k] = base ** k`` (truncated polynomial powers), ``k = 0..K``.

    Parameters
    ----------
    base : int64[S + 1]
    mod : int64
    out : int64[K + 1, S + 1]
        Overwritten.
    """
    for s in range(out.shape[1]):
        out[0, s] = 0
    out[0, 0] = 1
    for k in range(1, out.shape[0]):
        poly_mul(out[k - 1], base, mod, out[k])


@kernel
def beast_grid_ways(
    normal_dice: IntArray,
    beast_dice: IntArray,
    success_face: int,
    again_face: int,
    rote: int,
    beastly_value: int,
    mod: int,
    out: IntArray,
) -> None:
    """Ways of each number of successes for many pools of normal and Beast dice.

    A roll is a beastly critical when some Beast die's face is a 10 and no
    normal die's face is: those Beast 10s are not rolled again and count
    ``beastly_value`` each.  Otherwise every 10 follows the again rule.  So
    the ways are ``(AB**nn - A**nn) * AB**nb + A**nn * AC**nb`` with
    ``A`` = faces other than 10, ``AB`` = any face with the again rule,
    ``AC`` = any face with beastly 10s (see :func:`fill_face_polys`).

    Parameters
    ----------
    normal_dice, beast_dice : int64[K]
        Normal and Beast dice of each configuration (``>= 0`` each).
    success_face, again_face, rote, beastly_value : int64
        As for :func:`fill_face_polys`.
    mod : int64
        0 for plain int64 (the caller checked :func:`beast_grid_ways_bound`,
        ``10**(S + c*n)`` for the largest ``n = nn + nb``, fits), else a
        prime below 2**31.
    out : int64[K, S + 1]
        Overwritten: ``out[k, s] = 10**(s + c*n_k) * P(s successes)``,
        ``c = 2`` for rote dice, else 1.
    """
    n_s = out.shape[1]
    a = np.empty(n_s, dtype=np.int64)
    b = np.empty(n_s, dtype=np.int64)
    c = np.empty(n_s, dtype=np.int64)
    fill_face_polys(success_face, again_face, rote, beastly_value, mod, a, b, c)
    ab = np.empty(n_s, dtype=np.int64)
    ac = np.empty(n_s, dtype=np.int64)
    for s in range(n_s):
        ab[s] = addmod(a[s], b[s], mod)
        ac[s] = addmod(a[s], c[s], mod)
    k_max = 0
    for i in range(normal_dice.shape[0]):
        k_max = max(k_max, normal_dice[i], beast_dice[i])
    pow_a = np.empty((k_max + 1, n_s), dtype=np.int64)
    pow_ab = np.empty((k_max + 1, n_s), dtype=np.int64)
    pow_ac = np.empty((k_max + 1, n_s), dtype=np.int64)
    fill_powers_poly(a, mod, pow_a)
    fill_powers_poly(ab, mod, pow_ab)
    fill_powers_poly(ac, mod, pow_ac)
    some_ten = np.empty(n_s, dtype=np.int64)
    part = np.empty(n_s, dtype=np.int64)
    for i in range(normal_dice.shape[0]):
        nn = normal_dice[i]
        nb = beast_dice[i]
        for s in range(n_s):
            some_ten[s] = submod(pow_ab[nn, s], pow_a[nn, s], mod)
        poly_mul(some_ten, pow_ab[nb], mod, out[i])
        poly_mul(pow_a[nn], pow_ac[nb], mod, part)
        for s in range(n_s):
            out[i, s] = addmod(out[i, s], part[s], mod)


@kernel
def chance_die_ways(
    success_face: int,
    again_face: int,
    chance_again: int,
    rote: int,
    beast: int,
    beastly_value: int,
    bestial_any_one: int,
    mod: int,
    out: IntArray,
    flags: IntArray,
) -> None:
    """Ways of one chance die: only a 10 succeeds, a 1 is a dramatic failure.

    Parameters
    ----------
    success_face, again_face : int64
        For the reroll of a 10 (a normal die under the again rule).
    chance_again : int64
        1: a 10 is rolled again under the again rule (1st edition; nothing
        if ``again_face == 11``); 0: it is not (2nd edition).
    rote : int64
        1: a failed chance die (1..9) is rolled once more and the reroll is
        its face (``c = 2``); 0: ``c = 1``.
    beast : int64
        1: the chance die is a Beast die: its 10 is beastly (not rolled
        again, worth ``beastly_value``).
    beastly_value : int64
        Successes of a beastly 10.
    bestial_any_one : int64
        1: a Beast chance die that first showed 1 and then failed on its rote
        reroll without a 1 is a bestial failure.  (A final 1 is a dramatic
        failure, counted once as such.)
    mod : int64
        0 for plain int64, else a prime below 2**31.
    out : int64[S + 1]
        Overwritten: ``10**(s + c) * P(s successes)``.
    flags : int64[3]
        Overwritten, at scale ``10**c``: dramatic failure, bestial failure
        (not dramatic), beastly critical.
    """
    n = out.shape[0]
    chain = np.empty(n, dtype=np.int64)
    fill_again_chain(success_face, again_face, mod, chain)
    for s in range(n):
        out[s] = 0
    if rote == 1:
        w_ten = 19  # 10 first (10/100), or 1..9 then 10 (9/100)
        w_one = 9  # 1..9 then 1
        w_zero = 81  # 1..9 then 1..9
    else:
        w_ten = 1
        w_one = 1
        w_zero = 9
    out[0] = w_zero
    if beast == 1:
        if beastly_value < n:
            out[beastly_value] = mulmod(w_ten, powmod(10, beastly_value, mod), mod)
    elif chance_again == 1 and again_face <= 10:
        for s in range(1, n):
            out[s] = mulmod(w_ten, chain[s - 1], mod)
    elif n > 1:
        out[1] = mulmod(10, w_ten, mod)
    flags[0] = w_one
    flags[1] = 8 if (beast == 1 and rote == 1 and bestial_any_one == 1) else 0
    flags[2] = w_ten if beast == 1 else 0


# ------------------------------------------------------------------ bounds
# Plain Python (not jitted): upper bounds on every number the kernels above
# hold, for ``analysis.engine.exact.count``.  Each count is a probability times a
# power of ten, so it is at most that power of ten.


def beast_grid_ways_bound(normal_dice: Iterable[int], beast_dice: Iterable[int], max_successes: int, rote: int) -> int:
    """Upper bound on every number :func:`beast_grid_ways` holds.

    Parameters
    ----------
    normal_dice, beast_dice : sequence of int
        As for :func:`beast_grid_ways`.
    max_successes : int
        ``S``: the kernel's ``out`` has ``S + 1`` columns.
    rote : int or bool
        As for :func:`beast_grid_ways`.

    Returns
    -------
    int
        ``10 ** (S + c * n)``, ``c`` the base rolls of a die (2 for a rote
        action, else 1) and ``n`` the most dice of a configuration (at least
        one: a single die's face polynomials are held in any case).
    """
    c = 2 if int(rote) else 1
    n = max([1] + [int(a) + int(b) for a, b in zip(normal_dice, beast_dice)])
    return 10 ** (int(max_successes) + c * n)


def chance_die_ways_bound(max_successes: int, rote: int) -> int:
    """Upper bound on every number :func:`chance_die_ways` holds.

    Parameters
    ----------
    max_successes : int
        ``S``: the kernel's ``out`` has ``S + 1`` entries.
    rote : int or bool
        As for :func:`chance_die_ways`.

    Returns
    -------
    int
        ``10 ** (S + c)``, ``c = 2`` for a rote chance die, else 1.
    """
    return 10 ** (int(max_successes) + (2 if int(rote) else 1))
