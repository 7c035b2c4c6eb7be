"""The toy system's own command: ``beastodds flip`` (a command module as those of :mod:`analysis.cli`; the test
lists it with them, as a shipped system's line in ``analysis.cli.parser.SYSTEM_COMMANDS`` does).

It adds ``flip`` beside the generated ``beastodds coin`` (``COMMANDS`` does
not name ``coin``, so that one stays generated), and prints the chance of
enough heads as ``coin_heads_enough``: a column under the prefix the system
declares (``SYSTEM.column_prefixes``), as a table setting systems side by
side would name it.
"""

from __future__ import annotations

from analysis.options.common import add_output_options, check_output_options, spec

from . import SYSTEM as SYSTEM  # the system it builds for (read by the parser)
from .flips import table

#: The commands this module adds.
COMMANDS = ("flip",)


def add_commands(sub, system) -> None:
    """Add ``flip`` to the subparsers ``sub``."""
    p = sub.add_parser(
        "flip",
        help="coin flips: the chance of enough heads, as a coin_ column",
        description="Exact chance of at least --needed heads in --coins fair flips.",
    )
    p.add_argument("--coins", required=True, metavar="SPEC", help="coins flipped")
    p.add_argument("--needed", default="1", metavar="SPEC", help="heads needed (default 1)")
    add_output_options(p, columns=("coins", "needed", "coin_heads_enough"))
    p.set_defaults(run=_run_flip)


def _run_flip(args):
    check_output_options(args)
    df = table(spec("--coins", args.coins), spec("--needed", args.needed), exact=args.exact)
    return (df.drop(columns="too_few").rename(columns={"heads_enough": "coin_heads_enough"}), ("coins", "needed"))
