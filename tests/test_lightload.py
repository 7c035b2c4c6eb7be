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

    @numba.njit
    def users(n):  # compiled now, calling the kernel loaded from the cache
        return lightmod.ways(n).sum()

    assert users(5) == 32
    print("compiled after a light load: ok")
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
    first = subprocess.run([sys.executable, "-c", "import lightmod; lightmod.ways(4)"],
                           env=env, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    second = subprocess.run([sys.executable, "-c", SECOND], env=env, capture_output=True, text=True,
                            timeout=600)
    assert second.returncode == 0, second.stderr
    assert "registries loaded: False" in second.stdout
    assert "compiled after a light load: ok" in second.stdout
