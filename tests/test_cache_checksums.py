"""A damaged numba cache file is compiled again and replaced, never handed to LLVM (which can abort the process).

Each data file the kernels' cache writes carries a SHA-256 checksum of its
contents (``kernels._jit``).  Damage in the middle of a file used to reach
LLVM's bitcode reader, which aborted the process (exit 134) on every run.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kernels import _jit

ROOT = Path(__file__).resolve().parent.parent

#: A module with one cached kernel, the same as the light loader's tests write.
from tests.test_lightload import MODULE  # noqa: E402


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


def test_a_data_file_is_written_with_its_checksum_and_checked(tmp_path):
    cache = _jit._CheckedCacheFile(str(tmp_path), "f-1.py311", "stamp")
    cache.save("key", ("some", "data", list(range(100))))
    assert cache.load("key") == ("some", "data", list(range(100)))
    (path,) = tmp_path.glob("*.nbc")
    raw = path.read_bytes()
    assert raw.startswith(_jit._MAGIC)
    path.write_bytes(raw[:60] + bytes(8) + raw[68:])
    with pytest.raises(_jit.CacheDamaged, match="does not match its checksum"):
        cache.load("key")
    path.write_bytes(raw[:40])  # truncated inside the checksum
    with pytest.raises(_jit.CacheDamaged):
        cache.load("key")
    path.write_bytes(raw[len(_jit._MAGIC) + 32 :])  # numba's own bytes without a checksum: compiled again
    assert cache.load("key") is None


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
    assert "does not match its checksum" in note and "compiling the kernel again" in note
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
