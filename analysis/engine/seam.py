"""The seam: what is loaded only when it is first used, the compiled kernels and matplotlib above all.

Importing numba and loading the kernels' machine code takes about half a second, matplotlib about as
long; listing rule sets, reading a mechanic file or building the command line's parser needs neither.  So
no module of the project imports a kernel module or one of these packages at its top: each reaches them
through this module, when it counts or draws.  ``seam.mechanic`` is the module ``kernels.mechanic``,
imported the first time it is read (and the first run on a machine compiles it: ``kernels._jit`` says so;
``seam.shapes``, the numbers the kernels' arrays are shaped by, loads no numba);
``seam.Figure`` is matplotlib's ``Figure`` (a figure drawn without pyplot) and :func:`headless` sets
matplotlib's Agg backend.  The same holds for the packages only some uses need: tqdm's progress bar
(``seam.tqdm``), the worker processes of ``--jobs`` (``seam.multiprocessing``, ``seam.process_pool``, ...) and a
notebook's widgets (``seam.widgets``, ``seam.display``).

The imports below are the only ones of the library that wait inside a function, beside the command
line's entry (:func:`analysis.cli.main`, which loads the library when a command runs):
``tests/test_imports.py`` checks that.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what each name is, for type checkers and readers
    import concurrent.futures.process as process_pool  # noqa: F401
    import multiprocessing as multiprocessing
    import multiprocessing.resource_tracker as resource_tracker  # noqa: F401

    import ipywidgets as widgets  # noqa: F401
    from IPython.display import display as display
    from matplotlib.figure import Figure as Figure
    from matplotlib.ticker import MaxNLocator as MaxNLocator
    from tqdm import tqdm as tqdm

    from kernels import (
        cards as cards,
        classic as classic,
        conflict as conflict,
        markov as markov,
        mechanic as mechanic,
        mechanic_willpower as mechanic_willpower,
        multiset as multiset,
        shapes as shapes,
        special as special,
    )


def __getattr__(name: str) -> Any:
    """A kernel module or a package's name, imported the first time it is read (PEP 562), then kept."""
    value = _load(name)
    globals()[name] = value
    return value


def _load(name: str) -> Any:
    """One plain import per name, so that every tool follows it."""
    if name == "cards":
        from kernels import cards

        return cards
    if name == "classic":
        from kernels import classic

        return classic
    if name == "conflict":
        from kernels import conflict

        return conflict
    if name == "markov":
        from kernels import markov

        return markov
    if name == "mechanic":
        from kernels import mechanic

        return mechanic
    if name == "mechanic_willpower":
        from kernels import mechanic_willpower

        return mechanic_willpower
    if name == "multiset":
        from kernels import multiset

        return multiset
    if name == "special":
        from kernels import special

        return special
    if name == "shapes":
        from kernels import shapes

        return shapes
    if name == "Figure":
        from matplotlib.figure import Figure

        return Figure
    if name == "MaxNLocator":
        from matplotlib.ticker import MaxNLocator

        return MaxNLocator
    if name == "tqdm":
        from tqdm import tqdm

        return tqdm
    if name == "multiprocessing":
        import multiprocessing

        return multiprocessing
    if name == "resource_tracker":
        import multiprocessing.resource_tracker

        return multiprocessing.resource_tracker
    if name == "process_pool":
        import concurrent.futures.process

        return concurrent.futures.process
    if name == "widgets":
        import ipywidgets

        return ipywidgets
    if name == "display":
        from IPython.display import display

        return display
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def headless() -> None:
    """matplotlib draws without a display (its Agg backend), for figures written to files in any process."""
    import matplotlib

    matplotlib.use("Agg")
