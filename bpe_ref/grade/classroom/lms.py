"""Grades for the LMS: a CSV in the columns of Canvas's or Moodle's grade import.

Canvas (Grades > Import): its gradebook export's columns Student, ID, SIS User ID, SIS Login ID,
Section, then one column per assignment; a "Points Possible" row under the header is allowed.
Canvas matches a row by ID, SIS User ID or SIS Login ID: the roster's student id and login go in
the SIS columns (Canvas's own ID is left empty).

Moodle (Grades > Import > CSV file): any columns, mapped at import time; one identifies the user
("ID number" or "Username") and one holds the grade item's grade. Here: ID number, Username,
Full name, the assignment's column, and Feedback (overrides and late penalties, for the record).

The assignment's column name is the instructor's (--lms-column): it must match the LMS's item.

No row the LMS could give to the wrong student is ever written. Moodle's importer skips the user
look-up on a blank identifier but keeps the previous line's user, so that grade lands on the
previous student; Canvas falls back from ID to SIS ids to the name. A student with no identifier
(no roster student id, and for Canvas no user id from its download) refuses the export with a
line naming them, or with --lms-skip-unknown is left out with a warning. --lms-points scales
the scores to the LMS assignment's points, and Canvas's Points Possible row says the same.
"""

from ..outputs import csv_writer
from .results import atomic_text
from .points import show_points
from .roster import person_of

SYSTEMS = ("canvas", "moodle")


def feedback_of(book, row):
    """Overrides' comments and the late penalty, for Moodle's feedback column."""
    parts = [f"{name}: {row.exercises[name]['override']['comment']}" for name in book.columns
             if row.exercises[name].get("override")]
    if book.penalty(row):
        parts.append(book.late[row.name].describe(book.due))
    return "; ".join(parts)


def identified(roster, student, system):
    """Whether the LMS can find this student: Canvas by its user id or a roster's student id,
    Moodle by the roster's ID number."""
    person = person_of(roster, student)
    return bool(person.student_id.strip() or system == "canvas" and person.canvas_id.strip())


def check_identified(roster, students, system, skip_unknown=False, warn=None):
    """The students (logins, in order) the LMS can identify; ValueError (one line naming the
    first other) unless `skip_unknown`, which leaves them out and calls `warn` with a line each.
    Run before grading, and again on the rows written."""
    unknown = [student for student in students if not identified(roster, student, system)]
    what = "user id or student id" if system == "canvas" else "ID number"
    if unknown and not skip_unknown:
        raise ValueError(f"--lms {system}: {unknown[0]} has no {what} (not in the roster?), and "
                         f"a blank identifier would put the grade on another student; add them to --roster, "
                         f"or pass --lms-skip-unknown to leave {len(unknown)} such student(s) out")
    for student in unknown:
        if warn:
            warn(f"warning: {student} is left out of the {system} CSV: no {what}")
    return [student for student in students if student not in unknown]


def lms_rows(book, system, skip_unknown=False, warn=None):
    """The student rows to export (check_identified on the class's rows)."""
    students = [row for row in book.rows if row.is_student]
    known = set(check_identified(book.roster, [row.name for row in students], system, skip_unknown, warn or print))
    return [row for row in students if row.name in known]


def scaled(book, row, points):
    """The final score, out of `points` when given (the LMS assignment's worth), else raw."""
    score = book.final_score(row)
    if points is None or not book.maximum:
        return round(score, 2)
    return round(score * points / book.maximum, 2)


# TODO(lead): cells that begin a formula (=, +, -, @, tab, CR; issue 29, item 4) go through helper T's
# shared neutralising writer once it is on main; it was not when this module was written.
def write_lms(book, path, system, column, points=None, skip_unknown=False, warn=None):
    """Write the grade-import CSV for `system` ("canvas" or "moodle"): one line per student the
    LMS can identify (loose files are not students and are left out); scores out of `points`
    when given, else out of the assignment's maximum."""
    students = lms_rows(book, system, skip_unknown, warn)
    possible = points if points is not None else book.maximum
    with atomic_text(path) as f:
        writer = csv_writer(f)
        if system == "canvas":
            writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", column])
            writer.writerow(["Points Possible", "", "", "", "", show_points(possible)])
            for row in students:
                person = person_of(book.roster, row.name)
                login = person.login if person.student_id else ""  # a SIS login only from the roster
                writer.writerow([person.name or row.name, person.canvas_id, person.student_id, login,
                                 person.section, show_points(scaled(book, row, points))])
        else:
            writer.writerow(["ID number", "Username", "Full name", column, "Feedback"])
            for row in students:
                person = person_of(book.roster, row.name)
                writer.writerow([person.student_id, person.login if person.student_id else "", person.name or row.name,
                                 show_points(scaled(book, row, points)), feedback_of(book, row)])
