"""The declared assignment, the LMS exports' refusals and scaling, and LMS downloads read as they
come: all on grade_file-shaped results and files laid out as each LMS writes them (no grading)."""

import csv
import io
import os
import zipfile
from datetime import datetime, timezone

import pytest

from bpe_ref.grade.classroom import assignment as assignments
from bpe_ref.grade.classroom.assignment import load_assignment
from bpe_ref.grade.classroom.downloads import read_download
from bpe_ref.grade.classroom.gradescope import gradescope_results
from bpe_ref.grade.classroom.lms import write_lms
from bpe_ref.grade.classroom.points import load_points
from bpe_ref.grade.classroom.results import class_results
from bpe_ref.grade.classroom.roster import Person, merged


def result(path, student, **statuses):
    exercises = {name: {"status": status, "message": f"{name} {status}"} for name, status in statuses.items()}
    return {"path": str(path), "passed": False, "exercises": exercises, "notes": [], "student": student}


def test_doctests():
    import doctest

    from bpe_ref.grade.classroom import downloads

    for module in (assignments, downloads):
        failures, tried = doctest.testmod(module)
        assert tried and not failures


# ---------------------------------------------------------------------------- the assignment


def test_an_assignment_file_fixes_columns_points_and_rule(tmp_path):
    path = tmp_path / "ps2.json"
    path.write_text('{"workbooks": ["04", "05_decoding"], "exercises": {"train": 5}, "duplicates": "best"}',
                    encoding="utf-8")
    declared = load_assignment(path)
    assert declared.columns == ["get_stats", "merge", "train", "build_vocab", "decode"]
    assert declared.table["train"] == 5 and declared.duplicates == "best"
    assert declared.maximum == 1 + 2 + 5 + 1 + 2
    assert "declared" in declared.describe() and "better verdict" in declared.describe()
    flags = load_assignment(workbooks=["06"], names=["decode"])
    assert flags.columns == ["decode", "encode"] and flags.duplicates == "latest"
    assert load_assignment() is None


@pytest.mark.parametrize("text, message", [
    ('{"workbooks": ["99"]}', "no workbook '99'"),
    ('{"exercises": ["trian"]}', "knows no exercise 'trian'"),
    ('{"exercises": {"train": -1}}', "must be a number >= 0"),
    ('{"duplicates": "first"}', "duplicates must be one of latest, best"),
    ('{"workbook": ["04"]}', "with the keys"),
])
def test_a_bad_assignment_file_says_what_to_fix(tmp_path, text, message):
    path = tmp_path / "a.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_assignment(path)


def test_one_students_extra_exercises_never_move_the_maximum(tmp_path):
    ordinary = [result(tmp_path / f"s{i}/04.py", f"s{i}", get_stats="pass", merge="pass", train="pass")
                for i in range(4)]
    extra = result(tmp_path / "s0/extra.py", "s0", encode="pass", train_incremental="pass", decode="pass")
    book = class_results(ordinary + [extra], load_points())  # nothing declared: what most handed in
    assert book.columns == ["get_stats", "merge", "train"] and book.maximum == 6
    assert not book.assignment.declared
    assert "graded but not part of the assignment (no points): decode, encode, train_incremental" in book.rows[0].notes
    declared = load_assignment(workbooks=["04", "05", "06"])
    book = class_results(ordinary + [extra], load_points(), declared)
    assert book.maximum == 6 + 1 + 2 + 3 and {book.score(row) for row in book.rows[1:]} == {6}
    assert book.rows[1].exercises["encode"]["message"].startswith("not handed in")


def test_two_files_for_one_workbook_the_latest_counts_and_is_flagged(tmp_path):
    good, broken = tmp_path / "ann/04_naive_bpe.ipynb", tmp_path / "ann/04_naive_bpe-final.ipynb"
    graded = [result(good, "ann", get_stats="pass", merge="pass", train="pass"),
              result(broken, "ann", get_stats="error", merge="error", train="error")]
    times = {str(good): datetime(2026, 3, 1, tzinfo=timezone.utc), str(broken): datetime(2026, 3, 2, tzinfo=timezone.utc)}
    declared = load_assignment(workbooks=["04"])
    row = class_results(graded, load_points(), declared, times).rows[0]
    assert {v["status"] for v in row.exercises.values()} == {"error"}
    assert row.duplicates == ["2 files for get_stats, merge, train: 04_naive_bpe.ipynb, 04_naive_bpe-final.ipynb; "
                              "counted: 04_naive_bpe-final.ipynb (latest by submission time)"]
    declared.duplicates = "best"
    row = class_results(graded, load_points(), declared, times).rows[0]
    assert {v["status"] for v in row.exercises.values()} == {"pass"} and row.duplicates
    together = {path: times[str(good)] for path in times}  # one submission, one time: the better verdict
    row = class_results(graded, load_points(), load_assignment(workbooks=["04"]), together).rows[0]
    assert {v["status"] for v in row.exercises.values()} == {"pass"}
    assert row.duplicates[0].endswith("counted: 04_naive_bpe.ipynb (latest by submission time)")


def test_gradescope_shows_what_was_not_handed_in_as_zero_of_its_points(tmp_path):
    declared = load_assignment(workbooks=["04", "05", "06"])
    out = gradescope_results([result(tmp_path / "04.ipynb", None, get_stats="pass", merge="pass", train="pass")],
                             load_points(), assignment=declared)
    assert out["output"].startswith("6 of 12 points")
    missing = [t for t in out["tests"] if t["score"] == 0]
    assert [t["name"] for t in missing] == ["build_vocab", "decode", "encode"]
    assert all(t["output"].startswith("not handed in") and t["status"] == "failed" for t in missing)


# ---------------------------------------------------------------------------- the LMS exports


def lms_book(tmp_path, roster):
    graded = [result(tmp_path / "ann/04.py", "ann", get_stats="pass", merge="pass", train="pass"),
              result(tmp_path / "zed/04.py", "zed", get_stats="pass", merge="fail", train="fail"),
              result(tmp_path / "bob/04.py", "bob", get_stats="fail", merge="pass", train="fail")]
    book = class_results(graded, load_points(), load_assignment(workbooks=["04"]))
    book.roster = roster
    return book


ROSTER = {"ann": Person("ann", "1001", "Ann Lee", "A"), "bob": Person("bob", "1002", "Bob Roe", "B")}


def read_rows(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


@pytest.mark.parametrize("system", ["canvas", "moodle"])
def test_a_student_the_lms_cannot_identify_is_refused_by_name(tmp_path, system):
    with pytest.raises(ValueError, match=r"zed has no .*--lms-skip-unknown"):
        write_lms(lms_book(tmp_path, ROSTER), tmp_path / "out.csv", system, "PS 4")
    assert not (tmp_path / "out.csv").exists()
    warnings = []
    write_lms(lms_book(tmp_path, ROSTER), tmp_path / "out.csv", system, "PS 4", skip_unknown=True,
              warn=warnings.append)
    assert warnings == [f"warning: zed is left out of the {system} CSV: no "
                        + ("user id or student id" if system == "canvas" else "ID number")]
    rows = read_rows(tmp_path / "out.csv")
    body = rows[2:] if system == "canvas" else rows[1:]
    assert len(body) == 2 and all(any(cell.strip() for cell in line[1:4]) for line in body)


def test_moodle_never_writes_a_blank_identifier(tmp_path):
    """Moodle's load_data.php: a blank identifier keeps the previous line's user, so every line
    written must carry the mapped identifier (ID number) and it must be one the roster gave."""
    write_lms(lms_book(tmp_path, ROSTER), tmp_path / "m.csv", "moodle", "PS 4", skip_unknown=True, warn=lambda _: 0)
    header, *body = read_rows(tmp_path / "m.csv")
    assert header[0] == "ID number" and [line[0] for line in body] == ["1001", "1002"]


def test_canvas_scaled_to_the_lms_points_with_points_possible_to_match(tmp_path):
    """gradebook_importer.rb: column 0 Student, column 1 ID, SIS columns, Section last, a
    Points Possible row; a row is found by ID, then SIS User ID, then SIS Login ID."""
    roster = {**ROSTER, "zed": Person("zed", "", "", canvas_id="77")}
    write_lms(lms_book(tmp_path, roster), tmp_path / "c.csv", "canvas", "PS 4 (123)", points=100)
    header, possible, *body = read_rows(tmp_path / "c.csv")
    assert header == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "PS 4 (123)"]
    assert possible == ["Points Possible", "", "", "", "", "100"]
    assert [line[5] for line in body] == ["100", "16.67", "33.33"]  # 6/6, 1/6, 2/6 of 100
    assert body[1][:4] == ["zed", "77", "", ""]  # Canvas's own id; no SIS login made from a folder name


# ---------------------------------------------------------------------------- downloads as they come

NOTEBOOK = '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'


def test_canvas_zip_names_user_ids_and_late(tmp_path):
    archive = tmp_path / "submissions.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("smithann_12345_678901_04_naive_bpe.ipynb", NOTEBOOK)
        z.writestr("smithann_12345_678902_05_decoding.ipynb", NOTEBOOK)
        z.writestr("doejohn_LATE_23456_678903_04_naive_bpe-1.ipynb", NOTEBOOK)
        z.writestr("doejohn_LATE_23456_678904_helpers.py", "x = 1\n")
        z.writestr("../evil_1_2_x.py", "x = 1\n")  # a path out of the folder: never unpacked
    download = read_download(archive)
    assert download.kind == "canvas"
    assert [(f.student, os.path.basename(f.path)) for f in download.found] == [
        ("doejohn", "04_naive_bpe.ipynb"), ("doejohn", "helpers.py"),
        ("smithann", "04_naive_bpe.ipynb"), ("smithann", "05_decoding.ipynb")]
    assert download.people["smithann"].canvas_id == "12345"
    assert download.notes["doejohn"] == ["Canvas marked 04_naive_bpe.ipynb LATE", "Canvas marked helpers.py LATE"]
    assert not (tmp_path / "evil_1_2_x.py").exists()


def test_gradescope_export_folders_and_metadata_with_times(tmp_path):
    export = tmp_path / "assignment_export"
    for n in ("submission_101", "submission_102"):
        (export / n).mkdir(parents=True)
        (export / n / "04_naive_bpe.ipynb").write_text(NOTEBOOK, encoding="utf-8")
    (export / "submission_metadata.yml").write_text(
        "submission_101:\n  :submitters:\n  - :name: Ann Lee\n    :sid: '1001'\n    :email: ann@example.edu\n"
        "  :created_at: 2026-03-01 16:59:00.000000000 -08:00\n  :score: 0.0\n"
        "submission_102:\n  :submitters:\n  - :name: Bob Roe\n    :sid: ''\n    :email: bob@example.edu\n"
        "  :created_at: 2026-03-02 09:00:00.000000000 +00:00\n", encoding="utf-8")
    download = read_download(export)
    assert download.kind == "gradescope" and [f.student for f in download.found] == ["1001", "bob@example.edu"]
    assert download.people["1001"] == Person("1001", "1001", "Ann Lee", email="ann@example.edu")
    ann_time = download.times[download.found[0].path]
    assert ann_time == datetime(2026, 3, 2, 0, 59, tzinfo=timezone.utc)


def test_moodle_download_folders(tmp_path):
    download_folder = tmp_path / "PS4-download"
    for folder in ("Ann Lee_4411_assignsubmission_file_", "Bob Roe_4412_assignsubmission_file_"):
        (download_folder / folder).mkdir(parents=True)
        (download_folder / folder / "04_naive_bpe.ipynb").write_text(NOTEBOOK, encoding="utf-8")
    download = read_download(download_folder)
    assert download.kind == "moodle" and [f.student for f in download.found] == ["Ann Lee", "Bob Roe"]
    roster = merged({"alee": Person("alee", "1001", "Ann Lee")}, download.people)
    assert roster["Ann Lee"].student_id == "1001" and roster["Bob Roe"].student_id == ""


def test_a_plain_folder_is_not_a_download(tmp_path):
    (tmp_path / "submissions" / "ann").mkdir(parents=True)
    (tmp_path / "submissions" / "ann" / "a.py").write_text("x = 1\n", encoding="utf-8")
    assert read_download(tmp_path / "submissions") is None and read_download(io.__file__) is None


# ---------------------------------------------------------------------------- a class run on the terminal


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture
def fake_grading(tmp_path, monkeypatch):
    """bpe-grade's CLI with grading replaced by canned verdicts (04's three exercises pass)."""
    from bpe_ref.grade import cli

    def grade_all(found, limits, jobs):
        for f in found:
            yield {**result(f.path, f.student, get_stats="pass", merge="pass", train="error"), "passed": False}

    monkeypatch.setattr(cli, "grade_all", grade_all)
    monkeypatch.chdir(tmp_path)
    return cli


def class_folder(tmp_path, students=("ann", "bob", "cat")):
    for student in students:
        (tmp_path / "submissions" / student).mkdir(parents=True)
        (tmp_path / "submissions" / student / "04_naive_bpe.py").write_text("x = 1\n", encoding="utf-8")
    return "submissions"


def test_a_class_run_shows_one_progress_line_then_the_scores(tmp_path, fake_grading, monkeypatch, capsys):
    folder = class_folder(tmp_path)
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert fake_grading.main([folder, "--no-isolation", "--workbooks", "04", "--csv", "class.csv"]) == 1
    out, shown = capsys.readouterr().out, terminal.getvalue()
    assert "04_naive_bpe.py" not in out and out.startswith("Scores out of 6 points")
    assert "3/3 files graded" in shown and "3 with errors" in shown
    assert "assignment (declared): 04_naive_bpe; 3 exercises, 6 points" in shown and "class CSV: class.csv" in shown
    fake_grading.main([folder, "--no-isolation", "--verbose"])
    assert capsys.readouterr().out.count("04_naive_bpe.py") == 3  # --verbose: every file's verdicts
    fake_grading.main([f"{folder}/ann/04_naive_bpe.py"])  # a learner's own file: its verdicts, always
    assert "train" in capsys.readouterr().out


def test_an_lms_export_with_an_unknown_student_is_refused_by_name(tmp_path, fake_grading, capsys):
    folder = class_folder(tmp_path)
    (tmp_path / "roster.csv").write_text("login,student_id,name\nann,1,Ann\nbob,2,Bob\n", encoding="utf-8")
    args = [folder, "--no-isolation", "--roster", "roster.csv", "--lms", "moodle", "--lms-csv", "m.csv",
            "--lms-column", "PS 4"]
    with pytest.raises(SystemExit):  # before any grading
        fake_grading.main(args)
    assert "cat has no ID number" in capsys.readouterr().err and not (tmp_path / "m.csv").exists()
    fake_grading.main(args + ["--lms-skip-unknown", "--lms-points", "100"])
    assert "warning: cat is left out of the moodle CSV" in capsys.readouterr().err
    assert [line[:4] for line in read_rows(tmp_path / "m.csv")] == [
        ["ID number", "Username", "Full name", "PS 4"], ["1", "ann", "Ann", "50"], ["2", "bob", "Bob", "50"]]


def test_a_canvas_zip_is_a_class_of_students(tmp_path, fake_grading, capsys):
    with zipfile.ZipFile(tmp_path / "subs.zip", "w") as z:
        z.writestr("leeann_101_9001_04_naive_bpe.py", "x = 1\n")
        z.writestr("roebob_LATE_102_9002_04_naive_bpe.py", "x = 1\n")
    fake_grading.main(["subs.zip", "--no-isolation", "--workbooks", "04", "--csv", "class.csv", "--lms", "canvas",
                       "--lms-csv", "c.csv", "--lms-column", "PS 4"])
    assert "read as a canvas download, 2 students" in capsys.readouterr().err
    rows = read_rows(tmp_path / "class.csv")
    assert [line[0] for line in rows[1:]] == ["leeann", "roebob"] and "Canvas marked 04_naive_bpe.py LATE" in rows[2][-1]
    assert [line[:2] for line in read_rows(tmp_path / "c.csv")[2:]] == [["leeann", "101"], ["roebob", "102"]]
