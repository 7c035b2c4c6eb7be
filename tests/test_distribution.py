"""--distribution on every roll command: the exact chance of each success count per cell, and the mean."""

import csv
import io
import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from analysis.engine import distribution
from analysis.workbench import rulesets
from analysis.systems.classic import pools as classic
from analysis.systems.hunter import desperation as hunter
from analysis.systems.requiem import beast
from analysis.systems.v5 import roll as v5
from analysis.systems.werewolf import rage as werewolf
from tests.conftest import run_cli

EXAMPLES = Path(__file__).resolve().parent.parent / "analysis" / "model" / "examples"


def cells(df, axes):
    """``{cell: [(successes, p_exactly, p_at_least, p_more, mean)]}`` of a distribution table."""
    out = {}
    for row in df.itertuples(index=False):
        r = row._asdict()
        out.setdefault(tuple(r[a] for a in axes), []).append(
            (r["successes"], r["p_exactly"], r["p_at_least"], r["p_more"], r.get("mean_successes"))
        )
    return out


def check_cell(rows, mean=None, full=True):
    """The rows of one cell: consecutive counts, exactly 1 in all, suffix sums, the mean."""
    counts = [r[0] for r in rows]
    assert counts == list(range(counts[0], counts[-1] + 1))
    assert counts[0] <= 0
    for i, (s, e, a, m, _) in enumerate(rows):
        assert a == sum(r[1] for r in rows[i:]) + rows[-1][3]  # at least: a suffix sum (plus the tail)
        assert m == a - e
        assert isinstance(e, Fraction)
    if full:
        assert sum(r[1] for r in rows) == 1 and rows[-1][3] == 0
        assert rows[-1][1] > 0  # the last count is reachable
    if mean is not None:
        assert all(r[4] == mean for r in rows)
        if full:
            assert mean == sum(r[0] * r[1] for r in rows)


def v5_brute(pool, hunger, crit_bonus=2):
    """{successes: Fraction} over every ordered roll of ``pool`` d10 (Hunger dice do not change the count)."""
    ways = {}
    for faces in itertools.product(range(1, 11), repeat=pool):
        tens = sum(f == 10 for f in faces)
        s = sum(6 <= f <= 9 for f in faces) + tens + crit_bonus * (tens // 2)
        ways[s] = ways.get(s, 0) + 1
    return {s: Fraction(w, 10**pool) for s, w in ways.items()}


def test_v5_distribution_is_the_brute_force_and_the_api():
    df = v5.distribution_table("0-3", "0-2", "1-2", exact=True)
    got = cells(df, ("pool", "hunger", "difficulty"))
    assert set(got) == set(itertools.product(range(4), range(3), range(1, 3)))
    for (pool, hunger, difficulty), rows in got.items():
        o = v5.odds(pool, hunger, difficulty)
        check_cell(rows, o.mean_successes)
        brute = v5_brute(pool, hunger)
        assert {s: e for s, e, *_ in rows if e} == brute == {s: p for s, p in o.successes.items() if p}


def test_floats_are_float_of_the_fractions():
    exact = v5.distribution_table("1-6", "0-5", 3, exact=True)
    floats = v5.distribution_table("1-6", "0-5", 3)
    assert list(exact.columns) == list(floats.columns) == ["pool", "hunger", "difficulty", *distribution.COLUMNS]
    for c in ("p_exactly", "p_at_least", "p_more", "mean_successes"):
        assert [float(v) for v in exact[c]] == floats[c].tolist()


def test_at_least_columns_are_suffix_sums_of_the_distribution():
    dist = cells(v5.distribution_table("1-8", "0-3", 2, exact=True), ("pool", "hunger", "difficulty"))
    table = v5.table("1-8", "0-3", 2, exact=True, at_least="0-20")
    for row in table.itertuples(index=False):
        rows = dist[(row.pool, row.hunger, row.difficulty)]
        for n in range(21):
            assert getattr(row, f"p_at_least_{n}") == sum(e for s, e, *_ in rows if s >= n)


def test_werewolf_hunter_classic_match_their_apis():
    for (pool, rage, difficulty, violent), rows in cells(
        werewolf.distribution_table("0-4", "0-3", "2-3", "0-1", exact=True), ("pool", "rage", "difficulty", "violent")
    ).items():
        o = werewolf.odds(pool, rage, difficulty, bool(violent))
        check_cell(rows, o.mean_successes)
        assert {s: e for s, e, *_ in rows if e} == {s: p for s, p in o.successes.items() if p}
    for (pool, desperation, difficulty), rows in cells(
        hunter.distribution_table("0-4", "0-2", 2, exact=True), ("pool", "desperation", "difficulty")
    ).items():
        o = hunter.odds(pool, desperation, difficulty)
        check_cell(rows, o.mean_successes)
        assert {s: e for s, e, *_ in rows if e} == {s: p for s, p in o.successes.items() if p}
    for specialty in (False, True):
        table = classic.table("0-5", "3-9", specialty=specialty, exact=True)
        means = dict(zip(zip(table["pool"], table["difficulty"]), table["mean_successes"]))
        for (pool, difficulty), rows in cells(
            classic.distribution_table("0-5", "3-9", specialty=specialty, exact=True), ("pool", "difficulty")
        ).items():
            o = classic.odds(pool, difficulty, specialty)
            check_cell(rows, means[(pool, difficulty)])
            assert {s: e for s, e, *_ in rows if e} == {s: p for s, p in o.successes.items() if p}


def test_a_largest_count_cuts_with_the_exact_tail():
    full = cells(v5.distribution_table(6, 2, 3, exact=True), ("pool", "hunger", "difficulty"))[(6, 2, 3)]
    cut = cells(v5.distribution_table(6, 2, 3, exact=True, max_successes=3), ("pool", "hunger", "difficulty"))[
        (6, 2, 3)
    ]
    assert cut == full[:4]
    assert cut[-1][3] == sum(r[1] for r in full[4:])
    check_cell(cut, full[0][4], full=False)


def test_the_size_is_checked_before_counting():
    with pytest.raises(ValueError, match=r"this grid has 1,200,000 cells"):
        v5.distribution_table("1-1000", "0-5", "1-200")
    with pytest.raises(ValueError, match=r"distribution asks for 1,134,000 rows"):  # once counted
        v5.distribution_table("1-30", "0-5", "1-200")
    with pytest.raises(ValueError, match=r"distribution needs the distributions of successes of .* dice in all"):
        v5.distribution_table("1-1000", "0-5", 1)
    with pytest.raises(ValueError, match="max_successes must be"):
        v5.distribution_table(3, 1, 2, max_successes=-1)


@pytest.mark.parametrize(
    "argv, axes",
    [
        (["v5", "--pool", "0-3", "--hunger", "0-2", "--difficulty", "2"], ("pool", "hunger", "difficulty")),
        (
            ["werewolf", "--pool", "2", "--rage", "1-2", "--difficulty", "3", "--violent", "0-1"],
            ("pool", "rage", "difficulty", "violent"),
        ),
        (["hunter", "--pool", "3", "--desperation", "0-2", "--difficulty", "2"], ("pool", "desperation", "difficulty")),
        (["classic", "--pool", "0-3", "--difficulty", "6", "--specialty"], ("pool", "difficulty")),
        (
            ["table", "v5-official", "--pool", "2", "--hunger", "1", "--difficulty", "1"],
            ("pool", "hunger", "difficulty"),
        ),
    ],
)
def test_every_command_prints_the_exact_distribution(capsys, argv, axes):
    code, out, err = run_cli(capsys, *argv, "--distribution", "--exact", "--format", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0])[: len(axes) + 5] == [*axes, *distribution.COLUMNS]
    got = {}
    for r in rows:
        got.setdefault(tuple(r[a] for a in axes), []).append(
            (int(r["successes"]), *(Fraction(r[c]) for c in distribution.COLUMNS[1:]))
        )
    for cell, rows_ in got.items():
        check_cell(rows_, rows_[0][4])
    code, floats, err = run_cli(capsys, *argv, "--distribution", "--format", "csv")
    assert code == 0, err
    for r, f in zip(rows, csv.DictReader(io.StringIO(floats))):
        assert float(f["p_exactly"]) == float(Fraction(r["p_exactly"]))
        assert float(f["mean_successes"]) == float(Fraction(r["mean_successes"]))


def test_requiem_and_beast_share_the_distribution(capsys):
    want = beast.distribution_table(2, "0-1", 4, exact=True)
    for command in ("requiem", "beast"):
        code, out, err = run_cli(
            capsys, command, "--pool", "2", "--soif", "0-1", "--distribution", "4", "--exact", "--format", "csv"
        )
        assert code == 0, err
        rows = list(csv.DictReader(io.StringIO(out)))
        assert [Fraction(r["p_exactly"]) for r in rows] == list(want["p_exactly"])
        assert [Fraction(r["p_more"]) for r in rows] == list(want["p_more"])
    for (pool, soif), rows in cells(want, ("pool", "soif")).items():
        assert sum(r[1] for r in rows) + rows[-1][3] == 1
        check_cell(rows, None, full=False)
    code, out, err = run_cli(capsys, "requiem", "--pool", "1", "--soif", "0", "--distribution")
    assert code == 0 and len(out.splitlines()) == 1 + 21  # again-dice: 0..20 by default
    assert "mean_successes" in out.splitlines()[0]


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"again": 9},
        {"again": 8},
        {"again": None},
        {"rote": True},
        {"rote": True, "again": 8},
        {"chance_die_again": False},
        {"rote_chance_die": True},
        {"rote": True, "rote_chance_die": True, "again": 9},
        {"chance_die_is_beast": False},
        {"beastly_ten_successes": 3},
        {"beastly_ten_successes": 1, "again": 8},
    ],
)
def test_the_again_dice_mean_is_exact(fields):
    """The mean of exploding dice, exact though their counts have no end: the distribution counted up to
    120 successes (its tail below 10**-30 here) falls short of it by less than 10**-30, never more."""
    from analysis.systems.requiem.beast import BeastRules

    rules = BeastRules(**fields)
    df = beast.distribution_table("0-4", "0-3", 120, rules, exact=True)
    tempted = beast.distribution_table("0-3", "1-3", 120, rules, tempt=True, exact=True)
    for table in (df, tempted):
        for cell, rows in cells(table, ("pool", "soif")).items():
            mean = rows[0][4]
            assert all(r[4] == mean for r in rows)
            short = mean - sum(r[0] * r[1] for r in rows)
            assert 0 <= short < Fraction(1, 10**30), (fields, cell)
    assert beast.distribution_table(1, 0, 2, exact=True)["mean_successes"][0] == Fraction(1, 3)  # one 10-again die


def test_a_mechanic_file_with_and_without_successes(capsys, tmp_path):
    from analysis.engine import count as engine

    path = EXAMPLES / "hunger-one-cancels.toml"
    code, out, err = run_cli(
        capsys,
        "table",
        path,
        "--pool",
        "0-3",
        "--hunger",
        "0-2",
        "--difficulty",
        "1",
        "--distribution",
        "--exact",
        "--format",
        "csv",
    )
    assert code == 0, err
    mech = rulesets.register_mechanic_file(path).rules.MECHANIC
    rules = engine.rules_of(mech, {})
    got = {}
    for r in csv.DictReader(io.StringIO(out)):
        got.setdefault((int(r["pool"]), int(r["hunger"])), []).append(
            (int(r["successes"]), *(Fraction(r[c]) for c in distribution.COLUMNS[1:]))
        )
    assert len(got) == 12
    for (pool, hunger), rows in got.items():
        o = engine.odds(rules, pool=pool, hunger=hunger, difficulty=1)
        check_cell(rows, o.mean_successes)
        assert {s: e for s, e, *_ in rows if e} == o.successes

    text = (
        path.read_text()
        .replace('successes = "successes"\n', "", 1)
        .replace('name = "hungeronecancels"', 'name = "nocount"', 1)
    )
    assert "successes = " not in text.split("[parameters")[0]
    bare = tmp_path / "nocount.toml"
    bare.write_text(text)
    code, out, err = run_cli(capsys, "table", bare, "--pool", "2", "--distribution")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "names no successes count" in err


def test_no_count_and_bad_input_in_one_sentence(capsys):
    for argv, said in [
        (["cards", "--base", "5", "--difficulty", "10", "--distribution"], "the cards system counts no successes"),
        (["cards", "--base", "5", "--defense", "4", "--opposed", "--distribution"], "counts no successes"),
        (["table", "cards-official", "--distribution"], "counts no successes"),
        (
            ["v5", "--pool", "3", "--difficulty", "2", "--distribution", "--strategy", "none,maximize_win"],
            "--strategy: a distribution of successes takes one strategy at a time",
        ),
        (["werewolf", "--pool", "3", "--distribution", "--strategy", "maximise_win"], "did you mean maximize_win"),
        (["v5", "--pool", "3", "--difficulty", "2", "--distribution", "--at-least", "2"], "already has p_at_least"),
        (["v5", "--pool", "3", "--difficulty", "2", "--distribution", "many"], "--distribution must be"),
        (
            ["v5", "--pool", "1-1000", "--hunger", "0-5", "--difficulty", "1", "--distribution"],
            "--distribution needs the distributions of successes of 6,000 rolls",
        ),
        (["beast", "--pool", "3", "--distribution", "500"], "--distribution must be"),
    ]:
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and out == "", (argv, err)
        assert err.startswith("beastodds: error: ") and err.count("\n") == 1 and said in err, (argv, err)


@pytest.mark.parametrize(
    "module, grid, strategy",
    [
        (v5, ("0-4", "0-2", "1-3"), "maximize_win"),
        (v5, ("1-3", "1", "2"), "reroll_failures"),
        (werewolf, ("1-3", "0-2", "2", "0-1"), "normal_dice_only"),
        (hunter, ("1-3", "0-1", "2"), "maximize_win"),
    ],
)
def test_after_a_willpower_reroll_the_distribution_matches_the_at_least_columns(module, grid, strategy):
    dist = module.distribution_table(*grid, exact=True, strategy=strategy)
    table = module.table(*grid, exact=True, strategy=strategy, at_least="0-12")
    axes = [c for c in dist.columns if c not in distribution.COLUMNS]
    got = cells(dist, axes)
    assert len(got) == len(table)
    for row in table.itertuples(index=False):
        rows = got[tuple(getattr(row, a) for a in axes)]
        check_cell(rows, rows[0][4])
        for n in range(13):
            assert getattr(row, f"p_at_least_{n}") == sum(e for s, e, *_ in rows if s >= n)
    none = module.distribution_table(*grid, exact=True, strategy="none")
    assert none.equals(module.distribution_table(*grid, exact=True))


@pytest.mark.parametrize(
    "argv",
    [
        ["v5", "--pool", "1-3", "--hunger", "1", "--difficulty", "2"],
        ["table", "v5-official", "--pool", "1-3", "--hunger", "1", "--difficulty", "2"],
    ],
)
def test_a_pivot_of_success_counts_shows_an_unreachable_count_as_zero(capsys, argv):
    """Pool 1 cannot roll 2 successes: its pivot cell is the exact 0 (and 1 for at least 0), never blank."""
    for value in ("p_exactly", "p_at_least", "p_more"):
        code, out, err = run_cli(
            capsys,
            *argv,
            "--distribution",
            "--pivot",
            "successes x pool",
            "--value",
            value,
            "--exact",
            "--format",
            "csv",
        )
        assert code == 0, err
        assert "nan" not in out.lower()
        rows = list(csv.DictReader(io.StringIO(out)))
        assert [int(r["successes"]) for r in rows] == list(range(0, 6))
        for pool in (1, 2, 3):
            brute = v5_brute(pool, 1)
            for r in rows:
                s = int(r["successes"])
                want = {
                    "p_exactly": brute.get(s, Fraction(0)),
                    "p_at_least": sum((p for k, p in brute.items() if k >= s), Fraction(0)),
                    "p_more": sum((p for k, p in brute.items() if k > s), Fraction(0)),
                }[value]
                assert Fraction(r[f"pool={pool}"]) == want, (value, pool, s)


def test_complete_keeps_the_table_and_fills_exact_zeros():
    df = v5.distribution_table("1-2", 0, 1, exact=True)
    full = distribution.complete(df, ["pool", "hunger", "difficulty"])
    assert len(full) == 2 * (int(df.successes.max()) + 1)
    kept = full.merge(df, on=list(df.columns[:4]), suffixes=("", "_was"))
    assert len(kept) == len(df) and (kept.p_exactly == kept.p_exactly_was).all()
    pool1 = full[full.pool == 1]
    assert pool1.successes.tolist() == list(range(int(df.successes.max()) + 1))
    assert all(p == 0 and isinstance(p, Fraction) for p in pool1.p_exactly[pool1.successes > 1])


def test_a_chance_that_is_not_0_never_reads_0_percent(capsys):
    """--distribution --percent: a count whose chance is not 0 but rounds to it reads <0.01% (an exact 0
    still 0.00%), as the page shows it; the cells are the exact table's."""
    from tests.conftest import run_cli

    argv = ["v5", "--pool", "10", "--hunger", "2", "--difficulty", "3", "--distribution"]
    code, out, err = run_cli(capsys, *argv, "--percent")
    assert code == 0, err
    code, exact, err = run_cli(capsys, *argv, "--exact", "--format", "csv")
    assert code == 0, err
    shown = [line.split() for line in out.splitlines()[1:]]
    rows = [line.split(",") for line in exact.splitlines()]
    head = rows[0]
    for cells, row in zip(shown, rows[1:]):
        for name, text in zip(head[4:7], cells[4:7]):
            value = Fraction(row[head.index(name)])
            if value == 0:
                assert text == "0.00%", (cells, name)
            elif value * 100 < Fraction(1, 200):
                assert text == "<0.01%", (cells, name)
            else:
                assert text != "0.00%" and text.endswith("%"), (cells, name)
    assert any(c == "<0.01%" for cells in shown for c in cells)
