"""Nothing crashes, nothing is lost: atomic writes, output errors, Ctrl-C, numba cache trouble, odd rule-set files.

Most cases run ``beastodds`` in a subprocess, as a user would; none asserts
a time (a signal is sent once the process shows it has reached the stage
under test).
"""

import errno
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.cli import build
from analysis import cli
from analysis.workbench import rulesets
from analysis.model import safeio

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
V5 = ["v5", "--pool", "3", "--hunger", "1", "--difficulty", "2"]


def env(**extra):
    out = dict(os.environ, PYTHONPATH=str(ROOT))
    out.update(extra)
    return out


def beastodds(*argv, cwd=None, **kw):
    return subprocess.run(
        [PY, "-m", "analysis.cli", *map(str, argv)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=kw.pop("env", None) or env(),
        timeout=900,
        **kw,
    )


def litter(folder: Path) -> list:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp") or ".tmp." in p.name)


def one_sentence(err: str, start="beastodds: error: ") -> bool:
    return err.startswith(start) and err.count("\n") == 1 and "Traceback" not in err


# ----------------------------------------------------------- atomic writes


def test_atomic_write_replaces_keeps_mode_and_leaves_no_temp(tmp_path):
    path = tmp_path / "out.csv"
    path.write_text("old\n")
    path.chmod(0o640)
    safeio.atomic_write(path, "new é\n")
    assert path.read_bytes() == "new é\n".encode()
    assert path.stat().st_mode & 0o777 == 0o640
    safeio.atomic_write(tmp_path / "b.bin", b"\x00\x01")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    assert litter(tmp_path) == []


def test_atomic_write_through_a_symlink_replaces_the_target(tmp_path):
    (tmp_path / "real.md").write_text("old")
    (tmp_path / "link.md").symlink_to("real.md")
    safeio.atomic_write(tmp_path / "link.md", "new")
    assert (tmp_path / "link.md").is_symlink() and (tmp_path / "real.md").read_text() == "new"


def _fifo_reader(path: Path):
    """A thread that reads everything written into the named pipe ``path``; join it, then ``got[0]``."""
    import threading

    got = []
    thread = threading.Thread(target=lambda: got.append(path.read_bytes()), daemon=True)
    thread.start()
    return thread, got


@pytest.mark.parametrize("through_link", [False, True])
def test_a_named_pipe_gets_the_bytes_and_stays_a_pipe(tmp_path, through_link):
    """A target that is not a regular file is written into, never replaced by a file."""
    import stat

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    target = fifo
    if through_link:
        target = tmp_path / "hm.png"
        target.symlink_to(fifo)
    thread, got = _fifo_reader(fifo)
    safeio.atomic_write(target, b"\x89PNG and the rest")
    thread.join(timeout=60)
    assert got == [b"\x89PNG and the rest"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the named pipe was replaced"
    assert not through_link or target.is_symlink()
    assert litter(tmp_path) == []


def test_a_device_node_is_written_into_not_replaced(tmp_path):
    """A character device (a node of the null device's numbers, made here) keeps being that device."""
    import stat

    null = os.stat(os.devnull)
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, null.st_rdev)
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    link = tmp_path / "hm.png"
    link.symlink_to(node)
    rulesets.official("v5").save(node)
    safeio.atomic_write(link, b"picture")
    for path in (node, os.devnull):
        st = os.stat(path)
        assert stat.S_ISCHR(st.st_mode) and st.st_rdev == null.st_rdev
    assert link.is_symlink() and litter(tmp_path) == []


def test_heatmap_into_a_named_pipe_through_a_link(tmp_path, capsys):
    """``ln -s NODE hm.png; compare ... --heatmap hm.png`` turned the node into a PNG."""
    import stat

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "hm.png").symlink_to(fifo)
    thread, got = _fifo_reader(fifo)
    assert cli.main([*HEATMAP, str(tmp_path / "hm.png"), "--quiet"]) == 0
    thread.join(timeout=60)
    assert got and got[0].startswith(b"\x89PNG")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and (tmp_path / "hm.png").is_symlink()
    assert "replaced" not in capsys.readouterr().err


def test_a_socket_is_refused_in_one_sentence(tmp_path):
    import socket

    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        with pytest.raises(OSError) as caught:
            safeio.atomic_write(path, "x")
    assert str(caught.value) == (
        f"[Errno {errno.EINVAL}] it is a socket, not a regular file, a character device or a named pipe: '{path}'"
    )
    assert litter(tmp_path) == []


def test_errors_name_the_path_given_not_the_temporary_file(tmp_path):
    rs = rulesets.official("v5")
    with pytest.raises(IsADirectoryError) as caught:
        rs.save(tmp_path)
    assert caught.value.filename == str(tmp_path) and ".tmp" not in str(caught.value)
    missing = tmp_path / "no such folder" / "mine.toml"
    with pytest.raises(FileNotFoundError) as caught:
        rs.save(missing)
    assert caught.value.filename == str(missing)
    assert str(caught.value).endswith(f"its folder does not exist: '{missing}'")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            return  # root writes anywhere: nothing more to see
        with pytest.raises(PermissionError) as caught:
            rs.save(locked / "mine.toml")
        assert caught.value.filename == str(locked / "mine.toml")
    finally:
        locked.chmod(0o700)
    assert litter(tmp_path) == []


@pytest.mark.parametrize("data", ["x" * 100_000, b"\xff" * 100_000])
def test_a_write_failing_halfway_leaves_the_old_file_byte_identical(tmp_path, monkeypatch, data):
    path = tmp_path / "table.md"
    path.write_bytes(b"the old table\n")
    before = path.read_bytes()

    with pytest.raises(OSError) as caught, safeio.atomic_open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert caught.value.errno == errno.ENOSPC

    def full_disk(fd):  # the data is in the temporary file, then the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(safeio.os, "fsync", full_disk)
    with pytest.raises(OSError):
        safeio.atomic_write(path, data)
    assert path.read_bytes() == before
    assert litter(tmp_path) == []


def test_ctrl_c_during_a_write_leaves_the_old_file(tmp_path):
    path = tmp_path / "fig.png"
    path.write_bytes(b"old")
    with pytest.raises(KeyboardInterrupt), safeio.atomic_open(path, "wb") as f:
        f.write(b"half")
        raise KeyboardInterrupt
    assert path.read_bytes() == b"old" and litter(tmp_path) == []


def test_savefig_renders_first_then_writes_atomically(tmp_path):
    from matplotlib.figure import Figure

    fig = Figure()
    fig.subplots().plot([0, 1], [1, 0])
    safeio.savefig(fig, tmp_path / "f.png", dpi=50)
    safeio.savefig(fig, tmp_path / "f.svg")
    assert (tmp_path / "f.png").read_bytes().startswith(b"\x89PNG")
    assert b"<svg" in (tmp_path / "f.svg").read_bytes()

    class Broken(Figure):
        def savefig(self, *a, **k):
            raise RuntimeError("drawing failed")

    (tmp_path / "g.png").write_bytes(b"old")
    with pytest.raises(RuntimeError):
        safeio.savefig(Broken(), tmp_path / "g.png")
    assert (tmp_path / "g.png").read_bytes() == b"old" and litter(tmp_path) == []


def test_rule_set_save_is_atomic(tmp_path):
    rs = rulesets.load("v5-critical-pairs-add-one")
    path = rs.save(tmp_path / "mine.toml")
    assert rulesets.load(path) == rs and litter(tmp_path) == []


class _Module:
    SYSTEM = None  # a published module of no system: its columns in the shared glossary's words

    def __init__(self, tables=None, fail=False):
        self.tables, self.fail = tables, fail

    def make_tables(self):
        if self.fail:
            raise RuntimeError("this table failed")
        return self.tables

    def make_figure(self):
        if self.fail:
            raise RuntimeError("this figure failed")
        from matplotlib.figure import Figure

        fig = Figure(figsize=(1, 1))
        fig.subplots().plot([0, 1])
        return fig


def test_a_failed_build_leaves_every_old_file_intact(tmp_path, monkeypatch):
    import pandas as pd

    monkeypatch.setattr(build, "TABLES", tmp_path / "tables")
    monkeypatch.setattr(build, "FIGURES", tmp_path)
    good = _Module({"t1": (pd.DataFrame({"pool": [1], "p": [0.5]}), ["pool"])})
    modules = [("a", good), ("b", _Module(fail=True))]
    monkeypatch.setattr(build, "_modules", lambda kind, only=None: iter(modules))

    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "t1.csv").write_text("old csv")
    (tmp_path / "a.png").write_bytes(b"old png")
    with pytest.raises(RuntimeError, match="table failed"):
        build.build_tables()
    with pytest.raises(RuntimeError, match="figure failed"):
        build.build_figures()
    assert (tmp_path / "tables" / "t1.csv").read_text() == "old csv"
    assert (tmp_path / "a.png").read_bytes() == b"old png"

    modules.pop()  # without the failing module the same build writes
    written = build.build_tables() + build.build_figures()
    assert sorted(p.name for p in written) == ["a.png", "t1.csv", "t1.md"]
    assert (tmp_path / "tables" / "t1.csv").read_text().startswith("pool")
    assert litter(tmp_path) == [] and litter(tmp_path / "tables") == []


@pytest.mark.parametrize(
    "fault, code, message",
    [
        (KeyboardInterrupt(), 130, "build: interrupted\n"),
        (
            OSError(errno.ENOSPC, "No space left on device"),
            2,
            "build: error: cannot write the files: No space left on device\n",
        ),
    ],
)
def test_make_build_ends_with_one_line(monkeypatch, capsys, fault, code, message):
    def failing(argv=None):
        raise fault

    monkeypatch.setattr(build, "main", failing)
    assert build.run(["tables"]) == code
    assert capsys.readouterr().err == message


HEATMAP = [
    "compare",
    "v5-official",
    "v5-critical-pairs-add-one",
    "--pool",
    "1-3",
    "--hunger",
    "0-1",
    "--difficulty",
    "1",
    "--heatmap",
]


def test_cli_says_when_it_replaces_an_output_file(tmp_path, capsys):
    png = tmp_path / "keep.png"
    assert cli.main([*HEATMAP, str(png)]) == 0
    assert "replaced" not in capsys.readouterr().err
    first = png.read_bytes()
    png.write_bytes(b"an older picture")
    assert cli.main([*HEATMAP, str(png), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert err == f"beastodds: replaced {png}\n"
    assert png.read_bytes() == first and litter(tmp_path) == []


@pytest.mark.slow
def test_heatmap_past_a_file_size_limit_keeps_the_old_file(tmp_path):
    """A real failing write: the file-size limit (``ulimit -f``) stops the PNG halfway."""
    png = tmp_path / "keep.png"
    png.write_bytes(b"the old heatmap")
    limit = 4096  # the PNG is about 20 kB

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = beastodds(*HEATMAP, png, cwd=tmp_path, preexec_fn=small_files)
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("beastodds: error:")]
    assert errors == [f"beastodds: error: cannot write {png}: File too large"]
    assert "Traceback" not in done.stderr
    assert png.read_bytes() == b"the old heatmap" and litter(tmp_path) == []


# ------------------------------------------------------------ output errors


@pytest.mark.slow
@pytest.mark.parametrize("argv", [V5, ["--version"], ["--help"], ["v5", "--help"]])
def test_output_to_a_full_disk_is_one_sentence_and_exit_2(argv):
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [PY, "-m", "analysis.cli", *argv], stdout=full, stderr=subprocess.PIPE, text=True, env=env(), timeout=900
        )
    assert done.returncode == 2
    assert done.stderr == "beastodds: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("argv", [V5, ["--version"]])
def test_closed_stdout_is_one_sentence_and_exit_2(argv):
    cmd = " ".join([PY, "-m", "analysis.cli", *argv]) + " >&-"
    done = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True, env=env(), timeout=900)
    assert done.returncode == 2
    assert done.stderr == "beastodds: error: standard output is closed\n"


@pytest.mark.slow
def test_broken_pipe_is_quiet_and_exit_0():
    cmd = (
        " ".join([PY, "-m", "analysis.cli", "v5", "--pool", "1-30", "--hunger", "0-5", "--difficulty", "1-9"])
        + ' | head -c 10; echo " rc=${PIPESTATUS[0]}"'
    )
    done = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, env=env(), timeout=900)
    assert done.stdout.endswith(" rc=0\n")
    assert done.stderr == ""  # no "Exception ignored ... BrokenPipeError"


@pytest.mark.slow
def test_ascii_terminal_with_a_non_ascii_rule_set(tmp_path):
    (tmp_path / "eveque.toml").write_text(
        'system = "v5"\nname = "v5-évêque"\ndescription = "Règle"\ncrit_bonus = 3\n', encoding="utf-8"
    )
    for argv in (
        ["rules", "eveque.toml"],
        ["compare", "eveque.toml", "v5-official", "--pool", "2", "--hunger", "0", "--difficulty", "1"],
    ):
        done = beastodds(*argv, cwd=tmp_path, env=env(PYTHONIOENCODING="ascii"))
        assert done.returncode == 0, done.stderr
        assert "v5-?v?que" in done.stdout and done.stderr == ""


# ------------------------------------------------------------------ Ctrl-C


def _interrupt_when(argv, stream: str, marker: str, extra_env=None, python_args=()):
    """Start beastodds, wait until ``marker`` shows on ``stream``, send SIGINT; the finished process."""
    proc = subprocess.Popen(
        [PY, *python_args, "-m", "analysis.cli", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env(**(extra_env or {})),
    )
    watched = proc.stdout if stream == "stdout" else proc.stderr
    seen = b""
    try:
        while marker.encode() not in seen:
            chunk = watched.readline() if stream == "stderr" else watched.read(1)
            assert chunk, f"the process ended before {marker!r}: {seen[-2000:]!r}"
            seen = (seen + chunk)[-10_000:]
        proc.send_signal(signal.SIGINT)
        if stream == "stdout":  # leave the pipe unread: the process stays blocked writing to it
            proc.wait(timeout=300)  # a process that still waits for its reader fails here
            err = proc.stderr.read()
            out = b""
        else:
            out, err = proc.communicate(timeout=900)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    return proc.returncode, out, err.decode()


@pytest.mark.slow
def test_ctrl_c_during_the_heavy_imports():
    # numba is imported early (pandas, since the command builds its parser alone, only at the
    # end, too close to the exit for a signal to land before it): the whole run is still ahead
    code, _, err = _interrupt_when(V5, "stderr", "numba.core", python_args=("-X", "importtime"))
    assert code == 130
    assert err.splitlines()[-1] == "beastodds: interrupted" and "Traceback" not in err


def test_an_interrupt_raised_inside_an_import_is_caught():
    """Deterministic twin of the test above: the interrupt comes from inside ``import pandas``."""
    code = (
        "import builtins, sys\n"
        "real = builtins.__import__\n"
        "def imp(name, *a, **k):\n"
        "    if name == 'pandas': raise KeyboardInterrupt\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = imp\n"
        "from analysis.cli import main\n"
        f"sys.exit(main({V5!r}))\n"
    )
    done = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=env(), timeout=900)
    assert done.returncode == 130 and done.stderr == "beastodds: interrupted\n"


RULES = ["rules", "v5-official"]


def test_ctrl_c_once_the_answer_is_out_keeps_its_exit_code():
    """A Ctrl-C after the answer, while the interpreter shuts down, killed the process (exit -2).

    The program (``main()`` without arguments) ignores Ctrl-C once its code is known; the two
    signals here come right after ``main`` returns and from an exit handler, as the shut-down's.
    """
    code = (
        "import atexit, os, signal, sys, time\n"
        "from analysis.cli import main\n"
        f"sys.argv = ['beastodds', *{RULES!r}]\n"
        "def late():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(0.2)\n"
        "    print('shut down', file=sys.stderr)\n"
        "atexit.register(late)\n"
        "code = main()\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "time.sleep(0.2)\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=env(), timeout=900)
    assert done.returncode == 0, done.stderr
    assert "v5-official" in done.stdout and done.stderr == "shut down\n"


def test_a_second_ctrl_c_does_not_cut_the_interrupted_line():
    """Ctrl-C, then Ctrl-C again while the first is being reported: still one line and exit 130."""
    code = (
        "import os, signal, sys, time\n"
        "import analysis.cli as cli\n"
        "def run(argv): raise KeyboardInterrupt\n"
        "quiet = cli._quiet_stdout\n"
        "def again():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(0.2)\n"
        "    quiet()\n"
        "cli._run, cli._quiet_stdout = run, again\n"
        f"sys.argv = ['beastodds', *{RULES!r}]\n"
        "sys.exit(cli.main())\n"
    )
    done = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=env(), timeout=900)
    assert done.returncode == 130 and done.stderr == "beastodds: interrupted\n"


def test_main_with_arguments_leaves_the_ctrl_c_handler_alone(capsys):
    """In a process of its own making (tests, notebooks) ``main(argv)`` keeps Ctrl-C as it was."""
    before = signal.getsignal(signal.SIGINT)
    assert cli.main(RULES) == 0
    assert signal.getsignal(signal.SIGINT) is before
    capsys.readouterr()


@pytest.mark.slow
def test_ctrl_c_during_the_first_jit_compile(tmp_path):
    """An empty NUMBA_CACHE_DIR makes the kernels compile; the signal comes when the first run says so."""
    proc = subprocess.Popen(
        [PY, "-m", "analysis.cli", "v5", "--pool", "12", "--hunger", "3", "--difficulty", "4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env(NUMBA_CACHE_DIR=str(tmp_path / "cache")),
    )
    try:
        line = proc.stderr.readline()
        assert line.startswith(b"beastodds: compiling the counting kernels"), line + proc.stderr.read()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=900)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert err.decode().splitlines()[-1] == "beastodds: interrupted" and b"Traceback" not in err


@pytest.mark.slow
def test_ctrl_c_while_blocked_writing_to_a_pipe():
    # about 300 kB of table: far more than a pipe holds, so the write blocks once the first byte is out
    argv = ["v5", "--pool", "1-30", "--hunger", "0-5", "--difficulty", "1-15"]
    code, _, err = _interrupt_when(argv, "stdout", " ")
    assert code == 130 and err == "beastodds: interrupted\n"


# ------------------------------------------------------- numba cache trouble

CLASSIC = ["classic", "--pool", "5", "--difficulty", "6"]


@pytest.fixture(scope="module")
def expected_classic():
    done = beastodds(*CLASSIC)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _copy_tree(dest: Path) -> Path:
    for pkg in ("analysis", "kernels"):
        shutil.copytree(ROOT / pkg, dest / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _run_copy(tree: Path, **extra):
    return subprocess.run(
        [PY, "-m", "analysis.cli", *CLASSIC],
        capture_output=True,
        text=True,
        cwd=tree,
        env=dict(os.environ, PYTHONPATH=str(tree), **extra),
        timeout=900,
    )


def _notes(err: str) -> list:
    return [line for line in err.splitlines() if line.startswith("beastodds: note:")]


@pytest.mark.slow
def test_no_writable_cache_folder_still_answers(tmp_path, expected_classic):
    tree = _copy_tree(tmp_path)
    (tree / "kernels" / "__pycache__").write_text("a file where the cache folder would go")
    blocked = str(tmp_path / "kernels" / "__pycache__" / "x")  # under a file: never a folder
    done = _run_copy(tree, NUMBA_CACHE_DIR=blocked, XDG_CACHE_HOME=blocked)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected_classic
    notes = _notes(done.stderr)
    assert len(notes) == 1 and "no writable folder for the numba cache" in notes[0]
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_a_full_cache_disk_still_answers(tmp_path, expected_classic):
    """numba cannot save a compiled kernel (files are capped at 4 KiB, as a full disk would refuse them):
    the command answers from memory, and says once that the kernels are compiled again next time."""
    tree = _copy_tree(tmp_path)

    def capped():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the cap fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    done = subprocess.run(
        [PY, "-m", "analysis.cli", *CLASSIC],
        capture_output=True,
        text=True,
        cwd=tree,
        env=dict(os.environ, PYTHONPATH=str(tree)),
        timeout=900,
        preexec_fn=capped,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected_classic
    notes = _notes(done.stderr)
    assert len(notes) == 1 and "File too large" in notes[0] and "compiled again in the next run" in notes[0]
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_damaged_cache_files_are_compiled_again_and_replaced(tmp_path, expected_classic):
    tree = _copy_tree(tmp_path)
    cache = tree / "kernels" / "__pycache__"
    first = _run_copy(tree)
    assert first.returncode == 0 and _notes(first.stderr) == [], first.stderr
    index, data = sorted(cache.glob("*.nbi")), sorted(cache.glob("*.nbc"))
    assert index and data
    for path in index[::2]:
        path.write_bytes(b"not a pickle")
    for path in data[1::2]:
        path.write_bytes(path.read_bytes()[:50])  # truncated
    damaged = _run_copy(tree)
    assert damaged.returncode == 0, damaged.stderr
    assert damaged.stdout == expected_classic
    notes = _notes(damaged.stderr)
    assert len(notes) == 1 and "damaged" in notes[0]
    repaired = _run_copy(tree, NUMBA_DEBUG_CACHE="1")
    assert repaired.returncode == 0 and _notes(repaired.stderr) == []
    assert "[cache] data loaded from" in repaired.stdout and "[cache] data saved to" not in repaired.stdout


# ----------------------------------------------------- rule-set file loading


def test_deeply_nested_toml_is_one_sentence(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 500 + "]" * 500 + "\n")
    with pytest.raises(ValueError, match="nested too deeply"):
        rulesets.load(path)
    with pytest.raises(ValueError, match="nested too deeply"):
        rulesets.from_toml("x = " + "{a = " * 600 + "1" + "}" * 600)


def test_a_utf8_bom_is_accepted(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b'\xef\xbb\xbfsystem = "v5"\nname = "v5-bom"\ncrit_bonus = 3\n')
    rs = rulesets.load(path)
    assert rs.name == "v5-bom" and rs.rules.crit_bonus == 3


def test_non_utf8_bytes_are_one_sentence(tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes('system = "v5"\nname = "café"\n'.encode("latin-1"))
    with pytest.raises(ValueError, match=r"not UTF-8 text \(byte 0xe9"):
        rulesets.load(path)


def test_a_directory_says_so(tmp_path):
    for name in ("folder", "folder.toml"):
        (tmp_path / name).mkdir()
        with pytest.raises(ValueError, match="is a directory"):
            rulesets.load(str(tmp_path / name))


@pytest.mark.slow
def test_devices_and_pipes_are_refused_without_reading(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)  # no writer: opening it to read would wait forever
    # in a child with a memory cap: reading /dev/zero to its end would never stop
    code = (
        "import sys\nfrom pathlib import Path\nfrom analysis.workbench import rulesets\n"
        "for ref in sys.argv[1:] + [Path('/dev/zero')]:\n"
        "    try:\n        rulesets.load(ref)\n    except ValueError as exc:\n        print(exc)\n"
    )

    def capped():
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    done = subprocess.run(
        [PY, "-c", code, str(fifo), "/dev/zero"],
        capture_output=True,
        text=True,
        env=env(),
        timeout=300,
        preexec_fn=capped,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and all("not a regular file" in line for line in lines), lines


def test_a_huge_file_is_refused(tmp_path):
    path = tmp_path / "huge.toml"
    with open(path, "wb") as f:
        f.truncate(safeio.MAX_FILE_BYTES * 50)  # sparse: big without using the disk
    with pytest.raises(ValueError, match="too big for a rule-set file"):
        rulesets.load(path)


def test_odd_rule_set_paths_from_the_cli(tmp_path, capsys):
    (tmp_path / "folder").mkdir()
    (tmp_path / "deep.toml").write_text("x = " + "[" * 500 + "]" * 500 + "\n")
    for ref, message in (
        (tmp_path / "folder", "is a directory"),
        ("/dev/zero", "not a regular file"),
        (tmp_path / "deep.toml", "nested too deeply"),
    ):
        code = cli.main(["table", str(ref), "--pool", "2", "--hunger", "0", "--difficulty", "1"])
        out, err = capsys.readouterr()
        assert code == 2 and not out and one_sentence(err) and message in err
    deep = "[" * 600 + "]" * 600
    assert cli.main([*V5, "--set", f"crit_bonus={deep}"]) == 2
    assert "nested too deeply" in capsys.readouterr().err
