"""The README and the documentation site tell the truth: every `$ beastodds ...` example of the README and
of every page under docs/ prints what the page shows, and every `>>>` example runs as shown."""

import re
import shlex
from pathlib import Path

import pytest

from analysis import cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
#: The pages of the README and of the documentation site: ``{name: text}``.
PAGES = {"README.md": README} | {
    f"docs/{p.name}": p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))
}


def console_examples(text: str):
    examples = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        current = None
        for line in block.splitlines():
            if line.startswith("$ "):
                current = [line[2:], []]
                examples.append(current)
            elif current is not None:
                current[1].append(line)
    return examples


def _runnable(cmd: str, out: list) -> bool:
    """An example whose whole output the page shows (not one cut with ``...``, nor one that writes a file
    or reads the reader's own ``mine.toml``)."""
    return (
        cmd.startswith("beastodds ")
        and "..." not in out
        and bool(out)
        and "mine.toml" not in cmd
        and ("--heatmap" not in cmd)
    )


EXAMPLES = [
    (page, cmd, out) for page, text in PAGES.items() for cmd, out in console_examples(text) if _runnable(cmd, out)
]


def test_the_readme_and_the_site_have_examples():
    assert sum(page == "README.md" for page, _, _ in EXAMPLES) >= 8
    assert len(EXAMPLES) >= 40
    pages = {page for page, _, _ in EXAMPLES}
    for name in ("v5", "werewolf", "hunter", "requiem", "cards", "classic", "workbench", "mechanic-format"):
        assert f"docs/{name}.md" in pages, name


@pytest.mark.parametrize("page, cmd, expected", EXAMPLES, ids=[f"{p}: {c}" for p, c, _ in EXAMPLES])
def test_console_example(page, cmd, expected, capsys):
    head = None
    if "|" in cmd:
        cmd, pipe = (part.strip() for part in cmd.split("|", 1))
        m = re.fullmatch(r"head -(\d+)", pipe)
        assert m, f"only `| head -N` is understood in README examples: {pipe!r}"
        head = int(m.group(1))
    argv = shlex.split(cmd)[1:]
    assert cli.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    if head is not None:
        lines = lines[:head]
    assert [line.rstrip() for line in lines] == [line.rstrip() for line in expected]


PYTHON_BLOCKS = [
    (page, b)
    for page, text in PAGES.items()
    for b in re.findall(r"```python\n(.*?)```", text, flags=re.S)
    if ">>>" in b
]


def test_the_readme_and_the_site_have_python_examples():
    assert len(PYTHON_BLOCKS) >= 5 and any(page == "README.md" for page, _ in PYTHON_BLOCKS)


@pytest.mark.parametrize(
    "page, block", PYTHON_BLOCKS, ids=[f"{page}: python-{i}" for i, (page, _) in enumerate(PYTHON_BLOCKS)]
)
def test_python_example(page, block):
    import doctest

    test = doctest.DocTestParser().get_doctest(block, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"an example of {page} prints something else:\n{block}"
