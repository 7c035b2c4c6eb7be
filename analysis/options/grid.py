"""The generated command of a game system: its odds table over a grid, from its ``SYSTEM`` alone.

Every system (``analysis/systems/<name>/``) gets ``beastodds
<name>``, built from its :class:`analysis.model.system.System` with no code of its
own:

* one ``--AXIS SPEC`` option per axis, defaulting to the system's SPEC;
* ``--rules NAME|FILE`` (a shipped rule set of the system or a TOML file) and
  ``--set FIELD=VALUE`` for every field of its rules dataclass;
* ``--strategy STRATEGY[,STRATEGY...]`` when its table function takes
  ``strategy=`` (several: side by side, ``none`` for no Willpower);
* ``--at-least SPEC`` when it takes ``at_least=`` (``p_at_least_N`` columns);
* ``--jobs``/``--quiet`` (the grid is swept by :mod:`analysis.workbench.sweep`) and the
  output options.

The command line's module of a system's own commands
(``analysis.cli.parser.SYSTEM_COMMANDS``) may build the system's command with
:func:`add_command` too, changing defaults and adding options of its own; a
system without one gets :func:`add_command` as it is.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math

from analysis.engine import at_least, distribution
from analysis.workbench import sweep
from analysis.workbench import rulesets
from analysis.engine.distribution import complete
from analysis.model.spec import MechanicError
from analysis.options.warn import warn
from analysis.options.common import (
    SPEC_HELP,
    RulesOptions,
    add_output_options,
    add_rules_options,
    add_sweep_options,
    axis_option,
    check_output_options,
    counts_exactly,
    is_int_column,
    jobs,
    names_of,
    number_check,
    one_number,
    progress,
    rules_from_args,
    spec_check,
)


def add_command(
    sub,
    system,
    *,
    name: str | None = None,
    help: str | None = None,
    description: str | None = None,
    defaults: dict | None = None,
    required=(),
    axis_help: dict | None = None,
    rules: RulesOptions | None = None,
    sweep: bool = True,
):
    """Add a system's grid command to ``sub`` (:class:`analysis.cli.Commands`); return its parser.

    Parameters
    ----------
    sub : analysis.cli.Commands
    system : analysis.model.system.System
    name : str, optional
        The command (default: the system's name).
    help, description : str, optional
        One line for ``beastodds --help``, and the command's own description
        (defaults say what the table is, from the system's title and axes).
    defaults : dict, optional
        ``{axis: SPEC or None}`` replacing the system's default SPECs (None:
        no default; the run function then decides).
    required : sequence of str
        Axes that must be given.
    axis_help : dict, optional
        ``{axis: help}`` replacing the generated help of an axis.
    rules : RulesOptions, optional
        What ``--rules``/``--set`` set (default: the system's rules).
    sweep : bool
        Add ``--jobs`` and ``--quiet`` (the run function sweeps the grid).
    """
    name = name or system.name
    limits = dict(system.limits)
    defaults = {} if defaults is None else defaults
    axis_help = {} if axis_help is None else axis_help
    axes = " x ".join(system.axis_names)
    p = sub.add_parser(
        name,
        help=help or f"{system.title}: odds over {axes}",
        description=description
        or (
            f"{system.title}: the exact odds table of the {system.name} system, one row per "
            f"({', '.join(system.axis_names)}). Each axis takes a SPEC: {SPEC_HELP}; an axis "
            f"left out takes its default."
        ),
    )
    for axis, default in system.axes:
        default = defaults.get(axis, default)
        wanted = axis in required
        text = axis_help.get(axis, f"{axis} values")
        if not wanted and default is not None:
            text += f" (default {default})"
        p.add_argument(
            axis_option(axis),
            dest=f"axis_{axis}",
            metavar="SPEC",
            required=wanted,
            default=None if wanted else default,
            check=spec_check(*limits.get(axis, (0, None))),
            help=text,
        )
    add_rules_options(p, rules or RulesOptions.of_system(system))
    if system.takes("strategy"):
        add_strategy_option(p, ", ".join(["none", *system.strategy_map]) if system.strategies is not None else "")
    if system.takes("at_least"):
        p.add_argument(
            "--at-least",
            metavar="SPEC",
            dest="at_least",
            default=None,
            help="add a column p_at_least_N for each N of SPEC: the exact chance of N or "
            "more successes (after the system's rules)",
        )
    add_distribution_option(p)
    if sweep:
        add_sweep_options(p)
    add_output_options(p, system=system)
    p.set_defaults(run=run, grid_system=system.name)
    return p


def add_distribution_option(p) -> None:
    """``--distribution [N]``: the distribution of successes instead of the odds table."""
    p.add_argument(
        "--distribution",
        metavar="N",
        nargs="?",
        const="all",
        default=None,
        check=_distribution_check,
        names=("distribution", "max_successes"),
        help="print the exact distribution of successes instead: one row per cell and "
        "success count (p_exactly, p_at_least, p_more, mean_successes). N: stop at N "
        "successes, p_more on that row being the exact tail (again-dice: default 20)",
    )


def _distribution_check(option: str, text):
    """``--distribution`` alone (every count) or with one whole number."""
    return text if text == "all" else number_check(option, text)


def distribution_of(args, system):
    """``(table function, max_successes)`` of ``--distribution``, or a ValueError of one sentence."""
    function = system.distribution
    if function is None:
        raise distribution.no_count(system)
    n = None if args.distribution == "all" else one_number("--distribution", args.distribution)
    return function, n  # its range is the system's own (again-dice: 0..200), checked by its function


def add_strategy_option(p, names: str = "", where: str = "") -> None:
    """``--strategy STRATEGY[,STRATEGY...]``: the odds after a Willpower reroll (``names``: the strategies
    named in the help; ``where``: which rule sets take it, for a command of any system)."""
    p.add_argument(
        "--strategy",
        metavar="STRATEGY",
        default=None,
        help="odds after a Willpower reroll under that strategy"
        + (f" ({names})" if names else "")
        + "; adds the columns willpower_spent and p_win_gain (p_win minus p_win "
        "without Willpower). Several, separated by commas "
        "(none,maximize_win): side by side, with a strategy "
        "column" + where,
    )


def grid(args, system) -> dict:
    """``{axis: SPEC}`` of a grid command's axis options."""
    return {axis: getattr(args, f"axis_{axis}") for axis in system.axis_names}


def run(args, rules=None, table=None, **options):
    """Run a grid command: the system's table over the grid, under ``--rules`` and ``--set``.

    Parameters
    ----------
    args : argparse.Namespace
    rules : rules dataclass instance, optional
        Replaces what ``--rules`` and ``--set`` give, for a command that
        also reads house-rule flags of its own.
    table : callable, optional
        Another table function over the same axes (called as
        ``table(*axis_values, rules=..., exact=..., **options)``), such as a
        distribution of successes.
    **options
        Keyword arguments of the table function that are not rules
        (``strategy=``, ``tempt=``); the sweep passes them to every chunk.
    """
    system = rulesets.system(args.grid_system)
    check_output_options(args)
    if getattr(args, "distribution", None) is not None and table is None:
        table, most = distribution_of(args, system)
        options = {**options, "max_successes": most}
    if rules is None:
        rules = rules_from_args(args)
    if getattr(args, "strategy", None) is not None:
        options = {**options, "strategy": args.strategy}
    if getattr(args, "at_least", None) is not None:
        if table is not None and "at_least" not in inspect.signature(table).parameters:
            raise ValueError(
                "--at-least adds columns to the odds table and cannot go with this "
                "output (a distribution of successes already has p_at_least)"
            )
        options = {**options, "at_least": args.at_least}
    if table is not None or options:
        # the same system with the table function bound to its options (picklable for --jobs)
        function = functools.partial(table or system.table, **options)
        system = dataclasses.replace(system, table=function)
    names = names_of(args)
    grid_specs = grid(args, system)
    resolved = sweep.resolve_grid(system, grid_specs, names)  # every value and the size, before --jobs is read
    if getattr(args, "distribution", None) is not None:  # its size, before any counting
        note = table(
            *(resolved[a] for a in system.axis_names),
            rules=rules,
            exact=counts_exactly(args),
            check_only=True,
            **options,
        )
        if isinstance(note, str):  # what the table leaves out, and why
            warn(note)
    else:
        check_work(system, resolved, rules, counts_exactly(args), options)
    df = sweep.tables(
        system,
        [rules],
        grid_specs,
        exact=counts_exactly(args),
        jobs=jobs(args) if hasattr(args, "jobs") else 1,
        progress=progress(args),
        desc=system.name,
        names=names,
    )[0]
    if getattr(args, "distribution", None) is not None and getattr(args, "pivot", None) is not None:
        df = complete(df, system.axis_names)  # a count a cell cannot reach: chance 0, not a blank
    return df, key_columns(df, system)


def check_work(system, resolved: dict, rules, exact: bool, options: dict) -> None:
    """Check the work a grid command's options add over the whole grid, before the sweep counts its
    first chunk (each chunk is checked alone, so a refusal could otherwise come after minutes).

    ``resolved``: ``{axis: [values]}`` (checked); ``options``: the table function's keywords (``at_least``,
    ``strategy``, ...), already bound into ``system``'s table function.  ``--at-least`` is read and its
    values counted against the grid; a table function that takes ``check_only`` checks the rest
    (each strategy's Willpower reroll, the at-least distributions), a refusal of the Willpower
    engine naming ``--strategy``.
    """
    if "at_least" in options:
        at_least.check_size(
            math.prod(len(v) for v in resolved.values()),
            at_least.parse(options["at_least"], "--at-least"),
            "--at-least",
        )
    if not options or not system.takes("check_only"):
        return
    try:
        system.table(*(resolved[a] for a in system.axis_names), rules=rules, exact=exact, check_only=True)
    except ValueError as exc:
        if "strategy" not in options or not isinstance(exc, MechanicError):
            raise
        text = str(exc).split(": ", 1)[1] if str(exc).startswith("mechanic.toml: ") else str(exc)
        raise ValueError(f"--strategy {options['strategy']}: {text}") from None


def key_columns(df, system) -> tuple:
    """The columns of a system's table that are keys, not probabilities: its axes, ``strategy`` and
    integer columns."""
    return tuple(c for c in df.columns if c in system.axis_names or c == "strategy" or is_int_column(df[c]))
