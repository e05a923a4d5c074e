"""A class's results: whose file is whose (from the folders), one row per student, points, the CSV.

Students are found from the folder layout:

    submissions/<student>/...               a plain LMS download, one folder per student
    submitted/<student>/<assignment>/...    nbgrader's course folder

Any other file is a loose file and gets a row of its own. When two of a student's files grade
the same exercise, the better verdict counts (in the order of RANK): a pass in either file is a
pass. Every row has the same maximum: the points of every exercise graded in any file of the
run, so an exercise a student did not hand in counts as missing.
"""

import csv
import os
from dataclasses import dataclass, field
from pathlib import Path

from .points import GRADED, earned, show_points

STUDENT_FOLDERS = ("submissions", "submitted")
SUFFIXES = (".ipynb", ".py")
# best first; after a pass, the verdict that says most about the code the student wrote
RANK = ("pass", "fail", "error", "timeout", "reference", "missing")
NOT_HANDED_IN = {"status": "missing", "message": "not handed in: none of this student's files defines it"}


def find_submissions(paths):
    """The files to grade: each folder in `paths` becomes the .ipynb/.py files under it, sorted.

    Hidden folders (.ipynb_checkpoints) and __pycache__ are skipped; a folder with nothing to
    grade is a ValueError. Files are kept as given, each once.
    """
    files = []
    for path in map(Path, paths):
        if not path.is_dir():
            files.append(path)
            continue
        found = sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file()
                       and not skipped(p.relative_to(path)))
        if not found:
            raise ValueError(f"the folder {path} holds no .ipynb or .py file to grade")
        files += found
    return list(dict.fromkeys(str(f) for f in files))


def skipped(relative):
    return any(part.startswith(".") or part == "__pycache__" for part in relative.parts)


def student_of(path):
    """The student a file belongs to, from the innermost submissions/ or submitted/ folder; None if loose.

    >>> student_of("course/submitted/alice/ps1/04_naive_bpe.ipynb"), student_of("/tmp/bob.py")
    ('alice', None)
    """
    parts = Path(path).absolute().parts
    for i in range(len(parts) - 3, -1, -1):  # parts[i + 1] is the student, and a file follows
        if parts[i] in STUDENT_FOLDERS:
            return parts[i + 1]
    return None


@dataclass
class Row:
    """One line of the class CSV: a student with all their files, or one loose file."""

    name: str  # the student, or the loose file's path
    is_student: bool
    files: list = field(default_factory=list)
    exercises: dict = field(default_factory=dict)  # name -> the verdict that counts, with its 'file'
    notes: list = field(default_factory=list)

    def add(self, result):
        """Take in one graded file: its notes, and every verdict better than the one held."""
        self.files.append(result["path"])
        for name, verdict in result["exercises"].items():
            held = self.exercises.get(name)
            if held is None or rank(verdict) < rank(held):
                self.exercises[name] = {**verdict, "file": result["path"]}
        self.notes += [f"{Path(result['path']).name}: {note}" for note in result["notes"]]


def rank(verdict):
    status = verdict.get("status")
    return RANK.index(status) if status in RANK else len(RANK)


@dataclass
class ClassResults:
    """Every row of a run, the exercises graded in it (course order) and what each is worth."""

    rows: list
    columns: list
    table: dict

    def points(self, row, name):
        return earned(row.exercises[name], self.table[name])

    def score(self, row):
        return sum(self.points(row, name) for name in self.columns)

    @property
    def maximum(self):
        return sum(self.table[name] for name in self.columns)


def class_results(results, table):
    """Group graded files (grade_file's dicts, in order) into rows, one per student or loose file.

    A student's row comes where their first file does; exercises they never handed in are
    filled in as missing, so every row has every column.
    """
    rows = {}
    for result in results:
        student = student_of(result["path"])
        key = ("student", student) if student is not None else ("file", result["path"])
        if key not in rows:
            rows[key] = Row(name=key[1], is_student=student is not None)
        rows[key].add(result)
    graded = {name for result in results for name in result["exercises"]}
    columns = [name for name in GRADED if name in graded]
    for row in rows.values():
        for name in columns:
            row.exercises.setdefault(name, dict(NOT_HANDED_IN))
    return ClassResults(list(rows.values()), columns, table)


def with_points(result, table):
    """A copy of one file's result (for --json) with its student, score, maximum and points per exercise."""
    exercises = {name: {**verdict, "points": earned(verdict, table[name]), "max_points": table[name]}
                 for name, verdict in result["exercises"].items()}
    return {**result, "student": student_of(result["path"]), "exercises": exercises,
            "score": sum(v["points"] for v in exercises.values()),
            "maximum": sum(v["max_points"] for v in exercises.values())}


def write_csv(book, path):
    """One row per student (or loose file): score, maximum, then each exercise's status and points."""
    header = ["student", "files", "score", "maximum"]
    for name in book.columns:
        header += [name, f"{name}_points"]
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        for row in book.rows:
            line = [row.name, "; ".join(row.files), show_points(book.score(row)), show_points(book.maximum)]
            for name in book.columns:
                line += [row.exercises[name]["status"], show_points(book.points(row, name))]
            writer.writerow(line)


def print_scores(book, out):
    """The class at a glance, after the per-file tables: one line per row."""
    width = max(len(row.name) for row in book.rows)
    print(f"Scores out of {show_points(book.maximum)} points", file=out)
    for row in book.rows:
        passed = sum(row.exercises[name]["status"] == "pass" for name in book.columns)
        print(f"  {row.name:<{width}}  {show_points(book.score(row)):>5}  "
              f"{passed}/{len(book.columns)} exercises pass", file=out)


def cores():
    """The cores this process may use (its CPU affinity where the OS tells it): bpe-grade's default --jobs."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1
