"""The module paths from before the package had folders: one table (bpe_ref.OLD_PATHS), no files.
Each old name imports as the moved module itself, and a workbook saved with the old first line
(`%load_ext bpe_ref.workbook`) still runs."""

import importlib
import subprocess
import sys

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

import bpe_ref


def test_each_old_path_is_the_moved_module_itself():
    for old, new in bpe_ref.OLD_PATHS.items():
        moved = importlib.import_module(f"bpe_ref.{new}")
        assert importlib.import_module(f"bpe_ref.{old}") is moved, old
        assert moved.__spec__.name == f"bpe_ref.{new}", old  # the alias leaves the module's own spec alone
    from bpe_ref.naive import merge
    assert merge is bpe_ref.core.naive.merge and bpe_ref.naive is bpe_ref.core.naive


def test_an_unknown_name_is_still_an_error():
    try:
        importlib.import_module("bpe_ref.no_such_module")
    except ModuleNotFoundError as error:
        assert error.name == "bpe_ref.no_such_module"
    else:
        raise AssertionError("bpe_ref.no_such_module imported")


def test_python_dash_m_runs_the_moved_module(tmp_path):
    done = subprocess.run([sys.executable, "-m", "bpe_ref.hub", "--help"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "bpe-course-hub restart" in done.stdout + done.stderr  # its usage: the moved module's main ran


def test_a_workbook_saved_with_the_old_load_line_runs(tmp_path):
    old_first_cell = ("%load_ext bpe_ref.workbook\n"
                      "from bpe_ref import BasicTokenizer\nfrom bpe_ref import plots\nfrom bpe_ref.grade import check")
    stub = "def merge(ids, pair, idx):\n    # YOUR CODE HERE\n    raise NotImplementedError()"
    notebook = new_notebook(cells=[new_code_cell(old_first_cell), new_code_cell(stub),
                                   new_code_cell("merge([1, 2], (1, 2), 256)"), new_code_cell("'the end'")])
    path = tmp_path / "04_naive_bpe.ipynb"
    nbformat.write(notebook, path)
    NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=False,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [cell.outputs for cell in notebook.cells]
    assert "merge is not written yet" in "".join(o.get("text", "") for o in outputs[2])
    assert outputs[3][0]["data"]["text/plain"] == "'the end'"
