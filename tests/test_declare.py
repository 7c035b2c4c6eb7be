"""The systems declare themselves: no module outside ``analysis/systems`` names a system in code.

(``analysis/versus``, the comparisons across systems, names the systems it sets side by side; the
command line's module of a system's own commands (``analysis.cli.parser.SYSTEM_COMMANDS``) and each
published table or figure (``analysis.present.published``) name their system: they sit above the
systems for that.)

Which column prefixes stand for a system's odds beside other systems' (``SYSTEM.column_prefixes``)
are said by the system; the command line and the tables iterate what
:func:`analysis.systems.shipped.systems` lists.
"""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

from analysis import cli
from analysis.cli import parser
from analysis.workbench import rulesets
from analysis.present import published, tables
from analysis.systems import shipped

ROOT = pathlib.Path(__file__).resolve().parents[1]
SYSTEMS_DIR = ROOT / "analysis" / "systems"
VERSUS_DIR = ROOT / "analysis" / "versus"
PUBLISHED_DIR = ROOT / "analysis" / "present" / "published"
#: The seam names the kernel modules it loads, two of which share a system's name (kernels.cards, kernels.classic).
SEAM = ROOT / "analysis" / "engine" / "seam.py"
#: The command line's modules of a system's own commands, one per system that has commands of its own.
COMMAND_MODULES = {ROOT / "analysis" / "cli" / f"{m.SYSTEM.name}.py" for m in parser.SYSTEM_COMMANDS}
OUTSIDE = sorted(
    p
    for p in (ROOT / "analysis").rglob("*.py")
    if not {SYSTEMS_DIR, VERSUS_DIR, PUBLISHED_DIR} & set(p.parents) and p != SEAM and p not in COMMAND_MODULES
)


def _system_names() -> set:
    return {n for s in shipped.systems().values() for n in (s.name, *s.aliases)}


def _docstrings(tree) -> set:
    kinds = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, kinds)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def names_of_systems(path: pathlib.Path, names, root: pathlib.Path = ROOT) -> list:
    """Where ``path`` names one of the systems ``names`` in code.

    A string (not a docstring) that is a system's name or holds it in quotes
    (``"v5"``, ``'system = "v5"'``), and an import of a system's package
    (``analysis.systems.v5``, ``from ..systems import v5``).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docs = _docstrings(tree)
    quoted = re.compile(r"""["'](%s)["']""" % "|".join(map(re.escape, sorted(names))))
    package = re.compile(r"(^|\.)systems\.(%s)(\.|$)" % "|".join(map(re.escape, sorted(names))))
    found = []
    where = f"{path.relative_to(root)}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if node.value in names or quoted.search(node.value) or package.search(node.value):
                found.append(f"{where}:{node.lineno}: {node.value[:60]!r}")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if package.search(module) or (
                module.split(".")[-1] == "systems" and any(a.name in names for a in node.names)
            ):
                found.append(f"{where}:{node.lineno}: from {'.' * node.level}{module} import ...")
        elif isinstance(node, ast.Import):
            found += [f"{where}:{node.lineno}: import {a.name}" for a in node.names if package.search(a.name)]
    return found


def test_no_module_outside_the_systems_names_one():
    names = _system_names()
    found = [hit for path in OUTSIDE for hit in names_of_systems(path, names)]
    assert found == []


def test_the_scan_sees_every_form(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        '"""A docstring may say "v5"."""\n'
        'DEFAULT = "v5"\n'
        "HINT = 'write system = \"requiem\"'\n"
        'from analysis.systems.cards import deck\n'
        'from ..systems import classic\n'
        'import analysis.systems.v5.roll\n'
        'REF = "analysis.systems.v5.rouse:RouseRules"\n'
        'FINE = ("v5_win", "v5-official", "cards and dice", "systems")\n'
    )
    found = names_of_systems(bad, {"v5", "requiem", "cards", "classic"}, tmp_path)
    assert sorted(int(line.split(":")[1]) for line in found) == [2, 3, 4, 5, 6, 7], found


def test_the_hand_kept_lists_are_gone():
    assert not hasattr(cli, "FAMILIES") and not hasattr(tables, "_PREFIXES")
    for path in OUTSIDE:
        text = path.read_text(encoding="utf-8")
        assert "FAMILIES" not in text and "_PREFIXES" not in text, path


def test_each_command_module_builds_one_systems_own_commands():
    systems = shipped.systems()
    modules = parser.SYSTEM_COMMANDS
    assert len({m.SYSTEM.name for m in modules}) == len(modules)  # one module per system
    assert all(systems[m.SYSTEM.name] is m.SYSTEM for m in modules)  # each a shipped system
    top = {p.stem for p in (ROOT / "analysis" / "cli").glob("*.py")}
    # the entry (main), the parser of every command, the streams, the shared commands, make's build, and
    # the modules of the systems' own commands
    assert top == {"__init__", "__main__", "parser", "streams", "workbench", "build"} | {
        m.__name__.rpartition(".")[2] for m in modules
    }
    assert {p.stem for p in SYSTEMS_DIR.rglob("cli.py")} == set()  # a system's folder holds no command module
    shared = {p.stem for p in (ROOT / "analysis" / "options").glob("*.py")}
    assert shared == {"__init__", "common", "grid", "output", "rule_options", "warn"}  # the machinery they share
    commands = cli.build_parser().commands
    for module in modules:
        assert cli.family(module.SYSTEM) is module
        assert module.COMMANDS and set(module.COMMANDS) <= set(commands), module
        for command in module.COMMANDS:  # a command's own parser holds its system's commands only
            assert set(module.COMMANDS) <= set(cli.build_parser(command).commands)
    assert all(cli.family(s) is None for s in systems.values() if s.name not in {m.SYSTEM.name for m in modules})


def test_every_published_module_is_listed_and_names_its_system():
    """Each module of ``analysis/present/published/tables`` and ``figures`` is in its list (a plain import
    each), has what ``make`` calls, and names a shipped system; no system's folder holds one."""
    systems = shipped.systems()
    for kind, listed, call in (
        ("tables", published.TABLES, "make_tables"),
        ("figures", published.FIGURES, "make_figure"),
    ):
        files = {p.stem for p in (PUBLISHED_DIR / kind).glob("*.py")} - {"__init__"}
        assert {published.name(m) for m in listed} == files and len(listed) == len(files), kind
        for module in listed:
            assert callable(getattr(module, call)), module
            assert systems[module.SYSTEM.name] is module.SYSTEM, module
        assert [n for n, _ in published.modules(kind)] == sorted(files)
    assert not [p for p in SYSTEMS_DIR.rglob("*") if p.name in ("published", "figures")]
    by_system = {s: [n for n, _ in published.modules("figures", systems[s])] for s in ("hunter", "werewolf")}
    assert by_system == {"hunter": ["hunter_desperation"], "werewolf": ["werewolf_brutal"]}


def test_column_prefixes_as_the_systems_declare_them():
    declared = {prefix: (who, s.name) for s in rulesets.SYSTEMS.values() for prefix, who in s.column_prefixes}
    assert declared == {
        "v5_": ("V5", "v5"),
        "la_soif_": ("La Soif", "requiem"),
        "requiem_": ("plain Requiem", "requiem"),
        "card_": ("ten-card test", "cards"),
    }
    lines = tables.legend(["v5_win", "la_soif_exceptional", "requiem_success", "card_bestial_failure"])
    assert lines[0] == "v5_win: V5: chance to win"
    assert lines[1].startswith("la_soif_exceptional: La Soif: ")
    assert lines[2].startswith("requiem_success: plain Requiem: ")
    meaning = rulesets.system("cards").class_meanings()["bestial_failure"]
    assert lines[3] == f"card_bestial_failure: ten-card test: {meaning}"


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"cli": ".cli"}, "unexpected keyword argument 'cli'"),  # its commands are the command line's
        ({"column_prefixes": {"X_": "x"}}, "a prefix lowercase and ending with _"),
        ({"column_prefixes": {"x": "x"}}, "a prefix lowercase and ending with _"),
        ({"column_prefixes": {"x_": ""}}, "column_prefixes of system 'x'"),
    ],
)
def test_bad_declarations_are_refused(kwargs, words):
    from analysis.model.system import System

    with pytest.raises(TypeError if "keyword" in words else ValueError, match=re.escape(words)):
        System("x", object, object, {"a": "1"}, **kwargs)


# ------------------------------------------------------------ layers: systems reach kernels through engines

#: System modules that still reach ``kernels``, each with its reason.
KERNEL_IMPORTS_ALLOWED = {
    "v5/conflict.py": "conflicts keep their kernel",
    "classic/damage.py": "damage and soak rows (net totals below zero, every pool at once) keep their kernel",
}
#: The kernel modules that count (``kernels.shapes`` holds numbers only).
COUNTING_KERNELS = {p.stem for p in (ROOT / "kernels").glob("*.py")} - {"__init__", "_jit", "shapes"}


def kernel_imports(path: pathlib.Path, root: pathlib.Path = ROOT) -> list:
    """Where ``path`` reaches ``kernels``: an import of it (at module level or inside a function), or a
    counting kernel module read through the seam (``seam.mechanic``, :mod:`analysis.engine.seam`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    where = f"{path.relative_to(root)}"
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "kernels":
                found.append(f"{where}:{node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Import):
            found += [
                f"{where}:{node.lineno}: import {a.name}" for a in node.names if a.name.split(".")[0] == "kernels"
            ]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "seam"
            and node.attr in COUNTING_KERNELS
        ):
            found.append(f"{where}:{node.lineno}: seam.{node.attr}")
    return found


def _system_modules_importing_kernels() -> dict:
    found = {}
    for path in sorted(SYSTEMS_DIR.rglob("*.py")):
        hits = kernel_imports(path)
        if hits:
            found[path.relative_to(SYSTEMS_DIR).as_posix()] = hits
    return found


def test_systems_reach_the_kernels_only_through_engines():
    """Counting engines live outside ``analysis/systems`` and only they reach ``kernels``."""
    found = _system_modules_importing_kernels()
    assert {m: hits for m, hits in found.items() if m not in KERNEL_IMPORTS_ALLOWED} == {}


def test_the_kernel_allow_list_is_what_still_imports_kernels():
    assert all(reason.strip() for reason in KERNEL_IMPORTS_ALLOWED.values())
    assert sorted(KERNEL_IMPORTS_ALLOWED) == sorted(_system_modules_importing_kernels()), (
        "a module that no longer imports kernels leaves the allow-list"
    )


def test_the_kernel_scan_sees_every_form(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import kernels\n"
        "from kernels import again\n"
        "import kernels.cards as kc\n"
        "def f():\n"
        "    from kernels.special import CAP\n"
        "from analysis import decks\n"
        "from . import kernels_notes\n"
        "import kernelsx\n"
        "k = seam.conflict\n"
        "cap = seam.shapes.CAP\n"
    )
    found = kernel_imports(bad, tmp_path)
    assert sorted(int(line.split(":")[1]) for line in found) == [1, 2, 3, 5, 9], found
