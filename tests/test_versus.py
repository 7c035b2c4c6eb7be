"""`beastodds versus` and `analysis.versus.against_v5.versus`: La Soif and ten-card tests against V5.

Every cell is checked against values counted apart: V5 and La Soif rolls by
brute force over every ordered roll (tests/oracles.py, tests/oracles_beast.py),
card tests over every ordered draw (tests/oracles_cards.py); the chance
pairing's pick by a plain minimum over every candidate.
"""

import csv
import io
import json
from fractions import Fraction
from functools import lru_cache

import pytest

from analysis.versus import cards_v5
from analysis.systems.requiem import beast
from analysis.systems.v5 import roll as v5
from analysis.versus.against_v5 import CHANCE_CARD_DIFFICULTY, KEYS, SEARCH_TOP, VALUES, versus
from tests import oracles, oracles_beast, oracles_cards
from tests.conftest import refused, run_cli


@lru_cache(maxsize=None)
def v5_brute(pool, hunger, difficulty):
    c = oracles.brute_force_v5(pool, hunger, difficulty)
    return {
        "win": c["plain_win"] + c["critical_win"] + c["messy_critical"],
        "bestial": c["bestial_failure"],
        "messy": c["messy_critical"],
    }


@lru_cache(maxsize=None)
def soif_brute(pool, soif):
    o = oracles_beast.brute_force(pool, soif)
    return {"win": o["p_success"], "bestial": o["classes"]["bestial_failure"], "beastly": o["p_beastly_critical"]}


@lru_cache(maxsize=None)
def card_brute(base, difficulty, hunger):
    c = oracles_cards.brute_static(base, difficulty, hunger)
    return {
        "win": c["success"] + c["bestial_success"],
        "bestial": c["bestial_failure"],
        "bestial_success": c["bestial_success"],
    }


def check_answer(row, other_win, other_bestial):
    assert row["win_difference"] == other_win - row["v5_win"]
    assert row["bestial_difference"] == other_bestial - row["v5_bestial_failure"]
    if row["v5_bestial_failure"] == 0:
        assert row["bestial_ratio"] is None
    else:
        assert row["bestial_ratio"] == other_bestial / row["v5_bestial_failure"]


def records(df):
    return df.to_dict(orient="records")


def rows(capsys, *argv):
    code, out, err = run_cli(capsys, "versus", *argv, "--format", "csv", "--exact")
    assert code == 0, err
    return list(csv.DictReader(io.StringIO(out)))


# ------------------------------------------------------------------ every cell, exactly


def test_la_soif_by_rating_every_cell_against_brute_force():
    df = versus("requiem", "v5", difficulty="0-3", pairing="rating", pool="1-3", hunger="0-4", exact=True)
    assert list(df.columns) == list(KEYS[("requiem", "rating")] + VALUES["requiem"])
    assert len(df) == 4 * 3 * 5
    for row in records(df):
        p, h, d = row["pool"], row["hunger"], row["difficulty"]
        assert (row["la_soif_pool"], row["soif"]) == (p, h)
        want, la = v5_brute(p, h, d), soif_brute(p, h)
        assert (row["v5_win"], row["v5_bestial_failure"], row["v5_messy_critical"]) == (
            want["win"],
            want["bestial"],
            want["messy"],
        )
        assert (row["la_soif_success"], row["la_soif_bestial_failure"], row["la_soif_beastly_critical"]) == (
            la["win"],
            la["bestial"],
            la["beastly"],
        )
        check_answer(row, la["win"], la["bestial"])


def test_la_soif_by_chance_picks_the_nearest_pool_of_all_searched():
    df = versus("requiem", "v5", difficulty="0-4", pairing="chance", pool="0-7", hunger="0-3", exact=True)
    searched = beast.table(range(1, SEARCH_TOP + 1), range(0, 4), exact=True)
    chances = {(int(r.pool), int(r.soif)): r for r in searched.itertuples(index=False)}
    for row in records(df):
        p, h, d = row["pool"], row["hunger"], row["difficulty"]
        fifth = v5.odds(p, h, d)
        assert row["v5_win"] == fifth.p_win
        # the plain rule, over every pool searched: nearest, then the lower chance, then the smaller pool
        want = min(
            range(1, SEARCH_TOP + 1),
            key=lambda n: (abs(chances[(n, h)].p_success - fifth.p_win), chances[(n, h)].p_success, n),
        )
        assert (row["la_soif_pool"], row["soif"]) == (want, h)
        la = beast.odds(want, h)
        assert (row["la_soif_success"], row["la_soif_bestial_failure"], row["la_soif_beastly_critical"]) == (
            la.p_success,
            la.bestial_failure,
            la.p_beastly_critical,
        )
        assert (row["v5_bestial_failure"], row["v5_messy_critical"]) == (
            fifth.classes()["bestial_failure"],
            fifth.classes()["messy_critical"],
        )
        check_answer(row, la.p_success, la.bestial_failure)
    # small pools, where brute force reaches: the La Soif side too
    for row in records(df[df.la_soif_pool <= 3]):
        la = soif_brute(row["la_soif_pool"], row["soif"])
        assert (row["la_soif_success"], row["la_soif_bestial_failure"]) == (la["win"], la["bestial"])


def test_cards_by_rating_every_cell_against_brute_force():
    df = versus(
        "cards",
        "v5",
        difficulty="1-3",
        pairing="rating",
        attribute="1-2",
        skill="0-2",
        hunger="0-2",
        card_difficulty="9,12",
        exact=True,
    )
    assert list(df.columns) == list(KEYS[("cards", "rating")] + VALUES["cards"])
    assert len(df) == 2 * 3 * 3 * 3 * 2
    for row in records(df):
        a, s, h, d, cd = (row[k] for k in ("attribute", "skill", "hunger", "difficulty", "card_difficulty"))
        assert (row["pool"], row["card_base"]) == (a + s, a + 2 * s)
        want, card = v5_brute(a + s, h, d), card_brute(a + 2 * s, cd, h)
        assert (row["v5_win"], row["v5_bestial_failure"], row["v5_messy_critical"]) == (
            want["win"],
            want["bestial"],
            want["messy"],
        )
        assert (row["card_win"], row["card_bestial_failure"], row["card_bestial_success"]) == (
            card["win"],
            card["bestial"],
            card["bestial_success"],
        )
        check_answer(row, card["win"], card["bestial"])


def test_cards_by_chance_is_nearest_card_test_and_compare_v5():
    df = versus(
        "cards",
        "v5",
        difficulty="0-4",
        pairing="chance",
        pool="0-8",
        hunger="0-2",
        card_difficulty="5,12,20",
        exact=True,
    )
    for row in records(df):
        p, h, d, cd = row["pool"], row["hunger"], row["difficulty"], row["card_difficulty"]
        fifth = v5.odds(p, h, d)
        assert row["v5_win"] == fifth.p_win
        assert row["card_base"] == cards_v5.nearest_card_test(fifth.p_win, cd)
        card = card_brute(row["card_base"], cd, h)
        assert (row["card_win"], row["card_bestial_failure"], row["card_bestial_success"]) == (
            card["win"],
            card["bestial"],
            card["bestial_success"],
        )
        check_answer(row, card["win"], card["bestial"])
    # the existing comparison pairs alike (its card difficulty is 12, as the chance pairing's)
    old = cards_v5.compare_v5("0-8", "1-4", "0-2", exact=True).set_index(["pool", "difficulty", "hunger"])
    new = versus("cards", "v5", difficulty="1-4", pairing="chance", pool="0-8", hunger="0-2", exact=True)
    assert set(new.card_difficulty) == {CHANCE_CARD_DIFFICULTY}
    for row in records(new):
        o = old.loc[(row["pool"], row["difficulty"], row["hunger"])]
        for col in (
            "v5_win",
            "card_base",
            "card_win",
            "v5_messy_critical",
            "v5_bestial_failure",
            "card_bestial_success",
            "card_bestial_failure",
        ):
            assert row[col] == o[col], col


def test_floats_are_the_exact_fractions_rounded_once():
    for side, kw in (
        ("requiem", {"pool": "1-4", "pairing": "rating"}),
        ("requiem", {"pool": "0-4", "pairing": "chance"}),
        ("cards", {"attribute": 2, "skill": "0-2", "pairing": "rating", "card_difficulty": 11}),
        ("cards", {"pool": "0-4", "pairing": "chance"}),
    ):
        exact = versus(side, "v5", difficulty="1-3", hunger="0-2", exact=True, **kw)
        floats = versus(side, "v5", difficulty="1-3", hunger="0-2", **kw)
        for col in VALUES[side]:
            for x, f in zip(exact[col], floats[col]):
                assert (f != f) if x is None else (f == float(x) and isinstance(f, float)), col
        for key in exact.attrs["keys"]:
            assert list(exact[key]) == list(floats[key])


def test_house_rules_on_both_sides():
    df = versus(
        "requiem-9-again",
        "v5-two-hunger-ones-for-bestial",
        difficulty=2,
        pairing="rating",
        pool="2-4",
        hunger="1-3",
        exact=True,
    )
    soif_rules = beast.BeastRules(again=9)
    v5_rules = v5.V5Rules(bestial_hunger_ones=2)
    for row in records(df):
        la = beast.odds(row["pool"], row["soif"], soif_rules)
        fifth = v5.odds(row["pool"], row["hunger"], 2, v5_rules)
        assert (row["la_soif_success"], row["la_soif_bestial_failure"]) == (la.p_success, la.bestial_failure)
        assert (row["v5_win"], row["v5_bestial_failure"]) == (fifth.p_win, fifth.classes()["bestial_failure"])
    a, b = df.attrs["rule_sets"]
    assert (a.name, b.name) == ("requiem-9-again", "v5-two-hunger-ones-for-bestial")


def test_set_a_and_set_b_change_each_side(capsys):
    argv = ["--difficulty", "2", "--pairing", "rating", "--pool", "2-4", "--hunger", "1-3"]
    shipped = rows(capsys, "requiem-9-again", "v5-two-hunger-ones-for-bestial", *argv)
    changed = rows(capsys, "requiem", "v5", "--set-a", "again=9", "--set-b", "bestial_hunger_ones=2", *argv)
    assert [r["rule_set_a"] for r in changed] == ["requiem-la-soif-custom"] * len(changed)
    assert [r["rule_set_b"] for r in changed] == ["v5-official-custom"] * len(changed)
    drop = ("rule_set_a", "rule_set_b")
    assert [{k: v for k, v in r.items() if k not in drop} for r in changed] == [
        {k: v for k, v in r.items() if k not in drop} for r in shipped
    ]
    plain = rows(capsys, "requiem", "v5", *argv)
    assert [r["v5_bestial_failure"] for r in plain] != [r["v5_bestial_failure"] for r in changed]


# ------------------------------------------------------------------ the claim


def test_the_v5_difficulty_decides_which_system_is_harsher():
    """At pool 5, Hunger (and Soif) 2: La Soif gives about four times V5's bestial failures at V5
    Difficulty 1; at Difficulty 3, V5 gives about three times La Soif's."""
    df = versus("requiem", "v5", difficulty="1,3", pairing="rating", pool=5, hunger=2, exact=True)
    at = {row["difficulty"]: row for row in records(df)}
    la = soif_brute(5, 2)["bestial"]
    assert at[1]["la_soif_bestial_failure"] == at[3]["la_soif_bestial_failure"] == la == Fraction(4459, 100000)
    assert at[1]["v5_bestial_failure"] == v5_brute(5, 2, 1)["bestial"] == Fraction(9, 800)
    assert at[1]["bestial_ratio"] == Fraction(35672, 9000) and 3.9 < at[1]["bestial_ratio"] < 4
    assert at[3]["v5_bestial_failure"] == v5_brute(5, 2, 3)["bestial"]
    assert at[3]["bestial_ratio"] < Fraction(1, 2) and at[3]["bestial_difference"] < 0
    # at Difficulty 1, every pool from 2 to 8 at every level from 1 to 3: La Soif harsher (1.4 times or more);
    # at Difficulty 3: V5 harsher
    grid = versus("requiem", "v5", difficulty="1,3", pairing="rating", pool="2-8", hunger="1-3", exact=True)
    for row in records(grid):
        if row["difficulty"] == 1:
            assert row["bestial_ratio"] >= Fraction(7, 5)
        else:
            assert row["bestial_ratio"] < 1


# ------------------------------------------------------------------ the command line


@pytest.mark.parametrize(
    "argv, first, paired",
    [
        (
            ["requiem", "v5", "--difficulty", "3", "--pairing", "rating", "--pool", "5", "--hunger", "2"],
            "requiem-la-soif versus v5-official",
            "Paired: V5 Difficulty 3; equal rating: La Soif pool = V5 pool, Soif = Hunger "
            "(La Soif succeeds on one success).",
        ),
        (
            ["requiem", "v5", "--difficulty", "1-2", "--pairing", "chance", "--pool", "5", "--hunger", "2"],
            "requiem-la-soif versus v5-official",
            f"Paired: V5 Difficulty 1,2; equal chance: the La Soif pool (1-{SEARCH_TOP} searched) whose chance of "
            f"success is nearest V5's chance to win, Soif = Hunger.",
        ),
        (
            [
                "cards",
                "v5",
                "--difficulty",
                "2",
                "--pairing",
                "rating",
                "--attribute",
                "3",
                "--skill",
                "2",
                "--hunger",
                "1",
                "--card-difficulty",
                "12",
            ],
            "cards-official versus v5-official",
            "Paired: V5 Difficulty 2 with card difficulty 12; equal rating: the same attribute and skill "
            "(V5 pool = attribute + skill, card base = attribute + 2 x skill), card Hunger = V5 Hunger.",
        ),
        (
            ["cards", "v5", "--difficulty", "2", "--pairing", "chance", "--pool", "5", "--hunger", "1"],
            "cards-official versus v5-official",
            "Paired: V5 Difficulty 2; equal chance: the card base whose chance to win against card difficulty 12 "
            "is nearest V5's chance to win (the card difficulty shifts the base, not the chances), card Hunger = "
            "V5 Hunger.",
        ),
    ],
    ids=["soif-rating", "soif-chance", "cards-rating", "cards-chance"],
)
def test_the_output_starts_with_what_was_paired(capsys, argv, first, paired):
    code, out, err = run_cli(capsys, "versus", *argv)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[:2] == [first, paired]
    assert "bestial_ratio" in lines[2]
    # every export says it too: a column in CSV and JSON, a line above the table elsewhere
    for row in rows(capsys, *argv):
        assert row["paired"] == paired and row["rule_set_b"] == "v5-official"
    code, out, _ = run_cli(capsys, "versus", *argv, "--format", "json")
    assert json.loads(out)[0]["paired"] == paired
    for fmt in ("markdown", "html", "latex"):
        code, out, _ = run_cli(capsys, "versus", *argv, "--format", fmt)
        assert code == 0 and "Paired: V5 Difficulty" in out.splitlines()[0]


def test_the_command_prints_the_api_values(capsys):
    argv = ["requiem", "v5", "--difficulty", "1-3", "--pairing", "chance", "--pool", "0-6", "--hunger", "0-3"]
    got = rows(capsys, *argv)
    want = versus("requiem", "v5", difficulty="1-3", pairing="chance", pool="0-6", hunger="0-3", exact=True)
    assert len(got) == len(want)
    for g, w in zip(got, records(want)):
        for col in KEYS[("requiem", "chance")]:
            assert int(g[col]) == w[col]
        for col in VALUES["requiem"]:
            assert (g[col] == "") if w[col] is None else Fraction(g[col]) == w[col], col
    got = rows(
        capsys,
        "cards",
        "v5",
        "--difficulty",
        "2",
        "--pairing",
        "rating",
        "--attribute",
        "2-3",
        "--skill",
        "0-3",
        "--hunger",
        "0-1",
        "--card-difficulty",
        "10-12",
    )
    want = versus(
        "cards",
        "v5",
        difficulty=2,
        pairing="rating",
        attribute="2-3",
        skill="0-3",
        hunger="0-1",
        card_difficulty="10-12",
        exact=True,
    )
    for g, w in zip(got, records(want)):
        for col in VALUES["cards"]:
            assert (g[col] == "") if w[col] is None else Fraction(g[col]) == w[col], col


def test_display_options(capsys):
    base = ["versus", "requiem", "v5", "--difficulty", "1", "--pairing", "rating", "--pool", "5", "--hunger", "0-2"]
    code, out, _ = run_cli(capsys, *base, "--percent")
    lines = out.splitlines()
    assert code == 0
    header, no_hunger, hunger_2 = lines[2].split(), lines[3].split(), lines[5].split()
    at = header.index("bestial_ratio")
    assert no_hunger[at] == "-"  # V5 never fails bestially at Hunger 0: no ratio
    assert hunger_2[at] == "3.96"  # a ratio is not a percentage
    assert hunger_2[header.index("v5_win")] == "96.88%"
    code, out, _ = run_cli(capsys, *base, "--columns", "bestial_ratio", "--digits", "6")
    assert out.splitlines()[2].split() == ["pool", "hunger", "difficulty", "la_soif_pool", "soif", "bestial_ratio"]
    assert out.splitlines()[5].split()[-1] == "3.963556"
    # a pivot leaves out the keys the axes decide, and says so
    code, out, _ = run_cli(
        capsys,
        "versus",
        "cards",
        "v5",
        "--difficulty",
        "2",
        "--pairing",
        "rating",
        "--attribute",
        "2-3",
        "--skill",
        "0-2",
        "--hunger",
        "1",
        "--card-difficulty",
        "12",
        "--pivot",
        "attribute x skill",
        "--value",
        "win_difference",
        "--exact",
    )
    assert code == 0
    lines = out.splitlines()
    assert "(pool left out: attribute and skill decide it)" in lines
    assert lines[-3].split() == ["attribute", "skill=0", "skill=1", "skill=2"]
    want = versus(
        "cards",
        "v5",
        difficulty=2,
        pairing="rating",
        attribute=2,
        skill="0-2",
        hunger=1,
        card_difficulty=12,
        exact=True,
    )
    assert lines[-2].split()[1:] == [str(v) for v in want.win_difference]


def test_a_spreadsheet_and_a_file(capsys, tmp_path):
    import openpyxl

    out = tmp_path / "versus.xlsx"
    code, _, err = run_cli(
        capsys,
        "versus",
        "requiem",
        "v5",
        "--difficulty",
        "1",
        "--pairing",
        "rating",
        "--pool",
        "5",
        "--hunger",
        "0-2",
        "--format",
        "xlsx",
        "-o",
        out,
    )
    assert code == 0, err
    sheet = openpyxl.load_workbook(out)["fractions"]
    head = [c.value for c in sheet[1]]
    hunger_2 = dict(zip(head, (c.value for c in sheet[4])))
    assert hunger_2["bestial_ratio"] == "4459/1125" == str(Fraction(35672, 9000))
    assert hunger_2["paired"].startswith("Paired: V5 Difficulty 1; equal rating")
    text = tmp_path / "versus.md"
    code, _, _ = run_cli(
        capsys, "versus", "cards", "v5", "--difficulty", "2", "--pairing", "chance", "--format", "markdown", "-o", text
    )
    assert code == 0 and text.read_text().startswith("Paired: V5 Difficulty 2; equal chance")


def test_a_chance_pairing_that_runs_out_of_pools_says_so(capsys):
    code, out, err = run_cli(
        capsys, "versus", "requiem", "v5", "--difficulty", "0", "--pairing", "chance", "--pool", "3", "--hunger", "1"
    )
    assert code == 0
    assert err.strip() == (
        f"beastodds: warning: 1 row: V5's chance to win is above that of every La Soif "
        f"pool searched (1-{SEARCH_TOP}); pool {SEARCH_TOP} is given"
    )
    df = versus("requiem", "v5", difficulty=0, pairing="chance", pool=3, hunger=1)
    assert df.la_soif_pool.tolist() == [SEARCH_TOP] and len(df.attrs["notes"]) == 1


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    "argv, says",
    [
        (["requiem", "v5"], "give --difficulty N (the V5 Difficulty) and --pairing rating or chance"),
        (
            ["requiem", "v5", "--pairing", "rating"],
            "give --difficulty N, the V5 Difficulty: which system is harsher depends on it (at pool 5 and Hunger 2, "
            "La Soif has about four times V5's bestial failures at Difficulty 1, about a third of them at "
            "Difficulty 3)",
        ),
        (["cards", "v5", "--pairing", "chance"], "give --difficulty N, the V5 Difficulty: which system"),
        (
            ["requiem", "v5", "--difficulty", "3"],
            "give --pairing rating (the same character on both sides) or --pairing chance (the same chance of "
            "success): the answer depends on which",
        ),
        (
            ["cards", "v5", "--difficulty", "3", "--pairing", "rating", "--attribute", "3", "--skill", "2"],
            "--card-difficulty: give the card difficulty to set against the V5 Difficulty: the card rules set no "
            "scale that matches one, and the answer depends on it",
        ),
        (
            ["cards", "v5", "--difficulty", "3", "--pairing", "rating", "--skill", "2", "--card-difficulty", "12"],
            "--attribute: ten-card tests paired by rating need the character's attribute and skill",
        ),
    ],
    ids=["both", "difficulty", "difficulty-cards", "pairing", "card-difficulty", "attribute"],
)
def test_required_options_are_asked_for_in_one_sentence(capsys, argv, says):
    message = refused(capsys, "versus", *argv)
    assert message.startswith(says)


@pytest.mark.parametrize(
    "argv, says",
    [
        (
            ["v5", "requiem"],
            "give V5 second: versus sets La Soif (requiem) against V5, so the differences read "
            "La Soif minus V5 (beastodds versus requiem-la-soif v5-official)",
        ),
        (
            ["werewolf", "v5"],
            "versus compares La Soif (requiem) or ten-card tests (cards) with V5 (v5), got "
            "werewolf-official (a werewolf rule set) and v5-official (a v5 rule set)",
        ),
        (["requiem", "cards"], "versus compares La Soif (requiem) or ten-card tests (cards) with V5 (v5), got"),
        (["v5", "v5-official"], "versus compares La Soif (requiem) or ten-card tests (cards) with V5 (v5), got"),
        (["soif", "v5"], "'soif' is no system nor rule set; versus compares"),
        (["missing.toml", "v5"], "missing.toml: no such rule-set file"),
        (
            ["requiem", "v5", "--pairing", "nearest"],
            "--pairing must be rating (the same character on both "
            "sides) or chance (the same chance of success), got 'nearest'",
        ),
        (["requiem", "v5", "--pool", "-2"], "--pool: '-2' is not a whole number >= 0"),
        (["requiem", "v5", "--pool", "0"], "--pool must be 1..200, got 0"),
        (["requiem", "v5", "--pairing", "chance", "--pool", "1001"], "--pool must be 0..1000, got 1001"),
        (["requiem", "v5", "--hunger", "6"], "--hunger must be 0..5, got 6"),
        (["requiem", "v5", "--difficulty", "-1"], "--difficulty: '-1' is not a whole number >= 0"),
        (
            ["requiem", "v5", "--card-difficulty", "12"],
            "--card-difficulty goes with ten-card tests; La Soif is paired by pool and Hunger",
        ),
        (["requiem", "v5", "--attribute", "3"], "--attribute goes with ten-card tests"),
        (
            ["cards", "v5", "--attribute", "3", "--skill", "1", "--card-difficulty", "12", "--pool", "4"],
            "--pool: ten-card tests paired by rating take attribute and skill",
        ),
        (["cards", "v5", "--pairing", "chance", "--skill", "2"], "--skill goes with the rating pairing"),
        (["cards", "v5", "--pairing", "chance", "--card-difficulty", "-3"], "--card-difficulty: '-3' is not"),
        (
            ["cards", "v5", "--pairing", "chance", "--pool", "1-1000", "--difficulty", "1-20"],
            "this comparison has 120,000 cells (limit 100,000); narrow a SPEC (--pool has 1,000 values)",
        ),
        (["requiem", "v5", "--set-b", "crit_bonus=-1"], "--set: crit_bonus must be"),
        (["requiem", "v5", "--exact", "--percent"], "--exact and --percent cannot be combined"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else None,
)
def test_bad_input_is_one_sentence(capsys, argv, says):
    argv = list(argv)
    if "--difficulty" not in argv:
        argv += ["--difficulty", "2"]
    if "--pairing" not in argv:
        argv += ["--pairing", "rating"]
    message = refused(capsys, "versus", *argv)
    assert message.startswith(says), message


def test_the_api_refuses_alike():
    with pytest.raises(TypeError):
        versus("requiem", "v5", pairing="rating")  # the V5 Difficulty has no default
    with pytest.raises(TypeError):
        versus("requiem", "v5", difficulty=2)  # nor the pairing
    with pytest.raises(ValueError, match="^pairing must be rating"):
        versus("requiem", "v5", difficulty=2, pairing=None)
    with pytest.raises(ValueError, match="^pool must be 1..200, got 0"):
        versus("requiem", "v5", difficulty=2, pairing="rating", pool=0)
    with pytest.raises(ValueError, match="^give V5 second"):
        versus(v5.OFFICIAL, beast.OFFICIAL, difficulty=2, pairing="rating")


def test_the_docstring_example():
    import doctest

    import analysis.versus.against_v5

    result = doctest.testmod(analysis.versus.against_v5)
    assert result.attempted >= 2 and result.failed == 0
