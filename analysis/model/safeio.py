"""Safe file I/O: input files read with checks, and atomic writes.

A file the project reads (a rule set, a mechanic file) is read by
:func:`read_text`: a regular UTF-8 file of at most :data:`MAX_FILE_BYTES`,
or a ValueError of one sentence; :func:`toml_error` words a TOML error.

A file the project writes is either the old one or the whole new one.

Every output file (tables, figures, the booklet, ``--heatmap``, saved rule
sets) is written to a temporary file in the same folder, flushed to disk, then
renamed over the target with :func:`os.replace`, which is atomic on POSIX and
Windows.  A write that fails halfway (a full disk, a file-size limit, Ctrl-C)
removes its temporary file and leaves the old file byte-identical.

Only a regular file is ever replaced.  A symbolic link stays a link and the
regular file it names is replaced.  A target that exists and is a character
device or a named pipe (``/dev/null``, ``/dev/stdout``, a FIFO) gets the bytes
written into it, as a shell's ``>`` would, never a file in its place; a
folder, a block device, a socket or any other node is refused with an
:class:`OSError` naming it.  Errors name the path given, never the temporary
file.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import stat
import tempfile
import tomllib
from pathlib import Path
from typing import IO, Any

#: The largest rule-set file read (bytes): a rule set is a few lines, so a
#: bigger file is a wrong path, not a rule set.
MAX_FILE_BYTES = 1 << 20


def read_text(path) -> str:
    """The text of a rule-set file, checked before it is read.

    Only a regular file of at most :data:`MAX_FILE_BYTES` in UTF-8 (a leading
    byte-order mark is dropped) is read; a folder, a device such as
    ``/dev/zero``, a named pipe, a bigger file or other bytes raise a
    ValueError of one sentence, without blocking or reading on and on.
    """
    path = Path(path)
    fd: int | None
    try:
        # O_NONBLOCK: opening a named pipe with no writer must not wait
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such rule-set file") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a directory, not a rule-set file") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise ValueError(f"{path}: is a directory, not a rule-set file")
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{path}: not a regular file (a device or a pipe), so not a rule-set file")
        if st.st_size > MAX_FILE_BYTES:
            raise ValueError(
                f"{path}: {st.st_size} bytes is too big for a rule-set file (at most {MAX_FILE_BYTES} bytes)"
            )
        with os.fdopen(fd, "rb") as f:
            fd = None
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    finally:
        if fd is not None:
            os.close(fd)
    if len(data) > MAX_FILE_BYTES:  # it grew while being read
        raise ValueError(f"{path}: too big for a rule-set file (at most {MAX_FILE_BYTES} bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{path}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); save the rule set as UTF-8"
        ) from None


def toml_error(text: str, exc: tomllib.TOMLDecodeError) -> str:
    """The message of a TOML error, with the offending line quoted when there is one."""
    msg = str(exc)
    m = re.search(r"line (\d+)", msg)
    if m:
        lines = text.splitlines()
        n = int(m.group(1))
        if 1 <= n <= len(lines) and lines[n - 1].strip():
            msg += f": {lines[n - 1].strip()!r}"
    return msg


def _new_file_mode() -> int:
    """The mode ``open(path, "w")`` would give a new file (0o666 less the umask)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _named(exc: OSError, path, *ours) -> OSError:
    """``exc`` naming ``path``, the user's name, instead of one of ``ours`` (the temporary file) or no file."""
    if exc.errno is None or exc.filename not in (None, str(path), *ours):
        return exc  # about another file (the writer's own): as it is
    return type(exc)(exc.errno, exc.strerror, str(path))


def _target_kind(path, real: Path) -> str | None:
    """``"file"`` (or None: nothing there yet) to replace, ``"stream"`` to write into; refuses the rest."""
    try:
        st = os.stat(real)
    except FileNotFoundError:
        if not os.path.isdir(real.parent):
            raise FileNotFoundError(errno.ENOENT, "its folder does not exist", str(path)) from None
        return None
    except OSError as exc:
        raise _named(exc, path, str(real)) from None
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return "stream"
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "it is a folder", str(path))
    what = "a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "another kind of node"
    raise OSError(errno.EINVAL, f"it is {what}, not a regular file, a character device or a named pipe", str(path))


@contextlib.contextmanager
def _write_into(path, real: Path, mode: str, encoding, newline):
    """Write into a character device or a named pipe as it is (no temporary file, nothing replaced)."""
    try:
        fd = os.open(real, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise _named(exc, path, str(real)) from None
    f: IO[Any]
    if mode == "wb":
        f = os.fdopen(fd, "wb")
    else:
        f = os.fdopen(fd, "w", encoding=encoding, newline=newline)
    try:
        with f:
            yield f
            f.flush()
    except OSError as exc:
        raise _named(exc, path, str(real)) from None


def is_replaceable(path) -> bool:
    """True when ``path`` names (through its links) an existing regular file: one a write replaces."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


@contextlib.contextmanager
def atomic_open(path, mode: str = "w", encoding: str | None = "utf-8", newline: str | None = None):
    """Open a temporary file beside ``path``; on a clean exit it replaces ``path``.

    Parameters
    ----------
    path : str or Path
        The file to write; its folder must exist.
    mode : {"w", "wb"}
        Text or binary.
    encoding, newline :
        As for :func:`open` (text mode only).

    On any exception (``KeyboardInterrupt`` included) the temporary file is
    removed, ``path`` is left as it was and the exception propagates.  The
    new file keeps the permissions of the file it replaces (a new file gets
    the usual ``0o666`` less the umask); a symbolic link stays a link and the
    file it points to is replaced.  A character device or a named pipe gets
    the bytes written into it; a folder, a missing folder or another kind of
    node is an :class:`OSError` naming ``path`` (see the module's notes).
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open writes whole files: mode 'w' or 'wb', got {mode!r}")
    given = path
    path = Path(os.path.realpath(path))  # through a symbolic link: the file it names is replaced
    if _target_kind(given, path) == "stream":
        with _write_into(given, path, mode, encoding, newline) as f:
            yield f
        return
    folder = path.parent
    fd: int | None
    tmp: str | None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:  # a folder that cannot be written: name the file asked for, not the temporary one
        raise _named(exc, given, exc.filename) from None
    try:
        try:
            st_mode = os.stat(path).st_mode & 0o7777
        except OSError:
            st_mode = _new_file_mode()
        os.chmod(tmp, st_mode)
        if mode == "wb":
            f = os.fdopen(fd, "wb")
        else:
            f = os.fdopen(fd, "w", encoding=encoding, newline=newline)
        fd = None
        with f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise _named(exc, given, tmp) from None
    finally:
        if fd is not None:
            os.close(fd)
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def atomic_write(path, data: bytes | str, encoding: str = "utf-8") -> Path:
    """Write ``data`` (text or bytes) to ``path`` atomically; return the path.

    A text is written with ``encoding`` and no newline translation, so the
    file holds exactly the characters given.  See :func:`atomic_open`.
    """
    if isinstance(data, str):
        with atomic_open(path, "w", encoding=encoding, newline="") as f:
            f.write(data)
    else:
        with atomic_open(path, "wb") as f:
            f.write(data)
    return Path(path)


def figure_bytes(fig, fmt: str, **kw) -> bytes:
    """The bytes of ``fig`` saved in format ``fmt`` (``"png"``, ``"svg"``, ``"pdf"``)."""
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, **kw)
    return buf.getvalue()


def savefig(fig, path, **kw) -> Path:
    """Save a matplotlib figure to ``path`` atomically; return the path.

    The format is ``kw["format"]`` or else the file's extension; other
    keywords go to :meth:`matplotlib.figure.Figure.savefig`.  The figure is
    rendered in memory first, so a drawing error leaves ``path`` untouched.
    """
    path = Path(path)
    fmt = kw.pop("format", None) or path.suffix.lstrip(".").lower() or "png"
    return atomic_write(path, figure_bytes(fig, fmt, **kw))
