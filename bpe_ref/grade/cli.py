"""bpe-grade: grade learners' notebooks and .py files from the command line.

    bpe-grade alice.ipynb bob.py                 a table per file
    bpe-grade submissions/ --csv class.csv --feedback feedback/
                                                 a class: one row and one feedback page per student
    bpe-grade drill.ipynb --json                 machine-readable

A folder stands for every .ipynb and .py file under it. Files under submissions/<student>/ or
nbgrader's submitted/<student>/<assignment>/ belong to that student (see classroom/results.py);
an LMS download (Canvas's zip, a Gradescope export, Moodle's folders) is read as it comes
(classroom/downloads.py). The assignment (--assignment, --workbooks) fixes the maximum.

A class run shows one progress line on a terminal, then the scores; --verbose prints every
file's verdicts, as a run on one learner's own files always does.

Each submission runs in its own sandbox (bubblewrap, see isolation.py). Where that cannot run,
one learner's own files are still graded, with a line that says they are not isolated; a class
(a folder of students, or any run with --csv or --feedback) is refused unless --no-isolation.

Exit status 0 only when every exercise found in every file passes and at least one was found.
"""

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from ..core.parallel import default_workers
from .walls import isolation
from .classroom.assignment import RULES, load_assignment
from .classroom.downloads import read_download
from .classroom.results import Found, class_results, find_class, is_class, print_scores, with_points, write_csv
from .classroom.gradebook import open_gradebook, write_gradebook
from .classroom.gradescope import VISIBILITY, write_gradescope
from .classroom.late import LateRule, lateness, parse_rule, parse_time, read_times
from .classroom.lms import SYSTEMS, check_identified, write_lms
from .outputs import json_text, say
from .classroom.overrides import apply_overrides, read_overrides
from .classroom.points import load_points
from .classroom.roster import merged, read_roster
from .similarity.page import similarity_sections
from .walls.sandbox import PROCESSES
from .submission import grade_file  # noqa: F401  (the public entry point, used by _grade)

MIN_MEMORY_MB = 128  # below this Python itself cannot start a submission


@dataclass(frozen=True)
class Limits:
    """What each submission gets: seconds per exercise and per cell, seconds for the whole file,
    megabytes of memory, and whether it runs behind bubblewrap's walls."""

    timeout: float = 10.0
    file_timeout: float = None
    memory: int = 2048
    isolated: bool = False
    run_as: tuple = None  # (uid, gid) a root grader without bubblewrap runs learner code as
    processes: int = PROCESSES  # processes and threads a submission may start (a pool of workers)


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="bpe-grade", description="Grade BPE exercises in notebooks and .py files.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a .ipynb or .py submission, or a folder of them")
    parser.add_argument("--json", action="store_true", help="print a JSON list, one object per file, with points")
    parser.add_argument("--csv", metavar="FILE",
                        help="write one row per student: score, maximum, each exercise's status and points")
    parser.add_argument("--points", metavar="FILE",
                        help='a JSON object of points per exercise, e.g. {"train": 5}, over the default table')
    parser.add_argument("--assignment", metavar="FILE",
                        help='the assignment (JSON): {"workbooks": ["04", "05"], "exercises": {"train": 5}, '
                             '"duplicates": "latest"}; it fixes every route\'s maximum')
    parser.add_argument("--workbooks", metavar="LIST", help="the assignment's workbooks, e.g. 04,05,06")
    parser.add_argument("--exercises", metavar="LIST", help="the assignment's exercises beyond its workbooks'")
    parser.add_argument("--duplicates", choices=RULES,
                        help="two files for one workbook: the latest by submission time counts (default), or the best")
    parser.add_argument("--verbose", action="store_true",
                        help="print every file's verdicts in a class run too (one learner's files: always)")
    parser.add_argument("--feedback", metavar="DIR",
                        help="write an HTML page per student and a class page (DIR/index.html)")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                        help="time allowed per exercise and per notebook cell (default 10)")
    parser.add_argument("--file-timeout", type=float, default=None, metavar="SECONDS",
                        help="wall time allowed for one whole submission (default 20 x --timeout)")
    parser.add_argument("--jobs", type=int, default=default_workers(), metavar="N",
                        help=f"submissions graded at once (default: every core, here {default_workers()})")
    parser.add_argument("--memory", type=int, default=2048, metavar="MB",
                        help="memory limit of each submission's sandbox, all its processes together (default 2048)")
    parser.add_argument("--processes", type=int, default=PROCESSES, metavar="N",
                        help=f"processes and threads a submission may start, e.g. a multiprocessing pool "
                             f"(default {PROCESSES})")
    parser.add_argument("--gradebook", metavar="URL_OR_PATH",
                        help="write each notebook's scores into this nbgrader gradebook (gradebook.db, its "
                             "course folder or a database URL), over nbgrader's own autograde scores")
    parser.add_argument("--similarity", nargs="?", const=True, metavar="CSV",
                        help="also compare each exercise's code between students and with the course's solutions "
                             "(read, never run): a CSV (default: beside --csv, in --feedback, or ./similarity.csv) "
                             "and a section on the class page")
    parser.add_argument("--similarity-threshold", type=float, metavar="SCORE",
                        help="report pairs scoring at least this, from 0 to 1 (default 0.6)")
    parser.add_argument("--gradescope", metavar="FILE",
                        help="write Gradescope's results.json for the files graded (one learner's submission)")
    parser.add_argument("--gradescope-visibility", choices=VISIBILITY, default="visible",
                        help="visibility of every test in --gradescope (default visible)")
    parser.add_argument("--run-as", metavar="USER",
                        help="as root without bubblewrap, run the learner's code as this unprivileged user "
                             "(the Gradescope bundle's way; bubblewrap's sandbox is used instead wherever it runs)")
    parser.add_argument("--roster", metavar="CSV", help="login,student_id,name[,section]: who each student folder is")
    parser.add_argument("--due", metavar="WHEN", help="the due date, e.g. 2026-03-01T17:00+01:00 (UTC if no zone)")
    parser.add_argument("--late", metavar="RULE", help="late penalty with --due, e.g. 10%%/day,max=50%%")
    parser.add_argument("--times", metavar="CSV",
                        help="login,submitted: when each student handed in (default: nbgrader's timestamp.txt)")
    parser.add_argument("--overrides", metavar="CSV",
                        help="student,exercise,score,comment: scores set by hand, applied after grading")
    parser.add_argument("--lms", choices=SYSTEMS, help="with --lms-csv: Canvas's or Moodle's grade-import columns")
    parser.add_argument("--lms-csv", metavar="FILE", help="write the grades for the LMS (needs --lms and --lms-column)")
    parser.add_argument("--lms-column", metavar="NAME", help="the assignment's column name in the LMS")
    parser.add_argument("--lms-points", type=float, metavar="POINTS",
                        help="scale scores to what the LMS assignment is worth, e.g. 100 (default: raw points)")
    parser.add_argument("--lms-skip-unknown", action="store_true",
                        help="leave students with no LMS identifier out of --lms-csv with a warning (default: refuse)")
    parser.add_argument("--no-isolation", action="store_true",
                        help="grade a class without bubblewrap's sandbox, accepting that a submission "
                             "can read and change what the grader's user can")
    options = parser.parse_args(argv)
    problem = option_problem(options)
    if problem:
        parser.error(problem)
    try:
        read_paths(options)
        options.table = load_points(options.points)
        options.assignment = load_assignment(options.assignment, options.points, split_list(options.workbooks),
                                             split_list(options.exercises), options.duplicates)
        if options.assignment:
            options.table = options.assignment.table
        if options.gradebook:
            options.gradebook = open_gradebook(options.gradebook, [f.path for f in options.found])
        read_class_files(options)
    except ValueError as e:
        parser.error(str(e))
    outputs = bool(options.csv or options.feedback or options.gradebook or options.lms_csv)
    # --gradescope alone: Gradescope's one submission, never a class, however its folders are laid out
    options.is_class = outputs or (not options.gradescope and (is_class(options.paths) or options.downloaded))
    isolated, why = (False, "--no-isolation") if options.no_isolation else isolation.status()
    if not isolated and options.is_class and not options.no_isolation:
        parser.error(f"grading a class needs a sandbox per submission, and {why}; "
                     "or pass --no-isolation to grade without one, accepting the risk")
    if not isolated and not options.no_isolation:
        print(f"note: not isolated ({why}): fine for your own work, not for a class", file=sys.stderr)
    if not isolated and options.run_as:
        print(f"note: the learner's code runs as {options.run_as} (uid {options.run_as_ids[0]})", file=sys.stderr)
    options.limits = Limits(options.timeout, options.file_timeout or 20 * options.timeout, options.memory, isolated,
                            None if isolated else options.run_as_ids, options.processes)
    return options


def split_list(text):
    """'04, 05,06' -> ['04', '05', '06']; None for no text."""
    return [part.strip() for part in text.split(",") if part.strip()] if text else None


def read_paths(options):
    """The files to grade: each LMS download read as it comes (its students, times and people),
    every other path as a folder or file (find_class)."""
    options.found, options.file_times, options.people, options.download_notes = [], {}, {}, {}
    options.downloaded = False
    plain = []
    for path in options.paths:
        download = read_download(path)
        if download is None:
            plain.append(path)
            continue
        options.downloaded = True
        options.found += download.found
        options.file_times.update(download.times)
        options.people.update(download.people)
        options.download_notes.update(download.notes)
        print(f"{path}: read as a {download.kind} download, {len(download.people)} students", file=sys.stderr)
    if plain or not options.found:
        options.found += find_class(plain)


def read_class_files(options):
    """Read and check every instructor file (roster, times, overrides, timestamps) before any
    grading; ValueError (one line) for the first problem."""
    options.roster = merged(read_roster(options.roster) if options.roster else None, options.people)
    options.due_at = parse_time(options.due, "--due") if options.due else None
    options.late_rule = parse_rule(options.late) if options.late else None
    if options.due_at and not options.late_rule:
        options.late_rule = LateRule(0.0, "day")  # --due alone: times shown, nothing taken off
    options.submitted = download_times(options.found, options.file_times)
    options.submitted.update(read_times(options.times) if options.times else {})  # the instructor's file wins
    students = {f.student for f in options.found if f.student}
    options.override_list = read_overrides(options.overrides, options.table, students) if options.overrides else []
    options.run_as_ids = isolation.learner_account(options.run_as) if options.run_as else None
    if options.lms_csv:  # a student the LMS could not find is named now, not after grading
        check_identified(options.roster, list(dict.fromkeys(f.student for f in options.found if f.student)),
                         options.lms, options.lms_skip_unknown)


def download_times(found, file_times):
    """{student: the latest time their download gives for any of their files}."""
    times = {}
    for f in found:
        when = file_times.get(f.path)
        if f.student and when and (f.student not in times or when > times[f.student]):
            times[f.student] = when
    return times


def option_problem(options):
    """One line saying what is wrong with the numbers or the output paths, before any grading."""
    if not 0 < options.timeout <= 3600:
        return f"--timeout must be more than 0 and at most 3600 seconds, not {options.timeout:g}"
    if options.file_timeout is not None and not options.timeout <= options.file_timeout <= 24 * 3600:
        return f"--file-timeout must be at least --timeout ({options.timeout:g} s), not {options.file_timeout:g}"
    if not 0 <= options.processes <= 256:
        return f"--processes must be between 0 and 256, not {options.processes}"
    if options.memory < MIN_MEMORY_MB:
        return f"--memory must be at least {MIN_MEMORY_MB} MB, not {options.memory}"
    if options.jobs < 1:
        return f"--jobs must be 1 or more, not {options.jobs}"
    if options.late and not options.due:
        return "--late needs --due (the date the penalty counts from)"
    if bool(options.lms) + bool(options.lms_csv) + bool(options.lms_column) not in (0, 3):
        return "--lms, --lms-csv and --lms-column go together, e.g. --lms canvas --lms-csv grades.csv --lms-column 'PS 4'"
    if options.lms_points is not None and not 0 < options.lms_points <= 100000:
        return f"--lms-points must be above 0 (what the LMS assignment is worth), not {options.lms_points:g}"
    if options.similarity_threshold is not None and not 0 < options.similarity_threshold <= 1:
        return f"--similarity-threshold must be above 0 and at most 1, not {options.similarity_threshold}"
    outputs = [(options.csv, "--csv", False), (options.feedback, "--feedback", True),
               (options.similarity if isinstance(options.similarity, str) else None, "--similarity", False),
               (options.gradescope, "--gradescope", False), (options.lms_csv, "--lms-csv", False)]
    problems = [output_problem(Path(path), flag, folder) for path, flag, folder in outputs if path]
    return next((problem for problem in problems if problem), None)


def output_problem(path, flag, folder):
    """Why `path` cannot be written (checked before grading a whole class), or None."""
    parent = path.parent if str(path.parent) else Path(".")
    if folder and path.exists() and not path.is_dir():
        return f"{flag} {path}: is a file; give a folder for the pages"
    if not folder and path.is_dir():
        return f"{flag} {path}: is a folder; give a file name, e.g. {path / 'class.csv'}"
    if not parent.is_dir():
        return f"{flag} {path}: the folder {parent} does not exist"
    if not os.access(path if path.exists() else parent, os.W_OK):
        return f"{flag} {path}: not writable here"
    return None


def grade_all(found, limits, jobs):
    """Grade every file (Found, or a path), one sandbox per submission, `jobs` at a time; results in
    input order, each with its student."""
    found = [f if isinstance(f, Found) else Found(str(f)) for f in found]
    if jobs == 1 or len(found) == 1:
        yield from (_grade((f, limits)) for f in found)
        return
    # learner code run as another user reads a copy of the allowed packages: made once here and
    # removed when this process ends (a pool process ends without atexit, so its own would stay)
    shared = (isolation.site_copy() if limits.run_as and not limits.isolated else None, isolation.worker_dir())
    pending = found
    while pending:  # a grading process that dies takes only its own file: the rest go to a fresh pool
        with ProcessPoolExecutor(max_workers=jobs, initializer=_share_site, initargs=shared) as pool:
            futures = [pool.submit(_grade, (f, limits)) for f in pending]
            for i, future in enumerate(futures):
                try:
                    result = future.result()
                except BrokenProcessPool:
                    yield _grade_alone(pending[i], limits, shared)
                    pending = pending[i + 1:]
                    break
                yield result
            else:
                pending = []


def _grade_alone(found, limits, shared):
    """_grade in a process of its own (after a pool broke): if that process dies too, the file is
    that student's error, and the class goes on."""
    with ProcessPoolExecutor(max_workers=1, initializer=_share_site, initargs=shared) as pool:
        try:
            return pool.submit(_grade, (found, limits)).result()
        except BrokenProcessPool:
            message = "the grader could not grade this file: its grading process died (memory or a crash)"
            return {"path": found.path, "passed": False, "exercises": {}, "notes": [message], "error": message,
                    "student": found.student}


def _share_site(folder, worker):
    """A pool process's start: the parent's copies, which go when the parent ends (see isolation)."""
    isolation.share_copies(site=folder, worker=worker)


def _grade(args):
    """grade_file, but a grader failure on one file becomes that file's error, not the batch's."""
    found, limits = args
    if found.problem:
        result = {"path": found.path, "passed": False, "exercises": {}, "notes": [found.problem],
                  "error": found.problem}
    else:
        try:
            result = grade_file(found.path, limits.timeout, limits.memory, limits.isolated, limits.file_timeout,
                                limits.run_as, limits.processes)
        except Exception as e:  # noqa: BLE001
            message = f"the grader could not grade this file: {type(e).__name__}: {e}"
            result = {"path": found.path, "passed": False, "exercises": {}, "notes": [message], "error": message}
    return {**result, "student": found.student}


def print_table(result, out=None):
    say(result["path"], out)
    names = result["exercises"]
    width = max([16] + [len(name) for name in names])
    status_width = max([7] + [len(ex["status"]) for ex in names.values()])
    for name, ex in names.items():
        say(f"  {name:<{width}} {ex['status']:<{status_width}} {ex['message']}", out)
        if ex.get("exercise"):  # a method of the learner's class: which course exercise it is
            say(f"  {'':<{width}} {'':<{status_width}} {ex['exercise']}", out)
        if ex["status"] in ("fail", "error") and ex.get("note") and ex["note"] not in ex["message"]:
            say(f"  {'':<{width}} {'':<{status_width}} why: {ex['note']}", out)
        if ex["status"] in ("fail", "error") and ex.get("hint"):
            say(f"  {'':<{width}} {'':<{status_width}} hint: {ex['hint']}", out)
    for note in result["notes"]:
        say(f"  note: {note}", out)
    found = len(names)
    passed = sum(ex["status"] == "pass" for ex in names.values())
    held = " (the file is not passed: part of it did not load or was not graded; see the notes)" \
        if found and passed == found and not result.get("passed") else ""
    say(f"  => {passed}/{found} exercises pass{held}" if found else "  => no exercise found", out)


def print_totals(results, out=None):
    """Self-study: one learner's files, one overall line, then one line per file."""
    graded = [r for r in results if r["exercises"]]
    passed = sum(ex["status"] == "pass" for r in graded for ex in r["exercises"].values())
    found = sum(len(r["exercises"]) for r in graded)
    say(f"Overall: {passed}/{found} exercises pass across {len(graded)} of {len(results)} files", out)
    width = max(len(Path(r["path"]).name) for r in results)
    for r in results:
        done = sum(ex["status"] == "pass" for ex in r["exercises"].values())
        line = f"{done}/{len(r['exercises'])} pass" if r["exercises"] else "no exercise found"
        say(f"  {Path(r['path']).name:<{width}}  {line}", out)


def similarity_or_note(book, options):
    """similarity_sections, or a line saying why there is none: the report must not cost the
    class its pages and gradebook, which are written after it."""
    try:
        return similarity_sections(book, options)
    except (RecursionError, MemoryError, ValueError) as e:
        say(f"similarity: could not be computed ({type(e).__name__}: {e}); the grades are not affected", sys.stderr)
        return []


def graded_with_progress(options):
    """Every file's result, in order. A class on a terminal shows one progress line (files graded
    of the total, elapsed, left, errors so far); --verbose, or one learner's own files, prints each
    file's verdicts instead."""
    total = len(options.found)
    verbose = options.verbose or not options.is_class
    bar = None
    if options.is_class and not verbose and not options.json and sys.stderr.isatty() and total > 1:
        from tqdm import tqdm

        bar = tqdm(total=total, unit="file", file=sys.stderr, dynamic_ncols=True,
                   bar_format="{n}/{total} files graded [{elapsed} elapsed, {remaining} left]{postfix}")
    results, errors = [], 0
    for i, result in enumerate(grade_all(options.found, options.limits, options.jobs), 1):
        results.append(result)
        errors += bool(result.get("error")) or any(ex["status"] == "error" for ex in result["exercises"].values())
        if bar is not None:
            bar.set_postfix_str(f"{errors} with errors", refresh=False)
            bar.update(1)
        elif options.json and total > 1 and sys.stderr.isatty():
            say(f"[{i}/{total}] {result['path']}", sys.stderr)
        elif verbose and not options.json:
            print_table(result, sys.stdout)
    if bar is not None:
        bar.close()
    return results


def class_book(options, results):
    """The class's rows from the verdicts (overrides applied), with the roster, the download's
    notes and the late penalties."""
    results = apply_overrides(results, options.override_list)
    book = class_results(results, options.table, options.assignment, options.file_times)
    book.roster = options.roster
    for row in book.rows:
        row.notes += options.download_notes.get(row.name, [])
    if options.late_rule:
        book.due = options.due_at
        book.late = {row.name: lateness(row, options.due_at, options.late_rule, options.submitted)
                     for row in book.rows if row.is_student}
        for row in book.rows:  # a student's unreadable timestamp.txt is their row's note, not the run's end
            if row.name in book.late and book.late[row.name].problem:
                row.notes.append(book.late[row.name].describe(book.due))
    return results, book


def main(argv=None):
    options = parse_args(sys.argv[1:] if argv is None else argv)
    options.started = time.monotonic()
    results = graded_with_progress(options)
    # every sandbox is gone: what follows is written from the verdicts alone
    results, book = class_book(options, results)
    if options.is_class and not options.json:
        say(book.assignment.describe(), sys.stderr)
    if options.json:
        print(json_text([with_points(r, options.table) for r in results], indent=2))
    elif options.is_class:
        print_scores(book, sys.stdout)
    elif len(results) > 1:
        print_totals(results, sys.stdout)
    if options.csv:
        write_csv(book, options.csv)
        print(f"class CSV: {options.csv}", file=sys.stderr)
    if options.lms_csv:
        try:
            write_lms(book, options.lms_csv, options.lms, options.lms_column, options.lms_points,
                      options.lms_skip_unknown, lambda line: say(line, sys.stderr))
        except ValueError as e:
            say(f"bpe-grade: error: {e}", sys.stderr)
            return 2
        print(f"{options.lms} CSV: {options.lms_csv}", file=sys.stderr)
    if options.gradescope:
        write_gradescope(options.gradescope, results, options.table, options.gradescope_visibility,
                         time.monotonic() - options.started, options.assignment)
    sections = similarity_or_note(book, options) if options.similarity else []
    if options.feedback:
        from .classroom.feedback import write_feedback  # matplotlib: only when pages are wanted

        written = write_feedback(book, options.feedback, sections)
        say(f"feedback: {written[0]} and {len(book.rows)} student pages in {written[-1].parent}", sys.stderr)
    if options.gradebook and not write_gradebook(options.gradebook, results, options.table, sys.stderr):
        return 2
    ok = all(r["passed"] for r in results) and any(r["exercises"] for r in results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
