"""The assignment an instructor declares: its workbooks, its exercises and what each is worth.

The maximum every route reports (class CSV, pages, Gradescope, nbgrader, LMS) comes from here,
fixed before anything is graded, so no file a student hands in can move anyone's maximum. An
assignment file is the points file grown by two keys:

    {"workbooks": ["04_naive_bpe", "05_decoding", "06_encoding"],
     "exercises": {"train": 5, "encode": 4},
     "duplicates": "latest"}

`workbooks` names workbooks (or their numbers, "04"); `exercises` adds exercises (a list of
names, or names -> points over the default table); `duplicates` says which of two files for one
workbook counts: "latest" (by submission time, the default) or "best" (the better verdict).
Flags give the same: --workbooks 04,05,06 --exercises train --duplicates best.
"""

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..judge import exercises
from .points import GRADED, is_points, load_points, read_points_file

RULES = ("latest", "best")
KEYS = ("workbooks", "exercises", "duplicates", "points")


@dataclass
class Assignment:
    """What is graded (columns, course order), what each is worth (table) and the duplicates rule;
    `declared` is False when nothing was given and the class's files decide (see derived)."""

    columns: list
    table: dict
    duplicates: str = "latest"
    declared: bool = True
    workbooks: list = field(default_factory=list)

    @property
    def maximum(self):
        return sum(self.table[name] for name in self.columns)

    def describe(self):
        """One line for the terminal: what is graded, out of how much, and the duplicates rule."""
        what = ", ".join(self.workbooks) if self.workbooks else ", ".join(self.columns) or "nothing"
        source = "declared" if self.declared else "not declared, taken from what most students handed in"
        rule = ("the latest file by submission time counts" if self.duplicates == "latest"
                else "the better verdict counts")
        return (f"assignment ({source}): {what}; {len(self.columns)} exercises, {self.maximum:g} points; "
                f"two files for one workbook: {rule}")


def workbook_names():
    """Every workbook that has graded exercises, in course order."""
    return list(dict.fromkeys(ex.workbook for ex in exercises.REGISTRY.values() if ex.workbook))


def resolve_workbook(name):
    """The workbook '04' or '04_naive_bpe' stands for; ValueError naming the workbooks otherwise.

    >>> resolve_workbook("04")
    '04_naive_bpe'
    """
    known = workbook_names()
    hits = [w for w in known if w == name or w.split("_")[0] == name]
    if len(hits) != 1:
        raise ValueError(f"no workbook {name!r} has graded exercises; name one of {', '.join(known)}")
    return hits[0]


def resolve_exercise(name):
    if name not in GRADED:
        raise ValueError(f"the grader knows no exercise {name!r}; the exercises are {', '.join(GRADED)}")
    return name


def read_assignment_file(path):
    """The assignment object in a JSON file, checked; ValueError (one line) saying what to fix."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"cannot read the assignment file {path}: {e.strerror or e}") from e
    except json.JSONDecodeError as e:
        raise ValueError(f"the assignment file {path} is not valid JSON (line {e.lineno}: {e.msg})") from e
    if not isinstance(data, dict) or not set(data) <= set(KEYS):
        raise ValueError(f"the assignment file {path} must be one JSON object with the keys {', '.join(KEYS)}, "
                         'e.g. {"workbooks": ["04", "05"], "exercises": {"train": 5}}')
    return data


def points_of(spec, where):
    """{exercise: points} from an `exercises` value: a list of names or an object of points."""
    if isinstance(spec, list):
        return {resolve_exercise(str(name)): None for name in spec}
    if isinstance(spec, dict):
        for name, points in spec.items():
            resolve_exercise(name)
            if not is_points(points):
                raise ValueError(f"{where}: the points for {name!r} must be a number >= 0, not {points!r}")
        return dict(spec)
    raise ValueError(f"{where}: `exercises` must be a list of names or an object of points")


def load_assignment(path=None, points=None, workbooks=None, names=None, duplicates=None):
    """The Assignment from a file and/or flags (flags win); None when nothing declares which
    exercises are graded (the class run then derives it: derived)."""
    data = read_assignment_file(path) if path else {}
    where = f"the assignment file {path}" if path else "--exercises"
    table = load_points(points)
    if data.get("points"):
        table.update(read_points_file(Path(path).parent / data["points"]))
    books = [resolve_workbook(str(w)) for w in (workbooks or data.get("workbooks") or [])]
    extra = points_of(data.get("exercises", []), where)
    extra.update({resolve_exercise(n): None for n in names or []})
    table.update({name: worth for name, worth in extra.items() if worth is not None})
    rule = duplicates or data.get("duplicates", "latest")
    if rule not in RULES:
        raise ValueError(f"{where}: duplicates must be one of {', '.join(RULES)}, not {rule!r}")
    named = {n for w in books for n in exercises.workbook_exercises(w)} | set(extra)
    if not named:
        return Assignment([], table, rule, declared=False) if (path or duplicates) else None
    return Assignment([n for n in GRADED if n in named], table, rule, True, books)


def derived(per_student, table, duplicates="latest"):
    """The assignment of a class that declared none: every exercise graded for at least half of
    the students (`per_student`: one set of exercise names per student or loose file), so that
    one student's extra files never move the others' maximum."""
    counts = {}
    for names in per_student:
        for name in names:
            counts[name] = counts.get(name, 0) + 1
    enough = {name for name, n in counts.items() if 2 * n >= len(per_student)}
    return Assignment([n for n in GRADED if n in enough], table, duplicates, declared=False)
