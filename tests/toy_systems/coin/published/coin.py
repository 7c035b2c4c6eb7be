"""Coin tables."""

from .. import SYSTEM as SYSTEM  # the system it is of
from .. import flips


def make_tables():
    return {"coin_flips": (flips.table("1-3", "0-2"), ("coins", "needed"))}
