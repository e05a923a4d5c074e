"""What a wrong answer says about its cause, and only as much as it really says.

A hint names a known bug only when the learner's function behaves like that bug's model on a
set of inputs chosen so that every known bug, and the right answer, differ somewhere in it.
Otherwise the learner is told what was observed (`observation`), and an exception from their
own code gets a hint about that exception and its line (`exception_hint`).
"""

import copy
import re

from .display import safe_repr
from .exercises.common import Raised, same_order


# ---------------------------------------------------------------------------- bug models

def run_model(model, args):
    """(what the model returns or raises, whether it changed its arguments) for `args`."""
    given = copy.deepcopy(args)
    try:
        value = model(*given)
    except Exception as e:  # noqa: BLE001 - a model of a crash raises on purpose
        return Raised.from_exception(e), False
    return value, given != args


def same_behaviour(model_out, learner_out, errors=(), mutation=False):
    """Whether two (value or Raised, mutated) behaviours are the same: equal values, a dict's keys
    in the same order; or raises of the model's exception type (or one of `errors`)."""
    (value, mutated), (got, got_mutated) = model_out, learner_out
    if mutation and mutated != got_mutated:
        return False
    if isinstance(value, Raised):
        return isinstance(got, Raised) and (got.is_a(value.type_name) or any(got.is_a(e) for e in errors))
    return not isinstance(got, Raised) and same_order(got, value)


def _unique(inputs):
    seen, out = set(), []
    for args in inputs:
        key = repr(args)
        if key not in seen:
            seen.add(key)
            out.append(args)
    return out


class Probe:
    """The known bugs of one exercise, run on candidate inputs (the failing one first)."""

    def __init__(self, ex, bugs, failing_args, candidates):
        self.ex, self.bugs = ex, list(bugs)
        self.inputs = _unique([failing_args, *candidates])
        self.outputs = {id(m): [run_model(m, args) for args in self.inputs] for b in self.bugs for m in b.models}

    def wrong(self, model, i):
        value, mutated = self.outputs[id(model)][i]
        return (self.ex.checks_mutation and mutated) or self.ex.judge(self.inputs[i], value) is not None

    def differ(self, a, b, i):
        """Whether model a and model b behave differently on input i."""
        return not same_behaviour(self.outputs[id(a)][i], self.outputs[id(b)][i], mutation=self.ex.checks_mutation)

    def rivals(self):
        """Every two models of two different bugs: some chosen input must tell them apart."""
        return [(a, b) for x in self.bugs for y in self.bugs if x.name < y.name for a in x.models for b in y.models]

    def chosen(self):
        """Indices of the inputs to try: the failing one, then for each bug two where it is wrong,
        and for each two models of different bugs one where they differ (when there is one)."""
        needs = {("wrong", id(b.model), k) for b in self.bugs for k in (0, 1)}
        needs |= {("apart", id(a), id(b)) for a, b in self.rivals()}
        picked = []
        for i in range(len(self.inputs)):
            met = self._needs_met(i, needs)
            if i == 0 or met:
                picked.append(i)
                needs -= met
        return picked

    def _needs_met(self, i, needs):
        met = set()
        for b in self.bugs:
            if self.wrong(b.model, i):
                first = ("wrong", id(b.model), 0)
                met.add(first if first in needs else ("wrong", id(b.model), 1))
        met |= {("apart", id(a), id(b)) for a, b in self.rivals() if self.differ(a, b, i)}
        return met & needs

    def agrees(self, bug, learner):
        """Whether the learner's behaviour on the chosen inputs ({index: (got, mutated)}) is the bug's."""
        for model in bug.models:
            outputs = self.outputs[id(model)]
            if all(self._agrees_at(bug, outputs[i], learner[i], i) for i in learner):
                return True
        return False

    def _agrees_at(self, bug, model_out, learner_out, i):
        if bug.agrees is not None:
            return bug.agrees(self.inputs[i], learner_out[0])
        return same_behaviour(model_out, learner_out, bug.errors, self.ex.checks_mutation)


def matching_bug(ex, call, args, got, mutated=False, masked=None):
    """The one known bug of `ex` that the learner's function behaves like on every input of the
    exercise's cases and probes (not only the failing one), or None.

    `call(args)` runs the learner's function and returns (got, mutated), or None when it could
    not be run (a timeout): then no cause is named. `masked`: an exception name the learner's code
    raises besides the bug (a crash on the smallest input): inputs where it raises that are left out.
    """
    if not ex.bugs:
        return None
    candidates = list(ex.cases()) + (list(ex.probes()) if ex.probes else [])
    probe = Probe(ex, ex.bugs, args, candidates)
    learner = {}
    for i in probe.chosen():
        if not _observe(learner, i, call, probe, (got, mutated), masked):
            return None
    found = [bug for bug in probe.bugs if probe.agrees(bug, learner)]
    for i in range(len(probe.inputs)):  # still two candidates (ties accepted): try the other inputs
        if len(found) < 2:
            break
        if i not in learner and any(probe.differ(a, b, i) for x in found for y in found if x is not y
                                    for a in x.models for b in y.models):
            if not _observe(learner, i, call, probe, (got, mutated), masked):
                return None
            found = [bug for bug in found if probe.agrees(bug, learner)]
    if len(found) != 1:
        return None
    for i in range(len(probe.inputs)):  # evidence, not likeness: the model must give every answer the learner gives
        if i not in learner and not _observe(learner, i, call, probe, (got, mutated), masked):
            return None
    return found[0] if probe.agrees(found[0], learner) else None


def _observe(learner, i, call, probe, first, masked):
    """Record the learner's behaviour on input i (the failing input's is known); False when the
    learner could not be run. An input where it raises the crash set aside (`masked`) is left out."""
    learner[i] = first if i == 0 else call(probe.inputs[i])
    if learner[i] is None:
        return False
    if masked and i and isinstance(learner[i][0], Raised) and learner[i][0].is_a(masked):
        del learner[i]
    return True


# ---------------------------------------------------------------------------- exceptions

def exception_hint(name, signature, raised):
    """A hint about an exception that no known bug of the exercise explains: what it means, where."""
    where = f" ({raised.where})" if raised.where else ""
    message = raised.message
    if raised.where is None and raised.is_a("TypeError") and raised.signature:
        return _call_mismatch(name, signature, raised)
    if raised.origin not in (None, "learner") and raised.where:
        return (f"{raised.type_name} came from {raised.origin}, called from your line{where}: {message}; "
                "check what that line passes to it")
    if raised.is_a("UnboundLocalError"):
        variable = _quoted(message)
        return (f"`{variable}` is assigned later in the function, so Python treats it as local everywhere "
                f"in it, and here it has no value yet{where}: give it a value first")
    if raised.is_a("NameError"):
        variable = _quoted(message)
        in_class = " (inside a class, call methods as self.name(...))" if raised.in_method else ""
        return (f"`{variable}` does not exist when {name} runs{where}: a typo, a name from a cell that was "
                f"not run, or a variable of another function{in_class}")
    if raised.is_a("StopIteration"):
        return (f"next() ran out of items{where}: give it a default, e.g. next(iterator, None), "
                "and handle that case")
    if raised.is_a("TypeError") and "positional argument" in message:
        return (f"{message}{where}: check the arguments of that call (a method takes self first and is "
                "called as self.method(...))")
    if raised.is_a("RecursionError"):
        return f"the recursion never reaches its base case{where}"
    if raised.is_a("ValueError") and re.search(r"(max|min)\(\) (arg|iterable argument) is an empty", message):
        return f"max()/min() got nothing to choose from{where}: handle the empty case before calling it"
    if raised.is_a("UnicodeDecodeError"):
        return f"{message}{where}: the bytes decoded there are not valid UTF-8 on their own"
    if raised.is_a("KeyError") and (raised.line or "").lstrip().startswith("raise "):  # on purpose, not a lookup
        return (f"your code raises KeyError on purpose{where}: {message}; check which exception the "
                "exercise asks for (a value the rules refuse is a ValueError)")
    if raised.is_a("KeyError"):
        return f"the key {message} is not in that dict{where}: check it with `in`, or use .get()"
    if raised.is_a("IndexError"):
        return f"an index past the end of a list{where}: check the bounds of that loop"
    return f"your code raised {raised.type_name}{where}: {message}"


def _call_mismatch(name, signature, raised):
    theirs = raised.signature
    text = f"the grader calls {signature.split(' ->')[0]}, but yours is {theirs}"
    if "(self" in theirs:
        return (text + ": a method taken out of its class? Define a plain function, or make an object "
                f"and export its bound method ({name} = tokenizer.{name})")
    return text + ": give it exactly these parameters"


def _quoted(message):
    found = re.search(r"'([^']+)'", message)
    return found.group(1) if found else "a name"


# ---------------------------------------------------------------------------- observations

def is_pair_dict(value):
    return isinstance(value, dict) and bool(value) and all(isinstance(k, tuple) and len(k) == 2 for k in value)


def not_byte_level(attributes):
    """A message when what training left behind is not byte-level BPE (pairs of strings, symbols
    with an end-of-word marker); None when it is, or when nothing can be told."""
    for value in attributes.values():
        pairs = value if is_pair_dict(value) else None
        if pairs is None and isinstance(value, list) and value and all(isinstance(p, tuple) and len(p) == 2
                                                                        for p in value):
            pairs = dict.fromkeys(value)
        if pairs and all(isinstance(a, str) and isinstance(b, str) for a, b in pairs):
            example = next(iter(pairs))
            return (f"this is not byte-level BPE: its merges pair strings ({example!r}), so there are no byte "
                    "ids to grade. The course grades byte-level BPE: ids 0-255 are the bytes of the UTF-8 "
                    "text and every merge maps a pair of ids to a new id (workbook 04)")
    return None


def observation(expected, got):
    """Where a wrong value first differs from the right one, in words, without guessing why."""
    if isinstance(expected, dict) and isinstance(got, dict):
        return _dict_difference(expected, got)
    if isinstance(expected, (list, tuple, str, bytes)) and isinstance(got, type(expected)):
        for i, (e, g) in enumerate(zip(expected, got)):
            if e != g:
                return f"they first differ at index {i}: expected {safe_repr(e)}, got {safe_repr(g)}" + _meaning(e)
        if len(expected) != len(got):
            return f"expected {items(len(expected))}, got {len(got)}" + _where_lengths_part(expected, got)
    if expected is not None and not isinstance(got, (type(expected), Raised)):
        return f"expected a {type(expected).__name__}, got a {type(got).__name__}"
    return ""


def _where_lengths_part(expected, got):
    """What the longer of two lists, one the start of the other, has at its end: the first place
    they differ is where the shorter one stops."""
    if len(got) < len(expected):
        return f": yours ends early, where the expected one goes on with {safe_repr(expected[len(got):])}"
    return f": yours goes on past the expected end with {safe_repr(got[len(expected):])}"


def _meaning(expected):
    """What an expected item stands for, when it is not plain: U+FFFD replaces bytes that are not UTF-8."""
    if expected == "\ufffd":
        return " (U+FFFD, which decoding with errors='replace' puts where the bytes are not valid UTF-8)"
    return ""


def items(count):
    """'1 item', '3 items'."""
    return f"{count} item" if count == 1 else f"{count} items"


def _dict_difference(expected, got):
    missing = [k for k in expected if k not in got]
    extra = [k for k in got if k not in expected]
    wrong = [k for k in expected if k in got and got[k] != expected[k]]
    parts = []
    if missing:
        parts.append(f"missing {_few(missing)}")
    if extra:
        parts.append(f"not expected: {_few(extra)}")
    if wrong:
        k = wrong[0]
        parts.append(f"{safe_repr(k)} maps to {safe_repr(got[k])}, expected {safe_repr(expected[k])}")
    if not parts and list(expected) != list(got):
        parts.append("the same items, in another order")
    return "; ".join(parts)


def _few(keys):
    shown = ", ".join(safe_repr(k) for k in keys[:3])
    return shown + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")
