"""The workbooks: learners' copies match the solutions, and run untouched with only stub errors.

(The solutions themselves are executed and compared by `pytest --nbval solutions/`.)
"""

import ast
import importlib.util
import inspect
import re
import unicodedata
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from bpe_ref import naive
from bpe_ref.grade.judge.exercises import REGISTRY
from bpe_ref.grade.reading.course_copy import raises_on_purpose
from bpe_ref.grade.reading.source import ipython_to_python

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


def test_the_graders_output_in_prose_is_generated_never_typed():
    """A markdown block that shows what bpe-grade or check() prints is a generated sample (issue 32:
    00's typed sample said get_stats passed 6 edge cases after the grader had 7)."""
    for path in SOLUTIONS:
        for cell in nbformat.read(path, as_version=4).cells:
            shows_grader = cell.cell_type == "markdown" and re.search(r"```text\n(\$ bpe-grade|❌)", cell.source)
            if shows_grader:
                assert cell.metadata.get("bpe_course", {}).get("sample"), f"{path.name}: a typed sample"


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
        for cell in nbformat.read(path, as_version=4).cells:  # (00's prose quotes a stub's lines)
            if cell.cell_type == "code":
                assert "# YOUR CODE HERE" not in cell.source, f"{path.name}: a stub in the solution"


@pytest.mark.parametrize("path", SOLUTIONS + LEARNER_NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_notebooks_are_valid_and_free_of_test_markers(path):
    """No 'Notebook JSON is invalid' in the server log, and no test plumbing in what learners read."""
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)  # raises on any schema error (e.g. ids in a 4.4 file)
    assert (notebook.nbformat, notebook.nbformat_minor) >= (4, 5) and all("id" in c for c in notebook.cells)
    for cell in notebook.cells:
        assert "NBVAL" not in cell.source, f"{path.name}: a test marker in a cell; use a cell tag"


def headings_and_code(notebook):
    """(kind, text) in order: ("heading", a markdown heading without its #s) or ("code", source)."""
    for cell in notebook.cells:
        if cell.cell_type == "code":
            yield "code", cell.source
        elif cell.cell_type == "markdown":
            fenced = False
            for line in cell.source.split("\n"):
                fenced = fenced != line.startswith("```")
                if not fenced and re.match(r"#+ ", line):
                    yield "heading", line.lstrip("#").strip()


@pytest.mark.parametrize("name", [name for name, ex in REGISTRY.items() if ex.workbook])
def test_every_catalogue_section_is_the_heading_above_its_stub(name):
    """The calm note of an unwritten exercise sends the learner to this section: it must exist."""
    exercise = REGISTRY[name]
    path = ROOT / "notebooks" / f"{exercise.workbook}.ipynb"
    heading = None
    for kind, text in headings_and_code(nbformat.read(path, as_version=4)):
        if kind == "heading":
            heading = text
        elif re.search(rf"^def {name}\(", text, re.M) and "raise NotImplementedError()" in text:
            assert heading == exercise.section, f"{name}: the stub is under {heading!r}"
            return
    pytest.fail(f"no stub of {name} in {path.name}")


def columns(line):
    """How many columns a line takes in the editor: East Asian wide characters take two,
    combining marks and joiners none."""
    width = 0
    for ch in line:
        if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


@pytest.mark.parametrize("path", SOLUTIONS + LEARNER_NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_code_line_is_wider_than_the_editor(path):
    """The notebook editor does not wrap code: 88 columns, docstrings and long texts included."""
    wide = []
    for number, cell in enumerate(nbformat.read(path, as_version=4).cells, start=1):
        if cell.cell_type != "code":
            continue
        lines = cell.source.split("\n")
        if make_notebooks.given_names(cell):
            lines = lines[1:]  # the header line, made by tools/make_notebooks.py: see the next test
        wide += [f"cell {number}: {line}" for line in lines if columns(line) > make_notebooks.STUB_WIDTH]
    assert not wide, f"{path.name}: lines wider than 88 columns:\n" + "\n".join(wide)


def test_the_header_of_a_given_cell_fits_the_editor():
    for names in (["get_stats", "merge"], ["get_stats", "merge", "encode", "encode_ordinary"], ["u_plus"]):
        header = make_notebooks.given_source(names).split("\n")[0]
        assert columns(header) <= make_notebooks.STUB_WIDTH, header


IMAGE_LINK = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)")


@pytest.mark.parametrize("path", SOLUTIONS + LEARNER_NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_pictures_in_markdown_are_attachments(path):
    """A relative image link breaks somewhere: the learner's workbooks and the solutions sit at
    different depths in the workspace, and nbgrader releases a notebook alone. An attachment,
    generated from docs/ by tools/make_notebooks.py, shows wherever the notebook is opened."""
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        for target in IMAGE_LINK.findall(cell.source):
            assert target.startswith("attachment:"), f"{path.name}: link {target!r} as an attachment"
            name = target.removeprefix("attachment:")
            assert name in cell.get("attachments", {}), f"{path.name}: no attachment {name!r}"
            listed = [Path(p).name for p in make_notebooks.attached_paths(cell)]
            assert name in listed, f"{path.name}: list {name!r} in the cell's bpe_course.attach"


def test_attachments_are_filled_from_their_files(tmp_path):
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "chart.png").write_bytes(b"\x89PNG not really")
    cell = nbformat.v4.new_markdown_cell("![a chart](attachment:chart.png)")
    cell.metadata["bpe_course"] = {"attach": ["img/chart.png"]}
    notebook = nbformat.v4.new_notebook(cells=[cell])
    assert make_notebooks.fill_attachments(notebook, root=tmp_path)
    assert cell.attachments == {"chart.png": {"image/png": "iVBORyBub3QgcmVhbGx5"}}
    assert not make_notebooks.fill_attachments(notebook, root=tmp_path)  # nothing left to do
    (tmp_path / "img" / "chart.png").write_bytes(b"redrawn")
    assert make_notebooks.fill_attachments(notebook, root=tmp_path)  # a new picture: stale
    nbformat.validate(notebook)
    cell.metadata["bpe_course"] = {"attach": ["img/missing.png"]}
    with pytest.raises(ValueError, match="no such file"):
        make_notebooks.fill_attachments(notebook, root=tmp_path)
    cell.metadata["bpe_course"] = {"attach": ["img/notes.txt"]}
    with pytest.raises(ValueError, match="attach a picture"):
        make_notebooks.fill_attachments(notebook, root=tmp_path)


DRAWING = re.compile(r"\b(plt\.(subplots|figure|bar|plot)|ax\.|fig\.|Rectangle\()")


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_charts_are_drawn_by_the_package_not_in_cells(path):
    """A demo cell prepares data and calls bpe_ref.plots (or the viewer); the drawing is there."""
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code":
            assert not DRAWING.search(cell.source), f"{path.name}: drawing code in {cell.source[:60]!r}"


NAIVE_FUNCTIONS = {name for name, fn in inspect.getmembers(naive, inspect.isfunction)
                   if fn.__module__ == naive.__name__}


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_helpers_from_earlier_workbooks_are_given_cells_not_pasted(path):
    """A function of bpe_ref/naive.py is written by hand only in the workbook that teaches it;
    elsewhere it is a given cell, generated from naive.py."""
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code" or make_notebooks.given_names(cell):
            continue
        for node in ast.parse(ipython_to_python(cell.source)).body:
            if isinstance(node, ast.FunctionDef) and node.name in NAIVE_FUNCTIONS:
                taught_in = REGISTRY[node.name].workbook if node.name in REGISTRY else None
                assert taught_in == path.stem, f"{path.name}: {node.name} pasted; make it a given cell"


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
    """Read from the stored outputs, which are a Run All: `make_notebooks.py --execute` stops at
    the first error outside a raises-exception cell, as JupyterLab does. The README's test
    command runs every solution again under nbval, in the same run, and fails on any output
    that differs or any error; that run is shared, not repeated here. So: every code cell ran
    (nbval skips a cell that never ran), none raised but those meant to, and none says an
    exercise is not written yet."""
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        assert cell.execution_count is not None, f"{path.name}: never ran: {cell.source[:60]!r}"
        if not raises_on_purpose(cell):
            errors = [o for o in cell.outputs if o.output_type == "error"]
            assert not errors, f"{path.name}: {cell.source[:60]!r} raised {errors[0].ename}"
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
    from bpe_ref.grade.walls import isolation
    from bpe_ref.grade.cli import Limits, grade_all

    limits = Limits(timeout=20.0, file_timeout=400.0, memory=2048, isolated=isolation.status()[0])
    results = {Path(r["path"]): r for r in grade_all(SOLUTIONS + LEARNER_NOTEBOOKS, limits, 2)}
    for path in SOLUTIONS:
        result = results[path]
        assert result["passed"] and not result["notes"], (path.name, result)
    for path in LEARNER_NOTEBOOKS:
        checked = nbformat.read(path, as_version=4).metadata["bpe_course"]["exercises"]
        statuses = {name: ex["status"] for name, ex in results[path]["exercises"].items()}
        assert checked and all(statuses[name] == "missing" for name in checked), (path.name, statuses)
