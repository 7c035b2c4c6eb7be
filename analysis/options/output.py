"""What a command writes besides its standard output: files named on the command line, lines on stderr."""

from __future__ import annotations

import errno
import os
import sys

from analysis.model.safeio import is_replaceable
from analysis.model.validate import visible


def write_output(path: str, write) -> bool:
    """Write a file named on the command line; True when it replaced one.

    ``write(path)`` must write atomically (:mod:`analysis.model.safeio`), so a
    failure leaves an existing file as it was.  Replacing a regular file is
    said on stderr (``beastodds: replaced keep.png``), never refused (a
    character device or a named pipe is written into); a failure is a
    ValueError of one sentence (the command then exits with code 2).
    """
    if os.path.isdir(path):
        raise ValueError(f"cannot write {path}: it is a directory")
    existed = is_replaceable(path)  # a device or a named pipe is written into, never replaced
    try:
        write(path)
    except OSError as exc:
        raise ValueError(f"cannot write {path}: {reason(exc)}") from None
    if existed:
        say(f"beastodds: replaced {path}")
    return existed


def say(message: str) -> None:
    """One line on stderr, if there is a stderr; a control character in it (a rule set's name) is ``?``."""
    try:
        print(visible(message), file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def reason(exc: OSError) -> str:
    """Why a write failed, in a word or a few (the system's message, else the errno's name)."""
    return exc.strerror or errno.errorcode.get(exc.errno or 0) or str(exc) or type(exc).__name__
