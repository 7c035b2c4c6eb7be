"""At-least-N columns (``at_least=`` / ``--at-least``): exact against brute-force enumeration of small pools."""

from collections import Counter
from fractions import Fraction

import pytest

from analysis.engine import at_least
from analysis.systems.classic import pools as classic
from analysis.systems.hunter import desperation as hunter
from analysis.systems.requiem import beast
from analysis.systems.v5 import roll as v5
from analysis.systems.werewolf import rage as werewolf
from tests import oracles, oracles_beast, oracles_classic, oracles_special

NS = "0-9"


def _at_least(dist: dict, n: int) -> Fraction:
    return sum((p for s, p in dist.items() if s >= n), Fraction(0))


def _columns(df):
    return [at_least.column(n) for n in range(10)]


def test_v5_against_brute_force():
    df = v5.table("0-4", "0,2,5", "1,3", exact=True, at_least=NS)
    assert list(df.columns[-10:]) == _columns(df)
    for row in df.itertuples():
        dist = oracles.brute_force_successes(row.pool, row.hunger)
        for n in range(10):
            assert getattr(row, f"p_at_least_{n}") == _at_least(dist, n), (row, n)
    assert (df.p_at_least_0 == 1).all()
    # at least the Difficulty is the chance to win under the official rules
    assert all(getattr(r, f"p_at_least_{r.difficulty}") == r.p_win for r in df.itertuples())


def test_v5_with_a_strategy_matches_its_odds():
    df = v5.table(4, 2, 3, strategy="none,maximize_win", exact=True, at_least="3,5")
    for row in df.itertuples():
        o = v5.odds(4, 2, 3, strategy=None if row.strategy == "none" else row.strategy)
        assert (row.p_at_least_3, row.p_at_least_5) == (_at_least(o.successes, 3), _at_least(o.successes, 5))


def _special_dist(normal, special, mark_top, bonus=lambda succ, marks: 0):
    dist = Counter()
    for (succ, tens, marks), n in oracles_special._features(normal, special, 6, 2, mark_top).items():
        dist[succ + bonus(succ, marks)] += n
    total = 10 ** (normal + special)
    return {s: Fraction(n, total) for s, n in dist.items()}


@pytest.mark.parametrize("violent", [0, 1])
def test_werewolf_against_brute_force(violent):
    df = werewolf.table("1-4", "0,2,3", 2, violent, exact=True, at_least=NS)
    for row in df.itertuples():
        r = min(row.rage, row.pool)
        dist = _special_dist(row.pool - r, r, 2, lambda succ, marks: 4 if violent and marks >= 2 else 0)
        for n in range(10):
            assert getattr(row, f"p_at_least_{n}") == _at_least(dist, n), (row, n)


def test_hunter_against_brute_force():
    df = hunter.table("1-3", "0,2", 2, exact=True, at_least=NS)
    for row in df.itertuples():
        dist = _special_dist(row.pool, row.desperation, 1)
        for n in range(10):
            assert getattr(row, f"p_at_least_{n}") == _at_least(dist, n), (row, n)


def test_classic_against_brute_force():
    df = classic.table("0-4", "4,6,9", exact=True, at_least="1-5")
    for row in df.itertuples():
        counts = oracles_classic.brute_successes(row.pool, row.difficulty)
        dist = {s: Fraction(c, 10**row.pool) for s, c in counts.items()}
        for n in range(1, 6):
            assert getattr(row, f"p_at_least_{n}") == _at_least({max(s, 0): p for s, p in dist.items()}, n)
        assert row.p_at_least_1 == row.success


def test_la_soif_against_brute_force():
    df = beast.table("0-3", "0,2", exact=True, at_least="1-6")
    for row in df.itertuples():
        want = oracles_beast.brute_force(row.pool, row.soif, depth=8)
        dist = want["successes"]
        for n in range(1, 7):
            assert getattr(row, f"p_at_least_{n}") == 1 - sum(dist.get(s, 0) for s in range(n)), (row, n)
        assert row.p_at_least_1 == row.p_success
        assert row.p_at_least_5 == row.exceptional_success


def test_floats_are_the_exact_values_rounded():
    exact = v5.table("3-6", 2, 2, exact=True, at_least="2-4")
    floats = v5.table("3-6", 2, 2, at_least="2-4")
    for c in ("p_at_least_2", "p_at_least_3", "p_at_least_4"):
        assert list(floats[c]) == [float(x) for x in exact[c]]


def test_bad_at_least_is_refused(capsys):
    with pytest.raises(ValueError, match="at_least"):
        v5.table(3, 0, 1, at_least="-1")
    from analysis import cli

    assert cli.main(["hunter", "--pool", "3", "--at-least", "x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("beastodds: error:") and "Traceback" not in err


def test_cli_at_least_columns(capsys):
    from analysis import cli

    assert (
        cli.main(["classic", "--pool", "2", "--difficulty", "6", "--at-least", "1,2", "--format", "csv", "--exact"])
        == 0
    )
    header, row = capsys.readouterr().out.strip().splitlines()
    assert header.endswith(",p_at_least_1,p_at_least_2,rule_set")
    o = classic.odds(2, 6)
    assert row.split(",")[-3:-1] == [str(_at_least(o.successes, 1)), str(_at_least(o.successes, 2))]


def test_at_least_does_not_go_with_a_distribution(capsys):
    from analysis import cli

    assert cli.main(["beast", "--pool", "3", "--distribution", "3", "--at-least", "2"]) == 2
    assert "--at-least" in capsys.readouterr().err
