"""LMS downloads read as they come: who handed in each file, and when, where the download says.

    Canvas     "Download submissions": a zip (or its unzipped folder) of files named
               lastnamefirstname[_LATE]_userid_attachmentid_name.ipynb (a resubmission: name-1.ipynb)
    Gradescope "Export submissions": submission_NNN/ folders and submission_metadata.yml, which
               names each folder's submitters and its time (:created_at:)
    Moodle     "Download all submissions": a folder per student, Full Name_12345_assignsubmission_file_

Each gives Found files with their student and, where the download has one, the submission time;
and a Person per student (name, ids) that a roster, when given, overrides. Nothing in a download
is trusted beyond naming: a zip's links, absolute paths and `..` are refused, and its size is bounded.
"""

import atexit
import os
import re
import shutil
import stat
import tempfile
import zipfile
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from .late import parse_time
from .roster import Person

CANVAS_NAME = re.compile(r"^(?P<login>[a-z0-9]+?)(?P<late>_LATE)?_(?P<user>\d+)_(?P<attachment>\d+)_(?P<name>.+)$")
RESUBMITTED = re.compile(r"-\d+$")  # Canvas adds -1, -2 to a file handed in again under the same name
MOODLE_FOLDER = re.compile(r"^(?P<name>.+)_(?P<id>\d+)_assign(?:submission|feedback)_[a-z]+_?$")
SUFFIXES = (".ipynb", ".py")
MAX_ZIP_BYTES = 1 << 30  # a class's zip unpacks to at most 1 GiB ...
MAX_ZIP_FILES = 20_000  # ... in at most this many files


@dataclass
class Download:
    """What a download says: the files (results.Found), their times, and who each student is."""

    kind: str
    found: list = field(default_factory=list)
    times: dict = field(default_factory=dict)  # path -> aware datetime
    people: dict = field(default_factory=dict)  # student -> roster.Person
    notes: dict = field(default_factory=dict)  # student -> lines (Canvas's LATE mark)


def read_download(path):
    """The Download at `path` (a Canvas zip or folder, a Gradescope export, a Moodle folder), or
    None when it is none of these; ValueError (one line) for a download that cannot be read."""
    path = Path(path)
    if path.is_file() and path.suffix == ".zip":
        return read_canvas(unzip(path))
    if not path.is_dir() or path.is_symlink():
        return None
    if (path / "submission_metadata.yml").is_file():
        return read_gradescope(path)
    entries = [e for e in path.iterdir() if not e.name.startswith(".")]
    if entries and all(e.is_dir() and MOODLE_FOLDER.match(e.name) for e in entries):
        return read_moodle(path, entries)
    files = [e for e in entries if e.is_file() and e.suffix in SUFFIXES]
    if files and all(CANVAS_NAME.match(e.name) for e in files):
        return read_canvas(path)
    return None


def unzip(archive):
    """Unpack a zip into a private temporary folder (removed when the run ends): regular files
    only, no absolute path or `..`, at most MAX_ZIP_FILES files and MAX_ZIP_BYTES bytes."""
    try:
        bundle = zipfile.ZipFile(archive)
    except (OSError, zipfile.BadZipFile) as e:
        raise ValueError(f"{archive}: not a zip file that can be read ({e}); download it again") from e
    folder = Path(tempfile.mkdtemp(prefix="bpe-grade-download-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    with bundle:
        members = [m for m in bundle.infolist() if not m.is_dir()]
        if len(members) > MAX_ZIP_FILES or sum(m.file_size for m in members) > MAX_ZIP_BYTES:
            raise ValueError(f"{archive}: more than {MAX_ZIP_FILES} files or {MAX_ZIP_BYTES >> 20} MB unpacked; "
                             "unzip it yourself and grade the folder")
        for member in members:
            name = Path(member.filename)
            kind = stat.S_IFMT(member.external_attr >> 16)
            if name.is_absolute() or ".." in name.parts or kind not in (0, stat.S_IFREG):
                continue  # a link or a path out of the folder: never unpacked
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with bundle.open(member) as source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)
            moment = datetime(*member.date_time).timestamp()  # the time the zip recorded, not now
            os.utime(target, (moment, moment))
    return folder


def read_canvas(folder):
    """Canvas's submissions: a student per user id (named by Canvas's lastnamefirstname), each
    file copied under its own name again (`_LATE` and the ids taken off, a resubmission's -1
    too) into a private folder per student, so the grader sees 04_naive_bpe.ipynb as handed in."""
    from .results import Found  # results does not import this module

    download = Download("canvas")
    logins, copies = {}, Path(tempfile.mkdtemp(prefix="bpe-grade-canvas-"))
    atexit.register(shutil.rmtree, copies, ignore_errors=True)
    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file() and not p.is_symlink()):
        match = CANVAS_NAME.match(path.name)
        if not match or Path(match["name"]).suffix not in SUFFIXES:
            continue
        user = match["user"]
        login = logins.setdefault(user, unique(match["login"], user, logins))
        download.people[login] = Person(login, "", "", canvas_id=user)
        name = resubmitted(match["name"])
        target = copies / login / name
        if target.exists():
            target = copies / login / match["name"]
        target.parent.mkdir(exist_ok=True)
        shutil.copy2(path, target)  # its time too: which of two files counts may depend on it
        download.found.append(Found(str(target), login))
        if match["late"]:
            download.notes.setdefault(login, []).append(f"Canvas marked {name} LATE")
    if not download.found:
        raise ValueError(f"{folder}: no .ipynb or .py file named as Canvas names them (name_userid_id_file)")
    return download


def resubmitted(name):
    """The name a learner gave a file, without the -1 Canvas adds to a resubmission.

    >>> resubmitted("04_naive_bpe-1.ipynb")
    '04_naive_bpe.ipynb'
    """
    path = Path(name)
    return RESUBMITTED.sub("", path.stem) + path.suffix


def unique(login, user, logins):
    """Canvas's login for a user id, with the id added when another user has the same one."""
    return f"{login}_{user}" if login in logins.values() else login


def read_gradescope(folder):
    """Gradescope's export: submission_metadata.yml names each submission folder's submitters
    (name, sid, email) and its time; the student is the first submitter's sid (else email)."""
    from .results import Found, walk

    download = Download("gradescope")
    for key, entry in read_metadata(folder / "submission_metadata.yml").items():
        place = folder / str(key)
        if not isinstance(entry, dict) or not place.is_dir() or place.is_symlink():
            continue
        people = entry.get(":submitters") or entry.get("submitters") or []
        first = people[0] if people and isinstance(people[0], dict) else {}
        sid = str(first.get(":sid") or first.get("sid") or "").strip()
        email = str(first.get(":email") or first.get("email") or "").strip()
        name = str(first.get(":name") or first.get("name") or "").strip()
        student = sid or email or str(key)
        download.people[student] = Person(student, sid, name, email=email)
        created = entry.get(":created_at") or entry.get("created_at")
        when = parse_time(str(created), f"{folder}/submission_metadata.yml, {key}") if created else None
        for found in walk(place):
            download.found.append(Found(found.path, student, found.problem))
            if when:
                download.times[found.path] = when
    if not download.found:
        raise ValueError(f"{folder}: its submission_metadata.yml names no submission folder with a file to grade")
    return download


def read_metadata(path):
    """The submission_metadata.yml mapping (Ruby-style :keys are read as plain keys with a colon)."""
    try:
        import yaml
    except ImportError:
        raise ValueError(f"{path}: reading a Gradescope export needs PyYAML (pip install pyyaml)") from None
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise ValueError(f"{path}: not a YAML file that can be read ({e})") from e
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected one mapping of submission folders, as Gradescope writes it")
    return data


def read_moodle(folder, entries):
    """Moodle's download: one folder per student, `Full Name_participantid_assignsubmission_file_`;
    the student is the full name (the roster maps it to an ID number)."""
    from .results import Found, walk

    download = Download("moodle")
    for entry in sorted(entries):
        match = MOODLE_FOLDER.match(entry.name)
        name = match["name"]
        student = name if name not in download.people else f"{name} ({match['id']})"
        download.people[student] = Person(student, "", name)
        download.found += [Found(f.path, student, f.problem) for f in walk(entry)]
    return download
