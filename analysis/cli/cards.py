"""The cards command: ``beastodds cards``, static tests over the grid or ``--opposed`` tests.

One of :data:`analysis.cli.parser.SYSTEM_COMMANDS`: ``SYSTEM`` is the cards system it builds for.
"""

from __future__ import annotations

from analysis.workbench import rulesets
from analysis.options import grid
from analysis.options.common import SPEC_HELP, check_output_options, counts_exactly, given, rules_from_args
from analysis.model.validate import check_cells, parse_spec
from analysis.systems.cards import SYSTEM as SYSTEM  # the system it builds for (read by the parser)
from analysis.systems.cards.deck import MAX_HUNGER, MAX_VALUE, opposed_table

#: The commands this module adds (``cards`` is the cards system's own, built on the grid command).
COMMANDS = ("cards",)


def add_commands(sub, system) -> None:
    """Add ``cards`` to ``sub`` (:class:`analysis.cli.Commands`)."""
    p = grid.add_command(
        sub,
        system,
        help="ten-card tests with Hunger confirmation draws",
        description="Exact odds of ten-card tests (Ace, 2..10): base + card against a "
        "difficulty, or with --opposed against a defender's total + card. "
        f"base = attribute + 2 x skill - penalties. SPEC is {SPEC_HELP}. "
        "Static columns: success, failure, bestial_success, bestial_failure "
        "(exclusive, summing to 1). Opposed columns: initiator_wins (bestial or "
        "not), bestial_success (part of the wins), bestial_failure (part of the "
        "losses).",
        defaults={"base": None, "difficulty": None, "hunger": "0"},
        axis_help={
            "base": "attribute + 2 x skill - penalties",
            "difficulty": "total to reach (static test)",
            "hunger": "the (initiator's) Hunger 0..5",
        },
    )
    p.add_argument(
        "--opposed", action="store_true", help="an opposed test against --defense instead of a difficulty (one process)"
    )
    p.add_argument("--defense", metavar="SPEC", help="defender's attribute + maximum Willpower (with --opposed)")
    p.add_argument(
        "--ace",
        default=None,
        metavar="RULE",
        help="fails (default: an Ace always fails), low (counts 1) or high (counts 11)",
    )
    p.add_argument(
        "--ties", default=None, metavar="RULE", help="initiator (default: equal totals succeed) or defender (must beat)"
    )
    p.add_argument(
        "--confirmation",
        default=None,
        metavar="DECK",
        help="same-deck (default: from the remaining nine cards) or fresh-deck",
    )
    p.set_defaults(run=_run_cards)


def system_of_args(args):
    return rulesets.system(args.grid_system)


def _norm(v):
    return v.strip().lower().replace("-", "_") if isinstance(v, str) else v


def _run_cards(args):
    check_output_options(args)
    if args.distribution is not None:
        grid.distribution_of(args, system_of_args(args))
    rules = rules_from_args(
        args,
        {
            name: given(f"--{name}", _norm(getattr(args, name)), getattr(args, name) is not None)
            for name in ("ace", "ties", "confirmation")
        },
    )
    if args.axis_base is None:
        raise ValueError("--base is required (attribute + 2 x skill - penalties)")
    if args.opposed:
        if args.axis_difficulty is not None:
            raise ValueError("--opposed compares against --defense; drop --difficulty")
        if args.defense is None:
            raise ValueError("--opposed needs --defense (defender's attribute + maximum Willpower)")
        if args.jobs != 1:
            raise ValueError("--opposed tests are counted in one process: drop --jobs")

        lists = {
            "--base": parse_spec("--base", args.axis_base, 0, MAX_VALUE),
            "--defense": parse_spec("--defense", args.defense, 0, MAX_VALUE),
            "--hunger": parse_spec("--hunger", args.axis_hunger, 0, MAX_HUNGER),
        }
        check_cells({flag: len(v) for flag, v in lists.items()})  # before any count
        df = opposed_table(*lists.values(), rules=rules, exact=counts_exactly(args))
        return df, ("base", "defense", "hunger")
    if args.defense is not None:
        raise ValueError("--defense is for opposed tests; add --opposed or use --difficulty")
    if args.axis_difficulty is None:
        raise ValueError("--difficulty is required (or --opposed with --defense)")
    df, _ = grid.run(args, rules)
    return df, ("base", "difficulty", "hunger")
