"""V5 commands: ``beastodds v5`` (its grid command, ``--strategy`` included), ``rouse``, ``conflict``,
``fight``, and ``versus`` (La Soif or ten-card tests against V5).

One of :data:`analysis.cli.parser.SYSTEM_COMMANDS`: ``SYSTEM`` is the v5 system it builds for.
"""

from __future__ import annotations

import html
import itertools
from typing import cast

import pandas as pd

from analysis.options import grid
from analysis.options.common import (
    SPEC_HELP,
    RulesOptions,
    add_output_options,
    add_progress_options,
    add_rules_options,
    add_set_option,
    check_output_options,
    counts_exactly,
    given,
    names_of,
    number_check,
    one_number,
    progress,
    render_options,
    rules_from_args,
    spec,
    spec_check,
    warn,
    with_sets,
)
from analysis.engine.progress import progress_bar
from analysis.present.tables import latex_text, markdown_text, render
from analysis.model.validate import check_cells, one_line, parse_spec

from analysis.systems.v5 import SYSTEM, conflict, rouse
from analysis.systems.v5.conflict import (
    CONFLICT_COLUMNS,
    DAMAGE_KINDS,
    FIGHT_COLUMNS,
    MAX_TURNS,
    TRACKS,
    UNTIL,
    Combatant,
    ConflictRules,
)
from analysis.systems.v5.rouse import MAX_CHECKS, MAX_HUNGER, TABLE_COLUMNS, RouseRules
from analysis.versus.against_v5 import sides, versus
from analysis.engine import markov
from analysis.systems.v5.fight import fight

#: The commands this module adds (``v5`` is the v5 system's own, built on the grid command).
COMMANDS = ("v5", "rouse", "conflict", "fight", "versus")

#: Most cells (pool and Hunger of both sides) ``beastodds conflict`` counts in one run
#: (each takes some milliseconds and some 100 kB until the table is printed).
MAX_CONFLICT_CELLS = 20_000

ROUSE_RULES = RulesOptions(RouseRules, "Rouse check rules", system=SYSTEM.name, sub="rouse")


def _conflict_rules(dice):
    return ConflictRules(dice=dice)


CONFLICT_RULES = RulesOptions(
    ConflictRules,
    "conflict rules",
    system=SYSTEM.name,
    sub="conflict",
    wrap=_conflict_rules,
    rules_help="the dice rules of both sides (the conflict's own fields are set with --set and the house-rule flags)",
)


def add_commands(sub, system) -> None:
    """Add ``v5``, ``rouse``, ``conflict``, ``fight`` and ``versus`` to ``sub`` (:class:`analysis.cli.Commands`),
    each when wanted."""
    if sub.wanted("v5"):
        _add_v5(sub, system)
    if sub.wanted("rouse"):
        _add_rouse(sub)
    if sub.wanted("conflict"):
        _add_conflict(sub)
    if sub.wanted("fight"):
        _add_fight(sub)
    if sub.wanted("versus"):
        _add_versus(sub)


# --------------------------------------------------------------------- v5


def _add_v5(sub, system) -> None:
    p = grid.add_command(
        sub,
        system,
        help="V5 rolls with Hunger dice",
        description="Exact odds of V5 rolls: one row per (pool, hunger, difficulty). "
        f"SPEC is {SPEC_HELP}. Columns: six outcome classes, mutually exclusive and "
        "summing to 1 (total_failure: no success; failure: some successes, fewer than "
        "the Difficulty, where the Storyteller may offer a win at a cost; plain_win; "
        "critical_win: a pair of 10s; messy_critical: a pair of 10s with a Hunger 10; "
        "bestial_failure: not a win with a Hunger 1), then derived columns: p_win, "
        "the chance to win (plain_win + critical_win + messy_critical), and "
        "p_at_least_N with --at-least.",
        defaults={"hunger": "0"},
        required=("pool", "difficulty"),
        axis_help={"pool": "dice in the pool", "hunger": "Hunger 0..5", "difficulty": "successes needed"},
    )
    p.set_defaults(run=_run_v5)


def _run_v5(args):
    return grid.run(args)


# ------------------------------------------------------------------ rouse


def _add_rouse(sub) -> None:
    p = sub.add_parser(
        "rouse",
        help="Hunger after Rouse checks",
        description=f"Exact Hunger after a number of Rouse checks. SPEC is {SPEC_HELP}.",
    )
    p.add_argument(
        "--hunger", required=True, metavar="SPEC", check=_rouse_spec("MAX_HUNGER"), help="starting Hunger 0..5"
    )
    p.add_argument(
        "--checks", required=True, metavar="SPEC", check=_rouse_spec("MAX_CHECKS"), help="number of Rouse checks"
    )
    p.add_argument(
        "--reroll",
        action="store_true",
        help="each check may be rerolled (Blood Potency allowance): two dice, keep the better",
    )
    add_rules_options(p, ROUSE_RULES)
    add_progress_options(p)
    add_output_options(p, columns=_rouse_columns, system=SYSTEM.name)
    p.set_defaults(run=_run_rouse)


def _rouse_spec(bound: str):
    """The check of a rouse SPEC option: its values 0..``rouse.<bound>``."""

    def check(option: str, text):
        return spec_check(0, getattr(rouse, bound))(option, text)

    return check


def _rouse_columns():
    return TABLE_COLUMNS


def _run_rouse(args):
    check_output_options(args)
    rules = rules_from_args(args)
    hungers = parse_spec("--hunger", args.hunger, 0, MAX_HUNGER)
    checks = parse_spec("--checks", args.checks, 0, MAX_CHECKS)
    with markov.reporting(progress(args), "rouse"):
        df = rouse.table(hungers, checks, args.reroll, rules=rules, exact=counts_exactly(args))
    return df, ("start_hunger", "checks", "reroll")


# ------------------------------------------------------- conflict, fight


def _add_side_options(p, rolls_spec: bool) -> None:
    kind, check = ("SPEC", spec_check()) if rolls_spec else ("N", number_check)
    for side in ("a", "b"):
        s = side.upper()
        p.add_argument(
            f"--pool-{side}",
            required=True,
            metavar=kind,
            check=check,
            names=_side_names(side, "pool"),
            help=f"dice side {s} rolls",
        )
        p.add_argument(
            f"--hunger-{side}",
            default="0",
            metavar=kind,
            check=check,
            names=_side_names(side, "hunger"),
            help=f"side {s}'s Hunger 0..5 (default 0)",
        )
        p.add_argument(
            f"--weapon-{side}",
            default="0",
            metavar="N",
            check=number_check,
            names=_side_names(side, "weapon"),
            help=f"weapon bonus to side {s}'s damage (default 0)",
        )
        p.add_argument(
            f"--damage-{side}",
            choices=DAMAGE_KINDS,
            default="superficial",
            help=f"kind of damage side {s} deals (default superficial)",
        )
        p.add_argument(
            f"--mortal-{side}", action="store_true", help=f"side {s} is a mortal (no halving, no Hunger, dies)"
        )
        p.add_argument(f"--defends-{side}", action="store_true", help=f"side {s} only defends and deals no damage")
    p.add_argument(
        "--track", choices=TRACKS, default="health", help="tracker the conflict damages (default health: physical)"
    )
    p.add_argument(
        "--tie-damage",
        default=None,
        metavar="N",
        check=number_check,
        help="damage both take on a tie (default 1; --set tie_damage=N)",
    )
    p.add_argument(
        "--tie-adds-weapon",
        action="store_true",
        help="house rule: ties add weapon bonuses (--set tie_adds_weapon=true)",
    )
    p.add_argument(
        "--tie-needs-successes",
        action="store_true",
        help="house rule: a tie at 0 successes deals no damage (--set tie_needs_successes=true)",
    )
    p.add_argument(
        "--no-halving",
        action="store_true",
        help="house rule: vampires do not halve Superficial damage (--set halve_superficial=false)",
    )
    p.add_argument(
        "--round-down",
        action="store_true",
        help="house rule: halved damage rounds down, official up (--set halve_rounding=down)",
    )
    p.add_argument(
        "--impairment-penalty",
        default=None,
        metavar="N",
        check=number_check,
        help="dice an Impaired side loses (default 2; --set impairment_penalty=N)",
    )
    add_rules_options(p, CONFLICT_RULES)


def _conflict_rules_of(args):
    flags = {
        "tie_damage": given("--tie-damage", one_number("--tie-damage", args.tie_damage), args.tie_damage is not None),
        "tie_adds_weapon": given("--tie-adds-weapon", True, args.tie_adds_weapon),
        "tie_needs_successes": given("--tie-needs-successes", True, args.tie_needs_successes),
        "halve_superficial": given("--no-halving", False, args.no_halving),
        "halve_rounding": given("--round-down", "down", args.round_down),
        "impairment_penalty": given(
            "--impairment-penalty",
            one_number("--impairment-penalty", args.impairment_penalty),
            args.impairment_penalty is not None,
        ),
    }
    return rules_from_args(args, flags)


def _side_from(args, side: str, pool: int, hunger: int, **trackers):
    return Combatant(
        pool,
        hunger=hunger,
        vampire=not getattr(args, f"mortal_{side}"),
        weapon=cast(
            int,
            one_number(
                f"--weapon-{side}",  # never None: its default is 0
                getattr(args, f"weapon_{side}"),
            ),
        ),
        damage=getattr(args, f"damage_{side}"),
        attacks=not getattr(args, f"defends_{side}"),
        name=f"side {side.upper()}",
        **trackers,
    )


def _side_names(side: str, key: str) -> tuple:
    """The API names of a side's option ``--KEY-SIDE``: its destination, and the field as a side's
    errors name it (``side A: pool``, :class:`analysis.systems.v5.conflict.Combatant`)."""
    return (f"{key}_{side}", f"side {side.upper()}: {key}")


def _add_conflict(sub) -> None:
    p = sub.add_parser(
        "conflict",
        help="V5 conflicts: margin and damage of one opposed roll",
        description="Exact odds of one turn of a V5 conflict: one row per margin (A's successes "
        f"minus B's) with the damage each side marks. SPEC is {SPEC_HELP}.",
    )
    _add_side_options(p, rolls_spec=True)
    add_progress_options(p)
    add_output_options(p, columns=_conflict_columns, system=SYSTEM.name)
    p.set_defaults(run=_run_conflict)


def _conflict_columns():
    return ("pool_a", "hunger_a", "pool_b", "hunger_b") + CONFLICT_COLUMNS


def _add_fight(sub) -> None:
    p = sub.add_parser(
        "fight",
        help="V5 fights over turns: Impairment, torpor and death as an exact Markov chain",
        description="Exact odds, turn by turn, that each side is first Impaired and first out "
        "(torpor for a vampire, death for a mortal) in a V5 fight.",
    )
    _add_side_options(p, rolls_spec=False)
    for side in ("a", "b"):
        s = side.upper()
        for key, text in (
            ("stamina", f"side {s}'s Stamina: Health = Stamina + 3 (default 2)"),
            ("composure", f"side {s}'s Composure (Willpower track; default 2)"),
            ("resolve", f"side {s}'s Resolve (Willpower track; default 2)"),
        ):
            p.add_argument(
                f"--{key}-{side}",
                default="2",
                metavar="N",
                check=number_check,
                names=_side_names(side, key),
                help=text,
            )
    p.add_argument(
        "--turns", default="10", metavar="N", check=number_check, help=f"turns to follow, 1..{MAX_TURNS} (default 10)"
    )
    p.add_argument(
        "--until", choices=UNTIL, default="out", help="the fight stops when a side is out (default) or first impaired"
    )
    p.add_argument(
        "--joint", action="store_true", help="print the joint state of both trackers after the last turn instead"
    )
    add_progress_options(p)
    add_output_options(p, columns=_fight_columns, system=SYSTEM.name)
    p.set_defaults(run=_run_fight)


def _fight_columns():
    return FIGHT_COLUMNS


def _run_conflict(args):
    check_output_options(args)
    rules = _conflict_rules_of(args)
    flags = ("--pool-a", "--hunger-a", "--pool-b", "--hunger-b")
    lists = [spec(flag, getattr(args, flag[2:].replace("-", "_"))) for flag in flags]
    check_cells(dict(zip(flags, map(len, lists))), MAX_CONFLICT_CELLS, "conflict")
    cells = [
        (pa, ha, pb, hb, _side_from(args, "a", pa, ha), _side_from(args, "b", pb, hb))
        for pa, ha, pb, hb in itertools.product(*lists)
    ]  # every side checked first
    frames = []
    bar = progress_bar(len(cells), "conflict", "cell", progress(args) and len(cells) > 1)
    try:
        for pa, ha, pb, hb, a, b in cells:
            df = conflict.conflict_table(a, b, rules, args.track, exact=counts_exactly(args))
            df.insert(0, "hunger_b", hb)
            df.insert(0, "pool_b", pb)
            df.insert(0, "hunger_a", ha)
            df.insert(0, "pool_a", pa)
            frames.append(df)
            bar.update()
    finally:
        bar.close()
    df = pd.concat(frames, ignore_index=True)
    return df, ("pool_a", "hunger_a", "pool_b", "hunger_b") + CONFLICT_COLUMNS[:-1]


def _run_fight(args):
    check_output_options(args)
    rules = _conflict_rules_of(args)
    sides = []
    for side in ("a", "b"):
        trackers = {
            k: one_number(f"--{k}-{side}", getattr(args, f"{k}_{side}")) for k in ("stamina", "composure", "resolve")
        }
        sides.append(
            _side_from(
                args,
                side,
                one_number(f"--pool-{side}", getattr(args, f"pool_{side}")),
                one_number(f"--hunger-{side}", getattr(args, f"hunger_{side}")),
                **trackers,
            )
        )
    with markov.reporting(progress(args), "fight"):
        result = fight(
            *sides,
            turns=one_number("--turns", args.turns),
            rules=rules,
            until=args.until,
            track=args.track,
            joint=args.joint,
        )
    if args.joint:
        return result.joint_table(exact=counts_exactly(args)), (
            "a_superficial",
            "a_aggravated",
            "b_superficial",
            "b_aggravated",
        )
    return result.table(exact=counts_exactly(args)), ("turn",)


# ------------------------------------------------------------------ versus


def _add_versus(sub) -> None:
    p = sub.add_parser(
        "versus",
        help="La Soif or ten-card tests against V5, paired as you say",
        description="La Soif (requiem) or ten-card tests (cards) against V5, one row per cell. SIDE is "
        "requiem or cards, a shipped rule set of theirs or a rule-set TOML file; V5 is v5, a "
        "shipped V5 rule set or a file. Two options are required, because the answer depends "
        "on them: --difficulty, the V5 Difficulty, and --pairing. rating: the same character "
        "on both sides (La Soif: the same pool, Soif = Hunger; ten-card tests: the same "
        "--attribute and --skill, V5 pool = attribute + skill, card base = attribute + 2 x "
        "skill, against a --card-difficulty you give). chance: the La Soif pool (1-200) or "
        "card base whose chance of success is nearest V5's chance to win (equal distances: "
        "the lower chance, then the smaller pool or base). The output starts with what was "
        "paired; win_difference, bestial_difference and bestial_ratio answer which system is "
        "easier or harsher. Every value is counted exactly.",
    )
    p.add_argument("side", metavar="SIDE", help="requiem or cards, a rule set of theirs (name or .toml path)")
    p.add_argument("v5", metavar="V5", help="v5, a shipped V5 rule set or a .toml path")
    p.add_argument(
        "--difficulty",
        metavar="SPEC",
        default=None,
        help="required: the V5 Difficulty (a SPEC: each value is a row)",
    )
    p.add_argument(
        "--pairing",
        metavar="rating|chance",
        default=None,
        help="required: rating (the same character on both sides) or chance (the same chance of success)",
    )
    p.add_argument(
        "--pool",
        metavar="SPEC",
        default=None,
        help="V5 pools (default 1-10; La Soif by rating: both sides' pool, 1..200); ten-card "
        "tests by rating take --attribute and --skill instead",
    )
    p.add_argument(
        "--hunger",
        metavar="SPEC",
        default=None,
        help="V5 Hunger (default 0-5); La Soif's Soif and the card test's Hunger are the same",
    )
    p.add_argument(
        "--attribute",
        metavar="SPEC",
        default=None,
        help="ten-card tests by rating: the character's attribute (required there)",
    )
    p.add_argument(
        "--skill",
        metavar="SPEC",
        default=None,
        help="ten-card tests by rating: the character's skill (required there)",
    )
    p.add_argument(
        "--card-difficulty",
        metavar="SPEC",
        default=None,
        dest="card_difficulty",
        help="ten-card tests: the total the card test must reach (required by rating; by "
        "chance default 12, which shifts the base found, not the chances)",
    )
    add_set_option(p, "--set-a", "SIDE")
    add_set_option(p, "--set-b", "V5")
    add_output_options(
        p,
        columns=(
            "pool",
            "hunger",
            "difficulty",
            "la_soif_pool",
            "soif",
            "attribute",
            "skill",
            "card_base",
            "card_difficulty",
            "v5_win",
            "la_soif_success",
            "card_win",
            "win_difference",
            "v5_bestial_failure",
            "la_soif_bestial_failure",
            "card_bestial_failure",
            "bestial_difference",
            "bestial_ratio",
            "v5_messy_critical",
            "la_soif_beastly_critical",
            "card_bestial_success",
            "paired",
            "rule_set_a",
            "rule_set_b",
        ),
    )
    p.set_defaults(run=_run_versus)


def _run_versus(args):
    """``beastodds versus SIDE V5 --difficulty N --pairing rating|chance``: La Soif or ten-card tests
    against V5, paired as the command line says (:func:`analysis.versus.against_v5.versus`)."""
    check_output_options(args)
    a, b = sides(args.side, args.v5)
    if args.difficulty is None and args.pairing is None:
        raise ValueError(
            "give --difficulty N (the V5 Difficulty) and --pairing rating or chance (the same "
            "character on both sides, or the same chance of success): the answer depends "
            "on both"
        )
    if args.difficulty is None:
        raise ValueError(
            "give --difficulty N, the V5 Difficulty: which system is harsher depends on it "
            + (
                "(at pool 5 and Hunger 2, La Soif has about four times V5's bestial failures "
                "at Difficulty 1, about a third of them at Difficulty 3)"
                if a.system == "requiem"
                else "(V5 fails more often, and more often bestially, as it rises)"
            )
        )
    if args.pairing is None:
        raise ValueError(
            "give --pairing rating (the same character on both sides) or --pairing chance "
            "(the same chance of success): the answer depends on which"
        )
    a, b = with_sets(a, args.set_a), with_sets(b, args.set_b)
    axes = {
        name: getattr(args, name)
        for name in ("pool", "hunger", "attribute", "skill", "card_difficulty")
        if getattr(args, name) is not None
    }
    df = versus(
        a,
        b,
        difficulty=args.difficulty,
        pairing=args.pairing,
        exact=counts_exactly(args),
        names=names_of(args),
        **axes,
    )
    paired, keys, notes = df.attrs["paired"], tuple(df.attrs["keys"]), df.attrs["notes"]
    for note in notes:
        warn(note)
    args.rule_set_used = (a, b)
    # V5 never fails bestially (Hunger 0): no ratio, empty in CSV and JSON, a dash where people read it
    people = args.format not in ("csv", "json", "xlsx")
    df["bestial_ratio"] = pd.Series(
        [("-" if people else None) if v is None or v != v else v for v in df["bestial_ratio"].tolist()], dtype=object
    )
    df.attrs["derivable"] = tuple(
        k for k in keys if k in {"la_soif_pool", "soif", "card_base"} or (k == "pool" and "attribute" in keys)
    )
    if not people:  # the pairing on every row: a CSV, a JSON or a spreadsheet has no heading
        df["paired"] = paired
        return df, keys + ("paired",)
    text = render(df, args.format, **render_options(args, keys))
    if args.format == "markdown":
        return f"{markdown_text(paired)}\n\n{text}"
    if args.format == "html":
        return f'<p class="paired">{html.escape(paired)}</p>\n{text}'
    if args.format == "latex":
        return f"{latex_text(paired)}\n\n{text}"
    return f"{one_line(a.name)} versus {one_line(b.name)}\n{paired}\n{text}"
