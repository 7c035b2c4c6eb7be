"""The rule-set workbench: ``beastodds compare``, ``beastodds table`` and ``beastodds rules``.

They work on rule sets of any system (a shipped name or a TOML file), over
the grid of that system's axes.
"""
from __future__ import annotations

import sys

from ..tables import render
from .common import (add_axis_options, add_output_options, add_sweep_options, check_output_options,
                     grid_of, is_int_column, progress, sets_of, with_fields)

_FIGURE_TYPES = (".png", ".svg", ".pdf")


def _systems():
    from .. import rulesets

    return list(rulesets.SYSTEMS.values())


def _with_sets(rs, texts):
    """A loaded rule set with ``--set`` changes applied (then named ``NAME-custom``)."""
    import dataclasses

    changes = sets_of(texts)
    if not changes:
        return rs
    from .. import rulesets

    rules = with_fields(rs.rules, changes, title=f"{rs.system} rules")
    base = rs.fields()
    said = "; ".join(f"{k} = {rulesets.show_value(v)}" for k, v in
                     dataclasses.asdict(rules).items() if base.get(k) != v)
    return dataclasses.replace(rs, name=f"{rs.name}-custom", rules=rules,
                               description=f"{rs.name} with {said or 'nothing changed'}.")


def _add_set_option(p, flag: str = "--set", which: str = "the rule set") -> None:
    p.add_argument(flag, metavar="FIELD=VALUE", action="append", default=[],
                   dest=flag[2:].replace("-", "_"),
                   help=f"change one field of {which} (repeatable); VALUE is a TOML value "
                        "(2, true, \"high\"; a bare word is a text, none is no value)")


def run_compare(args):
    """``beastodds compare RULES_A RULES_B``: the odds under both rule sets and their difference."""
    from .. import rulesets
    from ..tables import compare

    if args.heatmap is not None and not args.heatmap.lower().endswith(_FIGURE_TYPES):
        raise ValueError(f"--heatmap must name a {', '.join(_FIGURE_TYPES)} file, got {args.heatmap!r}")
    if args.top is not None and args.top < 1:
        raise ValueError(f"--top must be at least 1, got {args.top}")
    check_output_options(args)
    a, b = _with_sets(rulesets.load(args.rules_a), args.set_a), _with_sets(rulesets.load(args.rules_b), args.set_b)
    if a.system != b.system:
        raise ValueError(f"{a.name} is a {a.system} rule set and {b.name} a {b.system} one: "
                         f"compare needs two rule sets of the same system")
    grid = grid_of(args, rulesets.system(a.system), _systems())
    cmp = compare(a, b, grid, exact=args.exact, jobs=args.jobs, progress=progress(args))
    if args.heatmap is not None:
        from ..plots import difference_heatmap  # matplotlib: only when a heatmap is asked for

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


def run_table(args):
    """``beastodds table RULES``: the odds table of one rule set over a grid."""
    from .. import rulesets, sweep

    check_output_options(args)
    rs = _with_sets(rulesets.load(args.rules), args.set)
    system = rulesets.system(rs.system)
    grid = grid_of(args, system, _systems())
    df = sweep.tables(system, [rs.rules], grid, exact=args.exact, jobs=args.jobs,
                      progress=progress(args), desc=rs.name)[0]
    keys = tuple(c for c in df.columns if c in system.axis_names or is_int_column(df[c]))
    return df, keys


def run_rules(args):
    """``beastodds rules [RULES]``: list the shipped rule sets, or print one as TOML."""
    import pandas as pd

    from .. import rulesets

    if args.rules is not None:
        return _with_sets(rulesets.load(args.rules), args.set).to_toml()
    if args.set:
        raise ValueError("--set changes a rule set: name one, such as beastodds rules v5-official "
                         "--set crit_bonus=3")
    rows = [{"name": rs.name, "system": rs.system,
             "changes": "; ".join(f"{k} = {rulesets.show_value(v)}" for k, (_, v) in rs.changes().items())
             or "(the defaults)", "description": rs.description} for rs in rulesets.variants()]
    if args.format == "table":
        lines = [f"{r['name']:<32} {r['changes']}\n{'':<32} {r['description']}" for r in rows]
        return ("shipped rule sets (beastodds rules NAME prints one as TOML; a rule set is a "
                "shipped name or a .toml file):\n" + "\n".join(lines) + "\n")
    return pd.DataFrame(rows), ("name", "system", "changes", "description")


def add_commands(sub) -> None:
    """Add ``compare``, ``table`` and ``rules`` to the subparsers ``sub``."""
    systems = _systems()
    p = sub.add_parser(
        "compare", help="compare two rule sets of one system, outcome by outcome",
        description="Compare two rule sets of the same system over a grid: one row per "
                    "(cell, outcome) with the odds under A, under B and difference = B - A. "
                    "RULES_A and RULES_B are shipped variant names (see `beastodds rules`) or "
                    "paths to rule-set TOML files. Axes left out take the system's default SPEC.")
    p.add_argument("rules_a", metavar="RULES_A", help="the first rule set (name or .toml path)")
    p.add_argument("rules_b", metavar="RULES_B", help="the second rule set (name or .toml path)")
    add_axis_options(p, systems)
    _add_set_option(p, "--set-a", "RULES_A")
    _add_set_option(p, "--set-b", "RULES_B (compare v5-official v5-official --set-b crit_bonus=3)")
    p.add_argument("--top", type=int, metavar="N", default=None,
                   help="only the N cells where the change matters most (largest |difference|)")
    p.add_argument("--heatmap", metavar="FILE", default=None,
                   help="also draw the difference heatmap per outcome class to FILE (.png, .svg, .pdf)")
    add_sweep_options(p)
    add_output_options(p)
    p.set_defaults(run=run_compare)

    p = sub.add_parser(
        "table", help="the odds table of any rule set (shipped name or TOML file)",
        description="The tidy odds table of one rule set over a grid. RULES is a shipped variant "
                    "name (see `beastodds rules`) or a path to a rule-set TOML file. Axes left "
                    "out take the system's default SPEC.")
    p.add_argument("rules", metavar="RULES", help="the rule set (name or .toml path)")
    add_axis_options(p, systems)
    _add_set_option(p)
    add_sweep_options(p)
    add_output_options(p)
    p.set_defaults(run=run_table)

    p = sub.add_parser(
        "rules", help="list the shipped rule sets, or print one as TOML",
        description="Without RULES: the shipped rule sets and what each changes. With RULES "
                    "(a name or a .toml path): that rule set checked and printed as TOML, every "
                    "field written out, ready to copy and edit (--set changes fields first).")
    p.add_argument("rules", metavar="RULES", nargs="?", default=None,
                   help="a shipped name or a .toml file to check and print")
    _add_set_option(p)
    add_output_options(p)
    p.set_defaults(run=run_rules)
