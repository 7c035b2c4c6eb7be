"""The systems that ship with beastodds: one plain import each, the one place that lists them."""

from __future__ import annotations

from analysis.model.system import System
from analysis.systems import cards, classic, hunter, requiem, v5, werewolf

#: The package of each shipped system (a new system adds its own here).
PACKAGES = (cards, classic, hunter, requiem, v5, werewolf)


def systems() -> dict[str, System]:
    """``{name: System}`` of every shipped system, in listing order (its ``order``, then its name).

    A system's name is its folder's (the name rule-set files and the command line use)."""
    found = []
    for package in PACKAGES:
        system = package.SYSTEM
        folder = package.__name__.rpartition(".")[2]
        if system.name != folder:
            raise ValueError(
                f"the system in analysis/systems/{folder} is named {system.name!r}; a system's name is its folder's"
            )
        found.append(system)
    return {s.name: s for s in sorted(found, key=lambda s: (s.order, s.name))}
