"""Booklets: ``beastodds booklet RULESET... -o FILE`` for any rule sets, and ``make booklet`` (the shipped one).

Both are one self-contained HTML page with readable headings, pivoted
tables and a legend under every table; they render in headless Chromium
(the screenshot test needs Debian's ``chromium``; it is skipped without it,
except under ``CI=true`` where it must run).
"""

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

from analysis.present import booklet, published
from analysis.present.formats.summary import flat_axes
from analysis.cli import build
from analysis.workbench import rulesets
from analysis.model.system import System

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def page(tmp_path_factory, figures_once):
    """The shipped booklet (every system: slow)."""
    path = booklet.build(tmp_path_factory.mktemp("booklet") / "booklet.html")
    return path, path.read_text(encoding="utf-8")


class _Outline(HTMLParser):
    """The page's sections, headings, rule statements, tables and images, in order."""

    def __init__(self):
        super().__init__()
        self.events, self._tag, self._text = [], None, ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("h2", "h3", "h4"):
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
    headings = [v for k, v in events if k == "h4"]
    for _, module in build._modules("tables"):
        for name in module.make_tables():
            title = booklet.table_title(module, name)
            assert "_" not in title, f"the heading of {name} is not readable: {title!r}"
            assert f"{title}{name}" in headings  # the readable title, then the table's file name
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
            last_heading = max(j for j, (k, _) in enumerate(events[:i]) if k in ("h2", "h3", "h4"))
            assert "rules" in [k for k, _ in events[last_heading:i]], f"table {i} has no rule statement above it"
    assert "v5-official" in page[1] and "bestial_hunger_ones = 2" in page[1]


@pytest.mark.slow
def test_the_shipped_booklet_is_readable(page):
    """Legends under every table, no long-form dump in view, combined cells explained."""
    text = page[1]
    _assert_readable(text)
    assert "v5_full (960 rows)" not in text
    layout = text.split('id="table-v5-core-difficulty3-layout"')[1].split("<h4")[0]
    assert "2.8% / 26.8%" in layout and "messy critical / bestial failure" in layout


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
    """A system's published table and figure modules, listed, make its section: no other code."""
    from matplotlib.figure import Figure

    def make_tables():
        return {"zombie_demo": (pd.DataFrame({"pool": [1, 2], "p": [0.25, 0.5]}), ("pool",))}

    def make_figure():
        fig = Figure(figsize=(2, 2))
        fig.subplots().plot([0, 1])
        return fig

    zombie = System("zombie", rules=_ZombieRules, table=None, axes={"pool": "1-2"})
    pub = types.SimpleNamespace(
        __name__="z.zombie_demo", make_tables=make_tables, __doc__="Demo tables.", SYSTEM=zombie
    )
    fig = types.SimpleNamespace(
        __name__="z.zombie_demo", make_figure=make_figure, __doc__="Demo figure.", SYSTEM=zombie
    )
    monkeypatch.setattr(published, "TABLES", (*published.TABLES, pub))  # their lines in the list
    monkeypatch.setattr(published, "FIGURES", (*published.FIGURES, fig))
    monkeypatch.setitem(rulesets.SYSTEMS, "zombie", zombie)
    path = booklet.build(tmp_path / "b.html", only=["zombie"])
    events = _outline(path.read_text())
    assert [v for k, v in events if k == "h2"] == ["zombie"]
    assert [k for k, _ in events if k in ("h4", "rules", "table", "img")] == ["h4", "rules", "table", "img"]
    assert "zombie-official" in path.read_text()
    with pytest.raises(ValueError, match="no booklet section nope"):
        booklet.build(tmp_path / "c.html", only=["nope"])


def _chromium():
    return shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)


CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.mark.slow
def test_the_booklet_renders_in_headless_chromium(page, tmp_path):
    exe = _chromium()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing in CI: .ci/run must install Debian's chromium package")
        pytest.skip(
            "chromium is not installed (apt-get install --no-install-recommends chromium); "
            "CI installs it and runs this test"
        )
    path, text = page
    shot = tmp_path / "booklet.png"
    common = [exe, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    done = subprocess.run(
        [*common, f"--screenshot={shot}", "--window-size=1200,2000", path.as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
    )
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

    dom = subprocess.run([*common, "--dump-dom", path.as_uri()], capture_output=True, text=True, timeout=180)
    assert dom.returncode == 0, dom.stderr[-2000:]
    rendered = len(re.findall(r"<table\b", dom.stdout))
    assert rendered == len(re.findall(r"<table\b", text)) and rendered >= 20
    assert "The odds booklet" in dom.stdout


def test_make_has_the_booklet_and_figures_targets():
    out = subprocess.run(["make", "-s", "help"], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    assert "make booklet" in out and "make figures" in out
    dry = subprocess.run(["make", "-n", "booklet"], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    assert "analysis.cli.build booklet" in dry


# ------------------------------------------------------------ a booklet of your own rule sets

MINE = """\
system = "v5"
name = "my-table"
description = "Our table's house rule: a critical pair adds three successes, and two Hunger 1s make a failure bestial."
crit_bonus = 3
bestial_hunger_ones = 2
"""

#: A small grid keeps the test quick.
GRID = {"pool": "1-5", "hunger": "0-3", "difficulty": "1-4"}


def _assert_readable(text):
    """Every table has a legend under it; no heading or caption is snake_case; nothing long is in view."""
    tables = re.findall(r"<table\b.*?</table>\s*(?:</div>\s*)?(<ul class=\"legend\">)?", text, re.S)
    assert tables and all(tables), f"{tables.count('')} of {len(tables)} tables have no legend under them"
    for tag in ("h2", "h3", "h4", "caption", "th"):
        for inner in re.findall(rf"<{tag}\b[^>]*>(.*?)</{tag}>", text, re.S):
            shown = re.sub(r"<code\b.*?</code>", "", inner)  # a file or field name may stay technical
            assert not re.search(r"\b[a-z0-9]+_[a-z0-9_]+\b", shown), f"snake_case in <{tag}>: {inner!r}"
    # outside <details>, no table longer than LONG_ROWS rows
    visible = re.sub(r"<details>.*?</details>", "", text, flags=re.S)
    for body in re.findall(r"<tbody>(.*?)</tbody>", visible, re.S):
        assert body.count("<tr>") <= booklet.LONG_ROWS


@pytest.fixture(scope="module")
def mine(tmp_path_factory):
    """A booklet of a TOML rule set written here and a shipped one of another system."""
    folder = tmp_path_factory.mktemp("mine")
    toml = folder / "mine.toml"
    toml.write_text(MINE, encoding="utf-8")
    path = booklet.build_rulesets([toml, "requiem-la-soif"], folder / "mine.html", grid=GRID)
    return path, path.read_text(encoding="utf-8")


def test_a_booklet_of_my_rule_sets_is_headed_by_each_name_and_description(mine):
    path, text = mine
    events = _outline(text)
    assert [v for k, v in events if k == "h2"] == ["my-table", "requiem-la-soif"]
    assert "Our table&#x27;s house rule: a critical pair adds three successes" in text
    assert rulesets.load("requiem-la-soif").description[:40] in html_unescape(text)
    h3 = [v for k, v in events if k == "h3"]
    assert h3.count("Changes from the official rules") == 2 and "Figures" in h3
    # the changes from the official rules: each rule in words (its help), its official and new value
    changes = text.split("Changes from the official rules")[1].split("</table>")[0]
    assert "<th>Rule</th><th>Official</th><th>my-table</th>" in changes
    assert (
        "<td>Bonus successes for each pair of 10s, on any dice (0..20); official 2.<br>"
        '<code class="name">crit_bonus</code></td><td>2</td><td><b>3</b>'
    ) in changes
    assert '<code class="name">bestial_hunger_ones</code></td><td>1</td><td><b>2</b>' in changes
    assert "What it sets" not in changes
    # figures for the rule set: curves beside the official rules, and the difference heatmap
    images = [v for k, v in events if k == "img"]
    assert len(images) >= 3 and all(v.startswith("data:image/png;base64,") for v in images)
    assert 'id="figure-my-table-heatmap"' in text and 'id="figure-my-table-curves"' in text


def html_unescape(text):
    import html

    return html.unescape(text)


def test_my_booklet_shows_pivoted_exact_odds_with_legends(mine):
    from fractions import Fraction

    from analysis.systems.v5 import V5Rules, odds

    _, text = mine
    _assert_readable(text)
    section = text.split('<section id="ruleset-my-table">')[1].split("</section>")[0]
    # this house rule never lets Hunger change the chance to win (checked exactly): said once, shown once
    rules = V5Rules(crit_bonus=3, bestial_hunger_ones=2)
    assert "Hunger never changes the chance to win here" in section
    title = f"{booklet.label('p_win')}, any Hunger"
    assert section.count(title) == 1 and "Chance to win at Difficulty" not in section
    # the cell pool 5 at Difficulty 2 is the exact chance, rounded from its Fraction, the same at every Hunger
    p = odds(5, 3, 2, rules).p_win
    assert isinstance(p, Fraction) and {odds(5, h, 2, rules).p_win for h in range(4)} == {p}
    pivot = section.split(title)[1].split("</table>")[0]
    row5 = re.search(r"<tr><th>5</th>(.*?)</tr>", pivot).group(1)
    cells = re.findall(r"<td>(.*?)</td>", row5)
    tenths = int(p * 1000 + Fraction(1, 2))  # rounded half up from the exact fraction (13/16: 81.3%)
    assert len(cells) == 4 and cells[1] == f"{tenths // 10}.{tenths % 10}%"  # Difficulty 1 .. 4, every value given
    legend = section.split(title)[1].split("</ul>")[0]
    assert "<b>Pool</b>" in legend and "<b>Difficulty 1 … 4</b>" in legend and "<b>Each cell</b>" in legend
    assert "<b>Any Hunger</b>: Hunger 0 … 3 give exactly the same numbers in every cell" in legend
    # every outcome class by its readable name, Hunger across, and the long form folded away
    for name, _ in rulesets.SYSTEMS["v5"].classes:
        assert f"<caption>{booklet.label(name)}</caption>" in section
    assert "<b>Hunger 0 … 3</b>" in section
    assert re.search(r"<details><summary>The whole table: 80 rows", section)


def test_zero_and_one_are_never_rounded_into_view():
    from fractions import Fraction

    from analysis.present.formats.html import PERCENT_DIGITS
    from analysis.model.numbers import percent_text

    def shown(p):  # a percentage as the booklet's tables show it
        return percent_text(p, PERCENT_DIGITS)

    assert shown(Fraction(0)) == "0%" and shown(Fraction(1)) == "100%"
    assert shown(Fraction(1, 10**6)) == "<0.1%"
    assert shown(1 - Fraction(1, 10**6)) == ">99.9%"
    assert shown(Fraction(1, 3)) == "33.3%"


@pytest.mark.slow
def test_the_booklet_command(tmp_path, capsys):
    from analysis.cli import main

    toml = tmp_path / "mine.toml"
    toml.write_text(MINE, encoding="utf-8")
    out = tmp_path / "b.html"
    assert main(["booklet", str(toml), "classic-official", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "wrote" in err and "my-table" in err
    text = out.read_text(encoding="utf-8")
    assert [v for k, v in _outline(text) if k == "h2"] == ["my-table", "classic-official"]
    assert "No change: these are the official rules (classic-official)." in text
    assert not list(tmp_path.glob(".b.html.*")), "a temporary file was left behind"
    # writing it again replaces it, and says so, as every output file of the command line
    assert main(["booklet", "classic-official", "-o", str(out), "--quiet"]) == 0
    assert capsys.readouterr().err == f"beastodds: replaced {out}\n"
    assert [v for k, v in _outline(out.read_text(encoding="utf-8")) if k == "h2"] == ["classic-official"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["booklet", "v5-official", "-o", "out.txt"], "-o/--output must name an .html file"),
        (["booklet", "v5-offical", "-o", "out.html"], "unknown rule set 'v5-offical' (did you mean v5-official?)"),
        (["booklet", "v5-official", "-o", "no/such/folder/b.html"], "the folder 'no/such/folder' does not exist"),
        (["booklet", "v5-official", "v5-official", "-o", "b.html"], "the rule set v5-official is named twice"),
        # the ranges: an axis of no rule set's system, a value out of an axis' limits, a backward range
        (
            ["booklet", "v5-official", "--rage", "1-3", "-o", "b.html"],
            "--rage is not an axis of the system v5; its axes are --pool, --hunger, --difficulty",
        ),
        (
            ["booklet", "v5-official", "cards-official", "--rage", "1", "-o", "b.html"],
            "--rage is not an axis of any of these rule sets; their axes are v5: --pool, --hunger, --difficulty; "
            "cards: --base, --difficulty, --hunger",
        ),
        (["booklet", "v5-official", "--hunger", "7", "-o", "b.html"], "--hunger must be 0..5, got 7"),
        (["booklet", "v5-official", "--pool", "3-1", "-o", "b.html"], "--pool: the range 3-1 runs backwards"),
    ],
)
def test_the_booklet_command_refuses_bad_input_in_one_sentence(argv, message, tmp_path, monkeypatch, capsys):
    from analysis.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("beastodds: error: ") and message in err and err.count("\n") == 1
    assert not list(tmp_path.glob("*.html"))


def test_the_booklet_command_needs_an_output_file(capsys):
    from analysis.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["booklet", "v5-official"])
    assert exc.value.code == 2
    assert "beastodds: error: the following arguments are required: -o/--output" in capsys.readouterr().err


def test_a_failed_build_leaves_the_old_booklet(tmp_path, monkeypatch):
    out = tmp_path / "b.html"
    out.write_text("the old booklet", encoding="utf-8")

    def broken(*args, **kwargs):
        raise RuntimeError("figure failed")

    monkeypatch.setattr(booklet, "_ruleset_section", broken)
    with pytest.raises(RuntimeError):
        booklet.build_rulesets(["v5-official"], out)
    assert out.read_text(encoding="utf-8") == "the old booklet"
    assert [p.name for p in tmp_path.iterdir()] == ["b.html"]


def _screenshot(path, tmp_path, height=2000):
    """A headless Chromium screenshot of ``path`` (PNG bytes, width, height, dark pixels)."""
    exe = _chromium()
    if exe is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("chromium is missing in CI: .ci/run must install Debian's chromium package")
        pytest.skip(
            "chromium is not installed (apt-get install --no-install-recommends chromium); "
            "CI installs it and runs this test"
        )
    shot = tmp_path / "booklet.png"
    common = [exe, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    done = subprocess.run(
        [*common, f"--screenshot={shot}", f"--window-size=1200,{height}", path.as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, high = struct.unpack(">II", data[16:24])
    from PIL import Image

    with Image.open(shot) as im:
        gray = im.convert("L")
        dark = sum(gray.histogram()[:128])
    return common, data, width, high, dark


@pytest.mark.slow
def test_my_booklet_renders_in_headless_chromium(mine, tmp_path):
    path, text = mine
    common, data, width, height, dark = _screenshot(path, tmp_path)
    assert (width, height) == (1200, 2000)
    assert len(data) > 50_000, "the screenshot is suspiciously small (a blank page?)"
    assert dark > 0.01 * width * height, "the screenshot shows almost no text"
    dom = subprocess.run([*common, "--dump-dom", path.as_uri()], capture_output=True, text=True, timeout=180)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert len(re.findall(r"<table\b", dom.stdout)) == len(re.findall(r"<table\b", text))
    assert "Odds booklet: my-table, requiem-la-soif" in dom.stdout


# ------------------------------------------------------------ legends in a system's own words

#: Words that name a system in a legend line.
_SYSTEM_WORDS = {
    "v5": ("V5",),
    "cards": ("cards", "ten-card", "card test"),
    "classic": ("classic",),
    "requiem": ("Requiem",),
    "werewolf": ("Werewolf",),
    "hunter": ("Hunter",),
}


@pytest.mark.parametrize("name", list(_SYSTEM_WORDS))
def test_legends_carry_no_other_systems_notes(name):
    """A legend of one system's table speaks of that system only ("(V5; cards: Hunger draws)" is gone)."""
    from analysis.workbench import sweep
    from analysis.present.tables import legend

    system = rulesets.SYSTEMS[name]
    grid = {a: spec.split("-")[0].split(",")[0] for a, spec in system.axes}
    df = sweep.tables(system, [rulesets.official(system).rules], grid)[0]
    lines = legend(list(df.columns), system)
    assert not [line for line in lines if "no meaning recorded" in line]
    for other, words in _SYSTEM_WORDS.items():
        if other == name:
            continue
        for line in lines:
            meaning = line.split(": ", 1)[1]
            assert not any(re.search(rf"\b{re.escape(w)}\b", meaning) for w in words), (name, line)
    assert "5th-edition dice" not in " ".join(lines)


# ------------------------------------------------------------ what a player reads (issue 19, item 5)

MECHANIC = ROOT / "analysis" / "model" / "examples" / "three-kinds.toml"


def test_an_axis_is_shown_once_only_when_it_never_changes_the_value_exactly():
    from fractions import Fraction as F

    df = pd.DataFrame({"pool": [1, 1, 2, 2], "hunger": [0, 1, 0, 1], "p_win": [F(1, 3), F(1, 3), F(1, 2), F(1, 2)]})
    assert flat_axes(df, "p_win", ["pool", "hunger"]) == ["hunger"]
    # a difference of 10**-30 is a difference, though both round to the same float
    close = df.assign(p_win=[F(1, 3), F(1, 3) + F(1, 10**30), F(1, 2), F(1, 2)])
    assert float(close.p_win[0]) == float(close.p_win[1])
    assert flat_axes(close, "p_win", ["pool", "hunger"]) == []
    # floats are never trusted to be equal
    assert flat_axes(df.assign(p_win=df.p_win.astype(float)), "p_win", ["pool", "hunger"]) == []


def test_hunger_columns_stay_where_a_house_rule_lets_hunger_change_the_chance(tmp_path):
    from analysis.systems.v5 import odds

    rs = rulesets.load("v5-hunger-one-taints-win")
    assert odds(4, 0, 1, rs.rules).p_win != odds(4, 2, 1, rs.rules).p_win
    path = booklet.build_rulesets([rs], tmp_path / "t.html", grid={"pool": "1-4", "hunger": "0-2", "difficulty": "1-2"})
    text = path.read_text(encoding="utf-8")
    assert "never changes" not in text and "any Hunger" not in text
    pivot = text.split("<caption>Chance to win at Difficulty 1</caption>")[1].split("</div>")[0]
    assert "<b>Hunger 0 … 2</b>" in pivot
    assert "<caption>Chance to win at Difficulty 2</caption>" in text
    # a rule set given in Python: named, its source said, no command to rebuild it
    footer = text.split("<footer>")[1]
    assert "<b>v5-hunger-one-taints-win</b>, shipped with beastodds (v5-hunger-one-taints-win.toml)" in footer
    assert "RuleSet(" not in text and "Built by <code>beastodds booklet v5-hunger-one-taints-win " in footer
    custom = dataclasses.replace(rs, name="ours", source="")
    path = booklet.build_rulesets(
        [custom], tmp_path / "c.html", grid={"pool": "1-2", "hunger": "0-1", "difficulty": "1"}
    )
    footer = path.read_text(encoding="utf-8").split("<footer>")[1]
    assert "<b>ours</b>, given in Python" in footer and "Built by" not in footer


def test_the_footer_names_each_rule_set_and_its_source(mine):
    path, text = mine
    footer = text.split("<footer>")[1].split("</footer>")[0]
    assert "RuleSet(" not in text and "V5Rules(" not in text
    assert f"<b>my-table</b>, the file {path.parent / 'mine.toml'}" in footer
    assert "<b>requiem-la-soif</b>, shipped with beastodds (requiem-la-soif.toml)" in footer
    assert "Chosen ranges: pool 1-5, hunger 0-3, difficulty 1-4" in footer
    assert "requiem-la-soif --pool 1-5 --hunger 0-3 --difficulty 1-4 -o mine.html</code>" in footer


def test_the_curves_show_every_hunger_spread_when_many():
    assert booklet._spread(range(6), booklet.PANELS) == [0, 1, 2, 3, 4, 5]
    assert booklet._spread(range(5, 21), 6) == [5, 8, 11, 14, 17, 20]
    assert booklet._spread([2, 4], 6) == [2, 4]


def test_the_booklet_command_takes_ranges_for_shipped_rule_sets_and_mechanic_files(tmp_path, capsys, monkeypatch):
    """``booklet ... --pool 2-4 --difficulty 2-3``: each system's tables over those values; a mechanic
    file's section has its own title, description and axes (``--blood``)."""
    from analysis.present import plots
    from tests.conftest import run_cli

    drawn = []
    curves = plots.variant_curves

    def recording(*args, **kwargs):
        drawn.append(kwargs["grid"])
        return curves(*args, **kwargs)

    monkeypatch.setattr(plots, "variant_curves", recording)
    out = tmp_path / "r.html"
    code, _, err = run_cli(
        capsys,
        "booklet",
        "v5-two-hunger-ones-for-bestial",
        MECHANIC,
        "--pool",
        "2-4",
        "--difficulty",
        "2-3",
        "--blood",
        "1",
        "-o",
        out,
    )
    assert code == 0, err
    text = out.read_text(encoding="utf-8")
    _assert_readable(text)
    assert "one per cell of the grid pool 2-4, hunger 0-5, difficulty 2,3</summary>" in text
    assert "one per cell of the grid pool 2-4, hunger 0-3, blood 1, difficulty 2,3</summary>" in text
    # every Difficulty given is shown; Hunger never changes this V5 rule set's chance to win
    v5 = text.split('<section id="ruleset-v5-two-hunger-ones-for-bestial">')[1].split("</section>")[0]
    assert "<caption>Chance to win, any Hunger</caption>" in v5 and "<b>Difficulty 2 … 3</b>" in v5
    # the mechanic file: its own title and description, and its own axis
    from analysis.model.spec import load

    mech = load(MECHANIC)
    h2 = [v for k, v in _outline(text) if k == "h2"]
    assert h2 == ["v5-two-hunger-ones-for-bestial", f"{mech.title}three-kinds"]
    assert f"<h1>Odds booklet: v5-two-hunger-ones-for-bestial, {booklet._esc(mech.title)}</h1>" in text
    assert booklet._esc(mech.description) in text and f"from {booklet._esc(mech.source)}" in text
    mine = text.split('<section id="ruleset-three-kinds">')[1]
    assert "<caption>Chance to win at Difficulty 2</caption>" in mine
    assert "<caption>Chance to win at Difficulty 3</caption>" in mine
    # the curves: a panel for every Hunger of each grid
    assert [g["hunger"] for g in drawn] == ["0,1,2,3,4,5", "0,1,2,3"]
    assert drawn[0]["pool"] == "2,3,4" and drawn[1]["blood"] == "1"
    footer = text.split("<footer>")[1]
    assert (
        f"booklet v5-two-hunger-ones-for-bestial {MECHANIC} --pool 2-4 --difficulty 2-3 --blood 1 -o r.html"
    ) in footer
