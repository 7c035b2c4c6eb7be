"""`make tables` / `make figures`: every published table and figure builds, headless."""

from pathlib import Path

import pandas as pd
import pytest

from analysis.cli import build
from analysis.systems.v5 import roll as v5


@pytest.fixture
def out_dirs(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "FIGURES", tmp_path)
    monkeypatch.setattr(build, "TABLES", tmp_path / "tables")
    monkeypatch.setattr(build, "ROOT", tmp_path)
    return tmp_path


def test_tables_build(out_dirs):
    paths = build.build_tables()
    names = {p.name for p in paths}
    assert {"v5_full.csv", "v5_full.md", "v5_core_difficulty3.csv", "v5_core_difficulty3_layout.md"} <= names
    full = pd.read_csv(out_dirs / "tables" / "v5_full.csv")
    assert tuple(full.columns) == v5.TABLE_COLUMNS
    assert len(full) == 20 * 6 * 8
    row = full[(full.pool == 3) & (full.hunger == 3) & (full.difficulty == 3)].iloc[0]
    assert row.bestial_failure == pytest.approx(0.268, abs=1e-12)
    layout = (out_dirs / "tables" / "v5_core_difficulty3_layout.md").read_text()
    assert "| 3 | 14.0% |" in layout and "2.8% / 26.8%" in layout


def test_the_committed_tables_are_what_make_tables_writes(out_dirs):
    """Every table under figures/tables is byte for byte what ``make tables`` writes now (a change to a
    table's output is committed with the tables it changes), and no table is left there that it no
    longer writes."""
    committed = Path(__file__).resolve().parents[1] / "figures" / "tables"  # (the build goes to out_dirs)
    written = {p.name: p.read_bytes() for p in build.build_tables()}
    kept = {p.name: p.read_bytes() for p in committed.iterdir() if p.suffix in (".csv", ".md")}
    assert sorted(kept) == sorted(written)
    assert [n for n in written if kept[n] != written[n]] == []


@pytest.mark.slow
def test_figures_build(out_dirs, figures_once):
    paths = build.build_figures()
    assert paths and all(p.suffix == ".png" and p.stat().st_size > 10_000 for p in paths)


def test_unknown_module_is_refused():
    with pytest.raises(SystemExit):
        build.build_tables(["no_such_module"])
