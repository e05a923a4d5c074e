"""The drill history: an append-only JSON Lines file, `history.jsonl`, next to the drills.

One line per graded attempt:
    {"date": "2026-11-22", "time": "2026-11-22T10:41:07+01:00", "file": "2026-11-22-naive.ipynb",
     "level": "naive", "minutes": 23.4, "passed": 6, "total": 6, "attempt": 2, "all_green": true}

Keeping it safe: the file is only ever appended to, never rewritten. Each record is ONE write()
of a full line, flushed and fsync'ed, under an exclusive flock (where the OS has one) so that
concurrent `grade` runs neither interleave nor lose records, and the attempt number is counted
under the same lock. A line that is not a valid record (corrupt, hand-edited) is reported with
its line number and skipped when reading; it stays in the file untouched.
"""

import json
import os
import sys
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no flock; appends of one short line are still atomic in practice
    fcntl = None

HISTORY_NAME = "history.jsonl"
REQUIRED = {"date": str, "file": str, "level": str, "passed": int, "total": int, "attempt": int,
            "all_green": bool}


def history_path(directory):
    return Path(directory) / HISTORY_NAME


# ---------------------------------------------------------------------------- reading

def problem_with(record):
    """Why a parsed line is not a usable record (None when it is)."""
    if not isinstance(record, dict):
        return f"a JSON {type(record).__name__}, not an object"
    for key, kind in REQUIRED.items():
        value = record.get(key)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f"field {key!r} should be a {kind.__name__}, got {value!r}"
    minutes = record.get("minutes")
    if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, (int, float))):
        return f"field 'minutes' should be a number or null, got {minutes!r}"
    try:
        date.fromisoformat(record["date"])
    except ValueError:
        return f"field 'date' should be YYYY-MM-DD, got {record['date']!r}"
    return None


def parse_history(text):
    """(records, problems) from the file's text; problems are (line number, why) for skipped lines.

    Blank lines are ignored. A last line without its newline is read like any other line.
    """
    records, problems = [], []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as e:
            problems.append((number, f"not valid JSON ({e.msg})"))
            continue
        why = problem_with(record)
        if why:
            problems.append((number, why))
        else:
            records.append(record)
    return records, problems


def report_problems(path, problems, out=None):
    """Tell the learner (on stderr) which lines were skipped, and that they were left alone."""
    out = out or sys.stderr
    for number, why in problems:
        print(f"{path} line {number}: {why}; skipped (the line is left in the file as it is)", file=out)


def read_history(directory, out=None):
    """The valid records of DIR/history.jsonl, oldest first ([] when there is no history yet)."""
    path = history_path(directory)
    try:
        with open(path, encoding="utf-8", errors="replace", newline="") as f:
            text = f.read()
    except FileNotFoundError:
        return []
    records, problems = parse_history(text)
    report_problems(path, problems, out)
    return records


# ---------------------------------------------------------------------------- appending

@contextmanager
def locked(f):
    """Hold an exclusive lock on the open file `f` (a no-op where flock does not exist)."""
    if fcntl is None:
        yield
        return
    fcntl.flock(f.fileno(), fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def append_attempt(directory, record, out=None):
    """Append `record` (without 'attempt') to DIR/history.jsonl; return it with its attempt number.

    Under the lock: read what is there, count the earlier records of the same file, then write
    the new line in one write(), flush and fsync. If the last line lacks its newline (a crash,
    an editor), the new record starts on a line of its own; the old line is not touched.
    """
    path = history_path(directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    created = not path.exists()
    with open(path, "a+", encoding="utf-8", errors="replace", newline="") as f:
        with locked(f):
            f.seek(0)
            text = f.read()
            records, problems = parse_history(text)
            report_problems(path, problems, out)
            attempt = 1 + sum(r["file"] == record["file"] for r in records)
            full = {key: value for key, value in record.items() if key != "all_green"}
            full.update(attempt=attempt, all_green=record["all_green"])
            line = json.dumps(full, ensure_ascii=False) + "\n"
            f.write(line if not text or text.endswith("\n") else "\n" + line)
            f.flush()
            os.fsync(f.fileno())
    if created:
        sync_folder(path.parent)
    return full


def sync_folder(folder):
    """fsync a folder so that a newly created file's name survives a crash (POSIX only)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------- summaries

def iso_week(day):
    """(year, week) of an ISO date string or date: '2026-11-22' -> (2026, 47)."""
    day = date.fromisoformat(day) if isinstance(day, str) else day
    return tuple(day.isocalendar())[:2]


def week_label(week):
    return f"{week[0]}-W{week[1]:02d}"


def first_greens(records):
    """{file: the first all-green record of that drill}: its minutes are the time to all green."""
    found = {}
    for record in records:
        if record["all_green"] and record["file"] not in found:
            found[record["file"]] = record
    return found


def best_times(records):
    """{level: the record with the fewest minutes to all green} over drills that know their minutes."""
    best = {}
    for record in first_greens(records).values():
        if record.get("minutes") is None:
            continue
        level = record["level"]
        if level not in best or record["minutes"] < best[level]["minutes"]:
            best[level] = record
    return best


def previous_week(week):
    monday = date.fromisocalendar(week[0], week[1], 1)
    return iso_week(monday - timedelta(days=7))


def streak(records, today):
    """(n, first week, last week): consecutive ISO weeks with an all-green drill, up to now.

    The current week counts once it has an all-green drill; until then the streak is still
    alive if last week had one (the week is not over yet).
    """
    green_weeks = {iso_week(r["date"]) for r in records if r["all_green"]}
    week = iso_week(today)
    if week not in green_weeks:
        week = previous_week(week)
    last, count = week, 0
    while week in green_weeks:
        count, first = count + 1, week
        week = previous_week(week)
    return (count, first, last) if count else (0, None, None)


# ---------------------------------------------------------------------------- the table

def streak_line(count, first, last):
    if count == 0:
        return "Streak: none running. An all-green drill this week starts one."
    if count == 1:
        return f"Streak: 1 ISO week with an all-green drill ({week_label(last)})"
    return f"Streak: {count} ISO weeks in a row with an all-green drill ({week_label(first)} to {week_label(last)})"


LEVEL_ORDER = ("words", "naive", "regex", "full")


def minutes_text(minutes):
    return "?" if minutes is None else f"{minutes:.1f}"


def format_history(records, today, where=HISTORY_NAME):
    """The text `bpe-practice history` prints: best times, streak, last five attempts."""
    if not records:
        return f"No graded drill in {where} yet. Start one with `bpe-practice new`, then `bpe-practice grade`."
    lines = [f"Weekly drill history: {len(records)} attempts in {where}", "", "Best time to all green"]
    best = best_times(records)
    levels = [lv for lv in LEVEL_ORDER if lv in best or any(r["level"] == lv for r in records)]
    levels += sorted({r["level"] for r in records} - set(levels))
    for level in levels:
        record = best.get(level)
        if record:
            lines.append(f"  {level:<6} {minutes_text(record['minutes']):>6} min  {record['file']}")
        else:
            lines.append(f"  {level:<6} {'-':>6}      not all green yet")
    lines += ["", streak_line(*streak(records, today))]
    lines += ["", "Last 5 attempts",
              f"  {'date':<10}  {'file':<26} {'level':<6} {'try':>3} {'minutes':>7}  result"]
    for r in records[-5:]:
        result = f"{r['passed']}/{r['total']}" + (" all green" if r["all_green"] else "")
        lines.append(f"  {r['date']:<10}  {r['file']:<26} {r['level']:<6} {r['attempt']:>3} "
                     f"{minutes_text(r.get('minutes')):>7}  {result}")
    return "\n".join(lines)
