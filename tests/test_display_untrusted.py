"""Issue 18, items 12 to 16 and 22: a rule set's name and description are untrusted text.

A rule-set TOML is a file people share.  Whatever its name and description
hold, every format prints them as text: LaTeX cannot read a ``^^`` escape or
end its caption, Markdown gets no HTML, link, heading or table of theirs, a
CSV cell is no spreadsheet formula, no control character reaches a terminal,
``compare --top`` answers in the format asked when no cell differs, and a
terminal that cannot show a character shows ``?``.
"""

import csv
import html.parser
import io
import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from analysis.workbench import rulesets
from analysis.present import tables
from analysis.model.validate import one_line
from tests.conftest import run_cli

#: A name and a description that try everything (TOML escapes: written as the characters).
HOSTILE_NAME = "^^5cinput^^7b/etc/passwd^^7d ~ \\u001b[31mRED\\r=x \\u009b2J \\u202emirror <b>b</b>"
HOSTILE_DESCRIPTION = (
    "Line one <script>alert(1)</script> [x](javascript:alert(1)) **bold**\\n\\n"
    "# Heading\\n| a | b |\\n|---|---|\\n\\u001b]0;title\\u0007 end\\r\\n\\tlast"
)
CONTROLS = ("\x1b", "\r", "\x07", "\x9b", "\u202e")
GRID = ("--pool", "1-2", "--hunger", "1", "--difficulty", "1")


run = run_cli  # (exit code, stdout, stderr) of beastodds ARGV


def rule_set_file(tmp_path, name=HOSTILE_NAME, description=HOSTILE_DESCRIPTION, stem="hostile"):
    path = tmp_path / f"{stem}.toml"
    path.write_text(
        f'system = "v5"\nname = "{name}"\ndescription = "{description}"\ncrit_bonus = 3\n', encoding="utf-8"
    )
    return path


@pytest.fixture
def hostile(tmp_path):
    path = rule_set_file(tmp_path)
    rs = rulesets.load(path)
    assert "\x1b" in rs.name and "\n\n" in rs.description  # the file holds what it says
    return path


# ------------------------------------------------------------------ 12. LaTeX


def test_latex_reads_no_hat_escape_no_tilde_and_one_caption_line(capsys, hostile):
    code, out, err = run(capsys, "table", hostile, *GRID, "--format", "latex")
    assert code == 0, err
    assert "^" not in out and "~" not in out  # ^^5c would be a backslash to TeX
    assert r"\input" not in out and "input" in out
    caption = [line for line in out.splitlines() if line.startswith(r"\caption{")]
    assert len(caption) == 1 and caption[0].endswith("}")
    assert "\n\n" not in out  # a blank line is a \par: it would end \caption
    assert r"\textasciicircum{}\textasciicircum{}5cinput" in caption[0]
    assert r"\textasciitilde{}" in caption[0]
    assert not any(c in out for c in CONTROLS)
    assert caption[0].count("{") == caption[0].count("}")


@pytest.mark.parametrize(
    "char,shown",
    [
        ("\\", r"\textbackslash{}"),
        ("^", r"\textasciicircum{}"),
        ("~", r"\textasciitilde{}"),
        ("{", r"\{"),
        ("}", r"\}"),
        ("$", r"\$"),
        ("&", r"\&"),
        ("#", r"\#"),
        ("%", r"\%"),
        ("_", r"\_"),
    ],
)
def test_latex_escapes_each_special_character(char, shown):
    df = tables.pd.DataFrame({"pool": [1], "p": [Fraction(1, 2)]})
    out = tables.render(df, "latex", key_columns=("pool",), rule_set=f"a{char}b")
    assert rf"\caption{{Rule set: a{shown}b}}" in out


# ------------------------------------------------------------------ 13. Markdown


def _markdown_html(text: str) -> str:
    import markdown_it

    return markdown_it.MarkdownIt("commonmark").enable("table").enable("strikethrough").render(text)


def test_markdown_caption_injects_no_html_link_heading_or_table(capsys, hostile):
    code, out, err = run(capsys, "table", hostile, *GRID, "--format", "markdown")
    assert code == 0, err
    caption = out.split("\n\n", 1)[0]
    assert "\n" not in caption and caption.startswith("Rule set: ")
    assert not any(c in out for c in CONTROLS)
    page = _markdown_html(out)
    assert "<script" not in page and "<b>" not in page and "<strong>" not in page
    assert "href" not in page and "<h1" not in page
    assert page.count("<table>") == 1 and page.count("<tr>") == 3  # the header and two cells
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # shown as text
    assert "[x](javascript:alert(1))" in page


def test_markdown_cells_and_legend_are_text(capsys, tmp_path):
    df = tables.pd.DataFrame({"name": ["a|b", "<i>x</i>", "[l](javascript:x)"], "p": [0.5, 0.25, 0.125]})
    out = tables.render(df, "markdown", key_columns=("name",))
    page = _markdown_html(out)
    assert page.count("<tr>") == 4 and "<i>" not in page and "href" not in page
    assert "a|b" in page
    # an ordinary table prints as it always has: the escapes only touch markup
    df = tables.pd.DataFrame({"crit_bonus": [1], "p_win": [Fraction(-1, 3)]})
    assert "| 1 | -0.3333 |" in tables.render(df, "markdown", key_columns=("crit_bonus",))
    assert tables.markdown_text("the v5 defaults with crit_bonus = 3") == "the v5 defaults with crit_bonus = 3"
    assert tables.markdown_text("# title", line_start=True) == "\\# title"


# ------------------------------------------------------------------ 14. CSV


@pytest.mark.parametrize("name", ["=HYPERLINK(1)", "+1+cmd", "-2+3", "@SUM(A1)"])
def test_csv_text_cells_are_never_formulas(capsys, tmp_path, name):
    path = rule_set_file(tmp_path, name=name.replace('"', '\\"'), description="=1+1")
    code, out, err = run(capsys, "table", path, *GRID, "--format", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["rule_set"] for r in rows] == ["'" + name] * 2
    code, out, err = run(
        capsys,
        "compare",
        path,
        "v5-official",
        "--pool",
        "2-3",
        "--hunger",
        1,
        "--difficulty",
        5,
        "--format",
        "csv",
        "--exact",
    )
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["rule_set_a"] for r in rows} == {"'" + name}
    # numbers stay numbers: negative differences, exact fractions and plain decimals
    diffs = [r["difference"] for r in rows]
    assert any(d.startswith("-") and "/" in d for d in diffs)
    assert all(d == "0" or Fraction(d) for d in diffs)


def test_csv_numbers_stay_numbers_and_text_is_neutralised():
    df = tables.pd.DataFrame({"pool": [1, -1], "label": ["=cmd", "-1"], "p": [Fraction(-1, 3), -0.5]})
    out = tables.render(df, "csv", key_columns=("pool", "label"), rule_set="@evil")
    assert out.splitlines() == ["pool,label,p,rule_set", "1,'=cmd,-0.3333333333333333,'@evil", "-1,-1,-0.5,'@evil"]
    out = tables.render(df, "csv", key_columns=("pool", "label"), exact=True)
    assert out.splitlines()[1] == "1,'=cmd,-1/3"
    assert tables.csv_text("-1.5e3") == "-1.5e3" and tables.csv_text("-1+2") == "'-1+2"
    assert tables.csv_text(-1) == -1


def test_rules_listing_csv_neutralises_descriptions(capsys, tmp_path, monkeypatch):
    rs = rulesets.load(rule_set_file(tmp_path, name="=evil", description="=1+1\\nsecond"))
    monkeypatch.setattr(rulesets, "variants", lambda *a: [rs])
    code, out, err = run(capsys, "rules", "--format", "csv")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["name"] == "'=evil" and rows[0]["description"] == "'=1+1 second"


# ------------------------------------------------------------------ 15. control characters

FORMATS = ("table", "csv", "json", "markdown", "latex", "html")


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_control_character_reaches_any_format(capsys, hostile, fmt):
    for argv in (
        ("table", hostile, *GRID),
        ("compare", "v5-official", hostile, *GRID),
        ("compare", "v5-official", hostile, *GRID, "--top", 1),
    ):
        code, out, err = run(capsys, *argv, "--format", fmt)
        assert code == 0, err
        assert not any(c in out + err for c in CONTROLS), (argv, out)
        if fmt == "json":
            assert all("?[31mRED?=x ?2J ?mirror" in r.get("rule_set", r.get("rule_set_b", "")) for r in json.loads(out))


def test_compare_header_and_messages_show_controls_as_question_marks(capsys, hostile, tmp_path):
    code, out, err = run(capsys, "compare", "v5-official", hostile, *GRID)
    assert code == 0, err
    head = out.splitlines()[0]
    assert head.startswith("compare v5 rule sets: a = v5-official, b = ^^5cinput")
    assert "?[31mRED?=x ?2J ?mirror" in head and not any(c in out for c in CONTROLS)
    # an error naming the rule set: one line on stderr, no escape in it
    other = tmp_path / "other.toml"
    other.write_text(f'system = "werewolf"\nname = "{HOSTILE_NAME}"\n', encoding="utf-8")
    code, out, err = run(capsys, "compare", hostile, other)
    assert code == 2 and err.startswith("beastodds: error: ") and err.count("\n") == 1
    assert not any(c in err for c in CONTROLS)


def test_rules_prints_controls_escaped_and_reads_back_the_same(capsys, hostile, tmp_path):
    rs = rulesets.load(hostile)
    for fmt in ("table", "json"):
        code, out, err = run(capsys, "rules", hostile, "--format", fmt)
        assert code == 0, err
        assert not any(c in out for c in CONTROLS)
    code, out, _ = run(capsys, "rules", hostile)
    copy = tmp_path / "copy.toml"
    copy.write_text(out, encoding="utf-8")
    back = rulesets.load(copy)
    assert (back.name, back.description) == (rs.name, rs.description)
    code, out, _ = run(capsys, "rules", hostile, "--format", "json")
    assert json.loads(out)["name"] == rs.name


def test_rules_listing_shows_controls_as_question_marks(capsys, hostile, monkeypatch):
    rs = rulesets.load(hostile)
    monkeypatch.setattr(rulesets, "variants", lambda *a: [rs])
    for fmt in FORMATS:
        code, out, err = run(capsys, "rules", "--format", fmt)
        assert code == 0, err
        assert not any(c in out for c in CONTROLS), fmt


def test_one_line():
    assert one_line("a\x1bb\rc\r\nd\n\n  e\tf\u202eg") == "a?b?c d e f?g"
    assert one_line("v5-official") == "v5-official"


# ------------------------------------------------------------------ 16. compare --top, nothing differs


@pytest.mark.parametrize("fmt", FORMATS)
def test_top_with_no_difference_answers_in_the_format_asked(capsys, hostile, fmt):
    argv = (
        "compare",
        "v5-official",
        hostile,
        "--pool",
        1,
        "--hunger",
        1,
        "--difficulty",
        1,
        "--top",
        3,
        "--format",
        fmt,
    )
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    if fmt == "table":
        assert "no cell differs" in out
        return
    assert "compare v5 rule sets" not in out  # not the terminal's text
    assert not any(c in out for c in CONTROLS)
    if fmt == "csv":
        assert out.splitlines() == ["pool,hunger,difficulty,outcome,a,b,difference,rule_set_a,rule_set_b"]
    elif fmt == "json":
        assert json.loads(out) == []
    elif fmt == "markdown":
        page = _markdown_html(out)
        assert page.count("<table>") == 1 and "(no cell differs)" in page
    elif fmt == "latex":
        assert r"\begin{tabular}" in out and r"\multicolumn{7}{c}{(no cell differs)}" in out
        assert out.rstrip().endswith(r"\end{table}")
    else:
        parser = _Tags()
        parser.feed(out)
        assert parser.tags.count("table") == 1 and "(no cell differs)" in parser.text
        assert "script" not in parser.tags and "b" not in parser.tags


class _Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.text = [], ""

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text += data


# ------------------------------------------------------------------ 22. an ASCII terminal


@pytest.mark.parametrize("fmt", ["markdown", "csv", "html", "latex", "json", "table"])
def test_non_ascii_names_print_as_question_marks_on_an_ascii_terminal(tmp_path, fmt):
    path = rule_set_file(tmp_path, name="maison-\\u00e9t\\u00e9", description="R\\u00e8gle \\u2014 ok")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONIO"))}
    env.update(LC_ALL="POSIX", PYTHONUTF8="0")
    done = subprocess.run(
        [sys.executable, "-m", "analysis.cli", "table", str(path), *GRID, "--format", fmt],
        capture_output=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("ascii")
    if fmt == "json":  # JSON writes \u00e9 itself
        assert "maison-\\u00e9t\\u00e9" in out or "maison-?t?" in out
    elif fmt != "table":
        assert "maison-?t?" in out
    assert done.stderr == b""


# ------------------------------------------------------------------ figures


def test_a_dollar_in_a_name_is_drawn_not_parsed_as_mathtext(capsys, tmp_path):
    path = rule_set_file(tmp_path, name="a $\\\\frac{$ b \\u001b", description="")
    out = tmp_path / "hm.png"
    code, _, err = run(
        capsys,
        "compare",
        "v5-official",
        path,
        "--pool",
        "1-3",
        "--hunger",
        "0-1",
        "--difficulty",
        5,
        "--heatmap",
        out,
        "--quiet",
    )
    assert code == 0, err
    assert out.stat().st_size > 0
    from analysis.present import plots

    assert plots._name(rulesets.load(path).name) == "a \\$\\frac{\\$ b ?"
