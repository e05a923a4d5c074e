"""nbgrader's route with honest scores: bpe-grade --gradebook writes the sandbox's verdicts into
nbgrader's gradebook, so a student's notebook code cannot change a score.

One course folder (01_hex and 03_utf8 as assignment "ps") is shared by every test here: nbgrader
autogrades a class with an honest good student, an honest buggy one, one who hands in the release
untouched, cheaters who switch the checks off from an answer cell (three kinds of trick, two
spellings each) and a student with one corrupt notebook; then bpe-grade grades submitted/ with
--gradebook and `nbgrader export` reads the result.
Like tests/test_nbgrader.py, it needs the [instructor] extra and fails in CI without it.
"""

import csv
import doctest
import hashlib
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

from bpe_ref.grade import cli
from bpe_ref.grade.classroom import gradebook
from bpe_ref.grade.classroom.gradebook import cell_score, exercises_of
from bpe_ref.grade.reading.source import function_source
from test_nbgrader import POINTS, ROOT, nbgrader_env, nbgrader_meta, run_nbgrader  # noqa: F401

ASSIGNMENT = "ps"
LEARNERS = Path(__file__).parent / "learners"
NOTEBOOKS = ("01_hex.ipynb", "03_utf8.ipynb")
WORTH = {"01_hex": 2.0, "03_utf8": 2.0}  # to_hex 1 + from_hex 1; utf8_encode 2 (the default points)

# Each answer cell holds a wrong from_hex and a way to make nbgrader's check pass anyway.
CHEATS = {
    "env_pop": 'def from_hex(s):\n    return len(s)\n\nimport os as system\n'
               'system.environ.pop("NBGRADER_EXECUTION", None)\n',
    "env_del": 'import os\n\ndel os.environ["NBGRADER_EXECUTION"]\n\ndef from_hex(s):\n    return 0\n',
    "own_check_def": 'def from_hex(s):\n    return 0\n\n'
                     'def check(fn, name=None, timeout=5.0):\n    print("✅", fn.__name__, "passed")\n',
    "own_check_lambda": 'from_hex = lambda s: 0\ncheck = lambda *args, **kwargs: None\n',
    "patch_module": 'import bpe_ref.grade.judge.checks as c\nc.under_nbgrader = lambda: False\n\n'
                    'def from_hex(s):\n    return 0\n',
    "patch_globals": 'def from_hex(s):\n    return 0\n\ncheck.__globals__["under_nbgrader"] = lambda: False\n',
}
CHEATERS = [f"cheat_{kind}" for kind in CHEATS]
OVERRIDDEN = CHEATERS[0]  # its from_hex is set to 0.5 by --overrides
REACHING = {"cheat_patch_module", "cheat_patch_globals"}  # read in the source: "reaches into the grader"


def student_copy(release, solution, replace=None):
    """The released notebook as a student hands it in: each stubbed cell filled in from the solution,
    or, for a function in `replace`, with that code instead."""
    answers = {nbgrader_meta(c)["grade_id"]: c.source for c in solution.cells
               if nbgrader_meta(c) and nbgrader_meta(c)["solution"]}
    notebook = nbformat.from_dict(release)
    for cell in notebook.cells:
        meta = nbgrader_meta(cell)
        if meta and meta["solution"]:
            cell.source = (replace or {}).get(meta["grade_id"], answers[meta["grade_id"]])
    return notebook


def exported(env, course):
    """`nbgrader export`'s grades.csv: {student: row}."""
    run = run_nbgrader(env, course, "export")
    assert run.returncode == 0, run.stderr[-3000:]
    with open(course / "grades.csv", encoding="utf-8", newline="") as f:
        return {row["student_id"]: row for row in csv.DictReader(f)}


def hand_in(course, student, notebooks):
    folder = course / "submitted" / student / ASSIGNMENT
    folder.mkdir(parents=True)
    for name, notebook in notebooks.items():
        if isinstance(notebook, str):
            (folder / name).write_text(notebook, encoding="utf-8")
        else:
            nbformat.write(notebook, folder / name)


@pytest.fixture(scope="module")
def course(nbgrader_env, tmp_path_factory):
    """The course folder, released, with the class handed in (all but `late`) and autograded."""
    root = tmp_path_factory.mktemp("gradebook_course")
    source = root / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    for name in NOTEBOOKS:
        shutil.copy(ROOT / "solutions" / name, source / name)
    (root / "nbgrader_config.py").write_text('c = get_config()\nc.CourseDirectory.course_id = "bpe-course"\n',
                                             encoding="utf-8")
    run = run_nbgrader(nbgrader_env, root, "generate_assignment", ASSIGNMENT, "--force")
    assert run.returncode == 0, run.stderr[-3000:]
    release = {n: nbformat.read(root / "release" / ASSIGNMENT / n, as_version=4) for n in NOTEBOOKS}
    solution = {n: nbformat.read(source / n, as_version=4) for n in NOTEBOOKS}
    good = {n: student_copy(release[n], solution[n]) for n in NOTEBOOKS}
    bug = function_source([{"source": (LEARNERS / "bug_from_hex_upper_case.py").read_text(encoding="utf-8")}],
                          "from_hex")
    hand_in(root, "good", good)
    hand_in(root, "buggy", {**good, "01_hex.ipynb": student_copy(release["01_hex.ipynb"],
                                                                 solution["01_hex.ipynb"], {"from_hex": bug})})
    hand_in(root, "untouched", {"01_hex.ipynb": release["01_hex.ipynb"]})
    for kind, code in CHEATS.items():
        hand_in(root, f"cheat_{kind}", {"01_hex.ipynb": student_copy(release["01_hex.ipynb"],
                                                                     solution["01_hex.ipynb"], {"from_hex": code})})
    hand_in(root, "broken", {**good, "01_hex.ipynb": '{"cells": [ half a notebook'})
    autograde = run_nbgrader(nbgrader_env, root, "autograde", ASSIGNMENT, "--create", "--force")
    before = exported(nbgrader_env, root)
    hand_in(root, "late", good)  # handed in after autograde: not in the gradebook yet
    (root / "submitted" / "late" / ASSIGNMENT / "timestamp.txt").write_text("2026-03-02 10:30:00.000000 UTC",
                                                                            encoding="utf-8")
    # a link to a classmate's notebook, and a notebook tucked inside good's folder under another name
    (root / "submitted" / "linky" / ASSIGNMENT).mkdir(parents=True)
    (root / "submitted" / "linky" / ASSIGNMENT / "01_hex.ipynb").symlink_to(Path("../../good/ps/01_hex.ipynb"))
    hand_in(root / "submitted" / "good" / ASSIGNMENT, "zed", good)
    # from_hex written in 03_utf8 instead of its own cell: it counts, as in bpe-grade's CSV
    answer = function_source([{"source": cell.source} for cell in solution["01_hex.ipynb"].cells], "from_hex")
    moved = student_copy(release["03_utf8.ipynb"], solution["03_utf8.ipynb"])
    cell = next(c for c in moved.cells if (nbgrader_meta(c) or {}).get("grade_id") == "utf8_encode")
    cell.source += "\n\n\n" + answer
    hand_in(root, "moved", {"01_hex.ipynb": student_copy(release["01_hex.ipynb"], solution["01_hex.ipynb"],
                                                         {"from_hex": "# moved to 03_utf8"}),
                            "03_utf8.ipynb": moved})
    return SimpleNamespace(root=root, autograde=autograde, before=before)


@pytest.fixture(scope="module")
def graded(course, nbgrader_env, bpe_grade):
    """bpe-grade over submitted/ with --gradebook, then nbgrader's export of the gradebook."""
    (course.root / "overrides.csv").write_text(f"student,exercise,score,comment\n{OVERRIDDEN},from_hex,0.5,"
                                               "half: the idea is right\n", encoding="utf-8")
    run = bpe_grade(course.root / "submitted", "--gradebook", course.root, "--jobs", "2", "--csv", "class.csv",
                    "--overrides", "overrides.csv", "--workbooks", "01_hex,03_utf8", cwd=course.root)  # the assignment
    assert run.returncode in (0, 1), run.stderr
    course.bpe_grade = run
    with open(course.root / "class.csv", encoding="utf-8", newline="") as f:
        course.csv = {row["student"]: row for row in csv.DictReader(f)}
    course.after = exported(nbgrader_env, course.root)
    return course


def score(rows, student):
    return float(rows[student]["score"])


def test_the_tricks_earn_full_marks_under_nbgrader_alone(course):
    """What nbgrader's own autograde gives: why it is not safe when grades count."""
    for student in CHEATERS:
        assert score(course.before, student) == WORTH["01_hex"], f"{student}: the trick no longer works"
    assert score(course.before, "good") == 4 and score(course.before, "buggy") == 3
    # one corrupt notebook (the first by name) stops the student's whole assignment: the good 03_utf8 scores 0
    assert score(course.before, "broken") == 0
    assert course.autograde.returncode == 1 and "broken" in course.autograde.stderr
    assert not (course.root / "autograded" / "broken").exists()


def test_autograde_scores_a_good_a_buggy_and_an_untouched_student(course):
    """nbgrader's own autograde, cell by cell, and the check's report in the graded notebook."""
    from nbgrader.api import Gradebook

    students = ("good", "buggy", "untouched")
    with Gradebook(f"sqlite:///{course.root / 'gradebook.db'}") as book:
        scores = {student: {g.name: g.score for g in book.find_submission_notebook("01_hex", ASSIGNMENT, student).grades}
                  for student in students}
    worth = {"check_to_hex": POINTS["to_hex"], "check_from_hex": POINTS["from_hex"]}
    assert scores["good"] == worth
    assert scores["buggy"] == {**worth, "check_from_hex": 0}
    assert scores["untouched"] == dict.fromkeys(worth, 0)
    graded = nbformat.read(course.root / "autograded" / "buggy" / ASSIGNMENT / "01_hex.ipynb", as_version=4)
    shown = [o for c in graded.cells if c.source == "check(from_hex)" for o in c.outputs]
    assert any("from_hex('FF')" in o.get("text", "") for o in shown), "the check's report is not in the cell"
    assert any(o.get("ename") == "AssertionError" for o in shown)


def test_export_shows_what_each_student_code_earns(graded):
    after = graded.after
    assert graded.bpe_grade.stderr.count("gradebook: ") == 1, graded.bpe_grade.stderr
    for student in CHEATERS:  # to_hex is right, from_hex is not: 1 point, whatever the trick; a trick that
        # reaches into the grader's own code (its module, its globals) earns nothing at all
        expected = 0 if student in REACHING else 1.5 if student == OVERRIDDEN else 1  # an override reaches it
        assert score(after, student) == expected, f"{student}: {after[student]}"
    assert score(after, "good") == score(graded.before, "good") == 4  # honest rows unchanged
    assert score(after, "buggy") == score(graded.before, "buggy") == 3
    assert score(after, "broken") == WORTH["03_utf8"]  # the corrupt notebook alone scores 0
    assert score(after, "late") == 4 and after["late"]["timestamp"].startswith("2026-03-02 10:30:00")
    assert "created 3 not yet autograded (late/ps, linky/ps, moved/ps)" in graded.bpe_grade.stderr
    assert {row["max_score"] for row in after.values()} == {"4.0"}
    assert score(after, "linky") == 0 and "linky/ps/01_hex.ipynb is a symbolic link" in graded.bpe_grade.stderr
    assert "zed" not in after, "a notebook inside good's folder was taken for zed's"
    assert score(after, "moved") == 4


def test_export_and_bpe_grade_csv_agree(graded):
    plain = set(graded.after) - {"linky"}  # bpe-grade's CSV follows the link today (issue 17, class integrity)
    assert plain <= set(graded.csv)
    assert {s: score(graded.after, s) for s in plain} == {s: float(graded.csv[s]["score"]) for s in plain}


def test_feedback_shows_the_sandbox_verdict(graded, nbgrader_env):
    student = "cheat_own_check_lambda"
    run = run_nbgrader(nbgrader_env, graded.root, "generate_feedback", ASSIGNMENT, "--student", student, "--force")
    assert run.returncode == 0, run.stderr[-3000:]
    page = (graded.root / "feedback" / student / ASSIGNMENT / "01_hex.html").read_text(encoding="utf-8")
    assert "Score: 1.0 / 2.0" in page
    assert "bpe-grade (sandbox): from_hex: fail: from_hex(" in page
    assert "bpe-grade (sandbox): to_hex: pass" in page


def test_a_later_autograde_keeps_the_sandbox_scores(graded, nbgrader_env):
    student = "cheat_own_check_def"
    run = run_nbgrader(nbgrader_env, graded.root, "autograde", ASSIGNMENT, "--student", student, "--force")
    assert run.returncode == 0, run.stderr[-3000:]
    assert score(exported(nbgrader_env, graded.root), student) == 1
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{graded.root / 'gradebook.db'}", "bpe-course") as book:
        grades = book.find_submission_notebook("01_hex", ASSIGNMENT, student).grades
        assert all(g.needs_manual_grade for g in grades), "a re-autograde should flag the cells for review"


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("case", ["no gradebook", "not a gradebook", "unknown assignment", "no nbgrader files"])
def test_a_bad_gradebook_is_refused_before_grading(course, tmp_path, monkeypatch, capsys, case):
    book = tmp_path / "gradebook.db"
    shutil.copy(course.root / "gradebook.db", book)
    target, where = tmp_path / "submitted" / "ann" / ASSIGNMENT / "01_hex.ipynb", book
    if case == "no gradebook":
        where, expected = tmp_path / "elsewhere" / "gradebook.db", "there is no gradebook at"
    elif case == "not a gradebook":
        where, expected = tmp_path / "notes.db", "not an nbgrader gradebook"
        with closing(sqlite3.connect(where)) as db:
            db.execute("create table notes (text)")
    elif case == "unknown assignment":
        target, expected = tmp_path / "submitted" / "ann" / "ps9" / "01_hex.ipynb", "no assignment 'ps9'"
    else:
        target, expected = tmp_path / "ann.ipynb", "none of the files is a notebook in"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(course.root / "submitted" / "good" / ASSIGNMENT / "01_hex.ipynb", target)
    before = digest(book)
    monkeypatch.setattr(cli, "grade_all", None)  # grading would call it: it must not start
    with pytest.raises(SystemExit) as stop:
        cli.main([str(target), "--gradebook", str(where)])
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and not out
    last = err.strip().splitlines()[-1]
    assert last.startswith("bpe-grade: error: --gradebook") and expected in last, err
    assert digest(book) == before and not (tmp_path / "elsewhere").exists()


def test_test_cells_are_read_from_their_grade_ids():
    assert exercises_of("check_to_hex") == ["to_hex"]
    assert exercises_of("check_train_incremental-2") == ["train_incremental"]
    assert exercises_of("check_get_stats_merge") == ["get_stats", "merge"]
    assert exercises_of("check_essay") is None and exercises_of("from_hex") is None
    verdicts = {"get_stats": {"status": "pass"}, "merge": {"status": "fail"}}
    assert cell_score(["get_stats", "merge"], verdicts, 6, {"get_stats": 1, "merge": 2}) == 2
    assert cell_score(["get_stats"], verdicts, 6, {"get_stats": 1}) == 6


def test_doctests():
    failures, tried = doctest.testmod(gradebook)
    assert tried and not failures
