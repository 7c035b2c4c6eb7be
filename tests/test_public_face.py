"""``import analysis``: the names a notebook uses, each loaded when first used (no numba, no matplotlib before)."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import analysis


def test_importing_analysis_loads_neither_numba_nor_matplotlib():
    code = (
        "import sys, analysis; "
        "assert not {'numba', 'matplotlib', 'pandas', 'numpy'} & set(sys.modules), 'loaded at import'; "
        "analysis.table; analysis.compare; analysis.solve; analysis.distribution_table; analysis.load; "
        "assert 'numba' not in sys.modules, 'numba before a count'; "
        "print(analysis.table('v5-official', {'pool': '7', 'hunger': '2', 'difficulty': '3'}, exact=True)"
        "['p_win'].iloc[0])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "39/50"


def test_every_public_name_is_the_function_it_names():
    from analysis.present import explore, plots
    from analysis.workbench import rulesets
    from analysis.workbench import sweep
    from analysis.present.formats import render
    from analysis.workbench import compare, solve

    assert analysis.__all__[0] == "__version__"
    want = {
        "load": rulesets.load,
        "RuleSet": rulesets.RuleSet,
        "variants": rulesets.variants,
        "table": sweep.table,
        "distribution_table": sweep.distribution_table,
        "compare": compare.compare,
        "Comparison": compare.Comparison,
        "solve": solve.solve,
        "render": render.render,
        "difference_heatmap": plots.difference_heatmap,
        "variant_curves": plots.variant_curves,
        "explorer": explore.explorer,
    }
    assert set(analysis.__all__[1:]) == set(want)
    for name, obj in want.items():
        assert getattr(analysis, name) is obj, name
        assert obj.__doc__, name  # the API pages are made from these docstrings
    assert set(want) <= set(dir(analysis))


def test_the_face_answers_as_its_modules_do():
    rs = analysis.load("v5-two-hunger-ones-for-bestial")
    assert isinstance(rs, analysis.RuleSet)
    c = analysis.compare("v5-official", rs, {"pool": 5, "hunger": 3, "difficulty": 2}, exact=True)
    assert isinstance(c, analysis.Comparison) and c.top(1)["difference"].iloc[0] == Fraction(-33, 500)
    row = analysis.solve("v5", "pool", "p_win>=0.7", hunger=2, difficulty=4).iloc[0]
    assert (int(row["pool"]), row["p_win"]) == (9, Fraction(24511, 32000))
    d = analysis.distribution_table("v5-official", {"pool": "2", "hunger": "0", "difficulty": "1"}, exact=True)
    assert sum(d["p_exactly"]) == 1


def test_an_unknown_name_is_an_attribute_error():
    import pytest

    with pytest.raises(AttributeError, match="module 'analysis' has no attribute 'tabel'"):
        analysis.tabel  # noqa: B018
