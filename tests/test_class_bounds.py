"""One row never reaches another, and no output can be hijacked (issue 29, items 3 and 4).

Each attack in two spellings: merges whose tokens grow without bound, values too big or too deep
to show, notebooks and code nested too deeply to parse, a bogus timestamp.txt, control characters
meant for the instructor's terminal, and names that a spreadsheet would run as formulas. One real
class run (bpe-grade's own main, no bubblewrap needed, so it never skips) carries them all and must
still end with every row, every page, the similarity report and the LMS file written.
"""

import csv
import json
import os
import signal
import time

import pytest

from bpe_ref.grade import cli
from bpe_ref.grade.classroom.late import LateRule, lateness
from bpe_ref.grade.classroom.lms import write_lms
from bpe_ref.grade.classroom.results import Found, Row, class_results
from bpe_ref.grade.classroom.points import load_points
from bpe_ref.grade.classroom.roster import Person
from bpe_ref.grade.judge.bounds import TooLarge, token_lengths, vocab_of
from bpe_ref.grade.judge.display import show
from bpe_ref.grade.judge.exercises.w07_regex_splitting import competing_texts
from bpe_ref.grade.outputs import csv_cell, json_text, terminal_line
from bpe_ref.grade.reading.source import UnreadableSubmission, read_submission, syntax_problem

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

HONEST = '''
def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts
'''

DOUBLING = '''
merges = {(97, 97): 256}
for i in range(40):  # each token is the last one twice: 2 ** 41 bytes at the end
    merges[(256 + i, 256 + i)] = 257 + i


def encode(text):
    return list(text.encode("utf-8"))


def decode(ids):
    return "".join(chr(i) for i in ids if i < 256)
'''

# each token joins the last two (Fibonacci's growth): 1.6 ** 60 bytes
FIBONACCI = "merges = {(97, 98): 256, (256, 97): 257, " + ", ".join(
    f"({i - 1}, {i - 2}): {i}" for i in range(258, 318)) + "}\n" + DOUBLING.split("\n\n\n", 1)[1]

ESCAPES = {
    "redraw": 'def get_stats(ids):\n    raise ValueError("\\x1b[2K\\r  get_stats pass\\x1b[8m hidden")\n',
    "c1_bidi": 'def get_stats(ids):\n    raise ValueError("\\x9b2J\\u202egnissap\\u2028  get_stats pass")\n',
}


def deep_notebook(opening, closing):
    nested = opening * 100_000 + closing * 100_000
    return ('{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": ' + nested + '}, "cells": []}')


# ---------------------------------------------------------------------------- one class, every attack

@pytest.fixture(scope="module")
def attacked_class(tmp_path_factory):
    root = tmp_path_factory.mktemp("class")
    students = {
        "honest": {"ps.py": HONEST, "timestamp.txt": "2026-03-01 10:00:00.000000 UTC"},
        "doubler": {"ps.py": DOUBLING, "timestamp.txt": "soon"},
        "fibber": {"ps.py": FIBONACCI, "timestamp.txt": "\x00\xff" * 5000},
        '=HYPERLINK("evil.example","open")': {"ps.py": HONEST},
        "@SUM(1+1)": {"-2+3.py": HONEST},
        "redraw": {"ps.py": ESCAPES["redraw"]},
        "c1_bidi": {"ps.py": ESCAPES["c1_bidi"]},
        "deep_list": {"04_naive_bpe.ipynb": deep_notebook("[", "]")},
        "deep_dict": {"04_naive_bpe.ipynb": deep_notebook('{"a":', "}")},
        "dead_sum": {"ps.py": HONEST + "\nif False:\n    x = " + "+".join(["0"] * 1500) + "\n"},
        "dead_long": {"ps.py": HONEST + "\nif False:\n    x = " + "*".join(["0"] * 100_000) + "\n"},
    }
    for student, files in students.items():
        folder = root / "submissions" / student
        folder.mkdir(parents=True)
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8", errors="surrogateescape")
    with open(root / "roster.csv", "w", encoding="utf-8", newline="") as f:  # the LMS needs ids
        writer = csv.writer(f)
        writer.writerow(["login", "student_id", "name"])
        writer.writerows([student, f"-{number}", f"={student}"] for number, student in enumerate(students, 1))
    args = ["submissions", "--no-isolation", "--jobs", "1", "--csv", "class.csv", "--feedback", "pages",
            "--roster", "roster.csv", "--verbose",
            "--similarity", "--due", "2026-03-01T17:00Z", "--late", "10%/day", "--lms", "canvas",
            "--lms-csv", "canvas.csv", "--lms-column", "PS 4"]
    return root, args


@pytest.fixture(scope="module")
def graded(attacked_class):
    root, args = attacked_class
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(root)
        import io
        import contextlib
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(args)
    with open(root / "class.csv", encoding="utf-8", newline="") as f:
        header, *lines = list(csv.reader(f))
    rows = {line[0]: dict(zip(header, line)) for line in lines}
    return {"root": root, "code": code, "stdout": out.getvalue(), "stderr": err.getvalue(), "rows": rows}


def test_the_class_ends_with_every_row_page_and_report(graded):
    root, rows = graded["root"], graded["rows"]
    assert graded["code"] in (0, 1)
    assert len(rows) == 11, sorted(rows)
    assert rows["honest"]["get_stats"] == "pass"
    assert (root / "pages" / "index.html").is_file()
    assert len(list((root / "pages" / "students").glob("*.html"))) == 11
    assert (root / "class-similarity.csv").is_file() and (root / "canvas.csv").is_file()


@pytest.mark.parametrize("student", ["doubler", "fibber"])
def test_merges_that_grow_without_bound_are_that_students_error(graded, student):
    """The class's columns are the assignment's; the file's own table shows the three refusals."""
    table = graded["stdout"].split(f"submissions/{student}/ps.py\n", 1)[1].split("\n  =>", 1)[0]
    for name in ("merges", "encode", "decode"):
        assert f"  {name:<16} error   " in table and "rebuilds tokens of at most" in table, table
    assert student in graded["rows"]


@pytest.mark.parametrize("student", ["doubler", "fibber"])
def test_a_bogus_timestamp_is_that_students_note(graded, student):
    row = graded["rows"][student]
    assert "timestamp.txt" in row["notes"] and "check the time by hand" in row["notes"]
    assert row["late_penalty"] == "0%" and graded["rows"]["honest"]["submitted"].startswith("2026-03-01T10:00")


@pytest.mark.parametrize("student", ["deep_list", "deep_dict"])
def test_a_notebook_nested_too_deeply_is_unreadable_not_a_crash(graded, student):
    row = graded["rows"][student]
    assert row["get_stats"] == "error" and "nested too deeply" in row["notes"], row


@pytest.mark.parametrize("student", ["dead_sum", "dead_long"])
def test_deep_dead_code_is_that_students_error(graded, student):
    """1,500 terms of 0+0+... (or 100,000 of 0*0*...) in dead code: code the grader cannot read is
    that student's error, with the reason in the notes, and the class goes on."""
    row = graded["rows"][student]
    assert row["get_stats"] == "error" and row["notes"], row
    assert graded["rows"]["honest"]["get_stats"] == "pass"


def test_no_control_character_reaches_the_terminal(graded):
    for text in (graded["stdout"], graded["stderr"]):
        assert not any(c in text for c in "\x1b\x9b\r\u202e\u2028"), [c for c in text if c in "\x1b\x9b\r"][:3]
    assert "\\x1b[2K\\r  get_stats pass" in graded["stdout"] and "\\x9b2J\\u202e" in graded["stdout"]
    assert not any(line.strip().startswith("get_stats pass") for line in graded["stdout"].splitlines())


def every_cell(path):
    with open(path, encoding="utf-8", newline="") as f:
        return [cell for line in csv.reader(f) for cell in line]


@pytest.mark.parametrize("name", ["class.csv", "canvas.csv", "class-similarity.csv"])
def test_no_csv_cell_starts_a_formula(graded, name):
    cells = every_cell(graded["root"] / name)
    assert cells
    for cell in cells:
        assert not cell.startswith(FORMULA_STARTS) or csv_cell(cell) == cell, cell  # only plain numbers


def test_formula_names_are_shown_as_text(graded):
    rows = graded["rows"]
    assert "'=HYPERLINK(\"evil.example\",\"open\")" in rows and "'@SUM(1+1)" in rows
    assert "'@SUM(1+1)" in [c for c in every_cell(graded["root"] / "canvas.csv")]


@pytest.mark.parametrize("death", ["os._exit", "SIGKILL"])
def test_a_grading_process_that_dies_takes_only_its_own_file(monkeypatch, death):
    """As the kernel's OOM killer would: the pool breaks, the file is its student's error, the rest are graded."""
    def fake_grade_file(path, *args):
        if "victim" in path:
            if death == "os._exit":
                os._exit(9)
            os.kill(os.getpid(), signal.SIGKILL)
        return {"path": path, "passed": True, "exercises": {"merge": {"status": "pass", "message": "ok"}}, "notes": []}

    monkeypatch.setattr(cli, "grade_file", fake_grade_file)  # the pool's processes are forked: they see it
    found = [Found(f"s/{name}/ps.py", name) for name in ("ann", "bob", "victim", "cid", "dee")]
    results = list(cli.grade_all(found, cli.Limits(), jobs=2))
    assert [r["student"] for r in results] == ["ann", "bob", "victim", "cid", "dee"]
    assert [bool(r["exercises"]) for r in results] == [True, True, False, True, True]
    assert "grading process died" in results[2]["error"]


# ---------------------------------------------------------------------------- the helpers, each way round

@pytest.mark.parametrize("text, shown", [
    ("2/2 pass\x1b[2K\r", "2/2 pass\\x1b[2K\\r"),
    ("a\nb\tc\x07", "a\\nb\\tc\\x07"),
    ("\x9b31m\u202eevil\u2028", "\\x9b31m\\u202eevil\\u2028"),
    ("héllo 😀 안녕", "héllo 😀 안녕"),
])
def test_terminal_line_escapes_control_characters(text, shown):
    assert terminal_line(text) == shown


@pytest.mark.parametrize("cell, written", [
    ("=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"), ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
    ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"), ("\t=1", "'\t=1"), ("\r=1", "'\r=1"),
    ("-1.5", "-1.5"), ("-3", "-3"), ("+2", "+2"), ("-20%", "-20%"), (-2, -2), ("ann", "ann"), ("", ""),
])
def test_csv_cell_neutralises_formulas_and_keeps_numbers(cell, written):
    assert csv_cell(cell) == written


def test_json_output_escapes_what_json_leaves_raw():
    value = {"message": "x\x9b2J\u202e\n"}
    text = json_text(value, indent=2)
    assert "\x9b" not in text and "\u202e" not in text and json.loads(text) == value


def test_moodle_feedback_column_is_neutralised(tmp_path):
    result = {"path": "s/ps.py", "student": "=cmd", "passed": True, "notes": [],
              "exercises": {"decode": {"status": "pass", "message": "ok",
                                       "override": {"points": 2, "comment": "@SUM(1)", "status": "pass"}}}}
    book = class_results([result], load_points())
    book.roster = {"=cmd": Person("=cmd", "+1-1", "@name")}
    write_lms(book, tmp_path / "moodle.csv", "moodle", "=PS")
    cells = every_cell(tmp_path / "moodle.csv")
    assert {"'=PS", "'=cmd", "'+1-1", "'@name"} <= set(cells)
    assert not any(c.startswith(("=", "@", "+")) for c in cells)


@pytest.mark.parametrize("merges", [
    {(97, 97): 256, **{(256 + i, 256 + i): 257 + i for i in range(40)}},
    {(97, 98): 256, (256, 97): 257, **{(i - 1, i - 2): i for i in range(258, 318)}},
])
def test_merges_that_grow_are_refused_before_any_token_is_built(merges):
    started = time.process_time()
    with pytest.raises(TooLarge, match="rebuilds tokens of at most"):
        vocab_of(merges)
    assert time.process_time() - started < 5  # counted as numbers, never built


def test_token_lengths_of_ordinary_merges():
    assert token_lengths({(97, 97): 256, (256, 98): 257}) == {256: 2, 257: 3}


def test_competing_texts_stops_at_its_limit():
    """Merges sharing one id pair up n * n ways: the search stops once it has enough."""
    merges = {(b, 97): 256 + i for i, b in enumerate(range(98, 128))}
    merges.update({(97, c): 256 + len(merges) + i for i, c in enumerate(range(1, 30))})
    assert len(competing_texts(merges, limit=10)) == 10


def nested_list(depth):
    value = []
    for _ in range(depth):
        value = [value]
    return value


VALUES = {"deep": lambda: nested_list(100_000), "long": lambda: list(range(2_000_000)),
          "huge_int": lambda: 10 ** 20_000, "big_dict": lambda: {i: [i] * 3 for i in range(50_000)},
          "long_str": lambda: "x" * 10_000_000, "long_bytes": lambda: (b"ab" * 10**6,)}


@pytest.mark.parametrize("kind", VALUES)
def test_a_learners_value_is_shown_short(kind):
    assert len(show(VALUES[kind]())) <= 160


@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a":', "}")])
def test_read_submission_refuses_deep_json(tmp_path, opening, closing):
    path = tmp_path / "04_naive_bpe.ipynb"
    path.write_text(deep_notebook(opening, closing), encoding="utf-8")
    with pytest.raises(UnreadableSubmission, match="nested too deeply"):
        read_submission(path)


@pytest.mark.parametrize("joiner, terms", [("+", 100_000), ("-", 200_000)])
def test_code_nested_too_deeply_is_a_syntax_problem(joiner, terms):
    assert "nested too deeply" in syntax_problem("x = " + joiner.join(["1"] * terms))


@pytest.mark.parametrize("stamp", ["soon", "2026-03-01 10:00 UTC" + " " * 500])
def test_lateness_of_a_bogus_timestamp(tmp_path, stamp):
    (tmp_path / "timestamp.txt").write_text(stamp, encoding="utf-8")
    row = Row("ann", True, files=[str(tmp_path / "ps.py")])
    late = lateness(row, None, LateRule(10, "day"), {})
    assert late.problem and late.penalty == 0 and "check the time by hand" in late.describe(None)
