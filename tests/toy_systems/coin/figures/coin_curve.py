"""Chance of enough heads by coins."""

from analysis.engine import seam

from .. import SYSTEM as SYSTEM  # the system it is of
from .. import flips


def make_figure():
    fig = seam.Figure(figsize=(3, 2))
    ax = fig.subplots()
    ax.plot(range(1, 5), [float(flips.odds(c, 1)) for c in range(1, 5)])
    return fig
