"""Late work: when each student handed in, and the penalty a rule gives for it.

A rule reads `10%/day,max=50%` (or `5%/hour`): each started day (hour) after the due date costs
that share of the score, up to the maximum. Submission times come from nbgrader's timestamp.txt
beside the student's files, or from a CSV (login,submitted) such as an LMS export; never from
file times, which unzipping loses. Times without a zone are read as UTC. A timestamp.txt is the
student's file: one that cannot be read is a note on that student's row, never the class's end.
"""

import math
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .roster import read_table

RULE = re.compile(r"^\s*(\d+(?:\.\d+)?)%/(day|hour)\s*(?:,\s*max\s*=\s*(\d+(?:\.\d+)?)%)?\s*$")
SECONDS = {"day": 86400, "hour": 3600}
STAMP_BYTES = 200  # nbgrader writes one line of about 30 characters


@dataclass(frozen=True)
class LateRule:
    percent: float  # taken off per started unit late
    unit: str  # "day" or "hour"
    cap: float = 100.0  # the most ever taken off, in percent

    def penalty(self, late_seconds):
        """The percent taken off for handing in `late_seconds` after the due date (0 if on time).

        >>> LateRule(10, "day", 50).penalty(3600), LateRule(10, "day", 50).penalty(9 * 86400)
        (10.0, 50.0)
        """
        if late_seconds <= 0:
            return 0.0
        units = math.ceil(late_seconds / SECONDS[self.unit])
        return float(min(self.cap, self.percent * units))


def parse_rule(text):
    """LateRule from `10%/day,max=50%`; ValueError (one line) otherwise."""
    match = RULE.match(text or "")
    if not match:
        raise ValueError(f"--late {text!r}: write the rule as PERCENT%/day or PERCENT%/hour, "
                         "optionally with ,max=PERCENT%, e.g. 10%/day,max=50%")
    percent, unit, cap = float(match[1]), match[2], float(match[3]) if match[3] else 100.0
    if not 0 < percent <= 100 or not 0 < cap <= 100:
        raise ValueError(f"--late {text!r}: percentages must be above 0 and at most 100")
    return LateRule(percent, unit, cap)


def parse_time(text, what):
    """An aware datetime from ISO 8601 or nbgrader's `2024-03-01 17:05:00.123456 UTC`; UTC when no
    zone is given; ValueError (one line) otherwise."""
    cleaned = text.strip()
    if cleaned.endswith(" UTC"):
        cleaned = cleaned[:-4] + "+00:00"
    try:
        moment = datetime.fromisoformat(cleaned.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"{what}: {text.strip()!r} is not a date and time; write e.g. "
                         "2026-03-01T17:00 or 2026-03-01 17:00:00+01:00") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def read_times(path):
    """{login: submitted} from a CSV with login and submitted columns."""
    times = {}
    for line, row in enumerate(read_table(path, "submission times file", ("login", "submitted")), 2):
        if not row["login"]:
            raise ValueError(f"the submission times file {path}, line {line}: no login")
        times[row["login"]] = parse_time(row["submitted"], f"the submission times file {path}, line {line}")
    return times


def nbgrader_time(files):
    """The latest time in the timestamp.txt beside any of a student's files (nbgrader's
    submitted/<student>/<assignment>/timestamp.txt), or None."""
    found = []
    for folder in sorted({Path(path).parent for path in files}):
        stamp = folder / "timestamp.txt"
        if stamp.is_file() and not stamp.is_symlink():
            found.append(parse_time(read_stamp(stamp), str(stamp)))
    return max(found, default=None)


def read_stamp(stamp):
    """The text of a timestamp.txt, read up to STAMP_BYTES; ValueError when it holds more."""
    try:
        with open(stamp, "rb") as f:
            data = f.read(STAMP_BYTES + 1)
    except OSError as e:
        raise ValueError(f"{stamp}: cannot be read ({e.strerror})") from None
    if len(data) > STAMP_BYTES:
        raise ValueError(f"{stamp}: longer than the {STAMP_BYTES} bytes of a date and time")
    return data.decode("utf-8", errors="replace")


@dataclass(frozen=True)
class Lateness:
    """What the CSV and the pages say about one student's time."""

    submitted: datetime = None
    penalty: float = 0.0  # percent taken off
    problem: str = None  # why the student's own timestamp.txt could not be read

    def describe(self, due):
        if self.problem:
            return f"{self.problem}: no penalty taken; check the time by hand"
        if self.submitted is None:
            return "no submission time known: no penalty"
        if self.submitted <= due:
            return f"handed in {self.submitted.isoformat(timespec='minutes')}, on time"
        hours = (self.submitted - due).total_seconds() / 3600
        return (f"handed in {self.submitted.isoformat(timespec='minutes')}, {hours:.1f} hours late"
                + (f": -{self.penalty:g}%" if self.penalty else ""))


def lateness(row, due, rule, times):
    """The Lateness of a class row: its time from `times` (login -> time), else nbgrader's timestamp."""
    submitted = times.get(row.name) if times else None
    if submitted is None:
        try:
            submitted = nbgrader_time(row.files)
        except ValueError as e:
            return Lateness(problem=str(e))
    if submitted is None:
        return Lateness()
    return Lateness(submitted, rule.penalty((submitted - due).total_seconds()))
