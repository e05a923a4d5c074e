"""The learner's workspace (bpe_ref.workspace) and the JupyterLab settings (bpe_ref.lab).

Each test builds a tiny course folder (notebooks/, solutions/, README.md, docs/) in tmp_path, so
the course's own files are never touched.
"""

import asyncio
import json
import os
import re
import socket
import stat
import subprocess
import sys
import time

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from bpe_ref import lab, read_only, workspace


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


def opened_run_and_saved(path):
    """What JupyterLab does to a workbook that is only opened, run and saved: kernel metadata,
    outputs, execution counts, cell metadata, and its own JSON layout."""
    notebook = nbformat.read(path, as_version=4)
    notebook.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    notebook.metadata["language_info"] = {"name": "python", "version": "3.11.7", "mimetype": "text/x-python"}
    for number, cell in enumerate(notebook.cells, 1):
        cell.metadata["trusted"] = True
        if cell.cell_type == "code":
            cell.execution_count = number
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="ran\n")]
    path.write_text(json.dumps(notebook, indent=2, sort_keys=True), encoding="utf-8")


def reorder(notebook):
    notebook.cells[1], notebook.cells[2] = notebook.cells[2], notebook.cells[1]


@pytest.mark.parametrize("edit", [
    lambda nb: setattr(nb.cells[1], "source", "x = 2"),  # code edited
    lambda nb: setattr(nb.cells[0], "source", "# my notes"),  # markdown edited
    lambda nb: nb.cells.append(new_code_cell("extra = 1")),  # a cell added
    lambda nb: nb.cells.pop(2),  # a cell deleted
    reorder,  # a cell moved
    lambda nb: nb.cells.__setitem__(2, new_markdown_cell("x + 1")),  # a cell's type changed
], ids=["code", "markdown", "added", "deleted", "moved", "type"])
def test_a_workbook_whose_cells_changed_is_kept(course, tmp_path, edit):
    write_notebook(course / "notebooks" / "00_start.ipynb", "x = 1", "x + 1")
    ws = tmp_path / "ws"
    workspace.prepare(course, ws)
    notebook = nbformat.read(ws / "00_start.ipynb", as_version=4)
    edit(notebook)
    nbformat.write(notebook, ws / "00_start.ipynb")
    mine = (ws / "00_start.ipynb").read_bytes()
    write_notebook(course / "notebooks" / "00_start.ipynb", "x = 1", "x + 1", "x + 2")
    notes = workspace.prepare(course, ws)
    assert (ws / "00_start.ipynb").read_bytes() == mine
    assert any("updates/00_start.ipynb" in n for n in notes)


def test_a_workbook_only_opened_run_and_saved_still_follows_updates(course, tmp_path):
    ws = tmp_path / "ws"
    workspace.prepare(course, ws)
    opened_run_and_saved(ws / "00_start.ipynb")
    assert workspace.prepare(course, ws) == []  # a restart with no update: the saved copy stays
    assert "ran" in (ws / "00_start.ipynb").read_text(encoding="utf-8")
    write_notebook(course / "notebooks" / "00_start.ipynb", "x = 1", "x + 1")
    notes = workspace.prepare(course, ws)
    assert (ws / "00_start.ipynb").read_bytes() == (course / "notebooks" / "00_start.ipynb").read_bytes()
    assert any("updated 00_start.ipynb" in n for n in notes) and not (ws / "updates").exists()


def test_an_older_manifest_of_file_hashes_still_tells_untouched_from_changed(course, tmp_path):
    ws = tmp_path / "ws"
    workspace.prepare(course, ws)
    manifest = ws / workspace.MANIFEST
    older = {name: entry["file"] for name, entry in json.loads(manifest.read_text(encoding="utf-8"))["workbooks"].items()}
    manifest.write_text(json.dumps({"workbooks": older}), encoding="utf-8")
    workspace.prepare(course, ws)  # the course has not changed: each entry gets its cells' digest
    opened_run_and_saved(ws / "00_start.ipynb")
    write_notebook(course / "notebooks" / "00_start.ipynb", "x = 1", "x + 1")
    workspace.prepare(course, ws)
    assert (ws / "00_start.ipynb").read_bytes() == (course / "notebooks" / "00_start.ipynb").read_bytes()


def test_cells_digest_reads_sources_as_strings_or_lines():
    as_string = json.dumps({"cells": [{"cell_type": "code", "source": "a = 1\nb = 2"}]})
    as_lines = json.dumps({"cells": [{"cell_type": "code", "source": ["a = 1\n", "b = 2"], "outputs": [1]}]})
    assert workspace.cells_digest(as_string) == workspace.cells_digest(as_lines)
    assert workspace.cells_digest(b"not json") is None


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
    assert overrides["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]["markdown"] == "Markdown Preview"
    server = json.loads((prefix / "etc" / "jupyter" / "jupyter_server_config.json").read_text(encoding="utf-8"))
    command = server["ServerApp"]["terminado_settings"]["shell_command"]
    assert command[-1] == "-i" and "-l" not in command  # jupyter adds no login flag when a command is set
    assert not list(prefix.rglob("*.pth"))  # tiktoken's offline files: the tiktoken_ext plugin, nothing written


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
    assert lab.split_args([])[0] == lab.COURSE / "workspace"  # a checkout's; an installed course: ./bpe-course


def test_the_server_opens_00_first_and_guards_the_course_material():
    command = lab.lab_command(lab.COURSE / "workspace", ["--no-browser"])
    assert "--LabApp.default_url=/lab/tree/00_start_here.ipynb" in command  # what the printed URL shows
    assert f"--ServerApp.contents_manager_class={lab.CONTENTS_MANAGER}" in command
    assert command[-1] == "--no-browser" and not any(arg.endswith(".ipynb") and "=" not in arg for arg in command)


def test_markdown_setting_keeps_the_learners_other_viewers():
    merged = lab.with_settings({"@jupyterlab/docmanager-extension:plugin": {"autosaveInterval": 60}})
    assert merged["@jupyterlab/docmanager-extension:plugin"] == {
        "autosaveInterval": 60, "defaultViewers": {"markdown": "Markdown Preview"}}


def test_the_contents_manager_refuses_writes_to_the_course_material(course, tmp_path):
    """As the Jupyter server runs it, and whatever the file modes say (root ignores them)."""
    ws = tmp_path / "ws"
    workspace.prepare(course, ws)
    (ws / "updates").mkdir()
    manager = read_only.CourseContentsManager(root_dir=str(ws))
    model = {"type": "file", "format": "text", "content": "mine"}

    async def attempts():
        refused = []
        for path in ["solutions/00_start.ipynb", "solutions/new.txt", "updates/00_start.ipynb", "README.md",
                     "docs/img/a.png"]:
            with pytest.raises(read_only.web.HTTPError) as error:
                await manager.save(model, path)
            refused.append(error.value.status_code)
            assert "read only" in error.value.log_message and "your own copy" in error.value.log_message
        for action in (lambda: manager.rename_file("solutions/00_start.ipynb", "mine.ipynb"),
                       lambda: manager.rename_file("00_start.ipynb", "solutions/00_start.ipynb"),
                       lambda: manager.delete_file("solutions/00_start.ipynb")):
            with pytest.raises(read_only.web.HTTPError):
                await action()
        saved = await manager.save(model, "notes.txt")  # the learner's own folder is writable
        return refused, saved, (await manager.get("solutions/00_start.ipynb", content=False))["writable"]

    refused, saved, writable = asyncio.run(attempts())
    assert refused == [403] * 5 and saved["writable"] is True and writable is False
    assert (ws / "notes.txt").read_text(encoding="utf-8") == "mine" and not (ws / "solutions" / "new.txt").exists()
    assert (ws / "solutions" / "00_start.ipynb").exists() and not (ws / "mine.ipynb").exists()


def test_the_browser_lab_opens_and_the_url_it_prints_lead_to_00(tmp_path):
    """`python -m bpe_ref.lab` without --no-browser: the page it gives the browser, and the URL
    it prints, both go to 00 (the browser here is a script that keeps what it was given)."""
    browser, opened, log = tmp_path / "browser.sh", tmp_path / "opened.html", tmp_path / "lab.log"
    browser.write_text(f'#!/bin/sh\nf="${{1#file://}}"\ncat "$f" > "{opened}" 2>/dev/null || echo "$1" > "{opened}"\n',
                       encoding="utf-8")
    browser.chmod(0o755)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    env.update(BROWSER=str(browser), JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "lab-state"))
    command = [sys.executable, "-m", "bpe_ref.lab", "--workspace", str(tmp_path / "ws"), f"--port={port}",
               "--ServerApp.ip=127.0.0.1"]
    with open(log, "w", encoding="utf-8") as out:
        server = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (opened.exists() and opened.stat().st_size):
            assert server.poll() is None, log.read_text(encoding="utf-8")
            time.sleep(0.5)
        page = opened.read_text(encoding="utf-8")
        assert re.search(rf"http://127\.0\.0\.1:{port}/lab/tree/00_start_here\.ipynb\?token=\w+", page), page
        assert re.search(r"/lab/tree/00_start_here\.ipynb\?token=\w+", log.read_text(encoding="utf-8"))
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=30)
