"""Which course exercise a learner's function implements, told by what it does, not by its name.

Functions the course's names do not cover (merge_pair, get_pairs, get_vocab, a class's static
merge...) are called inside the sandbox on a few of an exercise's own edge cases, each with a short
time limit. The exercise whose answers they give most often is the one they implement; a name
only breaks a tie, or keeps a wrong-but-shaped function (a buggy trainer) in the running. A
function that behaves like no exercise is left alone, and the exercises looked for are reported
with what was tried.
"""

import time
from dataclasses import dataclass, field

from .exercises import REGISTRY
from .exercises.common import Raised

# the exercises a plain function is probed for, with the words its name may hold (ties only)
LOOKED_FOR = {
    "get_stats": ("stat", "pair", "count"),
    "merge": ("merge", "replace"),
    "build_vocab": ("vocab",),
    "decode": ("decode", "detok"),
    "encode": ("encode", "tokeni"),
    "train": ("train", "fit", "learn"),
}
# an exercise the submission has in a later form is not looked for again (encode_ordinary
# encodes; a helper encoding one chunk is not a second try at encode)
COVERED_BY = {"encode": ("encode_ordinary", "encode_special"), "train": ("train_regex", "train_incremental")}
# a vocab builder so named, whose ids 0-255 are the bytes in another order, does another job
# (GPT-4's byte shuffle): behaviour tells it apart, and its name confirms it
OTHER_ORDER_WORDS = ("shuffl", "permut")
PROBE_CASES = 8  # edge cases tried per exercise: enough to tell get_stats from a Counter
PROBE_SECONDS = 2.0  # per call: a probe is a small input, a longer wait means it is not this


@dataclass
class Tried:
    """What probing one function as one exercise showed."""

    learner: str
    exercise: str
    right: int = 0  # answers equal to the exercise's
    shaped: int = 0  # answers of the exercise's type (a dict for get_stats...)
    calls: int = 0
    first_problem: str = ""  # the first wrong answer or exception, in words
    named: bool = False  # the function's name holds one of the exercise's words
    timed_out: bool = False
    reordered: int = 0  # vocabs whose ids 0-255 are the 256 bytes in another order
    names_other_order: bool = False  # its name says so (build_shuffled_vocab)

    def behaves(self):
        """Right on at least half the probes (and two), or named for it and answering in its shape;
        never a function that does another job on every probe and is named for that job."""
        if self.names_other_order and self.calls and self.reordered == self.calls:
            return False
        if self.calls and self.right >= max(2, (self.calls + 1) // 2):
            return True
        return self.named and self.shaped >= max(1, (self.calls + 1) // 2)

    def score(self):
        return (self.right, self.named, self.shaped)

    def said(self):
        if self.right == self.calls and self.calls:
            return f"{self.learner}: right on all {self.calls} probes"
        return f"{self.learner}: {self.first_problem or 'answers of another kind'}"


@dataclass
class Finding:
    """The exercises found by behaviour ({learner name: exercise}) and, for each exercise looked for
    and not found, what was tried."""

    found: dict = field(default_factory=dict)
    tried: dict = field(default_factory=dict)  # exercise -> [Tried]

    def notes(self):
        """One line per exercise looked for among named candidates and not found."""
        out = []
        for exercise, attempts in self.tried.items():
            named = [t for t in attempts if t.named]
            if exercise not in self.found.values() and named:
                out.append(f"no function behaves like {exercise}; tried "
                           + "; ".join(t.said() for t in named[:3]))
        return out


def candidates(defined, taken):
    """{learner name: parameter names} of the learner's own functions the course's names miss:
    top-level functions and the static methods of classes (`Cls.name`). `taken`: names already graded."""
    found = {}
    for name, info in defined.items():
        if info.get("kind") != "callable" or name in REGISTRY or name in taken:
            continue
        if info.get("methods") is not None:
            for method, params in (info.get("statics") or {}).items():
                if f"{name}.{method}" not in taken:
                    found[f"{name}.{method}"] = (params, None)
            continue
        if info.get("own") is False or info.get("names") is None:
            continue
        found[name] = (info["names"], info.get("params"))
    return found


def fits(params, required, exercise):
    """Whether a function of these parameters can be called with the exercise's arguments."""
    wanted = len(REGISTRY[exercise].cases()[0])
    needed = len(params) if required is None else required
    return needed <= wanted <= len(params)


def probe(call, learner, exercise):
    """Tried: the learner's function (call(args) -> Reply) on the exercise's first edge cases."""
    ex = REGISTRY[exercise]
    short = learner.rpartition(".")[2].lower()
    tried = Tried(learner, exercise, named=any(word in short for word in LOOKED_FOR[exercise]),
                  names_other_order=any(word in short for word in OTHER_ORDER_WORDS))
    for args in ex.cases()[:PROBE_CASES]:
        reply = call(args)
        tried.calls += 1
        if reply.kind == "ok" and exercise == "build_vocab" and bytes_reordered(reply.value):
            tried.reordered += 1
            tried.first_problem = tried.first_problem or "its ids 0-255 are the 256 bytes in another order"
        if reply.kind == "ok":
            wrong = ex.judge(args, reply.value)
            tried.right += wrong is None
            tried.shaped += wrong is None or _same_kind(wrong.expected, reply.value)
            if wrong is not None and not tried.first_problem:
                tried.first_problem = f"returned {_short(reply.value)} for {_short(args)}"
        elif reply.kind == "raised":
            if not tried.first_problem:
                raised = Raised.from_info(reply.info["raised"])
                tried.first_problem = f"crashed on {_short(args)}: {raised.type_name}: {raised.message[:80]}"
        else:
            tried.first_problem = tried.first_problem or f"{reply.kind} on {_short(args)}"
            tried.timed_out = reply.kind == "timeout"
            break
    return tried


def find_by_behaviour(sandbox, defined, taken, have):
    """Finding: for each exercise of LOOKED_FOR the submission lacks (`have`: exercises it already
    has graded), the learner function that behaves most like it. A function is given to one
    exercise at most."""
    finding = Finding()
    functions = candidates(defined, taken)
    have = set(have) | {name for name, later in COVERED_BY.items() if set(later) & set(have)}
    scores = []
    for learner, (params, required) in functions.items():
        for exercise in LOOKED_FOR:
            if exercise in have or not fits(params, required, exercise):
                continue
            def call(args, learner=learner):
                return sandbox.call(learner, args, time.monotonic() + PROBE_SECONDS)
            tried = probe(call, learner, exercise)
            finding.tried.setdefault(exercise, []).append(tried)
            if tried.behaves():
                scores.append(tried)
    for tried in sorted(scores, key=lambda t: t.score(), reverse=True):
        if tried.learner not in finding.found and tried.exercise not in finding.found.values():
            finding.found[tried.learner] = tried.exercise
    return finding


def bytes_reordered(vocab):
    """Whether ids 0-255 of `vocab` hold all 256 single bytes, but not each its own."""
    if not isinstance(vocab, dict) or not all(i in vocab for i in range(256)):
        return False
    base = [vocab[i] for i in range(256)]
    return sorted(base, key=repr) == sorted((bytes([b]) for b in range(256)), key=repr) \
        and base != [bytes([b]) for b in range(256)]


def _same_kind(expected, got):
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        return True
    return expected is not None and type(got) is type(expected)


def _short(value, limit=50):
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
