"""La Soif odds tables: classes by pool and Soif, the house rule's ladders, a character, the comparison."""

from __future__ import annotations

from analysis.systems.requiem import SYSTEM as SYSTEM  # the system it is of: its section of the booklet
from analysis.systems.requiem import beast
from analysis.versus import requiem_v5
from analysis.systems.requiem import dice as requiem

#: The house rule's vampires and ghoul: (label, arguments of soif_ladder / ghoul_soif_ladder).
SEED_VAMPIRES = (
    ("BP 2, Resolve 3, Composure 2, 11 Vitae", (11, 3, 2, 2)),
    ("BP 6, Resolve 4, Composure 4, 20 Vitae", (20, 4, 4, 6)),
    ("BP 6, Resolve 2, Composure 2, 20 Vitae", (20, 2, 2, 6)),
)
SEED_GHOUL = ("Size 5, Stamina 3, Resolve 2, Composure 3", (3, 5, 2, 3))


def seed_ladders_text() -> str:
    """The house rule's ladders in both modes (Markdown)."""
    lines = ["| Character | T | written (default) | printed |", "|---|---:|---|---|"]
    for label, args in SEED_VAMPIRES:
        written = beast.soif_ladder(*args)
        printed = beast.soif_ladder(*args, mode="printed")
        lines.append(f"| vampire: {label} | {written.thirst_start} | {written.notation()} | {printed.notation()} |")
    label, args = SEED_GHOUL
    ghoul = beast.ghoul_soif_ladder(*args)
    lines.append(f"| ghoul: {label} | {ghoul.thirst_start} | {ghoul.notation()} | (same) |")
    return "\n".join(lines) + "\n"


#: The rule set stated above each table in the booklet (``analysis.present.booklet``).
RULE_SETS = {
    "requiem_classes": "Plain Requiem dice (1st edition): 8+ succeeds, 10-again, a chance die "
    "at pool 0 or less, exceptional at 5+ successes; no Beast dice.",
    "beast_compare_v5": ["requiem-la-soif", "v5-official"],
}


def make_tables() -> dict:
    keys = ("pool", "soif", "beast_dice")
    first = beast.soif_ladder(*SEED_VAMPIRES[0][1])
    return {
        "requiem_classes": (requiem.table(range(0, 21)), ("pool",)),
        "beast_classes": (beast.table(range(0, 21), range(0, 6)), keys),
        "beast_classes_tempt": (beast.table(range(0, 21), range(0, 6), tempt=True), keys),
        "beast_house_rule_ladders": (seed_ladders_text(), ()),
        "beast_character_first_vampire_pool6": (beast.character_table(first, 6), ("vitae", "soif", "beast_dice")),
        "beast_compare_v5": (requiem_v5.compare_table(range(1, 13), range(0, 6)), ("pool", "level")),
    }


#: Readable headings and legend lines of these tables in the booklet (``analysis.present.booklet``).
TITLES = {
    "requiem_classes": "Plain Requiem dice: every outcome class by pool",
    "beast_classes": "La Soif: every outcome class by pool and Soif",
    "beast_classes_tempt": "La Soif, tempting the Beast: every outcome class by pool and Soif",
    "beast_house_rule_ladders": "Soif ladders of sample characters",
    "beast_character_first_vampire_pool6": "A sample vampire rolling 6 dice, by current Vitae",
    "beast_compare_v5": "Requiem, La Soif and V5 side by side",
}
LEGENDS = {
    "beast_house_rule_ladders": {
        "Character": "the sample character",
        "T": "the Vitae from which Soif shows: maximum Vitae - (Resolve + Composure - Blood Potency)",
        "written (default)": "the Soif of each Vitae box, highest Vitae first, when T exceeds the maximum "
        "Vitae the lowest levels are dropped (the default)",
        "printed": "the same ladder when the excess boxes first go to the highest levels",
    },
    "beast_character_first_vampire_pool6": {"vitae": "current Vitae"},
    "beast_compare_v5": {"level": "Soif (La Soif) or Hunger (V5), the same number of special dice"},
}
