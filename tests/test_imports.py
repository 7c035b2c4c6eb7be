"""The house's imports run one way, from the top of each module.

No circle of imports between the project's modules: every import statement
counts, wherever it stands: at the top of a module, inside a function
(imported when first called) or under ``TYPE_CHECKING`` (read by the type
checker only).  A circle that only a lazy import closes is still a circle:
the two modules cannot be read, nor changed, one without the other.  The
modules are those of ``analysis/`` and ``kernels/``.  Nor does any import run up the layers
(:data:`LAYERS`, the folders from ``kernels`` to ``analysis/cli``), nor from one system to another.

Imports stand at the top of each module, but at the seam: one module,
``analysis/engine/seam.py``, imports the compiled kernels (numba, about half
a second to import), matplotlib and the packages only some uses need (tqdm,
a notebook's widgets, the worker processes of ``--jobs``) when they are first
used, and every other module reaches them through it.  The command line's
entry, ``analysis/cli/__init__.py``, imports the library when a command runs,
so that ``import analysis.cli`` loads none of pandas, numpy or numba, and a
Ctrl-C while they load is answered as one; the public face, ``analysis/__init__.py``,
imports the module of a public name when the name is first read, so that
``import analysis`` (the parent of every module, the entry's too) loads none either.  An import a ``try`` holds (a
fallback for another release of a package) may stand where it is needed.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

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


def _in_function(tree) -> list:
    """The import statements of ``tree`` inside a function body, each with whether a ``try`` holds it."""
    found = []

    def visit(node, in_function: bool, in_try: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                if in_function:
                    found.append((child, in_try))
            else:
                visit(
                    child,
                    in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)),
                    in_try or isinstance(child, ast.Try),
                )

    visit(tree, False, False)
    return found


def _packages(node: ast.Import | ast.ImportFrom) -> set[str]:
    """The top names of the packages outside the project an import statement reads (``numba``, ``json``)."""
    if isinstance(node, ast.ImportFrom):
        names = [] if node.level else [node.module or ""]
    else:
        names = [a.name for a in node.names]
    return {n.split(".")[0] for n in names} - {"analysis", "kernels", ""}


def top_graph(root: pathlib.Path = ROOT, packages=PACKAGES) -> dict[str, set[str]]:
    """``{module: modules it imports at its top}``: what importing it runs (its packages' ``__init__`` too,
    and the top names of the packages outside the project it imports)."""
    known = modules(root, packages)
    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[module] = set()
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                graph[module] |= _targets(module, path, node, known) | _packages(node)
        parts = module.split(".")
        graph[module] |= {".".join(parts[:i]) for i in range(1, len(parts)) if ".".join(parts[:i]) in known}
    return graph


def loads(graph, module: str, wanted) -> bool:
    """Whether importing ``module`` imports a module of one of the packages ``wanted`` (by their top names)."""
    seen, todo = set(), [module]
    while todo:
        m = todo.pop()
        if m.split(".")[0] in wanted:
            return True
        if m not in seen:
            seen.add(m)
            todo.extend(graph.get(m, ()))
    return False


#: The one module whose imports wait inside its functions: the compiled kernels, matplotlib and the
#: packages only some uses need, loaded when first used.
SEAM = "analysis.engine.seam"
#: The command line's entry, which imports the library inside one function, when a command runs ...
ENTRY = "analysis.cli"
#: ... by importing this module (the parser of every command, and a command run), its one lazy import.
ENTRY_LOADS = "analysis.cli.parser"
#: The public face, which imports the module of a public name (``analysis.table``) the first time it is read ...
FACE = "analysis"
#: ... these modules, each by one plain import (so ``import analysis`` loads none of pandas, numpy or numba).
FACE_LOADS = {
    "analysis.workbench.rulesets",
    "analysis.workbench.sweep",
    "analysis.workbench.compare",
    "analysis.workbench.solve",
    "analysis.present.formats.render",
    "analysis.present.plots",
    "analysis.present.explore",
}


def _face_loads(node) -> bool:
    """Whether an import statement of the face loads one of :data:`FACE_LOADS` (and nothing else)."""
    if isinstance(node, ast.ImportFrom):
        return node.module in FACE_LOADS or all(f"{node.module}.{a.name}" in FACE_LOADS for a in node.names)
    return all(a.name in FACE_LOADS for a in node.names)


def lazy_imports(root: pathlib.Path = ROOT, packages=PACKAGES) -> list[str]:
    """Each import inside a function outside the seam, as ``module:line: statement``.

    Left out: the imports of :data:`SEAM`, the one of :data:`ENTRY` (of :data:`ENTRY_LOADS`), those
    of :data:`FACE` (of :data:`FACE_LOADS`), and an import a ``try`` holds (a fallback for another
    release of a package).  The kernels' own modules are numba's, not the library's.
    """
    out = []
    for module, path in modules(root, packages).items():
        if module == SEAM or module.split(".")[0] == "kernels":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node, in_try in _in_function(tree):
            if module == ENTRY and ast.unparse(node) == f"import {ENTRY_LOADS}":
                continue
            if module == FACE and _face_loads(node):
                continue
            if not in_try:
                out.append(f"{module}:{node.lineno}: {ast.unparse(node)}")
    return out


def test_only_the_seam_imports_the_kernels_and_matplotlib():
    """No module but the seam imports a kernel module, numba or matplotlib, wherever the import stands
    (``TYPE_CHECKING`` imports, for type checkers alone, aside): a figure module too draws through
    ``seam.Figure``, so that listing the figures loads no matplotlib."""
    found = []
    for module, path in modules(ROOT).items():
        if module == SEAM or module.split(".")[0] == "kernels":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        checking = {
            id(n)
            for block in ast.walk(tree)
            if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
            for n in ast.walk(block)
        }
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in checking:
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                if any(n.split(".")[0] in ("kernels", "numba", "matplotlib") for n in names):
                    found.append(f"{module}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


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


def test_imports_wait_inside_functions_only_at_the_seam_the_entry_and_the_face():
    assert lazy_imports() == []


def test_the_entry_loads_no_pandas_numpy_nor_numba():
    code = "import sys, analysis.cli; print(sorted({'pandas', 'numpy', 'numba'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0 and done.stdout == "[]\n", done.stderr


def test_no_module_loads_numba_nor_matplotlib_at_import():
    """Importing every module of the library (the published figures too) loads neither numba nor matplotlib:
    both wait at the seam for a count or a figure."""
    names = [m for m in modules(ROOT, ("analysis",)) if m != ENTRY + ".__main__"]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted({'numba', 'matplotlib'} & set(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0 and done.stdout == "[]\n", done.stderr[-2000:]


def test_a_sweep_loads_multiprocessing_only_for_its_workers():
    code = "import sys, analysis.workbench.sweep; print('multiprocessing' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0 and done.stdout == "False\n", done.stderr


#: The layers, from the bottom: a module imports from its own layer or those below it.
LAYERS = (
    "kernels",
    "analysis.model",
    "analysis.engine",
    "analysis.systems",
    "analysis.workbench",
    "analysis.versus",
    "analysis.present",
    "analysis.options",
    "analysis.cli",
)
#: The modules of the systems' package that every system shares, and the list of them (not systems of their own).
SHARED_BY_SYSTEMS = (
    "analysis.systems",
    "analysis.systems.counted",
    "analysis.systems.from_file",
    "analysis.systems.shipped",
)


def layer(module: str) -> int:
    """The layer of a module: its folder's; the public face, ``analysis``, is above them all."""
    if module == "analysis":
        return len(LAYERS)
    return max(i for i, name in enumerate(LAYERS) if module == name or module.startswith(name + "."))


def runs_up(graph) -> list[str]:
    """Each import that reads a module of a higher layer (the public face, ``analysis``, is the highest),
    or of another system, as ``module -> target``."""
    found = []
    for module, targets in sorted(graph.items()):
        for target, lines in sorted(targets.items()):
            if layer(target) > layer(module):
                found.append(f"{module} -> {target} (line {', '.join(map(str, lines))})")
            elif (
                layer(module) == layer(target) == LAYERS.index("analysis.systems")
                and target not in SHARED_BY_SYSTEMS
                and module not in SHARED_BY_SYSTEMS
                and module.split(".")[2] != target.split(".")[2]
            ):
                found.append(f"{module} -> {target} (line {', '.join(map(str, lines))}: another system)")
    return found


def test_no_import_runs_up_a_layer():
    graph = import_graph()
    assert {layer(m) for m in graph} == set(range(len(LAYERS) + 1))  # every module has its layer, each layer some
    assert runs_up(graph) == []


def test_the_layer_scan_sees_an_import_up_and_across(tmp_path):
    for name, text in {
        "kernels/__init__.py": "",
        "analysis/__init__.py": "",
        "analysis/model/__init__.py": "",
        "analysis/model/a.py": "def f():\n    from analysis.engine import b\n",  # up, inside a function
        "analysis/engine/__init__.py": "",
        "analysis/engine/b.py": "from analysis.model import a\nimport analysis\n",  # the face: up
        "analysis/systems/__init__.py": "",
        "analysis/systems/one/__init__.py": "",
        "analysis/systems/one/x.py": "from analysis.systems.two import y\n",  # across
        "analysis/systems/one/figures/__init__.py": "",
        "analysis/systems/one/figures/f.py": "from analysis.present import p\n",  # a system's figure: up
        "analysis/systems/one/cli.py": "from analysis.options import o\n",  # a system's commands: up
        "analysis/systems/two/__init__.py": "",
        "analysis/systems/two/y.py": "",
        "analysis/options/__init__.py": "",
        "analysis/options/o.py": "",
        "analysis/present/__init__.py": "",
        "analysis/present/p.py": "",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert runs_up(import_graph(tmp_path)) == [
        "analysis.engine.b -> analysis (line 2)",
        "analysis.model.a -> analysis.engine.b (line 2)",
        "analysis.systems.one.cli -> analysis.options.o (line 1)",
        "analysis.systems.one.figures.f -> analysis.present.p (line 1)",
        "analysis.systems.one.x -> analysis.systems.two.y (line 1: another system)",
    ]


def test_the_systems_sit_below_the_command_line():
    """No module of a system imports :mod:`analysis.cli` (a system's own commands are modules of
    :mod:`analysis.cli`); the command line imports the systems."""
    graph = import_graph()
    found = [
        f"{m} -> {t}"
        for m, targets in graph.items()
        if m.startswith("analysis.systems.")
        for t in targets
        if t == "analysis.cli" or t.startswith("analysis.cli.")
    ]
    assert found == []


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


def test_the_seam_scan_sees_every_form(tmp_path):
    (tmp_path / "analysis" / "engine").mkdir(parents=True)
    (tmp_path / "kernels").mkdir()
    files = {
        "analysis/__init__.py": (
            "def f():\n    from analysis.workbench import sweep\n"  # the face, a public name's module
            "def g():\n    from analysis.engine import count\n"  # line 4: not one
        ),
        "analysis/engine/__init__.py": "",
        "analysis/engine/seam.py": "def f():\n    from kernels import k\n    return k\n",  # the seam
        "kernels/__init__.py": "",
        "kernels/k.py": "import numba\n\ndef g():\n    import math\n",  # numba's, not the library's
        "analysis/light.py": "import json\n",
        "analysis/user.py": (
            "import os\n"
            "def a():\n    from kernels import k\n"  # line 3: outside the seam
            "def b():\n    from . import light\n"  # line 5
            "def c():\n    import matplotlib.pyplot\n"  # line 7
            "def d():\n    try:\n        from pandas.api import x\n    except ImportError:\n        pass\n"
            "def e():\n    import itertools\n"  # line 14
            "f = lambda: __import__('json')\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert lazy_imports(tmp_path) == [
        "analysis:4: from analysis.engine import count",
        "analysis.user:3: from kernels import k",
        "analysis.user:5: from . import light",
        "analysis.user:7: import matplotlib.pyplot",
        "analysis.user:14: import itertools",
    ]
