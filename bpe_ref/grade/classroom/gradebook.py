"""Write bpe-grade's verdicts into nbgrader's gradebook (`bpe-grade ... --gradebook`).

nbgrader's autograde runs the locked check cells in the student's own kernel, after the
student's code, so that code can switch the checks off. bpe-grade judges each notebook from
outside, in its sandbox. This module puts those verdicts where nbgrader reads scores from:

- each test cell (grade_id `check_<exercise>`, see tools/nbgrader_metadata.py) gets the score its
  exercises earned here as its `manual_score`, which nbgrader counts instead of its own
  `auto_score` (the way formgrader overrides a score). As in the CSV (classroom.py), an exercise
  earns its best verdict among the student's notebooks of the assignment;
- each answer cell (grade_id = the exercise's name) gets the verdict as its comment.

`nbgrader export` and `nbgrader generate_feedback` then show the sandbox's scores. Which cells
are test cells, and what they are worth, comes from the gradebook (the course's own release),
never from the submitted notebook.

A submission that nbgrader has not autograded yet has no rows to write into; it is created here
through nbgrader's API (`Gradebook.add_submission`, with the student and the timestamp that
`nbgrader collect` left), as `nbgrader autograde --create` would. A later autograde keeps these
scores: it only marks the cells for review.
"""

import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from ..outputs import say
from .late import read_stamp
from .results import rank
from ..judge.exercises import REGISTRY
from .points import GRADED, earned

SUBMITTED = "submitted"  # nbgrader's CourseDirectory.submitted_directory
CHECK_CELL = re.compile(r"check_(?P<names>\w+?)(?:-\d+)?")  # check_merge, check_merge-2 (tools/nbgrader_metadata.py)


class GradebookError(ValueError):
    """A gradebook that cannot be opened or written; the message is one line for the instructor."""


@dataclass
class Target:
    """A gradebook checked before grading: where it is, its course, and the notebooks it will score."""

    url: str
    course_id: str
    root: Path  # the course folder: its submitted/<student>/<assignment>/<notebook>.ipynb are scored
    places: dict = field(default_factory=dict)  # graded file's path -> (student, assignment, notebook)
    ignored: list = field(default_factory=list)  # graded files that are not notebooks of the gradebook


def open_gradebook(where, paths):
    """Check, before any grading, that `where` is an nbgrader gradebook holding the assignments of
    the notebooks in `paths`; GradebookError says what is wrong in one line. Nothing is written.

    `where` is a database URL (sqlite:///course/gradebook.db), a gradebook file, or the course
    folder that holds gradebook.db. The course folder is the gradebook file's folder (for another
    database, the current folder), as nbgrader's own commands assume.
    """
    api = _nbgrader_api()
    url, root = gradebook_url(where)
    places, ignored = {}, []
    for path in paths:
        place = nbgrader_place(path, root)
        if place:
            places[str(path)] = place
        else:
            ignored.append(str(path))
    if not places:
        raise GradebookError(f"--gradebook: none of the files is a notebook in {root / SUBMITTED}/<student>/"
                             "<assignment>/, so there is nothing to write into the gradebook")
    assignments = sorted({assignment for _, assignment, _ in places.values()})
    course_id = course_of(api, url, assignments)
    return Target(url, course_id, root, places, ignored)


def _nbgrader_api():
    try:
        from nbgrader import api
    except ImportError as e:
        raise GradebookError("--gradebook needs nbgrader: pip install -e '.[instructor]' (Python 3.11+)") from e
    return api


def gradebook_url(where):
    """(database URL, course folder) for a URL, a gradebook file or a course folder; the database
    must exist already (opening a missing one would create an empty gradebook)."""
    from sqlalchemy.engine import make_url

    if "://" in where:
        try:
            url = make_url(where)
        except Exception as e:  # noqa: BLE001  (sqlalchemy's ArgumentError and friends)
            raise GradebookError(f"--gradebook: not a database URL ({one_line(e)})") from e
        if url.get_backend_name() != "sqlite":
            return where, Path.cwd()
        path = Path(url.database or "")
    else:
        path = Path(where)
        if path.is_dir():
            path = path / "gradebook.db"
    if not path.is_file():
        raise GradebookError(f"--gradebook: there is no gradebook at {path} (nbgrader makes gradebook.db "
                             "in the course folder with `nbgrader generate_assignment`)")
    path = path.absolute()
    return f"sqlite:///{path}", path.parent


def nbgrader_place(path, root):
    """(student, assignment, notebook) for a file at root/submitted/<student>/<assignment>/<notebook>.ipynb,
    exactly there (a notebook deeper inside a student's folder is not one nbgrader scores); else None.

    >>> nbgrader_place("/c/submitted/ann/ps1/01_hex.ipynb", Path("/c"))
    ('ann', 'ps1', '01_hex')
    """
    path = Path(path).absolute()
    try:
        parts = path.relative_to(root / SUBMITTED).parts
    except ValueError:
        return None
    if len(parts) != 3 or path.suffix != ".ipynb":
        return None
    return parts[0], parts[1], path.stem


def course_of(api, url, assignments):
    """The course the assignments belong to, read with nbgrader's tables but without opening a
    Gradebook, which would add its tables to any database it is given."""
    from sqlalchemy import create_engine, inspect, select

    needed = {model.__tablename__ for model in (api.Assignment, api.Notebook, api.GradeCell,
                                                api.SubmittedAssignment, api.Grade, api.Comment)}
    engine = None
    try:
        engine = create_engine(url)
        with engine.connect() as connection:
            absent = needed - set(inspect(connection).get_table_names())
            if absent:
                raise GradebookError(f"--gradebook {shown(url)}: not an nbgrader gradebook (it has no "
                                     f"{', '.join(sorted(absent))} table)")
            rows = dict(connection.execute(select(api.Assignment.name, api.Assignment.course_id)).all())
    except GradebookError:
        raise
    except Exception as e:  # noqa: BLE001  (any database error: locked, corrupt, not a database)
        raise GradebookError(f"--gradebook {shown(url)}: cannot read it: {one_line(e)}") from e
    finally:
        if engine is not None:
            engine.dispose()
    unknown = [a for a in assignments if a not in rows]
    if unknown:
        have = ", ".join(sorted(rows)) or "none"
        raise GradebookError(f"--gradebook: the gradebook has no assignment {unknown[0]!r} (it has: {have}); "
                             f"run `nbgrader generate_assignment {unknown[0]}` in the course folder first")
    courses = {rows[a] for a in assignments}
    if len(courses) > 1:
        raise GradebookError(f"--gradebook: the assignments {', '.join(assignments)} belong to different "
                             "courses; grade one course at a time")
    return courses.pop()


def one_line(error):
    """A database error in one short line: the driver's own message, without SQLAlchemy's SQL and links."""
    error = getattr(error, "orig", None) or error
    return " ".join(str(error).split())[:300] or type(error).__name__


def shown(url):
    """A database URL as it may be printed: without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


# ---------------------------------------------------------------------------- writing the scores


def exercises_of(grade_id):
    """The exercises a test cell checks, from its grade_id; None for a cell that is not a check.

    >>> exercises_of("check_to_hex"), exercises_of("check_merge-2"), exercises_of("essay")
    (['to_hex'], ['merge'], None)
    """
    match = CHECK_CELL.fullmatch(grade_id)
    return split_names(match.group("names")) if match else None


def split_names(joined):
    """'to_hex_from_hex' -> ['to_hex', 'from_hex']: the exercise names joined by '_'; None if it is not."""
    if joined in GRADED:
        return [joined]
    for name in GRADED:
        if joined.startswith(name + "_"):
            rest = split_names(joined[len(name) + 1:])
            if rest:
                return [name, *rest]
    return None


def file_problem(result):
    """Why a whole graded file earns nothing (it could not be read or graded, or it is a link), or None."""
    if result.get("linked"):
        return f"not graded: {result['linked']}"
    if result.get("error") and not result["exercises"]:
        return f"the notebook could not be graded: {result['error']}"
    return None


def linked(path, root):
    """Why a file is not the student's own: it, or a folder between submitted/ and it, is a symlink.

    A link can point at a classmate's notebook; its verdict is not written for this student.
    """
    path = Path(path).absolute()
    top = root / SUBMITTED
    while path != top and top in path.parents:
        if path.is_symlink():
            return f"{path.relative_to(top)} is a symbolic link"
        path = path.parent
    return None


def verdict_line(name, verdict, here):
    """The comment an answer cell of notebook `here` gets: the status, the message (and the notebook
    it is from, when another one), then why and the hint."""
    where = f" (in {verdict['notebook']}.ipynb)" if verdict.get("notebook") not in (None, here) else ""
    lines = [f"bpe-grade (sandbox): {name}{where}: {verdict['status']}: {verdict['message']}"]
    if verdict.get("note") and verdict["note"] not in verdict["message"]:
        lines.append(f"why: {verdict['note']}")
    if verdict.get("hint") and verdict["status"] != "pass":
        lines.append(f"hint: {verdict['hint']}")
    return "\n".join(lines)


def cell_score(names, verdicts, max_score, table):
    """A test cell's score: its points shared among its exercises by their weight in the points
    table, each earned only by a pass (a one-exercise cell: all or nothing) or as an override sets."""
    weights = {name: table.get(name, 1) for name in names}
    passed = [name for name in names if verdicts[name]["status"] == "pass"]
    total = sum(weights.values())
    if total == 0:
        return max_score if len(passed) == len(names) else 0.0
    return max_score * sum(earned(verdicts[name], weights[name]) for name in names) / total


def notebook_verdicts(result, names, best):
    """Each exercise's verdict for one notebook's test cell: the best among the student's notebooks
    of the assignment (`best`, as bpe-grade's CSV counts them), else why this notebook has none."""
    if result is None:
        own = dict.fromkeys(names, {"status": "missing", "message": "not handed in"})
    elif file_problem(result):
        own = dict.fromkeys(names, {"status": "error", "message": file_problem(result)})
    else:
        absent = {"status": "missing", "message": "not defined in this notebook"}
        own = {name: result["exercises"].get(name, absent) for name in names}
    return {name: best[name] if name in best and rank(best[name]) <= rank(own[name]) else own[name]
            for name in names}


def best_verdicts(files):
    """{exercise: the best verdict in any of the files, with the notebook it came from}, from
    {notebook: grade_file's result}; files that could not be graded, or are links, count for nothing.

    >>> best_verdicts({"a": {"exercises": {"merge": {"status": "fail"}}},
    ...                "b": {"exercises": {"merge": {"status": "pass"}}}})["merge"]["notebook"]
    'b'
    """
    best = {}
    for notebook, result in sorted(files.items()):
        if file_problem(result):
            continue
        for name, verdict in result["exercises"].items():
            if name not in best or rank(verdict) < rank(best[name]):
                best[name] = {**verdict, "notebook": notebook}
    return best


@dataclass
class Written:
    """What write_scores did, for the lines it prints."""

    scores: int = 0
    created: list = field(default_factory=list)  # submissions that nbgrader had not autograded
    not_checks: set = field(default_factory=set)  # test cells of the instructor's own, left alone
    notes: list = field(default_factory=list)


def write_scores(target, results, table):
    """Write every graded notebook's test-cell scores and answer-cell comments; one transaction.

    `results` are grade_file's dicts. A notebook of the assignment that the student did not hand
    in scores 0; one that is on disk but was not graded in this run is left as it was.
    Returns a Written; GradebookError (one line) when the database refuses, with nothing written.
    """
    api = _nbgrader_api()
    by_place = scored_files(target, results)
    submissions = sorted({(student, assignment) for student, assignment, _ in by_place})
    written = Written()
    try:
        with api.Gradebook(target.url, target.course_id) as gradebook:
            try:
                for student, assignment in submissions:
                    submission = find_or_create(gradebook, api, target, student, assignment, written)
                    write_submission(gradebook, submission, by_place, target, table, written)
                gradebook.db.commit()
            except Exception:
                gradebook.db.rollback()
                raise
            written.notes += others_left(gradebook, submissions)
    except GradebookError:
        raise
    except Exception as e:  # noqa: BLE001  (a locked or read-only database, ...)
        raise GradebookError(f"could not write the gradebook {shown(target.url)}: {one_line(e)}") from e
    written.notes += [f"{'/'.join(place)}.ipynb: {problem}; its check cells score 0"
                      for place, result in by_place.items() if (problem := file_problem(result))]
    written.notes += [f"{path}: not a notebook in submitted/<student>/<assignment>/, so not in the gradebook"
                      for path in target.ignored]
    if written.not_checks:
        written.notes.append(f"test cells that are not check cells, left as nbgrader scored them (grade them "
                             f"by hand): {', '.join(sorted(written.not_checks))}")
    return written


def scored_files(target, results):
    """{(student, assignment, notebook): result} for the graded files the gradebook holds; a file
    reached through a symbolic link carries why it is not the student's own."""
    by_place = {}
    for result in results:
        place = target.places.get(str(result["path"]))
        if place is not None:
            link = linked(result["path"], target.root)
            by_place[place] = {**result, "linked": link} if link else result
    return by_place


def write_submission(gradebook, submission, by_place, target, table, written):
    """Score every notebook of one student's assignment; note the files the assignment lacks."""
    student, assignment = submission.student_id, submission.assignment.name
    mine = {name: result for (s, a, name), result in by_place.items() if (s, a) == (student, assignment)}
    best = best_verdicts(mine)
    for notebook in submission.notebooks:
        place = (student, assignment, notebook.name)
        write_notebook(notebook, place, by_place.get(place), best, target, table, written)
    known = {notebook.name for notebook in submission.notebooks}
    written.notes += [f"{student}/{assignment}/{name}.ipynb is not a notebook of {assignment} in the gradebook: "
                      "it has no cells to score" for name in mine if name not in known]


def find_or_create(gradebook, api, target, student, assignment, written):
    """The student's submission, created (with the student) when nbgrader has not autograded it."""
    try:
        return gradebook.find_submission(assignment, student)
    except api.MissingEntry:
        pass
    gradebook.update_or_create_student(student)
    stamp = target.root / SUBMITTED / student / assignment / "timestamp.txt"
    extra = {}
    if stamp.is_file() and not stamp.is_symlink():
        try:  # the student's own file: read a line's worth, never the whole of whatever it is
            extra["timestamp"] = read_stamp(stamp).strip()
        except ValueError:
            pass
    with warnings.catch_warnings():  # add_submission's SQLAlchemy warnings, as in nbgrader's own autograde
        warnings.simplefilter("ignore")
        try:
            submission = gradebook.add_submission(assignment, student, **extra)
        except (api.InvalidEntry, ValueError):  # a timestamp nbgrader cannot read: the submission without it
            submission = gradebook.add_submission(assignment, student)
    written.created.append(f"{student}/{assignment}")
    return submission


def write_notebook(notebook, place, result, best, target, table, written):
    """Score one submitted notebook's test cells and comment its answer cells."""
    student, assignment, name = place
    if result is None and (target.root / SUBMITTED / student / assignment / f"{name}.ipynb").exists():
        written.notes.append(f"{student}/{assignment}/{name}.ipynb was not graded in this run: "
                             "its scores are left as they were")
        return
    answers = {comment.name: comment for comment in notebook.comments}
    for grade in notebook.grades:
        names = exercises_of(grade.name)
        if names is None:
            written.not_checks.add(f"{assignment}/{name}: {grade.name}")
            continue
        verdicts = notebook_verdicts(result, names, best)
        grade.manual_score = cell_score(names, verdicts, grade.max_score, table)
        grade.needs_manual_grade = False
        written.scores += 1
        for exercise in names:
            comment = answer_cell(answers, exercise)
            if comment is not None:
                comment.manual_comment = verdict_line(exercise, verdicts[exercise], name)
    cap_late_penalty(notebook)


def cap_late_penalty(notebook):
    """Keep nbgrader's late penalty within the notebook's new score, as nbgrader's own
    AssignLatePenalties does: autograde worked the penalty out from the score it had then.

    >>> from types import SimpleNamespace as Row
    >>> notebook = Row(late_submission_penalty=2.0, grades=[Row(manual_score=1.0, auto_score=2.0, extra_credit=None)])
    >>> cap_late_penalty(notebook); notebook.late_submission_penalty
    1.0
    """
    penalty = notebook.late_submission_penalty
    if penalty is None:
        return
    now = sum(grade_score(grade) for grade in notebook.grades)
    if penalty > now:
        notebook.late_submission_penalty = now


def grade_score(grade):
    """A grade row's score as nbgrader counts it (Grade.score): the manual score if set, else the
    autograde score, plus extra credit; worked out here because the row is not saved yet."""
    score = grade.manual_score if grade.manual_score is not None else grade.auto_score
    if score is None:
        return 0.0
    return score + (grade.extra_credit or 0.0)


def answer_cell(answers, exercise):
    """The answer cell's comment row for an exercise: the cell named after it, or after one of the
    functions it is made of (save_load: save_merges, load_merges)."""
    for name in (exercise, *REGISTRY[exercise].uses) if exercise in REGISTRY else (exercise,):
        if name in answers:
            return answers[name]
    return None


def others_left(gradebook, graded):
    """A note naming the submissions of the same assignments that this run did not score."""
    graded = set(graded)
    assignments = {assignment for _, assignment in graded}
    left = sorted(f"{s.student_id}/{a}" for a in assignments
                  for s in gradebook.find_assignment(a).submissions if (s.student_id, a) not in graded)
    if not left:
        return []
    return [f"not graded in this run, so their scores are what nbgrader's autograde or an earlier "
            f"--gradebook run wrote: {', '.join(left)}"]


def write_gradebook(target, results, table, out):
    """write_scores, then one line of what was written (and its notes) on `out`; False on failure."""
    try:
        written = write_scores(target, results, table)
    except GradebookError as e:
        say(f"bpe-grade: error: {e}", out)
        return False
    created = f"; created {len(written.created)} not yet autograded ({', '.join(written.created)})" \
        if written.created else ""
    say(f"gradebook: {written.scores} test-cell scores written to {shown(target.url)}{created}", out)
    for note in written.notes:
        say(f"  note: {note}", out)
    return True
