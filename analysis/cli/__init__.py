"""The ``beastodds`` command: exact odds tables from the shell.

Every game system under ``analysis/systems`` has a command named after it
(:mod:`analysis.cli.grid` builds it from the system's ``SYSTEM``); a system
with commands of its own has a family module here that builds them
(:data:`FAMILIES`); :mod:`analysis.cli.workbench` adds ``compare``,
``table`` and ``rules``.  Bad input prints one sentence and exits with code 2.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from .. import __version__
from ..tables import render

#: The family modules of this package that build a system's commands, by
#: system name.  Each has ``COMMANDS`` (the command names it adds, its
#: system's own name among them when it builds that command) and
#: ``add_commands(subparsers, system)``.  A system not named here gets the
#: generated grid command (:func:`analysis.cli.grid.add_command`).
FAMILIES = {"v5": ".v5", "cards": ".cards", "requiem": ".requiem", "classic": ".classic"}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear sentence, exit code 2
        self.exit(2, f"beastodds: error: {message}\n")


def family(system):
    """The family module that builds ``system``'s commands, or None."""
    ref = FAMILIES.get(system.name)
    return None if ref is None else importlib.import_module(ref, __name__)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``beastodds`` parser: every system's commands, then the workbench.

    With ``command`` (the first word of a command line), only the commands of
    the system or workbench that provides it are built, so that a command does
    not import every system's modules; a word that no system provides (a typo,
    an option) gets the whole parser, whose help and errors list every command.
    """
    from .. import rulesets
    from . import grid

    parser = _Parser(prog="beastodds", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"beastodds {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for system in rulesets.SYSTEMS.values():
        fam = family(system)
        own = fam is None or system.name not in fam.COMMANDS
        if command is not None and command not in (
                (system.name,) if own else ()) + (fam.COMMANDS if fam is not None else ()):
            continue
        if own and system.name not in sub.choices:
            grid.add_command(sub, system)
        if fam is not None:
            fam.add_commands(sub, system)
    if command is None or command not in sub.choices:
        from . import workbench

        workbench.add_commands(sub)
    if command is not None and command not in sub.choices:
        return build_parser()
    return parser


def main(argv=None) -> int:
    """Entry point of the ``beastodds`` console script."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv[0] if argv and not argv[0].startswith("-") else None)
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
