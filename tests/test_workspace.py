"""The learner's workspace (bpe_ref.workspace) and the JupyterLab settings (bpe_ref.lab).

Each test builds a tiny course folder (notebooks/, solutions/, README.md, docs/) in tmp_path, so
the course's own files are never touched.
"""

import json
import stat
import subprocess

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from bpe_ref import lab, workspace


def write_notebook(path, *sources, outputs=False):
    notebook = new_notebook(cells=[new_markdown_cell("# title")] + [new_code_cell(s) for s in sources])
    if outputs:
        notebook.cells[1].execution_count = 1
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, path)


@pytest.fixture
def course(tmp_path):
    root = tmp_path / "course"
    write_notebook(root / "notebooks" / "00_start.ipynb", "x = 1")
    write_notebook(root / "notebooks" / "01_next.ipynb", "y = 2")
    write_notebook(root / "solutions" / "00_start.ipynb", "x = 1")
    write_notebook(root / "solutions" / "01_next.ipynb", "y = 2")
    (root / "README.md").write_text("# the course\n", encoding="utf-8")
    (root / "docs" / "img").mkdir(parents=True)
    (root / "docs" / "img" / "a.png").write_bytes(b"png")
    return root


def learner_edits(path, source):
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[1].source = source
    notebook.cells[1].execution_count = 3
    nbformat.write(notebook, path)


def test_first_use_copies_every_workbook_and_read_only_material(course, tmp_path):
    ws = tmp_path / "ws"
    notes = workspace.prepare(course, ws)
    assert sorted(p.name for p in ws.glob("*.ipynb")) == ["00_start.ipynb", "01_next.ipynb"]
    assert (ws / "00_start.ipynb").read_bytes() == (course / "notebooks" / "00_start.ipynb").read_bytes()
    assert any("added the workbook 00_start.ipynb" in n for n in notes)
    for path in [ws / "solutions" / "00_start.ipynb", ws / "README.md", ws / "docs" / "img" / "a.png"]:
        assert not stat.S_IMODE(path.stat().st_mode) & 0o222, f"{path} should be read only"
    solution = nbformat.read(ws / "solutions" / "00_start.ipynb", as_version=4)
    assert "read only" in solution.cells[0].source and "00_start.ipynb" in solution.cells[0].source
    assert all(c.metadata["editable"] is False for c in solution.cells)
    nbformat.validate(solution)
    assert (ws / "practice").is_dir()
    assert workspace.prepare(course, ws) == []  # nothing new: nothing said, nothing written


def test_the_learners_work_is_never_overwritten_and_updates_land_beside_it(course, tmp_path):
    ws = tmp_path / "ws"
    workspace.prepare(course, ws)
    learner_edits(ws / "00_start.ipynb", "x = 'my work'")
    mine = (ws / "00_start.ipynb").read_bytes()
    write_notebook(course / "notebooks" / "00_start.ipynb", "x = 1", "x + 1")  # the course changes both
    write_notebook(course / "notebooks" / "01_next.ipynb", "y = 3")
    write_notebook(course / "notebooks" / "02_new.ipynb", "z = 0")  # and adds one
    notes = workspace.prepare(course, ws)
    assert (ws / "00_start.ipynb").read_bytes() == mine
    assert (ws / "updates" / "00_start.ipynb").read_bytes() == (course / "notebooks" / "00_start.ipynb").read_bytes()
    assert "y = 3" in (ws / "01_next.ipynb").read_text(encoding="utf-8")  # untouched copy follows the course
    assert (ws / "02_new.ipynb").exists()
    assert any("updates/00_start.ipynb" in n for n in notes) and any("updated 01_next" in n for n in notes)


def test_a_deleted_workbook_comes_back_fresh(course, tmp_path):
    ws = tmp_path / "ws"
    workspace.prepare(course, ws)
    learner_edits(ws / "01_next.ipynb", "y = 'stuck'")
    (ws / "01_next.ipynb").unlink()
    notes = workspace.prepare(course, ws)
    assert (ws / "01_next.ipynb").read_bytes() == (course / "notebooks" / "01_next.ipynb").read_bytes()
    assert any("restored a fresh workbook 01_next.ipynb" in n for n in notes)


def test_work_done_in_notebooks_before_the_workspace_is_moved_in_not_lost(course, tmp_path):
    learner_edits(course / "notebooks" / "00_start.ipynb", "x = 'done the old way'")
    ws = tmp_path / "ws"
    notes = workspace.prepare(course, ws)
    assert "done the old way" in (ws / "00_start.ipynb").read_text(encoding="utf-8")
    assert any("git checkout -- notebooks/" in n for n in notes)
    write_notebook(course / "notebooks" / "00_start.ipynb", "x = 1")  # after git checkout
    workspace.prepare(course, ws)
    assert "done the old way" in (ws / "00_start.ipynb").read_text(encoding="utf-8")
    assert not (ws / "updates").exists()


def test_drills_and_their_history_are_left_alone(course, tmp_path):
    ws = tmp_path / "ws"
    workspace.prepare(course, ws)
    history = ws / "practice" / "history.jsonl"
    history.write_text('{"attempt": 1}\n', encoding="utf-8")
    workspace.prepare(course, ws)
    assert history.read_text(encoding="utf-8") == '{"attempt": 1}\n'


def test_configure_writes_terminal_and_notification_settings(tmp_path):
    prefix = tmp_path / "env"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "activate").write_text("", encoding="utf-8")
    settings = prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"other:plugin": {"x": 1}}), encoding="utf-8")
    lab.configure(prefix)
    overrides = json.loads(settings.read_text(encoding="utf-8"))
    assert overrides["other:plugin"] == {"x": 1}  # the learner's own overrides are kept
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    server = json.loads((prefix / "etc" / "jupyter" / "jupyter_server_config.json").read_text(encoding="utf-8"))
    command = server["ServerApp"]["terminado_settings"]["shell_command"]
    assert command[-1] == "-i" and "-l" not in command  # jupyter adds no login flag when a command is set
    pth = (lab.site_packages(prefix) / lab.TIKTOKEN_PTH).read_text(encoding="utf-8")
    assert pth.startswith("import os;") and "TIKTOKEN_CACHE_DIR" in pth  # tiktoken offline in every process


def test_the_terminal_start_up_file_puts_the_environment_first_after_a_login_reset(tmp_path):
    """As JupyterLab's terminal runs it: /etc/profile (which resets PATH on Debian) runs first,
    and this environment's bin/ still comes first afterwards."""
    prefix = tmp_path / "env"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "bpe-grade").write_text("#!/bin/sh\necho graded\n", encoding="utf-8")
    (prefix / "bin" / "bpe-grade").chmod(0o755)
    rc = tmp_path / "rc"
    rc.write_text(lab.terminal_rc(prefix), encoding="utf-8")
    run = subprocess.run(["bash", "--rcfile", str(rc), "-i", "-c", "bpe-grade"], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "TERM": "dumb"}, timeout=30)
    assert run.stdout.strip().endswith("graded"), run.stderr


def test_workspace_and_jupyter_options_are_told_apart():
    where, rest = lab.split_args(["--workspace", "/tmp/w", "--no-browser", "--port=9"])
    assert str(where) == "/tmp/w" and rest == ["--no-browser", "--port=9"]
    assert lab.split_args([])[0] == lab.COURSE / "workspace"
