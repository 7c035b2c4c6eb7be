"""V5 tables beyond one roll: Willpower gain, Rouse checks, Blood Potency."""
from __future__ import annotations

from .. import rouse, v5


def willpower_table_text(pools=range(3, 11), hungers=range(0, 6), difficulty=3,
                         strategy="reroll_failures") -> str:
    """Chance to win without / with a Willpower reroll (Markdown, seed 003's layout)."""
    base = v5.table(list(pools), list(hungers), difficulty)
    wp = v5.table(list(pools), list(hungers), difficulty, willpower=strategy)
    head = ["Pool"] + [f"Hunger {h}" for h in hungers]
    lines = [f"Chance to win at Difficulty {difficulty}: no reroll -> with Willpower ({strategy})", "",
             "| " + " | ".join(head) + " |", "|" + "|".join("---:" for _ in head) + "|"]
    for pool in pools:
        b = base[base.pool == pool]
        w = wp[wp.pool == pool]
        cells = [f"{x:.1%} -> {y:.1%}" for x, y in zip(b.p_win, w.p_win)]
        lines.append("| " + " | ".join([str(pool)] + cells) + " |")
    return "\n".join(lines) + "\n"


def make_tables() -> dict:
    keys = ("pool", "hunger", "difficulty")
    out = {}
    for name in ("reroll_failures", "maximize_win"):
        out[f"v5_willpower_{name}"] = (v5.table(range(1, 16), range(0, 6), range(1, 9), willpower=name), keys)
    out["v5_willpower_difficulty3_layout"] = (willpower_table_text(), keys)
    out["v5_rouse"] = (rouse.table(range(0, 6), range(0, 6), [False, True]),
                       ("start_hunger", "checks", "reroll"))
    out["v5_blood_potency"] = (rouse.blood_potency_table(), tuple(rouse.blood_potency_table().columns))
    return out
