"""The ``beastodds`` command: exact odds tables from the shell.

Every game system under ``analysis/systems`` has a command named after it
(:mod:`analysis.options.grid` builds it from the system's ``SYSTEM``); the
commands of a system's own are built by a module here, one per such system
(:mod:`~analysis.cli.v5`, :mod:`~analysis.cli.cards`, :mod:`~analysis.cli.requiem`,
:mod:`~analysis.cli.classic`: ``analysis.cli.parser.SYSTEM_COMMANDS``, a plain
import each); :mod:`analysis.cli.workbench` adds ``compare``, ``table``,
``solve``, ``rules``, ``booklet`` and ``page``.  The pieces they are all built
from are :mod:`analysis.options` (:mod:`~analysis.options.common`: options,
rules, output; :mod:`~analysis.options.grid`: the generated grid command).  No
system imports this package: it imports them.

This module is the entry, :func:`main`; the parser of every command and a
command run are :mod:`analysis.cli.parser`, which :func:`main` imports when a
command runs (its names are read here too: ``analysis.cli.build_parser``).
The parser is the standard library's argparse, through its public API alone
(:class:`~analysis.cli.parser.Parser`).  A value is checked where its option is declared (``check=``),
so the message names the option as typed; a value the API refuses raises an
:class:`analysis.model.validate.InputError` naming its parameter, and each option says
which parameters it stands for (``names=``, by default its destination): one map
per command (:func:`~analysis.cli.parser.option_names`) puts those in the option's words
(:func:`~analysis.cli.parser.error_message`), and is what the API functions that name their inputs
(``names=``) are given.  :func:`~analysis.cli.parser.commands` and
:func:`~analysis.cli.parser.option_strings` list the commands and their options.

Exit codes: 0 on success (and when the reader of the output goes away,
``beastodds ... | head``); 2 for bad input and for output that cannot be
written (a full disk, a closed standard output), with one sentence on
stderr; 130 on Ctrl-C ("beastodds: interrupted").  This module imports
nothing heavy, so an interrupt during start-up is caught from the moment
:func:`main` runs; before that (Python's own start-up and this module's
imports) it ends the process as Python does (docs/reliability.md).
"""

from __future__ import annotations

import signal
import sys
from typing import Any

from analysis.cli.streams import OutputError, prepare_streams, quiet_stdout as _quiet_stdout
from analysis.options.output import say


def _library() -> Any:
    """The command machinery (:mod:`analysis.cli.parser`: the parser of every command, and a command run),
    imported when a command runs or one of its names is read: ``import analysis.cli`` loads no library."""
    import analysis.cli.parser

    return analysis.cli.parser


def _run(argv) -> int:
    """Parse, count and print (:func:`analysis.cli.parser.run`)."""
    return int(_library().run(argv))


def __getattr__(name: str) -> Any:
    """The names of :mod:`analysis.cli.parser` (``build_parser``, ``commands``, ``Parser``...), read here too."""
    if name.startswith("__") or name == "parser":  # (the module itself: imported as a module, never served)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_library(), name)


def _ignore_ctrl_c() -> None:
    """From now on the program ignores Ctrl-C: its exit code is known (the answer is out, or it was
    interrupted and says so).

    Without this, a Ctrl-C while the interpreter shuts down (which takes a
    noticeable moment once numba is loaded) is caught by nothing, and, once
    Python has put back the default action, kills the process: exit -2 with
    the answer already printed, or a traceback.  An ignored signal stays
    ignored through the shut-down.
    """
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
        prepare_streams()
        return _run(argv)
    except KeyboardInterrupt:  # Ctrl-C: while importing, compiling, computing or writing
        if program:
            _ignore_ctrl_c()  # a second Ctrl-C must not cut the one line short with a traceback
        _quiet_stdout()  # unsent output must not block the exit
        say("beastodds: interrupted")
        return 130
    except BrokenPipeError:  # e.g. `beastodds v5 ... | head`: the reader has all it wants
        _quiet_stdout()
        return 0
    except OutputError as exc:
        _quiet_stdout()
        say(f"beastodds: error: {exc}")
        return 2
