"""The Soif ladder: the house rule's examples, both modes, ghouls, bad traits."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.systems.requiem.beast import (
    VITAE_BY_BLOOD_POTENCY,
    ghoul_soif_ladder,
    soif_ladder,
    vitae_max,
)

# The La Soif house rule (French), "La Soif pour un Vampire" and "La Soif pour les Goules".
SEED_1 = "5/4/3/3/2/2/1/1"  # BP 2, Resolve 3, Composure 2, 11 Vitae
SEED_2 = "5/5/5/4/4/4/3/3/3/3/2/2/2/2/1/1/1/1"  # BP 6, Resolve 4, Composure 4, 20 Vitae
SEED_3_PRINTED = "5/5/5/5/5/4/4/4/4/4/3/3/3/3/2/2/2/2/1/1"  # same with Resolve 2, Composure 2
SEED_GHOUL = "3/2/1"  # Size 5, Stamina 3, Resolve 2, Composure 3


@pytest.mark.parametrize("mode", ["written", "printed"])
def test_seed_first_two_vampires(mode):
    first = soif_ladder(11, resolve=3, composure=2, blood_potency=2, mode=mode)
    assert first.thirst_start == 8
    assert first.notation() == SEED_1
    second = soif_ladder(20, resolve=4, composure=4, blood_potency=6, mode=mode)
    assert second.thirst_start == 18
    assert second.notation() == SEED_2


def test_seed_third_vampire_printed():
    ladder = soif_ladder(20, resolve=2, composure=2, blood_potency=6, mode="printed")
    assert ladder.thirst_start == 22
    assert ladder.notation() == SEED_3_PRINTED


def test_seed_third_vampire_as_written():
    """22 boxes: 5/5/4/4/4 boxes for levels 1..5; two level-1 boxes dropped to fit 20 Vitae."""
    ladder = soif_ladder(20, resolve=2, composure=2, blood_potency=6)
    assert ladder.mode == "written"
    assert ladder.notation() == "5/5/5/5/4/4/4/4/3/3/3/3/2/2/2/2/2/1/1/1"
    assert ladder.notation() != SEED_3_PRINTED


def test_seed_ghoul():
    ladder = ghoul_soif_ladder(stamina=3, size=5, resolve=2, composure=3)
    assert ladder.max_vitae == 8 and ladder.thirst_start == 3
    assert ladder.notation() == SEED_GHOUL


def test_soif_at_every_vitae():
    ladder = soif_ladder(11, 3, 2, 2)
    got = dict(zip(ladder.table().vitae, ladder.table().soif))
    assert list(ladder.table().vitae) == list(range(11, -1, -1))
    # above T = 8: no Soif; Vitae 8..1 read the ladder from its low end; 0 Vitae: the top level
    assert [got[v] for v in (11, 10, 9)] == [0, 0, 0]
    assert [got[v] for v in range(8, 0, -1)] == [1, 1, 2, 2, 3, 3, 4, 5]
    assert got[0] == 5


def test_short_and_empty_ladders():
    assert soif_ladder(11, 5, 5, 1).notation() == "2/1"  # T = 2: the top levels dropped
    nothing = soif_ladder(10, 5, 5, 1)  # T = 1
    assert nothing.notation() == "1"
    none = ghoul_soif_ladder(1, 2, 1, 2)  # T = 0
    assert none.levels == () and none.notation() == "-"
    assert none.soif_at(0) == 0 and none.soif_at(3) == 0


@given(
    max_vitae=st.integers(1, 120),
    resolve=st.integers(1, 10),
    composure=st.integers(1, 10),
    bp=st.integers(1, 10),
    mode=st.sampled_from(["written", "printed"]),
)
def test_ladder_shape(max_vitae, resolve, composure, bp, mode):
    resolve, composure = min(resolve, max(5, bp)), min(composure, max(5, bp))
    ladder = soif_ladder(max_vitae, resolve, composure, bp, mode=mode)
    t = max_vitae - (resolve + composure - bp)
    assert len(ladder.levels) == max(0, min(t, max_vitae))
    assert list(ladder.levels) == sorted(ladder.levels, reverse=True)  # lower Vitae, higher Soif
    assert set(ladder.levels) <= set(range(1, 6))
    if 0 < t <= max_vitae:
        # as written, whatever the mode: spread evenly, the low levels first
        counts = [ladder.levels.count(level) for level in range(1, 6)]
        assert max(counts) - min(counts) <= 1
        assert counts == sorted(counts, reverse=True)
        assert sum(counts) == t
    for v in range(max_vitae + 1):
        assert 0 <= ladder.soif_at(v) <= 5


def test_blood_potency_table():
    assert [vitae_max(bp) for bp in range(1, 11)] == [10, 11, 12, 13, 14, 15, 20, 30, 50, 100]
    assert soif_ladder(None, 3, 2, 2).max_vitae == VITAE_BY_BLOOD_POTENCY[2] == 11


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: soif_ladder(-1, 3, 2, 2), "max_vitae must be 1..1000, got -1"),
        (lambda: soif_ladder(11, 0, 2, 2), "resolve must be 1..5, got 0"),
        (lambda: soif_ladder(11, 6, 2, 5), "resolve must be 1..5, got 6"),
        (lambda: soif_ladder(11, 3, 9, 8), "composure must be 1..8, got 9"),
        (lambda: soif_ladder(11, 3, 2, 11), "blood_potency must be 1..10, got 11"),
        (lambda: soif_ladder(11, 3, 2, 2, mode="typo"), "mode must be 'written'"),
        (lambda: soif_ladder(11.0, 3, 2, 2), "max_vitae must be a whole number"),
        (lambda: ghoul_soif_ladder(0, 5, 2, 2), "stamina must be 1..5, got 0"),
        (lambda: ghoul_soif_ladder(3, 11, 2, 2), "size must be 1..10, got 11"),
        (lambda: soif_ladder(11, 3, 2, 2).soif_at(-1), "vitae must be 0..11, got -1"),
        (lambda: soif_ladder(11, 3, 2, 2).soif_at(12), "vitae must be 0..11, got 12"),
    ],
)
def test_impossible_traits_are_refused(call, message):
    with pytest.raises(ValueError, match=message.replace(".", r"\.").replace("(", r"\(")):
        call()


def test_traits_above_five_need_blood_potency():
    assert soif_ladder(15, 6, 6, 6).thirst_start == 15 - 6
