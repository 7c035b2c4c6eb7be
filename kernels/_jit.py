"""The one place that fixes the jit options for every kernel, and keeps numba's disk cache from failing a run.

Every kernel is compiled in nopython mode and cached on disk, so a user's
second process loads the machine code instead of compiling it again.  The
cache is a convenience, never a reason to fail: when no folder is writable
for it, when the disk is full, or when a cache file is damaged, the kernel is
compiled in memory (a damaged entry is compiled again and written over) and
one line on stderr says so, once per process.  Each cached data file carries
a SHA-256 checksum of its contents, checked before numba reads a byte of it:
a damaged file never reaches LLVM, whose bitcode reader aborts the process
(exit 134) on some damage instead of raising an error.  Loading from the cache sets up
only numba's runtime, not its compiler (:mod:`kernels._lightload`), which
keeps a second process's start-up short.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import numba
import numpy as np
import numpy.typing as npt
from numba.core.caching import FunctionCache, IndexDataCacheFile
from numba.core import config as _numba_config

if TYPE_CHECKING:
    from numba.core.dispatcher import Dispatcher


def _cache_log(msg: str, *args: object) -> None:
    """A line of numba's cache log (``NUMBA_DEBUG_CACHE=1``), as numba's own loader writes it."""
    if getattr(_numba_config, "DEBUG_CACHE", False):
        print(msg % args)


from ._lightload import defer_extensions, light_load  # noqa: E402 (after _cache_log, which it does not need: kept beside its use)

#: The options every kernel is compiled with (``cache`` is handled by
#: :func:`kernel`, which wraps numba's disk cache so a cache failure only
#: costs a compile).
JIT_OPTIONS: dict[str, Any] = dict(cache=True, nogil=True)

#: The arrays the kernels take and fill: int64 throughout (``mod == 0``) or
#: residues modulo a prime below 2**31 (``mod > 0``), see ``kernels.multiset``.
IntArray = npt.NDArray[np.int64]

_noted = False


def _note(message: str) -> None:
    """Say ``message`` on stderr, the first time only (cache trouble is one fact per process)."""
    global _noted
    if _noted:
        return
    _noted = True
    try:
        print(f"beastodds: note: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def _why(exc: BaseException) -> str:
    if isinstance(exc, CacheDamaged):
        return str(exc)
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


class CacheDamaged(ValueError):
    """A cached data file whose checksum does not match its contents."""


#: The first bytes of a data file written by :class:`_CheckedCacheFile`, before its checksum.
_MAGIC = b"beastodds-nbc-sha256\n"
_DIGEST = hashlib.sha256().digest_size


class _Sealed:
    """Data on its way to :meth:`_CheckedCacheFile._dump`, to be written with its checksum."""

    __slots__ = ("data",)

    def __init__(self, data: object) -> None:
        self.data = data


class _CheckedCacheFile(IndexDataCacheFile):
    """numba's index-and-data cache files, each data file written with a SHA-256 checksum of its contents.

    A data file is ``_MAGIC``, the checksum of the rest, then numba's own
    bytes; it is still written whole or not at all (numba writes a temporary
    file and renames it).  A file without the header (written before
    checksums) is compiled again quietly; a file whose checksum does not
    match raises :class:`CacheDamaged`.
    """

    def _save_data(self, name: str, data: object) -> None:
        super()._save_data(name, _Sealed(data))  # numba's writer, with _dump adding the checksum

    def _dump(self, obj: object) -> bytes:
        if isinstance(obj, _Sealed):
            payload = super()._dump(obj.data)
            return _MAGIC + hashlib.sha256(payload).digest() + payload
        return super()._dump(obj)

    def _load_data(self, name: str) -> object:
        path = self._data_path(name)
        with open(path, "rb") as f:
            raw = f.read()
        if not raw.startswith(_MAGIC):
            return None  # written without a checksum (an older beastodds): compile it again, and seal it
        digest, payload = raw[len(_MAGIC) : len(_MAGIC) + _DIGEST], raw[len(_MAGIC) + _DIGEST :]
        if len(digest) != _DIGEST or hashlib.sha256(payload).digest() != digest:
            raise CacheDamaged(f"{name} does not match its checksum")
        data = pickle.loads(payload)
        _cache_log("[cache] data loaded from %r", path)  # as numba's own loader logs (NUMBA_DEBUG_CACHE)
        return data


class _GuardedCache(FunctionCache):
    """numba's per-function disk cache, with loading and saving failures turned into a compile."""

    def __init__(self, py_func: Callable[..., Any]) -> None:
        super().__init__(py_func)
        plain = self._cache_file
        checked = _CheckedCacheFile.__new__(_CheckedCacheFile)
        checked.__dict__.update(plain.__dict__)  # the same paths, source stamp and version
        self._cache_file = checked

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        try:
            return light_load(self, sig, target_context, super().load_overload)
        except Exception as exc:  # a damaged or unreadable entry: compile it again
            _note(
                f"a numba cache file in {self._cache_path} is damaged or unreadable ({_why(exc)}); "
                f"compiling the kernel again and replacing it"
            )
            self._drop_bad_index()
            return None

    def _drop_bad_index(self) -> None:
        """Remove this function's index file if it cannot be read, so the next save writes a fresh one."""
        cache_file: Any = getattr(self, "_cache_file", None)  # None fails below as AttributeError
        try:
            cache_file._load_index()
        except Exception:
            try:
                os.unlink(cache_file._index_path)
            except (OSError, AttributeError):
                pass

    def save_overload(self, sig: Any, data: Any) -> None:
        try:
            super().save_overload(sig, data)
        except Exception as exc:  # a full disk, a read-only folder: the kernel still runs
            _note(
                f"cannot save compiled kernels in the numba cache in {self._cache_path} ({_why(exc)}); "
                f"they will be compiled again in the next run"
            )


_Kernel = TypeVar("_Kernel", bound=Callable[..., Any])


def kernel(fn: _Kernel) -> Dispatcher[_Kernel]:
    """Compile ``fn`` with the project's jit options (nopython, nogil, cached on disk when possible).

    numba's stubs give the dispatcher ``fn``'s parameters, so callers are
    checked against the kernel's annotations (which numba itself ignores: it
    compiles for the types it is called with).
    """
    options = {k: v for k, v in JIT_OPTIONS.items() if k != "cache"}
    dispatcher = numba.njit(**options)(fn)
    if JIT_OPTIONS.get("cache"):
        try:
            dispatcher._cache = _GuardedCache(fn)
            defer_extensions(dispatcher)  # a kernel loaded from the cache needs no numba extension
        except Exception as exc:  # numba: "cannot cache function ...: no locator available"
            _note(
                f"no writable folder for the numba cache ({type(exc).__name__} for {fn.__name__}); "
                f"kernels are compiled in every run (set NUMBA_CACHE_DIR to a writable folder to keep them)"
            )
    return dispatcher
