"""A made-up, reproducible drill history: for docs/drill.md's picture, the docs and the tests.

    python -m bpe_ref.practice.sample docs/img/practice_history.png     redraw docs/drill.md's picture
    python -m bpe_ref.practice.sample OUT.png --dir DIR                 ...and write DIR/history.jsonl

Fourteen ISO weeks (2026-W34 to W47) of a learner who starts with the naive drill, moves on to
regex and then full, gets faster, and skips one week (W40), so the streak ends at 7 weeks.
"""

import argparse
import json
import random
import sys
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from .history import HISTORY_NAME
from .levels import LEVELS
from .plot import plot_history

FIRST_MONDAY = date(2026, 8, 17)  # 2026-W34
WEEKS = 14
SKIPPED_WEEK = 6  # 2026-W40: a week off
SAMPLE_TODAY = date(2026, 11, 22)  # the Sunday of the last week
PLAN = {  # level: (first week, last week, weekday, minutes in the first week, minutes in the last)
    "naive": (0, 7, 1, 48, 14),
    "regex": (3, 13, 3, 75, 27),
    "full": (8, 13, 5, 95, 41),
}
ZONE = timezone(timedelta(hours=1))


def sample_history():
    """The sample records, oldest first; the same list every time (a fixed random seed)."""
    rng = random.Random(2026)
    records, attempts = [], {}
    for week in range(WEEKS):
        if week == SKIPPED_WEEK:
            continue
        for level, (first, last, weekday, slow, fast) in PLAN.items():
            if first <= week <= last:
                day = FIRST_MONDAY + timedelta(weeks=week, days=weekday)
                share = (week - first) / max(1, last - first)
                minutes = (slow + (fast - slow) * share) * rng.uniform(0.85, 1.15)
                records += drill_attempts(rng, day, level, minutes, attempts)
    return records


def drill_attempts(rng, day, level, minutes, attempts):
    """One drill's graded attempts: a few partial ones, then all green after `minutes`."""
    file = f"{day:%Y-%m-%d}-{level}.ipynb"
    total = len(LEVELS[level].exercises)
    tries = rng.choice([1, 2, 2, 3])
    out = []
    for n in range(1, tries + 1):
        at = round(minutes * n / tries, 1)
        passed = total if n == tries else rng.randint(total // 3, total - 1)
        started = datetime(day.year, day.month, day.day, 19, 0, tzinfo=ZONE)
        attempts[file] = attempts.get(file, 0) + 1
        out.append({"date": day.isoformat(), "time": (started + timedelta(minutes=at)).isoformat(timespec="seconds"),
                    "file": file, "level": level, "minutes": at, "passed": passed,
                    "total": total, "attempt": attempts[file], "all_green": passed == total})
    return out


def write_sample(directory):
    """Write the sample records to DIR/history.jsonl (refuses to touch an existing history)."""
    path = Path(directory) / HISTORY_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "x", encoding="utf-8") as f:
        f.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in sample_history()))
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bpe_ref.practice.sample",
                                     description="Draw the sample drill history (docs/drill.md's picture).")
    parser.add_argument("png", help="where to write the chart")
    parser.add_argument("--dir", help="also write the sample history.jsonl into this folder")
    options = parser.parse_args(argv)
    if options.dir:
        try:
            print(f"wrote {write_sample(options.dir)}")
        except FileExistsError:
            print(f"{Path(options.dir) / HISTORY_NAME} exists already; left as it is", file=sys.stderr)
            return 2
    plot_history(sample_history(), options.png)
    print(f"wrote {options.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
