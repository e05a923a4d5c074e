"""Overrides: an instructor sets one student's score for one exercise, with a comment.

An overrides file is a CSV with a header row:

    student,exercise,score,comment
    asmith,train,3,"works; the test's corpus was too small to show it"

It is applied after grading, to the verdicts themselves, so the CSV, --json, the pages,
Gradescope's results.json and nbgrader's gradebook all show the same score. It wins over the
sandbox's verdict and is shown as an override (the grader's own verdict stays beside it).
"""

from dataclasses import dataclass

from .points import GRADED, is_points, show_points
from .roster import read_table


@dataclass(frozen=True)
class Override:
    student: str
    exercise: str
    score: float
    comment: str


def read_overrides(path, table, students):
    """[Override] from an overrides CSV, checked against the points table and the students of
    this run; ValueError (one line) saying what to fix."""
    overrides, seen = [], set()
    for line, row in enumerate(read_table(path, "overrides file", ("student", "exercise", "score", "comment")), 2):
        where = f"the overrides file {path}, line {line}"
        if row["student"] not in students:
            raise ValueError(f"{where}: no student {row['student']!r} in this run")
        if row["exercise"] not in GRADED:
            raise ValueError(f"{where}: the grader knows no exercise {row['exercise']!r}")
        try:
            score = float(row["score"])
        except ValueError:
            score = None
        if score is None or not is_points(score) or score > table[row["exercise"]]:
            raise ValueError(f"{where}: the score must be a number from 0 to {show_points(table[row['exercise']])} "
                             f"(what {row['exercise']} is worth), not {row['score']!r}")
        if not row["comment"]:
            raise ValueError(f"{where}: an override needs a comment saying why")
        if (row["student"], row["exercise"]) in seen:
            raise ValueError(f"{where}: {row['student']}'s {row['exercise']} is overridden twice")
        seen.add((row["student"], row["exercise"]))
        overrides.append(Override(row["student"], row["exercise"], score, row["comment"]))
    return overrides


def overridden(verdict, override):
    """A copy of `verdict` carrying the override (points.earned counts its score instead)."""
    graded = f"{verdict.get('status', 'missing')}: {verdict.get('message', '')}".rstrip(": ")
    return {**verdict, "override": {"points": override.score, "comment": override.comment,
                                    "status": verdict.get("status", "missing")},
            "message": f"override, {show_points(override.score)} points: {override.comment} (the grader said {graded})"}


def apply_overrides(results, overrides):
    """The graded files (grade_file's dicts) with every override applied to every verdict of that
    student's exercise; an exercise none of their files graded is added to their first file."""
    results = [{**result, "exercises": dict(result["exercises"])} for result in results]
    for override in overrides:
        mine = [result for result in results if result.get("student") == override.student]
        hits = [(result, name) for result in mine for name, verdict in result["exercises"].items()
                if verdict.get("course", name) == override.exercise]
        for result, name in hits:
            result["exercises"][name] = overridden(result["exercises"][name], override)
        if not hits and mine:
            missing = {"status": "missing", "message": "not handed in"}
            mine[0]["exercises"][override.exercise] = overridden(missing, override)
    return results
