"""The ``beastodds`` command: exact odds tables from the shell."""
from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__
from .tables import FORMATS, render

#: Modules that add a subcommand: each has ``add_cli(subparsers)``, whose
#: parser sets ``run`` to a function ``args -> (DataFrame, key_columns)``
#: (or ``args -> str`` for text output).
SYSTEMS = (
    "analysis.v5",
    "analysis.rouse",
    "analysis.cards",
    "analysis.classic",
    "analysis.health",
    "analysis.conflict",
    "analysis.beast",
)


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """The options every table-printing subcommand shares."""
    parser.add_argument("--format", choices=FORMATS, default="table",
                        help="output format (default: a readable terminal table)")
    parser.add_argument("--exact", action="store_true",
                        help="print each probability as an exact reduced fraction num/den")
    parser.add_argument("--percent", action="store_true",
                        help="print probabilities as percentages")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear sentence, exit code 2
        self.exit(2, f"beastodds: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="beastodds", description=__doc__)
    parser.add_argument("--version", action="version", version=f"beastodds {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in SYSTEMS:
        importlib.import_module(name).add_cli(sub)
    return parser


def main(argv=None) -> int:
    """Entry point of the ``beastodds`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.run(args)
        if isinstance(result, str):
            text = result
        else:
            df, keys = result
            text = render(df, args.format, key_columns=keys, exact=args.exact, percent=args.percent)
    except ValueError as exc:
        print(f"beastodds: error: {exc}", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `beastodds v5 ... | head`
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
