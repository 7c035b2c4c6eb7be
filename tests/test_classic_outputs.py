"""Classic published tables and figures: built from the exact API, and they draw."""

from matplotlib.figure import Figure

from analysis.systems.classic import health
from analysis.present.published.figures import classic_damage_after_soak, classic_survival_curves
from analysis.present.published.tables import classic as published

from tests.oracles_classic import brute_damage


def test_seed_example_table_is_the_brute_force_distribution():
    df = published.seed_example_table()
    for name, a in published.SEED_ATTACKS.items():
        rows = df[df.attack == name]
        expected = brute_damage(a["dice"], a["auto"], a["stamina"], "bashing", "vampire", a["fortitude"])
        assert dict(zip(rows.levels, rows.probability)) == {n: float(p) for n, p in expected.items()}


def test_damage_table_cells_follow_the_api():
    df = published.damage_table(dice=[2, 3], soaks=[0, 1])
    assert len(df) == 8
    for row in df.itertuples():
        odds = health.damage(row.dice, 0, row.soak, row.kind, "vampire")
        assert row.mean_levels == float(odds.mean_levels)
        assert row.at_least_one == float(odds.at_least(1))


def test_figures_draw_on_small_grids():
    fig = classic_damage_after_soak.make_figure(dice=range(1, 3), soaks=range(0, 2))
    assert isinstance(fig, Figure) and len(fig.axes) == 6  # four panels and two colour bars
    fig = classic_survival_curves.make_figure(max_blows=3)
    assert isinstance(fig, Figure)
    lines = fig.axes[0].get_lines()
    assert len(lines) == 4
    # the first curve is the vampire's chance of still standing after each blow
    table = health.blows(classic_survival_curves.ATTACKS[0][1], classic_survival_curves.VICTIMS[0][1], 3).table()
    assert list(lines[0].get_ydata()) == list(1 - table.incapacitated_or_worse)
