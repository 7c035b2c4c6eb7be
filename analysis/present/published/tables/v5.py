"""The V5 odds tables: the core rules' Beast table and the full table."""

from __future__ import annotations

from analysis.systems.v5 import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.systems.v5 import roll as v5


def seed_table_text(pools=range(3, 11), hungers=range(0, 6), difficulty=3) -> str:
    """The core rules' table in its own layout (Markdown): pool, chance to win,
    then per Hunger "messy critical / bestial failure" in percent."""
    df = v5.table(list(pools), list(hungers), difficulty)
    head = ["Pool", f"Win (Difficulty {difficulty})"] + [f"Hunger {h}" for h in hungers]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---:" for _ in head) + "|"]
    for pool, rows in df.groupby("pool", sort=True):
        cells = [str(pool), f"{rows.p_win.iloc[0]:.1%}"]
        cells += [f"{r.messy_critical:.1%} / {r.bestial_failure:.1%}" for r in rows.itertuples()]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def make_tables() -> dict:
    keys = ("pool", "hunger", "difficulty")
    return {
        "v5_core_difficulty3": (v5.table(range(3, 11), range(0, 6), 3), keys),
        "v5_core_difficulty3_layout": (seed_table_text(), keys),
        "v5_full": (v5.table(range(1, 21), range(0, 6), range(1, 9)), keys),
    }


#: Readable headings and legend lines of these tables in the booklet (``analysis.present.booklet``).
TITLES = {
    "v5_core_difficulty3": "Every outcome class at Difficulty 3, pools 3 to 10",
    "v5_core_difficulty3_layout": "Win, messy critical and bestial failure at Difficulty 3",
    "v5_full": "Every outcome class, pools 1 to 20, Difficulty 1 to 8",
}
LEGENDS = {
    "v5_core_difficulty3_layout": {
        "Win (Difficulty 3)": "chance to win at Difficulty 3 (the same at every Hunger: Hunger dice "
        "change the kind of win, not its chance)",
        "Hunger 0 … 5": "each cell is two percentages: messy critical / bestial failure at that Hunger",
    }
}
