"""La Soif: the Beast-dice house rule (the La Soif house rule) on Requiem dice, counted exactly."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.engine import at_least as _al, distribution as _dist
from analysis.model.rules import rule
from analysis.systems import counted as _counted
from analysis.systems.requiem import dice as _rq
from analysis.engine.exact import ratios
from analysis.engine.results import MechanicOdds
from analysis.systems.requiem.dice import (
    DEFAULT_MAX_SUCCESSES,
    MAX_POOL,
    RequiemRules,
    Roll,
    check_max_successes,
    count_rolls,
    named_ways,
    success_ways,
)

# the Soif ladder lives in its own module (analysis.systems.requiem.ladder); its names stay importable here
from analysis.systems.requiem.ladder import (
    LADDER_MODES,  # noqa: F401
    MAX_GHOUL_SOIF,  # noqa: F401
    MAX_SOIF,
    MAX_VITAE,  # noqa: F401
    VITAE_BY_BLOOD_POTENCY,  # noqa: F401
    SoifLadder,
    check_ladder,
    ghoul_soif_ladder,  # noqa: F401
    soif_ladder,  # noqa: F401
    vitae_max,  # noqa: F401
)
from analysis.model.validate import InputError, as_values, check_bool, check_int

#: Outcome classes, mutually exclusive, summing to 1, in table order.
CLASSES = ("dramatic_failure", "bestial_failure", "failure", "plain_success", "exceptional_success")
#: Columns of :func:`table`, in order.
TABLE_COLUMNS = ("pool", "soif", "beast_dice") + CLASSES + ("p_success", "p_beastly_critical")
KEY_COLUMNS = ("pool", "soif", "beast_dice")


@dataclass(frozen=True)
@_counted.fields_from_file(_rq.__package__, file="soif.toml")
class BeastRules(RequiemRules):
    """Requiem dice with La Soif.  Defaults: docs/rules.md; the fields are the parameters of this
    package's ``soif.toml`` (those of :class:`analysis.systems.requiem.dice.RequiemRules` and La Soif's
    own), then two options of how a frenzy roll is built, which the file does not count.

    Notes
    -----
    A die's *face* is what it shows before any again-roll: its first roll,
    or (rote) the reroll of a failed first roll.  A roll is a beastly
    critical when some Beast die's face is a 10 and no normal die's face is;
    those 10s are not rolled again and count double.  Otherwise every 10
    follows the again rule, and so do 9s and 8s under 9-again and 8-again,
    beastly critical or not.  A failed roll is bestial when a Beast die shows
    a 1.  A chance die that is a Beast die (``chance_die_is_beast``) showing 1
    is a dramatic and a bestial failure, counted once, as dramatic; its 10 is
    a beastly critical.  ``bestial_counts_rerolled_ones`` matters for rote
    actions only: by default a Beast die's face is its final roll (a rote
    reroll replaces a 1).  In frenzy, physical rolls gain +Soif dice: normal
    dice unless ``frenzy_bonus_beast`` (a house rule La Soif allows).
    """

    frenzy_bonus_beast: bool = rule(
        False, help="In frenzy the +Soif dice of physical rolls are Beast dice; default false (normal dice)."
    )
    frenzy_roll_beast_dice: bool = rule(
        False, help="The frenzy-risk roll has min(Soif, dice) Beast dice; default false."
    )

    def dice(self, pool: int, soif: int, tempt: bool = False, frenzy: bool = False):
        """``(dice rolled, Beast dice, chance die?)`` for a pool at a Soif.

        Beast dice replace normal dice, never more than the dice rolled
        (``min(soif, pool)``).  ``tempt`` (Tempting the Beast, or the
        hunting bonus) adds Soif dice, all Beast dice: ``pool + soif`` dice,
        ``min(2 * soif, pool + soif)`` of them Beast dice.  ``frenzy`` adds
        Soif dice to a physical roll (Beast dice only with
        ``frenzy_bonus_beast``).  At 0 dice or less: one chance die.
        """
        bonus = soif if (tempt or frenzy) else 0
        total = pool + bonus
        if total <= 0:
            return 1, int(self.chance_die_is_beast and soif >= 1), True
        beast = soif + (soif if tempt else 0) + (soif if frenzy and self.frenzy_bonus_beast else 0)
        return total, min(beast, total), False

    def cell(self, roll: Roll) -> dict[str, int]:
        """The cell of ``soif.toml`` a roll ``(dice, Beast dice, chance die?)`` is: ``pool`` dice of which
        ``soif`` are Beast dice (the file's ``min(soif, pool)``), or pool 0 (a chance die, a Beast die at
        Soif 1 or more).  Tempting the Beast rolls more Beast dice than the axis' 5: the engine counts
        any cell."""
        dice, beast, chance = roll
        return {"pool": 0, "soif": beast} if chance else {"pool": dice, "soif": beast}

    def requiem(self) -> RequiemRules:
        """The same dice without the house rule (plain Requiem)."""
        return RequiemRules(
            again=self.again,
            rote=self.rote,
            chance_die_again=self.chance_die_again,
            rote_chance_die=self.rote_chance_die,
            exceptional_successes=self.exceptional_successes,
        )


#: La Soif as its house-rule document writes it (every option at its default).
OFFICIAL = BeastRules()


def _check_flags(tempt, frenzy):
    check_bool("tempt", tempt)
    check_bool("frenzy", frenzy)
    if tempt and frenzy:
        raise InputError(
            "tempt", " and frenzy cannot be combined: a frenzied character does not tempt the Beast, it already rules"
        )


# ------------------------------------------------------------ one roll


def _check_roll(pool, soif, max_successes, rules, tempt, frenzy):
    pool = check_int("pool", pool, -MAX_POOL, MAX_POOL)
    soif = check_int("soif", soif, 0, MAX_SOIF)
    max_successes = check_max_successes(max_successes)
    rules = BeastRules.require(rules)
    _check_flags(tempt, frenzy)
    return pool, soif, max_successes, rules


def _odds(pool, soif, max_successes, rules, tempt, frenzy, roll) -> MechanicOdds:
    """The odds of ``roll`` (``soif.toml``'s cell of it), naming what was asked and the roll built."""
    (ways,) = count_rolls((roll,), max_successes, rules)
    named = _rq.asked(pool, roll, soif=soif, tempt=tempt, frenzy=frenzy)
    return MechanicOdds.of(rules.mechanic(), rules.cell(roll), ways, asked=named)


def odds(
    pool: int,
    soif: int,
    rules: BeastRules = OFFICIAL,
    *,
    tempt: bool = False,
    frenzy: bool = False,
    max_successes: int = DEFAULT_MAX_SUCCESSES,
) -> MechanicOdds:
    """Exact odds of a Requiem roll with Beast dice.

    Parameters
    ----------
    pool : int
        Dice after modifiers (-200..200); 0 or less rolls a chance die.
    soif : int
        The character's Soif, 0..5 (a ghoul's is 0..3).
    rules : BeastRules
        docs/rules.md defaults.
    tempt : bool
        Tempting the Beast, or accepting the hunting bonus: +Soif dice, all
        of them Beast dice.
    frenzy : bool
        A physical roll in frenzy: +Soif dice (normal dice unless
        ``rules.frenzy_bonus_beast``).
    max_successes : int
        Success counts given exactly up to this (0..200); the rest is an
        exact tail.

    Returns
    -------
    analysis.engine.results.MechanicOdds
        The one odds type of a counted roll, of ``soif.toml``'s cell for the dice rolled: the five
        classes by name, ``p_success``, ``p_beastly_critical``, ``successes`` up to ``max_successes``
        and the exact ``tail``; ``odds.pool``, ``odds.soif``, ``odds.tempt`` what was asked and
        ``odds.dice``, ``odds.beast_dice``, ``odds.chance`` the roll built (``odds.values``: its cell).

    Raises
    ------
    ValueError
        On a pool, Soif or bound out of range, ``tempt`` with ``frenzy``, or
        bad rules.

    Examples
    --------
    >>> o = odds(4, 5)            # "Trop de dés": four Beast dice, no more
    >>> o.dice, o.beast_dice
    (4, 4)
    """
    pool, soif, max_successes, rules = _check_roll(pool, soif, max_successes, rules, tempt, frenzy)
    return _odds(pool, soif, max_successes, rules, tempt, frenzy, rules.dice(pool, soif, tempt, frenzy))


def frenzy_risk(
    resolve: int, composure: int, soif: int, rules: BeastRules = OFFICIAL, max_successes: int = DEFAULT_MAX_SUCCESSES
) -> MechanicOdds:
    """The roll to hold back the Beast: Resolve + Composure - Soif dice.

    A chance die at 0 dice or less.  No Beast dice unless
    ``rules.frenzy_roll_beast_dice``.  ``p_success`` is the chance that the
    roll succeeds.

    Parameters
    ----------
    resolve, composure : int
        1..10 each.
    soif : int
        0..5.
    """
    resolve = check_int("resolve", resolve, 1, 10)
    composure = check_int("composure", composure, 1, 10)
    soif = check_int("soif", soif, 0, MAX_SOIF)
    max_successes = check_max_successes(max_successes)
    rules = BeastRules.require(rules)
    pool = resolve + composure - soif
    if rules.frenzy_roll_beast_dice:
        roll = rules.dice(pool, soif)
    else:
        roll = (1, 0, True) if pool <= 0 else (pool, 0, False)
    return _odds(pool, soif, max_successes, rules, False, False, roll)


# ------------------------------------------------------------ tables


def _grid(pools, soifs, rules, tempt, frenzy):
    pools = as_values("pool", pools, -MAX_POOL, MAX_POOL)
    soifs = as_values("soif", soifs, 0, MAX_SOIF)
    rules = BeastRules.require(rules)
    _check_flags(tempt, frenzy)
    keys = [(p, s) for p in pools for s in soifs]
    rolls = tuple(rules.dice(p, s, tempt, frenzy) for p, s in keys)
    return keys, rolls, rules


def _class_frame(key_cols: dict, counted, rules, exact: bool) -> pd.DataFrame:
    names = CLASSES + ("p_success", "p_beastly_critical")
    ways, dens = [], []
    for w in counted:
        named = named_ways(w, rules)
        ways.append([named[c] for c in names])
        dens.append([w.denominator])
    values = ratios(ways, dens, exact)
    cols = {k: np.array(v, dtype=np.int64) for k, v in key_cols.items()}
    for j, name in enumerate(names):
        cols[name] = values[:, j]
    return pd.DataFrame(cols)


def table(
    pools,
    soifs,
    rules: BeastRules = OFFICIAL,
    *,
    tempt: bool = False,
    frenzy: bool = False,
    exact: bool = False,
    at_least=None,
    check_only: bool = False,
) -> pd.DataFrame:
    """A tidy odds table: one row per (pool, soif).

    Parameters
    ----------
    pools, soifs : int, SPEC string or iterable of ints
        SPEC is ``7``, a range ``1-20`` or a list ``3,5,7``.  Soif 0..5.
    rules : BeastRules
    tempt, frenzy : bool
        As for :func:`odds`.
    exact : bool
        False: float64 probabilities; True: ``Fraction`` objects.
    at_least : None, int or SPEC string
        Adds a column ``p_at_least_N`` per N: the exact chance of N or more
        successes (10-again; a beastly critical's 10s count double), N
        0..200.
    check_only : bool
        Check everything (the values, the size, the at-least work) and
        count nothing: returns None, or raises as the table would.

    Returns
    -------
    pandas.DataFrame
        Columns ``pool, soif, beast_dice, dramatic_failure, bestial_failure,
        failure, plain_success, exceptional_success, p_success,
        p_beastly_critical``.
        The five classes from ``dramatic_failure`` to
        ``exceptional_success`` sum to 1; ``p_beastly_critical`` is part of
        the successes; ``p_success = plain_success + exceptional_success``.
    """
    exact = check_bool("exact", exact)
    keys, rolls, rules = _grid(pools, soifs, rules, tempt, frenzy)

    if at_least is not None:  # before any cell is counted
        # a distribution of again-dice is counted up to its largest N: at most MAX_SUCCESSES
        ns = _al.parse(at_least, most=_rq.MAX_SUCCESSES)
        _al.check_size(len(keys), ns)
        _al.check_dice_successes([d for d, _, _ in dict.fromkeys(rolls)], max(1, max(ns)))
    if check_bool("check_only", check_only):
        return None
    counted = count_rolls(rolls, rules.exceptional_successes - 1, rules)
    df = _class_frame(
        {"pool": [k[0] for k in keys], "soif": [k[1] for k in keys], "beast_dice": [r[1] for r in rolls]},
        counted,
        rules,
        exact,
    )

    if at_least is None:
        return df
    # every row's successes up to the largest N, counted in one call (not a roll at a time)
    top = max(1, max(_al.parse(at_least, most=_rq.MAX_SUCCESSES)))
    by_key = dict(zip(keys, count_rolls(rolls, top, rules)))

    def distribution(pool, soif, top):
        w = by_key[(pool, soif)]  # every count up to top, over one denominator
        return dict(enumerate(success_ways(w, top))), w.denominator

    return _al.add_columns(df, at_least, distribution, ("pool", "soif"), exact)


def distribution_table(
    pools,
    soifs,
    max_successes: int | None = DEFAULT_MAX_SUCCESSES,
    rules: BeastRules = OFFICIAL,
    *,
    tempt: bool = False,
    frenzy: bool = False,
    exact: bool = False,
    check_only: bool = False,
) -> pd.DataFrame:
    """The exact distribution of successes: one row per (pool, soif, successes).

    Columns ``pool, soif, beast_dice, successes, p_exactly, p_at_least,
    p_more, mean_successes``.  On a (pool, soif)'s last row (``successes ==
    max_successes``; None: ``DEFAULT_MAX_SUCCESSES``, 20) ``p_more`` is the
    exact tail: ``p_exactly`` summed plus that tail is exactly 1.  Again-dice
    have no highest count, but ``mean_successes`` is exact all the same
    (:func:`mean_successes`).  The
    size is checked before any counting (:mod:`analysis.engine.distribution`'s row
    limit, the again-dice limit of :func:`analysis.engine.at_least.check_dice_successes`);
    ``check_only``: only that (returns None).
    """
    exact, check_only = check_bool("exact", exact), check_bool("check_only", check_only)
    keys, rolls, rules = _grid(pools, soifs, rules, tempt, frenzy)
    max_successes = check_max_successes(DEFAULT_MAX_SUCCESSES if max_successes is None else max_successes)
    _dist.check_rows(len(keys) * (max_successes + 1))
    _al.check_dice_successes((r[0] for r in dict.fromkeys(rolls)), max_successes, "distribution")
    if check_only:
        return None
    counted = count_rolls(rolls, max_successes, rules)
    df = _rq.distribution_frame(
        {"pool": [k[0] for k in keys], "soif": [k[1] for k in keys], "beast_dice": [r[1] for r in rolls]},
        counted,
        max_successes,
        exact,
    )

    means = {r: mean_successes(r, rules) for r in dict.fromkeys(rolls)}  # exact, though the counts are not bounded
    df["mean_successes"] = np.array(
        [m if exact else float(m) for r in rolls for m in [means[r]] * (max_successes + 1)],
        dtype=object if exact else np.float64,
    )
    return df


# ------------------------------------------------------------ a character down the Soif ladder


def character_table(
    ladder: SoifLadder, pool: int, rules: BeastRules = OFFICIAL, *, tempt: bool = False, exact: bool = False
) -> pd.DataFrame:
    """A character's odds on one pool at every current Vitae, full to empty.

    Parameters
    ----------
    ladder : SoifLadder
        From :func:`soif_ladder` or :func:`ghoul_soif_ladder`.
    pool : int
        Dice after modifiers (-200..200).
    rules : BeastRules
    tempt : bool
        Tempting the Beast (or the hunting bonus) on every roll.
    exact : bool
        Fractions instead of floats.

    Returns
    -------
    pandas.DataFrame
        Columns ``vitae, soif, beast_dice`` then the classes of
        :func:`table`, one row per Vitae from ``max_vitae`` down to 0.
    """
    exact = check_bool("exact", exact)
    ladder = check_ladder(ladder)
    pool = check_int("pool", pool, -MAX_POOL, MAX_POOL)
    rules = BeastRules.require(rules)
    _check_flags(tempt, False)
    steps = ladder.table()
    soifs = steps.soif.tolist()
    rolls = tuple(rules.dice(pool, s, tempt) for s in soifs)
    counted = count_rolls(rolls, rules.exceptional_successes - 1, rules)
    return _class_frame(
        {"vitae": steps.vitae.tolist(), "soif": soifs, "beast_dice": [r[1] for r in rolls]}, counted, rules, exact
    )


# ------------------------------------------------------------ the mean, a formula of the house rule


def mean_successes(roll: Roll, rules: BeastRules) -> Fraction:
    """The exact mean successes of one roll ``(dice, Beast dice, chance die?)`` with La Soif.

    The engine gives the mean of a file's successes where they are a sum of
    marks (:func:`analysis.engine.explode.mean_successes`); La Soif's are not
    (a beastly critical counts its Beast 10s twice and does not roll them
    again), so the mean is this formula of the house rule.  A fresh again-die
    has mean ``E = (10 - f) / (10 - h)`` (``f`` failing faces, ``h`` faces
    rolled again).  A die's face (after a rote reroll of a failure) counts 1
    on a success, plus ``E`` on an again face; a beastly 10 counts
    ``beastly_ten_successes``.  The chance of a roll's dice, ``(AB**nn -
    A**nn) * AB**nb + A**nn * AC**nb`` (``A``: a face other than a 10,
    ``AB``: any face with the again rule, ``AC``: any face with beastly 10s),
    differentiated at 1, gives ``(nn + nb) * AB'(1) + A(1)**nn * nb * (AC'(1)
    - AB'(1))``; a chance die succeeds on a 10 alone.  Tests hold it to the
    counted distribution's mean (tests/test_beast_api.py).
    """
    fail = _rq.SUCCESS_FACE - 1
    again_face = rules.again_face
    again = 11 - again_face if again_face <= 10 else 0
    chain = Fraction(10 - fail, 10 - again)  # one fresh again-die
    dice, beast_dice, chance = roll
    if chance:
        p_ten = Fraction(19, 100) if rules.rote_chance_die and rules.rote else Fraction(1, 10)
        if beast_dice:
            return p_ten * rules.beastly_ten_successes
        return p_ten * (1 + chain if rules.chance_die_again and again_face <= 10 else 1)
    q_success = Fraction(10 + fail, 100) if rules.rote else Fraction(1, 10)  # each face from 8 up
    a = 1 - q_success  # A(1): the face is not a 10
    a_mean = sum(
        (q_success * (1 + chain if face >= again_face else 1) for face in range(_rq.SUCCESS_FACE, 10)), Fraction(0)
    )
    ten = 1 + chain if again_face <= 10 else Fraction(1)
    ab = a_mean + q_success * ten
    ac = a_mean + q_success * rules.beastly_ten_successes
    nn, nb = dice - beast_dice, beast_dice
    return (nn + nb) * ab + a**nn * nb * (ac - ab)
