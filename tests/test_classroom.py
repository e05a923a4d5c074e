"""Grading a class: students from the folder layout, points, the per-student CSV and --json.

Most tests build grade_file-shaped results by hand (the aggregation is what is tested); one
bpe-grade run grades a small class for real, from both layouts at once.
"""

import csv
import doctest
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from bpe_ref.grade.classroom import charts, overview, points
from bpe_ref.grade.classroom import results as classroom
from bpe_ref.grade.classroom.results import class_results, find_submissions, student_of, with_points
from bpe_ref.grade.classroom.assignment import Assignment
from bpe_ref.grade.classroom.points import DEFAULT_POINTS, GRADED, load_points

ROOT = Path(__file__).resolve().parent.parent
LEARNERS = Path(__file__).parent / "learners"


def declared(*names, rule="latest"):
    """An assignment of these exercises (default points), `rule` for two files of one exercise."""
    return Assignment(list(names), load_points(), rule)


def result(path, notes=(), **statuses):
    """A grade_file-shaped result with the given statuses."""
    exercises = {name: {"status": status, "message": f"{name} {status}"} for name, status in statuses.items()}
    passed = bool(exercises) and all(s == "pass" for s in statuses.values())
    return {"path": str(path), "passed": passed, "exercises": exercises, "notes": list(notes)}


@pytest.mark.parametrize("module", [points, classroom, overview, charts])
def test_doctests(module):
    failures, tried = doctest.testmod(module)
    assert tried and not failures


# ---------------------------------------------------------------------------- students


@pytest.mark.parametrize("path, student", [
    ("submissions/alice/04_naive_bpe.ipynb", "alice"),
    ("lms/submissions/Alice Smith_123_assignsubmission_file_/work/04.ipynb", "Alice Smith_123_assignsubmission_file_"),
    ("course/submitted/bob/ps1/04_naive_bpe.ipynb", "bob"),
    ("course/submitted/bob/ps1/extra/helper.py", "bob"),
    ("submissions/x/submitted/carol/ps1/a.py", "x"),  # the outermost folder wins: never an inner one
    ("submissions/loose.py", None),  # straight in submissions/: no student folder
    ("homework/dave.ipynb", None),
])
def test_student_of(tmp_path, path, student):
    assert student_of(tmp_path / path) == student


def test_a_student_is_one_row_from_both_layouts(tmp_path):
    results = [
        result(tmp_path / "submissions/alice/04.ipynb", get_stats="pass", merge="fail", train="error"),
        result(tmp_path / "loose.py", get_stats="pass"),
        result(tmp_path / "course/submitted/bob/ps1/04.ipynb", get_stats="pass", merge="pass"),
        result(tmp_path / "submissions/alice/06.ipynb", ["cell 3: boom"], encode="pass", merge="pass"),
        result(tmp_path / "course/submitted/bob/ps2/06.ipynb", encode="timeout"),
        result(tmp_path / "other.py", merge="pass"),
    ]
    book = class_results(results, load_points(), declared("get_stats", "merge", "train", "encode", rule="best"))
    assert [(row.name, row.is_student) for row in book.rows] == [
        ("alice", True), (str(tmp_path / "loose.py"), False), ("bob", True), (str(tmp_path / "other.py"), False)]
    alice, loose, bob, other = book.rows
    assert alice.files == [str(tmp_path / "submissions/alice/04.ipynb"), str(tmp_path / "submissions/alice/06.ipynb")]
    assert alice.notes == ["06.ipynb: cell 3: boom"]
    assert book.columns == ["get_stats", "merge", "train", "encode"]  # course order, whatever the file order
    assert {n: v["status"] for n, v in alice.exercises.items()} == {
        "get_stats": "pass", "merge": "pass", "train": "error", "encode": "pass"}
    assert alice.exercises["merge"]["file"].endswith("06.ipynb")  # the verdict that counts, and its file
    assert {n: v["status"] for n, v in bob.exercises.items()} == {
        "get_stats": "pass", "merge": "pass", "train": "missing", "encode": "timeout"}
    assert bob.exercises["train"]["message"].startswith("not handed in")
    assert loose.exercises["get_stats"]["status"] == "pass" and loose.exercises["merge"]["status"] == "missing"


@pytest.mark.parametrize("first, second, counted", [
    ("fail", "pass", "pass"), ("pass", "error", "pass"), ("error", "fail", "fail"),
    ("missing", "timeout", "timeout"), ("reference", "error", "error"), ("missing", "reference", "reference"),
])
def test_the_better_verdict_counts(tmp_path, first, second, counted):
    book = class_results([result(tmp_path / "submissions/eve/a.py", merge=first),
                          result(tmp_path / "submissions/eve/b.py", merge=second)], load_points(),
                         declared("merge", rule="best"))
    verdict = book.rows[0].exercises["merge"]
    assert verdict["status"] == counted
    assert verdict["file"].endswith("a.py" if counted == first else "b.py")
    file = "a.py" if counted == first else "b.py"
    assert book.rows[0].duplicates == [f"2 files for merge: a.py, b.py; counted: {file} (better verdict per exercise)"]


def test_find_submissions_expands_folders_and_skips_checkpoints(tmp_path):
    for name in ["submissions/bob/04.ipynb", "submissions/alice/04.ipynb", "submissions/alice/notes.txt",
                 "submissions/alice/.ipynb_checkpoints/04-checkpoint.ipynb", "submissions/alice/w/helper.py",
                 "submissions/alice/__pycache__/helper.py", "loose.py"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    found = find_submissions([tmp_path / "submissions", tmp_path / "loose.py", tmp_path / "submissions/bob/04.ipynb"])
    assert [Path(p).relative_to(tmp_path).as_posix() for p in found] == [
        "submissions/alice/04.ipynb", "submissions/alice/w/helper.py", "submissions/bob/04.ipynb", "loose.py"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="holds no .ipynb or .py file"):
        find_submissions([tmp_path / "empty"])


# ---------------------------------------------------------------------------- points


def test_default_points_cover_every_graded_exercise():
    assert list(DEFAULT_POINTS) == GRADED
    assert all(points.is_points(value) and value > 0 for value in DEFAULT_POINTS.values())


def test_the_readme_table_is_the_default_table():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Points", 1)[1].split("\n#", 1)[0]
    table = {}
    for names, value in re.findall(r"^\|\s*([^|]+?)\s*\|\s*(\d+(?:\.\d+)?)\s*\|", section, re.MULTILINE):
        for name in re.findall(r"`(\w+)`", names):
            table[name] = float(value)
    assert table == {name: float(value) for name, value in DEFAULT_POINTS.items()}


def test_points_arithmetic(tmp_path):
    table = load_points()
    results = [result(tmp_path / "submissions/ann/a.py", get_stats="pass", merge="pass", train="fail"),
               result(tmp_path / "submissions/ann/b.py", train="pass", encode="error"),
               result(tmp_path / "submissions/ben/a.py", get_stats="pass", merge="fail", train="timeout")]
    book = class_results(results, table, declared("get_stats", "merge", "train", "encode", rule="best"))
    ann, ben = book.rows
    assert book.maximum == 1 + 2 + 3 + 3 == table["get_stats"] + table["merge"] + table["train"] + table["encode"]
    assert book.score(ann) == 1 + 2 + 3  # train passes in b.py; encode errs
    assert book.score(ben) == 1
    assert [book.points(ben, name) for name in book.columns] == [1, 0, 0, 0]


def test_a_points_file_overrides_some_defaults(tmp_path):
    path = tmp_path / "points.json"
    path.write_text('{"train": 5, "encode": 2.5, "get_stats": 0}', encoding="utf-8")
    table = load_points(path)
    assert (table["train"], table["encode"], table["get_stats"], table["merge"]) == (5, 2.5, 0, DEFAULT_POINTS["merge"])
    book = class_results([result(tmp_path / "x.py", get_stats="pass", encode="pass", train="fail")], table)
    assert (book.score(book.rows[0]), book.maximum) == (2.5, 7.5)


@pytest.mark.parametrize("text, message", [
    ('{"train": 5,}', r"not valid JSON \(line 1, column 13"),
    ('[["train", 5]]', "holds a JSON list, not an object"),
    ('{"trian": 5}', r"does not know: 'trian'; the exercises are u_plus, to_hex, "),
    ('{"train": -1}', r"points for 'train' .* must be a number >= 0, not -1"),
    ('{"train": "5"}', r"must be a number >= 0, not '5'"),
    ('{"train": true}', r"must be a number >= 0, not True"),
    ('{"train": NaN}', r"must be a number >= 0, not nan"),
])
def test_a_bad_points_file_says_what_to_fix(tmp_path, text, message):
    path = tmp_path / "points.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_points(path)
    with pytest.raises(ValueError, match="cannot read the points file"):
        load_points(tmp_path / "nowhere.json")


def test_json_carries_points(tmp_path):
    out = with_points(result(tmp_path / "submitted/kim/ps1/a.py", merge="pass", train="fail"), load_points())
    assert out["student"] == "kim" and (out["score"], out["maximum"]) == (2, 5)
    assert out["exercises"]["train"] == {"status": "fail", "message": "train fail", "points": 0, "max_points": 3}


# ---------------------------------------------------------------------------- one real class run


def test_bpe_grade_a_class_from_both_layouts(tmp_path, bpe_grade):
    """submissions/<student>/ and nbgrader's submitted/<student>/<assignment>/, graded for real."""
    files = {"submissions/ann/a.py": "bug_merge_overlap.py", "submissions/ann/b.py": "bug_encode_max_rank.py",
             "course/submitted/ben/ps1/04.ipynb": "good_notebook.ipynb",
             "course/submitted/ben/ps2/x.py": "good_train_incremental.py", "loose.py": "bug_train_min.py"}
    for target, source in files.items():
        (tmp_path / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(LEARNERS / source, tmp_path / target)
    (tmp_path / "points.json").write_text('{"train_incremental": 10}', encoding="utf-8")
    run = bpe_grade("submissions", "course", "loose.py", "--csv", "class.csv", "--json", "--points", "points.json",
                    "--jobs", "2", "--duplicates", "best", "--workbooks", "01,03,04,05,06,10", "--exercises", "encode",
                    cwd=tmp_path)
    assert run.returncode == 1, run.stderr  # not everything passes
    with open(tmp_path / "class.csv", encoding="utf-8", newline="") as f:
        rows = {row["student"]: row for row in csv.DictReader(f)}
    assert list(rows) == ["ann", "ben", "loose.py"]  # in the order of the paths given
    ann, ben = rows["ann"], rows["ben"]
    assert ann["files"] == "submissions/ann/a.py; submissions/ann/b.py"
    assert (ann["merge"], ann["merge_points"]) == ("pass", "2")  # overlapping merge in a.py, right in b.py
    assert (ann["encode"], ann["encode_points"]) == ("fail", "0")
    assert (ben["train_incremental"], ben["train_incremental_points"]) == ("pass", "10")
    assert ann["to_hex"] == "missing" and ann["train_incremental_points"] == "0"
    maximum = sum(DEFAULT_POINTS[n] for n in ("to_hex", "from_hex", "utf8_encode", "get_stats", "merge", "train",
                                              "build_vocab", "decode", "encode")) + 10
    assert {row["maximum"] for row in rows.values()} == {str(maximum)}
    assert ben["score"] == str(maximum)  # ben passes everything the class was graded on
    assert ann["score"] == str(sum(DEFAULT_POINTS[n] for n in ("get_stats", "merge", "build_vocab", "decode")))
    graded = json.loads(run.stdout)
    assert [r["student"] for r in graded] == ["ann", "ann", "ben", "ben", None]
    assert graded[0]["exercises"]["merge"]["points"] == 0 and graded[0]["exercises"]["merge"]["max_points"] == 2
    assert (graded[0]["score"], graded[0]["maximum"]) == (2, 4)  # a.py alone: get_stats and build_vocab


def test_bpe_grade_says_what_is_wrong_with_its_input(tmp_path, bpe_grade):
    (tmp_path / "empty").mkdir()
    run = bpe_grade("empty", cwd=tmp_path)
    assert run.returncode == 2 and "holds no .ipynb or .py file" in run.stderr
    (tmp_path / "x.py").write_text("", encoding="utf-8")
    (tmp_path / "points.json").write_text("{", encoding="utf-8")
    run = bpe_grade("x.py", "--points", "points.json", cwd=tmp_path)
    assert run.returncode == 2 and "not valid JSON" in run.stderr


def test_the_class_benchmark_builds_its_class(tmp_path):
    """python -m bpe_ref.grade.classroom.bench's class (not timed here): the planned mix, and each
    buggy variant really holds the learner file's wrong function in place of the solution's."""
    from bpe_ref.grade.classroom import bench as bench_class
    from bpe_ref.grade.reading.source import function_source, read_submission

    plans = bench_class.write_class(tmp_path, students=4)
    assert len(plans) == 12 and {Path(p).parent.name for p in plans} == {f"student_{n:03d}" for n in range(4)}
    for workbook, bugs in bench_class.BUGS.items():
        solution = read_submission(ROOT / "solutions" / f"{workbook}.ipynb")[0]
        for function, learner in bugs:
            notebook = bench_class.with_bug(nbformat.read(ROOT / "solutions" / f"{workbook}.ipynb", as_version=4),
                                            function, LEARNERS / learner)
            cells = [{"source": c.source} for c in notebook.cells if c.cell_type == "code"]
            wrong = function_source([{"source": (LEARNERS / learner).read_text(encoding="utf-8")}], function)
            assert function_source(cells, function) == wrong != function_source(solution, function)


def test_one_learners_workbooks_get_one_overall_line_not_a_class_table(tmp_path, bpe_grade):
    """Self-study: several of one's own files end with the course total and a line per file; the
    score table is for a class (a folder of students, or --csv / --feedback)."""
    for name in ("01_hex.ipynb", "03_utf8.ipynb"):
        shutil.copy(ROOT / "solutions" / name, tmp_path / name)
    shutil.copy(LEARNERS / "bug_train_incremental_recount.py", tmp_path / "train_incremental_recount.py")
    run = bpe_grade("01_hex.ipynb", "03_utf8.ipynb", "train_incremental_recount.py", cwd=tmp_path)
    assert "Scores out of" not in run.stdout, run.stdout
    assert "Overall: 3/4 exercises pass across 3 of 3 files" in run.stdout
    assert "  01_hex.ipynb                  2/2 pass" in run.stdout
    table_line = next(line for line in run.stdout.splitlines() if line.strip().startswith("train_incremental "))
    assert table_line.split()[1] == "fail"  # a long name keeps its status in its column
    classy = bpe_grade("01_hex.ipynb", "03_utf8.ipynb", "--csv", "c.csv", cwd=tmp_path)
    assert "Scores out of" in classy.stdout and "Overall:" not in classy.stdout


def test_a_class_method_counts_for_its_course_exercise_once():
    """RegexTokenizer.decode and BasicTokenizer.decode are both graded as decode: the better counts."""
    graded = {"path": "submissions/alice/tok.py", "passed": False, "notes": [], "exercises": {
        "BasicTokenizer.decode": {"status": "fail", "message": "", "course": "decode"},
        "RegexTokenizer.decode": {"status": "pass", "message": "", "course": "decode"},
        "RegexTokenizer.train": {"status": "pass", "message": "", "course": "train_regex"}}}
    table = load_points()
    scored = with_points(graded, table)
    assert scored["maximum"] == table["decode"] + table["train_regex"]
    assert scored["score"] == scored["maximum"]
    book = class_results([graded], table)
    assert book.columns == ["decode", "train_regex"]
    assert book.rows[0].exercises["decode"]["status"] == "pass"
