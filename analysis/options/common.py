"""What every ``beastodds`` subcommand shares: output, sweep, SPEC and rule-set options.

A subcommand's parser is built from these helpers so that the same option
means the same thing everywhere:

* ``--format``, ``--exact``, ``--percent``, ``--digits``, ``--columns``,
  ``--pivot``/``--value``: how the table is printed
  (:func:`add_output_options`, :func:`render_options`);
* ``--jobs``, ``--quiet``: how a grid is swept (:func:`add_sweep_options`);
* ``--AXIS SPEC``: a number (``7``), a range (``1-20``) or a list
  (``3,5,7``) of values (:func:`spec`, :func:`one_number` for an option
  that takes a single number);
* ``--rules NAME|FILE`` and ``--set FIELD=VALUE``: the rules the odds are
  counted under, in :mod:`analysis.options.rule_options` (:class:`RulesOptions`,
  :func:`add_rules_options`, :func:`rules_from_args`; their names answer here
  too), and inputs with no effect said after success in :mod:`analysis.options.warn`.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import sys
from typing import Any, Callable

import pandas as pd

from analysis.workbench import rulesets
from analysis.workbench import sweep
from analysis.engine.progress import progress_bar
from analysis.present.tables import FORMATS, MAX_DIGITS, legend, pivot_axes
from analysis.model.validate import check_cells, parse_spec

# ------------------------------------------------------------------ output


def add_output_options(parser, *, columns=None, system=None) -> None:
    """Add the options every table-printing subcommand shares, and its legend to ``--help``.

    Parameters
    ----------
    parser : analysis.cli.Parser
    columns : sequence of str, or a function giving one, optional
        The command's columns, which its ``--help`` lists with their
        meanings (a function is called only when the help is shown: it may
        import the module that names them, and counts nothing).  Default:
        the columns of ``system``'s table (:attr:`analysis.model.system.System.table_columns`).
    system : System or str, optional
        The system whose words explain the columns, and whose outcome
        classes the legend says are mutually exclusive.
    """
    parser.add_argument(
        "--format",
        choices=FORMATS + ("xlsx",),
        default="table",
        names=(),
        help="output format (default: a readable terminal table); Markdown and "
        "HTML get a legend, every export names its rule set (CSV and JSON: "
        "a rule_set column); xlsx: a spreadsheet written to -o FILE (sheets "
        "values, fractions and legend)",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        default=None,
        help="write the output to FILE (replaced atomically) instead of printing it",
    )
    parser.add_argument(
        "--exact", action="store_true", help="print each probability as an exact reduced fraction num/den"
    )
    parser.add_argument(
        "--percent", action="store_true", help="print probabilities as percentages (means stay as they are)"
    )
    parser.add_argument(
        "--digits",
        type=_digits,
        default=None,
        metavar="N",
        help="round every value to N decimals, exactly (default: 4, 2 with --percent; CSV and JSON: every digit)",
    )
    parser.add_argument(
        "--columns", default=None, metavar="A,B,...", help="print only these columns, in this order (the axes stay)"
    )
    parser.add_argument(
        "--pivot",
        default=None,
        metavar="'ROWS x COLS'",
        help="one column (--value) as a grid: ROWS down, COLS across, such as "
        "--pivot 'pool x hunger' --value p_win; other axes given several "
        "values stay as rows",
    )
    parser.add_argument("--value", default=None, metavar="COLUMN", help="the column --pivot shows")
    parser.legend = functools.partial(legend_lines, columns, system)


def legend_lines(columns, system=None) -> list:
    """The lines of a command's ``columns:`` legend (see :func:`add_output_options`): from what the
    command and its system declare, with nothing counted."""
    if isinstance(system, str):
        system = rulesets.system(system)
    if columns is None:
        columns = system.table_columns if system is not None else ()
    elif callable(columns):
        columns = columns()
    columns = [str(c) for c in columns]
    if not columns:
        return []
    head = "columns:"
    classes = [c for c, _ in system.classes if c in columns] if system is not None else []
    if classes:
        head = (
            f"columns (the outcome classes {', '.join(classes)} are mutually exclusive, "
            "summing to 1; the others are axes or derived columns):"
        )
    return [head] + [f"  {line}" for line in legend(columns, system)]


def _digits(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a whole number from 0 to {MAX_DIGITS}, got {text!r}") from None
    if not 0 <= n <= MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"takes a whole number from 0 to {MAX_DIGITS}, got {n}")
    return n


def check_output_options(args) -> None:
    """Refuse what ``render()`` would refuse, before a long computation rather than after."""
    if getattr(args, "format", None) == "xlsx":
        output = getattr(args, "output", None)
        if output is None:
            raise ValueError("--format xlsx writes a spreadsheet, which cannot go to the terminal: give -o FILE.xlsx")
        if not str(output).lower().endswith(".xlsx"):
            raise ValueError(f"--format xlsx writes an .xlsx file, got -o {output!r}")
        if args.exact:
            raise ValueError("--format xlsx always has a sheet of exact fractions: drop --exact")
    if args.exact and args.percent:
        raise ValueError("--exact and --percent cannot be combined: exact values are fractions")
    if getattr(args, "digits", None) is not None and args.exact:
        raise ValueError("--digits and --exact cannot be combined: exact values are fractions")
    pivot, value = getattr(args, "pivot", None), getattr(args, "value", None)
    if pivot is not None and getattr(args, "columns", None) is not None:
        raise ValueError("--pivot and --columns cannot be combined: --pivot shows the one column --value")
    if (pivot is None) != (value is None):
        raise ValueError("--pivot and --value go together: --pivot 'ROWS x COLS' --value COLUMN")
    if pivot is not None:
        pivot_axes(pivot)


def counts_exactly(args) -> bool:
    """Whether a command counts its table as exact Fractions rather than floats.

    With ``--exact``, and whenever a value is printed rounded or scaled:
    ``--digits``, ``--percent`` and the display formats (the terminal table,
    Markdown, LaTeX and HTML round to 4 decimals by default).  Then every
    digit printed is the exact fraction's (rounded half up, or ``float(100 * F)``
    for a percentage), never a digit of a float rounded again.  CSV and JSON
    without them print ``float(F)``, which the float count gives already.
    """
    return bool(
        getattr(args, "exact", False)
        or getattr(args, "percent", False)
        or getattr(args, "digits", None) is not None
        or getattr(args, "format", "table") not in ("csv", "json")
    )


def render_options(args, keys) -> dict:
    """The keyword arguments of :func:`analysis.present.tables.render` for a command's table.

    The output options, the key columns, the system (for the legend) and
    the rule set the command counted under (named in every export; a
    function that finds it, where :func:`rules_from_args` set it).
    """
    return {
        "key_columns": keys,
        "exact": args.exact,
        "percent": args.percent,
        "digits": getattr(args, "digits", None),
        "pivot": getattr(args, "pivot", None),
        "value": getattr(args, "value", None),
        "columns": getattr(args, "columns", None),
        "system": _system_of_args(args),
        "rule_set": getattr(args, "rule_set_used", None),
    }


def _system_of_args(args):
    """The system whose table a command prints (for the legend), or None."""
    name = getattr(args, "grid_system", None) or getattr(args, "table_system", None)
    if name is None:
        options = getattr(args, "rules_options", None)
        name = getattr(options, "system", None)
    if name is None:
        return None

    try:
        return rulesets.system(name)
    except ValueError:
        return None


def add_progress_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--progress`` and ``--quiet``, for subcommands whose work can take a while."""
    parser.add_argument(
        "--progress", action="store_true", help="draw a progress bar on stderr even when it is not a terminal"
    )
    parser.add_argument(
        "--quiet", action="store_true", help="no progress bar on stderr (it only shows on a terminal anyway)"
    )


def add_sweep_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--jobs``, ``--progress`` and ``--quiet``, for subcommands that sweep a grid."""
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="split the grid over N processes (0: every core; at most one per "
        "core and per 250 MB of free memory); the result is identical to "
        "--jobs 1 (default)",
    )
    add_progress_options(parser)


def progress(args) -> bool:
    """Whether to draw a progress bar: with ``--progress``, else on a terminal unless ``--quiet``."""
    if getattr(args, "quiet", False):
        return False
    return bool(getattr(args, "progress", False)) or sys.stderr.isatty()


def jobs(args) -> int:
    """The processes of ``--jobs``: checked, and capped by the cores and the free memory.

    A request above the cap runs with the cap and says so in one line on
    stderr (unless ``--quiet``).
    """
    wanted = getattr(args, "jobs", 1)
    if not isinstance(wanted, int) or not 0 <= wanted <= sweep.MAX_JOBS:
        raise ValueError(f"--jobs must be 0..{sweep.MAX_JOBS}, got {wanted}")
    used = sweep.check_jobs(wanted)
    if wanted > used and not getattr(args, "quiet", False):
        print(
            f"beastodds: note: --jobs {wanted} is more than this machine can use "
            f"({sweep.usable_cores()} cores, a worker needing about "
            f"{sweep.WORKER_MEMORY // 2**20} MB of free memory); using {used}",
            file=sys.stderr,
        )
    return used


# -------------------------------------------------------------------- SPECs

#: How a SPEC option reads in help texts.
SPEC_HELP = "a number (7), a range (1-20) or a list (3,5,7)"


def option(name: str) -> str:
    """The command-line spelling of a field or axis name: ``max_vitae`` -> ``--max-vitae``."""
    return "--" + name.replace("_", "-")


def spec(flag: str, text) -> list:
    """The values of a SPEC option (a number, a range or a list), or a ValueError naming ``flag``."""
    return parse_spec(flag, text, 0)  # a SPEC has no minus: its values are 0 or more


def spec_check(lo: int = 0, hi: int | None = None) -> Callable[[str, Any], Any]:
    """The ``check`` of a SPEC option (:meth:`analysis.cli.Parser.add_argument`): a number, a range or a
    list, each value ``lo..hi`` (a SPEC has no minus, so at least 0; ``hi`` None: at most
    :data:`analysis.model.validate.MAX_WHOLE`); the text is kept.  An option whose bounds only the API knows
    has no check: the API refuses its values naming it (:class:`analysis.model.validate.InputError`)."""
    lo = max(lo, 0)

    def check(option: str, text):
        parse_spec(option, text, lo, hi)
        return text

    return check


def number_check(option: str, text):
    """The ``check`` of an option that takes one whole number (:func:`one_number`); the text is kept."""
    one_number(option, text)
    return text


def one_number(flag: str, text) -> int | None:
    """The whole number of an option that takes one (None stays None).

    Negative numbers are passed on for the API to refuse in its own words; a
    range or a list is refused here: this option is not swept.
    """
    if text is None:
        return None
    if isinstance(text, int):
        return text
    try:
        return int(text)
    except ValueError:
        pass
    try:
        values = parse_spec(flag, text)
    except ValueError:
        raise ValueError(f"{flag} must be a whole number, got {text!r}") from None
    if len(values) != 1:
        raise ValueError(f"{flag} takes one number, got {len(values)} values")
    return values[0]


def values(flag: str, text) -> list:
    """The values of a SPEC option whose single number the API checks itself.

    A lone whole number (even a negative one) is passed on as it is, for the
    API to refuse in its own words; anything else is read as a SPEC.
    """
    try:
        return [int(text)]
    except (TypeError, ValueError):
        return parse_spec(flag, text, 0)


def values_check(option: str, text):
    """The ``check`` of a SPEC option whose single number the API checks itself (:func:`values`)."""
    values(option, text)
    return text


#: Most cells a command that sweeps its options one call per cell will count.
MAX_SWEEP = 10_000


def sweep_options(options, build, check=None, show: bool = False, desc: str = "cells"):
    """One table per combination of the values of several SPEC options, stacked.

    Parameters
    ----------
    options : sequence of (column, flag, SPEC text)
        The swept options; ``column`` names the value in ``build``'s keyword
        arguments and, for an option given several values, the key column
        put in front of the table.
    build : callable
        ``build(**{column: value}) -> DataFrame`` for one combination.
    check : callable, optional
        ``check(**{column: value})``, cheap, raising ValueError for a bad
        combination: every combination is checked before the first is built.
    show : bool
        A progress bar on stderr, one step per combination (Ctrl-C is seen
        between them).
    desc : str
        The progress bar's label.

    Returns
    -------
    pandas.DataFrame
        The tables in the order of the options' values (the first option
        slowest); an option given one value adds no column, so a command
        given single numbers prints what it always has.

    Raises
    ------
    ValueError
        For a bad SPEC, more than ``MAX_SWEEP`` combinations (before any
        value is expanded past its SPEC) or a combination ``check`` refuses.
    """
    spelled = [(column, values(flag, text)) for column, flag, text in options]
    check_cells({flag: len(v) for (_, flag, _), (_, v) in zip(options, spelled)}, MAX_SWEEP)
    swept = [column for column, v in spelled if len(v) > 1]
    combos = [dict(zip((c for c, _ in spelled), combo)) for combo in itertools.product(*(v for _, v in spelled))]
    if check is not None:
        for kwargs in combos:
            check(**kwargs)
    frames = []
    bar = progress_bar(len(combos), desc, "cell", show and len(combos) > 1)
    try:
        for kwargs in combos:
            df = build(**kwargs)
            for column in reversed(swept):
                df.insert(0, column, kwargs[column])
            frames.append(df)
            bar.update()
    finally:
        bar.close()
    return pd.concat(frames, ignore_index=True), tuple(swept)


# ------------------------------------------------------------------ axes

#: Options every grid subcommand has; an axis of that name is spelt --axis-NAME.
COMMON_OPTIONS = (
    "format",
    "exact",
    "percent",
    "digits",
    "columns",
    "pivot",
    "value",
    "jobs",
    "quiet",
    "rules",
    "set",
    "help",
    "top",
    "heatmap",
    "version",
    "outcome",
    "distribution",
    "output",
)


def axis_option(axis: str) -> str:
    """The option of a grid axis: ``--pool``; ``--axis-NAME`` for an axis named like a common option."""
    return option(f"axis_{axis}" if axis in COMMON_OPTIONS else axis)


def add_axis_options(parser: argparse.ArgumentParser, systems) -> None:
    """``--AXIS SPEC`` for every axis of any of ``systems`` (the workbench's compare and table); the
    values are checked once the rule set named, and so the system, is known (:mod:`analysis.workbench.sweep`)."""
    axes: dict = {}
    for system in systems:
        for axis, default in system.axes:
            axes.setdefault(axis, []).append(f"{system.name} default {default}")
    for axis, uses in axes.items():
        parser.add_argument(
            axis_option(axis),
            dest=f"axis_{axis}",
            metavar="SPEC",
            help=f"{axis} values ({'; '.join(uses)})",
        )


def names_of(args) -> dict:
    """``{API parameter: option typed}`` of the command run (:func:`analysis.cli.option_names`): what the
    API functions that name their inputs (``names=``) are given."""
    return dict(getattr(args, "names", None) or {})


def given_axes(args, systems) -> dict:
    """``{axis: SPEC}`` of every axis option given on the command line, of any of ``systems``."""
    return {
        axis: getattr(args, f"axis_{axis}")
        for s in systems
        for axis in s.axis_names
        if getattr(args, f"axis_{axis}", None) is not None
    }


def grid_of(args, system, systems) -> dict:
    """``{axis: SPEC}`` given on the command line for ``system``; an axis of another system is refused."""
    grid = given_axes(args, systems)
    for axis in grid:
        if axis not in system.axis_names:
            raise ValueError(
                f"{axis_option(axis)} is not an axis of {system.name}; "
                f"its axes are " + ", ".join(axis_option(a) for a in system.axis_names)
            )
    return grid


def is_int_column(column) -> bool:
    """Whether a table column holds integers (a key column, such as a dice count)."""
    return pd.api.types.is_integer_dtype(column)


# the rules options and the warnings live in their own modules; their names answer here too
from analysis.options.rule_options import (  # noqa: E402
    RulesOptions,  # noqa: F401
    add_rules_options,  # noqa: F401
    add_set_option,  # noqa: F401
    given,  # noqa: F401
    parse_set,  # noqa: F401
    rule_set_used,  # noqa: F401
    rules_from_args,  # noqa: F401
    sets_of,  # noqa: F401
    with_fields,  # noqa: F401
    with_sets,  # noqa: F401
)
from analysis.options.warn import take_warnings, warn  # noqa: E402,F401
