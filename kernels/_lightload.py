"""Load a kernel from numba's disk cache without numba's compiler set-up.

When a process first loads any cached function, numba's ``Cache.load_overload``
first refreshes the whole CPU target: it imports and registers every typing
and lowering registry numba has (about forty modules, among them
``numba.np.arraymath``, which imports ``scipy.linalg`` to look for BLAS).
Those registries serve only the compiler; running machine code loaded from
the cache needs numba's runtime (NRT) and nothing else.  That set-up was
most of the cost of a second ``beastodds`` process.

:func:`light_load` is that loader: it initialises the runtime and then loads
from the cache as numba would (``kernels._jit``'s guarded cache calls it for
every kernel).  Whenever a kernel must
be compiled (first run, changed source, new argument types) numba's compiler
runs its full refresh itself, so compiling is unaffected; other programs'
numba functions in the same process keep numba's own loader.  If this numba
lacks the internals the loader relies on, numba's own loader is used.
"""

from __future__ import annotations

from typing import Any, Callable

try:  # numba internals; checked, so that another numba only loses the shortcut
    from numba.core.runtime import rtsys
    from numba.core.caching import Cache

    _USABLE = all(
        hasattr(Cache, name) for name in ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")
    )
except ImportError:  # pragma: no cover - depends on the installed numba
    _USABLE = False


def light_load(cache: object, sig: Any, target_context: Any, fallback: Callable[[Any, Any], Any]) -> Any:
    """Load ``sig`` from numba's disk ``cache`` with only the runtime set up.

    ``fallback(sig, target_context)`` (numba's own loader) is used where this
    numba lacks the internals relied on.  Returns what numba's loader
    returns: the cached overload, or None to compile.
    """
    if not _USABLE or not isinstance(cache, Cache):
        return fallback(sig, target_context)
    rtsys.initialize(target_context)  # what cached code needs to run
    with cache._guard_against_spurious_io_errors():
        return cache._load_overload(sig, target_context)
    return None  # the guard swallowed a spurious I/O error: compile instead
