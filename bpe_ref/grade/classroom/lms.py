"""Grades for the LMS: a CSV in the columns of Canvas's or Moodle's grade import.

Canvas (Grades > Import): its gradebook export's columns Student, ID, SIS User ID, SIS Login ID,
Section, then one column per assignment; a "Points Possible" row under the header is allowed.
Canvas matches a row by ID, SIS User ID or SIS Login ID: the roster's student id and login go in
the SIS columns (Canvas's own ID is left empty).

Moodle (Grades > Import > CSV file): any columns, mapped at import time; one identifies the user
("ID number" or "Username") and one holds the grade item's grade. Here: ID number, Username,
Full name, the assignment's column, and Feedback (overrides and late penalties, for the record).

The assignment's column name is the instructor's (--lms-column): it must match the LMS's item.
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


def write_lms(book, path, system, column):
    """Write the grade-import CSV for `system` ("canvas" or "moodle"): one line per student row
    (loose files are not students and are left out)."""
    students = [row for row in book.rows if row.is_student]
    with atomic_text(path) as f:
        writer = csv_writer(f)
        if system == "canvas":
            writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", column])
            writer.writerow(["Points Possible", "", "", "", "", show_points(book.maximum)])
            for row in students:
                person = person_of(book.roster, row.name)
                writer.writerow([person.name or row.name, "", person.student_id, person.login, person.section,
                                 show_points(book.final_score(row))])
        else:
            writer.writerow(["ID number", "Username", "Full name", column, "Feedback"])
            for row in students:
                person = person_of(book.roster, row.name)
                writer.writerow([person.student_id, person.login, person.name or row.name,
                                 show_points(book.final_score(row)), feedback_of(book, row)])
