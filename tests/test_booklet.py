"""`make booklet`: one self-contained HTML page, a section per system, the rule set above each table; it renders in headless Chromium."""
import dataclasses
import os
import re
import shutil
import struct
import subprocess
import types
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from analysis import booklet, build, rulesets
from analysis.system import System

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def page(tmp_path_factory, figures_once):
    path = booklet.build(tmp_path_factory.mktemp("booklet") / "booklet.html")
    return path, path.read_text(encoding="utf-8")


class _Outline(HTMLParser):
    """The page's sections, headings, rule statements, tables and images, in order."""

    def __init__(self):
        super().__init__()
        self.events, self._tag, self._text = [], None, ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("h2", "h4"):
            self._tag, self._text = tag, ""
        elif tag == "p" and attrs.get("class") == "rules":
            self.events.append(("rules", None))
        elif tag == "table":
            self.events.append(("table", None))
        elif tag == "img":
            self.events.append(("img", attrs.get("src", "")))
        elif tag == "section":
            self.events.append(("section", attrs.get("id")))

    def handle_data(self, data):
        if self._tag:
            self._text += data

    def handle_endtag(self, tag):
        if tag == self._tag:
            self.events.append((tag, self._text.strip()))
            self._tag = None


def _outline(text):
    parser = _Outline()
    parser.feed(text)
    return parser.events


@pytest.mark.slow
def test_one_section_per_system_with_every_table_and_figure(page):
    _, text = page
    events = _outline(text)
    sections = [v for k, v in events if k == "section"]
    assert sections[:2] == ["system-v5", "system-cards"]
    titles = [v for k, v in events if k == "h2"]
    assert titles[:2] == [rulesets.SYSTEMS["v5"].title, rulesets.SYSTEMS["cards"].title]
    headings = {v.split(" (")[0] for k, v in events if k == "h4"}
    for _, module in build._modules("published"):
        for name in module.make_tables():
            assert name in headings
    for rs in rulesets.variants():
        if rs.changes():
            assert rs.name in headings
    images = [v for k, v in events if k == "img"]
    figure_modules = [n for n, _ in build._modules("figures")]
    assert len(images) == len(figure_modules)
    for name in figure_modules:
        assert f'id="figure-{name.replace("_", "-")}"' in text


@pytest.mark.slow
def test_the_rule_set_is_stated_above_each_table(page):
    events = _outline(page[1])
    for i, (kind, _) in enumerate(events):
        if kind == "table":
            before = [k for k, _ in events[:i] if k in ("h4", "rules", "table")]
            assert before[-2:] == ["h4", "rules"], f"table {i} has no rule statement above it"
    assert "v5-official" in page[1] and "bestial_hunger_ones = 2" in page[1]


@pytest.mark.slow
def test_the_page_is_self_contained(page):
    _, text = page
    assert not re.search(r"(?:src|href)\s*=\s*[\"'](?!data:|#)", text), "a link leaves the page"
    assert "http://" not in text and "https://" not in text and "@import" not in text
    assert "<style>" in text and "<script" not in text
    assert text.count('src="data:image/png;base64,') >= 4


@dataclasses.dataclass(frozen=True)
class _ZombieRules:
    bite: int = 1


def test_a_new_system_gets_its_section_without_code(monkeypatch, tmp_path):
    """A system's published and figure modules make its section, with no list to update."""
    from matplotlib.figure import Figure

    def make_tables():
        return {"zombie_demo": (pd.DataFrame({"pool": [1, 2], "p": [0.25, 0.5]}), ("pool",))}

    def make_figure():
        fig = Figure(figsize=(2, 2))
        fig.subplots().plot([0, 1])
        return fig

    pub = types.SimpleNamespace(make_tables=make_tables, __doc__="Demo tables.")
    fig = types.SimpleNamespace(make_figure=make_figure, __doc__="Demo figure.")

    class Zombie(System):
        def published_modules(self):
            return [("zombie_demo", pub)]

        def figure_modules(self):
            return [("zombie_demo", fig)]

    monkeypatch.setitem(rulesets.SYSTEMS, "zombie",
                        Zombie("zombie", rules=_ZombieRules, table=None, axes={"pool": "1-2"}))
    path = booklet.build(tmp_path / "b.html", only=["zombie"])
    events = _outline(path.read_text())
    assert [v for k, v in events if k == "h2"] == ["zombie"]
    assert [k for k, _ in events if k in ("h4", "rules", "table", "img")] == ["h4", "rules", "table", "img"]
    assert "zombie-official" in path.read_text()
    with pytest.raises(ValueError, match="no booklet section nope"):
        booklet.build(tmp_path / "c.html", only=["nope"])


def _chromium():
    return shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.mark.slow
def test_the_booklet_renders_in_headless_chromium(page, tmp_path):
    exe = _chromium()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI: .ci/run must install Debian's chromium package")
        pytest.skip("chromium is not installed (apt-get install --no-install-recommends chromium); "
                    "CI installs it and runs this test")
    path, text = page
    shot = tmp_path / "booklet.png"
    common = [exe, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    done = subprocess.run([*common, f"--screenshot={shot}", "--window-size=1200,2000", path.as_uri()],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1200, 2000)
    assert len(data) > 50_000, "the screenshot is suspiciously small (a blank page?)"
    from PIL import Image

    with Image.open(shot) as im:
        gray = im.convert("L")
        dark = sum(gray.histogram()[:128])
    assert dark > 0.01 * width * height, "the screenshot shows almost no text"

    dom = subprocess.run([*common, "--dump-dom", path.as_uri()], capture_output=True, text=True,
                         timeout=180)
    assert dom.returncode == 0, dom.stderr[-2000:]
    rendered = len(re.findall(r"<table\b", dom.stdout))
    assert rendered == len(re.findall(r"<table\b", text)) and rendered >= 20
    assert "The odds booklet" in dom.stdout


def test_make_has_the_booklet_and_figures_targets():
    out = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    assert "make booklet" in out and "make figures" in out
    dry = subprocess.run(["make", "-n", "booklet"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60).stdout
    assert "analysis.build booklet" in dry
