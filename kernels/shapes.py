"""The numbers the kernels' arrays are shaped by, which their callers share: importable without numba.

numba reads a module's globals when it compiles a kernel, so the kernels of ``special``, ``cards`` and ``classic``
import these from here like any other constant; the library reads them here (through
``analysis.engine.seam``) without loading numba.
"""

#: Special tens and special marks are counted up to this cap (0, 1, 2 or more) (``kernels.special``).
CAP = 2
#: Bands of a roll's successes against the Difficulty (first axis of a class table of ``kernels.special``).
BAND_NONE, BAND_SHORT, BAND_WIN = range(3)

#: Outcome classes of a card test (columns of ``kernels.cards``' outputs), in order.
SUCCESS, FAILURE, BESTIAL_SUCCESS, BESTIAL_FAILURE = range(4)
N_CLASSES = 4

#: Halving modes of ``kernels.classic.levels_after_soak`` (vampires halve bashing damage).
HALVE_NONE, HALVE_DOWN, HALVE_UP = range(3)
