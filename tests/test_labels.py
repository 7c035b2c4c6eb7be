"""Only shipped rule sets are called official: a designer's mechanic file's defaults are the file's own rules.

Checked where a user reads the word: the default rule set's name, the changes list of the booklet and
of ``describe``, the booklet's headings and lead, and the page's data (its text in a browser: tests/test_page.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analysis.present import booklet, page
from analysis.workbench import rulesets
from analysis.present.formats.describe import changes_html, describe
from tests.conftest import systems_kept

ROOT = Path(__file__).resolve().parents[1]
V5_FILE = ROOT / "analysis" / "systems" / "v5" / "mechanic.toml"


@pytest.fixture
def files(tmp_path):
    """A copy of the V5 mechanic file under a designer's name, and a rule-set file on it."""
    text = V5_FILE.read_text(encoding="utf-8")
    text = re.sub(r'(?m)^name = "v5"', 'name = "myrule"', text, count=1)
    # the file's own help texts say "official 2" (they are V5's): the designer's words are left alone,
    # and the labels checked below are the toolkit's own
    mech = tmp_path / "myrule.toml"
    mech.write_text(text, encoding="utf-8")
    variant = tmp_path / "myvar.toml"
    variant.write_text(f'mechanic = "{mech}"\nname = "myvar"\ncrit_bonus = 3\n', encoding="utf-8")
    with systems_kept():
        yield mech, variant


def test_the_default_rule_set_of_a_file_is_named_as_the_file_names_it(files):
    mech, _ = files
    own = rulesets.load(mech)
    assert own.name == "myrule" and not rulesets.is_shipped("myrule")
    assert rulesets.official("myrule") == own and "official" not in rulesets.official("myrule").name
    assert rulesets.is_shipped("v5") and rulesets.official("v5").name == "v5-official"
    assert rulesets.base_words("myrule") == (
        "the file's own rules",
        "the file's",
        "The file's own",
        "The file's own rules, unchanged.",
    )
    assert rulesets.base_words("v5") == (
        "the official rules",
        "official",
        "Official",
        "The official rules of the system, unchanged.",
    )


def test_describe_and_the_changes_list_name_the_files_own_rules(files):
    mech, variant = files
    rs = rulesets.load(variant)
    text = describe(rs)
    assert "Changed from the file's own rules: <code>crit_bonus = 3</code> (the file's 2)." in text
    table = changes_html(rs)
    assert "<th>Rule</th><th>The file&#x27;s own</th><th>myvar</th>" in table or (
        "<th>Rule</th><th>The file's own</th><th>myvar</th>" in table
    )
    assert "its value in the file" in table and "own rules (myrule)" in table
    assert "No change: these are the file's own rules (myrule)." in changes_html(rulesets.load(mech)).replace(
        "&#x27;", "'"
    )
    v5 = rulesets.from_toml('system = "v5"\nname = "v5-three"\ncrit_bonus = 3\n')
    assert "Changed from the official rules" in describe(v5) and "(official 2)" in describe(v5)
    assert "<th>Official</th>" in changes_html(v5)


def test_a_booklet_of_files_never_calls_their_defaults_official(files, tmp_path):
    mech, variant = files
    path = booklet.build_rulesets([mech, variant], tmp_path / "b.html", grid={"pool": "1-2", "difficulty": "2"})
    text = path.read_text(encoding="utf-8").replace("&#x27;", "'")
    words = re.findall(r"[^<>]{0,40}\bofficial\b[^<>]{0,40}", text, re.I)
    # the only "official" left is the file's own help text of crit_bonus (V5's words, copied by the designer)
    assert all("pair of 10s" in w for w in words), words
    assert "Changes from the file's own rules</h3>" in text
    assert "its changes from the file's own rules, the chance" in text
    mixed = booklet.build_rulesets(["v5-official", mech], tmp_path / "c.html", grid={"pool": "1-2"})
    mixed_text = mixed.read_text(encoding="utf-8").replace("&#x27;", "'")
    assert "its changes from the official rules or the file's own rules" in mixed_text
    assert "Changes from the official rules</h3>" in mixed_text and "No change: these are the official rules" in (
        mixed_text
    )


def test_the_page_data_names_the_defaults(files):
    mech, variant = files
    grid = {"pool": "1-2", "hunger": "0-1", "difficulty": "1-2"}
    v5, own, var = page.page_data(["v5-official", mech, variant], grid)["rule_sets"]
    assert (v5["base"], v5["base_short"], v5["unchanged"]) == (
        "the official rules",
        "official",
        "The official rules of the system, unchanged.",
    )
    assert (own["base"], own["base_short"], own["unchanged"]) == (
        "the file's own rules",
        "the file's",
        "The file's own rules, unchanged.",
    )
    assert own["changes"] == [] and var["changes"] == [["crit_bonus", "2", "3"]]
