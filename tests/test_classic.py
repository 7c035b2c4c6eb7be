"""Classic (V20-style) pools: exact counts against brute force, the exact path, the table and CLI."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from analysis.cli import main
from analysis.engine.exact import INT64_MAX, primes_for
from analysis.systems.classic import health, pools as classic
from kernels import classic as k

from tests.oracles_classic import brute_pool, brute_successes, multinomial_pool


@given(pool=st.integers(0, 4), difficulty=st.integers(2, 10), specialty=st.booleans(), ones_cancel=st.booleans())
def test_odds_match_brute_force(pool, difficulty, specialty, ones_cancel):
    rules = classic.ClassicRules(ones_cancel=ones_cancel)
    o = classic.odds(pool, difficulty, specialty, rules)
    expected, mean = brute_pool(pool, difficulty, specialty, ones_cancel)
    assert o.classes() == expected
    assert o.mean_successes == mean
    assert sum(o.classes().values()) == 1
    succ = brute_successes(pool, difficulty, specialty, ones_cancel)
    assert o.successes == {s: Fraction(n, 10**pool) for s, n in succ.items()}


@pytest.mark.parametrize("difficulty", [2, 6, 10])
def test_five_dice_match_brute_force(difficulty):
    o = classic.odds(5, difficulty, specialty=True)
    expected, mean = brute_pool(5, difficulty, True, True)
    assert o.classes() == expected and o.mean_successes == mean


def test_botch_is_no_success_and_a_one():
    # docs/rules.md: botch = no success rolled and at least one 1 (9**n - 8**n rolls at difficulty 10)
    for n in range(6):
        assert classic.odds(n, 10).botch == Fraction(9**n - 8**n, 10**n)


def test_pool_zero_always_fails():
    o = classic.odds(0, 6)
    assert (o.botch, o.failure, o.success, o.mean_successes) == (0, 1, 0, 0)


@pytest.mark.parametrize("pool", [18, 19, 25, 40])
def test_big_pools_take_the_exact_path(pool):
    # 10**19 > 2**63: the counts are rebuilt from primes, never overflowed
    o = classic.odds(pool, 7, specialty=True)
    ways = multinomial_pool(pool, 7, True, True)
    assert o.class_ways == {name: ways[name] for name in classic.CLASSES}
    assert sum(o.class_ways.values()) == 10**pool
    assert (10**pool > INT64_MAX) == (pool >= 19)


def test_modular_kernel_agrees_with_int64():
    faces, values = classic.die(6, True, True)
    exact, _ = health.sum_rows(12, faces, values, 0)
    for p in primes_for(10**30)[:2]:
        rows, _ = health.sum_rows(12, faces, values, p)
        assert np.array_equal(rows, exact % p)


def test_seed_soak_roll_reads_as_a_failure():
    # the classic health rules: Kincaid's soak 4,5,1,9,3 fails because the 1 cancels the 9
    r = classic.read_pool([4, 5, 1, 9, 3], 6)
    assert (r.marks["success"] + r.marks["ten"], r.marks["one"], r.successes, r.outcome) == (1, 1, 0, "failure")
    assert (r.difficulty, r.net_successes, r.won) == (6, 0, False)
    assert classic.read_pool([3, 8], 6).successes == 1
    assert classic.read_pool([1, 2, 3], 6).outcome == "botch"
    assert classic.read_pool([10, 1], 6, specialty=True).successes == 1
    assert classic.read_pool([9, 1], 6, rules=classic.ClassicRules(ones_cancel=False)).successes == 1


def test_table_columns_and_exact_values():
    df = classic.table("1-3", "6,8", exact=True)
    assert tuple(df.columns) == classic.TABLE_COLUMNS
    assert list(zip(df.pool, df.difficulty)) == [(1, 6), (1, 8), (2, 6), (2, 8), (3, 6), (3, 8)]
    for row in df.itertuples():
        o = classic.odds(row.pool, row.difficulty)
        assert (row.botch, row.failure, row.success, row.mean_successes) == (
            o.botch,
            o.failure,
            o.success,
            o.mean_successes,
        )
        assert row.botch + row.failure + row.success == 1
        assert "p_success" not in df.columns  # success is already the chance to succeed
    floats = classic.table("1-3", "6,8")
    assert np.allclose(floats.success.to_numpy(), [float(x) for x in df.success])


@pytest.mark.parametrize("pools", [[18], [17, 18, 19], [2, 60]])
def test_table_near_and_past_int64_matches_odds(pools):
    # at 18 dice the ways fit int64 but the summed successes do not
    exact = classic.table(pools, "6,9", specialty=True, exact=True)
    floats = classic.table(pools, "6,9", specialty=True)
    for row, frow in zip(exact.itertuples(), floats.itertuples()):
        o = classic.odds(row.pool, row.difficulty, specialty=True)
        assert (row.botch, row.failure, row.success, row.mean_successes) == (
            o.botch,
            o.failure,
            o.success,
            o.mean_successes,
        )
        assert (frow.success, frow.mean_successes) == (float(o.success), float(o.mean_successes))


def test_table_with_a_big_pool_is_exact():
    df = classic.table([3, 22], 6, exact=True)
    assert df.success.iloc[1] == Fraction(multinomial_pool(22, 6)["success"], 10**22)
    assert df.success.iloc[0] == classic.odds(3, 6).success
    floats = classic.table([3, 22], 6)
    assert floats.success.iloc[1] == float(df.success.iloc[1])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: classic.odds(5, 11), "difficulty must be 2..10, got 11"),
        (lambda: classic.odds(5, 1), "difficulty must be 2..10, got 1"),
        (lambda: classic.odds(-1, 6), "pool must be 0..200, got -1"),
        (lambda: classic.odds(2.5, 6), "pool must be a whole number"),
        (lambda: classic.odds(3, 6, specialty="yes"), "specialty must be True or False"),
        (lambda: classic.table("3-1", 6), "runs backwards"),
        (lambda: classic.read_pool([0, 5]), "each face of dice must be 1..10, got 0"),
        (lambda: classic.read_pool("8,6"), "list of faces"),
        (lambda: classic.ClassicRules(ones_cancel=1), "ones_cancel must be True or False"),
    ],
)
def test_bad_input_is_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_cli_csv(capsys):
    assert main(["classic", "--pool", "1-2", "--difficulty", "6", "--format", "csv", "--exact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "pool,difficulty,botch,failure,success,mean_successes,rule_set"
    assert lines[1] == "1,6,1/10,2/5,1/2,1/2,classic-official"
    o = classic.odds(2, 6)
    assert lines[2] == f"2,6,{o.botch},{o.failure},{o.success},{o.mean_successes},classic-official"


def test_cli_specialty_and_percent(capsys):
    assert main(["classic", "--pool", "3", "--specialty", "--format", "csv"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split(",")
    o = classic.odds(3, 6, specialty=True)
    assert float(row[4]) == float(o.success) and float(row[5]) == float(o.mean_successes)
    assert main(["classic", "--pool", "3", "--percent", "--format", "json"]) == 0
    assert '"mean_successes": 1.29' in capsys.readouterr().out  # a mean is never a percentage


@pytest.mark.parametrize(
    "argv, message",
    [
        (["classic", "--pool", "5", "--difficulty", "11"], "difficulty must be 2..10, got 11"),
        (["classic", "--pool", "x"], "pool: 'x' is not a whole number"),
        (["classic", "--pool", "201"], "pool must be 0..200, got 201"),
    ],
)
def test_cli_bad_input_exits_2_with_one_sentence(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.slow
def test_kernels_can_be_called_from_a_users_njit_code():
    import numba

    @numba.njit
    def success_ways_of_three_dice(faces, values):
        rows = np.zeros((4, 3 * 2 + 1), dtype=np.int64)
        k.classic_sum_ways(faces, values, 0, rows)
        return rows[3, 3 + 1 :].sum()  # totals >= 1 (index 3 is a total of 0)

    faces, values = classic.die(6, False, True)
    assert success_ways_of_three_dice(faces, values) == classic.odds(3, 6).class_ways["success"]


def test_every_float_is_the_float_of_its_fraction():
    """Pools past 15 dice count beyond 2**53: each float is still float(Fraction), correctly rounded."""
    floats = classic.table("1-30", "2-10")
    exact = classic.table("1-30", "2-10", exact=True)
    for column in ("botch", "failure", "success", "mean_successes"):
        assert [float(x) for x in exact[column]] == list(floats[column]), column


@pytest.mark.parametrize(
    "specialty,pools", [(False, [150, 199, 200]), (True, [60]), pytest.param(True, [200], marks=pytest.mark.slow)]
)
def test_the_biggest_pools_are_exact(specialty, pools):
    """Up to 200 dice: the botch in closed form; without 1s cancelling, the success and the mean too."""
    df = classic.table(pools, "2,6,10", specialty=specialty, exact=True)
    for row in df.itertuples():
        n, d = row.pool, row.difficulty
        assert row.botch == Fraction((d - 1) ** n - (d - 2) ** n, 10**n)
        assert row.botch + row.failure + row.success == 1
    loose = classic.ClassicRules(ones_cancel=False)
    df = classic.table(pools, "2,6,10", specialty=specialty, rules=loose, exact=True)
    for row in df.itertuples():
        n, d = row.pool, row.difficulty
        assert row.success == 1 - Fraction(d - 1, 10) ** n
        assert row.mean_successes == Fraction(n * (10 - d + (2 if specialty else 1)), 10)


@pytest.mark.slow
def test_the_whole_table_to_200_dice():
    exact = classic.table("0-200", "2-10", exact=True)
    floats = classic.table("0-200", "2-10")
    assert len(exact) == 201 * 9
    assert (exact.botch + exact.failure + exact.success == 1).all()
    for column in ("botch", "failure", "success", "mean_successes"):
        assert [float(x) for x in exact[column]] == list(floats[column]), column
    for row in exact.iloc[::97].itertuples():
        assert row.botch == Fraction((row.difficulty - 1) ** row.pool - (row.difficulty - 2) ** row.pool, 10**row.pool)
