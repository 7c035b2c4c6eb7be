"""A damaged numba cache file is removed and its kernel compiled again, never handed to LLVM (which can abort).

After a process has used its kernels, ``kernels._jit`` records the SHA-256
of every cache file of their modules in a manifest beside them; a kernel
module checks its files against it when it is imported, before numba reads
any.  Damage in the middle of a data file used to reach LLVM's bitcode
reader, which aborted the process (exit 134) on every run.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kernels import _jit

ROOT = Path(__file__).resolve().parent.parent

#: A module with one cached kernel.
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


def damage(cache: Path) -> int:
    """Overwrite 64 bytes in the middle of every data file under ``cache``; the number of files."""
    files = sorted(cache.rglob("*.nbc"))
    for path in files:
        raw = bytearray(path.read_bytes())
        middle = max(0, len(raw) // 2 - 32)
        raw[middle : middle + 64] = bytes(64)
        path.write_bytes(bytes(raw))
    return len(files)


def notes(err: str) -> list:
    return [line for line in err.splitlines() if line.startswith("beastodds: note:")]


def _files(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.suffix in (".nbi", ".nbc")}


def test_the_manifest_lists_each_file_and_a_file_that_differs_is_removed(tmp_path):
    stem = "mod"
    (tmp_path / "mod.f-3.py311.nbi").write_bytes(b"index")
    (tmp_path / "mod.f-3.py311.1.nbc").write_bytes(b"data" * 100)
    (tmp_path / "other.g-1.py311.nbi").write_bytes(b"not ours")
    _jit._Folder(tmp_path).record({stem: "digest"})
    listed = json.loads((tmp_path / _jit.MANIFEST).read_text())
    assert sorted(listed["files"]) == ["mod.f-3.py311.1.nbc", "mod.f-3.py311.nbi"]
    assert listed["seen"] == {f"mod.{_jit._PYTHON}": "digest"}
    assert _jit._Folder(tmp_path).check(stem) == []  # whole: nothing removed
    (tmp_path / "mod.f-3.py311.1.nbc").write_bytes(b"data" * 99 + b"dat!")  # same size, other bytes
    assert _jit._Folder(tmp_path).check(stem) == ["mod.f-3.py311.1.nbc"]
    assert sorted(_files(tmp_path)) == ["mod.f-3.py311.nbi", "other.g-1.py311.nbi"]  # another module's stays


def test_a_file_numba_wrote_anew_is_not_damage(tmp_path):
    """numba replaces a file through a temporary one (another process adding a signature to an index):
    a new inode, whole; it is kept, and listed anew at the next record."""
    index = tmp_path / "mod.f-3.py311.nbi"
    index.write_bytes(b"index with one signature")
    _jit._Folder(tmp_path).record({"mod": "d"})
    temp = tmp_path / "tmp-by-numba"
    temp.write_bytes(b"index with two signatures")
    os.replace(temp, index)
    assert _jit._Folder(tmp_path).check("mod") == []
    assert index.read_bytes() == b"index with two signatures"
    _jit._Folder(tmp_path).record({"mod": "d"})
    index.write_bytes(b"index with two signaturez")  # damaged where it lies: same inode, other bytes
    assert _jit._Folder(tmp_path).check("mod") == ["mod.f-3.py311.nbi"]


def test_a_damaged_file_numba_writes_again_at_the_same_inode_is_listed_anew(tmp_path):
    """A damaged file is removed; the file numba writes in its place may be given the freed inode again,
    with the same size.  The manifest written at exit must list the new bytes, not keep the old listing
    (which the next run would take for damage where the file lies): a flaky slow test found it."""
    data = tmp_path / "mod.f-3.py311.1.nbc"
    data.write_bytes(b"data" * 100)
    _jit._Folder(tmp_path).record({"mod": "d"})
    data.write_bytes(b"data" * 99 + b"dat!")  # damaged where it lies
    folder = _jit._Folder(tmp_path)
    assert folder.check("mod") == ["mod.f-3.py311.1.nbc"]
    data.write_bytes(b"DATA" * 100)  # numba's new file, the same size
    listed = json.loads((tmp_path / _jit.MANIFEST).read_text())
    listed["files"][data.name][2] = data.stat().st_ino  # as if the freed inode were given to it again
    (tmp_path / _jit.MANIFEST).write_text(json.dumps(listed))
    folder.record({"mod": "d"})
    assert _jit._Folder(tmp_path).check("mod") == []  # the next run finds the new file whole
    assert data.read_bytes() == b"DATA" * 100


def test_a_file_the_manifest_does_not_list_is_kept_unless_an_old_beastodds_wrote_it(tmp_path):
    (tmp_path / "mod.f-3.py311.1.nbc").write_bytes(b"numba's own bytes")
    (tmp_path / "mod.h-9.py311.1.nbc").write_bytes(_jit._OLD_HEADER + b"checksum and numba's bytes")
    assert _jit._Folder(tmp_path).check("mod") == ["mod.h-9.py311.1.nbc"]
    assert sorted(_files(tmp_path)) == ["mod.f-3.py311.1.nbc"]


def test_an_unreadable_manifest_knows_nothing(tmp_path):
    (tmp_path / _jit.MANIFEST).write_text("{not json")
    (tmp_path / "mod.f-3.py311.nbi").write_bytes(b"index")
    folder = _jit._Folder(tmp_path)
    assert folder.files == {} and folder.check("mod") == []
    folder.record({"mod": "d"})  # and is written anew
    assert "mod.f-3.py311.nbi" in json.loads((tmp_path / _jit.MANIFEST).read_text())["files"]


def test_a_damaged_kernel_is_compiled_again_and_the_cache_repaired(tmp_path):
    (tmp_path / "cachedmod.py").write_text(MODULE)
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]),
        NUMBA_CACHE_DIR=str(tmp_path / "cache"),
        NUMBA_DEBUG_CACHE="1",
    )
    script = ["-c", "import cachedmod; print(cachedmod.ways(4).tolist())"]

    def run():
        done = subprocess.run([sys.executable, *script], env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        assert "[1, 4, 6, 4, 1]" in done.stdout
        return done

    first = run()
    assert notes(first.stderr) == [] and "[cache] data saved to" in first.stdout
    assert damage(tmp_path / "cache") >= 1
    damaged = run()
    (note,) = notes(damaged.stderr)
    assert "were damaged" in note and "compiled again" in note
    assert "[cache] data saved to" in damaged.stdout
    repaired = run()
    assert notes(repaired.stderr) == []
    assert "[cache] data loaded from" in repaired.stdout and "[cache] data saved to" not in repaired.stdout


@pytest.mark.slow
def test_the_reported_command_answers_after_damage_and_repairs_the_cache(tmp_path):
    """The issue's reproduction: damage every .nbc, then a Willpower grid; it aborted with exit 134."""
    argv = [
        sys.executable,
        "-m",
        "analysis.cli",
        "v5",
        "--pool",
        "1-4",
        "--hunger",
        "0-2",
        "--difficulty",
        "1-3",
        "--strategy",
        "maximize_win",
    ]
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def run():
        return subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)

    first = run()
    assert first.returncode == 0, first.stderr
    assert damage(tmp_path / "cache") >= 1
    for attempt in range(2):
        again = run()
        assert again.returncode == 0, (attempt, again.returncode, again.stderr[-2000:])
        assert again.stdout == first.stdout
        assert len(notes(again.stderr)) == (1 if attempt == 0 else 0), again.stderr
