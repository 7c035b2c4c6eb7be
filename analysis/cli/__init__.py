"""The ``beastodds`` command: exact odds tables from the shell.

Every game system under ``analysis/systems`` has a command named after it
(:mod:`analysis.cli.grid` builds it from the system's ``SYSTEM``); a system
with commands of its own names the module that builds them
(``SYSTEM.cli``, the ``cli.py`` of its package); :mod:`analysis.cli.workbench`
adds ``compare``, ``table``, ``solve``, ``rules``, ``booklet`` and ``page``.  This
package is the machinery they share: :mod:`analysis.cli.common` (options, rules, output) and
:mod:`analysis.cli.grid` (the generated grid command).

Exit codes: 0 on success (and when the reader of the output goes away,
``beastodds ... | head``); 2 for bad input and for output that cannot be
written (a full disk, a closed standard output), with one sentence on
stderr; 130 on Ctrl-C ("beastodds: interrupted").  This module imports
nothing heavy, so an interrupt during start-up is caught from the moment
:func:`main` runs; before that (Python's own start-up and this module's
imports) it ends the process as Python does (README, Reliability).
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from typing import Mapping

from .. import __version__

#: What ``beastodds --help`` says first.
DESCRIPTION = (
    "Exact odds for the dice and card systems of vampire tabletop games: every way the "
    "dice or cards can land is counted, never simulated. One command per system, then "
    "compare, table, solve, rules, booklet and page for house rules, and versus across systems."
)


class _Parser(argparse.ArgumentParser):
    commands: Mapping[str, argparse.ArgumentParser]  # the top parser's {command: its parser}, for option_names

    def error(self, message):  # one clear sentence, exit code 2
        self.exit(2, f"beastodds: error: {message}\n")

    def _print_message(self, message, file=None):
        # argparse drops a failed write; the help or version on a full disk or
        # closed stdout must not look like success
        if message:
            file = file or sys.stderr
            if file is sys.stdout:
                if file is None:
                    raise _OutputError("standard output is closed")
                file.write(message)
            else:
                try:
                    file.write(message)
                except (AttributeError, OSError, ValueError):
                    pass


def family(system):
    """The module that builds ``system``'s own commands (``SYSTEM.cli``), or None.

    It has ``COMMANDS`` (the command names it adds, the system's own name
    among them when it builds that command) and ``add_commands(subparsers,
    system)``; a system without one gets the generated grid command
    (:func:`analysis.cli.grid.add_command`).
    """
    return system.cli_module


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``beastodds`` parser: every system's commands, then the workbench.

    With ``command`` (the first word of a command line), only the commands of
    the system or workbench that provides it are built, so that a command does
    not import every system's modules; a word that no system provides (a typo,
    an option) gets the whole parser, whose help and errors list every command.
    """
    from .. import rulesets
    from . import grid

    parser = _Parser(
        prog="beastodds",
        description=DESCRIPTION,
        epilog="The rules each command counts: docs/rules.md. Exit codes: 0 done, "
        "2 bad input or output that cannot be written, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"beastodds {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    parser.commands = sub.choices  # {command: its parser}, for option_names
    for system in rulesets.SYSTEMS.values():
        fam = family(system)
        own = fam is None or system.name not in fam.COMMANDS
        if command is not None and command not in ((system.name,) if own else ()) + (
            fam.COMMANDS if fam is not None else ()
        ):
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


def write_output(path: str, write) -> bool:
    """Write a file named on the command line; True when it replaced one.

    ``write(path)`` must write atomically (:mod:`analysis.safeio`), so a
    failure leaves an existing file as it was.  Replacing a regular file is
    said on stderr (``beastodds: replaced keep.png``), never refused (a
    character device or a named pipe is written into); a failure is a
    ValueError of one sentence (the command then exits with code 2).
    """
    from ..safeio import is_replaceable

    if os.path.isdir(path):
        raise ValueError(f"cannot write {path}: it is a directory")
    existed = is_replaceable(path)  # a device or a named pipe is written into, never replaced
    try:
        write(path)
    except OSError as exc:
        raise ValueError(f"cannot write {path}: {_reason(exc)}") from None
    if existed:
        _say(f"beastodds: replaced {path}")
    return existed


class _OutputError(Exception):
    """Standard output cannot be written (closed, full disk, I/O error)."""


def _quiet_stdout() -> None:
    """Point file descriptor 1 at the null device, so the final flush at exit neither fails nor blocks."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # None, or not a real file (a test's capture)
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)
    except OSError:
        pass


def _say(message: str) -> None:
    """One line on stderr, if there is a stderr; a control character in it (a rule set's name) is ``?``."""
    from ..validate import visible

    try:
        print(visible(message), file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def _reason(exc: OSError) -> str:
    return exc.strerror or errno.errorcode.get(exc.errno or 0) or str(exc) or type(exc).__name__


def _write_out(text: str) -> None:
    """Write ``text`` to stdout and flush; a failure becomes :class:`_OutputError` (or BrokenPipeError)."""
    if sys.stdout is None:
        raise _OutputError("standard output is closed")
    try:
        if text:
            sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        if exc.errno == errno.EBADF:
            raise _OutputError("standard output is closed") from None
        raise _OutputError(f"cannot write the output: {_reason(exc)}") from None
    except ValueError as exc:  # e.g. "I/O operation on closed file"
        raise _OutputError(f"cannot write the output: {exc}") from None


def _prepare_streams() -> None:
    """A closed stderr goes to the null device; a character that stdout's or stderr's encoding lacks
    (a rule set's non-ASCII name on an ASCII terminal) prints as ``?``, never fails the write.

    Python's own choice is ``strict`` for stdout, or ``surrogateescape`` under the
    C and POSIX locales (``LC_ALL=POSIX PYTHONUTF8=0``), which fails on ``é`` just
    the same, and ``backslashreplace`` for stderr.
    """
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and getattr(stream, "errors", "replace") != "replace" and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (AttributeError, OSError, ValueError):
                pass


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


#: The commands that take rule-set files (and so mechanic files) as arguments.
FILE_COMMANDS = ("table", "compare", "solve", "versus", "booklet", "page", "rules")
#: Their options that take a file that is not a rule set.
_OUTPUT_OPTIONS = ("-o", "--output", "--heatmap")


def register_files(words) -> None:
    """Register the mechanics of the files named among a command's ``words``, before its options are built.

    A mechanic file (or a rule-set file with ``mechanic = "..."``) brings a
    system whose axes are options of ``table`` and ``compare``, so those must
    be known before the command line is parsed: ``beastodds table MINE.toml
    --blood 1-3`` (and ``--help`` lists them).  Other words, and files that
    cannot be read, are left to the command.
    """
    from .. import rulesets

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
            rulesets.register_file(word)


def _run(argv) -> int:
    """Parse, compute and print; errors of the user's input print one sentence and give 2."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if sys.stdout is None:  # `beastodds ... >&-`: nowhere to put the answer, so do no work
        raise _OutputError("standard output is closed")
    if argv and argv[0] in FILE_COMMANDS:
        try:
            register_files(argv[1:])
        except ValueError as exc:
            _say(f"beastodds: error: {exc}")
            return 2
    parser = build_parser(argv[0] if argv and not argv[0].startswith("-") else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit:  # --help, --version or a usage error: what argparse printed must get out
        _write_out("")
        raise
    except OSError as exc:  # argparse could not print the help or version
        if isinstance(exc, BrokenPipeError):
            raise
        raise _OutputError(f"cannot write the output: {_reason(exc)}") from None
    from ..tables import render
    from .common import render_options
    from .workbench import take_warnings

    take_warnings()

    try:
        output = None if getattr(args, "own_output", False) else getattr(args, "output", None)
        if output is not None:
            from .common import check_output_options

            check_output_options(args)  # an xlsx without -o, before any counting
        elif getattr(args, "format", None) == "xlsx":
            raise ValueError("--format xlsx writes a spreadsheet, which cannot go to the terminal: give -o FILE.xlsx")
        result = args.run(args)
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
            from ..safeio import atomic_write

            replaced = write_output(output, lambda path: atomic_write(path, text))
            if not replaced and not getattr(args, "quiet", False):
                _say(f"wrote {output}")
            text = ""
    except ValueError as exc:
        take_warnings()  # the error is what to fix first
        _say(f"beastodds: error: {_renamed(str(exc), option_names(parser, args, argv))}")
        return 2
    for warning in take_warnings():
        _say(f"beastodds: warning: {warning}")
    _write_out(text)
    return 0


def _write_xlsx(args, df, keys) -> str:
    """Write a command's table as a spreadsheet to ``-o`` (atomically); the text to print (none)."""
    from ..safeio import atomic_write
    from ..tables import xlsx_bytes
    from .common import render_options

    options = render_options(args, keys)
    options.pop("exact")
    data = xlsx_bytes(df, **options)
    replaced = write_output(args.output, lambda path: atomic_write(path, data))
    if not replaced and not getattr(args, "quiet", False):
        _say(f"wrote {args.output}")
    return ""


def _ignore_ctrl_c() -> None:
    """From now on the program ignores Ctrl-C: its exit code is known (the answer is out, or it was
    interrupted and says so).

    Without this, a Ctrl-C while the interpreter shuts down (which takes a
    noticeable moment once numba is loaded) is caught by nothing, and, once
    Python has put back the default action, kills the process: exit -2 with
    the answer already printed, or a traceback.  An ignored signal stays
    ignored through the shut-down.
    """
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except (ValueError, OSError, AttributeError):  # not the main thread, or no signals here
        pass


def main(argv=None) -> int:
    """Entry point of the ``beastodds`` console script; returns the exit code (0, 2 or 130).

    Called without ``argv`` it is the program itself: once its exit code is
    known it ignores Ctrl-C, so that the exit is that code, never a
    traceback or death by the signal while the interpreter shuts down.
    """
    program = argv is None
    code = _main(argv, program)
    if program:
        _ignore_ctrl_c()
    return code


def _main(argv, program: bool = False) -> int:
    try:
        sys.set_int_max_str_digits(0)  # exact fractions of any size print (the CLI is its own process)
        _prepare_streams()
        return _run(argv)
    except KeyboardInterrupt:  # Ctrl-C: while importing, compiling, computing or writing
        if program:
            _ignore_ctrl_c()  # a second Ctrl-C must not cut the one line short with a traceback
        _quiet_stdout()  # unsent output must not block the exit
        _say("beastodds: interrupted")
        return 130
    except BrokenPipeError:  # e.g. `beastodds v5 ... | head`: the reader has all it wants
        _quiet_stdout()
        return 0
    except _OutputError as exc:
        _quiet_stdout()
        _say(f"beastodds: error: {exc}")
        return 2
