"""Inputs that have no effect: said once the command has succeeded, one line each."""

from __future__ import annotations

#: Warnings of the command being run, printed by :func:`analysis.cli.main` once it succeeds.
_PENDING: list = []


def warn(text: str) -> None:
    """Say that an input has no effect: one line ``beastodds: warning: ...`` on stderr (exit 0 still).

    The line is printed once the command has succeeded (an error is never
    preceded by a warning); see :func:`take_warnings`.
    """
    if text not in _PENDING:
        _PENDING.append(text)


def take_warnings() -> list:
    """The warnings of the command run so far, emptied."""
    out = list(_PENDING)
    _PENDING.clear()
    return out
