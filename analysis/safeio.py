"""Atomic file writes: a file the project writes is either the old one or the whole new one.

Every output file (tables, figures, the booklet, ``--heatmap``, saved rule
sets) is written to a temporary file in the same folder, flushed to disk, then
renamed over the target with :func:`os.replace`, which is atomic on POSIX and
Windows.  A write that fails halfway (a full disk, a file-size limit, Ctrl-C)
removes its temporary file and leaves the old file byte-identical.
"""
from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path


def _new_file_mode() -> int:
    """The mode ``open(path, "w")`` would give a new file (0o666 less the umask)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


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
    file it points to is replaced.
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open writes whole files: mode 'w' or 'wb', got {mode!r}")
    path = Path(os.path.realpath(path))  # through a symbolic link: the file it names is replaced
    folder = path.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
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
