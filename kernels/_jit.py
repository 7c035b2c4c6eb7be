"""The one place that fixes the jit options for every kernel."""
import numba

from ._lightload import light_cache_load

#: Every kernel is compiled (njit: nopython mode) and cached on disk, so a user's
#: second process loads the machine code instead of compiling it again.
JIT_OPTIONS = dict(cache=True, nogil=True)


def kernel(fn):
    """Compile ``fn`` with the project's jit options."""
    return light_cache_load(numba.njit(**JIT_OPTIONS)(fn))
