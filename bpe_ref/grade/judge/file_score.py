"""Score the grader on files whose truth is given per file, not per exercise.

A truth of this kind (the learner corpus's as-written-2/expectations.json) says of each file
whether it should pass (`passed`), how many exercises it holds at least (`min_found`), and its
real causes in a sentence (`why`); a cause the sentence does not name means that part is right.
So what can be counted is: exercises found against `min_found`, files whose pass/not-pass is
right, and, for a person to read, the grader's causes next to the true `why`. Nothing here runs
learner code.
"""

from dataclasses import dataclass, field

from .heldout_score import causes_named, percent


def is_file_truth(truth):
    """True for a per-file truth: `passed` and `min_found`, no per-exercise pass/notpass lists."""
    return "passed" in truth and "min_found" in truth and "pass" not in truth and "notpass" not in truth


@dataclass
class FileTally:
    """The counts of the per-file summary, and one block of lines per file."""
    files: int = 0
    files_right: int = 0
    found: int = 0
    min_found: int = 0
    files_found_enough: int = 0
    lines: list = field(default_factory=list)


def verdicts(report):
    """{exercise: verdict} the grader gave a status other than `missing`."""
    exercises = (report or {}).get("exercises", {})
    return {name: v for name, v in exercises.items() if v.get("status") not in (None, "missing")}


def cause_of(verdict):
    """What the grader gives as the cause of one non-pass verdict: the causes its hint names
    (bracketed), then the hint itself, or the message when there is no hint."""
    said = verdict.get("hint") or verdict.get("message") or "(nothing said)"
    named = sorted(causes_named(verdict.get("hint"), 0))
    return (f"[{', '.join(named)}] " if named else "") + said


def score_file(name, truth, report, tally):
    """Add one file's figures to `tally`; `report` is the grader's JSON object, or None."""
    graded = verdicts(report)
    tally.files += 1
    tally.found += min(len(graded), truth["min_found"])
    tally.min_found += truth["min_found"]
    tally.files_found_enough += len(graded) >= truth["min_found"]
    passed_right = report is not None and bool(report.get("passed")) == bool(truth.get("passed"))
    tally.files_right += passed_right
    said = "no report" if report is None else f"passed={bool(report.get('passed'))}"
    tally.lines.append(f"{name}: {said} ({'right' if passed_right else 'WRONG'}, truly "
                       f"passed={bool(truth.get('passed'))}); {len(graded)} exercises graded, "
                       f"min_found {truth['min_found']}")
    tally.lines.append(f"  true why: {truth.get('why', '')}")
    for exercise, verdict in graded.items():
        if verdict["status"] != "pass":
            tally.lines.append(f"  grader:   {exercise} {verdict['status']}: {cause_of(verdict)}"[:300])


def summary(tally, label):
    """The summary lines the command prints for a per-file truth."""
    return [
        f"{label}: {tally.files} files, per-file truth (passed, min_found, why)",
        f"exercises found:  {tally.found} of {tally.min_found} the files hold at least "
        f"({percent(tally.found, tally.min_found)}); {tally.files_found_enough} of {tally.files} files "
        f"with at least min_found graded",
        f"files passed right: {tally.files_right} of {tally.files}",
    ]
