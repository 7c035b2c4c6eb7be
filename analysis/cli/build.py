"""Regenerate the published odds tables, figures and booklet (``make tables``, ``make figures``, ``make booklet``).

The published modules (:mod:`analysis.present.published`): those of
tables have ``make_tables()`` returning ``{name: (DataFrame,
key_columns)}``, each table written as CSV and Markdown under
``figures/tables/``; those of figures have ``make_figure()`` returning a
matplotlib Figure, written as ``figures/<module>.png``.  ``booklet`` writes ``figures/booklet.html``, one
self-contained page of every table and figure (``analysis.present.booklet``).
Paths are anchored at the project root.  Every file is made in memory
first and then written atomically (:mod:`analysis.model.safeio`), so a run that
fails (an error in one table, a full disk, Ctrl-C) leaves each old file
whole: no half-written table or figure.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from analysis.engine import seam
from analysis.present import booklet, published
from analysis.present.formats.render import render
from analysis.model.safeio import atomic_write, figure_bytes

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "figures"
TABLES = FIGURES / "tables"


def _modules(kind: str, only=None):
    """``(name, module)`` of the published ``"tables"`` or ``"figures"`` modules, by name (``only``: those)."""
    found = dict(published.modules(kind))
    names = sorted(found)
    if only:
        unknown = sorted(set(only) - set(names))
        if unknown:
            said = "published" if kind == "tables" else kind
            raise SystemExit(f"unknown {said} module(s): {', '.join(unknown)}; choose from {', '.join(names)}")
        names = [n for n in names if n in only]
    for name in names:
        yield name, found[name]


def build_tables(only=None) -> list[Path]:
    """Write every published table as CSV and Markdown; return the paths."""
    texts = {}  # every table first: an error in one leaves all the old files as they were

    for _, module in _modules("tables", only):
        system = module.SYSTEM  # the legend gives each column its meaning in the module's own system
        legends = getattr(module, "LEGENDS", {})  # the module's own words for a column, as in the booklet
        for name, (df, keys) in module.make_tables().items():
            for ext, fmt in (("csv", "csv"), ("md", "markdown")):
                path = TABLES / f"{name}.{ext}"
                if isinstance(df, str):  # a table already laid out as text
                    text = df if ext == "md" else None
                    if text is None:
                        continue
                else:
                    text = render(
                        df,
                        fmt,
                        key_columns=keys,
                        percent=(fmt == "markdown"),
                        system=system,
                        meanings=legends.get(name),
                    )
                texts[path] = text
    TABLES.mkdir(parents=True, exist_ok=True)
    return [atomic_write(path, text) for path, text in texts.items()]


def build_figures(only=None) -> list[Path]:
    """Write every figure as PNG; return the paths."""
    seam.headless()

    images = {}  # every figure first: an error in one leaves all the old files as they were
    for name, module in _modules("figures", only):
        fig = module.make_figure()
        # no timestamps or versions in the file, so a rebuild is byte-stable
        images[FIGURES / f"{name}.png"] = figure_bytes(fig, "png", dpi=110, metadata={"Software": None})
    FIGURES.mkdir(parents=True, exist_ok=True)
    return [atomic_write(path, data) for path, data in images.items()]


def build_booklet(only=None) -> list[Path]:
    """Write the odds booklet (``figures/booklet.html``); ``only``: system prefixes."""
    return [booklet.build(FIGURES / "booklet.html", progress=sys.stderr.isatty(), only=only)]


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    what = argv[0] if argv else "all"
    only = argv[1:] or None
    if what not in ("tables", "figures", "booklet", "all"):
        print(
            "usage: python -m analysis.cli.build [tables|figures|all] [MODULE ...]\n"
            "       python -m analysis.cli.build booklet [SYSTEM ...]",
            file=sys.stderr,
        )
        return 2
    start = time.perf_counter()
    paths = []
    if what == "booklet":
        try:
            paths += build_booklet(only)
        except ValueError as exc:
            print(f"build: error: {exc}", file=sys.stderr)
            return 2
    if what in ("tables", "all"):
        paths += build_tables(only)
    if what in ("figures", "all"):
        paths += build_figures(only)
    for p in paths:
        print(f"  wrote {p.relative_to(ROOT)}")
    print(f"{what}: {len(paths)} files in {time.perf_counter() - start:.1f} s")
    return 0


def run(argv=None) -> int:
    """:func:`main` as a command: Ctrl-C exits 130 and a failed write exits 2, each with one line.

    Either way every file written so far is whole and every other file is
    the old one (the writes are atomic).
    """
    try:
        return main(argv)
    except KeyboardInterrupt:
        print("build: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"build: error: cannot write the files{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(run())
