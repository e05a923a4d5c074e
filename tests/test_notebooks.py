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


def test_a_stub_states_its_task_from_the_catalogue_and_keeps_indentation():
    source = "def f(x):\n    ### BEGIN SOLUTION\n    return 1\n    ### END SOLUTION\ncheck(f)"
    stub = make_notebooks.strip_solutions(source, task_for=lambda name: f"{name}: count the pairs " * 8)
    lines = stub.split("\n")
    assert lines[0] == "def f(x):" and lines[-3:] == [
        "    # YOUR CODE HERE", "    raise NotImplementedError()", "check(f)"]
    task = [line for line in lines if line.startswith("    # ") and "YOUR CODE" not in line]
    assert task[0].startswith("    # Task: f: count the pairs") and len(task) > 1  # wrapped, not cut
    assert all(len(line) <= make_notebooks.STUB_WIDTH for line in lines)
    with pytest.raises(ValueError, match="without"):
        make_notebooks.strip_solutions("### BEGIN SOLUTION\nx = 1", task_for=str)
    with pytest.raises(ValueError, match="catalogue"):
        make_notebooks.strip_solutions("def f():\n    ### BEGIN SOLUTION the task here\n    ### END SOLUTION")


def test_learner_copies_have_no_outputs_and_solutions_no_stubs():
    for path in LEARNER_NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                assert not cell.outputs and cell.execution_count is None, path.name
    for path in SOLUTIONS:
        for cell in nbformat.read(path, as_version=4).cells:
            assert "# YOUR CODE HERE" not in cell.source, f"{path.name}: a stub in the solution"


@pytest.mark.parametrize("path", SOLUTIONS + LEARNER_NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_notebooks_are_valid_and_free_of_test_markers(path):
    """No 'Notebook JSON is invalid' in the server log, and no test plumbing in what learners read."""
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)  # raises on any schema error (e.g. ids in a 4.4 file)
    assert (notebook.nbformat, notebook.nbformat_minor) >= (4, 5) and all("id" in c for c in notebook.cells)
    for cell in notebook.cells:
        assert "NBVAL" not in cell.source, f"{path.name}: a test marker in a cell; use a cell tag"


def run_all(path):
    """Run a notebook as JupyterLab's Run All does: stop at the first error, except in cells
    tagged raises-exception. Returns the executed notebook."""
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=False,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    not_run = [cell.source.split("\n")[0] for cell in notebook.cells
               if cell.cell_type == "code" and cell.execution_count is None]
    assert not not_run, f"{path.name}: cells that never ran: {not_run}"
    return notebook


def stream_text(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


@pytest.mark.parametrize("path", LEARNER_NOTEBOOKS, ids=lambda p: p.stem)
def test_run_all_reaches_the_end_of_an_untouched_learner_notebook(path):
    notebook = run_all(path)
    stubs = set(nbformat.read(path, as_version=4).metadata["bpe_course"]["exercises"])
    for cell in notebook.cells:
        if cell.cell_type != "code" or raises_on_purpose(cell):
            continue
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, f"{path.name}: {cell.source[:60]!r} raised {errors[0].ename}"
        text = stream_text(cell)
        if make_notebooks.CHECK_RE.search(cell.source) and "import" not in cell.source:
            assert "not implemented yet" in text, f"{path.name} {cell.source!r}: {text!r}"
        elif "is not written yet" in text or "is not there yet" in text:
            note = text.strip().split("\n")[-1]
            assert note.startswith("⏳") and "section “" in note, note  # one calm line, where to go
            assert any(name in note for name in stubs), note


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_run_all_reaches_the_end_of_a_solution(path):
    notebook = run_all(path)
    for cell in notebook.cells:
        if cell.cell_type == "code" and not raises_on_purpose(cell):
            assert "not written yet" not in stream_text(cell), f"{path.name}: {cell.source[:60]!r}"


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
