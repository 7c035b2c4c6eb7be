"""V5 tables beyond one roll: Willpower gain, Rouse checks, Blood Potency."""

from __future__ import annotations

from analysis.systems.v5 import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.systems.v5 import rouse
from analysis.systems.v5 import roll as v5


def willpower_table_text(pools=range(3, 11), hungers=range(0, 6), difficulty=3, strategy="reroll_failures") -> str:
    """Chance to win without / with a Willpower reroll (Markdown, the V5 core rules' layout)."""
    base = v5.table(list(pools), list(hungers), difficulty)
    wp = v5.table(list(pools), list(hungers), difficulty, strategy=strategy)
    head = ["Pool"] + [f"Hunger {h}" for h in hungers]
    lines = [
        f"Chance to win at Difficulty {difficulty}: no reroll -> with Willpower ({strategy})",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---:" for _ in head) + "|",
    ]
    for pool in pools:
        b = base[base.pool == pool]
        w = wp[wp.pool == pool]
        cells = [f"{x:.1%} -> {y:.1%}" for x, y in zip(b.p_win, w.p_win)]
        lines.append("| " + " | ".join([str(pool)] + cells) + " |")
    return "\n".join(lines) + "\n"


#: The rule set stated above each table in the booklet (``analysis.present.booklet``).
RULE_SETS = {
    "v5_willpower_reroll_failures": [
        "v5-official",
        "With a Willpower reroll of up to three failed normal dice when the roll fails (reroll_failures).",
    ],
    "v5_willpower_maximize_win": [
        "v5-official",
        "With the Willpower reroll that maximizes the "
        "chance to win, chosen for every way the dice can land (maximize_win).",
    ],
    "v5_willpower_difficulty3_layout": [
        "v5-official",
        "Without a reroll, then with the reroll_failures Willpower reroll.",
    ],
    "v5_rouse": "Rouse checks as docs/rules.md rules them: a check keeps Hunger on 6+, else "
    "Hunger +1 (at most 5); with a reroll, Hunger rises only if both dice fail; a failed "
    "check at Hunger 5 calls for a hunger frenzy test.",
    "v5_blood_potency": "The Blood Potency table of docs/rules.md (no dice rolled).",
}


def make_tables() -> dict:
    keys = ("pool", "hunger", "difficulty")
    out = {}
    for name in ("reroll_failures", "maximize_win"):
        out[f"v5_willpower_{name}"] = (v5.table(range(1, 16), range(0, 6), range(1, 9), strategy=name), keys)
    out["v5_willpower_difficulty3_layout"] = (willpower_table_text(), keys)
    out["v5_rouse"] = (rouse.table(range(0, 6), range(0, 6), [False, True]), ("start_hunger", "checks", "reroll"))
    out["v5_blood_potency"] = (rouse.blood_potency_table(), tuple(rouse.blood_potency_table().columns))
    return out


#: Readable headings and legend lines of these tables in the booklet (``analysis.present.booklet``).
TITLES = {
    "v5_willpower_reroll_failures": "With a Willpower reroll of failed dice",
    "v5_willpower_maximize_win": "With the Willpower reroll that maximizes the win",
    "v5_willpower_difficulty3_layout": "What a Willpower reroll gains at Difficulty 3",
    "v5_rouse": "Hunger after Rouse checks",
    "v5_blood_potency": "Blood Potency",
}
LEGENDS = {
    "v5_willpower_difficulty3_layout": {
        "Hunger 0 … 5": "each cell is the chance to win without a reroll -> with the reroll_failures "
        "Willpower reroll, in percent"
    },
    "v5_rouse": {
        c: f"chance that Hunger ends at {c[-1]}"
        for c in ("hunger_0", "hunger_1", "hunger_2", "hunger_3", "hunger_4", "hunger_5")
    }
    | {
        "frenzy_test": "chance that a failed check at Hunger 5 calls for a hunger frenzy test",
        "reroll": "whether each check rerolls (Blood Potency)",
    },
}
