"""V5 conflicts: opposed rolls, damage, Health and Willpower trackers (fights: :mod:`analysis.systems.v5.fight`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import cast

import numpy as np
import pandas as pd

from analysis.engine import seam
from analysis.engine import exact as _exact
from analysis.engine.exact import fractions_over
from analysis.model.rules import Rules, rule
from analysis.systems.v5 import dice as v5, roll
from analysis.model.validate import InputError, check_bool, check_choice, check_int

#: Kinds of damage, in the game's words.
DAMAGE_KINDS = ("superficial", "aggravated")
#: The tracker a conflict damages: Health (physical) or Willpower (social, mental).
TRACKS = ("health", "willpower")
#: When a fight stops: when a side is out (torpor or death) or first Impaired.
UNTIL = ("out", "impaired")
#: Largest pool in a conflict: the margin table is counted over 10**(both pools).
MAX_POOL = 100
#: Largest tracker; Health is Stamina + 3, Willpower Composure + Resolve.
MAX_BOXES = 20
#: Most turns a fight is followed for (V5 conflicts last about three).
MAX_TURNS = 100
#: A fight whose exact count needs more than this many multiply-adds (primes x
#: turns x transitions, plus rebuilding the counts from their residues; some
#: seconds) is refused with a suggestion rather than left to run; a fight of
#: pools 15 against 15 over 100 turns needs about a third of it.
MAX_WORK = 1_000_000_000

#: Columns of :meth:`FightResult.table`, in order.
FIGHT_COLUMNS = (
    "turn",
    "a_impaired",
    "b_impaired",
    "a_impaired_first",
    "b_impaired_first",
    "both_impaired_together",
    "a_out_first",
    "b_out_first",
    "both_out_together",
    "over",
)
#: Columns of :func:`conflict_table`, in order.
CONFLICT_COLUMNS = ("margin", "winner", "damage_to_a", "damage_to_b", "probability")


# ------------------------------------------------------------------ rules


@dataclass(frozen=True)
class ConflictRules(Rules):
    """How a V5 conflict deals damage.  Defaults are the rules (docs/rules.md).

    Attributes
    ----------
    tie_damage : int
        Damage each side takes on a tie (0..10); official 1.
    tie_adds_weapon : bool
        House rule: a tie also adds each attacker's weapon bonus.  Official False.
    tie_needs_successes : bool
        House rule: a tie at 0 successes each deals no damage.  Official False.
    halve_superficial : bool
        A vampire halves Superficial physical (Health) damage.  Official True;
        mortals never halve.
    halve_rounding : str
        ``"up"`` (official) or ``"down"``.
    impairment_penalty : int
        Dice lost by an Impaired side (0..10); official 2.  It applies to the
        pool of the conflict, which is physical for Health and social or mental
        for Willpower.
    dice : V5Rules
        The dice rules of the rolls (official by default).
    """

    tie_damage: int = rule(1, range=(0, 10), help="Damage each side takes on a tie (0..10); official 1.")
    tie_adds_weapon: bool = rule(
        False, help="House rule: a tie also adds each attacker's weapon bonus; official false."
    )
    tie_needs_successes: bool = rule(
        False, help="House rule: a tie at 0 successes each deals no damage; official false."
    )
    halve_superficial: bool = rule(
        True, help="A vampire halves Superficial physical (Health) damage (official true); mortals never halve."
    )
    halve_rounding: str = rule(
        "up", choices=("up", "down"), help="How halved Superficial damage rounds: up (official) or down."
    )
    impairment_penalty: int = rule(
        2, range=(0, 10), help="Dice lost by an Impaired side in the conflict's pool (0..10); official 2."
    )
    dice: v5.V5Rules = rule(v5.OFFICIAL, help="The dice rules of the rolls (the official V5 rules by default).")


OFFICIAL = ConflictRules()


# --------------------------------------------------------------- trackers


@dataclass(frozen=True)
class Tracker:
    """A Health or Willpower tracker: boxes holding Superficial or Aggravated damage.

    Attributes
    ----------
    boxes : int
        Size of the track (1..20): Health = Stamina + 3, Willpower =
        Composure + Resolve.
    superficial, aggravated : int
        Boxes marked with each kind of damage.

    Examples
    --------
    >>> t = Tracker.health(stamina=2).take(6)
    >>> t.superficial, t.aggravated, t.impaired
    (4, 1, True)
    """

    boxes: int
    superficial: int = 0
    aggravated: int = 0

    def __post_init__(self):
        check_int("boxes", self.boxes, 1, MAX_BOXES)
        check_int("superficial damage", self.superficial, 0, self.boxes)
        check_int("aggravated damage", self.aggravated, 0, self.boxes)
        if self.superficial + self.aggravated > self.boxes:
            raise ValueError(
                f"{self.superficial} Superficial + {self.aggravated} Aggravated damage do not fit in {self.boxes} boxes"
            )

    @classmethod
    def health(cls, stamina: int, superficial: int = 0, aggravated: int = 0) -> "Tracker":
        """A Health tracker of Stamina + 3 boxes."""
        stamina = check_int("stamina", stamina, 1, MAX_BOXES - 3)
        return cls(stamina + 3, superficial, aggravated)

    @classmethod
    def willpower(cls, composure: int, resolve: int, superficial: int = 0, aggravated: int = 0) -> "Tracker":
        """A Willpower tracker of Composure + Resolve boxes."""
        composure = check_int("composure", composure, 1, 10)
        resolve = check_int("resolve", resolve, 1, 10)
        return cls(composure + resolve, superficial, aggravated)

    @property
    def impaired(self) -> bool:
        """Every box holds damage: -2 dice (Health: physical pools)."""
        return self.superficial + self.aggravated == self.boxes

    @property
    def out(self) -> bool:
        """Every box is Aggravated: torpor for a vampire, death for a mortal (Health)."""
        return self.aggravated == self.boxes

    @property
    def unmarked(self) -> int:
        """Boxes holding no damage."""
        return self.boxes - self.superficial - self.aggravated

    def take(self, amount: int, kind: str = "superficial") -> "Tracker":
        """The tracker after ``amount`` points of damage of one kind, as marked.

        Halving (vampires, Superficial physical damage) is the conflict's job,
        not the tracker's: ``amount`` is what gets marked.  Each point fills an
        empty box; on a full track it turns one Superficial box Aggravated;
        once every box is Aggravated, further damage changes nothing.
        """
        amount = check_int("damage", amount, 0)
        check_choice("damage kind", kind, DAMAGE_KINDS)
        sup, agg = self.superficial, self.aggravated
        for _ in range(min(amount, 2 * self.boxes)):
            if sup + agg < self.boxes:
                if kind == "superficial":
                    sup += 1
                else:
                    agg += 1
            elif sup > 0:
                sup -= 1
                agg += 1
            else:
                break
        return Tracker(self.boxes, sup, agg)


# -------------------------------------------------------------- characters


@dataclass(frozen=True)
class Combatant:
    """One side of a conflict.

    Attributes
    ----------
    pool : int
        Dice the side rolls in this conflict (0..100), before Impairment.
    hunger : int
        Hunger 0..5 (vampires only; a mortal has none).  Under the official
        rules Hunger changes what a roll means, not its successes.
    stamina, composure, resolve : int
        Attributes for the default trackers: Health = Stamina + 3 (default
        Stamina 2), Willpower = Composure + Resolve (default 2 + 2).
    vampire : bool
        True: halves Superficial physical damage and falls into torpor;
        False (a mortal): no halving, and dies.
    weapon : int
        Weapon bonus added to the damage when this side wins (0..10).
    damage : str
        Kind of damage this side deals: ``"superficial"`` or ``"aggravated"``.
    attacks : bool
        False: the side only defends (dodges) and deals no damage, even on a tie.
    health, willpower : Tracker or None
        Override the default trackers (starting damage, extra boxes).
    name : str
        Used in error messages and printouts.
    """

    pool: int
    hunger: int = 0
    stamina: int = 2
    composure: int = 2
    resolve: int = 2
    vampire: bool = True
    weapon: int = 0
    damage: str = "superficial"
    attacks: bool = True
    health: Tracker | None = None
    willpower: Tracker | None = None
    name: str = ""

    def __post_init__(self):
        try:
            check_int("pool", self.pool, 0, MAX_POOL)
            check_int("hunger", self.hunger, 0, v5.MAX_HUNGER)
            check_int("weapon", self.weapon, 0, 10)
            check_bool("vampire", self.vampire)
            check_bool("attacks", self.attacks)
            check_choice("damage", self.damage, DAMAGE_KINDS)
            if not self.vampire and self.hunger:
                raise ValueError(f"a mortal has no Hunger: hunger must be 0, got {self.hunger}")
            if not isinstance(self.name, str):
                raise ValueError(f"name must be text, got {self.name!r}")
            for field, default in (
                ("health", lambda: Tracker.health(self.stamina)),
                ("willpower", lambda: Tracker.willpower(self.composure, self.resolve)),
            ):
                value = getattr(self, field)
                if value is None:
                    object.__setattr__(self, field, default())
                elif not isinstance(value, Tracker):
                    raise ValueError(f"{field} must be a Tracker, got {type(value).__name__}")
        except ValueError as exc:
            if not self.name:
                raise
            if isinstance(exc, InputError):  # still named: "side A: pool must be ..."
                raise InputError(f"{self.name}: {exc.name}", exc.rest) from None
            raise ValueError(f"{self.name}: {exc}") from None

    def tracker(self, track: str = "health") -> Tracker:
        """The Health or Willpower tracker."""
        return cast(
            Tracker, self.health if check_choice("track", track, TRACKS) == "health" else self.willpower
        )  # both set by __post_init__

    @property
    def out_word(self) -> str:
        """What a full track of Aggravated Health means for this side."""
        return "torpor" if self.vampire else "death"


def _check_combatant(name: str, c) -> Combatant:
    if not isinstance(c, Combatant):
        raise ValueError(f"{name} must be a Combatant, got {type(c).__name__}")
    return c


# ------------------------------------------------------- one opposed roll


@lru_cache(maxsize=1024)
def _success_ways(pool: int, hunger: int, dice_rules: v5.V5Rules):
    """(ways per success count as Python ints, number of dice) of one V5 roll."""
    o = roll.odds(pool, hunger, 0, dice_rules)
    dice = o.normal_dice + o.hunger_dice
    scale, rest = divmod(10**dice, o.denominator)
    if rest:
        raise AssertionError("the engine's denominator does not divide 10 ** dice")
    ways = [o.success_ways.get(s, 0) * scale for s in range(max(o.success_ways, default=0) + 1)]
    while len(ways) > 1 and ways[-1] == 0:
        ways.pop()
    return tuple(ways), dice


@lru_cache(maxsize=1024)
def _margin_ways(pool_a: int, hunger_a: int, pool_b: int, hunger_b: int, dice_rules: v5.V5Rules):
    """Signed margin ways ``{m: ways}`` (m = A's successes - B's), the ways of a
    0-0 tie, and the denominator ``10**(dice of both sides)``."""
    _kc = seam.conflict  # its kernels: loaded when a conflict is first counted

    wa, da = _success_ways(pool_a, hunger_a, dice_rules)
    wb, db = _success_ways(pool_b, hunger_b, dice_rules)
    den = 10 ** (da + db)

    def compute(mod: int) -> np.ndarray:
        a = np.array([w % mod if mod else w for w in wa], dtype=np.int64)
        b = np.array([w % mod if mod else w for w in wb], dtype=np.int64)
        out = np.empty(len(wa) + len(wb) - 1, dtype=np.int64)
        _kc.opposed_margin_ways(a, b, mod, out)
        return out

    ways = _exact.count(compute, _kc.opposed_margin_ways_bound(wa, wb))
    offset = len(wb) - 1
    margins = {m - offset: int(w) for m, w in enumerate(ways.tolist()) if w}
    return margins, wa[0] * wb[0], den


def margin_distribution(
    pool_a: int, pool_b: int, hunger_a: int = 0, hunger_b: int = 0, rules: ConflictRules = OFFICIAL
) -> dict:
    """Exact distribution of the margin of an opposed V5 roll.

    Parameters
    ----------
    pool_a, pool_b : int
        Dice of each side (0..100).
    hunger_a, hunger_b : int
        Hunger of each side (0..5).
    rules : ConflictRules
        Only its ``dice`` rules matter here.

    Returns
    -------
    dict
        ``{margin: Fraction}`` with margin = A's successes - B's successes:
        positive, A wins by that margin; negative, B wins by ``-margin``;
        0, a tie.  Non-zero entries only; the values sum to exactly 1.

    Examples
    --------
    >>> margin_distribution(1, 1)
    {-1: Fraction(1, 4), 0: Fraction(1, 2), 1: Fraction(1, 4)}
    """
    pool_a = check_int("pool_a", pool_a, 0, MAX_POOL)
    pool_b = check_int("pool_b", pool_b, 0, MAX_POOL)
    hunger_a = check_int("hunger_a", hunger_a, 0, v5.MAX_HUNGER)
    hunger_b = check_int("hunger_b", hunger_b, 0, v5.MAX_HUNGER)
    rules = ConflictRules.require(rules)
    margins, _, den = _margin_ways(pool_a, hunger_a, pool_b, hunger_b, rules.dice)
    return {m: Fraction(w, den) for m, w in sorted(margins.items())}


def _marked(raw: int, kind: str, target: Combatant, track: str, rules: ConflictRules) -> int:
    """Damage as marked on ``target``'s track: vampires halve Superficial physical damage."""
    if raw and kind == "superficial" and track == "health" and target.vampire and rules.halve_superficial:
        return (raw + 1) // 2 if rules.halve_rounding == "up" else raw // 2
    return raw


def _pool(c: Combatant, impaired: bool, rules: ConflictRules) -> int:
    return max(0, c.pool - rules.impairment_penalty) if impaired else c.pool


def outcome_ways(a: Combatant, b: Combatant, rules: ConflictRules, track: str, impaired_a: bool, impaired_b: bool):
    """One turn's rows ``(margin, damage to A, damage to B, ways)`` and the denominator.

    Damage is as marked on the track (after halving); ways are over
    ``10**(dice of both sides)`` with the Impairment penalty applied.
    """
    margins, zero_tie, den = _margin_ways(
        _pool(a, impaired_a, rules), a.hunger, _pool(b, impaired_b, rules), b.hunger, rules.dice
    )
    rows = []
    for m, w in sorted(margins.items()):
        if m > 0:
            rows.append((m, 0, _marked(m + a.weapon, a.damage, b, track, rules) if a.attacks else 0, w))
        elif m < 0:
            rows.append((m, _marked(-m + b.weapon, b.damage, a, track, rules) if b.attacks else 0, 0, w))
        else:
            tie_a = rules.tie_damage + (b.weapon if rules.tie_adds_weapon else 0)
            tie_b = rules.tie_damage + (a.weapon if rules.tie_adds_weapon else 0)
            to_a = _marked(tie_a, b.damage, a, track, rules) if b.attacks and rules.tie_damage else 0
            to_b = _marked(tie_b, a.damage, b, track, rules) if a.attacks and rules.tie_damage else 0
            if rules.tie_needs_successes and zero_tie:
                rows.append((0, 0, 0, zero_tie))
                w -= zero_tie
            if w:
                rows.append((0, to_a, to_b, w))
    return rows, den


def check_sides(a, b, rules, track):
    """``(a, b, rules, track)`` checked for a conflict or a fight, each refusal one sentence."""
    a = _check_combatant("a", a)
    b = _check_combatant("b", b)
    rules = ConflictRules.require(rules)
    track = check_choice("track", track, TRACKS)
    return a, b, rules, track


def damage_distribution(a: Combatant, b: Combatant, rules: ConflictRules = OFFICIAL, track: str = "health") -> dict:
    """Exact distribution of the damage one turn of conflict marks on each side.

    Both sides roll (an Impaired side, by its current tracker, loses the
    Impairment penalty); more successes wins and deals the margin plus its
    weapon, of its kind; a tie deals ``tie_damage`` to both.  A vampire
    halves Superficial Health damage (rounding up by default); a mortal
    does not.

    Parameters
    ----------
    a, b : Combatant
    rules : ConflictRules
    track : str
        ``"health"`` (physical conflict) or ``"willpower"`` (social, mental).

    Returns
    -------
    dict
        ``{(damage to A, damage to B): Fraction}``, as marked on the
        trackers; non-zero entries only, summing to exactly 1.
    """
    a, b, rules, track = check_sides(a, b, rules, track)
    rows, den = outcome_ways(a, b, rules, track, a.tracker(track).impaired, b.tracker(track).impaired)
    out: dict = {}
    for _, to_a, to_b, w in rows:
        out[(to_a, to_b)] = out.get((to_a, to_b), 0) + w
    return {k: Fraction(w, den) for k, w in sorted(out.items())}


def conflict_table(
    a: Combatant, b: Combatant, rules: ConflictRules = OFFICIAL, track: str = "health", exact: bool = False
) -> pd.DataFrame:
    """One turn of conflict as a tidy table: one row per margin.

    Returns
    -------
    pandas.DataFrame
        Columns ``margin`` (A's successes - B's), ``winner`` (``a``, ``b`` or
        ``tie``), ``damage_to_a``, ``damage_to_b`` (as marked, after halving)
        and ``probability`` (float, or Fraction with ``exact=True``).
    """
    a, b, rules, track = check_sides(a, b, rules, track)
    check_bool("exact", exact)
    rows, den = outcome_ways(a, b, rules, track, a.tracker(track).impaired, b.tracker(track).impaired)
    ways = np.array([r[3] for r in rows], dtype=object)
    probs = fractions_over(ways, den)
    return pd.DataFrame(
        {
            "margin": [r[0] for r in rows],
            "winner": ["a" if r[0] > 0 else "b" if r[0] < 0 else "tie" for r in rows],
            "damage_to_a": [r[1] for r in rows],
            "damage_to_b": [r[2] for r in rows],
            "probability": list(probs) if exact else [float(p) for p in probs],
        }
    )
