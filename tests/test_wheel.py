"""`pip install .` alone: a wheel built from the tree, installed into a fresh venv without the dev extras, answers.

The venv sees none of the checkout (its commands run from an empty folder),
so each shipped mechanic file, rule set and page asset must come from the
wheel itself.
"""

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(argv, cwd, timeout=900):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{argv}:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done


@pytest.mark.slow
def test_a_wheel_installed_alone_gives_a_working_beastodds(tmp_path):
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(ROOT)], tmp_path)
    (wheel,) = wheels.glob("beastodds-*.whl")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    _run([str(py), "-m", "pip", "install", "--quiet", str(wheel)], tmp_path)
    installed = _run([str(py), "-m", "pip", "list"], tmp_path).stdout
    assert "pytest" not in installed and "icepool" not in installed  # no dev extras
    work = tmp_path / "work"
    work.mkdir()
    beastodds = str(env_dir / "bin" / "beastodds")

    v5 = _run([beastodds, "v5", "--pool", "7", "--hunger", "3", "--difficulty", "3"], work).stdout
    assert "0.7800" in v5  # p_win of the README's first example
    listed = _run([beastodds, "rules"], work).stdout  # every system's shipped rule sets, from the wheel
    for name in ("v5-official", "werewolf-official", "cards-official", "requiem-la-soif"):
        assert name in listed
    example = [str(env_dir), "lib", f"python{sys.version_info.major}.{sys.version_info.minor}", "site-packages"]
    mechanic = Path(*example, "analysis", "model", "examples", "three-kinds.toml")
    assert mechanic.is_file()
    table = _run([beastodds, "table", str(mechanic), "--pool", "4"], work).stdout
    assert "pool" in table
    _run([beastodds, "page", "v5-official", "-o", "odds.html"], work)
    page = (work / "odds.html").read_text(encoding="utf-8")
    assert "<script>" in page and "</style>" in page  # the page's script and stylesheet, inlined
