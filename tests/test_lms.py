"""Roster, late work, overrides and the LMS exports: one real bpe-grade run of a small class
carries them into the CSV, --json, the pages and Canvas's and Moodle's import files; every new
input file is checked before grading, with one line; overrides reach Gradescope and nbgrader's
gradebook scores too."""

import csv
import json
import os
import shutil
from pathlib import Path

import pytest

from bpe_ref.grade import cli
from bpe_ref.grade.classroom.gradebook import cell_score
from bpe_ref.grade.classroom.gradescope import gradescope_results
from bpe_ref.grade.classroom.late import LateRule, parse_rule
from bpe_ref.grade.classroom.overrides import Override, apply_overrides
from bpe_ref.grade.classroom.points import load_points

LEARNERS = Path(__file__).parent / "learners"
ROSTER = "login,student_id,name,section\nann,1001,Ann Lee,A\nbob,1002,\"Bob, Jr.\",B\n"
TIMES = "login,submitted\nann,2026-03-01T16:00Z\nbob,2026-03-02T20:00Z\n"  # bob: 27 hours late
OVERRIDES = 'student,exercise,score,comment\nbob,decode,1.5,"right bytes; only errors=replace missing"\n'


def read_csv(path):
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


@pytest.fixture
def small_class(tmp_path):
    """ann's decode is right, bob's is strict; a roster, submission times and one override."""
    for student, learner in (("ann", "good_train_incremental.py"), ("bob", "bug_decode_strict.py")):
        (tmp_path / "submissions" / student).mkdir(parents=True)
        shutil.copy(LEARNERS / learner, tmp_path / "submissions" / student / "ps.py")
    shutil.copy(LEARNERS / "bug_decode_strict.py", tmp_path / "submissions" / "ann" / "old.py")
    os.utime(tmp_path / "submissions" / "ann" / "old.py", (0, 0))  # handed in before ps.py: ps.py counts
    (tmp_path / "roster.csv").write_text(ROSTER, encoding="utf-8")
    (tmp_path / "times.csv").write_text(TIMES, encoding="utf-8")
    (tmp_path / "overrides.csv").write_text(OVERRIDES, encoding="utf-8")
    return tmp_path


CLASS_ARGS = ("submissions", "--roster", "roster.csv", "--times", "times.csv", "--due", "2026-03-01T17:00Z",
              "--late", "10%/day,max=50%", "--overrides", "overrides.csv", "--csv", "class.csv")


def test_roster_late_and_overrides_reach_every_output(small_class, bpe_grade):
    run = bpe_grade(*CLASS_ARGS, "--feedback", "pages", "--json", "--lms", "canvas", "--lms-csv", "canvas.csv",
                    "--lms-column", "PS 5 (1234)", "--jobs", "2", cwd=small_class)
    assert run.returncode in (0, 1), run.stderr
    header, *lines = read_csv(small_class / "class.csv")
    rows = {line[0]: dict(zip(header, line)) for line in lines}
    bob, ann = rows["bob"], rows["ann"]
    assert (bob["student_id"], bob["name"], bob["section"]) == ("1002", "Bob, Jr.", "B")
    assert (bob["decode"], bob["decode_points"]) == ("override (error)", "1.5")  # shown as an override
    assert "decode overridden: right bytes" in bob["notes"]
    assert (bob["submitted"], bob["late_penalty"]) == ("2026-03-02T20:00:00+00:00", "20%")  # two started days
    assert float(bob["final_score"]) == pytest.approx(float(bob["score"]) * 0.8, abs=0.01)
    assert (ann["late_penalty"], ann["final_score"]) == ("0%", ann["score"])
    graded = json.loads(run.stdout)
    decode = next(r for r in graded if r["student"] == "bob")["exercises"]["decode"]
    assert decode["points"] == 1.5 and decode["override"]["status"] == "error"
    page = (small_class / "pages" / "students" / "bob.html").read_text(encoding="utf-8")
    assert "overridden by the instructor" in page and "Bob, Jr. (student id 1002, section B)" in page
    assert "27.0 hours late: -20%" in page
    canvas = read_csv(small_class / "canvas.csv")
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "PS 5 (1234)"]
    assert canvas[1][0] == "Points Possible" and canvas[1][5] == ann["maximum"]
    assert canvas[3] == ["Bob, Jr.", "", "1002", "bob", "B", bob["final_score"]]


def test_moodle_export_and_nbgrader_timestamps(tmp_path, bpe_grade):
    """nbgrader's submitted/<student>/<assignment>/timestamp.txt gives the time; Moodle's columns."""
    folder = tmp_path / "submitted" / "cam" / "ps1"
    folder.mkdir(parents=True)
    shutil.copy(LEARNERS / "bug_decode_strict.py", folder / "ps.py")
    (folder / "timestamp.txt").write_text("2026-03-03 18:30:00.123456 UTC", encoding="utf-8")
    (tmp_path / "roster.csv").write_text("login,student_id,name\ncam,3001,Cam Cho\n", encoding="utf-8")
    args = ("submitted", "--due", "2026-03-01T17:00Z", "--late", "5%/hour,max=30%", "--lms", "moodle",
            "--lms-csv", "moodle.csv", "--lms-column", "Problem set 1")
    refused = bpe_grade(*args, cwd=tmp_path)  # no roster: no ID number, so no row Moodle could misplace
    assert refused.returncode == 2 and "cam has no ID number" in refused.stderr
    run = bpe_grade(*args, "--roster", "roster.csv", cwd=tmp_path)
    assert run.returncode in (0, 1), run.stderr
    header, cam = read_csv(tmp_path / "moodle.csv")
    assert header == ["ID number", "Username", "Full name", "Problem set 1", "Feedback"]
    assert cam[:3] == ["3001", "cam", "Cam Cho"]
    assert "handed in 2026-03-03T18:30+00:00" in cam[4] and "-30%" in cam[4]


@pytest.mark.parametrize("files, args, message", [
    ({"roster.csv": "login,name\nann,Ann\n"}, ["--roster", "roster.csv"], "has no student_id column"),
    ({"roster.csv": "login,student_id,name\nann,1,A\nann,2,B\n"}, ["--roster", "roster.csv"], "listed twice"),
    ({"o.csv": "student,exercise,score,comment\nzed,decode,1,x\n"}, ["--overrides", "o.csv"], "no student 'zed'"),
    ({"o.csv": "student,exercise,score,comment\nann,decoder,1,x\n"}, ["--overrides", "o.csv"], "no exercise 'decoder'"),
    ({"o.csv": "student,exercise,score,comment\nann,decode,9,x\n"}, ["--overrides", "o.csv"], "from 0 to 2"),
    ({"o.csv": "student,exercise,score,comment\nann,decode,1,\n"}, ["--overrides", "o.csv"], "needs a comment"),
    ({}, ["--due", "2026-03-01", "--late", "10%/week"], "PERCENT%/day"),
    ({}, ["--late", "10%/day"], "--late needs --due"),
    ({}, ["--due", "next friday", "--late", "10%/day"], "is not a date and time"),
    ({"t.csv": "login,when\nann,2026-03-01\n"}, ["--due", "2026-03-01", "--late", "1%/day", "--times", "t.csv"],
     "has no submitted column"),
    ({}, ["--lms", "canvas", "--lms-csv", "x.csv"], "go together"),
    ({}, ["--lms", "canvas", "--lms-csv", "nowhere/x.csv", "--lms-column", "A"], "does not exist"),
    ({}, ["--run-as", "no-such-user-here"], "--run-as no-such-user-here"),
    ({}, ["--run-as", "root"], "--run-as root"),  # root's own account (or, not as root: not allowed at all)
])
def test_bad_instructor_files_stop_before_grading(tmp_path, monkeypatch, capsys, files, args, message):
    """In-process (bpe-grade's own main): each case stops in parse_args, before any grading."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "submissions" / "ann").mkdir(parents=True)
    shutil.copy(LEARNERS / "bug_decode_strict.py", tmp_path / "submissions" / "ann" / "ps.py")
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        cli.main(["submissions", "--csv", "class.csv", "--no-isolation", *args])
    stderr = capsys.readouterr().err
    assert stop.value.code == 2 and message in stderr.strip().splitlines()[-1], stderr
    assert not (tmp_path / "class.csv").exists()


def test_an_override_reaches_gradescope_and_the_gradebook_score():
    results = [{"path": "s/ps.py", "student": "s", "passed": False, "notes": [],
                "exercises": {"decode": {"status": "fail", "message": "decode([200], vocab) raised"},
                              "build_vocab": {"status": "pass", "message": "ok"}}}]
    changed = apply_overrides(results, [Override("s", "decode", 1.0, "close enough")])
    assert results[0]["exercises"]["decode"]["status"] == "fail" and "override" not in results[0]["exercises"]["decode"]
    table = load_points()
    out = gradescope_results(changed, table)
    decode = next(test for test in out["tests"] if test["name"] == "decode")
    assert decode["score"] == 1.0 and "override" in decode["output"] and "close enough" in decode["output"]
    assert out["score"] == 1.0 + table["build_vocab"]
    verdicts = {name: changed[0]["exercises"][name] for name in ("decode", "build_vocab")}
    assert cell_score(["decode", "build_vocab"], verdicts, 6, table) == pytest.approx(6 * (1 + 1) / 3)


def test_late_rule():
    rule = parse_rule("10%/day,max=50%")
    assert rule == LateRule(10, "day", 50)
    assert [rule.penalty(s) for s in (-5, 0, 1, 86400, 86401, 30 * 86400)] == [0, 0, 10, 10, 20, 50]
    assert parse_rule(" 2.5%/hour ").penalty(3 * 3600 + 1) == 10
