"""Classic commands: ``beastodds classic`` (d10 pools), ``damage`` (after soak) and ``blows`` (health track).

One of :data:`analysis.cli.parser.SYSTEM_COMMANDS`: ``SYSTEM`` is the classic system it builds for.
"""

from __future__ import annotations

from analysis.options import grid
from analysis.options.common import (
    SPEC_HELP,
    RulesOptions,
    add_output_options,
    add_progress_options,
    add_rules_options,
    check_output_options,
    counts_exactly,
    given,
    number_check,
    one_number,
    progress,
    rules_from_args,
    sweep_options,
    values,
    values_check,
    warn,
)
from analysis.model.validate import check_int
from analysis.engine import markov
from analysis.systems.classic import SYSTEM
from analysis.systems.classic.damage import DamageRules
from analysis.systems.classic.fights import TABLE_CONDITIONS
from analysis.systems.classic.health import (
    AIMS,
    CREATURES,
    KINDS,
    MAX_STEPS,
    VAMPIRE_BASHING,
    VITAL_SPOT_LETHAL,
    Attack,
    Fighter,
    blows,
    damage,
    resolve_kind,
    soak_dice,
)

#: The commands this module adds (``classic`` is the classic system's own, built on the grid command).
COMMANDS = ("classic", "damage", "blows")

DAMAGE_RULES = RulesOptions(DamageRules, "damage, soak and health rules", system=SYSTEM.name, sub="damage")


def add_commands(sub, system) -> None:
    """Add ``classic``, ``damage`` and ``blows`` to ``sub`` (:class:`analysis.cli.Commands`), each when wanted."""
    if sub.wanted("classic"):
        _add_classic(sub, system)
    if sub.wanted("damage"):
        _add_damage(sub)
    if sub.wanted("blows"):
        _add_blows(sub)


def _add_classic(sub, system) -> None:
    p = grid.add_command(
        sub,
        system,
        help="classic (V20) d10 pools against a difficulty",
        description="Exact odds of classic (V20-style) rolls: one row per (pool, difficulty). "
        "A die at or above the difficulty is a success, each 1 cancels one, a botch "
        f"is no success rolled and a 1. SPEC is {SPEC_HELP}.",
        defaults={"difficulty": "6"},
        required=("pool",),
        axis_help={"pool": "dice in the pool (0..200)", "difficulty": "difficulty 2..10"},
    )
    p.add_argument("--specialty", action="store_true", help="a 10 counts as two successes")
    p.add_argument(
        "--ones-dont-cancel",
        action="store_true",
        help="house rule: 1s do not cancel successes, they still make a botch (--set ones_cancel=false)",
    )
    p.set_defaults(run=_run_classic)


def _run_classic(args):
    rules = rules_from_args(args, {"ones_cancel": given("--ones-dont-cancel", False, args.ones_dont_cancel)})
    df, keys = grid.run(args, rules, **({"specialty": True} if args.specialty else {}))
    if args.distribution is not None:
        return df, keys
    return df, ("pool", "difficulty")  # --percent leaves the mean as it is


# ---------------------------------------------------------- damage, blows


def _target_options(p, columns) -> None:
    p.add_argument(
        "--soak",
        "--stamina",
        dest="stamina",
        default="0",
        metavar="SPEC",
        check=values_check,
        help="the target's Stamina: soak dice before Fortitude (default 0)",
    )
    p.add_argument(
        "--fortitude",
        default="0",
        metavar="SPEC",
        check=values_check,
        help="the target's Fortitude (vampires; the only soak against aggravated)",
    )
    p.add_argument("--kind", required=True, choices=KINDS, help="kind of damage")
    p.add_argument("--target", required=True, choices=CREATURES, help="who takes the damage")
    p.add_argument(
        "--firearm", action="store_true", help="a gunshot: vampires take it as bashing unless aimed at the head"
    )
    p.add_argument(
        "--aim", choices=AIMS, default="body", help="where the blow is aimed (head: firearms lethal to vampires)"
    )
    p.add_argument(
        "--vampire-bashing",
        choices=VAMPIRE_BASHING,
        default=None,
        help="what vampires do to bashing after soak (default halve_down; --set vampire_bashing=...)",
    )
    p.add_argument(
        "--vital-spot-lethal",
        choices=VITAL_SPOT_LETHAL,
        default=None,
        help="Storyteller's option: blunt blows to a vital spot are lethal to ... "
        "(default off; --set vital_spot_lethal=...)",
    )
    add_rules_options(p, DAMAGE_RULES)
    add_output_options(p, columns=columns, system=SYSTEM.name)


def _add_damage(sub) -> None:
    p = sub.add_parser(
        "damage",
        help="classic damage after soak: health levels lost",
        description="Exact distribution of health levels lost to one classic damage roll: "
        "damage dice at difficulty 6 (1s do not cancel) plus automatic successes, "
        "minus the target's soak (1s cancel), halved for bashing on a vampire. "
        f"--dice, --auto, --soak and --fortitude take a SPEC ({SPEC_HELP}); one "
        "given several values adds its column in front.",
    )
    p.add_argument(
        "--dice",
        required=True,
        metavar="SPEC",
        check=values_check,
        names=("dice", "damage_dice"),
        help="damage dice: Strength + weapon + extra attack successes",
    )
    p.add_argument(
        "--auto",
        default="0",
        metavar="SPEC",
        check=values_check,
        help="automatic damage successes, e.g. Potence (default 0)",
    )
    _target_options(p, ("levels", "probability"))
    add_progress_options(p)
    p.set_defaults(run=_run_damage)


def _add_blows(sub) -> None:
    p = sub.add_parser(
        "blows",
        help="repeated blows: odds of Incapacitated, torpor, Final Death",
        description="Exact probability that a victim is Incapacitated (or worse), in torpor "
        "(or worse) or destroyed after each of 0..N identical blows. "
        f"--dice, --auto, --soak and --fortitude take a SPEC ({SPEC_HELP}); one "
        "given several values adds its column in front.",
    )
    p.add_argument(
        "--dice",
        required=True,
        metavar="SPEC",
        check=values_check,
        names=("dice", "damage_dice"),
        help="damage dice of a hit: Strength + weapon",
    )
    p.add_argument(
        "--auto", default="0", metavar="SPEC", check=values_check, help="automatic damage successes (default 0)"
    )
    p.add_argument(
        "--attack-pool",
        default=None,
        metavar="N",
        check=number_check,
        help="attack roll dice (extra successes add damage dice); default: every blow hits",
    )
    p.add_argument(
        "--attack-difficulty",
        default="6",
        metavar="N",
        check=number_check,
        names=("attack_difficulty", "difficulty"),
        help="difficulty of the attack roll (default 6)",
    )
    p.add_argument("--max-blows", default="10", metavar="N", check=number_check, help="blows to follow (default 10)")
    _target_options(p, _blows_columns)
    add_progress_options(p)
    p.set_defaults(run=_run_blows)


def _blows_columns():
    return ("blows",) + TABLE_CONDITIONS


def _damage_rules(args):
    return rules_from_args(
        args,
        {
            name: given(f"--{name.replace('_', '-')}", getattr(args, name), getattr(args, name) is not None)
            for name in ("vampire_bashing", "vital_spot_lethal")
        },
    )


_SWEPT = (("dice", "--dice"), ("auto", "--auto"), ("stamina", "--soak"), ("fortitude", "--fortitude"))


def _swept(args):
    return [(column, flag, getattr(args, column)) for column, flag in _SWEPT]


def _checker(args, attack_pool=None, attack_difficulty=6):
    """Checks one combination of the swept options (cheaply: the attack and the target)."""

    def check(dice, auto, stamina, fortitude):
        Attack(dice, args.kind, auto, attack_pool, attack_difficulty, firearm=args.firearm, aim=args.aim)
        Fighter(args.target, stamina, fortitude)

    return check


def _warn_soak(args, rules) -> None:
    """Warn about an --aim, a --firearm or a Stamina that changes nothing for this damage (exit 0)."""

    kind = resolve_kind(args.kind, args.target, firearm=args.firearm, aim=args.aim, rules=rules)
    if args.aim != "body" and kind == resolve_kind(args.kind, args.target, firearm=args.firearm, rules=rules):
        warn(
            f"--aim {args.aim} changes nothing here: {args.kind} damage to a {args.target} "
            f"{'from a firearm ' if args.firearm else ''}is {kind} wherever it is aimed"
            + (
                " (--vital-spot-lethal makes a blunt blow to a vital spot lethal)"
                if args.aim == "vital" and rules.vital_spot_lethal == "off"
                else ""
            )
        )
    head_shot = args.aim == "head" and args.target == "vampire"  # a gunshot to the head: as meant
    if args.firearm and not head_shot and kind == resolve_kind(args.kind, args.target, aim=args.aim, rules=rules):
        warn(f"--firearm changes nothing here: {args.kind} damage to a {args.target} is {kind} from any weapon")
    staminas = [s for s in values("--soak", args.stamina) if s > 0]
    # Stamina changes nothing when one more point of it adds no soak die to this damage
    if staminas and soak_dice(kind, args.target, 1) == soak_dice(kind, args.target, 0):
        who = (
            "a mortal soaks only bashing damage"
            if args.target == "mortal"
            else "a vampire soaks aggravated damage with Fortitude alone"
        )
        warn(f"--soak/--stamina {args.stamina} has no effect on {kind} damage to a {args.target}: {who}")


def _run_damage(args):
    check_output_options(args)
    rules = _damage_rules(args)

    def one(dice, auto, stamina, fortitude):
        return damage(
            dice, auto, stamina, args.kind, args.target, fortitude, firearm=args.firearm, aim=args.aim, rules=rules
        ).table(exact=counts_exactly(args))

    df, swept = sweep_options(_swept(args), one, _checker(args), progress(args), "damage")
    _warn_soak(args, rules)  # once the table is counted: an error is never preceded by a warning
    return df, swept + ("levels",)


def _run_blows(args):
    check_output_options(args)
    rules = _damage_rules(args)
    attack_pool = one_number("--attack-pool", args.attack_pool)
    attack_difficulty = one_number("--attack-difficulty", args.attack_difficulty)
    max_blows = one_number("--max-blows", args.max_blows)
    check_int("--max-blows", max_blows, 0, MAX_STEPS)

    def one(dice, auto, stamina, fortitude):
        attack = Attack(dice, args.kind, auto, attack_pool, attack_difficulty, firearm=args.firearm, aim=args.aim)
        return blows(attack, Fighter(args.target, stamina, fortitude), max_blows, rules).table(
            exact=counts_exactly(args)
        )

    with markov.reporting(progress(args), "blows"):
        df, swept = sweep_options(_swept(args), one, _checker(args, attack_pool, attack_difficulty))
    _warn_soak(args, rules)  # once the table is counted: an error is never preceded by a warning
    if attack_pool is None and attack_difficulty != 6:
        warn(f"--attack-difficulty {attack_difficulty} has no effect without --attack-pool: every blow hits")
    return df, swept + ("blows",)
