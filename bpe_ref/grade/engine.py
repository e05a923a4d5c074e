"""Judge one exercise: fixed edge cases first, then a hypothesis search that shrinks a failure.

`call(args)` runs the learner's function (in the notebook's kernel, or in the sandbox) and
returns a sandbox.Reply; everything expected is computed here, with bpe_ref.
"""

from dataclasses import dataclass, field

from hypothesis import HealthCheck, Phase, Verbosity, given, settings

from .exercises import Mismatch, Raised
from .sandbox import Reply

STATUSES = ("pass", "fail", "error", "timeout", "missing", "reference")


@dataclass
class Result:
    name: str
    status: str
    message: str
    detail: dict = field(default_factory=dict)  # call, expected, got, hint for a failure

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
    "output_limit": ("error", "printed more than 1 MB"),
    "exit": ("error", "called sys.exit()/exit(); return a value instead"),
    "memory": ("error", "ran out of memory"),
}


def terminal_result(name, reply, timeout):
    status, template = TERMINAL[reply.kind]
    what = reply.info.get("reference", "")
    message = template.format(what=what, timeout=timeout, message=reply.info.get("message") or "the process died")
    return Result(name, status, message)


def evaluate(ex, call, args):
    """None when the answer to `args` is right; else a finding (dict) or a terminal Reply."""
    reply = call(args)
    if reply.kind in TERMINAL:
        return reply
    if reply.kind == "raised":
        raised = reply.info["raised"]
        got = Raised(raised["type"], raised["message"], raised.get("where"), raised.get("kinds"))
    else:
        got = reply.value
    mismatch = ex.judge(args, got)
    if mismatch is None and ex.checks_mutation and reply.info.get("mutated"):
        mismatch = Mismatch(got, "it changed the list it was given; build and return a new list")
    if mismatch is None:
        return None
    hint = diagnosis(ex, args, got) or ex.hint
    return {"args": args, "got": got, "expected": mismatch.expected, "note": mismatch.note, "hint": hint}


def diagnosis(ex, args, got):
    """The exercise's specific hint for this answer, if it has one (never lets a bug in it escape)."""
    if ex.diagnose is None:
        return None
    try:
        return ex.diagnose(args, got)
    except Exception:  # noqa: BLE001 - a strange answer must not break the report
        return None


def search(ex, call):
    """Let hypothesis look for a failing input and shrink it; None if it finds none."""
    findings = []
    tried = [0]

    @settings(max_examples=ex.examples, database=None, deadline=None, derandomize=True,
              report_multiple_bugs=False, suppress_health_check=list(HealthCheck),
              verbosity=Verbosity.quiet, phases=[Phase.generate, Phase.shrink])
    @given(ex.strategy)
    def probe(args):
        if findings and isinstance(findings[0], Reply):
            raise Stop(findings[0])  # a terminal reply: nothing to shrink
        tried[0] += 1
        finding = evaluate(ex, call, args)
        if finding is not None:
            findings.append(finding)
            raise Stop(finding)

    try:
        probe()
    except Stop as stop:
        return stop.finding, tried[0]
    except Exception:  # noqa: BLE001 - e.g. hypothesis' Flaky when a failure does not repeat
        pass
    return (findings[-1] if findings else None), tried[0]


def run_exercise(ex, call, source=None, timeout=10.0):
    """Grade one exercise; `source` is the function's code, for the by-hand rules."""
    if source and ex.forbidden:
        reason = ex.forbidden(source)
        if reason:
            return Result(ex.name, "fail", reason, {"hint": ex.hint})
    cases = ex.cases()
    finding = None
    for args in cases:
        finding = evaluate(ex, call, args)
        if finding is not None:
            break
    tried = 0
    if finding is None:
        finding, tried = search(ex, call)
    if finding is None:
        return Result(ex.name, "pass", f"passed {len(cases)} edge cases and {tried} generated ones")
    if isinstance(finding, Reply):
        return terminal_result(ex.name, finding, timeout)
    status = "error" if isinstance(finding["got"], Raised) else "fail"
    shown = call_text(ex.name, finding["args"])
    if status == "error":
        message = f"{shown} {finding['got']!r}"
    elif finding["note"]:
        message = f"{shown}: {finding['note']}"
    else:
        message = f"{shown} returned {show(finding['got'])}, expected {show(finding['expected'])}"
    detail = {"call": shown, "expected": show(finding["expected"]), "got": show(finding["got"]),
              "note": finding["note"], "hint": finding["hint"]}
    return Result(ex.name, status, message, detail)


def call_text(name, args):
    return f"{name}({', '.join(show(a) for a in args)})"


def show(value, limit=160):
    """A short, readable repr: vocabs and long dicts are abbreviated."""
    if isinstance(value, dict) and len(value) > 6:
        if all(value.get(i) == bytes([i]) for i in range(256)):
            extra = {k: v for k, v in value.items() if not (isinstance(k, int) and k < 256)}
            return f"vocab(256 bytes + {show(extra, limit)})" if extra else "vocab(256 bytes)"
        items = list(value.items())
        head = ", ".join(f"{k!r}: {v!r}" for k, v in items[:4])
        return f"{{{head}, ... {len(items)} items}}"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
