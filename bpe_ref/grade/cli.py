"""bpe-grade: grade learners' notebooks and .py files from the command line.

    bpe-grade alice.ipynb bob.py                 a table per file
    bpe-grade submissions/ --csv class.csv --feedback feedback/
                                                 a class: one row and one feedback page per student
    bpe-grade drill.ipynb --json                 machine-readable

A folder stands for every .ipynb and .py file under it. Files under submissions/<student>/ or
nbgrader's submitted/<student>/<assignment>/ belong to that student (see classroom.py).

Exit status 0 only when every exercise found in every file passes and at least one was found.
"""

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor

from .classroom import class_results, cores, find_submissions, print_scores, with_points, write_csv
from .points import load_points
from .similarity import similarity_sections
from .submission import grade_file  # noqa: F401  (the public entry point, used by _grade)

WIDTH = 16


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="bpe-grade", description="Grade BPE exercises in notebooks and .py files.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a .ipynb or .py submission, or a folder of them")
    parser.add_argument("--json", action="store_true", help="print a JSON list, one object per file, with points")
    parser.add_argument("--csv", metavar="FILE",
                        help="write one row per student: score, maximum, each exercise's status and points")
    parser.add_argument("--points", metavar="FILE",
                        help='a JSON object of points per exercise, e.g. {"train": 5}, over the default table')
    parser.add_argument("--feedback", metavar="DIR",
                        help="write an HTML page per student and a class page (DIR/index.html)")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                        help="time allowed per exercise and per notebook cell (default 10)")
    parser.add_argument("--jobs", type=int, default=cores(), metavar="N",
                        help=f"submissions graded at once (default: every core, here {cores()})")
    parser.add_argument("--memory", type=int, default=2048, metavar="MB",
                        help="memory limit of each submission's process (default 2048)")
    parser.add_argument("--similarity", nargs="?", const=True, metavar="CSV",
                        help="also compare each exercise's code between students and with the course's solutions "
                             "(read, never run): a CSV (default: beside --csv, in --feedback, or ./similarity.csv) "
                             "and a section on the class page")
    parser.add_argument("--similarity-threshold", type=float, metavar="SCORE",
                        help="report pairs scoring at least this, from 0 to 1 (default 0.6)")
    options = parser.parse_args(argv)
    try:
        options.paths = find_submissions(options.paths)
        options.table = load_points(options.points)
    except ValueError as e:
        parser.error(str(e))
    if options.jobs < 1:
        parser.error(f"--jobs must be 1 or more, not {options.jobs}")
    if options.similarity_threshold is not None and not 0 < options.similarity_threshold <= 1:
        parser.error(f"--similarity-threshold must be above 0 and at most 1, not {options.similarity_threshold}")
    return options


def grade_all(paths, timeout, memory, jobs):
    """Grade every path, one process per submission, `jobs` at a time; results in input order."""
    args = [(p, timeout, memory) for p in paths]
    if jobs == 1 or len(paths) == 1:
        yield from (_grade(a) for a in args)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_grade, args)


def _grade(args):
    """grade_file, but a grader failure on one file becomes that file's error, not the batch's."""
    try:
        return grade_file(*args)
    except Exception as e:  # noqa: BLE001
        message = f"the grader could not grade this file: {type(e).__name__}: {e}"
        return {"path": str(args[0]), "passed": False, "exercises": {}, "notes": [message], "error": message}


def print_table(result, out=sys.stdout):
    print(result["path"], file=out)
    for name, ex in result["exercises"].items():
        print(f"  {name:<{WIDTH}} {ex['status']:<9} {ex['message']}", file=out)
        if ex["status"] in ("fail", "error") and ex.get("note") and ex["note"] not in ex["message"]:
            print(f"  {'':<{WIDTH}} {'':<9} why: {ex['note']}", file=out)
        if ex["status"] in ("fail", "error") and ex.get("hint"):
            print(f"  {'':<{WIDTH}} {'':<9} hint: {ex['hint']}", file=out)
    for note in result["notes"]:
        print(f"  note: {note}", file=out)
    found = len(result["exercises"])
    passed = sum(ex["status"] == "pass" for ex in result["exercises"].values())
    print(f"  => {passed}/{found} exercises pass" if found else "  => no exercise found", file=out)


def main(argv=None):
    options = parse_args(sys.argv[1:] if argv is None else argv)
    results = []
    for i, result in enumerate(grade_all(options.paths, options.timeout, options.memory, options.jobs), 1):
        results.append(result)
        if not options.json:
            print_table(result)
        elif len(options.paths) > 1 and sys.stderr.isatty():
            print(f"[{i}/{len(options.paths)}] {result['path']}", file=sys.stderr)
    book = class_results(results, options.table)
    if options.json:
        print(json.dumps([with_points(r, options.table) for r in results], indent=2, ensure_ascii=False))
    elif len(book.rows) > 1 or any(row.is_student for row in book.rows):
        print_scores(book, sys.stdout)
    if options.csv:
        write_csv(book, options.csv)
    sections = similarity_sections(book, options) if options.similarity else []
    if options.feedback:
        from .feedback import write_feedback  # matplotlib: only when pages are wanted

        written = write_feedback(book, options.feedback, sections)
        print(f"feedback: {written[0]} and {len(book.rows)} student pages in {written[-1].parent}", file=sys.stderr)
    ok = all(r["passed"] for r in results) and any(r["exercises"] for r in results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
