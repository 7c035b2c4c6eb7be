"""Classic (V20-style) tables: pool odds, damage after soak, the Kincaid and Veronica example, torpor."""

from __future__ import annotations

import pandas as pd

from analysis.systems.classic import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.systems.classic import pools as classic
from analysis.systems.classic import health

SEED_ATTACKS = {
    # the classic health rules: Kincaid (Strength 4, Potence 2) on Veronica (Stamina 2), and back
    "Kincaid on Veronica": dict(dice=4, auto=2, stamina=2, fortitude=0),
    "Veronica on Kincaid": dict(dice=1, auto=0, stamina=4, fortitude=1),
}


def seed_example_table() -> pd.DataFrame:
    """Exact levels lost to each of the health chapter's two bashing attacks (vampire targets)."""
    rows = []
    for name, a in SEED_ATTACKS.items():
        odds = health.damage(a["dice"], a["auto"], a["stamina"], "bashing", "vampire", a["fortitude"])
        for levels, p in zip(odds.table().levels, odds.table().probability):
            rows.append({"attack": name, "levels": levels, "probability": p})
    return pd.DataFrame(rows)


def damage_table(dice=range(1, 11), soaks=range(0, 7)) -> pd.DataFrame:
    """Chance of at least one level and mean levels, by damage and soak dice, for
    bashing and lethal damage to a vampire (no automatic successes)."""
    rows = []
    for kind in ("bashing", "lethal"):
        for n in dice:
            for s in soaks:
                odds = health.damage(n, 0, s, kind, "vampire")
                rows.append(
                    {
                        "kind": kind,
                        "dice": n,
                        "soak": s,
                        "mean_levels": float(odds.mean_levels),
                        "at_least_one": float(odds.at_least(1)),
                        "at_least_three": float(odds.at_least(3)),
                    }
                )
    return pd.DataFrame(rows)


def make_tables() -> dict:
    return {
        "classic_pools": (classic.table(range(1, 11), range(3, 10)), ("pool", "difficulty", "mean_successes")),
        "classic_kincaid_veronica": (seed_example_table(), ("attack", "levels")),
        "classic_damage_vampire": (damage_table(), ("kind", "dice", "soak", "mean_levels")),
        "classic_torpor": (health.torpor_table(), ("humanity", "torpor")),
    }


#: Readable headings of these tables in the booklet (``analysis.present.booklet``).
TITLES = {
    "classic_pools": "Every outcome by pool and difficulty",
    "classic_kincaid_veronica": "A worked example: health levels lost to one attack",
    "classic_damage_vampire": "Damage to a vampire after soak",
    "classic_torpor": "Torpor length by Humanity",
}
LEGENDS = {
    "classic_damage_vampire": {
        "kind": "bashing or lethal damage",
        "dice": "damage dice rolled",
        "soak": "soak dice rolled",
        "mean_levels": "expected health levels lost",
        "at_least_one": "chance to lose at least one health level",
        "at_least_three": "chance to lose at least three health levels",
    },
    "classic_kincaid_veronica": {
        "attack": "who strikes whom",
        "levels": "health levels lost",
        "probability": "chance of losing that many levels (percent)",
    },
}
