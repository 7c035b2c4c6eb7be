"""The command line's standard streams: writing the answer, and what is done when they fail."""

from __future__ import annotations

import errno
import os
import sys

from analysis.options.output import reason


class OutputError(Exception):
    """Standard output cannot be written (closed, full disk, I/O error)."""


def quiet_stdout() -> None:
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


def write_out(text: str) -> None:
    """Write ``text`` to stdout and flush; a failure becomes :class:`OutputError` (or BrokenPipeError)."""
    if sys.stdout is None:
        raise OutputError("standard output is closed")
    try:
        if text:
            sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        if exc.errno == errno.EBADF:
            raise OutputError("standard output is closed") from None
        raise OutputError(f"cannot write the output: {reason(exc)}") from None
    except ValueError as exc:  # e.g. "I/O operation on closed file"
        raise OutputError(f"cannot write the output: {exc}") from None


def prepare_streams() -> None:
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
