"""What the class page reports: pass rates, the score distribution, the commonest failure per exercise.

Failures are grouped by their shape, so that twelve students who apply the highest-ranked merge
first count as one thing to reteach, whatever input each of them failed on:

- a wrong answer or an error with a specific hint (a known classic bug): that hint;
- an error: the exception it raised;
- a wrong answer with only the exercise's general hint: the note that says why (its numbers
  replaced by N), else "a wrong answer";
- anything else (missing, timeout, reference, a by-hand rule broken): its message, numbers and
  quoted text replaced by placeholders.
"""

import re
import statistics
from dataclasses import dataclass, field

from ..judge.exercises import REGISTRY

BINS = 10  # the score distribution counts scores in ten bands of 10 %
ATTEMPTED = ("fail", "error", "timeout")  # written, and wrong: what reteaching can fix
RAISED_RE = re.compile(r"\braised ([A-Za-z_][\w.]*)")


@dataclass
class Failure:
    """One shape of failure of one exercise: how many rows show it, who, and one example verdict."""

    shape: str
    rows: list = field(default_factory=list)  # names of the rows (students) that show it
    example: dict = field(default_factory=dict)

    @property
    def count(self):
        return len(self.rows)

    @property
    def attempted(self):
        return self.example.get("status") in ATTEMPTED


def pass_rates(book):
    """{exercise: the fraction of rows that pass it}, in the class's column order."""
    total = len(book.rows)
    return {name: sum(row.exercises[name]["status"] == "pass" for row in book.rows) / total
            for name in book.columns}


def status_counts(book, name):
    """{status: how many rows} for one exercise, most common first."""
    counts = {}
    for row in book.rows:
        status = row.exercises[name]["status"]
        counts[status] = counts.get(status, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: -item[1]))


def percentages(book):
    """Each row's score as a percentage of the maximum (none when nothing is worth points)."""
    if not book.maximum:
        return []
    return [100 * book.score(row) / book.maximum for row in book.rows]


def score_bands(scores):
    """How many scores fall in each band of 10 %: [0, 10), [10, 20), ..., [90, 100].

    >>> score_bands([0, 55, 100, 100])
    [1, 0, 0, 0, 0, 1, 0, 0, 0, 2]
    """
    counts = [0] * BINS
    for score in scores:
        counts[min(int(score // (100 / BINS)), BINS - 1)] += 1
    return counts


def score_summary(scores):
    """Mean, median, lowest and highest percentage (None for an empty class)."""
    if not scores:
        return None
    return {"mean": statistics.fmean(scores), "median": statistics.median(scores),
            "lowest": min(scores), "highest": max(scores)}


def failures(book, name):
    """Every shape of failure of one exercise: code that was written and is wrong first, then the
    rest (not written, reference); commonest first within each (a tie: the one seen first)."""
    groups = {}
    for row in book.rows:
        verdict = row.exercises[name]
        if verdict["status"] == "pass":
            continue
        shape = failure_shape(name, verdict)
        group = groups.setdefault(shape, Failure(shape, example=verdict))
        group.rows.append(row.name)
    return sorted(groups.values(), key=lambda group: (not group.attempted, -group.count))


def commonest_failures(book):
    """{exercise: its commonest Failure}, for the exercises that someone does not pass."""
    out = {}
    for name in book.columns:
        found = failures(book, name)
        if found:
            out[name] = found[0]
    return out


def reteach_first(book, limit=5):
    """The (exercise, Failure) pairs of written-but-wrong code shared by the most rows: what to go over again."""
    pairs = [(name, failure) for name in book.columns for failure in failures(book, name) if failure.attempted]
    return sorted(pairs, key=lambda pair: -pair[1].count)[:limit]


def failure_shape(name, verdict):
    """The class a failing verdict falls in (see the module's docstring).

    >>> failure_shape("decode", {"status": "error", "message": "decode([128]) raised UnicodeDecodeError: ..."})
    'raises UnicodeDecodeError'
    """
    status, hint = verdict.get("status"), verdict.get("hint")
    if status in ("fail", "error") and hint and hint != general_hint(name):
        return hint
    raised = RAISED_RE.search(verdict.get("message", "")) if status == "error" else None
    if raised:
        return f"raises {raised.group(1)}"
    if status == "fail" and "call" in verdict:
        return placeholders(verdict["note"]) if verdict.get("note") else "a wrong answer"
    if status == "timeout":  # its first sentence: the input it hung on differs from student to student
        return placeholders(verdict.get("message", status).split("?")[0] + "?")
    return placeholders(verdict.get("message", status))


def general_hint(name):
    exercise = REGISTRY.get(name)
    return getattr(exercise, "hint", None)


def placeholders(message):
    """A message with its particulars replaced: quoted text by '…', numbers by N.

    >>> placeholders("took longer than 10 s: an endless loop?")
    'took longer than N s: an endless loop?'
    """
    message = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", message)
    return re.sub(r"\d+(\.\d+)?", "N", message)
