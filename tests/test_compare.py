"""tables.compare and sweeps: exact differences, the cells that matter most, --jobs gives identical results."""

from fractions import Fraction

import numpy as np
import pytest

from analysis.present import plots, tables
from analysis.workbench import rulesets
from analysis.workbench import sweep
from analysis.systems.cards import deck as cards
from analysis.systems.v5 import roll as v5

TWO_ONES = v5.V5Rules(bestial_hunger_ones=2)


def test_compare_is_exact_cell_by_cell():
    cmp = tables.compare(
        "v5-official",
        "v5-two-hunger-ones-for-bestial",
        {"pool": "1-6", "hunger": "0,3,5", "difficulty": "1-3"},
        exact=True,
    )
    df = cmp.table
    assert tuple(df.columns) == ("pool", "hunger", "difficulty") + tables.COMPARE_COLUMNS
    assert cmp.outcomes == v5.CLASSES + ("p_win",)
    assert len(df) == 6 * 3 * 3 * 7
    for row in df.sample(40, random_state=1).itertuples():
        a = v5.odds(row.pool, row.hunger, row.difficulty)
        b = v5.odds(row.pool, row.hunger, row.difficulty, rules=TWO_ONES)
        want_a = a.p_win if row.outcome == "p_win" else a.probability(row.outcome)
        want_b = b.p_win if row.outcome == "p_win" else b.probability(row.outcome)
        assert (row.a, row.b, row.difference) == (want_a, want_b, want_b - want_a)
        assert isinstance(row.difference, Fraction)
    # the six classes move probability around: per cell their differences sum to exactly 0
    classes = df[df.outcome != "p_win"].groupby(["pool", "hunger", "difficulty"])["difference"]
    assert all(total == 0 for total in classes.sum())
    # this house rule never changes who wins
    assert (df[df.outcome == "p_win"]["difference"] == 0).all()
    assert cmp.changes() == {"bestial_hunger_ones": (1, 2)}


def test_top_cells_where_the_change_matters_most():
    cmp = tables.compare("v5-official", "v5-two-hunger-ones-for-bestial")
    assert cmp.grid == {"pool": list(range(1, 11)), "hunger": list(range(0, 6)), "difficulty": list(range(1, 6))}
    top = cmp.top(12)
    size = top["difference"].abs().to_list()
    assert size == sorted(size, reverse=True) and len(top) == 12
    cells = list(zip(top.pool, top.hunger, top.difficulty))
    assert len(set(cells)) == len(cells), "one row per cell"
    biggest = cmp.table.loc[cmp.table["difference"].abs().idxmax()]
    assert top.iloc[0]["difference"] == biggest["difference"]
    rows = cmp.top(5, per_cell=False)
    assert (rows["difference"].abs().to_numpy() >= top["difference"].abs().iloc[4]).all()
    assert cmp.most_changed.equals(cmp.top(10))
    assert "bestial_hunger_ones 1 -> 2" in cmp.describe()


def test_identical_rule_sets_change_nothing():
    cmp = tables.compare("cards-official", cards.CardRules(), {"base": "3-6", "difficulty": 10, "hunger": 1})
    assert (cmp.table["difference"] == 0).all()
    assert cmp.top(5).empty
    assert "the same" in cmp.describe()


def test_changes_are_the_differing_fields_of_every_table():
    """What differs between two rule sets is what their all_fields() say differs, sub-rules tables included
    (a table neither sets is left out: both have its defaults)."""
    from analysis.workbench.compare import Comparison

    for system in ("v5", "werewolf", "classic"):
        shipped = rulesets.variants(system)
        for a in shipped:
            for b in shipped:
                fa, fb = a.all_fields(), b.all_fields()
                want = {k: (fa[k], fb[k]) for k in fa if fa[k] != fb[k]}
                got = Comparison(system, a, b, {}, None, (), False).changes()
                assert list(got.items()) == list(want.items()), (a.name, b.name)


def test_cards_compare_uses_the_card_axes():
    cmp = tables.compare(
        "cards-official", "cards-ace-high", {"base": "0-10", "difficulty": 12, "hunger": 1}, exact=True
    )
    assert cmp.axes == ("base", "difficulty", "hunger") and cmp.outcomes == cards.CLASSES + ("p_success",)
    row = cmp.table[(cmp.table.base == 5) & (cmp.table.outcome == "success")].iloc[0]
    assert row.a == cards.odds(5, 12, 1).success
    assert row.b == cards.odds(5, 12, 1, rules=cards.CardRules(ace="high")).success


@pytest.mark.parametrize(
    "a, b, grid, words",
    [
        ("v5-official", "cards-official", None, "pool is an axis of v5-official only: give it one value"),
        ("cards-official", "requiem-la-soif", None, "share no axis"),
        (
            "v5-official",
            "v5-official",
            {"soif": "1"},
            "a v5 grid has no axis 'soif'; its axes are pool, hunger, difficulty",
        ),
        ("v5-official", "v5-official", {"pool": "5-1"}, "backwards"),
        ("v5-official", "v5-official", {"hunger": "9"}, "hunger must be 0..5, got 9"),
        ("v5-official", "v5-official", {"pool": "0-1000", "difficulty": "0-1000"}, "narrow a SPEC"),
        ("v5-official", "v5-nope", None, "unknown rule set 'v5-nope'"),
    ],
)
def test_compare_refuses_bad_input(a, b, grid, words):
    with pytest.raises(ValueError, match=words):
        tables.compare(a, b, grid)


def test_sweep_equals_one_call_of_the_table_function():
    grid = {"pool": "1-9", "hunger": "0-5", "difficulty": "1-4"}
    got = sweep.table("v5-two-hunger-ones-for-bestial", grid, exact=True)
    assert got.equals(v5.table("1-9", "0-5", "1-4", rules=TWO_ONES, exact=True))
    got = sweep.table("cards-ace-low", {"base": "0-12", "difficulty": "8-20", "hunger": "0,1"})
    assert got.equals(cards.table("0-12", "8-20", "0,1", rules=cards.CardRules(ace="low")))


@pytest.mark.slow
def test_jobs_give_identical_exact_results():
    """--jobs 2 spreads the grid over two processes: the same Fractions and floats as --jobs 1.

    Pools 18 to 20 take the exact modular path (10**20 outgrows int64), pools 1 to 3 the int64 one.
    """
    grid = {"pool": "1-3,18-20", "hunger": "0,3,5", "difficulty": "1-4"}
    for exact in (True, False):
        one = tables.compare("v5-official", "v5-hunger-dice-added", grid, exact=exact, jobs=1)
        two = tables.compare("v5-official", "v5-hunger-dice-added", grid, exact=exact, jobs=2)
        assert one.table.equals(two.table)
    assert two.table["a"].dtype == np.float64
    assert one.table.equals(two.table)


def test_check_jobs():
    assert sweep.check_jobs(1) == 1 and sweep.check_jobs(0) >= 1
    for bad in (-1, 65, 1.5, "2"):
        with pytest.raises(ValueError, match="jobs"):
            sweep.check_jobs(bad)


def test_progress_bar_goes_to_stderr(capsys):
    sweep.tables("v5", [v5.V5Rules()], {"pool": "1-4", "difficulty": 2}, progress=True, desc="probe")
    err = capsys.readouterr().err
    assert "probe" in err and "100%" in err
    sweep.tables("v5", [v5.V5Rules()], {"pool": "1-4", "difficulty": 2}, progress=False)
    assert capsys.readouterr().err == ""


def test_heatmap_and_curves_figures():
    from matplotlib.figure import Figure

    cmp = tables.compare(
        "v5-official", "v5-two-hunger-ones-for-bestial", {"pool": "1-8", "hunger": "0-5", "difficulty": "2-4"}
    )
    fig = plots.difference_heatmap(cmp)
    assert isinstance(fig, Figure)
    shown = [ax.get_title() for ax in fig.axes if ax.get_visible() and ax.get_title()]
    assert shown == ["Total failure", "Failure", "Bestial failure"]
    assert "Difficulty" in fig.get_suptitle()  # the slice where the change is biggest
    with pytest.raises(ValueError, match="no axis 'soif'"):
        plots.difference_heatmap(cmp, x="soif")
    with pytest.raises(ValueError, match="not in the compared grid"):
        plots.difference_heatmap(cmp, at={"difficulty": 9})
    fig = plots.variant_curves(
        ["v5-official", "v5-hunger-dice-added"],
        "p_win",
        panel="hunger",
        grid={"pool": "1-6", "hunger": "1,4", "difficulty": 2},
    )
    assert len(fig.axes) == 2 and len(fig.axes[0].lines) == 2
    with pytest.raises(ValueError, match="one system"):
        plots.variant_curves(["v5-official", "cards-official"], "p_win")
    with pytest.raises(ValueError, match="unknown outcome 'p_lose'"):
        plots.variant_curves(["v5-official"], "p_lose")
    with pytest.raises(ValueError, match="difficulty must be one value"):
        plots.variant_curves(["v5-official"], "p_win", grid={"difficulty": "1-3"})


def test_registered_systems_are_known_to_the_sweep():
    for name, system in rulesets.SYSTEMS.items():
        grid = sweep.resolve_grid(system)
        assert list(grid) == list(system.axis_names)
