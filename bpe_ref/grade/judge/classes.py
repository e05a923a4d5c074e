"""Tokenizers written as classes (minbpe's BasicTokenizer/RegexTokenizer, CS336's Tokenizer) and
CS336's train_bpe, graded as the learner wrote them: each method is mapped onto a course exercise
by what it accepts and returns, never by the class's name.

A method is called inside the sandbox on a fresh instance (worker op "object"); the course's
arguments go in through the class's own layout (merges set as an attribute for minbpe, a vocab of
bytes for CS336) and the answer comes back in the course's form, so the catalogue's judges and
bug models apply unchanged. Expected values are computed here, in the grader's process.
"""

import dataclasses

from .cs336_style import cs336_class, train_bpe_mapping
from .engine import Result, run_exercise
from .exercises import REGISTRY
from .exercises.common import Mismatch, Raised
from .minbpe_style import minbpe_class, probe_train
from ..walls.sandbox import exercise_deadline
from .shapes import Malformed

SIZE_WORDS = ("size", "vocab", "merges", "num")  # what a trainer's size parameter is called


# ---------------------------------------------------------------------------- finding the shapes

def tokenizer_classes(defined):
    """{class name: (methods, arguments its constructor needs)} for the classes the submission
    defines, leaving out abstract ones (minbpe's Tokenizer: its methods only raise NotImplementedError)."""
    classes = {}
    for name, info in defined.items():
        if info.get("methods") is None:
            continue
        working = {m: p for m, p in info["methods"].items() if m not in info.get("stubs", [])}
        if set(working) - {"__init__"}:
            classes[name] = (working, info.get("init_required") or 0)
    return classes


def role(method, params):
    """What a method is for, from its name and what it accepts: train, encode, decode, register,
    encode_iterable or None."""
    lowered = method.lower()
    if "iter" in lowered and "encode" in lowered:
        return "encode_iterable"
    if "special" in lowered and len(params) >= 1 and "encode" not in lowered:
        return "register"
    if lowered.startswith(("train", "fit", "learn")) and len(params) >= 2 \
            and any(w in params[1].lower() for w in SIZE_WORDS):
        return "train"
    if lowered in ("encode", "encode_ordinary", "tokenize") and params:
        return lowered if lowered != "tokenize" else "encode"
    if lowered in ("decode", "detokenize") and params:
        return "decode"
    return None


def find_mappings(defined, probe):
    """The Mappings of one submission's classes and train_bpe-like functions. `probe(cls, args)`
    trains a minbpe-style class once and returns its attributes (or None)."""
    found = []
    for cls, (methods, required) in tokenizer_classes(defined).items():
        init = methods.get("__init__", [])
        roles = {}
        for method, params in methods.items():
            r = role(method, params)
            if r and r not in roles:
                roles[r] = (method, params)
        if required >= 2 and "encode" in roles and ("decode" in roles or "encode_iterable" in roles):
            found += cs336_class(cls, roles, init)  # CS336: Tokenizer(vocab, merges, special_tokens=None)
        elif required <= 1 and ("train" in roles or {"encode", "decode"} <= set(roles)):
            found += minbpe_class(cls, roles, init, probe)
    for name, info in defined.items():
        names = [n.lower() for n in info.get("names") or []]
        if info.get("kind") == "callable" and len(names) >= 2 and names_a_path(names[0]) \
                and any(w in names[1] for w in ("vocab", "merges")) and not names_a_path(names[1]):
            found.append(train_bpe_mapping(name, names))  # (input_path, vocab_size, ...), not (path, merges_path)
    return found


def names_a_path(name):
    return any(w in name for w in ("path", "file", "dir"))


# ---------------------------------------------------------------------------- grading

class ClassCaller:
    """The engine's caller for one Mapping: the course's arguments in, the course's answer out.
    A frozenset the method refuses is tried again as a plain set (see engine: every failure)."""

    def __init__(self, sandbox, mapping, deadline):
        self.sandbox, self.mapping, self.deadline = sandbox, mapping, deadline

    def call(self, args, rule=None):
        return self.mapping.call(self.sandbox, args, self.deadline, rule)

    def measure(self, text, vocab_size):
        return self.call((text, vocab_size)), None

    def by_hand(self, rule):
        name = self.mapping.learner.split(":")[0]
        reply = self.sandbox.request({"op": "by_hand", "name": name, "rule": rule}, self.deadline)
        return reply.value if reply.kind == "ok" else []


def mapped_exercise(mapping):
    """The course exercise, reported under the learner's name, its arguments fitted to the design."""
    ex = REGISTRY[mapping.exercise]
    fit = fitter(mapping)
    judge = ex.judge

    def judged(args, got):
        if isinstance(got, Malformed):
            wrong = judge(args, None)  # the judge's own expected value, with the reason why not
            return Mismatch(wrong.expected if wrong else None, got.note)
        if mapping.asserts and isinstance(got, Raised) and got.is_a("AssertionError"):
            got = Raised("ValueError", got.message)  # minbpe's "none_raise" is an assert
        return judge(args, got)

    return dataclasses.replace(
        ex, name=mapping.learner, cases=lambda: _unique([fit(a) for a in ex.cases()]),
        strategy=ex.strategy.map(fit), judge=judged,
        probes=(lambda: [fit(a) for a in ex.probes()]) if ex.probes else None, work=None)


def _unique(cases):
    seen, out = set(), []
    for args in cases:
        if repr(args) not in seen:
            seen.add(repr(args))
            out.append(args)
    return out


def fitter(mapping):
    """args -> args with the design's built-in pattern and allowed_special put in."""
    def fit(args):
        args = list(args)
        ex = REGISTRY[mapping.exercise]
        if mapping.pattern and "pattern" in ex.signature:
            args[2] = mapping.pattern
        if mapping.only_all:
            args[4] = "all"
        return tuple(args)
    return fit


def grade_classes(sandbox, timeout):
    """{learner name: Result} for every mapped method of the submission's tokenizer classes."""
    mappings = find_mappings(sandbox.defined, probe_train(sandbox, exercise_deadline(timeout)))
    results = {}
    for mapping in mappings:
        if mapping.exercise == "not_byte_level":
            results[mapping.learner] = Result(mapping.learner, "fail", mapping.how, {"course": "train"})
            continue
        ex = mapped_exercise(mapping)
        result = run_exercise(ex, ClassCaller(sandbox, mapping, exercise_deadline(timeout)), timeout)
        result.detail["exercise"] = (f"graded as the course's {mapping.exercise} "
                                     f"(workbook {REGISTRY[mapping.exercise].workbook}): {mapping.how}")
        result.detail["course"] = mapping.exercise
        results[mapping.learner] = result
    return results
