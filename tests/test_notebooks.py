"""The workbooks: learners' copies match the solutions, and run untouched with only stub errors.

(The solutions themselves are executed and compared by `pytest --nbval solutions/`.)
"""

import importlib.util
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from bpe_ref.grade.source import raises_on_purpose

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("make_notebooks", ROOT / "tools" / "make_notebooks.py")
make_notebooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_notebooks)

SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
LEARNER_NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_learner_notebooks_are_generated_from_solutions():
    assert SOLUTIONS, "no solution notebooks"
    stale = make_notebooks.generate(check_only=True)
    assert not stale, f"run `python tools/make_notebooks.py`: out of date: {stale}"


def test_strip_solutions_keeps_indentation_and_states_the_task():
    source = "def f(x):\n    ### BEGIN SOLUTION count the pairs\n    return 1\n    ### END SOLUTION\ncheck(f)"
    assert make_notebooks.strip_solutions(source) == (
        "def f(x):\n    # YOUR CODE HERE\n    raise NotImplementedError('count the pairs')\ncheck(f)")
    with pytest.raises(ValueError, match="without"):
        make_notebooks.strip_solutions("### BEGIN SOLUTION\nx = 1")


def test_learner_copies_have_no_outputs_and_solutions_no_stubs():
    for path in LEARNER_NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                assert not cell.outputs and cell.execution_count is None, path.name
    for path in SOLUTIONS:
        for cell in nbformat.read(path, as_version=4).cells:
            assert "# YOUR CODE HERE" not in cell.source, f"{path.name}: a stub in the solution"


@pytest.mark.parametrize("path", LEARNER_NOTEBOOKS, ids=lambda p: p.stem)
def test_learner_notebook_runs_with_only_stub_errors(path):
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    for number, cell in enumerate(notebook.cells, 1):
        if cell.cell_type != "code" or raises_on_purpose(cell):
            continue  # a demonstrated error (marked for nbval) is part of the lesson
        for output in cell.outputs:
            if output.output_type == "error":
                assert output.ename == "NotImplementedError", (
                    f"{path.name} cell {number} raised {output.ename}: {output.evalue}")
        if "check(" in cell.source and "import" not in cell.source:
            text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            assert "not implemented yet" in text, f"{path.name} cell {number}: {text!r}"


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_every_check_in_a_solution_passes(path):
    notebook = nbformat.read(path, as_version=4)
    for number, cell in enumerate(notebook.cells, 1):
        if cell.cell_type == "code" and "check(" in cell.source and "import" not in cell.source:
            text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            assert text.startswith("✅"), f"{path.name} cell {number}: {text!r}"


def test_bpe_grade_passes_every_solution_and_no_learner_stub():
    """End to end: the sandboxed grader accepts every solution, and a learner's untouched
    notebook has every exercise it checks reported as missing (never pass)."""
    from bpe_ref.grade.cli import grade_all

    results = {Path(r["path"]): r for r in grade_all(SOLUTIONS + LEARNER_NOTEBOOKS, 20.0, 2048, 2)}
    for path in SOLUTIONS:
        result = results[path]
        assert result["passed"] and not result["notes"], (path.name, result)
    for path in LEARNER_NOTEBOOKS:
        checked = nbformat.read(path, as_version=4).metadata["bpe_course"]["exercises"]
        statuses = {name: ex["status"] for name, ex in results[path]["exercises"].items()}
        assert checked and all(statuses[name] == "missing" for name in checked), (path.name, statuses)
