"""The workbooks' kernel helper (`%load_ext bpe_ref.workbook`), in a real kernel, run as Run All runs it."""

import re

import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbformat.v4 import new_code_cell, new_notebook

STUB = '''def merge(ids, pair, idx):
    # YOUR CODE HERE
    raise NotImplementedError()'''


def run(*sources, tmp_path):
    """Run cells in a fresh kernel, stopping at the first error (JupyterLab's Run All)."""
    notebook = new_notebook(cells=[new_code_cell("%load_ext bpe_ref.workbook")] + [new_code_cell(s) for s in sources])
    NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=False,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    return notebook.cells[1:]


def text(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def value(cell):
    shown = [o for o in cell.outputs if o.output_type == "execute_result"]
    return (shown[0].data["text/plain"], shown[0].execution_count) if shown else None


def test_a_stub_call_is_one_calm_line_and_run_all_goes_on(tmp_path):
    cells = run(STUB, "step1 = merge([1, 2], (1, 2), 256)\nstep1", "len(step1)", "x = step1 + [1]", "x",
                "'still running'", tmp_path=tmp_path)
    note = text(cells[1])
    assert note.count("\n") == 1 and note.startswith("⏳ merge is not written yet: write it in section “3. Merging a pair”")
    assert not any(o.output_type == "error" for c in cells for o in c.outputs)
    assert "`step1` is not there yet" in text(cells[2]) and "because merge was not written" in text(cells[2])
    assert "`step1` is not there yet" in text(cells[3])
    assert "`x` is not there yet" in text(cells[4])  # x would have come from step1: it waits for merge too
    assert value(cells[5])[0] == "'still running'"


def test_last_value_semicolon_and_ordinary_cells_behave_as_in_plain_ipython(tmp_path):
    cells = run("a = 2\na * 21", "a * 21;", "print('hi')\n[a]", "for i in range(2):\n    i", "%timeit -n 3 -r 1 a + 1",
                tmp_path=tmp_path)
    assert value(cells[0]) == ("42", cells[0].execution_count)
    assert value(cells[1]) is None
    assert text(cells[2]) == "hi\n" and value(cells[2])[0] == "[2]"
    assert value(cells[3]) is None
    assert "loop" in text(cells[4]) and value(cells[4]) is None  # %timeit does not show a value per loop


@pytest.mark.parametrize("source, error", [
    ("1 / 0", "ZeroDivisionError"),
    ("undefined_name + 1", "NameError"),  # a real typo still raises
    ("def helper():\n    raise NotImplementedError('mine')\nhelper()", "NotImplementedError"),  # not a stub
])
def test_real_errors_still_stop_run_all_with_their_traceback(source, error, tmp_path):
    with pytest.raises(CellExecutionError, match=error):
        run(source, "'never reached'", tmp_path=tmp_path)


def test_a_written_exercise_runs_normally(tmp_path):
    done = "def merge(ids, pair, idx):\n    return [idx]"
    cells = run(STUB, "merge([1], (1, 2), 3)", done, "merge([1], (1, 2), 3)", tmp_path=tmp_path)
    assert "not written yet" in text(cells[1])
    assert value(cells[3])[0] == "[3]"


def test_the_transformer_keeps_line_numbers_for_tracebacks(tmp_path):
    with pytest.raises(CellExecutionError) as failure:
        run("x = 1\ny = 2\nz = [][3]", tmp_path=tmp_path)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", str(failure.value))
    assert "----> 3 z = [][3]" in plain
