"""Judge one exercise: fixed edge cases first, then a hypothesis search that shrinks a failure,
then the hint: a known bug's only when the code behaves like it (diagnosis.py).

The engine reaches the learner's function through a caller, the same for the notebook's kernel
(checks.DirectCaller) and the sandbox (sandbox.SandboxCaller):
    caller.call(args, rule) -> Reply      caller.by_hand(rule) -> [shortcut, ...]
    caller.measure(text, vocab_size) -> (Reply, pair lookups)
Everything expected is computed here, in the grader's process.
"""

import functools
from dataclasses import dataclass, field

from hypothesis import HealthCheck, Phase, Verbosity, given, settings

from ..inside import work
from ._private import naive
from ..inside.byhand import RULES
from ..inside.calling import OUTPUT_LIMIT
from .diagnosis import exception_hint, matching_bug, not_byte_level, observation, run_model
from .display import call_text, show
from .shapes import Malformed
from .exercises.common import Mismatch, Raised
from ..walls.sandbox import Reply

STATUSES = ("pass", "fail", "error", "timeout", "missing", "reference")


@dataclass
class Result:
    name: str
    status: str
    message: str
    detail: dict = field(default_factory=dict)  # call, expected, got, note, hint for a failure

    @property
    def passed(self):
        return self.status == "pass"


class Stop(Exception):
    """A finding that ends the search: a wrong answer (shrinkable) or a terminal reply."""

    def __init__(self, finding):
        super().__init__(finding)
        self.finding = finding


TERMINAL = {
    "not_implemented": ("missing", "not implemented yet"),
    "missing": ("missing", "not defined"),
    "reference": ("reference", "uses the reference ({what}) instead of your own code"),
    "timeout": ("timeout", "took longer than {timeout:g} s: an endless loop?"),
    "crashed": ("error", "{message}"),
    "exit": ("error", "called sys.exit() (or exit(), os._exit()); return a value instead"),
    "memory": ("error", "ran out of memory"),
    "shortcut": ("fail", "took a library shortcut"),  # reported with what it used (shortcut_result)
    "malformed": ("error", "could not be graded (grader-side: the sandbox's reply was malformed: {message})"),
    "processes": ("error", "could not be graded (grader-side: {message})"),  # the sandbox's process cap
    "unread": ("error", "could not be graded: {message}"),  # files in a format of the learner's own (from_files)
}
GRADER_SIDE = "could not be graded (grader-side: {what})"


class GraderSide(Exception):
    """Something went wrong on the grader's side while judging: the exercise earns nothing."""


def grader_side(name, error):
    """The Result for an exercise the grader could not judge: an error with 0 points, never a pass."""
    what = f"{type(error).__name__}: {str(error)[:200]}" if not isinstance(error, GraderSide) else str(error)
    message = GRADER_SIDE.format(what=what)
    return Result(name, "error", message, {"note": message, "grader_side": True})


def terminal_result(name, reply, timeout):
    status, template = TERMINAL[reply.kind]
    what = reply.info.get("reference", "")
    message = template.format(what=what, timeout=timeout, message=reply.info.get("message") or "the process died")
    if reply.kind == "timeout" and reply.info.get("message"):  # the exercise's or the whole file's time ran out
        message = reply.info["message"]
    if reply.kind in ("malformed", "processes"):
        return Result(name, status, message, {"note": message, "grader_side": True})
    elif reply.kind == "timeout" and reply.info.get("args") is not None:
        message += (f" {call_text(name, reply.info['args'])} never returned: check that every pass of a loop "
                    "changes what the loop tests (for example, ids = merge(...) assigned back)")
    return Result(name, status, message)


def behaviour(reply):
    """(what came back, whether the arguments were changed) for a reply, or None if nothing did."""
    if reply.kind == "ok":
        return reply.value, bool(reply.info.get("mutated"))
    if reply.kind == "raised":
        return Raised.from_info(reply.info["raised"]), False
    return None


class Attempt:
    """One exercise being graded: runs the calls, remembers the most output a call printed."""

    def __init__(self, ex, caller):
        self.ex, self.caller, self.printed, self.shortcuts = ex, caller, 0, []
        self.refused = None  # set when a frozenset was refused and a set accepted
        self.masked = None  # the exception of a crash set aside while looking for the real bug

    def call(self, args):
        twice = {"twice": True} if self.ex.again else {}  # the same arguments twice in one request
        reply = self.caller.call(args, self.ex.by_hand, **twice)
        if reply.kind == "raised" and any(isinstance(a, frozenset) for a in args):
            retry = self.caller.call(tuple(set(a) if isinstance(a, frozenset) else a for a in args), self.ex.by_hand,
                                     **twice)
            # right code treats both alike: the frozenset was refused. A set that fails otherwise
            # shows the real fault (refusing a frozenset alone hides it behind a type check)
            if retry.kind != "raised" or retry.info["raised"].get("type") != reply.info["raised"].get("type"):
                self.refused = f"it raised {reply.info['raised']['type']} for a frozenset, so it was tried with a set"
                reply = retry
        self.printed = max(self.printed, reply.info.get("printed", 0) or 0)
        for found in reply.info.get("shortcuts", []):
            if found not in self.shortcuts:
                self.shortcuts.append(found)
        return reply

    def evaluate(self, args):
        """None when the answer to `args` is right; else a finding (dict) or a terminal Reply."""
        reply = self.call(args)
        if self.shortcuts:
            return Reply("shortcut")
        if reply.kind in TERMINAL:
            reply.info.setdefault("args", args)
            return reply
        got, mutated = behaviour(reply)
        if self.masked and isinstance(got, Raised) and got.is_a(self.masked):
            return None  # the crash already found: look past it for the real bug
        mismatch = self.ex.judge(args, got)
        if mismatch is None and self.ex.checks_mutation and mutated:
            mismatch = Mismatch(got, "it changed the list it was given; build and return a new list")
        if mismatch is None and self.ex.again:
            if "again" not in reply.info:  # fail closed: the second answer is the evidence
                return Reply("malformed", info={"message": "no second answer came back"})
            mismatch = self.ex.again(args, got, reply.info["again"])
        if mismatch is None:
            return None
        return {"args": args, "got": got, "mutated": mutated, "expected": mismatch.expected, "note": mismatch.note,
                "hint": mismatch.hint}

    def search(self):
        """Let hypothesis look for a failing input and shrink it; (finding or None, inputs tried)."""
        findings, tried = [], [0]

        @settings(max_examples=self.ex.examples, database=None, deadline=None, derandomize=True,
                  report_multiple_bugs=False, suppress_health_check=list(HealthCheck),
                  verbosity=Verbosity.quiet, phases=[Phase.generate, Phase.shrink])
        @given(self.ex.strategy)
        def probe(args):
            if findings and isinstance(findings[0], Reply):
                raise Stop(findings[0])  # a terminal reply: nothing to shrink
            tried[0] += 1
            finding = self.evaluate(args)
            if finding is not None:
                findings.append(finding)
                raise Stop(finding)

        try:
            probe()
        except Stop as stop:
            return stop.finding, tried[0]
        except Exception as e:  # noqa: BLE001 - judged below: never a pass
            if not findings:  # no wrong answer seen: the error is the grader's own (fail closed)
                raise GraderSide(f"{type(e).__name__} while searching for a failing input: {str(e)[:200]}") from e
            # hypothesis' Flaky: a wrong answer that did not repeat is still a wrong answer
        return (findings[-1] if findings else None), tried[0]

    def learner_behaviour(self, args):
        return behaviour(self.call(args))


def run_exercise(ex, caller, timeout=10.0):
    """Grade one exercise through `caller`; returns a Result. Whatever goes wrong on the grader's
    side while judging (a reply it cannot read, a judge that raises on the learner's value) is
    `error: could not be graded`, never a pass."""
    try:
        return judge_exercise(ex, caller, timeout)
    except Exception as e:  # noqa: BLE001 - fail closed: see grader_side
        return grader_side(ex.name, e)


def judge_exercise(ex, caller, timeout):
    attempt = Attempt(ex, caller)
    if ex.by_hand:
        used = caller.by_hand(ex.by_hand)
        if used:
            return shortcut_result(ex, used)
    cases = ex.cases()
    finding, crash, tried = first_finding(attempt, cases)
    if crash is not None and finding is None:
        finding, tried = attempt.search()
    if crash is not None:
        attempt.masked = None
        if finding is None or isinstance(finding, Reply):
            finding, crash = crash, None
    if attempt.shortcuts:
        return shortcut_result(ex, attempt.shortcuts)
    if isinstance(finding, Reply):
        return terminal_result(ex.name, finding, timeout)
    if finding is not None:
        return failure(ex, attempt, finding, crash)
    if ex.work:
        return work_result(ex, caller, timeout, len(cases), tried)
    message = f"passed {len(cases)} edge cases and {tried} generated ones"
    if attempt.printed > OUTPUT_LIMIT:
        message += f"; it printed {attempt.printed / 1e6:.1f} MB in one call, all of it dropped"
    return Result(ex.name, "pass", message)


def first_finding(attempt, cases):
    """(finding, crash set aside, inputs searched) over the fixed cases. A crash (an exception) on
    one case does not end the search: the other cases run, and a wrong answer among them comes
    first, since a crash on the smallest input often hides the real bug behind it."""
    crash = None
    for args in cases:
        finding = attempt.evaluate(args)
        if finding is None:
            continue
        if crash is None and isinstance(finding, dict) and isinstance(finding["got"], Raised):
            crash, attempt.masked = finding, finding["got"].type_name
            continue
        return finding, crash, 0
    if crash is None:
        finding, tried = attempt.search()
        return finding, None, tried
    return None, crash, 0


def shortcut_result(ex, used):
    return Result(ex.name, "fail", f"uses {', '.join(used)}: the point is to {RULES[ex.by_hand].job}",
                  {"hint": ex.hint})


def failure(ex, attempt, finding, crash=None):
    """The Result for a wrong answer: what was called, expected and got, why, and a hint. `crash`:
    an exception on another input, set aside because this wrong answer says more."""
    args, got = finding["args"], finding["got"]
    masked = crash["got"].type_name if crash else None
    bug = matching_bug(ex, attempt.learner_behaviour, args, got, finding["mutated"], masked)
    note = finding["note"] or (got.note if isinstance(got, Malformed) else "")
    if not note and not isinstance(got, Raised):
        note = (ex.observe(args, got, finding["expected"]) if ex.observe else None) \
            or observation(finding["expected"], got)
    if bug is not None:
        hint = bug.hint
    elif finding.get("hint"):
        hint = finding["hint"]
    elif isinstance(got, Raised):
        hint = exception_hint(ex.name, ex.signature, got)
    elif isinstance(got, Malformed):  # an answer the layout could not read says why
        hint = spent_pairs(got, finding["expected"]) or got.note
    else:
        hint = wrong_type(ex, finding["expected"], got) or evidence_only(note)
    shown = call_text(ex.name, args) if not ex.uses else f"{ex.uses[-1]}(...) after {call_text(ex.uses[0], args)}"
    if isinstance(got, Raised):
        status, message = "error", f"{shown} {got!r}"
    elif finding["note"] or isinstance(got, Malformed):  # an answer the layout could not read: why, not its repr
        status, message = "fail", f"{shown}: {finding['note'] or got.note}"
    else:
        status, message = "fail", f"{shown} returned {show(got)}, expected {show(finding['expected'])}"
    detail = {"call": shown, "expected": show(finding["expected"]), "got": show(got), "note": note,
              "hint": hint, "cause": bug.name if bug else None}
    if crash is not None and not explains(bug, crash):
        crashed = crash["got"]
        detail["also"] = (f"{call_text(ex.name, crash['args'])} {crashed!r}: "
                          f"{exception_hint(ex.name, ex.signature, crashed)}")
        message += f"; also: {detail['also']}"
    if attempt.refused:
        detail["refused"] = attempt.refused
        message += f" ({attempt.refused})"
    return Result(ex.name, status, message, detail)


def spent_pairs(got, expected):
    """The hint when a trainer repeats a merge after as many merges as the reference makes in all:
    it went on once no pair was left (a merged pair occurs nowhere, so its count is 0)."""
    if got.made and isinstance(expected, dict) and len(got.made) >= len(expected):
        return (f"{got.note}. Yours had made {len(got.made)} merges, all this text allows, so no pair is left "
                "and the next best count is 0: stop there instead of merging a pair that no longer occurs")
    return None


def evidence_only(note):
    """The hint when no known mistake reproduces every probe: where to look, no cause named."""
    if note:
        return f"no known mistake matches all the inputs tried, so none is named; start where they first differ: {note}"
    return "no known mistake matches all the inputs tried, so none is named; compare expected and got on the input shown"


def explains(bug, crash):
    """Whether the bug found also makes the crash set aside (its model raises the same there): then
    the crash is no second finding, and its note is dropped."""
    if bug is None:
        return False
    crashed = crash["got"]
    for model in bug.models:
        value, _ = run_model(model, crash["args"])
        if isinstance(value, Raised) and (crashed.is_a(value.type_name) or any(crashed.is_a(e) for e in bug.errors)):
            return True
    return False


def wrong_type(ex, expected, got):
    """A hint when the answer is not even of the right kind (bytes or strings for a list of ids,
    merges of strings: not byte-level BPE at all)."""
    if isinstance(got, (Raised, Malformed)):  # a Malformed answer's note already says what is wrong
        return None
    if isinstance(expected, str) and not isinstance(got, str):
        return f"{ex.name} should return a str, the text, not a {type(got).__name__} ({show(got, 60)})"
    if not isinstance(expected, (list, dict)):
        return None
    if isinstance(expected, dict) and not_byte_level({"merges": got}):
        return not_byte_level({"merges": got})
    if isinstance(expected, list) and isinstance(got, (list, tuple)):
        kinds = {type(v).__name__ for v in got} - {"int"}
        wanted = {type(v).__name__ for v in expected}
        if kinds and wanted <= {"int"}:
            return (f"{ex.name} should return a list of int ids; yours holds {', '.join(sorted(kinds))} "
                    f"values (e.g. {show(next(v for v in got if not isinstance(v, int)))})")
        return None
    if not isinstance(got, (type(expected), tuple if isinstance(expected, list) else dict)):
        kind = getattr(got, "type_name", type(got).__name__)  # an Opaque object by its own type
        return f"{ex.name} should return a {type(expected).__name__}, not a {kind} ({show(got, 60)})"
    return None


@functools.lru_cache(maxsize=8)
def naive_lookups(text, vocab_size):
    """The naive loop's pair lookups on `text` (the count depends only on the code and the text)."""
    return work.count_lookups(naive.train, text, vocab_size)


def rounded(count):
    """A count to three significant figures: its last digits move with the Python that runs it."""
    return round(count, 2 - len(str(count)) + 1) if count >= 1000 else count


def work_result(ex, caller, timeout, cases, tried):
    """A trainer that gives the right merges, judged by how many pair lookups it makes."""
    text, vocab_size = work.sample_text(), ex.work.vocab_size
    reply, lookups = caller.measure(text, vocab_size)
    if reply.kind == "timeout" and not reply.info.get("message"):  # right merges, but no end in sight
        slow = (f"the merges are right, but on a {len(text):,}-byte text of ids that are costly to look up, "
                f"{vocab_size - 256} merges did not finish in {timeout:g} s: the work of a recount after every merge")
        return Result(ex.name, "fail", slow, {"note": slow, "hint": ex.work.hint})
    if reply.kind in TERMINAL:
        return terminal_result(ex.name, reply, timeout)
    expected, baseline = naive_lookups(text, vocab_size)
    merges = vocab_size - 256
    if not isinstance(reply.value, dict) or ex.judge((text, vocab_size), reply.value) is not None:
        shown = call_text(ex.name, (text, vocab_size), limit=40)
        got = reply.value if reply.kind == "ok" else Raised.from_info(reply.info["raised"])
        status, verb = ("error", "") if isinstance(got, Raised) else ("fail", "returned ")
        return Result(ex.name, status, f"{shown} {verb}{show(got)}, expected {show(expected)}",
                      {"call": shown, "expected": show(expected), "got": show(got), "hint": ex.hint})
    passed = f"passed {cases} edge cases and {tried} generated ones"
    if not lookups or lookups < len(text):  # fewer than one count of the text's pairs
        unmeasured = ("the merges are right, but its work could not be measured: the grader measures it "
                      "through the ids of text.encode(\"utf-8\"), and this trainer never counted pairs of them")
        return Result(ex.name, "fail", unmeasured,
                      {"note": unmeasured, "hint": "keep the task's first line, ids = list(text.encode(\"utf-8\")), "
                                                   "and count pairs of those ids"})
    ratio = lookups / baseline
    measured = (f"on a {len(text):,}-byte text, {merges} merges looked up a pair about {rounded(lookups):,} "
                f"times; the naive loop, which recounts after every merge, about {rounded(baseline):,} "
                f"times ({ratio:.0%})")
    if ratio > ex.work.max_ratio:
        return Result(ex.name, "fail", f"the merges are right, but it does the work of a recount: {measured}",
                      {"note": measured, "hint": ex.work.hint})
    return Result(ex.name, "pass", f"{passed}; {measured}")
