"""The README tells the truth: every `$ beastodds ...` example prints what the README shows."""

import re
import shlex
from pathlib import Path

import pytest

from analysis import cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def console_examples():
    examples = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.S):
        current = None
        for line in block.splitlines():
            if line.startswith("$ "):
                current = [line[2:], []]
                examples.append(current)
            elif current is not None:
                current[1].append(line)
    return examples


EXAMPLES = [
    (cmd, out)
    for cmd, out in console_examples()
    if cmd.startswith("beastodds ") and "..." not in out and out and "mine.toml" not in cmd and "--heatmap" not in cmd
]


def test_the_readme_has_examples():
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize("cmd, expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_console_example(cmd, expected, capsys):
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


PYTHON_BLOCKS = [b for b in re.findall(r"```python\n(.*?)```", README, flags=re.S) if ">>>" in b]


def test_the_readme_has_python_examples():
    assert len(PYTHON_BLOCKS) >= 5


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=[f"python-{i}" for i in range(len(PYTHON_BLOCKS))])
def test_python_example(block):
    import doctest

    test = doctest.DocTestParser().get_doctest(block, {}, "README", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"a README example prints something else:\n{block}"
