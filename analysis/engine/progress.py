"""Progress on stderr: a tqdm bar, or a silent stand-in when nothing is to be shown."""

from __future__ import annotations

import shutil
import sys
from typing import Literal

from analysis.engine import seam
from analysis.model.validate import one_line


class NoBar:
    """What :func:`progress_bar` gives when nothing is to be shown (tqdm is not even imported)."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def set_postfix_str(self, text: str = "", refresh: bool = True) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> Literal[False]:
        return False


def progress_bar(total: int, desc: str, unit: str, show: bool, leave: bool = True):
    """A tqdm bar on stderr, or (``show=False``) a silent stand-in with the same
    ``update``/``set_postfix_str``/``close``/``with`` use.

    The terminal's size comes from ``shutil`` (80 x 24 when the terminal
    reports none), since tqdm hides its bar on a terminal that says it has
    no lines.  ``leave=False`` clears the bar when it closes.
    """
    if not show:
        return NoBar()
    size = shutil.get_terminal_size()
    return seam.tqdm(
        total=total,
        desc=one_line(desc),
        unit=unit,
        file=sys.stderr,
        leave=leave,
        ncols=min(size.columns, 100),
        nrows=max(size.lines, 2),
    )
