"""Requiem commands: ``beastodds requiem`` (La Soif rolls; ``beast`` is another name for it) and
``beastodds soif`` (Soif ladders).

One of :data:`analysis.cli.parser.SYSTEM_COMMANDS`: ``SYSTEM`` is the requiem system it builds for.
"""

from __future__ import annotations

from analysis.options import grid
from analysis.options.common import (
    SPEC_HELP,
    RulesOptions,
    add_output_options,
    add_rules_options,
    check_output_options,
    counts_exactly,
    given,
    number_check,
    one_number,
    render_options,
    rules_from_args,
)
from analysis.present.tables import render
from analysis.systems.requiem import SYSTEM as SYSTEM  # the system it builds for (read by the parser)
from analysis.systems.requiem.beast import (
    KEY_COLUMNS,
    LADDER_MODES,
    TABLE_COLUMNS,
    character_table,
    ghoul_soif_ladder,
    soif_ladder,
)

#: The commands this module adds: the system's own grid command, with La Soif's options, under its
#: name and its other name (the same command), and the Soif ladder.
COMMANDS = ("requiem", "beast", "soif")
#: The other name of ``requiem``.
ALIAS = "beast"

_AGAIN = {"10": 10, "9": 9, "8": 8, "none": None}


def add_commands(sub, system) -> None:
    """Add ``requiem`` (and ``beast``, the same command) and ``soif`` to ``sub``
    (:class:`analysis.cli.Commands`), each when wanted."""
    for name in (system.name, ALIAS):
        if sub.wanted(name):
            _add_requiem(sub, system, name)
    if sub.wanted("soif"):
        _add_soif(sub, system)


def _add_requiem(sub, system, name: str) -> None:
    p = grid.add_command(
        sub,
        system,
        name=name,
        help="Requiem rolls with La Soif's Beast dice: odds over pool x soif"
        if name == system.name
        else f"another name for {system.name}",
        description="Exact odds of Requiem rolls (8+, 10-again) with La Soif's Beast dice: one "
        f"row per (pool, soif).  SPEC is {SPEC_HELP}.  Pool 0 rolls a chance die; Soif 0 is "
        "plain Requiem.  The classes dramatic_failure .. exceptional_success sum to 1; "
        "p_success and p_beastly_critical are derived columns (a beastly critical is "
        f"a plain or exceptional success).  '{system.name}' and '{ALIAS}' are the same command.",
        axis_help={"pool": "dice in the pool", "soif": "Soif 0..5"},
    )
    _dice_options(p)
    p.add_argument("--frenzy", action="store_true", help="a physical roll in frenzy: +Soif normal dice")
    p.set_defaults(run=_run_beast)


def _add_soif(sub, system) -> None:
    q = sub.add_parser(
        "soif",
        help="the Soif ladder of a vampire or ghoul (La Soif house rule)",
        description="The Soif at every current Vitae, in the ladder notation (5/4/3/3/2/2/1/1) "
        "and as a table.  With --pool, the odds of that pool at every Vitae.",
    )
    q.add_argument(
        "--max-vitae",
        metavar="N",
        check=number_check,
        help="maximum Vitae (vampire; default: the 1st edition Blood Potency table)",
    )
    q.add_argument("--resolve", metavar="N", required=True, check=number_check, help="Resolve 1..5")
    q.add_argument("--composure", metavar="N", required=True, check=number_check, help="Composure 1..5")
    q.add_argument("--blood-potency", metavar="N", check=number_check, help="Blood Potency 1..10 (vampire)")
    q.add_argument(
        "--mode",
        choices=LADDER_MODES,
        default="written",
        help="written (default): the rule as written; printed: the ladder of the house rule's printed third example",
    )
    q.add_argument("--ghoul", action="store_true", help="a ghoul: needs --stamina and --size")
    q.add_argument("--stamina", metavar="N", check=number_check, help="the ghoul's Stamina")
    q.add_argument("--size", metavar="N", check=number_check, help="the ghoul's Size")
    q.add_argument(
        "--pool",
        metavar="N",
        default=None,
        check=number_check,
        help="also give this pool's odds at every Vitae (after penalties, -200..200: 0 or "
        "less rolls a chance die, and --tempt adds the Soif dice to it first)",
    )
    _dice_options(q)
    add_rules_options(q, RulesOptions.of_system(system))
    add_output_options(q, columns=_soif_columns, system=system)
    q.set_defaults(run=_run_soif)


def _soif_columns():
    return ("vitae",) + TABLE_COLUMNS[1:]  # a row per Vitae, at the Soif and Beast dice it gives (with --pool)


def _dice_options(p) -> None:
    p.add_argument(
        "--tempt", action="store_true", help="Tempting the Beast or the hunting bonus: +Soif dice, all Beast dice"
    )
    p.add_argument("--again", choices=tuple(_AGAIN), default=None, help="again rule (default 10; --set again=N)")
    p.add_argument("--rote", action="store_true", help="rote action: failed dice rolled once more (--set rote=true)")


def _rules(args):
    return rules_from_args(
        args,
        {
            "again": given("--again", _AGAIN.get(args.again), args.again is not None),
            "rote": given("--rote", True, args.rote),
        },
    )


def _run_beast(args):
    check_output_options(args)
    rules = _rules(args)
    options = {"tempt": args.tempt, "frenzy": args.frenzy}
    if args.distribution is not None:
        df, _ = grid.run(args, rules, **options)
        return df, ("pool", "soif", "beast_dice", "successes")
    df, _ = grid.run(args, rules, **options)
    return df, KEY_COLUMNS


def _run_soif(args):
    resolve = one_number("--resolve", args.resolve)
    composure = one_number("--composure", args.composure)
    if args.ghoul:
        for flag, value in (
            ("--max-vitae", args.max_vitae),
            ("--blood-potency", args.blood_potency),
            ("--mode", None if args.mode == "written" else args.mode),
        ):
            if value is not None:
                raise ValueError(
                    f"{flag} is for vampires; a ghoul's ladder takes --stamina, --size, --resolve and --composure"
                )
        if args.stamina is None or args.size is None:
            raise ValueError("a ghoul's ladder needs --stamina and --size")
        ladder = ghoul_soif_ladder(
            one_number("--stamina", args.stamina), one_number("--size", args.size), resolve, composure
        )
    else:
        for flag, value in (("--stamina", args.stamina), ("--size", args.size)):
            if value is not None:
                raise ValueError(f"{flag} is for ghouls: add --ghoul")
        if args.blood_potency is None:
            raise ValueError("a vampire's ladder needs --blood-potency (or use --ghoul)")
        ladder = soif_ladder(
            one_number("--max-vitae", args.max_vitae),
            resolve,
            composure,
            one_number("--blood-potency", args.blood_potency),
            args.mode,
        )
    if args.pool is not None:
        pool = one_number("--pool", args.pool)
        check_output_options(args)
        df = character_table(ladder, pool, _rules(args), tempt=args.tempt, exact=counts_exactly(args))
        keys = ("vitae", "soif", "beast_dice")
    else:
        if (
            args.tempt
            or args.rote
            or args.again is not None
            or args.rules is not None
            or args.set
            or args.exact
            or args.percent
        ):
            raise ValueError("--tempt, --again, --rote, --rules, --set, --exact and --percent need --pool")
        df, keys = ladder.table(), ("vitae", "soif")
    check_output_options(args)
    if args.format != "table":
        return df, keys
    text = render(df, args.format, **render_options(args, keys))
    if args.format == "table":
        head = str(ladder)
        if args.pool is not None:
            head += f"\npool {pool}" + (" tempting the Beast" if args.tempt else "")
        return head + "\n" + text
    return text
