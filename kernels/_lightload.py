"""Load a kernel from numba's disk cache without numba's compiler set-up.

When a process first loads any cached function, numba's ``Cache.load_overload``
first refreshes the whole CPU target: it imports and registers every typing
and lowering registry numba has (about forty modules, among them
``numba.np.arraymath``, which imports ``scipy.linalg`` to look for BLAS).
Those registries serve only the compiler; running machine code loaded from
the cache needs numba's runtime (NRT) and nothing else.  That set-up was
most of the cost of a second ``beastodds`` process.

:func:`light_load` is that loader: it makes the runtime's C functions known
to LLVM and then loads from the cache as numba would (``kernels._jit``'s
guarded cache calls it for every kernel).  It does not compile the runtime's
own LLVM module (its reference counting, ``NRT_incref`` and ``NRT_decref``),
which numba's ``rtsys.initialize`` does in every process, tens of
milliseconds of LLVM: numba links that module into every function it
compiles, so machine code from the cache carries its own copy, and needs
of the runtime only its C functions (``NRT_adapt_ndarray_from_python``,
``NRT_MemInfo_call_dtor``, ...).  Whenever a kernel must be compiled (first
run, changed source, new argument types) numba's compiler runs its full
refresh itself, the runtime's initialisation among it, so compiling is
unaffected; other programs' numba functions in the same process keep
numba's own loader.  If this numba lacks the internals the loader relies on,
numba's own loader is used.

Before it types the arguments of a call it has no machine code for, a numba
dispatcher initialises numba's extensions: it reads the entry points of every
installed distribution (``numba.core.entrypoints.init_all``, about 10 ms),
once per process.  A kernel is called with integers and int64 arrays, which
no extension types, so :func:`defer_extensions` leaves that to the moment a
kernel must be compiled: :func:`light_load` initialises the extensions when
the cache has no machine code for the call (and numba's compiler would do so
itself, in its refresh).

A cached kernel is its machine code (an object file) and its LLVM bitcode,
which numba keeps only to link the kernel into a function compiled later
that calls it.  numba's loader parses that bitcode at once (about 10 ms for
the kernel ``beastodds v5`` loads), to list the symbols the kernel defines;
the light loader reads them from the object file's symbol table instead
(:func:`defined_symbols`: the same names, for an ELF object file, the only
format it reads) and parses the bitcode only when a compile links the kernel
(:class:`_LazyLinkLibrary`).  Another object format is loaded as numba does.
"""

from __future__ import annotations

import struct
from typing import Any, Callable

try:  # numba internals; checked, so that another numba only loses the shortcut
    from numba.core import config as _config
    from numba.core.caching import Cache
    from numba.core.codegen import JITCodeLibrary
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.dispatcher import Dispatcher
    from numba.core.entrypoints import init_all as _init_extensions
    from numba.core.runtime import rtsys
    import numba.core.runtime._nrt_python as nrt_c  # type: ignore[import-not-found]  # numba's C runtime (no stubs)
    from numba.core.runtime.nrt import ll as _ll  # llvmlite's binding, as numba's runtime uses it

    _USABLE = all(
        hasattr(Cache, name) for name in ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")
    ) and isinstance(getattr(nrt_c, "c_helpers", None), dict)
    _DEFERRABLE = hasattr(Dispatcher, "_compilation_chain_init_hook")
    _LAZY_LINK = all(
        hasattr(JITCodeLibrary, name)
        for name in ("_unserialize", "enable_object_caching", "_set_compiled_object", "_finalize_final_module")
    )
except ImportError:  # pragma: no cover - depends on the installed numba
    _USABLE = False
    _DEFERRABLE = False
    _LAZY_LINK = False

#: Whether the runtime's C functions are known to LLVM (by :func:`_runtime_symbols`, or by numba).
_symbols = False


def _runtime_symbols(target_context: Any) -> None:
    """Make numba's runtime ready for machine code loaded from the cache: its C functions known to LLVM.

    This is the first half of numba's ``rtsys.initialize`` (the same names for
    the same addresses); the second half, compiling the runtime's LLVM module,
    is left to the first compile of the process, whose refresh calls
    ``rtsys.initialize`` (its ``_init`` flag stays False until then).  With
    ``NUMBA_NRT_STATS`` set, the runtime is initialised in full, as numba does.
    """
    global _symbols
    if _symbols or getattr(rtsys, "_init", False):
        return
    if getattr(_config, "NRT_STATS", False):
        rtsys.initialize(target_context)
    else:
        with global_compiler_lock:
            for py_name, c_address in nrt_c.c_helpers.items():
                _ll.add_symbol(py_name if py_name.startswith("_") else "NRT_" + py_name, c_address)
    _symbols = True


#: ELF: the magic, 64-bit, little-endian; a section of symbols; symbol types function and variable.
_ELF64_LE = b"\x7fELF\x02\x01"
_SHT_SYMTAB = 2
_STT_OBJECT, _STT_FUNC = 1, 2


def defined_symbols(object_code: bytes) -> set[str] | None:
    """The names of the functions and variables an object file defines, from its symbol table.

    What numba lists from a cached kernel's bitcode (every function and
    global variable of it that is not a declaration), read from the machine
    code instead: a 64-bit little-endian ELF file (Linux on x86-64 and
    AArch64).  None for another format, or a file that does not read as one.
    """
    if not object_code.startswith(_ELF64_LE):
        return None
    try:
        (shoff,) = struct.unpack_from("<Q", object_code, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", object_code, 0x3A)
        sections = [struct.unpack_from("<IIQQQQIIQQ", object_code, shoff + i * shentsize) for i in range(shnum)]
        names: set[str] = set()
        for _, kind, _, _, offset, size, link, _, _, _ in sections:
            if kind != _SHT_SYMTAB:
                continue
            strings = sections[link][4]
            for name, info, _, shndx, _, _ in struct.iter_unpack("<IBBHQQ", object_code[offset : offset + size]):
                if shndx != 0 and info & 0xF in (_STT_OBJECT, _STT_FUNC):  # defined (not SHN_UNDEF)
                    start = strings + name
                    names.add(object_code[start : object_code.index(b"\0", start)].decode())
        return names
    except (struct.error, IndexError, ValueError, UnicodeDecodeError):
        return None


if _LAZY_LINK:

    class _LazyLinkLibrary(JITCodeLibrary):
        """A kernel's code library loaded from the cache, its bitcode parsed only when a compile links it.

        numba reads a library's ``_shared_module`` (the bitcode, parsed) only
        to link it into another (``_get_module_for_linking``); here it is
        parsed on that first read.  The symbols the library defines are
        listed from its object file (:func:`defined_symbols`).
        """

        _bitcode: bytes | None = None

        @property
        def _shared_module(self) -> Any:
            module = self.__dict__.get("_shared")
            if module is None and self._bitcode is not None:
                module = self.__dict__["_shared"] = _ll.parse_bitcode(self._bitcode)
                self._bitcode = None
            return module

        @_shared_module.setter
        def _shared_module(self, module: Any) -> None:
            self.__dict__["_shared"] = module

        @classmethod
        def _unserialize(cls, codegen: Any, state: Any) -> Any:
            name, kind, data = state
            symbols = defined_symbols(data[0]) if kind == "object" else None
            if symbols is None:
                return super()._unserialize(codegen, state)  # numba's own, bitcode parsed now
            object_code, bitcode = data
            self = codegen.create_library(name)  # a _LazyLinkLibrary: light_load sets the class
            self.enable_object_caching()
            self._set_compiled_object(object_code)
            self._bitcode = bitcode
            self._finalize_final_module()  # the machine code into numba's JIT engine, as numba does
            codegen._engine._defined_symbols |= symbols  # what numba reads from the parsed bitcode
            return self


def _extensions_later() -> None:
    """A kernel's ``_compilation_chain_init_hook``: nothing yet (:func:`light_load` does it before a compile)."""


def defer_extensions(dispatcher: object) -> None:
    """Have ``dispatcher`` (a kernel with the guarded cache) initialise numba's extensions only to compile."""
    if _USABLE and _DEFERRABLE:
        dispatcher._compilation_chain_init_hook = _extensions_later  # type: ignore[attr-defined]


def light_load(cache: object, sig: Any, target_context: Any, fallback: Callable[[Any, Any], Any]) -> Any:
    """Load ``sig`` from numba's disk ``cache`` with only the runtime's C functions set up.

    ``fallback(sig, target_context)`` (numba's own loader) is used where this
    numba lacks the internals relied on.  Returns what numba's loader
    returns: the cached overload, or None to compile.
    """
    if not _USABLE or not isinstance(cache, Cache):
        return fallback(sig, target_context)
    _runtime_symbols(target_context)  # what cached code needs to run
    loaded = None  # stays None if the guard swallows a spurious I/O error: compile instead
    codegen = target_context.codegen()
    lazy = _LAZY_LINK and type(codegen).__dict__.get("_library_class") is JITCodeLibrary
    if lazy:
        codegen._library_class = _LazyLinkLibrary  # the libraries this load unserialises (under numba's lock)
    try:
        with cache._guard_against_spurious_io_errors():
            loaded = cache._load_overload(sig, target_context)
    finally:
        if lazy:
            del codegen._library_class
    if loaded is None:
        _init_extensions()  # to be compiled: what the dispatcher's hook would have done first
    return loaded
