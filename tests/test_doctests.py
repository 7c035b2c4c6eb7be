"""Every example in a docstring of the library runs, and prints what it says (the fast tier)."""

import doctest
import importlib
import pkgutil

import pytest

import analysis
import kernels


def _modules():
    out = []
    for package in (analysis, kernels):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if info.name.endswith("__main__"):
                continue  # running the command line is not an example
            out.append(info.name)
    return sorted(out)


MODULES = _modules()
WITH_EXAMPLES = [m for m in MODULES if ">>>" in (importlib.util.find_spec(m).loader.get_source(m) or "")]


def test_the_examples_are_found():
    assert len(WITH_EXAMPLES) >= 10, WITH_EXAMPLES


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False, report=True
    )
    assert result.attempted > 0, f"{name}: no example ran"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed (printed above)"
