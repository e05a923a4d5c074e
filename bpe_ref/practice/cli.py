"""bpe-practice: the weekly drill from the command line.

    bpe-practice new [--level words|naive|regex|full] [--dir DIR]
                                                 a blank, dated drill in DIR (practice/)
    bpe-practice grade [FILE] [--dir DIR]        grade FILE, or the newest drill in DIR
    bpe-practice history [--dir DIR] [--plot [FILE.png]]
                                                 best times, streak, last attempts

Exit status: 0 on success (for grade: every exercise passes), 1 when some exercise does not
pass, 2 for a user error (no drill found, unreadable file, bad option), with a one-line message.
"""

import argparse
import sys
from datetime import date
from pathlib import Path

from .grading import grade_drill
from .history import HISTORY_NAME, format_history, read_history
from .levels import LEVELS
from .workbook import PracticeError, new_drill, newest_drill, now

DEFAULT_DIR = "practice"
PLOT_NAME = "history.png"


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="bpe-practice", description="The weekly BPE drill.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    new = commands.add_parser("new", help="write a blank, dated drill workbook")
    new.add_argument("--level", choices=list(LEVELS), default="naive", help="what to write (default naive)")
    add_dir(new)

    grade = commands.add_parser("grade", help="grade a drill and record the attempt")
    grade.add_argument("file", nargs="?", metavar="FILE", help="the drill (default: the newest in DIR)")
    add_dir(grade)
    grade.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                       help="time allowed per exercise and per notebook cell (default 10)")

    history = commands.add_parser("history", help="best times, streak and last attempts")
    add_dir(history)
    history.add_argument("--plot", metavar="FILE.png", nargs="?", const=PLOT_NAME,
                         help=f"also draw minutes to all green per ISO week (default file: DIR/{PLOT_NAME})")
    history.add_argument("--today", type=date.fromisoformat, help=argparse.SUPPRESS)  # tests, docs
    return parser.parse_args(argv)


def add_dir(parser):
    parser.add_argument("--dir", default=DEFAULT_DIR, metavar="DIR",
                        help=f"where drills and {HISTORY_NAME} live (default {DEFAULT_DIR}/)")


def cmd_new(options):
    path = new_drill(options.dir, options.level)
    print(f"wrote {path}")
    print(f"open it in Jupyter, write the {options.level} tokenizer in the empty cell, "
          "save, and run the last cell (or `bpe-practice grade`)")
    return 0


def cmd_grade(options):
    path = Path(options.file) if options.file else newest_drill(options.dir)
    result, _ = grade_drill(path, options.timeout, folder=options.dir)
    return 0 if result["passed"] else 1


def cmd_history(options):
    records = read_history(options.dir)
    today = options.today or now().date()
    print(format_history(records, today, where=str(Path(options.dir) / HISTORY_NAME)))
    if options.plot:
        from .plot import plot_history
        target = Path(options.dir) / PLOT_NAME if options.plot == PLOT_NAME else Path(options.plot)
        try:
            plot_history(records, target)
        except OSError as e:
            raise PracticeError(f"cannot write {target}: {e.strerror or e}") from e
        print(f"\nwrote {target}")
    return 0


COMMANDS = {"new": cmd_new, "grade": cmd_grade, "history": cmd_history}


def main(argv=None):
    """Run one command; returns the exit status (the console script passes it to sys.exit)."""
    options = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return COMMANDS[options.command](options)
    except PracticeError as e:
        print(f"bpe-practice: {e}", file=sys.stderr)
        return 2
