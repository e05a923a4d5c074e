"""`bpe-course`: lab [DIR], workbooks DIR, --version (bpe_ref.course.cli), without starting JupyterLab."""

import json

from bpe_ref.course import cli, lab
from bpe_ref.course.material import course_root


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
