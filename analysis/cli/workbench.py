"""The rule-set workbench: ``beastodds compare``, ``table``, ``solve``, ``rules``, ``booklet`` and ``page``.

They work on rule sets of any system (a shipped name or a TOML file), over
the grid of that system's axes.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import json
import os
import re
import sys
from pathlib import Path

import pandas as pd

from analysis.present import booklet, page
from analysis.workbench import rulesets
from analysis.workbench import sweep
from analysis.engine.distribution import complete
from analysis.engine.strategy import NAMES
from analysis.options.common import (
    add_axis_options,
    add_output_options,
    add_set_option,
    add_sweep_options,
    axis_option,
    check_output_options,
    counts_exactly,
    given_axes,
    grid_of,
    is_int_column,
    jobs,
    names_of,
    option,
    progress,
    render_options,
    sets_of,
    warn,
    with_sets,
)
from analysis.options.grid import add_distribution_option, add_strategy_option, check_work, distribution_of
from analysis.options.output import write_output
from analysis.model.safeio import atomic_write, savefig
from analysis.workbench.solve import rule_set, solve, system_named
from analysis.engine.strategy_lists import bound, several
from analysis.present.tables import compare, legend, markdown_text, render
from analysis.model.validate import escape_controls, one_line
from analysis.present.plots import MAX_PANELS, difference_heatmap, slice_values

_FIGURE_TYPES = (".png", ".svg", ".pdf")


def _check_heatmap_name(name: str) -> str:
    """The figure type of ``--heatmap FILE`` (``png``), or a ValueError: a name with no stem is refused."""
    stem, ext = os.path.splitext(os.path.basename(name))
    if ext.lower() not in _FIGURE_TYPES or not stem:
        raise ValueError(f"--heatmap must name a {', '.join(_FIGURE_TYPES)} file such as difference.png, got {name!r}")
    return ext.lower()[1:]


def _heatmap_at(text, axes) -> dict:
    """``--heatmap-at AXIS=VALUE[,AXIS=VALUE...]`` as ``{axis: value}``, each axis one of ``axes``."""
    if text is None:
        return {}
    at = {}
    for part in text.split(","):
        name, eq, value = part.partition("=")
        name = name.strip().removeprefix("--").replace("-", "_")
        if not eq or not re.fullmatch(r"-?\d{1,12}", value.strip()):
            raise ValueError(f"--heatmap-at takes AXIS=VALUE[,AXIS=VALUE...] such as difficulty=3, got {text!r}")
        if name not in axes:
            raise ValueError(f"--heatmap-at: {name!r} is not an axis compared here ({', '.join(axes)})")
        at[name] = int(value)
    return at


def _heatmap_layout(cmp, by, at) -> tuple:
    """``(by, at)`` of the heatmap: the panels' axis (given, or a third axis with several values and at
    most ``plots.MAX_PANELS`` of them) and the slice of the others (given, else where the change is biggest)."""

    x, y = cmp.axes[0], cmp.axes[1] if len(cmp.axes) > 1 else None
    for axis, value in at.items():
        if axis not in cmp.grid or value not in cmp.grid[axis]:
            raise ValueError(f"--heatmap-at {option(axis)} {value}: not a value compared here")
        if axis in (x, y, by):
            raise ValueError(f"--heatmap-at {option(axis)}: that axis is drawn, not held at one value")
    if by is None and y is not None:
        third = [a for a in cmp.axes if a not in (x, y) and a not in at and len(cmp.grid[a]) > 1]
        if third and len(cmp.grid[third[0]]) <= MAX_PANELS:
            by = third[0]
    return by, at


def _heatmap_slice_warning(cmp, by, at) -> None:
    """Warn when the heatmap draws one slice of axes with several values that no option chose."""

    x, y = cmp.axes[0], cmp.axes[1]
    varying = [a for a in cmp.axes if len(cmp.grid[a]) > 1 and a not in (x, y, by) and a not in at]
    if not varying:
        return
    held = slice_values(cmp, x, y, {**at, **({by: cmp.grid[by][0]} if by else {})})
    where = ", ".join(f"{option(a)} {held[a]}" for a in varying)
    panels = f" (one panel per {option(by)})" if by else ""
    warn(
        f"the heatmap draws {option(x)} x {option(y)}{panels} at {where} only (the slice where the "
        f"change is biggest); --heatmap-at AXIS=VALUE chooses the slice"
    )


def _systems():
    return list(rulesets.SYSTEMS.values())


def run_compare(args):
    """``beastodds compare RULES_A RULES_B``: the odds under both rule sets and their difference."""
    kind = _check_heatmap_name(args.heatmap) if args.heatmap is not None else None
    if args.top is not None and args.top < 1:
        raise ValueError(f"--top must be at least 1, got {args.top}")
    check_output_options(args)
    a, b = with_sets(rulesets.load(args.rules_a), args.set_a), with_sets(rulesets.load(args.rules_b), args.set_b)
    system = rulesets.system(a.system)
    if a.system == b.system:
        grid = grid_of(args, system, _systems())
    else:  # two systems: compare checks each axis against both
        grid = given_axes(args, _systems())
    names = names_of(args)
    if args.heatmap is not None and several(args.strategy):
        raise ValueError("--heatmap draws one Willpower strategy: give --strategy one name, not several")
    if args.heatmap is None and (args.heatmap_by is not None or args.heatmap_at is not None):
        raise ValueError("--heatmap-by and --heatmap-at shape the heatmap: give --heatmap FILE too")
    known = list(system.axis_names) + [x for x in rulesets.system(b.system).axis_names if x not in system.axis_names]
    heat_at = _heatmap_at(args.heatmap_at, known)  # the options read before any cell is counted
    if args.heatmap_by is not None and args.heatmap_by not in known:
        raise ValueError(f"--heatmap-by: {args.heatmap_by!r} is not an axis compared here ({', '.join(known)})")
    cmp = compare(
        a,
        b,
        grid,
        exact=counts_exactly(args),
        jobs=jobs(args),
        progress=progress(args),
        names=names,
        outcomes=args.outcome,
        strategy=args.strategy,
    )
    if args.heatmap is not None:
        by, heat_at = _heatmap_layout(cmp, args.heatmap_by, heat_at)
        fig = difference_heatmap(cmp, at=heat_at or None, by=by)
        replaced = write_output(
            args.heatmap,
            lambda path: savefig(
                fig, path, format=kind, dpi=110, metadata={"Software": None} if kind == "png" else None
            ),
        )
        _heatmap_slice_warning(cmp, by, heat_at)
        if not args.quiet and not replaced:
            print(f"wrote {args.heatmap}", file=sys.stderr)
    if args.format != "table":  # the terminal table says it in its title; other formats on stderr
        for side, other in (("b", "a"), ("a", "b")):
            for name in cmp.only[other]:
                warn(f"{name} is a class of {side} only ({getattr(cmp, side).name}): its chance under {other} is 0")
        if cmp.left_out:
            warn(f"not compared (a column of one side only, and not a chance): {', '.join(cmp.left_out)}")
    df = cmp.table if args.top is None else cmp.top(args.top)
    args.rule_set_used, args.table_system = (a, b), a.system
    if len(df) == 0 and args.format == "table":
        return cmp.describe() + "\n  no cell differs\n"
    if len(df) == 0:  # every other format: the empty table in that format, saying so
        return render(df, args.format, **render_options(args, cmp.key_columns), empty="no cell differs")
    if args.format == "table":
        body = render(df, "table", **render_options(args, cmp.key_columns))
        title = cmp.describe()
        if args.top is not None:
            title += (
                f"\n  the {len(df)} cells where the change matters most (largest |difference|)"
                if len(df) != 1
                else "\n  the cell where the change matters most"
            )
        return title + "\n" + body
    return df, cmp.key_columns


def run_table(args):
    """``beastodds table RULES``: the odds table of one rule set over a grid."""
    check_output_options(args)
    rs = with_sets(rulesets.load(args.rules), args.set)
    system = rulesets.system(rs.system)
    grid = grid_of(args, system, _systems())
    names = names_of(args)
    resolved = sweep.resolve_grid(system, grid, names)  # every value and the size, before --jobs is read
    if args.distribution is not None:
        if args.at_least is not None:
            raise ValueError(
                "--at-least adds columns to the odds table and cannot go with --distribution "
                "(a distribution of successes already has p_at_least)"
            )
        function, most = distribution_of(args, system)
        note = function(
            *(resolved[a] for a in system.axis_names),
            rules=rs.rules,
            exact=counts_exactly(args),
            max_successes=most,
            check_only=True,
        )  # its size, before any counting
        if isinstance(note, str):  # what the table leaves out, and why
            warn(note)
        system = dataclasses.replace(system, table=functools.partial(function, max_successes=most))
        if args.strategy is not None:
            raise ValueError(
                "--distribution is the successes of one roll, without Willpower: leave out --strategy "
                "(the v5 and werewolf commands give a distribution after one strategy)"
            )
    elif args.at_least is not None or args.strategy is not None:
        options = {}
        if args.at_least is not None:
            if not system.takes("at_least"):
                raise ValueError(f"--at-least adds p_at_least_N columns, which the {system.name} table does not have")
            options["at_least"] = args.at_least
        system = bound(system, args.strategy, rs.name)
        if args.strategy is not None:
            options["strategy"] = args.strategy
        if "at_least" in options:
            system = dataclasses.replace(system, table=functools.partial(system.table, at_least=args.at_least))
        check_work(system, resolved, rs.rules, counts_exactly(args), options)
    df = sweep.tables(
        system,
        [rs.rules],
        grid,
        exact=counts_exactly(args),
        jobs=jobs(args),
        progress=progress(args),
        desc=rs.name,
        names=names,
    )[0]
    keys = tuple(c for c in df.columns if c in system.axis_names or c == "strategy" or is_int_column(df[c]))
    if args.distribution is not None and args.pivot is not None:
        df = complete(df, system.axis_names)  # a count a cell cannot reach: chance 0, not a blank
    args.rule_set_used, args.table_system = rs, system.name
    return df, keys


def run_rules(args):
    """``beastodds rules [RULES]``: list the shipped rule sets, or print one as TOML."""
    if args.exact or args.percent:
        raise ValueError(
            "--exact and --percent print probabilities; `beastodds rules` prints rule sets, with no probability in them"
        )
    shaping = [
        flag
        for flag, value in (
            ("--columns", args.columns),
            ("--pivot", args.pivot),
            ("--value", args.value),
            ("--digits", args.digits),
        )
        if value is not None
    ]
    if shaping and (args.rules is not None or args.format == "table"):
        raise ValueError(
            f"{shaping[0]} shapes the list of rule sets in --format csv, json, markdown, "
            f"latex or html; "
            + ("a rule set prints as TOML" if args.rules is not None else "the terminal list is laid out as text")
        )
    if args.rules is not None:
        rs = with_sets(rulesets.load(args.rules), args.set)
        if args.format == "json":
            return escape_controls(json.dumps(rs.to_dict(), indent=2, ensure_ascii=False)) + "\n"
        if args.format != "table":
            raise ValueError(f"one rule set prints as TOML (the default) or --format json, not --format {args.format}")
        return rs.to_toml()
    if args.set:
        raise ValueError("--set changes a rule set: name one, such as beastodds rules v5-official --set crit_bonus=3")
    rows = [
        {
            "name": rs.name,
            "system": rs.system,
            "changes": "; ".join(f"{k} = {rulesets.show_value(v)}" for k, (_, v) in rs.changes().items())
            or "(the defaults)",
            "description": rs.description,
        }
        for rs in rulesets.variants()
    ]
    if args.format == "table":
        lines = [
            f"{one_line(r['name']):<32} {one_line(r['changes'])}\n{'':<32} {one_line(r['description'])}" for r in rows
        ]
        return (
            "shipped rule sets (beastodds rules NAME prints one as TOML; a rule set is a "
            "shipped name or a .toml file):\n" + "\n".join(lines) + "\n"
        )
    return pd.DataFrame(rows), ("name", "system", "changes", "description")


def _html_output(name: str):
    """The ``-o`` of a command that writes an HTML page, as a Path: an ``.html`` file in a folder that exists."""
    out = Path(name)
    if out.suffix.lower() not in (".html", ".htm"):
        raise ValueError(f"-o/--output must name an .html file, got {name!r}")
    if out.is_dir():
        raise ValueError(f"-o/--output {name!r} is a directory: name the .html file to write")
    if not out.parent.is_dir():
        raise ValueError(f"cannot write {name}: the folder {str(out.parent)!r} does not exist")
    return out


def run_page(args):
    """``beastodds page RULESET... -o FILE``: one self-contained HTML page to share, a cell chosen with controls."""
    out = _html_output(args.output)
    sets = [rulesets.load(r) for r in args.rulesets]  # every rule set checked before any work
    grid = given_axes(args, _systems())
    names = names_of(args)
    text = page.html_text(
        page.page_data(sets, grid, jobs=jobs(args), progress=progress(args), names=names, strategy=args.strategy)
    )
    replaced = write_output(args.output, lambda path: atomic_write(path, text))
    if not args.quiet and not replaced:
        size = len(text.encode("utf-8"))
        print(f"wrote {out} ({', '.join(one_line(rs.name) for rs in sets)}; {size / 1000:,.0f} kB)", file=sys.stderr)
    return ""


def run_booklet(args):
    """``beastodds booklet RULESET... -o FILE``: a self-contained HTML booklet of one or more rule sets."""
    out = _html_output(args.output)
    sets = [rulesets.load(r) for r in args.rulesets]  # every rule set checked before any work
    grid, names = given_axes(args, _systems()), names_of(args)
    booklet.check_grid(sets, grid, names)  # every axis and value, before any cell is counted
    replaced = write_output(
        args.output,
        lambda path: booklet.build_rulesets(sets, Path(path), grid=grid, names=names, progress=progress(args)),
    )
    if not args.quiet and not replaced:
        print(f"wrote {out} ({', '.join(one_line(rs.name) for rs in sets)})", file=sys.stderr)
    return ""


def run_solve(args):
    """``beastodds solve RULES --find NAME --target COLUMN>=X``: the value of an axis or rule field that meets
    a target."""
    check_output_options(args)
    word = args.rules
    named = system_named(word)
    if args.rules_option is not None and named is None:
        raise ValueError(
            f"give the rule set once: {word} is a rule set, and --rules names another "
            f"(--rules goes with a system's name, such as solve v5 --rules FILE)"
        )
    if args.rules_option is not None:
        rs = rulesets.load(args.rules_option)
        if rs.system != named.name:
            raise ValueError(f"{rs.name} is a {rs.system} rule set; --rules here takes a {named.name} rule set")
    else:
        rs = rule_set(word)
    if args.find in sets_of(args.set):
        raise ValueError(
            f"--set {args.find}=... and --find {args.find} both give {args.find}: "
            f"leave out --set (give the values to search with --within)"
        )
    rs = with_sets(rs, args.set)
    system = rulesets.system(rs.system)
    grid = grid_of(args, system, _systems())
    names = names_of(args)
    df = solve(
        rs,
        args.find,
        args.target,
        within=args.within,
        at_least=args.at_least,
        strategy=args.strategy,
        jobs=jobs(args),
        progress=progress(args),
        names=names,
        **grid,
    )
    attrs = dict(df.attrs)
    goal, find = attrs["target"], args.find
    df = df.drop(columns=["float"])
    if args.format not in ("csv", "json"):  # no value found: "none" (and a dash for its column), in the formats
        # people read
        for column, word in ((find, "none"), (goal.column, "-")):
            df[column] = _objects([word if v is None else v for v in df[column].tolist()])
    keys = tuple(a for a in system.axis_names if a in df.columns and a != find)
    keys += ("strategy",) * ("strategy" in df.columns) + (find, "note")
    if args.pivot is not None:  # the value found may be what is pivoted: a value column, printed as it is
        if any(df["note"]):
            warn(
                f"{sum(1 for v in df['note'] if v)} of the cells have a note (a tie, no value that "
                f"meets the target, ...), which a pivot does not show: leave out --pivot to read them"
            )
        df = df.drop(columns=["note"])
        keys = keys[:-2]
        if args.format != "json":
            df[find] = _objects([v if v is None or isinstance(v, str) else str(v) for v in df[find]])
    elif args.format == "table" and not any(df["note"]):
        df = df.drop(columns=["note"])
    args.rule_set_used, args.table_system = rs, system.name
    if find in system.axis_names:
        meaning = "the value found: " + legend([find], system)[0].split(": ", 1)[1]
    else:
        info = next(i for i in system.rules.fields_info() if i.name == find)
        meaning = f"the value found of the rule field {find}: {info.help}"
    text = render(df, args.format, **render_options(args, keys), meanings={find: meaning})
    if args.format == "markdown":  # what was asked, above the table
        return f"{markdown_text('Solve: ' + attrs['question'])}\n\n{text}"
    if args.format == "html":
        return f'<p class="question">Solve: {html.escape(one_line(attrs["question"]))}</p>\n{text}'
    if args.format != "table":
        return text
    head = f"solve {one_line(rs.name)}: {attrs['question']}\n"
    if attrs["capped"]:
        head += f"  ({attrs['capped']}: --within searches other values)\n"
    return head + text


def _objects(values):
    return pd.Series(values, dtype=object)


def _files_note() -> str:
    """What the mechanic files on this command line add (their axes and parameters), for ``--help``."""
    notes = []
    for name, path in rulesets.MECHANIC_FILES.items():
        system = rulesets.SYSTEMS.get(name)
        if system is None:
            continue
        axes = ", ".join(axis_option(a) for a in system.axis_names)
        fields = ", ".join(system.fields()) or "none"
        notes.append(
            f"The mechanic file {path} is the system {name}: its axes are {axes}; its parameters (--set) {fields}."
        )
    return (" " + " ".join(notes)) if notes else ""


#: The workbench's commands, above the systems.
COMMANDS = ("compare", "table", "solve", "rules", "booklet", "page")


def add_commands(sub) -> None:
    """Add ``compare``, ``table``, ``solve``, ``rules``, ``booklet`` and ``page`` to ``sub``
    (:class:`analysis.cli.Commands`), each when wanted."""
    systems = _systems()
    files = _files_note()
    adders = (_add_compare, _add_table, _add_solve, _add_rules, _add_booklet, _add_page)
    for name, add in zip(COMMANDS, adders, strict=True):
        if sub.wanted(name):
            add(sub, systems, files)


def _add_compare(sub, systems, files) -> None:
    p = sub.add_parser(
        "compare",
        help="compare two rule sets, outcome by outcome",
        description="Compare two rule sets over a grid: one row per "
        "(cell, outcome) with the odds under A, under B and difference = B - A. "
        "RULES_A and RULES_B are shipped variant names (see `beastodds rules`) or "
        "paths to rule-set TOML files or mechanic files, of one system or of two "
        "that share axes (compare v5-official myrule.toml): then the grid is the "
        "shared axes, an axis only one side has takes one value, and classes match "
        "by name (a class one side lacks has chance 0 there, and the output says so). "
        "Axes left out take the default SPEC (of RULES_A's system)." + files,
    )
    p.add_argument("rules_a", metavar="RULES_A", help="the first rule set (name or .toml path)")
    p.add_argument("rules_b", metavar="RULES_B", help="the second rule set (name or .toml path)")
    add_axis_options(p, systems)
    add_set_option(p, "--set-a", "RULES_A")
    add_set_option(p, "--set-b", "RULES_B (compare v5-official v5-official --set-b crit_bonus=3)")
    p.add_argument(
        "--outcome",
        metavar="NAME[,NAME]",
        default=None,
        help="compare only these outcome columns (p_win,bestial_failure), in the system's order",
    )
    p.add_argument(
        "--top",
        type=int,
        metavar="N",
        default=None,
        help="only the N cells where the change matters most (largest |difference|)",
    )
    p.add_argument(
        "--heatmap",
        metavar="FILE",
        default=None,
        help="also draw the difference heatmap per outcome class to FILE (.png, .svg, .pdf): the first two "
        "axes across and up, and a third axis with several values (at most 8) as one panel per value, "
        "each row of panels on one colour scale centred on 0",
    )
    p.add_argument(
        "--heatmap-by",
        metavar="AXIS",
        default=None,
        help="the axis drawn as one panel per value (default: the third axis with several values)",
    )
    p.add_argument(
        "--heatmap-at",
        metavar="AXIS=VALUE",
        default=None,
        help="draw the heatmap at that value of an axis (several: difficulty=3,blood=1), named in its "
        "title (default: where the change is biggest)",
    )

    add_strategy_option(p, _strategy_names(), f" (both rule sets roll under it: {_STRATEGY_WHERE})")
    add_sweep_options(p)
    add_output_options(p, columns=("AXES", "outcome", "a", "b", "difference", "rule_set_a", "rule_set_b"))
    p.set_defaults(run=run_compare)


#: Which rule sets take ``--strategy``, for the help of a command of any system.
_STRATEGY_WHERE = "v5, werewolf and hunter rule sets, and a mechanic file with a [willpower] table"


def _strategy_names() -> str:
    """The strategies a mechanic file's Willpower takes (the v5 and werewolf ones add their own)."""
    return (
        ", ".join(NAMES)
        + " (the last two for a file whose classes include critical_win and messy_critical); werewolf: see its command"
    )


def _add_table(sub, systems, files) -> None:
    p = sub.add_parser(
        "table",
        help="the odds table of any rule set (shipped name or TOML file)",
        description="The tidy odds table of one rule set over a grid. RULES is a shipped variant "
        "name (see `beastodds rules`), a path to a rule-set TOML file or a mechanic "
        "file (docs/mechanic-format.md). Axes left out take the system's "
        "default SPEC." + files,
    )
    p.add_argument("rules", metavar="RULES", help="the rule set (name or .toml path)")
    add_axis_options(p, systems)
    add_set_option(p)
    p.add_argument(
        "--at-least",
        metavar="SPEC",
        dest="at_least",
        default=None,
        help="add a column p_at_least_N for each N of SPEC: the exact chance of N or more "
        "successes (systems whose table has them, such as a mechanic file that names "
        "its successes)",
    )

    add_strategy_option(p, _strategy_names(), f" ({_STRATEGY_WHERE})")
    add_distribution_option(p)
    add_sweep_options(p)
    add_output_options(p, columns=("AXES", "CLASSES", "rule_set"))
    p.set_defaults(run=run_table)


def _add_solve(sub, systems, files) -> None:
    p = sub.add_parser(
        "solve",
        help="the reverse question: the value of an axis or rule field that meets a target",
        description="Which pool, Difficulty or rule value gives my players that chance? SYSTEM|RULES "
        "is a system's name (its official rules), a shipped rule set (see `beastodds "
        "rules`), a rule-set TOML file or a mechanic file. --find names an axis or a "
        "rule field; the values are counted exactly (nothing assumes the column grows "
        "or falls with it). --target COLUMN>=X, COLUMN>X, COLUMN<=X or COLUMN<X gives the "
        "smallest value that meets it (a field with choices: the first in their "
        "order): the values are counted in order and the search stops once every cell "
        "has its answer; COLUMN~X the value whose column is nearest X, the smallest on a "
        "tie (every value counted). "
        "X is a decimal, a fraction such as 7/10 or a percentage, compared exactly. "
        "Other axes take a SPEC (left out: the system's default); several values "
        "give one row per cell. A tie, or no value that meets the target, is said "
        "in the note column, and the exit code is still 0." + files,
    )
    p.add_argument(
        "rules", metavar="SYSTEM|RULES", help="a system (v5, werewolf, ...), a shipped rule set or a .toml file"
    )
    p.add_argument(
        "--find",
        required=True,
        metavar="NAME",
        help="the axis (pool, difficulty, ...) or rule field (crit_bonus, ...) to search",
    )
    p.add_argument(
        "--target",
        required=True,
        metavar="COLUMN>=X",
        help="COLUMN>=X, COLUMN>X, COLUMN<=X, COLUMN<X or COLUMN~X (nearest), such as 'p_win>=0.7' or "
        "'p_win~1/2'; COLUMN is a column of the system's table",
    )
    p.add_argument(
        "--within",
        metavar="SPEC",
        default=None,
        help="the values to search (default: an axis from its lowest value to 100 or its "
        "highest, a rule field over its range or choices)",
    )
    p.add_argument(
        "--at-least",
        metavar="SPEC",
        dest="at_least",
        default=None,
        help="add a column p_at_least_N for each N of SPEC (the exact chance of N or more "
        "successes), for a target such as 'p_at_least_3>=0.5'",
    )
    add_strategy_option(
        p,
        _strategy_names(),
        f" (one answer per strategy; for {_STRATEGY_WHERE}); willpower_spent and p_win_gain may be targets too",
    )
    add_axis_options(p, systems)
    p.add_argument(
        "--rules",
        dest="rules_option",
        metavar="NAME|FILE",
        default=None,
        help="with a system's name: a rule set of that system (a shipped name or a .toml file) to count under",
    )
    add_set_option(p)
    add_sweep_options(p)
    add_output_options(p, columns=("AXES", "FIND", "COLUMN", "note", "rule_set"))
    p.set_defaults(run=run_solve)


def _add_rules(sub, systems, files) -> None:
    p = sub.add_parser(
        "rules",
        help="list the shipped rule sets, or print one as TOML",
        description="Without RULES: the shipped rule sets and what each changes. With RULES "
        "(a name or a .toml path): that rule set checked and printed as TOML, every "
        "field written out, ready to copy and edit (--set changes fields first).",
    )
    p.add_argument(
        "rules", metavar="RULES", nargs="?", default=None, help="a shipped name or a .toml file to check and print"
    )
    add_set_option(p)
    add_output_options(p, columns=("name", "system", "changes", "description"))
    p.set_defaults(run=run_rules)


def _add_booklet(sub, systems, files) -> None:
    p = sub.add_parser(
        "booklet",
        help="a self-contained HTML booklet of one or more rule sets",
        description="Write a readable HTML booklet (one file, figures inlined) of one or more rule "
        "sets, of any systems: for each, its name and description, its changes from the "
        "official rules (a mechanic file's: from the file's own rules), the chance to win "
        "pivoted by the system's axes with a legend "
        "under every table, every outcome class, and figures. RULESET is a shipped "
        "name (see `beastodds rules`), a rule-set TOML file or a mechanic file. The axis "
        "options choose the ranges (booklet v5-official --pool 1-12 --difficulty 2-6): "
        "each applies to every rule set whose system has that axis, and the tables show "
        "every value given; axes left out take each system's default SPEC." + files,
    )
    p.add_argument(
        "rulesets", metavar="RULESET", nargs="+", help="a shipped rule-set name or a .toml file (several allowed)"
    )
    add_axis_options(p, systems)
    p.add_argument(
        "-o", "--output", metavar="FILE", required=True, help="the .html file to write (replaced atomically)"
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar nor 'wrote FILE' line on stderr")
    p.set_defaults(run=run_booklet, format="table", exact=False, percent=False, own_output=True)


def _add_page(sub, systems, files) -> None:
    p = sub.add_parser(
        "page",
        help="one self-contained HTML page to share: pick a cell, read its exact odds and a chart",
        description="Write one HTML file (it opens from disk, with no network and no server) of the "
        "exact odds of one or more rule sets: a control for the rule set and one per "
        "axis; every outcome class and the chance to win of the chosen cell as "
        "percentages, the exact fraction on hover or click; a chart of the classes "
        "across one axis. With two rule sets or more, a view compares them side by side: each "
        "outcome under each, its change from the first in percentage points, and a chart of the "
        "changes. The cell shown is in the address (odds.html#pool=7&hunger=1"
        "&difficulty=3, and &view=compare for the comparison), so a link names one cell. "
        "RULESET is a shipped name (see "
        "`beastodds rules`), a rule-set TOML file or a mechanic file. Axes left out "
        "take each system's default SPEC; an axis option applies to every rule set "
        "whose system has that axis." + files,
    )
    p.add_argument(
        "rulesets",
        metavar="RULESET",
        nargs="+",
        help="a shipped rule-set name, a rule-set .toml file or a mechanic file (several allowed)",
    )
    add_axis_options(p, systems)
    p.add_argument(
        "--strategy",
        metavar="STRATEGY",
        default=None,
        help="show the odds after a Willpower reroll under that one strategy, for every rule set "
        "with Willpower rerolls (" + _strategy_names() + "; " + _STRATEGY_WHERE + "); the others "
        "are shown without",
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", required=True, help="the .html file to write (replaced atomically)"
    )
    add_sweep_options(p)
    p.set_defaults(run=run_page, format="table", exact=False, percent=False, own_output=True)
