"""The ``beastodds`` command: exact odds tables from the shell."""
from __future__ import annotations

import argparse
import sys

from . import __version__
from .tables import FORMATS, render

def add_output_options(parser: argparse.ArgumentParser) -> None:
    """The options every table-printing subcommand shares."""
    parser.add_argument("--format", choices=FORMATS, default="table",
                        help="output format (default: a readable terminal table)")
    parser.add_argument("--exact", action="store_true",
                        help="print each probability as an exact reduced fraction num/den")
    parser.add_argument("--percent", action="store_true",
                        help="print probabilities as percentages")


def add_sweep_options(parser: argparse.ArgumentParser) -> None:
    """``--jobs`` and ``--quiet``, for subcommands that sweep a grid."""
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="split the grid over N processes (0: every core); the result is "
                             "identical to --jobs 1 (default)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar on stderr (it only shows on a terminal anyway)")


def _progress(args) -> bool:
    return not args.quiet and sys.stderr.isatty()


def _check_output_options(args) -> None:
    """Refuse what render() would refuse, before a long computation rather than after."""
    if args.exact and args.percent:
        raise ValueError("--exact and --percent cannot be combined: exact values are fractions")


def _add_axis_options(parser: argparse.ArgumentParser) -> None:
    from . import rulesets

    axes: dict = {}
    for system in rulesets.SYSTEMS.values():
        for axis, default in system.axes:
            axes.setdefault(axis, []).append(f"{system.name} default {default}")
    for axis, uses in axes.items():
        parser.add_argument(f"--{axis.replace('_', '-')}", dest=f"axis_{axis}", metavar="SPEC",
                            help=f"{axis} values ({'; '.join(uses)})")


def _grid_of(args, system) -> dict:
    from . import rulesets

    grid = {}
    for s in rulesets.SYSTEMS.values():
        for axis in s.axis_names:
            value = getattr(args, f"axis_{axis}", None)
            if value is not None and axis not in system.axis_names:
                raise ValueError(f"--{axis.replace('_', '-')} is not an axis of {system.name}; "
                                 f"its axes are " + ", ".join(f"--{a.replace('_', '-')}"
                                                              for a in system.axis_names))
            if value is not None:
                grid[axis] = value
    return grid


_FIGURE_TYPES = (".png", ".svg", ".pdf")


def _run_compare(args):
    from . import rulesets
    from .plots import difference_heatmap
    from .tables import compare

    if args.heatmap is not None and not args.heatmap.lower().endswith(_FIGURE_TYPES):
        raise ValueError(f"--heatmap must name a {', '.join(_FIGURE_TYPES)} file, got {args.heatmap!r}")
    if args.top is not None and args.top < 1:
        raise ValueError(f"--top must be at least 1, got {args.top}")
    _check_output_options(args)
    a, b = rulesets.load(args.rules_a), rulesets.load(args.rules_b)
    if a.system != b.system:
        raise ValueError(f"{a.name} is a {a.system} rule set and {b.name} a {b.system} one: "
                         f"compare needs two rule sets of the same system")
    grid = _grid_of(args, rulesets.system(a.system))
    cmp = compare(a, b, grid, exact=args.exact, jobs=args.jobs, progress=_progress(args))
    if args.heatmap is not None:
        fig = difference_heatmap(cmp)
        try:
            fig.savefig(args.heatmap, dpi=110, metadata={"Software": None}
                        if args.heatmap.lower().endswith(".png") else None)
        except OSError as exc:
            raise ValueError(f"cannot write {args.heatmap}: {exc.strerror or exc}") from None
        if not args.quiet:
            print(f"wrote {args.heatmap}", file=sys.stderr)
    df = cmp.table if args.top is None else cmp.top(args.top)
    if args.format == "table":
        body = render(df, "table", key_columns=cmp.key_columns, exact=args.exact, percent=args.percent)
        title = cmp.describe()
        if args.top is not None:
            title += f"\n  the {len(df)} cells where the change matters most (largest |difference|)"
        return title + "\n" + body
    return df, cmp.key_columns


def _run_table(args):
    from . import rulesets, sweep

    _check_output_options(args)
    rs = rulesets.load(args.rules)
    system = rulesets.system(rs.system)
    grid = _grid_of(args, system)
    df = sweep.tables(system, [rs.rules], grid, exact=args.exact, jobs=args.jobs,
                      progress=_progress(args), desc=rs.name)[0]
    keys = tuple(c for c in df.columns if c in system.axis_names or _is_int_column(df[c]))
    return df, keys


def _is_int_column(column) -> bool:
    import pandas as pd

    return pd.api.types.is_integer_dtype(column)


def _run_rules(args):
    import pandas as pd

    from . import rulesets

    if args.rules is not None:
        return rulesets.load(args.rules).to_toml()
    rows = [{"name": rs.name, "system": rs.system,
             "changes": "; ".join(f"{k} = {rulesets.show_value(v)}" for k, (_, v) in rs.changes().items())
             or "(the defaults)", "description": rs.description} for rs in rulesets.variants()]
    if args.format == "table":
        lines = [f"{r['name']:<32} {r['changes']}\n{'':<32} {r['description']}" for r in rows]
        return ("shipped rule sets (beastodds rules NAME prints one as TOML; a rule set is a "
                "shipped name or a .toml file):\n" + "\n".join(lines) + "\n")
    return pd.DataFrame(rows), ("name", "system", "changes", "description")


def _add_workbench(sub) -> None:
    p = sub.add_parser(
        "compare", help="compare two rule sets of one system, outcome by outcome",
        description="Compare two rule sets of the same system over a grid: one row per "
                    "(cell, outcome) with the odds under A, under B and difference = B - A. "
                    "RULES_A and RULES_B are shipped variant names (see `beastodds rules`) or "
                    "paths to rule-set TOML files. Axes left out take the system's default SPEC.")
    p.add_argument("rules_a", metavar="RULES_A", help="the first rule set (name or .toml path)")
    p.add_argument("rules_b", metavar="RULES_B", help="the second rule set (name or .toml path)")
    _add_axis_options(p)
    p.add_argument("--top", type=int, metavar="N", default=None,
                   help="only the N cells where the change matters most (largest |difference|)")
    p.add_argument("--heatmap", metavar="FILE", default=None,
                   help="also draw the difference heatmap per outcome class to FILE (.png, .svg, .pdf)")
    add_sweep_options(p)
    add_output_options(p)
    p.set_defaults(run=_run_compare)

    p = sub.add_parser(
        "table", help="the odds table of any rule set (shipped name or TOML file)",
        description="The tidy odds table of one rule set over a grid. RULES is a shipped variant "
                    "name (see `beastodds rules`) or a path to a rule-set TOML file. Axes left "
                    "out take the system's default SPEC.")
    p.add_argument("rules", metavar="RULES", help="the rule set (name or .toml path)")
    _add_axis_options(p)
    add_sweep_options(p)
    add_output_options(p)
    p.set_defaults(run=_run_table)

    p = sub.add_parser(
        "rules", help="list the shipped rule sets, or print one as TOML",
        description="Without RULES: the shipped rule sets and what each changes. With RULES "
                    "(a name or a .toml path): that rule set checked and printed as TOML, every "
                    "field written out, ready to copy and edit.")
    p.add_argument("rules", metavar="RULES", nargs="?", default=None,
                   help="a shipped name or a .toml file to check and print")
    add_output_options(p)
    p.set_defaults(run=_run_rules)


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear sentence, exit code 2
        self.exit(2, f"beastodds: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="beastodds", description=__doc__)
    parser.add_argument("--version", action="version", version=f"beastodds {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    from . import rulesets

    for system in rulesets.SYSTEMS.values():
        for module in system.command_modules():
            module.add_cli(sub)
    _add_workbench(sub)
    return parser


def main(argv=None) -> int:
    """Entry point of the ``beastodds`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.run(args)
        if isinstance(result, str):
            text = result
        else:
            df, keys = result
            text = render(df, args.format, key_columns=keys, exact=args.exact, percent=args.percent)
    except ValueError as exc:
        print(f"beastodds: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("beastodds: interrupted", file=sys.stderr)
        return 130
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `beastodds v5 ... | head`
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
