"""Every notebook executes top to bottom, is committed without outputs, and matches its jupytext pair."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no .ipynb"


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_without_outputs(path):
    import nbformat  # not at the top: it takes seconds to import, and collecting `make test` should not pay

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.outputs, f"{path.name} has outputs; strip them"
            assert cell.execution_count is None


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_paired_with_jupytext(path):
    import jupytext
    import nbformat

    pair = path.with_suffix(".py")
    assert pair.exists(), f"{path.name} has no paired {pair.name}"
    from_py = jupytext.read(pair)
    from_nb = nbformat.read(path, as_version=4)
    assert [c.source for c in from_py.cells] == [c.source for c in from_nb.cells], (
        f"{path.name} and {pair.name} differ: run `make notebooks`"
    )


@pytest.mark.slow
@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes(path, tmp_path):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    # a cell that builds a figure shows it as a picture, not as "<Figure size ...>"
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.rstrip().endswith("make_figure()"):
            assert any("image/png" in o.get("data", {}) for o in cell.outputs), cell.source
