"""A class's results: whose file is whose (from the folders), one row per student, points, the CSV.

Students are found from the folder layout, always from the top of the folder given:

    submissions/<student>/...               a plain LMS download, one folder per student
    submitted/<student>/<assignment>/...    nbgrader's course folder (or the course folder holding it)
    <class>/<student>/...                   any folder of student folders (and no loose files)

The student is the first folder under that root, never a submissions/ folder found deeper (a
student cannot hand in a classmate's folder). Symbolic links are never followed: such a file is
that student's error, with the reason. Any other file is a loose file and gets a row of its own.
When two of a student's files grade the same exercise, the assignment's rule says which counts
(the latest by submission time by default, or the better verdict in the order of RANK), and the
row says so. Every row has the same maximum, the assignment's (assignment.py): an exercise a
student did not hand in counts as 0, "not handed in".
"""

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..judge import exercises
from ..outputs import csv_writer, say
from .assignment import derived
from .points import GRADED, earned, show_points

STUDENT_FOLDERS = ("submissions", "submitted")
SUFFIXES = (".ipynb", ".py")
# best first; after a pass, the verdict that says most about the code the student wrote
RANK = ("pass", "fail", "error", "timeout", "reference", "missing")
NOT_HANDED_IN = {"status": "missing", "message": "not handed in: none of this student's files defines it"}


@dataclass(frozen=True)
class Found:
    """One file to grade, whose it is, and why it cannot be graded (a symlink), if so."""

    path: str
    student: str = None
    problem: str = None
    submitted: object = None  # when it was handed in (an aware datetime), where the download says


def find_class(paths):
    """The files to grade (Found, in order): each folder in `paths` becomes the .ipynb/.py files
    under it, sorted, each with its student. Hidden folders (.ipynb_checkpoints) and __pycache__
    are skipped; links are listed with their problem, never followed; a folder with nothing to
    grade is a ValueError. Files are kept as given, each once."""
    found = {}
    for path in map(Path, paths):
        if path.is_dir() and not path.is_symlink():
            inside = list(walk(path))
            if not inside:
                raise ValueError(f"the folder {path} holds no .ipynb or .py file to grade")
            found.update((f.path, f) for f in inside if f.path not in found)
        elif str(path) not in found:
            problem = LINK if path.is_symlink() else None
            found[str(path)] = Found(str(path), None, problem)
    return list(found.values())


LINK = "is a symbolic link: links are not followed, so it was not graded (hand in the file itself)"


def walk(root):
    """Found for every gradable file under `root`, without following any link."""
    layout = class_layout(root)
    for folder, subfolders, files in sorted(os.walk(root, followlinks=False)):
        relative = Path(folder).relative_to(root)
        if skipped(relative):
            subfolders[:] = []
            continue
        subfolders.sort()
        links = [d for d in subfolders if (Path(folder) / d).is_symlink()]
        for name in sorted(files) + links:
            path = Path(folder) / name
            if skipped(relative / name) or (name not in links and path.suffix not in SUFFIXES):
                continue
            problem = LINK if path.is_symlink() else None
            yield Found(str(path), student_in(layout, (relative / name).parts), problem)


def class_layout(root):
    """How students are laid out under `root`: 'top' (root is submissions/ or submitted/, or a
    folder of student folders), 'course' (root holds submitted/ or submissions/), or None."""
    root = Path(root)
    if root.name in STUDENT_FOLDERS:
        return "top"
    if any((root / name).is_dir() for name in STUDENT_FOLDERS):
        return "course"
    entries = [e for e in root.iterdir() if not skipped(Path(e.name))]
    loose = [e for e in entries if e.is_file() and e.suffix in SUFFIXES]
    folders = [e for e in entries if e.is_dir()]
    return "top" if folders and not loose else None


def student_in(layout, parts):
    """The student of a file at `parts` (relative to the root), or None for a loose file."""
    if layout == "top" and len(parts) >= 2:
        return parts[0]
    if layout == "course" and len(parts) >= 3 and parts[0] in STUDENT_FOLDERS:
        return parts[1]
    return None


def is_class(paths):
    """Whether `paths` name a class (a folder of students, submissions/ or nbgrader's submitted/),
    not one learner's own files."""
    return any(Path(p).is_dir() and not Path(p).is_symlink() and class_layout(p) for p in paths)


def find_submissions(paths):
    """The paths of find_class(paths), as strings."""
    return [found.path for found in find_class(paths)]


def skipped(relative):
    return any(part.startswith(".") or part == "__pycache__" for part in relative.parts)


def student_of(path):
    """The student a file belongs to, from the outermost submissions/ or submitted/ folder of its
    path; None if loose. (bpe-grade itself reads students from the folder it is given: find_class.)

    >>> student_of("course/submitted/alice/ps1/04_naive_bpe.ipynb"), student_of("/tmp/bob.py")
    ('alice', None)
    """
    parts = Path(path).absolute().parts
    for i in range(len(parts) - 2):  # parts[i + 1] is the student, and a file follows
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
    errors: list = field(default_factory=list)  # (file, why) for files handed in but not gradable
    candidates: dict = field(default_factory=dict)  # name -> [(verdict, file's time, order)]
    duplicates: list = field(default_factory=list)  # one line per set of files that grade the same exercises

    def add(self, result, submitted=None):
        """Take in one graded file: its notes and every verdict (which counts: choose)."""
        self.files.append(result["path"])
        if result.get("error") and not result["exercises"]:
            self.errors.append((result["path"], result["error"]))
        for name, verdict in result["exercises"].items():
            name = verdict.get("course", name)  # a class's method counts for its course exercise
            held = self.candidates.setdefault(name, [])
            held.append(({**verdict, "file": result["path"]}, submitted, len(self.files)))
        self.notes += [f"{Path(result['path']).name}: {note}" for note in result["notes"]]

    def choose(self, columns, rule):
        """Set each column's verdict from the candidates by `rule` ("latest" or "best"); two files
        for one exercise are flagged in `duplicates`, extra exercises in the notes."""
        shared = {}
        for name, held in self.candidates.items():
            if rule == "best":
                self.exercises[name] = min(held, key=lambda c: (rank(c[0]), c[2]))[0]
            else:  # latest by submission time; files handed in together (the same second): the better verdict
                self.exercises[name] = max(held, key=lambda c: (c[1] is not None, round(c[1] or 0), -rank(c[0]),
                                                                c[2]))[0]
            files = tuple(dict.fromkeys(c[0]["file"] for c in held))
            if len(files) > 1 and name in columns:
                shared.setdefault(files, []).append(name)
        for files, names in shared.items():
            counted = {Path(self.exercises[name]["file"]).name for name in names}
            how = "latest by submission time" if rule == "latest" else "better verdict per exercise"
            which = counted.pop() if len(counted) == 1 else "the better verdict of files handed in together"
            self.duplicates.append(f"{len(files)} files for {', '.join(names)}: "
                                   f"{', '.join(Path(f).name for f in files)}; counted: {which} ({how})")
        extra = [name for name in GRADED if name in self.candidates and name not in columns]
        if extra:
            self.notes.append(f"graded but not part of the assignment (no points): {', '.join(extra)}")
        for name in extra:
            del self.exercises[name]


def rank(verdict):
    status = verdict.get("status")
    return RANK.index(status) if status in RANK else len(RANK)


@dataclass
class ClassResults:
    """Every row of a run, the exercises graded in it (course order) and what each is worth."""

    rows: list
    columns: list
    table: dict
    roster: dict = None  # login -> roster.Person (--roster)
    assignment: object = None  # the assignment.Assignment the columns and maximum come from
    late: dict = None  # row name -> late.Lateness (--due and --late)
    due: object = None  # the due date (an aware datetime)

    def penalty(self, row):
        """The percent taken off this row's score for handing in late (0 when on time or no rule)."""
        return self.late[row.name].penalty if self.late and row.name in self.late else 0.0

    def final_score(self, row):
        """The score after the late penalty, rounded to hundredths."""
        return round(self.score(row) * (1 - self.penalty(row) / 100), 2)

    def person(self, row):
        """The roster's (or the download's) Person for a student row, or None."""
        if not self.roster or not row.is_student:
            return None
        if row.name in self.roster:
            return self.roster[row.name]
        named = [p for p in self.roster.values() if p.name == row.name]
        return named[0] if len(named) == 1 else None

    def display_name(self, row):
        """The student's name where the roster gives one, else the folder (or file) name."""
        person = self.person(row)
        return person.name if person and person.name else row.name

    def facts(self, row):
        """Lines about who the row is and when it was handed in (for the pages), from the roster and --due."""
        lines = []
        person = self.person(row)
        if person and person.student_id:
            section = f", section {person.section}" if person.section else ""
            lines.append(f"{person.name} (student id {person.student_id}{section})")
        elif self.roster and row.is_student:
            lines.append("not in the roster")
        if self.late is not None and row.name in self.late:
            lines.append(f"{self.late[row.name].describe(self.due)}; score after the penalty: "
                         f"{show_points(self.final_score(row))}")
        return lines

    def points(self, row, name):
        return earned(row.exercises[name], self.table[name])

    def score(self, row):
        return sum(self.points(row, name) for name in self.columns)

    @property
    def maximum(self):
        return sum(self.table[name] for name in self.columns)


def class_results(results, table, assignment=None, times=None):
    """Group graded files (grade_file's dicts, in order) into rows, one per student or loose file.

    A student's row comes where their first file does. The columns are the assignment's (or,
    when none was declared, the exercises most rows were graded on: assignment.derived); each
    row's exercises it never handed in are filled in as missing, so every row has every column.
    `times` ({path: aware datetime}) says when each file was handed in, for the duplicates rule.
    """
    rows = {}
    for result in results:
        student = result["student"] if "student" in result else student_of(result["path"])
        key = ("student", student) if student is not None else ("file", result["path"])
        if key not in rows:
            rows[key] = Row(name=key[1], is_student=student is not None)
        rows[key].add(result, file_time(result["path"], times))
    if assignment is None or not assignment.declared and not assignment.columns:
        rule = assignment.duplicates if assignment else "latest"
        assignment = derived([graded_in(row) for row in rows.values()], table, rule)
    columns = list(assignment.columns)
    for row in rows.values():
        row.choose(columns, assignment.duplicates)
        for name in columns:
            row.exercises.setdefault(name, unfilled(row, name))
    return ClassResults(list(rows.values()), columns, assignment.table, assignment=assignment)


def graded_in(row):
    """The exercises a row's files were graded on (a file handed in but not gradable counts for
    its workbook's)."""
    names = set(row.candidates)
    for path, _ in row.errors:
        names.update(exercises.workbook_exercises(Path(path).stem))
    return names


def file_time(path, times):
    """When a file was handed in: from the download (`times`), else its modification time."""
    if times and path in times:
        return times[path].timestamp()
    try:
        return os.stat(path, follow_symlinks=False).st_mtime
    except OSError:
        return None


def unfilled(row, name):
    """The verdict of an exercise none of the row's files graded: an error when a file that
    could not be read or run may have held it (its workbook's, or any when the name says none),
    else missing."""
    for path, why in row.errors:
        workbook = Path(path).stem
        named = exercises.workbook_exercises(workbook)
        if not named or name in named:
            return {"status": "error", "message": f"handed in but not graded: {why}", "file": path}
    return dict(NOT_HANDED_IN)


def counted_verdicts(verdicts):
    """The names whose verdicts earn points: for each course exercise, its best verdict (a class's
    methods graded as the same exercise, e.g. two classes' decode, count once)."""
    best = {}
    for name, verdict in verdicts.items():
        course = verdict.get("course", name)
        if course not in best or rank(verdict) < rank(verdicts[best[course]]):
            best[course] = name
    return set(best.values())


def with_points(result, table):
    """A copy of one file's result (for --json) with its student, score, maximum and points per exercise."""
    counted = counted_verdicts(result["exercises"])
    graded = {}
    for name, verdict in result["exercises"].items():
        worth = table.get(verdict.get("course", name), 1) if name in counted else 0
        graded[name] = {**verdict, "points": earned(verdict, worth), "max_points": worth}
    student = result["student"] if "student" in result else student_of(result["path"])
    return {**result, "student": student, "exercises": graded,
            "score": sum(v["points"] for v in graded.values()),
            "maximum": sum(v["max_points"] for v in graded.values())}


def write_csv(book, path):
    """One row per student (or loose file): score, maximum, each exercise's status and points,
    then the notes (why a file could not be graded, what went wrong in a cell)."""
    header = ["student"] + (["student_id", "name", "section"] if book.roster else []) + ["files", "score", "maximum"]
    for name in book.columns:
        header += [name, f"{name}_points"]
    late = book.late is not None
    header += (["submitted", "late_penalty", "final_score"] if late else []) + ["notes"]
    with atomic_text(path) as f:
        writer = csv_writer(f)
        writer.writerow(header)
        for row in book.rows:
            line = [row.name] + (person_cells(book, row) if book.roster else [])
            line += ["; ".join(row.files), show_points(book.score(row)), show_points(book.maximum)]
            for name in book.columns:
                status = row.exercises[name]["status"]
                line += [f"override ({status})" if row.exercises[name].get("override") else status,
                         show_points(book.points(row, name))]
            if late:
                when = book.late.get(row.name)
                line += [when.submitted.isoformat() if when and when.submitted else "",
                         f"{book.penalty(row):g}%", show_points(book.final_score(row))]
            overrides = [f"{name} overridden: {row.exercises[name]['override']['comment']}"
                         for name in book.columns if row.exercises[name].get("override")]
            line.append(" | ".join(overrides + row.duplicates + row.notes))
            writer.writerow(line)


def person_cells(book, row):
    """student_id, name, section from the roster ('' for a student it does not list)."""
    person = book.person(row)
    return [person.student_id, person.name, person.section] if person else ["", "", ""]


class atomic_text:
    """open(path, "w") (or "wb" when `binary`) that only replaces `path` once everything is
    written (a temporary file beside it, then a rename): a run stopped halfway leaves the old
    file, never half a new one."""

    def __init__(self, path, binary=False):
        self.path, self.binary = Path(path), binary

    def __enter__(self):
        handle, self.temporary = tempfile.mkstemp(prefix=f".{self.path.name}.", dir=self.path.parent or ".")
        if self.binary:
            self.file = os.fdopen(handle, "wb")
        else:
            self.file = os.fdopen(handle, "w", encoding="utf-8", newline="")
        return self.file

    def __exit__(self, kind, value, traceback):
        self.file.close()
        if kind is None:
            os.chmod(self.temporary, 0o644)
            os.replace(self.temporary, self.path)
        else:
            os.unlink(self.temporary)
        return False


def print_scores(book, out):
    """The class at a glance, after the per-file tables: one line per row."""
    width = max(len(row.name) for row in book.rows)
    late = book.late is not None
    say(f"Scores out of {show_points(book.maximum)} points" + (" (final after the late penalty, raw)" if late else ""),
        out)
    for row in book.rows:
        passed = sum(row.exercises[name]["status"] == "pass" for name in book.columns)
        scores = (f"{show_points(book.final_score(row)):>5} {show_points(book.score(row)):>5}" if late
                  else f"{show_points(book.score(row)):>5}")
        flag = "  (two files for one exercise)" if row.duplicates else ""
        say(f"  {row.name:<{width}}  {scores}  {passed}/{len(book.columns)} exercises pass{flag}", out)
