"""Shared test settings and fixtures.

A hypothesis profile sized for CI, and the figures built once per session:
every figure module's ``make_figure()`` runs once (``built_figures``), and
``figures_once`` makes later calls without arguments return that same
figure, so the figures test and the booklet test render them without
computing them again.
"""

import contextlib

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "beastodds",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("beastodds")


def pytest_configure(config):
    """Every kernel module is imported once before the tests: each is then known on this machine, so
    that no test's own process prints the first run's "compiling" line (the tests of that line give
    numba an empty NUMBA_CACHE_DIR)."""
    import importlib
    import pkgutil

    import kernels

    for module in pkgutil.iter_modules(kernels.__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"kernels.{module.name}")


@pytest.fixture(scope="session")
def built_figures():
    """``{module name: (module, Figure)}``: every figure module's figure, built once."""
    import matplotlib

    matplotlib.use("Agg")
    from analysis.cli import build

    return {name: (module, module.make_figure()) for name, module in build._modules("figures")}


@pytest.fixture(scope="session")
def figures_once(built_figures):
    """While a test uses it, ``make_figure()`` (without arguments) of every
    figure module returns the session's figure instead of building it again."""
    with pytest.MonkeyPatch.context() as mp:
        for module, fig in built_figures.values():
            original = module.make_figure

            def make_figure(*args, _original=original, _fig=fig, **kwargs):
                return _original(*args, **kwargs) if (args or kwargs) else _fig

            mp.setattr(module, "make_figure", make_figure)
        yield built_figures


@contextlib.contextmanager
def systems_kept():
    """Mechanic files handed to the command line register systems: on leaving, the registered systems
    are those there were on entering (for a fixture wider than one test, which the autouse one below
    does not cover)."""
    import sys

    rulesets = sys.modules.get("analysis.workbench.rulesets")
    if rulesets is None:
        yield
        return
    systems, files = dict(rulesets.SYSTEMS), dict(rulesets.MECHANIC_FILES)
    try:
        yield
    finally:
        if rulesets.SYSTEMS != systems or rulesets.MECHANIC_FILES != files:
            rulesets.SYSTEMS.clear()
            rulesets.SYSTEMS.update(systems)
            rulesets.MECHANIC_FILES.clear()
            rulesets.MECHANIC_FILES.update(files)


@pytest.fixture(autouse=True)
def _registered_systems_restored():
    """Each test ends with the systems it started with, so no test sees another's files."""
    with systems_kept():
        yield


def run_cli(capsys, *argv):
    """``(exit code, stdout, stderr)`` of ``beastodds ARGV`` run in this process (``capsys``: the test's)."""
    from analysis import cli

    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv) -> str:
    """The one error line of a refused command (exit 2, no traceback, nothing on stdout)."""
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, (argv, out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("beastodds: error: "), err
    return lines[0][len("beastodds: error: ") :]


def d6_mechanic(name: str, successes: str, pool: str = "1-3", top: str = "20", sides: str = "6") -> str:
    """A small mechanic file: one kind of ``sides``-sided die (``a0`` on 1..3, ``a1`` on 4 up), a pool
    axis of default ``pool`` within 0..``top``, the count ``successes`` and a threshold parameter ``t``
    (the classes ``some``: successes >= t, else ``none``).  Each part is text, so a test may make it
    hostile."""
    return f"""[mechanic]
name = "{name}"
successes = "successes"
classes = ["none", "some"]

[parameters]
t = {{ default = 1, range = [0, 6], help = "a threshold" }}

[axes]
pool = {{ default = "{pool}", range = [0, {top}] }}

[kinds.die]
dice = "pool"
sides = {sides}
faces = {{ a0 = "1 .. 3", a1 = "4 .. {sides}" }}

[counts]
successes = "{successes}"

[[outcomes]]
name = "some"
when = "successes >= t"

[[outcomes]]
name = "none"
"""
