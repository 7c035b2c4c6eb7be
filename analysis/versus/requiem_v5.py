"""Requiem, La Soif and V5 side by side: the same pools under plain Requiem, under La Soif and under V5."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.model.validate import as_values, check_bool, check_int
from analysis.systems.requiem import dice as _rq
from analysis.systems.requiem.beast import OFFICIAL, BeastRules, table
from analysis.systems.requiem.dice import MAX_POOL
from analysis.systems.requiem.ladder import MAX_SOIF
from analysis.systems.v5 import roll as v5


#: Columns of :func:`compare_table`, in order.
COMPARE_COLUMNS = (
    "pool",
    "level",
    "requiem_success",
    "la_soif_success",
    "v5_win",
    "requiem_exceptional",
    "la_soif_exceptional",
    "v5_critical",
    "la_soif_bestial_failure",
    "v5_bestial_failure",
    "la_soif_beastly_critical",
    "v5_messy_critical",
)


def compare_table(
    pools, levels, rules: BeastRules = OFFICIAL, *, v5_difficulty: int = 1, tempt: bool = False, exact: bool = False
) -> pd.DataFrame:
    """The same pools under plain Requiem, under La Soif, and under V5.

    One row per (pool, level), where ``level`` is the Soif (La Soif) and
    the Hunger (V5).

    Parameters
    ----------
    pools : int, SPEC or iterable
        1..200 dice.
    levels : int, SPEC or iterable
        0..5.
    rules : BeastRules
        La Soif's rules; plain Requiem uses the same dice
        (:meth:`BeastRules.requiem`).  V5 uses its official rules.
    v5_difficulty : int
        Successes a V5 roll needs (default 1: "at least one success", the
        Requiem question).
    tempt : bool
        La Soif rows tempt the Beast (plain Requiem and V5 do not).
    exact : bool
        Fractions instead of floats.

    Returns
    -------
    pandas.DataFrame
        Columns: ``pool, level``; the chance of success
        (``requiem_success``, ``la_soif_success``, ``v5_win``); of an
        exceptional success (Requiem, La Soif: 5+ successes) or a critical
        win (V5: a pair of 10s, messy or not); of a bestial failure; and of
        a beastly critical (La Soif) or messy critical (V5).
    """
    exact = check_bool("exact", exact)

    pools = as_values("pool", pools, 1, MAX_POOL)
    levels = as_values("level", levels, 0, MAX_SOIF)
    v5_difficulty = check_int("v5_difficulty", v5_difficulty, 0, 1000)
    rules = BeastRules.require(rules)
    check_bool("tempt", tempt)
    # counted exactly: a sum (v5_critical) is then float() of the exact sum, correctly rounded
    soif = table(pools, levels, rules, tempt=tempt, exact=True)
    plain = _rq.table(pools, rules.requiem(), exact=True).set_index("pool")
    fifth = v5.table(pools, levels, v5_difficulty, exact=True)
    out = pd.DataFrame({"pool": soif.pool, "level": soif.soif})
    out["requiem_success"] = plain.loc[soif.pool, "p_success"].to_numpy()
    out["la_soif_success"] = soif.p_success
    out["v5_win"] = fifth.p_win
    out["requiem_exceptional"] = plain.loc[soif.pool, "exceptional_success"].to_numpy()
    out["la_soif_exceptional"] = soif.exceptional_success
    out["v5_critical"] = fifth.critical_win + fifth.messy_critical
    out["la_soif_bestial_failure"] = soif.bestial_failure
    out["v5_bestial_failure"] = fifth.bestial_failure
    out["la_soif_beastly_critical"] = soif.p_beastly_critical
    out["v5_messy_critical"] = fifth.messy_critical
    if not exact:
        for c in out.columns[2:]:
            out[c] = np.array([float(Fraction(v)) for v in out[c]], dtype=np.float64)
    return out
