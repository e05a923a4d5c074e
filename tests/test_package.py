"""The course as a package, tried as a learner who never clones anything would try it.

The wheel is built from the course's files and installed into a fresh virtual environment, with
its dependencies from the package index (pip's cache makes that quick) and nothing from the
checkout (JupyterLab is the `lab` extra: not there, so `bpe-course lab` says what to install).
Then, from an empty folder: `bpe-course workbooks .`; tiktoken with the network cut off;
workbook 04 run top to bottom by nbclient, its exercises filled in from the solution, every check
passing; `bpe-grade` on the result; and, the course uninstalled, the same workbook again, whose
first cell installs the course from the wheel (as it does on Colab) before going on.
"""

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "bpe_ref", "tiktoken_ext",
           "notebooks", "solutions", "docs")  # what the wheel is built from (an sdist holds the same)
ENCODINGS = {"gpt2": [31373, 995], "cl100k_base": [15339, 1917], "o200k_base": [24912, 2375]}  # 'hello world'
TIKTOKEN_OFFLINE = ("import tiktoken\n"
                    f"expected = {ENCODINGS!r}\n"
                    "for name, ids in expected.items():\n"
                    "    assert tiktoken.get_encoding(name).encode('hello world') == ids, name\n"
                    "print('offline:', ', '.join(expected))\n")
RUN_NOTEBOOK = """
import sys
from pathlib import Path
import nbformat
from nbclient import NotebookClient
path = Path(sys.argv[1])
notebook = nbformat.read(path, as_version=4)
if len(sys.argv) > 2:  # only the first cells
    notebook.cells = notebook.cells[:int(sys.argv[2])]
try:
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
finally:
    nbformat.write(notebook, path)
"""


def network_cut(command):
    """`command` with no network at all (a new network namespace), where `unshare -n` may run;
    else as it is, with proxies pointing nowhere (the caller's environment says so)."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-n", "true"], capture_output=True).returncode == 0:
        return [unshare, "-n", *command]
    return command


def clean_env(tmp, bin_dir=None, **extra):
    """No cache variable, no checkout on the path, an empty temp folder (tiktoken's default cache),
    the user's Jupyter kernels and caches kept out, proxies pointing nowhere."""
    dead = "http://127.0.0.1:9"
    env = {k: v for k, v in os.environ.items()
           if k not in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR", "PYTHONPATH", "VIRTUAL_ENV")}
    for name in ("tmp", "jupyter", "xdg"):
        (tmp / name).mkdir(exist_ok=True)
    env.update(TMPDIR=str(tmp / "tmp"), JUPYTER_DATA_DIR=str(tmp / "jupyter"), XDG_CACHE_HOME=str(tmp / "xdg"),
               PYTHONDONTWRITEBYTECODE="1", PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    if bin_dir:
        env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")
    if not network_cut(["true"])[0].endswith("unshare"):
        env.update(HTTP_PROXY=dead, HTTPS_PROXY=dead, http_proxy=dead, https_proxy=dead, NO_PROXY="")
    return env


def run(command, **kwargs):
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=900, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel, built from a copy of the course's files (no stale build/ folder can leak in)."""
    source = tmp_path_factory.mktemp("source")
    skipped = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints")

    def ignore(folder, names):  # and bpe_ref/data/course, which only a build makes
        return set(skipped(folder, names)) | ({"course"} if Path(folder) == ROOT / "bpe_ref" / "data" else set())

    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    dist = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", dist, source])
    (found,) = dist.glob("bpe_course-*.whl")
    return found


@pytest.fixture(scope="module")
def learner(wheel, tmp_path_factory):
    """(python, bin folder, empty folder, temp root): a fresh venv with the wheel installed from it
    and its dependencies from the index, and an empty folder to work in."""
    tmp = tmp_path_factory.mktemp("learner")
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    run([python, "-m", "pip", "install", "--quiet", "--no-compile", wheel], cwd=tmp)
    folder = tmp / "work"
    folder.mkdir()
    return python, bin_dir, folder, tmp


def test_the_wheel_carries_the_course(wheel):
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    course = "bpe_ref/data/course/"
    for kind in ("notebooks", "solutions"):
        shipped = sorted(n.rsplit("/", 1)[1] for n in names if n.startswith(f"{course}{kind}/"))
        assert shipped == sorted(p.name for p in (ROOT / kind).glob("*.ipynb")), kind
    assert f"{course}README.md" in names and f"{course}docs/img/training_scale.png" in names
    assert all(f"{course}docs/{page.name}" in names for page in (ROOT / "docs").glob("*.md")), "a docs/ page"
    assert "bpe_ref/data/practice_text.txt" in names and "tiktoken_ext/bpe_course_offline.py" in names
    assert not [n for n in names if n.startswith("bpe_ref/") and n.count("/") == 1 and n != "bpe_ref/__init__.py"]


def test_workbooks_and_tiktoken_offline_from_the_installed_wheel(learner):
    python, bin_dir, folder, tmp = learner
    env = clean_env(tmp, bin_dir)
    assert run([bin_dir / "bpe-course", "--version"], cwd=folder, env=env).startswith("bpe-course 0.")
    said = run([bin_dir / "bpe-course", "workbooks", "."], cwd=folder, env=env)
    print(said)
    assert sorted(p.name for p in folder.glob("*.ipynb")) == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    print(run(network_cut([python, "-c", TIKTOKEN_OFFLINE]), cwd=folder, env=env))
    assert not any((tmp / "tmp").iterdir()), "tiktoken cached a download in the temp folder"


def test_the_base_install_has_no_jupyterlab_and_bpe_course_lab_says_what_to_install(learner):
    """JupyterLab is the `lab` extra: `pip install bpe-course` (Colab's, VS Code's) stays lean, and
    `bpe-course lab` there says in one line what to install, makes no workspace, shows no traceback."""
    python, bin_dir, folder, tmp = learner
    env = clean_env(tmp, bin_dir)
    assert run([python, "-c", "import importlib.util; print(importlib.util.find_spec('jupyterlab'))"],
               cwd=folder, env=env) == "None\n"
    done = subprocess.run([bin_dir / "bpe-course", "lab", "my-course", "--no-browser"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300)
    print(done.stderr)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "pip install 'bpe-course[lab]'" in done.stderr
    assert not (folder / "my-course").exists()


def test_tiktoken_offline_in_the_editable_install(tmp_path):
    """`pip install -e .` (what course.py does, and the conda environment's pip section): this
    checkout's own environment, from a folder outside the checkout."""
    where = "import importlib.util; print(importlib.util.find_spec('bpe_ref').origin)\n"
    said = run(network_cut([sys.executable, "-c", where + TIKTOKEN_OFFLINE]), cwd=tmp_path, env=clean_env(tmp_path))
    print(said)
    assert said.startswith(str(ROOT / "bpe_ref"))  # installed editable: the checkout's own files


def filled_from_solution(learner_copy, solution):
    """The learner's copy with each exercise written as the solution writes it."""
    notebook = nbformat.read(learner_copy, as_version=4)
    answers = {cell.id: cell.source for cell in nbformat.read(solution, as_version=4).cells}
    for cell in notebook.cells:
        if cell.cell_type == "code" and "# YOUR CODE HERE" in cell.source:
            cell.source = answers[cell.id]
    nbformat.write(notebook, learner_copy)
    return learner_copy


def checks_of(path):
    """{check cell's source: its printed text} of a run notebook."""
    return {cell.source: "".join(o.get("text", "") for o in cell.outputs)
            for cell in nbformat.read(path, as_version=4).cells
            if cell.cell_type == "code" and cell.source.startswith("check(")}


def test_workbook_04_runs_every_check_passes_and_bpe_grade_agrees(learner):
    python, bin_dir, folder, tmp = learner
    env = clean_env(tmp, bin_dir)
    run([bin_dir / "bpe-course", "workbooks", "."], cwd=folder, env=env)  # as above; here too when run alone
    path = filled_from_solution(folder / "04_naive_bpe.ipynb", ROOT / "solutions" / "04_naive_bpe.ipynb")
    run([python, "-c", RUN_NOTEBOOK, path], cwd=folder, env=env)
    checks = checks_of(path)
    print("\n".join(checks.values()))
    assert checks and all(text.startswith("✅") for text in checks.values()), checks
    assert "image/png" in shown_kinds(path)  # the plots: plain outputs, shown by any front end
    renamed = folder / "my homework.ipynb"  # told by its cells, from the installed copies: not by its name
    shutil.copy(path, renamed)
    graded = json.loads(run([bin_dir / "bpe-grade", "--json", path, renamed], cwd=folder, env=env))
    print(json.dumps(graded, ensure_ascii=False)[:1500])
    for report in graded:
        statuses = {name: result["status"] for name, result in report["exercises"].items()}
        assert sorted(statuses) == ["get_stats", "merge", "train"] and set(statuses.values()) == {"pass"}, report


def shown_kinds(path):
    """The MIME types of a run notebook's displayed outputs."""
    return {kind for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"
            for output in cell.outputs for kind in output.get("data", {})}


def test_the_token_viewer_is_plain_html(learner):
    """No JupyterLab extension and no script: VS Code, Colab and Notebook 7 show it as it is."""
    python, bin_dir, folder, tmp = learner
    path = folder / "viewer.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from bpe_ref.course.viewer import show_tokens\nshow_tokens('hello world, 안녕')")]), path)
    run([python, "-c", RUN_NOTEBOOK, path], cwd=folder, env=clean_env(tmp, bin_dir))
    (output,) = nbformat.read(path, as_version=4).cells[0].outputs
    shown = output["data"]["text/html"]
    assert "hello" in shown and "<script" not in shown.lower()


def test_without_the_course_the_first_cell_says_how_to_install_it_and_with_a_source_installs_it(learner, wheel):
    """The stand-in for Colab: the course uninstalled, the first cell installs it from the wheel
    ($BPE_COURSE_INSTALL; on Colab, PyPI's bpe-course), and the workbook goes on: its first check passes."""
    python, bin_dir, folder, tmp = learner
    run([bin_dir / "bpe-course", "workbooks", "."], cwd=folder, env=clean_env(tmp, bin_dir))  # when run alone
    run([python, "-m", "pip", "uninstall", "--yes", "--quiet", "bpe-course"], cwd=folder)
    missing = folder / "missing.ipynb"
    shutil.copy(folder / "01_hex.ipynb", missing)
    done = subprocess.run([python, "-c", RUN_NOTEBOOK, missing, "3"], cwd=folder, env=clean_env(tmp, bin_dir),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode != 0  # Run All stops at the first cell
    (error,) = [o for cell in nbformat.read(missing, as_version=4).cells if cell.cell_type == "code"
                for o in cell.outputs if o.output_type == "error"]
    print(error.traceback)
    assert error.traceback == [
        "This workbook needs the course: run `%pip install bpe-course` (or `%pip install` its folder or wheel), "
        "then this cell again."]

    path = folder / "04_colab.ipynb"  # up to its first check: the rest ran above
    cells = nbformat.read(filled_from_solution(folder / "04_naive_bpe.ipynb", ROOT / "solutions" / "04_naive_bpe.ipynb"),
                          as_version=4).cells
    first_check = next(i for i, cell in enumerate(cells) if cell.cell_type == "code" and cell.source.startswith("check("))
    shutil.copy(folder / "04_naive_bpe.ipynb", path)
    run([python, "-c", RUN_NOTEBOOK, path, first_check + 1], cwd=folder,
        env=clean_env(tmp, bin_dir, BPE_COURSE_INSTALL=str(wheel)))
    first = next(cell for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code")
    print("".join(o.get("text", "") for o in first.outputs))
    checks = checks_of(path)
    print("\n".join(checks.values()))
    assert checks and all(text.startswith("✅") for text in checks.values()), checks
    assert (bin_dir / "bpe-grade").exists()  # the course is installed again, its commands with it
