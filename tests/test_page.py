"""The page to share: ``beastodds page RULESET... -o odds.html`` (:mod:`analysis.present.page`).

Fast tests check the file without a browser: the data it holds is the exact
table (every cell of every system's default grid, a mechanic file's too), it
holds no link and no fetch, the default V5 page is small, hostile texts stay
data.  The slow tests open the page in headless Chromium through Playwright
(Debian's ``chromium``; skipped without it or without playwright, except under
``CI=true`` where they must run), drive its controls and read what it shows.
"""

from __future__ import annotations

import base64
import hashlib
import html
import itertools
import json
import math
import os
import re
import shlex
import shutil
import struct
from fractions import Fraction
from pathlib import Path

import pytest

from analysis.present import page
from analysis.workbench import rulesets
from analysis.workbench import sweep
from analysis.present.tables import fraction_text
from tests.conftest import systems_kept

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "analysis" / "model" / "examples"
MECHANIC = EXAMPLES / "three-kinds.toml"
#: The documentation of the page: the workbench's page of the site.
WORKBENCH = (ROOT / "docs" / "workbench.md").read_text(encoding="utf-8")

#: One rule set of every system, a house rule and a mechanic file.
REFS = [
    "v5-official",
    "v5-two-hunger-ones-for-bestial",
    "cards-official",
    "werewolf-official",
    "hunter-official",
    "requiem-la-soif",
    "classic-official",
    str(MECHANIC),
]

HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">'
HOSTILE_DESCRIPTION = "</script><script>window.__pwned=2</script><!-- \u2028 & done"


# ------------------------------------------------------------ what the page shows, restated


def shown_percent(f: Fraction) -> str:
    """The page's percentage, restated: two decimals rounded half up from the exact fraction."""
    if f == 0:
        return "0%"
    if f == 1:
        return "100%"
    hundredths = math.floor(f * 10_000 + Fraction(1, 2))
    if hundredths == 0:
        return "<0.01%"
    if hundredths == 10_000:
        return ">99.99%"
    return f"{hundredths // 100}.{hundredths % 100:02d}%"


def shown_mean(f: Fraction) -> str:
    n = math.floor(f * 100 + Fraction(1, 2))
    return f"{n // 100}.{n % 100:02d}"


def expected_cell(column: dict, value):
    """``[shown, exact, float]`` of one cell as the page must hold it."""
    if column["kind"] == "count":
        return [str(int(value)), str(int(value)), int(value)]
    f = Fraction(value)
    shown = shown_mean(f) if column["kind"] == "mean" else shown_percent(f)
    return [shown, fraction_text(f), float(f)]


def exact_rows(ref, grid=None) -> dict:
    """``{cell: row}`` of the exact table of ``ref`` (the API's table, exact Fractions)."""
    rs = rulesets.load(ref)
    df = sweep.table(rs, grid, exact=True)
    axes = rulesets.system(rs.system).axis_names
    return {tuple(int(r[a]) for a in axes): r for _, r in df.iterrows()}


def embedded(text: str) -> dict:
    m = re.search(r'<script type="application/json" id="odds-data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1))


# ------------------------------------------------------------ fast: the file


@pytest.mark.parametrize(
    "value, text",
    [
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        (Fraction(1, 3), "33.33%"),
        (Fraction(2, 3), "66.67%"),
        (Fraction(12345, 100_000), "12.35%"),  # half up on the exact value (float(0.12345) * 100 is below)
        (Fraction(1, 8), "12.50%"),
        (Fraction(1, 10**6), "<0.01%"),
        (1 - Fraction(1, 10**6), ">99.99%"),
        (Fraction(1, 20_000), "0.01%"),
        (Fraction(39, 40), "97.50%"),
    ],
)
def test_percentages_are_rounded_from_the_exact_fraction(value, text):
    assert page.percent_text(value) == text == shown_percent(value)


@pytest.mark.parametrize("ref", REFS, ids=lambda r: Path(r).name)
def test_the_data_is_the_exact_table(ref):
    """Every cell of the default grid: each class and column as its exact fraction, the float of that
    fraction and the percentage rounded from it, in grid order (the last axis fastest)."""
    data = page.page_data([ref])
    (rs_data,) = data["rule_sets"]
    rs = rulesets.load(ref)
    system = rulesets.system(rs.system)
    rows = exact_rows(ref)
    axes = [a["name"] for a in rs_data["axes"]]
    assert axes == list(system.axis_names)
    grid = sweep.resolve_grid(system)
    assert [a["values"] for a in rs_data["axes"]] == [grid[a] for a in axes]
    classes = [c["name"] for c in rs_data["columns"] if c["kind"] == "class"]
    assert classes == [c for c, _ in system.classes]
    assert rs_data["headline"] in [c["name"] for c in rs_data["columns"]]
    cells = list(itertools.product(*(grid[a] for a in axes)))
    assert len(rs_data["cells"]) == len(cells) == len(rows)
    for cell, values in zip(cells, rs_data["cells"]):
        row = rows[cell]
        for column, got in zip(rs_data["columns"], values):
            assert got == expected_cell(column, row[column["name"]]), (ref, cell, column["name"])
        shares = [Fraction(v[1]) for c, v in zip(rs_data["columns"], values) if c["kind"] == "class"]
        assert sum(shares) == 1, (ref, cell)


def test_a_grid_applies_to_the_rule_sets_that_have_its_axes():
    data = page.page_data(
        ["v5-official", "cards-official", str(MECHANIC)], {"pool": "2-3", "hunger": "1", "blood": "0,2"}
    )
    v5, cards, mine = data["rule_sets"]
    assert [a["values"] for a in v5["axes"]] == [[2, 3], [1], [1, 2, 3, 4, 5]]
    assert [a["values"] for a in cards["axes"]][2] == [1]  # cards' hunger; its base keeps its default
    assert [a["values"] for a in mine["axes"]][:3] == [[2, 3], [1], [0, 2]]
    rows = exact_rows(MECHANIC, {"pool": "3", "hunger": "1", "blood": "2", "difficulty": "2"})
    axes = [a["name"] for a in mine["axes"]]
    cells = list(itertools.product(*(a["values"] for a in mine["axes"])))
    got = mine["cells"][cells.index((3, 1, 2, 2))]
    for column, value in zip(mine["columns"], got):
        assert value == expected_cell(column, rows[(3, 1, 2, 2)][column["name"]])
    assert axes == ["pool", "hunger", "blood", "difficulty"]


#: A page of three rule sets compared: V5, a V5 house rule and a mechanic file with an axis V5 lacks.
COMPARED = ["v5-official", "v5-two-hunger-ones-for-bestial", str(MECHANIC)]
COMPARED_GRID = {"pool": "1-4", "hunger": "0-2", "difficulty": "2-3", "blood": "0-1"}


def compare_rows(a, b, cell: dict) -> dict:
    """``{outcome: (a, b, b - a)}`` of one cell, as ``beastodds compare`` counts it (exact)."""
    from analysis.workbench.compare import compare

    with systems_kept():
        c = compare(a, b, {k: str(v) for k, v in cell.items()}, exact=True)
    return {r.outcome: (r.a, r.b, r.difference) for r in c.table.itertuples(index=False)}


def test_the_comparison_is_what_compare_counts():
    """Each pair's change at every cell of a sample (and each side's value) is compare's ``b - a``."""
    with systems_kept():
        data = page.page_data(COMPARED, COMPARED_GRID)
    cmp = data["compare"]
    assert [a["name"] for a in cmp["axes"]] == ["pool", "hunger", "difficulty", "blood"]
    assert [e["index"] for e in cmp["sets"]] == [0, 1, 2] and cmp["notes"] == []
    values = {a["name"]: a["values"] for a in cmp["axes"]}
    names = [c["name"] for c in cmp["columns"]]
    for cell in [
        {"pool": 1, "hunger": 0, "difficulty": 2, "blood": 0},
        {"pool": 3, "hunger": 2, "difficulty": 3, "blood": 1},
        {"pool": 4, "hunger": 1, "difficulty": 2, "blood": 1},
    ]:
        for pair in cmp["pairs"]:
            b_ref = COMPARED[pair["set"]]
            at = {a: cell[a] for a in pair["axes"]}
            index = list(itertools.product(*(values[a] for a in pair["axes"]))).index(tuple(at.values()))
            got = pair["cells"][index]
            want = compare_rows(COMPARED[0], b_ref, at)  # an axis of b only (blood) held at the cell's value
            for outcome, (_, _, d) in want.items():
                change = got[names.index(outcome)]
                assert change == [page.points_text(d), fraction_text(d), float(d)], (cell, b_ref, outcome)
            for outcome, change in zip(names, got):  # a mean compare leaves out is not compared here, and
                # a class neither side of this pair has (another rule set's) is 0 on both
                assert outcome in want or change in (None, ["0", "0", 0.0]), (b_ref, outcome)
    assert page.points_text(Fraction(-1, 10**6)) == ">-0.01" and page.points_text(Fraction(1, 3)) == "+33.33"


def test_a_rule_set_that_shares_no_value_is_left_out_of_the_comparison():
    data = page.page_data(["v5-official", "classic-official"], {"pool": "1-2", "difficulty": "2-3"})
    assert [e["index"] for e in data["compare"]["sets"]] == [0, 1] and data["compare"]["notes"] == []
    assert "compare" not in page.page_data(["v5-official"], {"pool": "1"})

    def one(name, axes):  # a rule set of the page's data, its cells left out
        axes = [{"name": a, "label": a.title(), "values": v, "start": v[0]} for a, v in axes.items()]
        return {"name": name, "axes": axes, "columns": [{"name": "p_win", "kind": "chance"}]}

    sets = [one("a", {"pool": [1, 2], "difficulty": [1, 2]}), one("b", {"difficulty": [5, 6]}), one("c", {"soif": [0]})]
    frames = [({(1, 1): 0}, {"p_win": [Fraction(1, 2)]})] * 3
    cmp = page.comparison_data(sets, frames)
    assert [e["index"] for e in cmp["sets"]] == [0] and cmp["pairs"] == []
    assert cmp["notes"] == [
        "b is not compared: its Difficulty shares no value with the others",
        "c is not compared: it shares no axis with a",
    ]


def test_the_page_opens_at_the_middle_of_each_axis():
    (v5,) = page.page_data(["v5-official"])["rule_sets"]
    assert {a["name"]: a["start"] for a in v5["axes"]} == {"pool": 6, "hunger": 3, "difficulty": 3}


@pytest.fixture(scope="module")
def v5_page(tmp_path_factory):
    path = tmp_path_factory.mktemp("page") / "odds.html"
    text = page.page(["v5-official"], path)
    return path, text


def test_the_default_v5_page_is_small(v5_page):
    path, text = v5_page
    assert path.read_text(encoding="utf-8") == text
    size = path.stat().st_size
    assert size < 2_000_000, f"the default V5 page is {size:,} bytes"
    assert len(embedded(text)["rule_sets"][0]["cells"]) == 300


def test_the_page_has_no_link_and_no_fetch(v5_page):
    _, text = v5_page
    assert "http://" not in text and "https://" not in text
    assert not re.search(r"\b(?:src|href|action|srcset|poster)\s*=", text, re.I), "an attribute fetches"
    assert "@import" not in text and "url(" not in text and "fetch(" not in text
    assert "XMLHttpRequest" not in text and "import(" not in text
    scripts = re.findall(r"<script\b([^>]*)>", text)
    assert scripts == [' type="application/json" id="odds-data"', ""]


def _sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_a_content_security_policy_allows_the_pages_own_script_and_style_only(v5_page):
    _, text = v5_page
    policy = html.unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', text).group(1))
    script = re.findall(r"<script>(.*?)</script>", text, re.S)
    style = re.findall(r"<style>(.*?)</style>", text, re.S)
    assert len(script) == 1 and len(style) == 1
    assert policy.startswith("default-src 'none';")
    assert f"script-src {_sha(script[0])};" in policy and f"style-src {_sha(style[0])};" in policy
    assert "unsafe" not in policy
    assert not re.search(r"<[a-z]+\b[^>]*\s(?:on[a-z]+|style)\s*=", text, re.I), "inline handlers or styles"


def test_the_page_shows_the_data(v5_page):
    _, text = v5_page
    assert embedded(text) == page.page_data(["v5-official"])
    assert "<title>Odds: v5-official</title>" in text


def _hostile_files(folder: Path):
    """A rule-set file and a mechanic file whose texts are markup and script."""
    toml = folder / "hostile.toml"
    toml.write_text(
        f"system = \"v5\"\nname = '{HOSTILE_NAME}'\ndescription = \"{HOSTILE_DESCRIPTION}\"\ncrit_bonus = 3\n",
        encoding="utf-8",
    )
    text = MECHANIC.read_text(encoding="utf-8")
    text = text.replace(
        'title = "Blood and Beast: normal, Hunger and Blood dice (homebrew)"',
        "title = '<svg onload=\"window.__pwned=3\"></svg>'",
    )
    text = text.replace(
        'meaning = "successes reach the Difficulty, no Blood 10"', "meaning = '<script>window.__pwned=4</script>'"
    )
    text = text.replace('name = "threekinds"', 'name = "hostilekinds"')
    mech = folder / "hostile-kinds.toml"
    mech.write_text(text, encoding="utf-8")
    return toml, mech


def test_hostile_texts_are_data_never_markup(tmp_path):
    toml, mech = _hostile_files(tmp_path)
    text = page.page([toml, mech])
    data = embedded(text)
    hostile, kinds = data["rule_sets"]
    assert hostile["name"] == HOSTILE_NAME
    assert hostile["description"] == HOSTILE_DESCRIPTION.replace(" \u2028 ", " ")  # one line
    assert kinds["system_title"] == '<svg onload="window.__pwned=3"></svg>'
    assert '<script>window.__pwned=4</script>' in [c["meaning"] for c in kinds["columns"]]
    assert "<img" not in text and "<svg onload" not in text and "window.__pwned=4</script>" not in text
    assert text.count("<script") == 2 and text.count("</script>") == 2
    assert "\u2028" not in text and "\u2029" not in text
    assert f"<title>Odds: {html.escape(HOSTILE_NAME)}, hostile-kinds</title>" in text
    assert "innerHTML" not in page.SCRIPT and "insertAdjacentHTML" not in page.SCRIPT
    assert "document.write" not in page.SCRIPT and "eval(" not in page.SCRIPT


def test_script_json_escapes_what_could_end_the_element():
    out = page.script_json({"a": "</script><!--<![CDATA[ & \u2028\u2029 >"})
    assert not re.search(r"[<>&\u2028\u2029]", out)
    assert json.loads(out) == {"a": "</script><!--<![CDATA[ & \u2028\u2029 >"}


def test_the_fragments_own_keys_are_never_axis_names():
    """An axis name is lowercase letters, digits and _, never ``-``: rule-set and chart-by are free."""
    from analysis.model.system import System

    assert "-" in page.RULE_SET_KEY and "-" in page.CHART_KEY
    for system in rulesets.SYSTEMS.values():
        assert all("-" not in a for a in system.axis_names)
    with pytest.raises(ValueError, match="axis names are lowercase words"):
        System("x", rules=object, table=None, axes={"rule-set": "1-2"})


@pytest.mark.parametrize(
    "refs, grid, message",
    [
        (["v5-official", "v5-official"], None, "the rule set v5-official is named twice"),
        (["v5-official"], {"rage": "1"}, "rage is not an axis of any rule set given (v5: pool, hunger, difficulty)"),
        (["v5-official"], {"pool": "1-1000"}, "this page has 30,000 cells (limit 20,000)"),
        ([], None, "a page needs at least one rule set"),
    ],
)
def test_the_api_refuses_bad_input(refs, grid, message):
    with pytest.raises(ValueError) as exc:
        page.page_data(refs, grid)
    assert message in str(exc.value)


def test_a_page_too_big_to_send_is_refused(monkeypatch):
    monkeypatch.setattr(page, "MAX_BYTES", 10_000)
    with pytest.raises(ValueError, match=r"this page would be [\d,]+ bytes \(limit 10,000\): narrow a SPEC"):
        page.page(["v5-official"], grid={"pool": "1-3"})


# ------------------------------------------------------------ fast: the command


def run(capsys, *argv):
    from analysis.cli import main

    try:
        code = main([str(a) for a in argv])
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def test_the_page_command(tmp_path, capsys):
    out = tmp_path / "odds.html"
    code, stdout, err = run(capsys, "page", "v5-official", "werewolf-official", "--pool", "1-4", "-o", out)
    assert code == 0 and stdout == ""
    assert re.fullmatch(rf"wrote {re.escape(str(out))} \(v5-official, werewolf-official; \d+ kB\)\n", err)
    data = embedded(out.read_text(encoding="utf-8"))
    assert data == page.page_data(["v5-official", "werewolf-official"], {"pool": "1-4"})
    code, _, err = run(capsys, "page", "classic-official", "-o", out, "--quiet")
    assert code == 0 and err == f"beastodds: replaced {out}\n"
    assert [rs["name"] for rs in embedded(out.read_text(encoding="utf-8"))["rule_sets"]] == ["classic-official"]
    assert not list(tmp_path.glob(".odds.html*")), "a temporary file was left behind"


def test_the_page_command_takes_a_mechanic_file_and_its_axes(tmp_path, capsys):
    out = tmp_path / "mine.html"
    code, _, err = run(capsys, "page", MECHANIC, "--blood", "0-1", "--pool", "2", "-o", out)
    assert code == 0, err
    (mine,) = embedded(out.read_text(encoding="utf-8"))["rule_sets"]
    assert mine["name"] == "three-kinds" and mine["source"] == "From the file three-kinds.toml"
    assert [a["values"] for a in mine["axes"]] == [[2], [0, 1, 2, 3], [0, 1], [2, 3, 4]]
    assert str(tmp_path) not in out.read_text(encoding="utf-8") and str(ROOT) not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["page", "v5-official", "-o", "odds.txt"], "-o/--output must name an .html file"),
        (["page", "v5-offical", "-o", "odds.html"], "unknown rule set 'v5-offical' (did you mean v5-official?)"),
        (["page", "v5-official", "-o", "no/such/folder/odds.html"], "the folder 'no/such/folder' does not exist"),
        (["page", "v5-official", "v5-official", "-o", "odds.html"], "the rule set v5-official is named twice"),
        (
            ["page", "v5-official", "--rage", "1", "-o", "odds.html"],
            "--rage is not an axis of any rule set given (v5: --pool, --hunger, --difficulty)",
        ),
        (
            ["page", "v5-official", "--pool", "1-1000", "-o", "odds.html"],
            "this page has 30,000 cells (limit 20,000); narrow a SPEC (--pool has 1,000 values)",
        ),
        (["page", "v5-official", "--pool", "x", "-o", "odds.html"], "--pool"),
        (["page", "v5-official", "--jobs", "-1", "-o", "odds.html"], "--jobs must be 0..64"),
    ],
)
def test_the_page_command_refuses_bad_input_in_one_sentence(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("beastodds: error: ") and message in err and err.count("\n") == 1, err
    assert "Traceback" not in err and not list(tmp_path.glob("*.html"))


def test_the_page_command_needs_an_output_file(capsys):
    code, _, err = run(capsys, "page", "v5-official")
    assert code == 2 and "the following arguments are required: -o/--output" in err


def test_the_page_command_refuses_a_hostile_mechanic_file(tmp_path, capsys):
    marker = tmp_path / "pwned"
    text = MECHANIC.read_text(encoding="utf-8").replace(
        'successes = "success + (1 + surge_bonus) * surge"',
        f"successes = \"__import__('os').system('touch {marker}')\"",
    )
    bad = tmp_path / "hostile.toml"
    bad.write_text(text, encoding="utf-8")
    out = tmp_path / "odds.html"
    code, stdout, err = run(capsys, "page", bad, "-o", out)
    assert code == 2 and stdout == "" and err.count("\n") == 1 and "hostile.toml" in err, err
    assert not marker.exists() and not out.exists()


def page_commands() -> list:
    section = WORKBENCH.split("## Share a page", 1)[1].split("\n## ", 1)[0]
    return [
        line
        for block in re.findall(r"```sh\n(.*?)```", section, re.S)
        for line in block.splitlines()
        if line.startswith("beastodds page ")
    ]


def test_the_docs_show_the_page_commands():
    commands = page_commands()
    assert "beastodds page v5-official -o odds.html" in commands
    assert any("model/examples" in c for c in commands) and any("werewolf" in c for c in commands)
    assert "odds.html#pool=7&hunger=1&difficulty=3" in WORKBENCH


@pytest.mark.parametrize("command", page_commands())
def test_the_docs_page_commands_run_as_written(command, tmp_path, monkeypatch, capsys):
    """Each command from the repository's folder, as written (its -o file made in a folder of its own)."""
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)[1:]
    where = argv.index("-o") + 1
    argv[where] = str(tmp_path / argv[where])
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    assert Path(argv[where]).stat().st_size > 10_000


def test_the_docstring_examples_run():
    import doctest

    assert doctest.testmod(page).failed == 0


# ------------------------------------------------------------ slow: in headless Chromium


def _chromium():
    return shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (Debian's) driven by Playwright; skipped without them, except in CI."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if _in_ci():
            pytest.fail("playwright is missing in CI: it is a dev extra of pyproject.toml (make installs it)")
        pytest.skip("playwright is not installed (pip install -e '.[dev]'); CI installs it and runs this test")
    exe = _chromium()
    if exe is None:
        if _in_ci():
            pytest.fail("chromium is missing in CI: .ci/run must install Debian's chromium package")
        pytest.skip(
            "chromium is not installed (apt-get install --no-install-recommends chromium); "
            "CI installs it and runs this test"
        )
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


class Tab:
    """One page in a fresh browser context, every request and error it makes recorded (and refused
    unless it reads the file itself)."""

    def __init__(self, browser, path: Path):
        self.path, self.url = path, path.as_uri()
        self.context = browser.new_context(viewport={"width": 1100, "height": 1300}, offline=True)
        self.requests, self.errors = [], []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.context.route("**/*", self._route)
        self.tab = self.context.new_page()
        self.tab.on("pageerror", lambda e: self.errors.append(str(e)))
        self.tab.on("console", lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None)

    def _route(self, route):
        if route.request.url.split("#")[0] == self.url:
            route.continue_()
        else:
            route.abort()

    def open(self, fragment: str = ""):
        """Load the file at ``fragment``: a full load, as a link opens it (a tab already on the file
        only moves to the fragment, so it is reloaded there)."""
        same = self.tab.url.split("#")[0] == self.url
        self.tab.goto(self.url + fragment)
        if same:
            self.tab.reload()
        self.tab.wait_for_selector("body[data-ready='1']")
        return self

    def reload(self):
        self.tab.reload()
        self.tab.wait_for_selector("body[data-ready='1']")

    def hash(self) -> str:
        return self.tab.evaluate("location.hash")

    def controls(self) -> dict:
        return self.tab.evaluate("""() => {
            const out = {"rule-set": document.getElementById("rule-set").selectedOptions[0].textContent,
                         "chart-by": document.getElementById("chart-by").value};
            for (const s of document.querySelectorAll("select[data-axis]")) out[s.dataset.axis] = Number(s.value);
            return out;
        }""")

    def shown(self) -> dict:
        """``{column: (percentage shown, tooltip, exact text beside it)}`` of the cell shown."""
        rows = self.tab.evaluate("""() => Array.from(
            document.querySelectorAll("#classes tbody tr, #others tbody tr")).map((tr) => [
                tr.dataset.column, tr.querySelector("button.pct").textContent,
                tr.querySelector("button.pct").title, tr.querySelector(".exact").textContent])""")
        return {c: (p, t, e) for c, p, t, e in rows}

    def close(self):
        self.context.close()
        assert self.errors == [], self.errors
        assert {u.split("#")[0] for u in self.requests} <= {self.url}, self.requests


#: Cells read from the page, per rule set: a fragment and the cell it names.
CELLS = {
    "v5-official": [
        {"pool": 7, "hunger": 1, "difficulty": 3},
        {"pool": 3, "hunger": 2, "difficulty": 2},
        {"pool": 10, "hunger": 5, "difficulty": 5},
        {"pool": 1, "hunger": 0, "difficulty": 1},
    ],
    "werewolf-official": [
        {"pool": 6, "rage": 2, "difficulty": 3, "violent": 1},
        {"pool": 4, "rage": 4, "difficulty": 2, "violent": 0},
    ],
    "classic-official": [{"pool": 3, "difficulty": 6}, {"pool": 8, "difficulty": 9}],
    "three-kinds": [
        {"pool": 3, "hunger": 1, "blood": 2, "difficulty": 2},
        {"pool": 8, "hunger": 3, "blood": 0, "difficulty": 4},
    ],
    "cards-official": [{"base": 9, "difficulty": 12, "hunger": 1}],
    "hunter-official": [{"pool": 5, "desperation": 2, "difficulty": 3}],
    "requiem-la-soif": [{"pool": 4, "soif": 2}],
}
REF_OF = {"three-kinds": str(MECHANIC)}


@pytest.fixture(scope="module")
def odds_page(tmp_path_factory):
    path = tmp_path_factory.mktemp("share") / "odds.html"
    with systems_kept():  # the mechanic file's system is registered for the page only
        page.page(
            [
                "v5-official",
                "werewolf-official",
                "classic-official",
                str(MECHANIC),
                "cards-official",
                "hunter-official",
                "requiem-la-soif",
            ],
            path,
        )
    return path


def _fragment(name: str, cell: dict) -> str:
    from urllib.parse import urlencode

    return "#" + urlencode({"rule-set": name, **cell})


def _expected(name: str, cell: dict) -> dict:
    """``{column: (percentage, exact)}`` of one cell, from the API's exact table of that one cell."""
    ref = REF_OF.get(name, name)
    rows = exact_rows(ref, {a: str(v) for a, v in cell.items()})
    (row,) = rows.values()
    (rs,) = page.page_data([ref], {a: str(v) for a, v in cell.items()})["rule_sets"]
    out = {}
    for column in rs["columns"]:
        value = row[column["name"]]
        if column["kind"] == "count":
            out[column["name"]] = (str(int(value)), str(int(value)))
        else:
            f = Fraction(value)
            out[column["name"]] = (shown_mean(f) if column["kind"] == "mean" else shown_percent(f), fraction_text(f))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, cell",
    [(n, c) for n, cells in CELLS.items() for c in cells],
    ids=lambda x: x if isinstance(x, str) else "-".join(map(str, x.values())),
)
def test_the_shown_numbers_are_the_exact_table(browser, odds_page, name, cell):
    tab = Tab(browser, odds_page).open(_fragment(name, cell))
    assert tab.controls() == {"rule-set": name, "chart-by": next(iter(cell)), **cell}
    shown = tab.shown()
    want = _expected(name, cell)
    assert set(shown) == set(want)
    for column, (percent, exact) in want.items():
        assert shown[column] == (percent, f"exact: {exact}", f"= {exact}"), (name, cell, column)
    headline = tab.tab.locator("#headline button.pct")
    (rs,) = [r for r in embedded(odds_page.read_text())["rule_sets"] if r["name"] == name]
    assert headline.text_content() == want[rs["headline"]][0]
    assert tab.tab.get_attribute("#headline", "data-column") == rs["headline"]
    tab.close()


@pytest.mark.slow
def test_the_v5_and_classic_cells_match_brute_force(browser, odds_page):
    """Two cells against the independent references (every roll enumerated)."""
    from tests.oracles import brute_force_v5
    from tests.oracles_classic import brute_pool

    tab = Tab(browser, odds_page).open(_fragment("v5-official", {"pool": 3, "hunger": 2, "difficulty": 2}))
    shown = tab.shown()
    for column, f in brute_force_v5(3, 2, 2).items():
        assert shown[column][0] == shown_percent(f) and shown[column][2] == f"= {fraction_text(f)}"
    tab.open(_fragment("classic-official", {"pool": 3, "difficulty": 6}))
    shown = tab.shown()
    classes, mean = brute_pool(3, 6)
    for column, f in classes.items():
        assert shown[column][:3:2] == (shown_percent(f), f"= {fraction_text(f)}"), column
    assert shown["mean_successes"][:3:2] == (shown_mean(mean), f"= {fraction_text(mean)}")
    tab.close()


@pytest.mark.slow
def test_the_exact_fraction_is_one_click_away(browser, odds_page):
    tab = Tab(browser, odds_page).open("#pool=7&hunger=1&difficulty=3")
    row = tab.tab.locator('#classes tr[data-column="messy_critical"]')
    exact = row.locator(".exact")
    assert not exact.is_visible()
    row.locator("button.pct").hover()
    assert row.locator("button.pct").get_attribute("title").startswith("exact: ")
    row.locator("button.pct").click()
    assert exact.is_visible() and Fraction(exact.text_content()[2:]) > 0
    row.locator("button.pct").click()
    assert not exact.is_visible()
    tab.tab.check("#show-exact")
    assert tab.tab.locator("#classes .exact:visible").count() == 6
    tab.close()


@pytest.mark.slow
def test_a_control_writes_the_fragment_and_the_fragment_round_trips(browser, odds_page):
    tab = Tab(browser, odds_page).open("#pool=7&hunger=1&difficulty=3")
    assert tab.controls() == {"rule-set": "v5-official", "chart-by": "pool", "pool": 7, "hunger": 1, "difficulty": 3}
    tab.tab.select_option("#axis-hunger", "4")
    assert tab.hash() == "#rule-set=v5-official&pool=7&hunger=4&difficulty=3&chart-by=pool"
    assert tab.shown()["bestial_failure"][2] == _expected("v5-official", {"pool": 7, "hunger": 4, "difficulty": 3})[
        "bestial_failure"
    ][1].join(("= ", ""))
    tab.tab.select_option("#chart-by", "difficulty")
    tab.tab.select_option("#axis-pool", "2")
    link = tab.hash()
    assert link == "#rule-set=v5-official&pool=2&hunger=4&difficulty=3&chart-by=difficulty"
    assert tab.tab.locator("#link-text").text_content() == tab.url + link
    before, shown = tab.controls(), tab.shown()
    tab.reload()  # the same address: the same cell
    assert tab.controls() == before and tab.shown() == shown
    other = Tab(browser, odds_page).open(link)  # the link opened elsewhere
    assert other.controls() == before and other.shown() == shown
    other.close()
    # another rule set keeps the axes it shares, and takes its own start for the others
    tab.tab.select_option("#rule-set", label="three-kinds")
    assert tab.controls() == {
        "rule-set": "three-kinds",
        "chart-by": "difficulty",
        "pool": 2,
        "hunger": 2,
        "blood": 1,
        "difficulty": 3,
    }  # its Hunger goes to 3 only: its middle, 2
    assert tab.hash() == "#rule-set=three-kinds&pool=2&hunger=2&blood=1&difficulty=3&chart-by=difficulty"
    # the keyboard: an arrow key on a control moves the cell, and the control keeps the focus
    tab.tab.focus("#axis-pool")
    tab.tab.keyboard.press("ArrowDown")
    assert tab.controls()["pool"] == 3 and "pool=3" in tab.hash()
    assert tab.tab.evaluate("document.activeElement.id") == "axis-pool"
    tab.tab.keyboard.press("ArrowUp")
    assert tab.controls()["pool"] == 2
    # clicking a bar of the chart picks that cell
    tab.tab.locator('#chart g.bar[data-value="4"]').click()
    assert tab.controls()["difficulty"] == 4 and "difficulty=4" in tab.hash()
    # a fragment typed in the address bar is read
    tab.tab.evaluate("location.hash = '#rule-set=classic-official&pool=5&difficulty=7'")
    tab.tab.wait_for_function(
        "document.getElementById('rule-set').selectedOptions[0].textContent === 'classic-official'"
    )
    assert tab.controls() == {"rule-set": "classic-official", "chart-by": "pool", "pool": 5, "difficulty": 7}
    tab.close()


@pytest.mark.slow
def test_a_fragment_the_page_does_not_have_is_ignored(browser, odds_page):
    tab = Tab(browser, odds_page).open(
        "#rule-set=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E&pool=%3Cscript%3E&hunger=99"
        "&difficulty=2&__proto__=1&constructor=x&chart-by=toString&pool=7"
    )
    assert tab.controls() == {"rule-set": "v5-official", "chart-by": "pool", "pool": 6, "hunger": 3, "difficulty": 2}
    assert tab.tab.evaluate("window.__pwned") is None
    tab.close()


@pytest.mark.slow
def test_a_hostile_rule_set_is_shown_as_text_and_never_run(browser, tmp_path):
    toml, mech = _hostile_files(tmp_path)
    path = tmp_path / "hostile.html"
    page.page([toml, mech], path, grid={"pool": "1-3", "hunger": "0-1", "difficulty": "1-2", "blood": "0-1"})
    tab = Tab(browser, path).open()
    assert tab.tab.text_content("#set-name") == HOSTILE_NAME
    assert tab.tab.locator("#rule-set option").first.text_content() == HOSTILE_NAME
    assert tab.tab.text_content("#set-description") == HOSTILE_DESCRIPTION.replace(" \u2028 ", " ")
    assert tab.tab.title().startswith("Odds: " + HOSTILE_NAME)
    tab.tab.select_option("#rule-set", index=1)
    assert tab.tab.text_content("#set-system").startswith('System: <svg onload="window.__pwned=3"></svg>.')
    assert "<script>window.__pwned=4</script>" in tab.tab.text_content("#classes")
    assert tab.tab.evaluate("window.__pwned") is None
    assert tab.tab.evaluate("document.querySelectorAll('img, main script, #classes svg, iframe').length") == 0
    assert "hunger=" in tab.hash() and "rule-set=hostile-kinds" in tab.hash()
    tab.open("#rule-set=" + __import__("urllib.parse").parse.quote(HOSTILE_NAME))
    assert tab.controls()["rule-set"] == HOSTILE_NAME and tab.tab.evaluate("window.__pwned") is None
    tab.close()


@pytest.mark.slow
def test_no_request_leaves_the_file(browser, odds_page):
    """Offline, with every request but the file's own refused: nothing was asked for, nothing failed."""
    tab = Tab(browser, odds_page).open("#rule-set=werewolf-official&pool=5")
    tab.tab.select_option("#axis-rage", "3")
    tab.tab.locator("#classes button.pct").first.click()
    assert {u.split("#")[0] for u in tab.requests} == {tab.url}
    tab.close()


@pytest.mark.slow
def test_the_page_screenshot(browser, odds_page, tmp_path):
    tab = Tab(browser, odds_page).open("#pool=7&hunger=1&difficulty=3")
    shot = tmp_path / "page.png"
    tab.tab.screenshot(path=str(shot), full_page=False)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1100, 1300)
    assert len(data) > 40_000, "the screenshot is suspiciously small (a blank page?)"
    from PIL import Image

    with Image.open(shot) as im:
        rgb = im.convert("RGB")
        gray = rgb.convert("L")
        dark = sum(gray.histogram()[:128])
        colours = len(rgb.getcolors(width * height))
    assert dark > 0.01 * width * height, "the screenshot shows almost no text"
    assert colours > 50, "the chart's colours are missing"
    # the chart is drawn: one bar per pool, each a stack of the six classes
    assert tab.tab.locator("#chart g.bar").count() == 10
    assert tab.tab.locator("#chart g.bar rect").count() == 60
    tab.close()


@pytest.mark.slow
def test_the_page_says_what_the_changes_are_from(browser, tmp_path):
    """A shipped system's defaults are the official rules; a designer's file's are the file's own rules."""
    text = (ROOT / "analysis" / "systems" / "v5" / "mechanic.toml").read_text(encoding="utf-8")
    mech = tmp_path / "myrule.toml"
    mech.write_text(re.sub(r'(?m)^name = "v5"', 'name = "myrule"', text, count=1), encoding="utf-8")
    variant = tmp_path / "myvar.toml"
    variant.write_text(f'mechanic = "{mech}"\nname = "myvar"\ncrit_bonus = 3\n', encoding="utf-8")
    path = tmp_path / "odds.html"
    with systems_kept():
        page.page(["v5-official", mech, variant], path, grid={"pool": "1-2", "hunger": "0-1", "difficulty": "1-2"})
    tab = Tab(browser, path).open()
    seen = {}
    for index, name in enumerate(("v5-official", "myrule", "myvar")):
        tab.tab.select_option("#rule-set", index=index)
        seen[name] = (tab.tab.text_content("#set-changes-head"), tab.tab.text_content("#set-changes"))
    tab.close()
    assert seen == {
        "v5-official": ("The official rules of the system, unchanged.", ""),
        "myrule": ("The file's own rules, unchanged.", ""),
        "myvar": ("Changed from the file's own rules:", "crit_bonus = 3 (the file's 2)"),
    }


@pytest.mark.slow
def test_the_page_names_its_willpower_strategy(browser, tmp_path):
    path = tmp_path / "odds.html"
    page.page(
        ["v5-official", "classic-official"], path, grid={"pool": "1-2", "difficulty": "2"}, strategy="maximize_win"
    )
    tab = Tab(browser, path).open()
    shown = tab.tab.text_content("#set-system")
    assert shown.endswith(" After a Willpower reroll: strategy maximize_win.")
    assert "willpower_spent" in tab.shown()
    tab.tab.select_option("#rule-set", index=1)
    assert "Willpower" not in tab.tab.text_content("#set-system") and "willpower_spent" not in tab.shown()
    tab.close()


@pytest.fixture(scope="module")
def compared_page(tmp_path_factory):
    path = tmp_path_factory.mktemp("compare") / "odds.html"
    with systems_kept():
        page.page(COMPARED, path, grid=COMPARED_GRID)
    return path


@pytest.mark.slow
@pytest.mark.parametrize(
    "cell",
    [{"pool": 3, "hunger": 2, "difficulty": 3, "blood": 1}, {"pool": 1, "hunger": 0, "difficulty": 2, "blood": 0}],
    ids=lambda c: "-".join(map(str, c.values())),
)
def test_the_comparison_shows_what_compare_counts(browser, compared_page, cell):
    """The rule sets side by side at a cell a link names: each one's percentage and exact fraction, and
    each change from the first in points, equal to ``beastodds compare``'s exact a, b and b - a."""
    from urllib.parse import urlencode

    tab = Tab(browser, compared_page).open("#" + urlencode({**cell, "view": "compare"}))
    assert tab.tab.eval_on_selector("#view", "s => s.value") == "compare"
    assert tab.tab.locator("#compare-view").is_visible() and not tab.tab.locator("#cell").is_visible()
    shown = tab.tab.evaluate("""() => Array.from(document.querySelectorAll("#compare-table tbody td"))
        .filter((td) => td.querySelector("button.pct")).map((td) => [td.parentElement.dataset.column,
            td.dataset.set, td.dataset.change === "1", td.querySelector("button.pct").textContent,
            td.querySelector(".exact").textContent])""")
    got = {(c, s, change): (text, exact) for c, s, change, text, exact in shown}
    names = ["v5-official", "v5-two-hunger-ones-for-bestial", "three-kinds"]
    seen = 0
    for b_ref, b_name in zip(COMPARED[1:], names[1:]):
        axes = rulesets.system(rulesets.load(b_ref).system).axis_names
        # blood, an axis of three-kinds only, is held at the cell's value where b has it
        want = compare_rows(COMPARED[0], b_ref, {a: v for a, v in cell.items() if a != "blood" or a in axes})
        for outcome, (a, b, d) in want.items():
            assert got[(outcome, names[0], False)] == (shown_percent(a), f"= {fraction_text(a)}"), outcome
            assert got[(outcome, b_name, False)] == (shown_percent(b), f"= {fraction_text(b)}"), (b_name, outcome)
            assert got[(outcome, b_name, True)] == (page.points_text(d), f"= {fraction_text(d)}"), (b_name, outcome)
            seen += 3
    assert seen >= 3 * (7 + 11)
    changes = tab.tab.text_content('#compare-sets li[data-set="v5-two-hunger-ones-for-bestial"]')
    assert "bestial_hunger_ones 1 -> 2" in changes
    # one chart of changes per rule set after the first, one line per class; a dot chooses its cell
    assert tab.tab.locator("svg.diff-chart").count() == 2
    mine = 'svg.diff-chart[data-set="three-kinds"] g.series'
    assert tab.tab.locator(mine + " polyline").count() == 9  # V5's 6 classes, and three of the file's
    tab.tab.locator(mine + ' circle[data-value="4"]').first.dispatch_event("click")
    assert tab.hash() == "#" + urlencode(
        {"rule-set": "v5-official", **cell, "chart-by": "pool", "view": "compare"} | {"pool": 4}
    )
    tab.tab.select_option("#view", "one")
    assert "view" not in tab.hash() and tab.tab.locator("#cell").is_visible()
    tab.close()
