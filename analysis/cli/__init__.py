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


def build_parser() -> argparse.ArgumentParser:
    """The ``beastodds`` parser: every system's commands, then the workbench."""
    from .. import rulesets
    from . import grid, workbench

    parser = _Parser(prog="beastodds", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"beastodds {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    parser.commands = sub.choices  # {command: its parser}, for option_names
    for system in rulesets.SYSTEMS.values():
        fam = family(system)
        if (fam is None or system.name not in fam.COMMANDS) and system.name not in sub.choices:
            grid.add_command(sub, system)
        if fam is not None:
            fam.add_commands(sub, system)
    workbench.add_commands(sub)
    return parser


def option_names(parser, args, argv) -> dict:
    """``{name an API error starts with: the option typed}`` for the command run.

    Every option of the command maps its destination (``attack_pool``,
    ``pool`` for ``--pool``) to the spelling given in ``argv`` (or its first
    long one); a command adds API names of its own with
    ``set_defaults(api_names={...})`` (``damage_dice`` -> ``--dice``).
    """
    command = getattr(parser, "commands", {}).get(getattr(args, "command", None))
    if command is None:
        return {}
    typed = {a.split("=", 1)[0] for a in argv if a.startswith("--")}
    names, specs = {}, set()
    for action in command._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if not longs or action.dest in ("help", "set", "rules", "format"):
            continue
        flag = next((o for o in longs if o in typed), longs[0])
        key = action.dest[5:] if action.dest.startswith("axis_") else action.dest
        names[key] = flag
        if action.metavar == "SPEC":
            specs.add(flag)
    for key, flag in (getattr(args, "api_names", None) or {}).items():
        names[key] = next((o for o in flag.split("/") if o in typed), flag.split("/")[0])
    names["\0specs"] = specs
    return names


def _renamed(message: str, names: dict) -> str:
    """``message`` naming the option typed; a SPEC option's range starts at 0 (a SPEC has no minus)."""
    import re

    from ..validate import rename

    specs = names.pop("\0specs", set())
    text = rename(message, names)
    flag = next((f for f in specs if text.startswith(f + " ")), None)
    if flag is not None:
        text = re.sub(r"^(\S+ must be )-\d+\.\.", r"\g<1>0..", text)
    return text


def main(argv=None) -> int:
    """Entry point of the ``beastodds`` console script."""
    sys.set_int_max_str_digits(0)  # exact fractions of any size print (the CLI is its own process)
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    from .workbench import take_warnings

    take_warnings()
    try:
        result = args.run(args)
        if isinstance(result, str):
            text = result
        else:
            df, keys = result
            text = render(df, args.format, key_columns=keys, exact=args.exact, percent=args.percent)
    except ValueError as exc:
        take_warnings()  # the error is what to fix first
        print(f"beastodds: error: {_renamed(str(exc), option_names(parser, args, argv))}",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("beastodds: interrupted", file=sys.stderr)
        return 130
    for warning in take_warnings():
        print(f"beastodds: warning: {warning}", file=sys.stderr)
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `beastodds v5 ... | head`
        return 0
    return 0
