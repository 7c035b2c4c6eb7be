"""The numba internals the kernels' loader and cache hooks rely on, checked loudly.

``kernels._lightload`` and ``kernels._jit`` subclass or call private parts of
numba (its cache classes and runtime).  ``pyproject.toml`` pins numba to the
releases they were tested with; when an upgrade moves one of these parts,
this test names what moved, instead of the loader silently falling back to
numba's slower own (start-up) or a cache hook failing at run time.
"""

import numba
import pytest

from kernels import _lightload

#: What each private part must offer: (module path, class, attributes).
NEEDED = [
    ("numba.core.caching", "Cache", ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")),
    ("numba.core.caching", "FunctionCache", ("load_overload", "save_overload", "_cache_file", "_cache_path")),
    (
        "numba.core.caching",
        "IndexDataCacheFile",
        ("_save_data", "_dump", "_load_data", "_data_path", "_load_index", "_index_path"),
    ),
    ("numba.core.runtime", "rtsys", ("initialize", "_init")),
    ("numba.core.runtime", "_nrt_python", ("c_helpers",)),
    ("numba.core.dispatcher", "Dispatcher", ("_compilation_chain_init_hook",)),
    (
        "numba.core.codegen",
        "JITCodeLibrary",
        ("_unserialize", "enable_object_caching", "_set_compiled_object", "_finalize_final_module"),
    ),
    ("numba.core.codegen", "JITCPUCodegen", ("_library_class",)),
    ("numba.core.codegen", "JitEngine", ("is_symbol_defined", "_load_defined_symbols")),
    ("numba.core", "entrypoints", ("init_all", "_already_initialized")),
]


def _missing():
    import importlib

    out = []
    for module, name, attributes in NEEDED:
        try:
            owner = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            out.append(f"{module}.{name}")
            continue
        # some are set per instance: read them off a real cache of a function (and its cache file)
        probe = owner
        if name in ("FunctionCache", "IndexDataCacheFile"):
            from numba.core.caching import FunctionCache

            probe = FunctionCache(_sample)
            probe = probe if name == "FunctionCache" else getattr(probe, "_cache_file", owner)
        out += [f"{module}.{name}.{a}" for a in attributes if not hasattr(probe, a)]
    return out


def _sample(n):
    return n + 1


def test_the_numba_internals_the_kernels_rely_on_are_there():
    missing = _missing()
    if missing:
        pytest.fail(
            f"numba {numba.__version__} no longer has {', '.join(missing)}, which kernels/_lightload.py "
            f"and kernels/_jit.py rely on: adapt them to this numba (and widen the pin in pyproject.toml), "
            f"or pin numba back to the release they were tested with"
        )
    assert _lightload._USABLE, (
        f"numba {numba.__version__}: kernels._lightload falls back to numba's own loader "
        f"(its internals moved); a second run pays numba's compiler set-up again"
    )
    assert _lightload._LAZY_LINK, (
        f"numba {numba.__version__}: kernels._lightload parses every cached kernel's bitcode at load "
        f"(numba's code library internals moved)"
    )
    assert _lightload._DEFERRABLE, (
        f"numba {numba.__version__}: the kernels initialise numba's extensions on every first call "
        f"(Dispatcher._compilation_chain_init_hook moved)"
    )


def test_the_pin_names_the_numba_release_in_use():
    """The installed numba is inside the range pyproject.toml pins (the one the hooks were tested with)."""
    import re
    from importlib.metadata import requires

    pins = [r for r in requires("beastodds") if re.match(r"numba\b", r)]
    assert len(pins) == 1, "pyproject.toml must pin numba once"
    bounds = dict((op, tuple(int(x) for x in v.split("."))) for op, v in re.findall(r"(>=|<)\s*([\d.]+)", pins[0]))
    assert set(bounds) == {">=", "<"}, f"pin numba to a tested range (>=X,<Y), not {pins[0]!r}"
    have = tuple(int(x) for x in re.match(r"[\d.]+", numba.__version__).group().rstrip(".").split("."))
    assert bounds[">="] <= have < bounds["<"], (
        f"numba {numba.__version__} is outside the tested pin {pins[0]!r} of pyproject.toml"
    )
