"""docs/rules.md states every rule the code counts, and the project cites no text a user cannot read."""
import re
import subprocess
from pathlib import Path

import pytest

from analysis import rulesets
from analysis.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
RULES_PAGE = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def _rules_classes():
    """Every rules class of every system, nested ones included."""
    seen, todo = [], []
    for name in rulesets.SYSTEMS:
        todo.append(type(rulesets.official(name).rules))
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.append(cls)
        todo.extend(f.type for f in cls.fields_info() if f.nested)
    return seen


@pytest.mark.parametrize("cls", _rules_classes(), ids=lambda c: c.__name__)
def test_every_option_is_stated(cls):
    assert issubclass(cls, Rules)
    assert f"`{cls.__name__}`" in RULES_PAGE, f"docs/rules.md does not name {cls.__name__}"
    missing = [f.name for f in cls.fields_info() if f"`{f.name}`" not in RULES_PAGE]
    assert not missing, f"docs/rules.md does not state {cls.__name__} options {missing}"


def test_every_shipped_rule_set_and_class_is_named():
    names = rulesets.names()
    assert names
    missing = sorted({n for n in names if f"`{n}`" not in RULES_PAGE})
    assert not missing, f"docs/rules.md does not name the rule sets {missing}"
    for system in rulesets.SYSTEMS.values():
        classes = [c[0] if isinstance(c, tuple) else c for c in system.classes]
        absent = [c for c in classes if f"`{c}`" not in RULES_PAGE]
        assert not absent, f"docs/rules.md does not name {system.name} classes {absent}"


def _tracked_text_files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        pytest.skip("not a git checkout")
    for name in out.stdout.splitlines():
        path = ROOT / name
        if path.suffix in {".py", ".md", ".toml", ".ipynb", ".txt", ".cfg"} or path.name == "Makefile":
            yield name, path


def test_no_reference_a_user_cannot_read():
    """Nothing points at the private rule notes or numbered source files the project does not ship."""
    pattern = re.compile(r"\bRULES\.md|\bDESIGN\.md|\.\./shared|(?i:\bseeds?\s+0\d\d\b|\bseed's\b)")
    hits = []
    for name, path in _tracked_text_files():
        if name == "tests/test_docs.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{name}:{n}: {line.strip()[:80]}")
    assert not hits, "references to texts a user cannot read:\n" + "\n".join(hits)
