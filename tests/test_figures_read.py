"""The figures as a player reads them: cell and bar texts from exact values, readable sizes and labels.

Each test reads the text of a figure from its matplotlib objects (titles,
tick labels, ``ax.texts``, legend handles), never from pixels.
"""

from fractions import Fraction

import matplotlib
import pytest
from matplotlib.colors import to_rgb

from analysis.present import plots, tables

matplotlib.use("Agg")


def _cell_texts(ax) -> dict:
    """``{(x, y): text}`` of the numbers written in a heatmap's cells."""
    return {(round(t.get_position()[0]), round(t.get_position()[1])): t.get_text() for t in ax.texts}


# ------------------------------------------------------------ cell texts


@pytest.mark.parametrize(
    "p, text",
    [
        (Fraction(0), "0"),
        (Fraction(1), "100"),
        (Fraction(1, 10**6), "<0.1"),
        (Fraction(999, 10**6), "<0.1"),
        (Fraction(1, 1000), "0.1"),
        (Fraction(4, 1000), "0.4"),
        (Fraction(27, 100), "27"),
        (Fraction(995, 1000), "99.5"),
        (1 - Fraction(1, 10**6), ">99.9"),
        (0.0, "0"),
        (0.5, "50"),
    ],
)
def test_a_percentage_is_zero_or_a_hundred_only_when_it_is_exactly(p, text):
    assert plots.percent_text(p) == text


def test_changes_and_signed_percentages_never_print_a_misleading_zero():
    assert plots.points_text(Fraction(0)) == "0"
    assert plots.points_text(Fraction(1, 10**5)) == "+<0.1" and plots.points_text(-Fraction(1, 10**5)) == ">-0.1"
    assert plots.points_text(Fraction(89, 1000)) == "+8.9" and plots.points_text(Fraction(-12, 100)) == "-12"
    assert plots.percent_text(Fraction(1, 10**6), signed=True) == "+<0.1"
    assert plots.percent_text(Fraction(3, 100), signed=True) == "+3"
    assert plots.percent_text(Fraction(263, 1000), decimals=1) == "26.3"


@pytest.mark.parametrize(
    "module, frame, column, x, y",
    [
        ("analysis.present.published.figures.v5_beast_heatmap", "v5", "bestial_failure", "pool", "hunger"),
        ("analysis.present.published.figures.beast_heatmap", "requiem", "bestial_failure", "pool", "soif"),
    ],
)
def test_heatmap_cells_print_0_only_for_exact_zeros(module, frame, column, x, y):
    import importlib

    fig = importlib.import_module(module).make_figure(pools=range(8, 21))
    if frame == "v5":
        from analysis.systems.v5 import roll

        df = roll.table(list(range(8, 21)), list(range(6)), 3, exact=True)
    else:
        from analysis.systems.requiem import beast

        df = beast.table(list(range(8, 21)), list(range(6)), exact=True)
    exact = {(r[x], r[y]): r[column] for r in df.to_dict("records")}
    ax = next(a for a in fig.axes if a.get_title().startswith("Bestial failure"))
    texts = _cell_texts(ax)
    assert len(texts) == len(exact)
    for cell, text in texts.items():
        assert text == plots.percent_text(exact[cell])
        assert (text == "0") == (exact[cell] == 0), (cell, text, exact[cell])
    small = [cell for cell, p in exact.items() if 0 < p < Fraction(1, 1000)]
    assert small and all(texts[cell] == "<0.1" for cell in small)


def test_the_classic_damage_heatmap_never_rounds_into_0_or_100():
    from analysis.present.published.figures import classic_damage_after_soak

    fig = classic_damage_after_soak.make_figure(dice=range(1, 4), soaks=range(6, 9))
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "<0.1" in texts or any(t.startswith("0.") for t in texts)
    assert "<1" not in texts and ">99" not in texts and "0.0" not in texts


# ------------------------------------------------------------ Werewolf bars, the night's swatches


def test_werewolf_bar_labels_are_percentages():
    from analysis.present.published.figures import werewolf_brutal

    fig = werewolf_brutal.make_figure()
    bars = fig.axes[2]
    labels = [t.get_text() for t in bars.texts]
    assert len(labels) == 6 and all(label.endswith("%") for label in labels)
    assert labels[:2] == ["0%", "0%"]  # exactly no Brutal outcome below two Rage dice
    assert labels[2] == "4.0%"


def test_the_night_legend_shows_hunger_0():
    from analysis.present.published.figures import v5_night_hunger

    fig = v5_night_hunger.make_figure()
    legend = fig.axes[0].get_legend()
    handles = dict(zip([t.get_text() for t in legend.get_texts()], legend.legend_handles))
    swatch = handles["Hunger 0"]
    white = (1.0, 1.0, 1.0)
    assert to_rgb(swatch.get_facecolor()) != white
    assert sum(to_rgb(swatch.get_edgecolor())) < 1.5 and swatch.get_linewidth() >= 0.5  # a dark edge


# ------------------------------------------------------------ curves and difference heatmaps


def test_variant_curves_read_at_a_glance():
    fig = plots.variant_curves(
        ["v5-official", "v5-critical-pairs-add-one"],
        ["p_win", "messy_critical"],
        x="pool",
        panel="hunger",
        grid={"pool": "1-6", "hunger": "0-5", "difficulty": 3},
        columns=3,
    )
    axes = [ax for ax in fig.axes if ax.get_visible()]
    assert len(axes) == 12  # every Hunger 0..5, for both outcomes, three panels a row
    assert [ax.get_title() for ax in axes[:6]] == [f"Hunger {h}" for h in range(6)]
    assert axes[0].get_ylabel() == "Chance to win (%)" and axes[6].get_ylabel() == "Messy critical (%)"
    assert axes[-1].get_xlabel() == "Pool"
    for ax in axes:
        for tick in ax.get_xticklabels() + ax.get_yticklabels():
            assert tick.get_fontsize() >= 10
    # one y-scale per outcome, whatever the Hunger
    assert len({ax.get_ylim() for ax in axes[:6]}) == 1 and len({ax.get_ylim() for ax in axes[6:]}) == 1
    assert axes[0].get_ylim() != axes[6].get_ylim()
    with pytest.raises(ValueError, match="columns must be"):
        plots.variant_curves(["v5-official"], "p_win", panel="hunger", columns=0)


def test_a_change_that_is_the_same_everywhere_is_said_once():
    from analysis.present.published.figures import cards_variants_heatmap

    fig = cards_variants_heatmap.make_figure()
    panels = [ax for ax in fig.axes if ax.get_visible() and ax.get_title()]
    titles = [ax.get_title() for ax in panels]
    assert "Success: +8.9 points in every coloured cell" in titles
    assert all(not ax.texts for ax in panels)  # no number repeated in every tiny cell


def test_difference_heatmap_cells_are_exact_changes():
    cmp = tables.compare(
        "v5-official", "v5-two-hunger-ones-for-bestial", {"pool": "1-6", "hunger": "0-3", "difficulty": 3}, exact=True
    )
    fig = plots.difference_heatmap(cmp)
    df = cmp.table
    for ax in fig.axes:
        outcome = {"Bestial failure": "bestial_failure", "Failure": "failure", "Total failure": "total_failure"}.get(
            ax.get_title()
        )
        if outcome is None:
            continue
        sub = df[df["outcome"] == outcome]
        exact = {(int(r["pool"]) - 1, int(r["hunger"])): r["difference"] for r in sub.to_dict("records")}
        for cell, text in _cell_texts(ax).items():
            assert text == plots.points_text(exact[cell]) and exact[cell] != 0
        assert {c for c, d in exact.items() if d != 0} == set(_cell_texts(ax))  # no change: blank
    assert "blank cells: no change" in fig.get_supxlabel()


def test_a_heatmap_of_three_axes_has_a_panel_per_value_on_one_scale_centred_on_0():
    grid = {"pool": "2-5", "hunger": "0-3", "difficulty": "2-4"}
    cmp = tables.compare("v5-official", "v5-two-hunger-ones-for-bestial", grid, exact=True)
    fig = plots.difference_heatmap(cmp, by="difficulty")
    df = cmp.table
    names = {plots._label(o): o for o in cmp.outcomes}
    panels = [ax for ax in fig.axes if ax.get_title()]
    rows: dict = {}
    for ax in panels:
        label, _, difficulty = ax.get_title().rpartition(", Difficulty ")
        outcome, difficulty = names[label], int(difficulty)
        sub = df[(df["outcome"] == outcome) & (df["difficulty"] == difficulty)]
        exact = {(int(r["pool"]) - 2, int(r["hunger"])): r["difference"] for r in sub.to_dict("records")}
        texts = _cell_texts(ax)
        assert {c for c, d in exact.items() if d != 0} == set(texts)  # no change: blank
        for cell, text in texts.items():
            assert text == plots.points_text(exact[cell])
        (image,) = ax.get_images()
        low, high = image.get_clim()
        assert low == -high > -float("inf")  # centred on 0
        rows.setdefault(outcome, []).append(((low, high), difficulty))
        biggest = max(abs(float(d)) for d in df[df["outcome"] == outcome]["difference"]) * 100
        assert high == biggest
    assert all(sorted(d for _, d in row) == [2, 3, 4] for row in rows.values())  # a panel per Difficulty
    assert all(len({lim for lim, _ in row}) == 1 for row in rows.values())  # one scale per row
    assert set(rows) == {"total_failure", "failure", "bestial_failure"}  # the classes that change
    assert "one panel per difficulty" in fig.get_suptitle()
