"""The class roster: who each student folder is (login -> student id, name, section).

A roster is a CSV file with a header row; `login` is the folder name a student's work is in:

    login,student_id,name,section
    asmith,20231234,Ann Smith,A
"""

import csv
from dataclasses import dataclass
from pathlib import Path

REQUIRED = ("login", "student_id", "name")
OPTIONAL = ("section",)


@dataclass(frozen=True)
class Person:
    login: str
    student_id: str
    name: str
    section: str = ""
    canvas_id: str = ""  # Canvas's own user id, from its submissions download
    email: str = ""  # from Gradescope's export


def read_table(path, what, required, optional=()):
    """The rows of a CSV file as dicts of stripped strings, its header checked; ValueError (one
    line) saying what to fix."""
    path = Path(path)
    example = ",".join(required + optional)
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            reader = csv.DictReader(f)
            header = [name.strip().lower() for name in reader.fieldnames or []]
            missing = [name for name in required if name not in header]
            if missing:
                raise ValueError(f"the {what} {path} has no {', '.join(missing)} column; "
                                 f"its first line must be a header such as {example}")
            reader.fieldnames = header
            rows = [{k: (v or "").strip() for k, v in row.items() if k} for row in reader]
    except OSError as e:
        raise ValueError(f"cannot read the {what} {path}: {e.strerror or e}") from e
    except UnicodeDecodeError as e:
        raise ValueError(f"the {what} {path} is not UTF-8 text (byte {e.start}); save it as CSV UTF-8") from e
    except csv.Error as e:
        raise ValueError(f"the {what} {path} is not a valid CSV file: {e}") from e
    return rows


def read_roster(path):
    """{login: Person} from a roster CSV; ValueError (one line) for a bad file."""
    people = {}
    for line, row in enumerate(read_table(path, "roster", REQUIRED, OPTIONAL), 2):
        empty = [name for name in REQUIRED if not row.get(name)]
        if empty:
            raise ValueError(f"the roster {path}, line {line}: no {', '.join(empty)}")
        if row["login"] in people:
            raise ValueError(f"the roster {path}, line {line}: the login {row['login']!r} is listed twice")
        people[row["login"]] = Person(row["login"], row["student_id"], row["name"], row.get("section", ""))
    if not people:
        raise ValueError(f"the roster {path} lists no student")
    return people


def person_of(roster, login):
    """The roster's Person for a student folder (by login, else by a full name the roster lists
    once, as Moodle's download names its folders), or one made of the folder name alone."""
    if roster and login in roster:
        return roster[login]
    named = [person for person in (roster or {}).values() if person.name == login]
    return named[0] if len(named) == 1 else Person(login, "", "")


def merged(roster, people):
    """The roster, with what a download knows of each student filled in where the roster is silent
    (a download's people stand alone when no roster is given); None when neither says anything."""
    if not roster and not people:
        return None
    out = dict(roster or {})
    for login, known in (people or {}).items():
        listed = person_of(roster, login) if roster else None
        if listed is None or not listed.student_id and not listed.name:
            out[login] = known
        else:
            out[login] = Person(listed.login, listed.student_id, listed.name, listed.section,
                                listed.canvas_id or known.canvas_id, listed.email or known.email)
    return out
