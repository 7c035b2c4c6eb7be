"""The house's imports run one way: no circle of imports between the project's modules.

Every import statement counts, wherever it stands: at the top of a module,
inside a function (imported when first called) or under ``TYPE_CHECKING``
(read by the type checker only).  A circle that only a lazy import closes is
still a circle: the two modules cannot be read, nor changed, one without the
other.  The modules are those of ``analysis/`` and ``kernels/``.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("analysis", "kernels")


def modules(root: pathlib.Path, packages=PACKAGES) -> dict[str, pathlib.Path]:
    """``{dotted module name: path}`` of every ``.py`` file under the packages (a package is its ``__init__``)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _targets(module: str, path: pathlib.Path, node: ast.Import | ast.ImportFrom, known) -> set[str]:
    """The project modules one import statement reads (``from p import m`` reads the module ``p.m``)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
            base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
    out = set()
    for name in names:
        while name and name not in known:  # a name inside a module: the module
            name = name.rpartition(".")[0]
        if name and name != module:
            out.add(name)
    return out


def import_graph(root: pathlib.Path = ROOT, packages=PACKAGES) -> dict[str, dict[str, list[int]]]:
    """``{module: {module it imports: [line, ...]}}`` over every import statement of the packages."""
    known = modules(root, packages)
    graph: dict[str, dict[str, list[int]]] = {m: {} for m in known}
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(module, path, node, known):
                    graph[module].setdefault(target, []).append(node.lineno)
    return graph


def circles(graph) -> list[list[str]]:
    """The circles of a graph: each set of two or more modules that reach one another (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        found.append(sorted(members))
    return sorted(found)


def _shown(graph, circle) -> str:
    inside = set(circle)
    arrows = [
        f"  {m} -> {t} (line {', '.join(map(str, lines))})"
        for m in circle
        for t, lines in sorted(graph[m].items())
        if t in inside
    ]
    return "\n".join([f"{len(circle)} modules:", *arrows])


def test_no_import_circle_between_the_modules():
    graph = import_graph()
    assert len(graph) > 100  # the whole house was read
    found = circles(graph)
    assert not found, "\n".join(_shown(graph, c) for c in found)


def test_the_scan_sees_every_form(tmp_path):
    pkg = tmp_path / "analysis"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "",
        "a.py": "from . import b\n",  # a -> b at the top, b -> a inside a function
        "b.py": "def f():\n    from analysis import a\n    return a\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub.d import X\n",
        "sub/__init__.py": "",
        "sub/d.py": "X = 1\n\n\nclass K:\n    def m(self):\n        import analysis.c\n",
        "e.py": "from analysis.a import thing\nimport numpy\n",  # into a circle, not part of one
        "f.py": "from .sub import d\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    graph = import_graph(tmp_path, ("analysis",))
    assert graph["analysis.e"] == {"analysis.a": [1]}
    assert graph["analysis.f"] == {"analysis.sub.d": [1]}
    assert circles(graph) == [["analysis.a", "analysis.b"], ["analysis.c", "analysis.sub.d"]]
