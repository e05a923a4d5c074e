"""`bpe-course`: lab [DIR], workbooks DIR, --version (bpe_ref.course.cli), without starting JupyterLab."""

import hashlib
import importlib.util
import json
from pathlib import Path

import pytest

from bpe_ref.course import cli, lab
from bpe_ref.course.material import course_root

ROOT = Path(__file__).resolve().parent.parent


def test_version_and_usage(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("bpe-course ")
    assert cli.main([]) == 2
    assert "bpe-course workbooks DIR" in capsys.readouterr().err


def test_workbooks_are_copied_and_a_changed_one_is_kept(tmp_path, capsys):
    assert cli.main(["workbooks", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.glob("*.ipynb"))
    assert names == sorted(p.name for p in (course_root() / "notebooks").glob("*.ipynb"))
    mine = tmp_path / names[0]
    notebook = json.loads(mine.read_text(encoding="utf-8"))
    notebook["cells"].append({"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                              "id": "mine", "source": "my_own = 1"})
    mine.write_text(json.dumps(notebook), encoding="utf-8")
    (tmp_path / names[1]).unlink()  # deleted to start it over: it comes back
    assert cli.main(["workbooks", str(tmp_path)]) == 0
    assert "my_own = 1" in mine.read_text(encoding="utf-8")
    assert (tmp_path / names[1]).exists()
    assert "restored a fresh workbook" in capsys.readouterr().out


def test_workbooks_needs_a_folder(capsys):
    assert cli.main(["workbooks"]) == 2
    assert "bpe-course workbooks DIR" in capsys.readouterr().err


def test_lab_takes_a_folder_then_jupyterlabs_options(monkeypatch, tmp_path):
    opened = []
    monkeypatch.setattr(lab, "configure", lambda: None)
    monkeypatch.setattr(lab, "open_lab", lambda folder, options: opened.append((str(folder), list(options))) or 0)
    monkeypatch.chdir(tmp_path)
    assert cli.main(["lab", "mine", "--no-browser"]) == 0
    assert cli.main(["lab", "--port=8890"]) == 0
    assert opened == [("mine", ["--no-browser"]), ("bpe-course", ["--port=8890"])]


def test_lab_without_jupyterlab_says_what_to_install_and_makes_nothing(monkeypatch, tmp_path, capsys):
    """JupyterLab is the `lab` extra: a lean install (Colab, VS Code) has none."""
    found = lab.importlib.util.find_spec
    monkeypatch.setattr(lab.importlib.util, "find_spec", lambda name, *rest: None if name == "jupyterlab"
                        else found(name, *rest))
    monkeypatch.setattr(lab, "configure", lambda: pytest.fail("configured an environment without JupyterLab"))
    assert cli.main(["lab", str(tmp_path / "mine")]) == 2
    assert lab.main(["--workspace", str(tmp_path / "mine")]) == 2
    said = capsys.readouterr()
    assert said.out == "" and said.err.count("\n") == 2 and said.err.count("pip install 'bpe-course[lab]'") == 2
    assert not (tmp_path / "mine").exists()


def course_py():
    """The checkout's course.py, as a module."""
    spec = importlib.util.spec_from_file_location("course_py", ROOT / "course.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("installed, asked, reinstalled", [
    ([], "lab", ".[lab]"), (["lab"], "lab", None), (["test"], "lab", None), (["lab"], "test", ".[lab,test]")])
def test_course_py_installs_an_extra_only_when_the_installed_ones_lack_it(monkeypatch, tmp_path,
                                                                        installed, asked, reinstalled):
    """`course.py lab` after `course.py test` installs nothing again: the test extra holds lab."""
    course = course_py()
    monkeypatch.setattr(course, "VENV", tmp_path)
    monkeypatch.setattr(course, "STAMP", tmp_path / "stamp")
    monkeypatch.setattr(course, "venv_python", lambda: tmp_path / "python")
    monkeypatch.setattr(course, "say_isolation", lambda: None)
    (tmp_path / "python").touch()
    project = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    (tmp_path / "stamp").write_text(json.dumps({"pyproject": project, "extras": installed}), encoding="utf-8")
    commands = []
    monkeypatch.setattr(course, "run", lambda command, **kwargs: commands.append(command[1:]) or 0)
    course.setup(asked)
    installs = [c[-1] for c in commands if c[:3] == ["-m", "pip", "install"] and c[-2] == "-e"]
    assert installs == ([reinstalled] if reinstalled else [])
