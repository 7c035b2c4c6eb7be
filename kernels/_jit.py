"""The one place that fixes the jit options for every kernel, and keeps numba's disk cache from failing a run.

Every kernel is plain ``numba.njit(cache=True, nogil=True)``: compiled in
nopython mode the first time it is called with new argument types, and kept
in numba's disk cache, so a user's second process loads the machine code
instead of compiling it again.  Only numba's public API is used.

numba keeps the cache of a module beside it, in its ``__pycache__`` folder,
or in a user-wide folder when that one is not writable, or under
``NUMBA_CACHE_DIR`` when that is set (numba's documentation: "Just-in-Time
compilation", ``cache``).  The cache is a convenience, never a reason to fail:

- No writable folder: the kernel is compiled in memory, and one line on
  stderr says so (once per process).
- A damaged file: a file numba reads it from is checked before numba reads a
  byte of it.  After a process has used its kernels, a manifest beside the
  cache (``beastodds-kernels.json``) records the SHA-256 of every cache file
  of this project's kernel modules; when a kernel module is imported, each
  file the manifest lists is checked against it, and a file that differs is
  removed (numba tolerates a missing cache file: it compiles the kernel again
  and writes it anew).  A damaged file never reaches LLVM, whose bitcode
  reader aborts the process (exit 134) on some damage instead of raising.
- A failed save (a full disk): numba raises the ``OSError`` from the call
  that compiled; the kernel is in memory by then, so the command line runs
  its command again (:func:`cache_write_failed` tells it so) and says once
  that the kernels will be compiled again in the next run.

A module's kernels are compiled the first time it is used on a machine (for
each Python version): :func:`kernel` then says so on stderr before the work
starts, and on a terminal shows how long it has been compiling until
:func:`compiled` is called.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

#: The options every kernel is compiled with.
JIT_OPTIONS: dict[str, Any] = dict(cache=True, nogil=True)

#: The arrays the kernels take and fill: int64 throughout (``mod == 0``) or
#: residues modulo a prime below 2**31 (``mod > 0``), see ``kernels.multiset``.
IntArray = npt.NDArray[np.int64]

#: The manifest's file name, in each cache folder that holds kernels of this project.
MANIFEST = "beastodds-kernels.json"

#: The first bytes of a data file that beastodds 0.x wrote with its own checksum header
#: (before the kernels were plain numba): numba cannot read such a file, so it is removed.
_OLD_HEADER = b"beastodds-nbc-sha256\n"

#: This Python's tag in numba's cache file names and in the manifest.
_PYTHON = f"py{sys.version_info.major}{sys.version_info.minor}"

_noted: set[str] = set()


def _note(message: str, key: str | None = None) -> None:
    """Say ``message`` on stderr, once per process for each ``key`` (cache trouble is one fact per process)."""
    key = message if key is None else key
    if key in _noted:
        return
    _noted.add(key)
    _stop_ticker()
    try:
        print(f"beastodds: note: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


# ----------------------------------------------------------------- the cache folders and their manifests


def cache_folders(source: Path) -> list[Path]:
    """The folders where numba may keep the cache of the kernels defined in ``source``.

    By numba's documented rule: under ``NUMBA_CACHE_DIR`` when it is set,
    else the ``__pycache__`` folder beside the source file, else the
    user-wide cache folder (``$XDG_CACHE_HOME/numba`` or ``~/.cache/numba``).
    Under the last two roots numba files each source folder in a subfolder
    named after it, which is looked for by that name.
    """
    name = source.parent.name
    env = os.environ.get("NUMBA_CACHE_DIR")
    if env:
        roots = [Path(env)]
        folders = []
    else:
        folders = [source.parent / "__pycache__"]
        roots = [Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba"]
    for root in roots:
        try:
            folders += sorted(p for p in root.glob(f"{name}_*") if p.is_dir())
        except OSError:
            pass
    return folders


class _Folder:
    """One cache folder's manifest: ``{file name: [size, sha256, inode]}`` and the modules seen there."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.files: dict[str, list[Any]] = {}
        self.seen: dict[str, str] = {}
        self.removed: set[str] = set()  # the damaged files this process removed (their listing is stale)
        try:
            data = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
            files, seen = data.get("files", {}), data.get("seen", {})
            if isinstance(files, dict) and isinstance(seen, dict):
                self.files = {k: v for k, v in files.items() if isinstance(v, list) and len(v) == 3}
                self.seen = {k: v for k, v in seen.items() if isinstance(v, str)}
        except (OSError, ValueError, AttributeError):
            pass  # no manifest yet, or an unreadable one: nothing is known of the files

    def names(self, stem: str) -> list[str]:
        """The cache files of module ``stem`` in this folder (numba names them ``stem.function-line.pyXY...``)."""
        try:
            return sorted(
                e.name
                for e in os.scandir(self.path)
                if e.name.startswith(stem + ".") and e.name.endswith((".nbi", ".nbc"))
            )
        except OSError:
            return []

    def check(self, stem: str) -> list[str]:
        """Remove each cache file of ``stem`` that differs from the manifest (or that an old beastodds wrote).

        numba writes a file whole to a temporary file and renames it, so a file
        numba wrote since the manifest (another process adding a signature to
        an index, say) is a new file, with a new inode number: it is taken as
        whole.  A listed file still at its inode whose bytes changed was
        damaged where it lies.  Returns the names of the files removed.
        """
        bad = []
        for name in self.names(stem):
            path = self.path / name
            read = _read(path)
            if read is None:
                continue
            inode, raw = read
            listed = self.files.get(name)
            if listed is not None and listed[2] == inode:
                damaged = listed[:2] != [len(raw), hashlib.sha256(raw).hexdigest()]
            else:
                damaged = raw.startswith(_OLD_HEADER)
            if damaged:
                bad.append(name)
                try:
                    path.unlink()
                except OSError:
                    pass
                self.files.pop(name, None)
                self.removed.add(name)
        return bad

    def record(self, stems: dict[str, str]) -> None:
        """Write the manifest anew: the checksums of the files of ``stems`` (``{stem: source digest}``), merged."""
        fresh = _Folder(self.path)  # another process may have written it meanwhile
        # a file this process removed as damaged is listed there still, by the inode it had: the file numba
        # wrote in its place may have been given that inode again (and the same size), so it is read anew
        files = {name: v for name, v in fresh.files.items() if name not in self.removed}
        seen = dict(fresh.seen)
        for stem, digest in stems.items():
            seen[f"{stem}.{_PYTHON}"] = digest
            names = set(self.names(stem))
            for name in [n for n in files if n.startswith(stem + ".")]:
                if name not in names:
                    del files[name]
            for name in names:
                listed = files.get(name)
                if listed is not None and _same_file(self.path / name, listed):
                    continue  # checked when its module was imported; numba replaces a file, never rewrites it
                read = _read(self.path / name)
                if read is not None:
                    inode, raw = read
                    files[name] = [len(raw), hashlib.sha256(raw).hexdigest(), inode]
        if files == fresh.files and seen == fresh.seen:
            return
        target = self.path / MANIFEST
        temp = self.path / f".{MANIFEST}.{os.getpid()}.tmp"
        try:
            temp.write_text(json.dumps({"files": files, "seen": seen}, indent=0, sort_keys=True), encoding="utf-8")
            os.replace(temp, target)
        except OSError:
            try:
                temp.unlink()
            except OSError:
                pass


def _read(path: Path) -> tuple[int, bytes] | None:
    """A file's inode number and bytes, read through one open file (so the two agree); None if unreadable."""
    try:
        with open(path, "rb") as f:
            return os.fstat(f.fileno()).st_ino, f.read()
    except OSError:
        return None


def _same_file(path: Path, listed: list[Any]) -> bool:
    """Whether ``path`` is still the file the manifest lists (its inode and size)."""
    try:
        st = path.stat()
    except OSError:
        return False
    return listed[0] == st.st_size and listed[2] == st.st_ino


class _Modules:
    """The kernel modules this process has imported: their source files and digests, and the folders checked."""

    def __init__(self) -> None:
        self.sources: dict[Path, str] = {}  # source file -> SHA-256 of its text
        self.new: set[Path] = set()  # modules used here for the first time on this machine
        self.folders: dict[Path, _Folder] = {}
        self.lock = threading.Lock()

    def folder(self, path: Path) -> _Folder:
        if path not in self.folders:
            self.folders[path] = _Folder(path)
        return self.folders[path]

    def first_use(self, fn: Callable[..., Any]) -> None:
        """Check the cache files of ``fn``'s module, once per module, before numba can read any of them."""
        code = getattr(fn, "__code__", None)
        if code is None:
            return
        source = Path(code.co_filename)
        with self.lock:
            if source in self.sources:
                return
            try:
                digest = hashlib.sha256(source.read_bytes()).hexdigest()
            except OSError:  # no source file (a zip import): numba cannot cache it either
                return
            if not self.sources:
                atexit.register(self.record)
            self.sources[source] = digest
            stem, new = source.stem, True
            for path in cache_folders(source):
                folder = self.folder(path)
                bad = folder.check(stem)
                if bad:
                    _note(
                        f"numba cache files in {path} were damaged ({', '.join(bad[:3])}"
                        f"{', ...' if len(bad) > 3 else ''}); they are removed and their kernels compiled again",
                        key="damaged",
                    )
                if folder.seen.get(f"{stem}.{_PYTHON}") == digest or any(
                    f".{_PYTHON}." in name for name in folder.names(stem)
                ):
                    new = False
            if new:
                self.new.add(source)
                _announce()

    def seen(self, fn: Callable[..., Any]) -> None:
        """Once numba has made the cache folder of ``fn``'s module: record the module there as seen, at once,
        so that the processes after this one do not say again that they compile."""
        code = getattr(fn, "__code__", None)
        source = Path(code.co_filename) if code is not None else None
        with self.lock:
            if source not in self.new:
                return
            self.new.discard(source)
            for path in cache_folders(source):
                if path.is_dir():
                    self.folder(path).record({source.stem: self.sources[source]})

    def record(self) -> None:
        """At exit: write each folder's manifest (the checksums of the files numba has now)."""
        _stop_ticker()
        by_folder: dict[Path, dict[str, str]] = {}
        for source, digest in self.sources.items():
            for path in cache_folders(source):  # numba may have made a folder since
                by_folder.setdefault(path, {})[source.stem] = digest
        for path, stems in by_folder.items():
            if path.is_dir():
                self.folder(path).record(stems)


_modules = _Modules()


# ----------------------------------------------------------------- the first run's word and progress

_ticker: dict[str, Any] = {}


def _announce() -> None:
    """Say once, before the work starts, that kernels are compiled; on a terminal, tick the seconds."""
    if "announced" in _noted:
        return
    _noted.add("announced")
    try:
        print(
            "beastodds: compiling the counting kernels this command uses, once per machine and Python "
            "version (a few seconds, up to about 15 s for Willpower; numba keeps them in its cache)",
            file=sys.stderr,
            flush=True,
        )
        tty = sys.stderr.isatty()
    except (OSError, ValueError, AttributeError):
        return
    if tty and os.environ.get("TERM") != "dumb":
        stop = threading.Event()
        thread = threading.Thread(target=_tick, args=(stop, time.monotonic()), daemon=True)
        _ticker.update(stop=stop, thread=thread)
        thread.start()


def _tick(stop: threading.Event, start: float) -> None:
    while not stop.wait(1.0):
        try:
            sys.stderr.write(f"\rbeastodds: compiling ... {time.monotonic() - start:.0f} s")
            sys.stderr.flush()
        except (OSError, ValueError):
            return
    try:
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _stop_ticker() -> None:
    stop, thread = _ticker.pop("stop", None), _ticker.pop("thread", None)
    if stop is not None:
        stop.set()
        thread.join(timeout=2)


def compiled() -> None:
    """The work is done (the command's answer is ready): stop the compile progress, if one is shown."""
    _stop_ticker()


def cache_write_failed(exc: BaseException) -> bool:
    """Whether ``exc`` is numba failing to save a compiled kernel in its disk cache (a full disk, say).

    numba adds a compiled kernel to the process before it saves it, so the
    same call made again runs it from memory.  Says once that the kernels
    will be compiled again in the next run.
    """
    if not isinstance(exc, OSError):
        return False
    root = os.path.dirname(numba.__file__) + os.sep
    tb = exc.__traceback__
    inside = False
    while tb is not None:
        inside = inside or tb.tb_frame.f_code.co_filename.startswith(root)
        tb = tb.tb_next
    if inside:
        _note(
            f"cannot save compiled kernels in numba's cache ({_why(exc)}); "
            f"they will be compiled again in the next run (NUMBA_CACHE_DIR names another folder)",
            key="save",
        )
    return inside


_Kernel = TypeVar("_Kernel", bound=Callable[..., Any])


def kernel(fn: _Kernel) -> _Kernel:
    """Compile ``fn`` with the project's jit options (nopython, nogil, cached on disk when possible).

    The dispatcher numba returns is typed as ``fn``, so callers are checked
    against the kernel's annotations (which numba itself ignores: it compiles
    for the types it is called with).
    """
    if JIT_OPTIONS.get("cache"):
        _modules.first_use(fn)
        try:
            dispatcher = numba.njit(**JIT_OPTIONS)(fn)
        except RuntimeError as exc:  # numba: "cannot cache function ...: no locator available for file ..."
            _note(
                f"no writable folder for the numba cache ({_why(exc)}); kernels are compiled in every run "
                f"(set NUMBA_CACHE_DIR to a writable folder to keep them)",
                key="locator",
            )
        else:
            _modules.seen(fn)
            return cast(_Kernel, dispatcher)
    return cast(_Kernel, numba.njit(**{**JIT_OPTIONS, "cache": False})(fn))
