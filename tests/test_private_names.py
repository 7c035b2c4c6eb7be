"""Modules share public names only, and reach the exact path through ``analysis.engine.exact.count``."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = sorted(p for d in ("analysis", "kernels") for p in (ROOT / d).rglob("*.py"))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _cross_module_private_names(path: pathlib.Path, root: pathlib.Path = ROOT) -> list[str]:
    """``from X import _name`` and ``module._name`` where ``module`` is an import."""
    tree = ast.parse(path.read_text(), filename=str(path))
    imported = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: from {node.module} import {alias.name}")
                imported.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                imported.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and _private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in imported
        ):
            found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_no_module_reaches_into_another_modules_private_names():
    found = [hit for path in SOURCES for hit in _cross_module_private_names(path)]
    assert found == []


def test_the_scan_sees_both_forms(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from a import _b\nimport c as d\nd._e()\nfrom f import g\ng._h\n")
    assert len(_cross_module_private_names(bad, tmp_path)) == 3


@pytest.mark.parametrize("path", [p for p in SOURCES if p.name != "exact.py"], ids=lambda p: str(p.relative_to(ROOT)))
def test_only_the_exact_module_handles_primes(path):
    """Call sites go through ``count`` / ``count_blocks``: no hand-made prime loops."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names |= {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert not names & {"primes_for", "crt"}
