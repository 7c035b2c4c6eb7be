"""A kernel loaded from numba's disk cache skips numba's compiler set-up, and compiling still works after it."""

import os
import subprocess
import sys
import textwrap

import pytest

from kernels import _lightload

MODULE = textwrap.dedent("""
    import numpy as np
    from kernels._jit import kernel

    @kernel
    def ways(n):
        out = np.zeros(n + 1, dtype=np.int64)
        out[0] = 1
        for _ in range(n):
            for k in range(n, 0, -1):
                out[k] += out[k - 1]
        return out
""")

SECOND = textwrap.dedent("""
    import sys
    import numba
    import lightmod

    assert lightmod.ways(4).tolist() == [1, 4, 6, 4, 1]
    assert lightmod.ways.stats.cache_hits, "not loaded from the cache"
    # the loader did not refresh numba's registries (which import numba.np.arraymath)
    print("registries loaded:", "numba.np.arraymath" in sys.modules)
    # nor compile the runtime's LLVM module, nor read every distribution's entry points
    from numba.core import entrypoints
    from numba.core.runtime import rtsys
    print("runtime module compiled:", rtsys._init)
    print("extensions initialised:", entrypoints._already_initialized)
    # nor parse the kernel's bitcode: its symbols were read from its object file
    (loaded,) = lightmod.ways.overloads.values()
    library = loaded.library
    print("bitcode parsed:", library.__dict__.get("_shared") is not None)
    engine = library.codegen._engine
    assert engine.is_symbol_defined(loaded.fndesc.llvm_cpython_wrapper_name)

    @numba.njit
    def users(n):  # compiled now, calling the kernel loaded from the cache
        return lightmod.ways(n).sum()

    assert users(5) == 32
    assert rtsys._init and entrypoints._already_initialized, "compiling set up the runtime and extensions"
    shared = library._shared_module  # parsed to link the kernel into `users`
    assert library.__dict__.get("_shared") is not None
    assert {g.name for gs in (shared.functions, shared.global_variables) for g in gs if not g.is_declaration} <= (
        engine._defined_symbols
    )
    print("compiled after a light load: ok")

    # the symbols read from each cached object file are those numba reads from its bitcode
    import glob, os, pickle
    from llvmlite import binding as llvm
    from kernels._jit import _DIGEST, _MAGIC
    from kernels._lightload import defined_symbols

    files = glob.glob(os.path.join(os.path.dirname(lightmod.__file__), "__pycache__", "*.nbc"))
    assert files, "the kernel is cached"
    for path in files:
        with open(path, "rb") as f:
            raw = f.read()
        assert raw.startswith(_MAGIC)
        name, kind, (object_code, bitcode) = pickle.loads(raw[len(_MAGIC) + _DIGEST :])[0]
        module = llvm.parse_bitcode(bitcode)
        numba_s = {g.name for gs in (module.functions, module.global_variables) for g in gs if not g.is_declaration}
        assert defined_symbols(object_code) == numba_s, path
    print("symbols read as numba reads them: ok")
""")


def test_without_numba_s_internals_the_loader_is_numba_s_own(monkeypatch):
    """Where this numba lacks what the light loader needs, numba's own loader answers."""
    calls = []
    monkeypatch.setattr(_lightload, "_USABLE", False)
    assert _lightload.light_load(object(), "sig", "ctx", lambda *a: calls.append(a) or "loaded") == "loaded"
    assert calls == [("sig", "ctx")]


@pytest.mark.slow
def test_second_process_loads_without_registries_and_still_compiles(tmp_path):
    (tmp_path / "lightmod.py").write_text(MODULE)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), root]))
    first = subprocess.run(
        [sys.executable, "-c", "import lightmod; lightmod.ways(4)"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert first.returncode == 0, first.stderr
    second = subprocess.run([sys.executable, "-c", SECOND], env=env, capture_output=True, text=True, timeout=600)
    assert second.returncode == 0, second.stderr
    assert "registries loaded: False" in second.stdout
    assert "runtime module compiled: False" in second.stdout
    assert "extensions initialised: False" in second.stdout
    assert "bitcode parsed: False" in second.stdout
    assert "compiled after a light load: ok" in second.stdout
    assert "symbols read as numba reads them: ok" in second.stdout


def test_symbols_are_read_from_elf_object_files_only():
    """Another format, or a file cut short, gives None: the kernel's bitcode is then parsed, as numba does."""
    assert _lightload.defined_symbols(b"\xcf\xfa\xed\xfe" + bytes(60)) is None  # Mach-O
    assert _lightload.defined_symbols(b"\x7fELF\x02\x01\x01" + bytes(9)) is None  # the header cut short
    assert _lightload.defined_symbols(b"") is None


QUICK = textwrap.dedent("""
    import contextlib, io, sys
    from analysis.cli import main

    sys.argv = ["beastodds", *sys.argv[1:]]
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main()
        except SystemExit as e:
            assert not e.code, e.code
    print("array creation loaded:", "numba.np.arrayobj" in sys.modules)
    from numba.core import entrypoints
    from numba.core.runtime import rtsys
    print("runtime module compiled:", rtsys._init)
    print("extensions initialised:", entrypoints._already_initialized)
""")


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["v5", "--pool", "3", "--hunger", "1", "--difficulty", "2"],
        ["compare", "v5-official", "v5-hunger-dice-added", "--pool", "3", "--hunger", "1", "--difficulty", "2"],
    ],
)
def test_the_start_up_commands_load_no_array_creation_code(argv):
    """`beastodds v5` and `compare` load one kernel from the cache, which allocates nothing: unpickling it
    imports none of numba's array-creation code (about a tenth of a second of start-up); neither compiles
    the runtime's LLVM module nor reads the installed distributions' entry points."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root)
    for _ in range(2):  # the first run may compile and cache; the second loads
        done = subprocess.run(
            [sys.executable, "-c", QUICK, *argv], env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stderr
    assert "array creation loaded: False" in done.stdout
    assert "runtime module compiled: False" in done.stdout  # the kernel's machine code carries its own
    assert "extensions initialised: False" in done.stdout  # no distribution's entry points read
