"""Score the grader's verdicts on real learners' files against their true verdicts.

The truth for each file (a held-out manifest entry, or an entry of the learner corpus's
expectations.json) names each exercise under the learner's own name ("RegexTokenizer.train",
"Tokenizer.encode:special_tokens") as `pass` or `notpass`, with the real cause in `why`.
The grader's report for the file is its `--json` object. Nothing here runs learner code.

Counted per exercise in the truth:
- found: the grader reports it under that name with a verdict (`missing` is not a verdict);
- right: its verdict is pass exactly when the truth says pass; a wrong pass is a false pass,
  a wrong non-pass a false fail;
- its hint, on every non-pass verdict: right when it names the real cause, misleading when it
  names another cause, vague when it names none (see judge_hint).
Also counted: names the grader graded that the truth says are not exercises. An exercise of a
file that cannot load (`unloadable`) counts only when the grader names it: any non-pass is right.
An `optional` one (right in its own terms, but reachable only in ways the course does not ask) need
not be found; failing it counts as a false fail.
"""

import re
from dataclasses import dataclass, field

# Causes a hint can name, each as (what a hint naming it says, what a `why` naming it says).
# A hint names a cause when its text matches the first pattern; the cause is the real one when
# the truth's `why` matches the second.
CAUSES = {
    "no pair left": (r"no pair is left|if not stats|nothing to choose from|empty case",
                     r"no stop|no pair is left|pairs run out|runs out of pairs|max\(\) of (an )?empty|max\(\) of nothing|StopIteration"),
    "counts across chunks": (r"add up the counts|dict\.update|count pairs per chunk|fresh dict per chunk",
                             r"overwrit|\.update\(|instead of adding"),
    "merge order": (r"lowest|min, not max|highest-ranked|earliest|most frequent pair first|dict order",
                    r"rank|lowest|dict order|one left-to-right sweep|most frequent pair"),
    "invalid utf-8": (r"errors='replace'|errors=\"replace\"|not valid UTF-8",
                      r"errors='replace'|UnicodeDecodeError|Latin-1|mojibake|strict"),
    "regex split": (r"regex\.findall|split with|chunk by chunk|across chunks",
                    r"never splits|findall|merges cross|split pattern|splits? the text"),
    "longest first": (r"longest", r"longest"),
    "text mode": (r"text mode|'rb'|binary mode|\\r\\n", r"text mode|\\r\\n"),
    "module-level merges": (r"module-level", r"module-level|global"),
    "return type": (r"should return a list|not a NoneType|not a bytes|returns? None",
                    r"returns? (None|bytes|that bytes|a list of per-chunk)|no return|bytes object"),
    "missing self": (r"\bself\b", r"without self|missing self"),
    "stops at two ids": (r"two ids|stops? at two|len\(ids\) >= 2", r"two ids|> 2|2-byte"),
    "vocab_size assert": (r"AssertionError|\bassert\b", r"\basserts?\b"),
    "allowed_special type": (r"frozenset|allowed_special .*set|a set", r"allowed_special|a set"),
    "each line on its own": (r"each line on its own|line by line|each line separately",
                             r"each (line|string|chunk)( of the iterable)? (separately|on its own)|line by line|per line"),
    "empty split pattern": (r"pattern is '\(\)'|pattern is ''", r"'\(\)'|pattern is ''|split\('', "),
}
RAISED = re.compile(r"raised (\w+(?:Error|Exception|Iteration))")


def causes_named(text, which):
    """The CAUSES whose hint (which=0) or why (which=1) pattern matches `text`."""
    return {name for name, patterns in CAUSES.items() if re.search(patterns[which], text or "", re.IGNORECASE)}


def judge_hint(hint, cause, why, keywords=()):
    """'right', 'vague' or 'misleading': what a hint on a non-pass verdict says about its cause.

    Right: it holds one of the truth's keywords, or names a cause the `why` names, or says which
    error the learner's code raised when the `why` names that error. Misleading: it names another
    cause, or a bug model (`cause`) vouches for one. Vague: it names none.
    """
    text = hint or ""
    if any(word.lower() in text.lower() for word in keywords):
        return "right"
    named = causes_named(text, 0)
    if named & causes_named(why, 1):
        return "right"
    raised = RAISED.search(text)
    if raised and raised.group(1) in (why or ""):
        return "right"
    if named or cause:
        return "misleading"
    return "vague"


@dataclass
class Tally:
    """The counts one summary line each reports."""
    exercises: int = 0
    found: int = 0
    right: int = 0
    false_pass: int = 0
    false_fail: int = 0
    not_exercises: int = 0
    unlisted: int = 0
    files: int = 0
    files_right: int = 0
    hints: dict = field(default_factory=lambda: {"right": 0, "vague": 0, "misleading": 0})
    lines: list = field(default_factory=list)  # one line per judgment that went wrong, for --details


def truth_verdicts(truth):
    """{name: 'pass' | 'notpass' | 'either'} for every exercise the truth names."""
    verdicts = {name: "pass" for name in truth.get("pass", [])}
    verdicts.update({name: "notpass" for name in truth.get("notpass", [])})
    return verdicts


def with_special_names(graded, truth):
    """`graded`, where an encode graded as the course's encode_special is also found under the
    truth's name for it, 'Class.encode:special_tokens', when the truth has no other use for 'Class.encode'."""
    found = dict(graded)
    for exercise, verdict in graded.items():
        alias = exercise + ":special_tokens"
        if (verdict.get("course") == "encode_special" and ":" not in exercise and alias not in graded
                and exercise not in truth_verdicts(truth)):
            found[alias] = found.pop(exercise)
    return found


def score_file(name, truth, report, tally):
    """Add one file's judgments to `tally`. `report` is the grader's JSON object for the file,
    or None when the grader gave none (then nothing in the file counts as found)."""
    graded = with_special_names((report or {}).get("exercises", {}), truth)
    tally.files += 1
    if report is not None and bool(report.get("passed")) == bool(truth.get("passed")):
        tally.files_right += 1
    elif report is not None:
        tally.lines.append(f"{name}: file reported passed={report.get('passed')}, truly {truth.get('passed')}")
    for exercise, expected in truth_verdicts(truth).items():
        score_exercise(name, exercise, expected, truth, graded.get(exercise), tally)
    for exercise, why in truth.get("unloadable", {}).items():
        verdict = graded.get(exercise, {}).get("status")
        if verdict in (None, "missing"):
            continue  # a file that cannot load may leave its exercises unnamed
        tally.exercises += 1
        tally.found += 1
        if verdict == "pass":
            tally.false_pass += 1
            tally.lines.append(f"{name}: {exercise} false pass (the file cannot load: {why})")
        else:
            tally.right += 1
    optional = set(truth.get("optional", []))
    for exercise, verdict in graded.items():
        if exercise in truth.get("not_an_exercise", []):
            tally.not_exercises += 1
            tally.lines.append(f"{name}: {exercise} graded ({verdict.get('status')}), but it is not an exercise")
        elif exercise not in truth_verdicts(truth) and exercise not in truth.get("unloadable", {}) and exercise not in optional:
            tally.unlisted += 1
            tally.lines.append(f"{name}: {exercise} graded ({verdict.get('status')}), not in the truth")
        elif exercise in optional and verdict.get("status") not in ("pass", "missing"):
            tally.false_fail += 1
            tally.lines.append(f"{name}: {exercise} false {verdict.get('status')} (optional, truly pass)")


def score_exercise(name, exercise, expected, truth, verdict, tally):
    """One exercise of the truth against the grader's verdict for it (None: not reported)."""
    tally.exercises += 1
    status = (verdict or {}).get("status")
    if status in (None, "missing"):
        tally.lines.append(f"{name}: {exercise} not found (truly {expected})")
        return
    tally.found += 1
    said = "pass" if status == "pass" else "notpass"
    if said == expected:
        tally.right += 1
    elif said == "pass":
        tally.false_pass += 1
        tally.lines.append(f"{name}: {exercise} false pass ({truth.get('why', {}).get(exercise, '')})")
    else:
        tally.false_fail += 1
        tally.lines.append(f"{name}: {exercise} false {status}: {verdict.get('message', '')[:160]}")
    if said == "notpass":
        why = truth.get("why", {}).get(exercise, "") if expected == "notpass" else ""
        keywords = truth.get("hint_names", {}).get(exercise, ()) if expected == "notpass" else ()
        judged = judge_hint(verdict.get("hint"), verdict.get("cause"), why, keywords)
        tally.hints[judged] += 1
        if judged != "right":
            tally.lines.append(f"{name}: {exercise} hint {judged}: {verdict.get('hint') or '(none)'}"[:300])


def percent(part, whole):
    """'85.7 %', or '-' for nothing to count."""
    return f"{100 * part / whole:.1f} %" if whole else "-"


def summary(tally, label):
    """The summary lines the command prints."""
    hints = tally.hints
    return [
        f"{label}: {tally.files} files, {tally.exercises} exercises in the truth",
        f"exercises found:  {tally.found} of {tally.exercises} ({percent(tally.found, tally.exercises)})",
        f"verdicts right:   {tally.right} of {tally.found} found ({percent(tally.right, tally.found)}); "
        f"{tally.right} of {tally.exercises} in the truth ({percent(tally.right, tally.exercises)})",
        f"false passes:     {tally.false_pass}",
        f"false fails:      {tally.false_fail}",
        f"not exercises, graded: {tally.not_exercises}; graded but not in the truth: {tally.unlisted}",
        f"files passed right: {tally.files_right} of {tally.files}",
        f"hints (on {sum(hints.values())} non-pass verdicts): {hints['right']} right, "
        f"{hints['vague']} vague, {hints['misleading']} misleading",
    ]
