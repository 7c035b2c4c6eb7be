"""Dice that roll again or are rote, as data: exact against every chain of faces; Requiem and La Soif by file."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from analysis.engine import count as engine
from analysis.model import spec
from analysis.systems.requiem import beast, dice as requiem

ROOT = Path(__file__).resolve().parents[1]
REQUIEM = ROOT / "analysis/systems/requiem/dice.toml"
NINE_AGAIN = ROOT / "analysis/model/examples/nine-again-rerolled-ones.toml"

#: A designer's d6 file: 1s are rote, a 6 rolls again as a d8 "bonus" die whose 7 and 8 roll again (as bonus dice).
WILD = """
[mechanic]
name = "wild"
successes = "successes"
[parameters]
great = { default = 4, range = [1, 9] }
[axes]
pool = { default = "1-3", range = [0, 20] }
[kinds.plain]
dice = "pool"
sides = 6
faces = { one = "1", miss = "2 .. 3", hit = "4 .. 5", six = "6" }
again = { six = "bonus" }
rote = ["one"]
[kinds.bonus]
dice = "0"
sides = 8
faces = { miss = "1 .. 4", hit = "5 .. 6", top = "7 .. 8" }
again = ["top"]
[counts]
successes = "hit + six + top"
[[outcomes]]
name = "great"
when = "successes >= great"
win = true
[[outcomes]]
name = "pass"
when = "successes >= 1"
win = true
[[outcomes]]
name = "fail"
"""


# ------------------------------------------------------------------ the reference: every chain of faces


def _chains(mech, faces, params, k, depth, first=True):
    """Every way one die of kind ``k`` (its chain followed) lands: ``[(faces shown per kind, chance)]``
    for the chains of at most ``depth`` faces, and the chance of a longer chain.  A face stands for
    its mark (any face of a mark reads alike), each taken with the chance of its faces."""
    kind = mech.kinds[k]
    index = {x.name: i for i, x in enumerate(mech.kinds)}
    again = dict(kind.again)
    rote = dict(kind.rote_on(params)) if first else {}
    out, longer = [], Fraction(0)
    for mi, m in enumerate(kind.marks):
        n = faces[k][mi]
        if not n:
            continue
        p = Fraction(n, kind.sides)
        face = _face_of(mech, params, k, m)
        if m in rote:  # the face is replaced by a fresh die of the rote kind
            got, over = _chains(mech, faces, params, index[rote[m]], depth, first=False)
            out += [(shown, p * q) for shown, q in got]
            longer += p * over
        elif m in again:
            if depth <= 1:
                longer += p
                continue
            got, over = _chains(mech, faces, params, index[again[m]], depth - 1, first=False)
            out += [(_add(shown, k, face), p * q) for shown, q in got]
            longer += p * over
        else:
            out.append((_add({}, k, face), p))
    return out, longer


def _add(shown, k, face):
    out = {i: list(v) for i, v in shown.items()}
    out.setdefault(k, []).append(face)
    return out


def _face_of(mech, params, k, mark):
    faces = spec.faces_of(mech, params)
    kind = mech.kinds[k]
    for f in range(1, kind.sides + 1):
        for m, ranges in kind.faces:
            if m == mark and any(lo.evaluate(params) <= f <= hi.evaluate(params) for lo, hi in ranges):
                return f
    raise AssertionError((mark, faces))


def brute(rules, cell, depth, longer_class):
    """Exact class chances of a cell from every combination of its dice's chains (each read by
    ``read_roll``, every face counted); combinations with a chain longer than ``depth`` are
    ``longer_class`` (the caller's file makes it certain)."""
    mech = rules.mechanic
    env = {**rules.params, **cell}
    faces = spec.faces_of(mech, env)
    dice = engine.dice_of(mech, env)
    per_die = []
    for k, n in enumerate(dice):
        got, over = _chains(mech, faces, env, k, depth)
        merged = Counter()
        for shown, p in got:
            merged[tuple((i, tuple(sorted(v))) for i, v in sorted(shown.items()))] += p
        outcomes = list(merged.items()) + ([(None, over)] if over else [])
        per_die += [outcomes] * n
    classes = Counter()
    for combo in itertools.product(*per_die):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        if any(shown is None for shown, _ in combo):
            classes[longer_class] += p
            continue
        by_kind: dict[str, list[int]] = {}
        for shown, _ in combo:
            for i, fs in shown:
                by_kind.setdefault(mech.kinds[i].name, []).extend(fs)
        classes[engine.read_roll(rules, by_kind, **cell).outcome] += p
    assert sum(classes.values()) == 1
    return {c: classes[c] for c in mech.classes}


CASES = [
    (REQUIEM, {}, range(0, 4), "exceptional_success"),
    (REQUIEM, {"again": 8}, range(0, 3), "exceptional_success"),
    (REQUIEM, {"again": 9, "rote": True}, range(0, 3), "exceptional_success"),
    (REQUIEM, {"rote": True, "rote_chance_die": True}, range(0, 2), "exceptional_success"),
    (REQUIEM, {"chance_die_again": False, "again": 11}, range(0, 3), "exceptional_success"),
    (NINE_AGAIN, {}, range(1, 4), "exceptional_success"),
    (NINE_AGAIN, {"exceptional": 2}, range(1, 3), "exceptional_success"),
    ("wild", {}, range(0, 4), "great"),
    ("wild", {"great": 2}, range(1, 3), "great"),
]


def _mechanic(source):
    return spec.from_toml(WILD, "wild.toml") if source == "wild" else spec.load(source)


@pytest.mark.parametrize("source, changes, pools, longer", CASES)
def test_classes_equal_every_chain(source, changes, pools, longer):
    mech = _mechanic(source)
    rules = spec.rules_of(mech, changes)
    # a chain longer than this many faces has at least the threshold's successes (each again face a success)
    threshold = max(v for k, v in rules.params.items() if k in ("exceptional_successes", "exceptional", "great"))
    depth = threshold + 2
    for pool in pools:
        want = brute(rules, {"pool": pool}, depth, longer)
        got = engine.odds(rules, pool=pool).classes()
        assert got == want, (source, changes, pool)


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"again": 9},
        {"again": 8},
        {"again": 11},
        {"rote": True},
        {"rote": True, "rote_chance_die": True, "again": 8},
        {"chance_die_again": False},
        {"exceptional_successes": 1},
        {"exceptional_successes": 12, "again": 9},
    ],
)
def test_requiem_api_reads_its_file(changes):
    """Requiem's own functions (a RequiemRules, ``again`` None for the file's 11) count through its file:
    every class, every success count to 30 and the tail equal the file's on the one engine, by
    ``engine.odds`` and ``engine.table`` (its other ways in).  The independent references are the brute
    force and icepool of tests/test_beast_oracle.py, and the tables of the again-dice counter of old,
    pinned in tests/test_beast_api.py."""
    rules = spec.rules_of(spec.load(REQUIEM), changes)
    own = requiem.RequiemRules(**{k: (None if k == "again" and v == 11 else v) for k, v in changes.items()})
    for pool in (0, 1, 2, 3, 5, 8, 13, 21, 30):
        got = engine.odds(rules, max_successes=30, pool=pool)
        want = requiem.odds(pool, own, max_successes=30)
        assert got.classes() == want.classes()
        assert got.successes == want.successes  # (every count to the bound, zeros kept)
        assert got.tail == want.tail
        assert got.bound == 30
    table = engine.table(rules, exact=True, pool="0-30")
    want = requiem.table(list(range(31)), own, exact=True)
    for c in requiem.CLASSES + ("p_success",):
        assert list(table[c]) == list(want[c])


def test_mean_is_exact():
    """The engine's mean of a file whose successes are a sum of marks (a linear system over the chains)
    equals La Soif's formula of the mean at Soif 0 (plain Requiem dice), worked out by hand."""
    mech = spec.load(REQUIEM)
    for changes in ({}, {"again": 8, "rote": True}, {"rote": True, "rote_chance_die": True}):
        rules = spec.rules_of(mech, changes)
        own = beast.BeastRules(**changes)
        for pool in (0, 1, 6):
            assert engine.odds(rules, pool=pool).mean_successes == beast.mean_successes(requiem._roll(pool), own)
    # 9-again with rerolled 1s: one die adds 3/10 (an 8, 9 or 10) and, on a 9 or 10, a rerolled die
    # worth x = 3/10 - 1/10 + (2/10) x, so x = 1/4: the die's mean is 3/10 + (2/10)(1/4) = 7/20
    rules = spec.rules_of(spec.load(NINE_AGAIN))
    assert engine.odds(rules, pool=2).mean_successes == Fraction(7, 10)


def test_at_least_and_distribution_tail():
    rules = spec.rules_of(spec.load(NINE_AGAIN))
    table = engine.table(rules, exact=True, pool="1-4", at_least="1-12")
    for pool in range(1, 5):
        odds = engine.odds(rules, max_successes=12, pool=pool)
        row = table[table.pool == pool].iloc[0]
        for n in range(1, 13):
            assert row[f"p_at_least_{n}"] == odds.at_least(n)
        assert odds.at_least(1) == row["p_win"]
    from analysis.engine import distribution

    dist = distribution.mechanic_table(rules, {"pool": "3"}, exact=True, max_successes=9)
    assert list(dist.successes) == list(range(10))
    assert sum(dist.p_exactly) + dist.p_more.iloc[-1] == 1
    assert dist.p_more.iloc[-1] == engine.odds(rules, max_successes=9, pool=3).tail > 0
    assert set(dist.mean_successes) == {Fraction(21, 20)}


def test_undecided_rules_are_refused():
    text = WILD.replace('when = "successes >= great"', 'when = "successes % 2 == 0"')
    rules = spec.rules_of(spec.from_toml(text, "odd.toml"))
    with pytest.raises(spec.MechanicError, match="the rule of .great. is not decided at 4096 or more successes"):
        engine.table(rules, pool="1-2")


@pytest.mark.parametrize(
    "change, message",
    [
        ('again = { six = "bonus" }', None),
        ('again = ["sixx"]', "'sixx' is not a mark of the kind \\(did you mean six\\?\\)"),
        ('again = { six = "nobody" }', "mark 'six' names 'nobody', which is not a kind"),
        ("again = 3", "must list marks of the kind, or be a table of mark = kind, got 3"),
        ('again = ["six", "six"]', "must list marks of the kind, each once"),
        ('again = { six = "bonus", one = "bonus" }', "mark 'one' also rolls again; a mark is rote or rolls again"),
    ],
)
def test_again_is_checked(change, message):
    _read_or_refused(WILD.replace('again = { six = "bonus" }', change), message)


def _read_or_refused(text, message):
    """The file is read (``message`` None) or refused with a sentence matching ``message``."""
    if message is None:
        spec.from_toml(text, "f.toml")
        return
    with pytest.raises(spec.MechanicError, match=message):
        spec.from_toml(text, "f.toml")


def test_chains_that_never_stop_and_willpower_are_refused():
    never = WILD.replace('faces = { miss = "1 .. 4", hit = "5 .. 6", top = "7 .. 8" }', 'faces = { top = "1 .. 8" }')
    rules = spec.rules_of(spec.from_toml(never.replace("hit + six + top", "six + top"), "never.toml"))
    with pytest.raises(spec.MechanicError, match="kind 'bonus' rolls again on every face .* never stop"):
        engine.odds(rules, pool=1)
    with pytest.raises(spec.MechanicError, match="rote_applies: says when the kind is rote"):
        spec.from_toml(WILD.replace('again = ["top"]', 'again = ["top"]\nrote_applies = "true"'), "w.toml")
    willpower = WILD + '\n[willpower]\ndice = 1\nkinds = ["plain"]\n'
    with pytest.raises(spec.MechanicError, match="Willpower reroll of dice that roll again or are rote"):
        spec.from_toml(willpower, "w.toml")


def test_command_line(tmp_path, capsys):
    from tests.conftest import run_cli

    code, out, err = run_cli(capsys, "table", str(NINE_AGAIN), "--pool", "2", "--exact", "--at-least", "1-2")
    assert code == 0, err
    assert "301/625" in out and "497/3125" in out
    path = tmp_path / "odd.toml"
    path.write_text(WILD.replace('when = "successes >= great"', 'when = "successes % 2 == 0"'))
    code, out, err = run_cli(capsys, "table", str(path), "--pool", "1")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"beastodds: error: {path}: with dice that roll again")


# ------------------------------------------------------------------ La Soif as a file, and columns given by when

SOIF = ROOT / "analysis/systems/requiem/soif.toml"
#: La Soif's classes and columns, as its own tables give them (after the keys pool, soif, beast_dice).
SOIF_COLUMNS = beast.TABLE_COLUMNS[3:]


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"again": 9},
        {"again": 8, "beastly_ten_successes": 3},
        {"again": 11},
        {"rote": True},
        {"rote": True, "bestial_counts_rerolled_ones": True, "rote_chance_die": True},
        {"chance_die_is_beast": False, "chance_die_again": False},
        {"exceptional_successes": 3, "again": 9, "rote": True},
    ],
)
def test_soif_file_equals_la_soif(changes):
    """La Soif written as a mechanic file (Beast dice a kind, their rerolled 10s a kind of their own,
    the beastly critical a column given by when): its table on the one engine against La Soif's own
    functions, which read each roll as a cell of the file (:meth:`BeastRules.cell`): every class and
    column, cell by cell."""
    rules = spec.rules_of(spec.load(SOIF), changes)
    own = beast.BeastRules(**{k: (None if k == "again" and v == 11 else v) for k, v in changes.items()})
    got = engine.table(rules, exact=True, pool="0-5", soif="0-3")
    want = beast.table(list(range(6)), list(range(4)), own, exact=True)
    assert list(got.pool) == list(want.pool) and list(got.soif) == list(want.soif)
    for c in SOIF_COLUMNS:
        assert list(got[c]) == list(want[c]), c


def test_soif_file_at_least_and_its_distribution():
    from analysis.engine import distribution

    rules = spec.rules_of(spec.load(SOIF))
    got = engine.table(rules, exact=True, pool="4", soif="0-3", at_least="1-8")
    want = beast.distribution_table([4], [0, 1, 2, 3], max_successes=8, exact=True)
    for soif in range(4):
        rows = want[want.soif == soif]
        for n in range(1, 9):
            assert got[got.soif == soif][f"p_at_least_{n}"].iloc[0] == rows[rows.successes == n].p_at_least.iloc[0]
    # a beastly critical's 10s count double: the successes are no sum of marks, so no exact mean; the
    # distribution is listed to its bound all the same, the tail beyond it exact, and equals La Soif's
    note = distribution.mechanic_table(rules, {"pool": "3", "soif": "1"}, max_successes=5, check_only=True)
    assert note == distribution.mean_left_out(rules.mechanic) and "not a sum of marks" in note
    got = distribution.mechanic_table(rules, {"pool": "2-4", "soif": "0-2"}, max_successes=8, exact=True)
    assert "mean_successes" not in got.columns
    want = beast.distribution_table([2, 3, 4], [0, 1, 2], max_successes=8, exact=True)
    for column in ("p_exactly", "p_at_least", "p_more"):
        assert got[column].tolist() == want[column].tolist(), column
    assert got[["pool", "soif", "successes"]].values.tolist() == want[["pool", "soif", "successes"]].values.tolist()


#: A d6 whose 6 rolls again, success on 5 and 6, the successes written as a max(0, ...) that never bites.
NOT_A_SUM = """
[mechanic]
name = "notasum"
successes = "successes"
[axes]
pool = { default = "1-4", range = [0, 20] }
[kinds.d6]
dice = "pool"
sides = 6
faces = { miss = "1 .. 4", five = "5", six = "6" }
again = ["six"]
[counts]
successes = "max(0, five + six)"
[[outcomes]]
name = "win"
when = "successes >= 1"
win = true
[[outcomes]]
name = "fail"
"""


def _exploding_d6(pool: int, top: int) -> dict:
    """``{k: P(k successes)}`` for k up to ``top`` of ``pool`` such dice, by hand: a die shows j sixes and
    then one face of 1..5, so it gives k successes with chance (1/6)^k * 4/6 + (1/6)^k for k >= 1."""
    die = {k: Fraction(1, 6) ** k * Fraction(4, 6) + (Fraction(1, 6) ** k if k else 0) for k in range(top + 1)}
    out = {0: Fraction(1)}
    for _ in range(pool):
        out = {k: sum(out.get(k - j, 0) * die[j] for j in range(k + 1) if k - j in out) for k in range(top + 1)}
    return out


def test_a_distribution_for_every_file_the_mean_where_exact(tmp_path, capsys):
    """Dice that roll again with successes that are not a plain sum of marks: every count to the bound and
    the exact tail; the mean left out with one sentence why; a sum of marks keeps its exact mean."""
    from analysis.engine import distribution
    from tests.conftest import run_cli, systems_kept

    rules = spec.rules_of(spec.from_toml(NOT_A_SUM, "notasum.toml"))
    got = distribution.mechanic_table(rules, {"pool": "1-4"}, max_successes=6, exact=True)
    assert "mean_successes" not in got.columns
    for pool in range(1, 5):
        want = _exploding_d6(pool, 6)
        rows = got[got.pool == pool]
        assert rows.successes.tolist() == list(range(7))
        assert rows.p_exactly.tolist() == [want[k] for k in range(7)]
        assert rows.p_more.iloc[-1] == 1 - sum(want.values())  # the exact tail past the bound
    path = tmp_path / "notasum.toml"
    path.write_text(NOT_A_SUM, encoding="utf-8")
    with systems_kept():
        code, out, err = run_cli(capsys, "table", path, "--pool", "2", "--distribution", "4", "--exact")
    assert code == 0 and err == "beastodds: warning: " + distribution.mean_left_out(rules.mechanic) + "\n"
    assert out.splitlines()[0].split() == ["pool", "successes", "p_exactly", "p_at_least", "p_more"]
    summed = spec.rules_of(spec.from_toml(NOT_A_SUM.replace("max(0, five + six)", "five + six"), "sum.toml"))
    assert distribution.mechanic_table(summed, {"pool": "2"}, check_only=True) is None
    means = distribution.mechanic_table(summed, {"pool": "2"}, max_successes=3, exact=True)["mean_successes"]
    assert set(means) == {2 * Fraction(2, 5)}  # a die: 1/6 + (1/6)(1 + its mean) = 2/5


FLAGGED = """
[mechanic]
name = "flagged"
successes = "hits"
[axes]
pool = { default = "1-4", range = [0, 10] }
[kinds.d6]
dice = "pool"
sides = 6
faces = { miss = "1 .. 3", hit = "4 .. 5", six = "6" }
[counts]
hits = "d6.hit + d6.six"
[[outcomes]]
name = "pass"
when = "hits >= 2"
win = true
[[outcomes]]
name = "fail"
[columns.p_six]
when = "six >= 1"
meaning = "a 6 shows"
[columns.p_two_sixes_passing]
when = "six >= 2 and hits >= 2"
"""


def test_columns_given_by_when_against_every_roll():
    rules = spec.rules_of(spec.from_toml(FLAGGED, "flagged.toml"))
    table = engine.table(rules, exact=True, pool="0-4")
    for pool in range(5):
        six = two = 0
        for roll in itertools.product(range(1, 7), repeat=pool):
            hits = sum(f >= 4 for f in roll)
            six += 6 in roll
            two += roll.count(6) >= 2 and hits >= 2
        row = table[table.pool == pool].iloc[0]
        assert row["p_six"] == Fraction(six, 6**pool)
        assert row["p_two_sixes_passing"] == Fraction(two, 6**pool)
        odds = engine.odds(rules, pool=pool)
        assert odds.probability("p_six") == row["p_six"]
    assert "p_six" in str(engine.odds(rules, pool=2))


@pytest.mark.parametrize(
    "change, message",
    [
        ('[columns.p_six]\nwhen = "six >= 1"', None),
        ('[columns.p_six]\nwhen = "six >= 1"\nsum = ["pass"]', "needs either sum .* or when"),
        (
            '[columns.p_six]\nwhen = "six >= 1"\n[columns.p_a]\nwhen = "true"\n[columns.p_b]\nwhen = "true"\n'
            '[columns.p_c]\nwhen = "true"\n[columns.p_d]\nwhen = "true"',
            "at most 4 columns with when",
        ),
        ('[columns.p_six]\nwhen = "six >= 1"\n[willpower]\ndice = 1\nkinds = ["d6"]', "column given by when"),
    ],
)
def test_columns_given_by_when_are_checked(change, message):
    _read_or_refused(FLAGGED.split("[columns.p_six]")[0] + change, message)


def test_an_undecided_column_is_refused():
    text = WILD + '\n[columns.p_even]\nwhen = "successes % 2 == 0"\n'
    rules = spec.rules_of(spec.from_toml(text, "even.toml"))
    with pytest.raises(spec.MechanicError, match="the column 'p_even' is not decided"):
        engine.table(rules, pool="1")


def test_requiem_file_against_icepool():
    """Plain Requiem (8+, 10-again) through the mechanic file against icepool's Again (a peer library):
    every success count up to the depth exact, and the tail."""
    icepool = pytest.importorskip("icepool")
    depth = 12
    die = icepool.Die([0] * 7 + [1, 1, 1 + icepool.Again], again_depth=depth, again_end=10**6)
    rules = spec.rules_of(spec.load(REQUIEM))
    for pool in (1, 2, 4, 7):
        total = pool @ die
        den = total.denominator()
        want = {s: Fraction(total.quantity(s), den) for s in range(depth + 1)}
        got = engine.odds(rules, max_successes=depth, pool=pool)
        assert got.successes == {s: p for s, p in want.items() if p}
        assert got.tail == 1 - sum(want.values())


V5_TEN_AGAIN = """
[mechanic]
name = "vfivex"
successes = "successes"
[axes]
pool = { default = "1-3", range = [0, 10] }
difficulty = { default = "1-4", range = [0, 20] }
[kinds.normal]
dice = "pool"
faces = { fail = "1 .. 5", success = "6 .. 9", ten = "10" }
again = ["ten"]
[counts]
successes = "success + ten + 2 * floor(ten / 2)"
[[outcomes]]
name = "critical"
when = "successes >= difficulty and ten >= 2"
win = true
[[outcomes]]
name = "win"
when = "successes >= difficulty"
win = true
[[outcomes]]
name = "fail"
"""


def test_v5_pairs_of_tens_with_ten_again_equal_every_chain():
    """A house rule mixing V5's pairs of 10s with 10-again: the pair bonus (floor) read on an unbounded
    count, against every chain of faces (a chain of 7 faces has six 10s: a critical at Difficulty 4)."""
    rules = spec.rules_of(spec.from_toml(V5_TEN_AGAIN, "v5x.toml"))
    for pool in (1, 2, 3):
        for difficulty in (1, 2, 4):
            want = brute(rules, {"pool": pool, "difficulty": difficulty}, 7, "critical")
            assert engine.odds(rules, pool=pool, difficulty=difficulty).classes() == want


def test_distribution_means_over_an_axis_the_successes_do_not_read():
    """Each cell's exact mean, worked out once per roll (the Difficulty does not change it)."""
    from analysis.engine import distribution

    text = V5_TEN_AGAIN.replace("success + ten + 2 * floor(ten / 2)", "success + ten")  # a sum of marks
    rules = spec.rules_of(spec.from_toml(text, "v5x.toml"))
    dist = distribution.mechanic_table(rules, {"pool": "1-3", "difficulty": "1-3"}, exact=True, max_successes=4)
    for (pool, difficulty), rows in dist.groupby(["pool", "difficulty"]):
        assert set(rows.mean_successes) == {engine.odds(rules, pool=pool, difficulty=difficulty).mean_successes}
    # one 10-again die of 6+: x = 4/10 + (1/10)(1 + x), so x = 5/9 a die
    assert set(dist[dist.pool == 3].mean_successes) == {Fraction(5, 3)}


# ------------------------------------------------------------------ counts whole over a power of the faces


#: The engine's shortcuts a test turns off, each by what its function gives then: counts over the chains'
#: own denominators (no power of the faces), one grid (not one per choice).
_OFF = {"_graded": lambda *args: None, "_splits": lambda *args: (), "_region_zeros": lambda *args: ()}


def _chances(rules, cells, monkeypatch, max_successes=None, off=None):
    """The exact classes, columns given by when and successes of ``cells``; ``off``: one of the engine's
    shortcuts (:data:`_OFF`) turned off, as the engine counted before it."""
    engine.clear_caches()
    with monkeypatch.context() as m:
        if off is not None:
            m.setattr(engine, off, _OFF[off])
            if off == "_splits":
                assert len(engine._regions(rules)) == 1
        ways = engine.count_cells(rules, cells, max_successes=max_successes)
    engine.clear_caches()
    return [
        (
            [Fraction(w, c.denominator) for w in c.class_ways],
            [Fraction(w, c.denominator) for w in c.column_ways],
            {s: Fraction(w, c.denominator) for s, w in c.success_ways.items()},
        )
        for c in ways
    ]


def _grades(rules, cells, max_successes=None):
    return [g for layout in engine._sized(rules, cells, max_successes, True) for g in layout.grades]


@pytest.mark.parametrize(
    "path,changes,cells",
    [
        (REQUIEM, {}, [{"pool": p} for p in (0, 1, 5, 12, 30, 31)]),
        (REQUIEM, {"again": 8, "rote": True, "rote_chance_die": True}, [{"pool": p} for p in (0, 9, 25)]),
        (
            ROOT / "analysis/systems/requiem/soif.toml",
            {},
            [{"pool": p, "soif": s} for p in (3, 9, 14) for s in (0, 2, 5)],
        ),
        (
            ROOT / "analysis/systems/requiem/soif.toml",
            {"again": 9, "rote": True, "bestial_counts_rerolled_ones": True},
            [{"pool": p, "soif": s} for p in (6, 11) for s in (1, 4)],
        ),
    ],
)
def test_counts_whole_over_a_power_of_the_faces_equal_the_chains_own(monkeypatch, path, changes, cells):
    """Past int64, the counts of dice that roll again are taken modulo primes for ``base ** E`` (E: the dice's
    first rolls plus every axis's last value, :func:`analysis.engine.explode.first_rolls`), not for the
    chains' own denominators (a power per die): the same exact chances, with a few primes where there were
    hundreds."""
    rules = spec.rules_of(spec.load(path), changes)
    assert any(g is not None for g in _grades(rules, cells, 12))  # the proof holds, and is used
    assert _chances(rules, cells, monkeypatch, 12) == _chances(rules, cells, monkeypatch, 12, off="_graded")


def test_a_designers_d6_and_d8_dice_are_whole_over_a_power_of_24(monkeypatch):
    rules = spec.rules_of(spec.from_toml(WILD, source="wild.toml"), {"great": 9})
    cells = [{"pool": p} for p in (1, 7, 15)]
    grades = [g for g in _grades(rules, cells) if g is not None]
    assert grades and {g[0] for g in grades} == {24} and grades[0][1][0] == 2  # the d6 is rote: two first rolls
    assert _chances(rules, cells, monkeypatch) == _chances(rules, cells, monkeypatch, off="_graded")
    # where the chains' own denominators are the smaller bound (great 4: short chains), they are kept
    rules = spec.rules_of(spec.from_toml(WILD, source="wild.toml"))
    assert _grades(rules, cells) == [None] * len(_grades(rules, cells))


UNPAID = """
[mechanic]
name = "unpaid"
successes = "x"
[axes]
pool = { default = "1-3", range = [0, 60] }
[kinds.die]
dice = "pool"
faces = { z = "1 .. 7", y = "8 .. 9", x = "10" }
again = ["x"]
[[outcomes]]
name = "wild"
when = "x >= 2 and y >= 2"
[[outcomes]]
name = "rest"
"""


def test_no_power_of_the_faces_where_a_roll_again_may_be_paid_by_nothing(monkeypatch):
    """Here a 10 rolls again and counts only on x, held at its bound 2, while the rolls after it may still
    show y: once x is held, those rolls are paid by no statistic, and a chance such as one die's y after
    any number of 10s (3/10 over 9/10) is no whole number over a power of 10.  The proof's condition
    fails, and the counts keep the chains' own denominators; forced, the power would be wrong."""
    from analysis.engine import explode

    rules = spec.rules_of(spec.from_toml(UNPAID, source="unpaid.toml"))
    cells = [{"pool": p} for p in (3, 20)]
    assert _grades(rules, cells) == [None] * len(_grades(rules, cells))
    right = _chances(rules, cells, monkeypatch)
    assert all(sum(classes) == 1 and all(0 <= p <= 1 for p in classes) for classes, *_ in right)
    with monkeypatch.context() as m:
        m.setattr(explode, "first_rolls", lambda *args: (1,))
        forced = _chances(rules, cells, monkeypatch)
    assert forced != right
    # the same in a designer's example: after its 9s and 10s are held at the bound, a die rolled again may
    # still show the 1 that takes a success away (1/40 for one die after its first 9 or 10)
    nine = spec.rules_of(spec.load(NINE_AGAIN))
    assert _grades(nine, [{"pool": 40}], 12) == [None] * len(_grades(nine, [{"pool": 40}], 12))


# ------------------------------------------------------------------ two grids where the rules choose a sum

#: La Soif's shape in brief: a boss die's 10 rolls a bonus die (whose 10s roll again) that counts only
#: where the roll is not crowned; a crowned roll counts the boss's 10 three times instead.
CROWN = """
[mechanic]
name = "crown"
successes = "successes"
[parameters]
crown_value = { default = 3, range = [1, 5] }
[axes]
pool = { default = "1-3", range = [0, 40] }
[kinds.die]
dice = "pool"
faces = { miss = "1 .. 7", hit = "8 .. 9", ten = "10" }
again = ["ten"]
[kinds.boss]
dice = "1"
faces = { miss = "1 .. 7", hit = "8 .. 9", crown = "10" }
again = { crown = "bonus" }
[kinds.bonus]
dice = "0"
faces = { miss = "1 .. 7", hit = "8 .. 9", more = "10" }
again = ["more"]
[counts]
crowned = "boss.crown >= 1 and die.ten == 0"
counted = "crown_value * boss.crown if crowned else boss.crown + bonus.hit + bonus.more"
successes = "die.hit + die.ten + boss.hit + counted"
[[outcomes]]
name = "great"
when = "successes >= 4"
[[outcomes]]
name = "some"
when = "successes >= 1"
[[outcomes]]
name = "none"
[columns.p_crowned]
when = "crowned"
"""


@pytest.mark.parametrize("changes", [{}, {"crown_value": 1}])
def test_rules_that_choose_a_sum_by_a_count_are_counted_on_a_grid_per_choice(monkeypatch, changes):
    """``crowned`` chooses between two sums: counted once where it holds (reading the boss's 10s, not the
    bonus dice) and once where it does not (one sum of every success), each grid with one statistic that
    chains raise without end where the whole had two, the same exact chances as the whole grid."""
    from analysis.engine import explode

    mech = spec.from_toml(CROWN, source="crown.toml")
    rules = spec.rules_of(mech, changes)
    parts = engine._regions(rules)
    assert [len(explode.unbounded(mech, p)) for p in parts] == [1, 1]
    assert len(explode.unbounded(mech, engine._stats(mech, rules.values))) == 2
    assert all("bonus." not in n for n in parts[0].names)  # where crowned, the bonus dice are read by no rule
    cells = [{"pool": p} for p in (0, 1, 2, 5, 9, 24)]
    assert len(parts) == 2
    assert _chances(rules, cells, monkeypatch, 14) == _chances(rules, cells, monkeypatch, 14, off="_splits")


def test_la_soif_file_on_its_two_grids_equals_la_soif_at_larger_pools():
    """La Soif's file, counted on a grid where the roll is a beastly critical and one where it is not
    (each one sum of successes and flags), and past int64 over a power of 10: its table (the engine's
    table path) against La Soif's own functions (its cells path), at pools up to 60 and 25 successes.
    (The counts were checked against the again-dice counter of old before it went; its tables stay
    pinned in tests/test_beast_api.py.)"""
    from analysis.engine import distribution

    rules = spec.rules_of(spec.load(SOIF), {"again": 9, "rote": True})
    own = beast.BeastRules(again=9, rote=True)
    assert len(engine._regions(rules)) == 2
    got = engine.table(rules, exact=True, pool="0-3,17,40,60", soif="0-5")
    want = beast.table([0, 1, 2, 3, 17, 40, 60], list(range(6)), own, exact=True)
    for c in SOIF_COLUMNS:
        assert list(got[c]) == list(want[c]), c
    got = distribution.mechanic_table(rules, {"pool": "1,6,30", "soif": "0,2,5"}, max_successes=25, exact=True)
    want = beast.distribution_table([1, 6, 30], [0, 2, 5], max_successes=25, rules=own, exact=True)
    for column in ("p_exactly", "p_at_least", "p_more"):
        assert got[column].tolist() == want[column].tolist(), column


# ------------------------------------------------------------------ a sweep's calls share a grid's walks


def test_a_grids_walks_are_kept_for_the_next_call_and_change_nothing(monkeypatch):
    """La Soif's table by Soif, one call per value (as the sweep counts it): the calls whose kinds roll
    dice alike share their grid's walks (made once, never written to), the counts those of calls from
    scratch, and ``clear_caches`` forgets them."""
    from analysis.engine import pool

    made = []
    real = pool._walks
    monkeypatch.setattr(pool, "_walks", lambda *a: made.append(1) or real(*a))
    rules = beast.OFFICIAL.mechanic()
    calls = [[{"pool": p, "soif": s} for p in range(0, 8)] for s in (1, 2, 3)]
    engine.clear_caches()
    shared = [engine.count_cells(rules, cells, max_successes=30) for cells in calls]
    grids = len(engine._sized(rules, calls[0], 30, True))
    assert grids > len(engine._regions(rules)) and len(made) == grids  # made once for the three calls
    fresh = []
    for cells in calls:
        engine.clear_caches()
        fresh.append(engine.count_cells(rules, cells, max_successes=30))
    assert shared == fresh and len(made) == 4 * grids
    engine.clear_caches()
    assert not pool._WALKS


def test_the_first_unclassified_state_is_the_least_any_prime_found():
    found = [np.array([[-1, 7], [-1, -1]]), np.array([[5, 9], [-1, 3]])]
    assert engine._first_found(found).tolist() == [[5, 7], [-1, 3]]


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"again": 9, "rote": True, "bestial_counts_rerolled_ones": True},
        {"again": 8, "chance_die_is_beast": False, "beastly_ten_successes": 3},
        {"again": None, "rote": True, "rote_chance_die": True, "chance_die_again": False},
    ],
)
def test_a_regions_grid_leaves_out_the_faces_it_holds_at_zero_and_counts_the_same(monkeypatch, changes):
    """La Soif's beastly grid holds a normal die's 10s at 0 where no chance die is rolled: its walks leave
    those faces out (a normal die there rolls no chain), each grid made per kinds of dice rolled; the
    exact classes, columns and successes are those of the walks with every face, pools 0 to 9 by Soif 0
    to 5 and tempting the Beast (more Beast dice than the Soif axis holds)."""
    rules = beast.BeastRules(**changes).mechanic()
    cells = [{"pool": p, "soif": s} for p in range(0, 10) for s in range(0, 6)] + [{"pool": 9, "soif": 9}]
    zeros = [z for layout in engine._sized(rules, cells, 40, True) for z in layout.zeros]
    assert zeros  # faces are left out
    assert _chances(rules, cells, monkeypatch, 40) == _chances(rules, cells, monkeypatch, 40, off="_region_zeros")


@pytest.mark.parametrize(
    "path,changes,cells,bound",
    [
        (REQUIEM, {"again": 8, "rote": True}, [{"pool": p} for p in (0, 1, 6, 13)], 40),
        (
            ROOT / "analysis/systems/requiem/soif.toml",
            {},
            [{"pool": p, "soif": s} for p in (0, 4, 9) for s in (0, 3)],
            60,
        ),
        (
            ROOT / "analysis/systems/requiem/soif.toml",
            {"again": 9, "rote": True, "bestial_counts_rerolled_ones": True},
            [{"pool": p, "soif": s} for p in (2, 7) for s in (1, 5)],
            30,
        ),
        (ROOT / "analysis/model/examples/nine-again-rerolled-ones.toml", {}, [{"pool": p} for p in (1, 4, 8)], 25),
        (ROOT / "analysis/model/examples/hunger-one-cancels.toml", {"cancel_per_one": 2}, None, None),
    ],
)
def test_marks_that_reach_an_axis_end_added_once_count_the_same(monkeypatch, path, changes, cells, bound):
    """A die of many marks (a chain rolled again) on a grid with a long axis is walked with the marks of
    each group that reach the axis's last cell added once (:func:`kernels.mechanic.mechanic_walk_tails`):
    the exact classes, columns and successes of the plain walk, in int64 and past it; forced on every die
    and axis (a designer's file without dice that roll again too), the same."""
    from analysis.engine import pool

    rules = spec.rules_of(spec.load(path), changes)
    if cells is None:
        cells = [{"pool": p, "hunger": h, "difficulty": 2} for p in (1, 3, 6) for h in (0, 2)]
    plain, tails, forced = [], [], []
    for marks, axis, out in ((10**9, 10**9, plain), (pool.TAIL_MARKS, pool.TAIL_AXIS, tails), (1, 2, forced)):
        with monkeypatch.context() as m:
            m.setattr(pool, "TAIL_MARKS", marks)
            m.setattr(pool, "TAIL_AXIS", axis)
            if out is forced:  # counted by the engine's walk, not by the pair-of-tens path
                m.setattr(engine, "_pair_path", lambda *args, **kwargs: None)
            out += _chances(rules, cells, monkeypatch, bound)
    assert tails == plain and forced == plain
