"""Adding a system is adding one folder and its line in analysis/systems/shipped.py: a toy system in
tests/toy_systems/coin, listed, is found everywhere (a command of its own is a command module and its
line in analysis.cli.parser.SYSTEM_COMMANDS; a published table or figure, a module and its line in
analysis.present.published)."""

import importlib
from fractions import Fraction
from pathlib import Path

import pytest

import analysis.systems
from analysis.systems import shipped
from analysis.present import booklet, published
from analysis.cli import build, parser
from analysis.workbench import rulesets
from analysis.workbench import sweep
from analysis.present.tables import compare

TOY = Path(__file__).parent / "toy_systems"


@pytest.fixture
def coin(monkeypatch):
    monkeypatch.setattr(analysis.systems, "__path__", list(analysis.systems.__path__) + [str(TOY)])
    package = importlib.import_module("analysis.systems.coin")  # the folder, as if it were shipped
    monkeypatch.setattr(shipped, "PACKAGES", (*shipped.PACKAGES, package))  # and its line in shipped.py
    monkeypatch.setattr(rulesets, "SYSTEMS", shipped.systems())
    commands = importlib.import_module("analysis.systems.coin.cli")  # its own command, as a module of analysis.cli
    monkeypatch.setattr(parser, "SYSTEM_COMMANDS", (*parser.SYSTEM_COMMANDS, commands))  # and its line there
    tables = importlib.import_module("analysis.systems.coin.published.coin")  # its published table and figure,
    curve = importlib.import_module(
        "analysis.systems.coin.figures.coin_curve"
    )  # as modules of analysis.present.published
    monkeypatch.setattr(published, "TABLES", (*published.TABLES, tables))  # and their lines there
    monkeypatch.setattr(published, "FIGURES", (*published.FIGURES, curve))
    return rulesets.SYSTEMS["coin"]


def test_the_folder_is_listed_with_its_rule_sets(coin):
    assert coin.title == "Coins (a toy system)" and coin.axis_names == ("coins", "needed")
    names = [rs.name for rs in rulesets.variants("coin")]
    assert names == ["coin-official", "coin-loaded"]
    assert rulesets.official(coin).name == "coin-official"
    loaded = rulesets.load("coin-loaded")
    assert loaded.changes() == {"heads_faces": (1, 2)}
    from analysis.systems import coin as package

    assert package.odds(2, 1) == pytest.approx(0.75) and str(package.odds(2, 1)) == "3/4"


def test_compare_and_sweep_take_it(coin):
    cmp = compare("coin-official", "coin-loaded", {"coins": "2", "needed": "2"}, exact=True)
    row = cmp.table[cmp.table["outcome"] == "heads_enough"].iloc[0]
    assert (row["a"], row["b"], row["difference"]) == (Fraction(1, 4), Fraction(1), Fraction(3, 4))
    df = sweep.tables(coin, [coin.rules()], {"coins": "1-3"}, exact=True)[0]
    assert len(df) == 3 * 3


def test_its_names_join_the_glossary(coin):
    from analysis.present import glossary

    df = coin.table([2], [1], rules=coin.rules())
    assert all(c in glossary.terms() for c in df.columns)
    assert glossary.meaning("needed") == "heads needed"


def test_booklet_and_build_find_its_tables_and_figures(coin, tmp_path):
    assert [n for n, _ in build._modules("tables") if n == "coin"] == ["coin"]
    assert "coin_curve" in [n for n, _ in build._modules("figures")]
    text = booklet.build(tmp_path / "b.html", only=["coin"]).read_text()
    assert "Coins (a toy system)" in text and "coin_flips" in text and "coin-loaded" in text


def test_its_own_command_module_and_column_prefix(coin, capsys):
    """Its command module adds ``beastodds flip`` beside the generated ``coin``; SYSTEM.column_prefixes reads coin_."""
    from analysis import cli
    from analysis.present.tables import legend

    assert cli.family(coin).COMMANDS == ("flip",) and cli.family(coin).SYSTEM is coin
    assert {"coin", "flip"} <= set(cli.build_parser().commands)
    assert set(cli.build_parser("flip").commands) == {"coin", "flip"}  # only its system's commands
    assert cli.main(["flip", "--coins", "2", "--needed", "1-2", "--format", "csv", "--exact"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == ["coins,needed,coin_heads_enough", "2,1,3/4", "2,2,1/4"]
    assert cli.main(["coin", "--coins", "2", "--needed", "1", "--format", "csv"]) == 0
    assert "heads_enough" in capsys.readouterr().out
    assert legend(["coin_heads_enough"]) == ["coin_heads_enough: coin toss: at least the needed heads"]
    assert cli.main(["flip", "--coins", "1", "--format", "markdown"]) == 0
    assert "coin_heads_enough: coin toss: at least the needed heads" in capsys.readouterr().out
