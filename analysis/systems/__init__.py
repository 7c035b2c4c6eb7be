"""The game systems: one package each, found by :func:`discover`.

A system is a folder here whose ``__init__.py`` defines ``SYSTEM``, an
:class:`analysis.model.system.System` (see that module for what a folder holds).
Nothing else names the systems: the command line, rule-set files,
``compare``, sweeps, the booklet and ``make`` all iterate what is found.
"""

from __future__ import annotations

import importlib
import pkgutil

from analysis.model.system import System


def discover() -> dict:
    """``{name: System}`` of every system package under ``analysis/systems``, in listing order."""
    found = []
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        system = getattr(module, "SYSTEM", None)
        if not isinstance(system, System):
            continue
        if system.name != info.name:
            raise ValueError(
                f"the system in analysis/systems/{info.name} is named {system.name!r}; a system's name is its folder's"
            )
        found.append(system)
    return {s.name: s for s in sorted(found, key=lambda s: (s.order, s.name))}
