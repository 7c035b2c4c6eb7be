"""The ``beastodds`` command's machinery: the parser of every command, and a command run from it.

:func:`build_parser` builds the commands of every system and of the workbench (only those of one
command where the command line names it); :func:`run` parses a command line, counts and prints.
The entry, :func:`analysis.cli.main`, imports this module when a command runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import textwrap
from typing import Any, Callable, NoReturn

from analysis.model.version import VERSION
from analysis.cli import cards, classic, requiem, v5, workbench
from analysis.cli.streams import OutputError, write_out
from analysis.model.safeio import atomic_write
from analysis.model.validate import InputError
from analysis.options import grid
from analysis.options.common import check_output_options, render_options, take_warnings
from analysis.options.output import say, write_output
from analysis.present.tables import render, xlsx_bytes
from analysis.workbench import rulesets


#: The modules that build a shipped system's own commands, one plain import each: each names its system
#: (``SYSTEM``), the commands it adds (``COMMANDS``, the system's own name among them when it builds that
#: command itself) and ``add_commands(sub, system)``.  A system without one gets the generated grid command.
SYSTEM_COMMANDS = (cards, classic, requiem, v5)

DESCRIPTION = (
    "Exact odds for the dice and card systems of vampire tabletop games: every way the "
    "dice or cards can land is counted, never simulated. One command per system, then "
    "compare, table, solve, rules, booklet and page for house rules, and versus across systems."
)


class Parser(argparse.ArgumentParser):
    """The parser of ``beastodds`` and of each of its commands: argparse through its public API alone.

    * ``-h/--help`` and ``--version`` print through :func:`write_out`, so that the help on a full
      disk or a closed standard output is an error (exit code 2), never a success;
    * an error of the command line is one sentence, ``beastodds: error: ...``, exit code 2;
    * :meth:`add_argument` takes two keywords more: ``check``, a function ``check(option, text)``
      that refuses a bad value with a ValueError naming ``option``, the option string typed (the
      value stored is what it returns); and ``names``, the API parameters the option stands for,
      by which an :class:`analysis.model.validate.InputError` of the API is put in the option's words
      (default: its destination; ``()``: none).  Every option added is in :attr:`options`;
    * :attr:`legend`, when set, gives the lines of the ``columns:`` legend that ends its help.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["add_help"] = False  # its own -h/--help, below
        super().__init__(*args, **kwargs)
        #: Every option, in the order added.
        self.options: list[argparse.Action] = []
        #: ``{option: the API parameters it stands for}`` (see :meth:`add_argument`).
        self.api_names: dict[argparse.Action, tuple[str, ...]] = {}
        #: The lines of the help's column legend, or None.
        self.legend: Callable[[], list[str]] | None = None
        #: Its line in ``beastodds --help`` (a command's parser).
        self.summary: str | None = None
        #: ``{command: its parser}`` (the ``beastodds`` parser).
        self.commands: dict[str, Parser] = {}
        self.add_argument("-h", "--help", action=_Help, help="show this help message and exit", names=())

    def add_argument(self, *args: Any, check: Callable[[str, Any], Any] | None = None, names=None, **kwargs: Any):
        if check is not None:
            kwargs = {"action": _Checked, **kwargs, "check": check}
        action = super().add_argument(*args, **kwargs)
        self.options.append(action)
        if names is None:
            names = () if action.dest == argparse.SUPPRESS else (action.dest.removeprefix("axis_"),)
        self.api_names[action] = tuple(names)
        return action

    def format_help(self) -> str:
        text = super().format_help()
        lines = self.legend() if self.legend is not None else []
        if not lines:
            return text
        width = max(shutil.get_terminal_size().columns - 2, 40)  # argparse's own width
        wrapped = [w for line in lines for w in textwrap.wrap(line, width, subsequent_indent="      ")]
        return text + "\n" + "\n".join(wrapped) + "\n"

    def error(self, message: str) -> NoReturn:  # one clear sentence, exit code 2
        self.exit(2, f"beastodds: error: {message}\n")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            try:
                sys.stderr.write(message)
            except (AttributeError, OSError, ValueError):  # no stderr to say it on
                pass
        raise SystemExit(status)


class _Help(argparse.Action):
    """``-h/--help``: the parser's help on stdout, checked (:func:`write_out`), then exit 0."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        write_out(parser.format_help())
        parser.exit()


class _Version(argparse.Action):
    """``--version``: the version on stdout, checked (:func:`write_out`), then exit 0."""

    def __init__(
        self,
        option_strings,
        version: str,
        dest=argparse.SUPPRESS,
        default=argparse.SUPPRESS,
        help="show program's version number and exit",
    ):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)
        self.version = version

    def __call__(self, parser, namespace, values, option_string=None):
        write_out(f"{self.version}\n")
        parser.exit()


class _Checked(argparse.Action):
    """Store an option's value once its ``check(option, value)`` takes it: a ValueError naming the
    option typed goes out of the parser as it is (:func:`main` says it in one sentence, exit code 2)."""

    def __init__(self, option_strings, dest, check: Callable[[str, Any], Any], **kwargs):
        super().__init__(option_strings, dest, **kwargs)
        self.check = check

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, self.check(option_string or self.dest, values))


class Commands:
    """What the command modules add their commands to: ``sub`` of ``add_commands(sub, system)``.

    :meth:`add_parser` adds a command (a :class:`Parser`) as argparse's subparsers do;
    :meth:`wanted` says whether a command is to be built (when one command is run, only it).
    """

    def __init__(self, subparsers, only: str | None = None) -> None:
        self._subparsers = subparsers
        self.only = only
        #: ``{command: its parser}``, in the order added.
        self.parsers: dict[str, Parser] = {}

    def wanted(self, command: str) -> bool:
        """Whether to build ``command`` (every command, or only the one being run)."""
        return self.only is None or command == self.only

    def add_parser(self, name: str, **kwargs: Any) -> Parser:
        """Add the command ``name`` (``help``: its line in ``beastodds --help``); return its parser."""
        parser = self._subparsers.add_parser(name, **kwargs)
        parser.summary = kwargs.get("help")
        self.parsers[name] = parser
        return parser


def family(system):
    """The module of :data:`SYSTEM_COMMANDS` that builds ``system``'s own commands, or None.

    It has ``COMMANDS`` (the command names it adds, the system's own name
    among them when it builds that command) and ``add_commands(sub, system)``
    (``sub``: :class:`Commands`); a system without one gets the generated grid
    command (:func:`analysis.options.grid.add_command`).
    """
    return next((m for m in SYSTEM_COMMANDS if m.SYSTEM.name == system.name), None)


def build_parser(command: str | None = None, *, alone: bool = False) -> Parser:
    """The ``beastodds`` parser: every system's commands, then the workbench.

    With ``command`` (the first word of a command line), only the commands of
    the system or workbench that provides it are built, so that a command does
    not import every system's modules; with ``alone`` too, only that command
    (what running it needs).  A word that no system provides (a typo, an
    option) gets the whole parser, whose help and errors list every command.
    """

    parser = Parser(
        prog="beastodds",
        description=DESCRIPTION,
        epilog="The rules each command counts: docs/rules.md. Exit codes: 0 done, "
        "2 bad input or output that cannot be written, 130 interrupted.",
    )
    parser.add_argument("--version", action=_Version, version=f"beastodds {VERSION}", names=())
    sub = Commands(
        parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser, required=True),
        command if alone else None,
    )
    parser.commands = sub.parsers
    for system in rulesets.SYSTEMS.values():
        fam = family(system)
        own = fam is None or system.name not in fam.COMMANDS
        if command is not None and command not in ((system.name,) if own else ()) + (
            fam.COMMANDS if fam is not None else ()
        ):
            continue
        if own and system.name not in sub.parsers and sub.wanted(system.name):
            grid.add_command(sub, system)
        if fam is not None:
            fam.add_commands(sub, system)
        if command is not None and command in sub.parsers:  # one system provides a command
            break
    if command is None or command not in sub.parsers:
        workbench.add_commands(sub)
    if command is not None and command not in sub.parsers:
        return build_parser()
    return parser


def commands(command: str | None = None) -> dict[str, Parser]:
    """``{command: its parser}`` of ``beastodds``: every command, or those :func:`build_parser` builds
    with ``command``.  Each parser's options are in its ``options``, its help line in its ``summary``."""
    return dict(build_parser(command).commands)


def option_strings(parser: Parser) -> set[str]:
    """Every option string of a command (``--pool``, ``-o``, ``--output``, ``-h``, ...)."""
    return {s for action in parser.options for s in action.option_strings}


def option_names(parser: Parser, argv) -> dict[str, str]:
    """``{API parameter: the option typed}`` for a command: how its messages name what the user typed.

    Each option stands for the API parameters it was declared with (:meth:`Parser.add_argument`,
    by default its destination: ``attack_pool`` for ``--attack-pool``, ``pool`` for an axis'
    ``--pool``); the option is spelt as in ``argv`` (``--soak`` or ``--stamina``), else by its
    first long name.
    """
    typed = {a.split("=", 1)[0] for a in argv if a.startswith("--")}
    names: dict[str, str] = {}
    for action in parser.options:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if not longs:
            continue
        flag = next((o for o in longs if o in typed), longs[0])
        for name in parser.api_names.get(action, ()):
            names[name] = flag
    return names


def error_message(exc: ValueError, names: dict[str, str]) -> str:
    """The sentence of a refused input, in the words of the command line: an
    :class:`analysis.model.validate.InputError` whose name is an API parameter of the command's
    ``names`` (:func:`option_names`) names the option instead; any other is said as it is."""

    if isinstance(exc, InputError) and exc.name in names:
        return exc.named(names[exc.name])
    return str(exc)


#: The commands that take rule-set files (and so mechanic files) as arguments.
FILE_COMMANDS = ("table", "compare", "solve", "versus", "booklet", "page", "rules")
#: Their options that take a file that is not a rule set.
_OUTPUT_OPTIONS = ("-o", "--output", "--heatmap")


def command_names() -> set[str]:
    """The name of every command of ``beastodds`` (without building its parser): each shipped system's own
    commands (or its name and other names), then the workbench's.  A mechanic file may not take one."""

    names = set(workbench.COMMANDS)
    for system in rulesets.SYSTEMS.values():
        if system.package:
            fam = family(system)
            names |= {system.name, *system.aliases, *(fam.COMMANDS if fam is not None else ())}
    return names


def register_files(words) -> None:
    """Register the mechanics of the files named among a command's ``words``, before its options are built.

    A mechanic file (or a rule-set file with ``mechanic = "..."``) brings a
    system whose axes are options of ``table`` and ``compare``, so those must
    be known before the command line is parsed: ``beastodds table MINE.toml
    --blood 1-3`` (and ``--help`` lists them).  Other words, and files that
    cannot be read, are left to the command.
    """

    after_output = False
    for word in words:
        if word == "--":
            continue
        if word.startswith("-"):
            after_output = word in _OUTPUT_OPTIONS
            continue
        if after_output:
            after_output = False
            continue
        try:
            is_file = os.path.isfile(word)
        except (OSError, ValueError):  # a word with a NUL byte, or too long for a path
            is_file = False
        if is_file:
            system = rulesets.register_file(word)
            if system is not None and not system.package and system.name in command_names():
                raise ValueError(
                    f"{word}: {system.name!r} is the name of the command beastodds {system.name}; give the "
                    f"mechanic another name in [mechanic] name"
                )


def run(argv) -> int:
    """Parse, compute and print; errors of the user's input print one sentence and give 2."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if sys.stdout is None:  # `beastodds ... >&-`: nowhere to put the answer, so do no work
        raise OutputError("standard output is closed")
    if argv and argv[0] in FILE_COMMANDS:
        try:
            register_files(argv[1:])
        except ValueError as exc:
            say(f"beastodds: error: {exc}")
            return 2
    parser = build_parser(argv[0] if argv and not argv[0].startswith("-") else None, alone=True)

    take_warnings()
    names: dict[str, str] = {}
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit:  # --help, --version or a usage error: what was printed must get out
            write_out("")
            raise
        command = parser.commands.get(args.command)
        names = option_names(command, argv) if command is not None else {}
        args.names = names
        output = None if getattr(args, "own_output", False) else getattr(args, "output", None)
        if output is not None:
            check_output_options(args)  # an xlsx without -o, before any counting
        elif getattr(args, "format", None) == "xlsx":
            raise ValueError("--format xlsx writes a spreadsheet, which cannot go to the terminal: give -o FILE.xlsx")
        result = _run_command(args)
        if args.format == "xlsx":
            if isinstance(result, str):
                raise ValueError("--format xlsx writes a table, and this command prints text")
            text = _write_xlsx(args, *result)
        elif isinstance(result, str):
            text = result
        else:
            df, keys = result
            text = render(df, args.format, **render_options(args, keys))
        if output is not None and args.format != "xlsx":
            replaced = write_output(output, lambda path: atomic_write(path, text))
            if not replaced and not getattr(args, "quiet", False):
                say(f"wrote {output}")
            text = ""
    except ValueError as exc:  # an input refused (by an option's check or by the API): one sentence
        take_warnings()  # the error is what to fix first
        say(f"beastodds: error: {error_message(exc, names)}")
        return 2
    for warning in take_warnings():
        say(f"beastodds: warning: {warning}")
    write_out(text)
    return 0


def _run_command(args):
    """``args.run(args)``; run again where numba could not save a kernel it compiled (a full disk, say).

    The kernel is in memory by then, so each run again gets further; the
    first failure is said once on stderr (``kernels._jit.cache_write_failed``).
    """
    for _ in range(_SAVE_RETRIES):
        try:
            result = args.run(args)
            break
        except OSError as exc:
            jit = sys.modules.get("kernels._jit")  # loaded with the first kernel: no kernel, no numba failure
            if jit is None or not jit.cache_write_failed(exc):
                raise
    else:
        result = args.run(args)
    jit = sys.modules.get("kernels._jit")
    if jit is not None:
        jit.compiled()  # the answer is ready: a first run's progress line goes
    return result


#: How many times a command is run again when numba cannot save its compiled kernels: each time one
#: kernel more is in memory, and no command compiles this many.
_SAVE_RETRIES = 200


def _write_xlsx(args, df, keys) -> str:
    """Write a command's table as a spreadsheet to ``-o`` (atomically); the text to print (none)."""

    options = render_options(args, keys)
    options.pop("exact")
    data = xlsx_bytes(df, **options)
    replaced = write_output(args.output, lambda path: atomic_write(path, data))
    if not replaced and not getattr(args, "quiet", False):
        say(f"wrote {args.output}")
    return ""
