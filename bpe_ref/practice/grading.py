"""Grade a drill, print the table and the time, and record the attempt in the history.

The drill is graded by bpe_ref.grade's `grade_file`, exactly as bpe-grade grades it: the saved
file, in one sandbox process, every exercise of the drill's level (told by the level's steps in the
drill, see bpe_ref.grade.reading.course_copy; an unwritten one is `missing`, save/load included). This module adds what the grader does not know about drills:
the minutes since `bpe-practice new`, and the history record.
"""

import sys
from pathlib import Path

from ..grade.cli import print_table
from ..grade.outputs import say
from ..grade.reading.source import UnreadableSubmission, names_in, read_submission
from ..grade.walls import isolation
from ..grade.submission import grade_file
from .history import HISTORY_NAME, append_attempt
from .workbook import PracticeError, drill_info, now


# ---------------------------------------------------------------------------- grading

def grade_drill(path, timeout=10.0, out=None, folder="practice"):
    """Grade the drill at `path`, print the table, record the attempt; returns (result, record).

    A drill with nothing written yet (every exercise missing) is not an attempt: nothing is
    recorded, and record is None. `folder` is only for messages (where the drills are looked for)."""
    out = out or sys.stdout
    path = Path(path)
    if not path.is_file():
        raise PracticeError(f"no drill at {path}: check the name, or run `bpe-practice grade` without one "
                            f"to grade the newest drill in {Path(folder)}/")
    info = drill_info(path)
    result = grade_file(path, timeout, isolated=isolation.status()[0])  # behind the walls where they exist
    if result.get("error"):
        raise PracticeError(result["error"])
    statuses = [ex["status"] for ex in result["exercises"].values()]
    print_table(result, out=out)
    if all(status == "missing" for status in statuses):
        print(f"  nothing written yet, so nothing was recorded in {path.parent / HISTORY_NAME}", file=out)
        return result, None
    record = append_attempt(path.parent, attempt_record(path, info, statuses), out=sys.stderr)
    print(summary_line(record), file=out)
    return result, record


def attempt_record(path, info, statuses):
    """The history record of one attempt (append_attempt adds its number)."""
    moment = now()
    minutes = None
    if info["started"] is not None:
        minutes = round(max(0.0, (moment - info["started"]).total_seconds() / 60), 1)
    passed, total = statuses.count("pass"), len(statuses)
    return {"date": moment.date().isoformat(), "time": moment.isoformat(timespec="seconds"),
            "file": path.name, "level": info["level"], "minutes": minutes,
            "passed": passed, "total": total, "all_green": total > 0 and passed == total}


def summary_line(record):
    """'attempt 2 after 23.4 minutes: 6/6, all green!' (the line under the table)."""
    when = "" if record["minutes"] is None else f" after {record['minutes']:.1f} minutes"
    verdict = "all green!" if record["all_green"] else f"{record['total'] - record['passed']} to go"
    return f"  attempt {record['attempt']}{when}: {record['passed']}/{record['total']}, {verdict}"


# ---------------------------------------------------------------------------- in the notebook

def check_drill(file_name, namespace=None, timeout=10.0):
    """The drill's last cell: grade the SAVED drill `file_name` (relative to the kernel's folder).

    The kernel cannot see the notebook on disk, and the grader reads only the saved file. So,
    when `namespace` (the notebook's globals()) is given, first compare each function the kernel
    has with the saved cells: if they differ, the file is stale and nothing is graded or recorded.
    """
    path = Path(file_name)
    if not path.is_file():
        print(f"Cannot find {file_name} from {Path.cwd()}: the kernel is not running in the drill's folder. "
              f"Grade it from a terminal instead: bpe-practice grade path/to/{path.name}")
        return None
    stale = unsaved_functions(path, namespace or {})
    if stale:
        print(f"⚠ {', '.join(stale)}: what you ran differs from the saved file. "
              "Save (Ctrl-S), run your cells again, then this one (restart the kernel if you deleted "
              "a cell that defined it). Nothing was recorded.")
        return None
    try:
        grade_drill(path, timeout)
    except PracticeError as e:
        say(e)
    return None


def unsaved_functions(path, namespace):
    """Names of the kernel's functions whose source is not in the saved drill.

    Only names that matter are compared: the level's exercises and the functions the saved file
    defines (a helper the learner deleted long ago, still alive in the kernel, is left alone).
    """
    import inspect

    try:
        cells, _ = read_submission(path)
    except UnreadableSubmission:
        return []
    saved = "\n".join(cell["source"] for cell in cells)
    wanted = set(drill_info(path)["exercises"]) | {"save_merges", "load_merges"}
    wanted |= {name for cell in cells for name in names_in(cell["source"])}
    stale = []
    for name, obj in namespace.items():
        if name not in wanted or not inspect.isfunction(obj) or obj.__module__ != "__main__":
            continue
        try:
            source = inspect.getsource(obj)
        except (OSError, TypeError):
            continue
        if source.strip() not in saved:
            stale.append(name)
    return sorted(stale)
