"""The one-line checks learners run in their notebooks: check(merge), check_all().

They run the learner's function right here in the kernel, through calling.py as the sandbox
does (a time limit per call, prints dropped, the learner's own line on an error), and print one
line on success or a short report on failure.
"""

import inspect
import os
import time

from ..inside import byhand, calling, work
from . import exercises
from .engine import Result, run_exercise
from .module_style import ModuleStyle
from ..walls.sandbox import Reply, reply_from, split_twice

ICONS = {"pass": "✅", "fail": "❌", "error": "💥", "timeout": "⏰", "missing": "⏳", "reference": "🚫"}


class DirectCaller:
    """The engine's way to run a learner function here in the kernel, before a deadline.

    For an exercise of several functions, `combine(call, args)` runs them, found in `namespace`.
    """

    def __init__(self, fn, deadline, combine=None, namespace=None):
        self.fn, self.deadline, self.combine, self.namespace = fn, deadline, combine, namespace

    def seconds(self):
        return self.deadline - time.monotonic()

    def call(self, args, rule=None, twice=False):
        if self.combine:
            return self.combine(lambda name, arguments: self.call_function(self.namespace[name], arguments), args)
        return self.call_function(self.fn, args, rule, twice)

    def call_function(self, fn, args, rule=None, twice=False):
        if self.seconds() <= 0:
            return Reply("timeout")
        refuses = byhand.refuser(rule) if rule else None
        reply = reply_from(calling.call(fn, args, self.seconds(), refuses=refuses, twice=twice))
        return split_twice(reply) if twice else reply

    def by_hand(self, rule):
        return byhand.static_shortcuts(self.fn, rule, calling.is_learner_file)

    def measure(self, text, vocab_size):
        def run(counted_text, size):
            return calling.invoke(lambda: self.fn(counted_text, size), self.seconds(), fn=self.fn,
                                  watch=calling.Watch())

        outcome, lookups = work.count_lookups(run, text, vocab_size, namespace=getattr(self.fn, "__globals__", None))
        return reply_from(outcome), lookups


def is_reference(fn):
    module = getattr(fn, "__module__", "") or ""
    return module.startswith(("bpe_ref", "tiktoken", "minbpe")) and not module.startswith("bpe_ref.grade")


def grade_function(fn, name=None, timeout=5.0):
    """Grade one learner function in this process; returns a Result (what check() prints).

    >>> grade_function(merge).status
    'pass'
    """
    name = name or getattr(fn, "__name__", None)
    if name not in exercises.REGISTRY:
        known = ", ".join(exercises.CONTRACT)
        raise ValueError(f"check() knows the exercises {known}; got {name!r}. Pass the name: check(fn, 'merge')")
    if fn is None or not callable(fn):
        return Result(name, "missing", "not defined yet: run the cell that defines it first")
    if is_reference(fn):
        return Result(name, "reference", f"is the reference ({fn.__module__}.{name}), not your own code")
    ex = exercises.REGISTRY[name]
    if name in ("encode", "decode") and calling.required_params(fn) == 1:
        style = ModuleStyle.read(getattr(fn, "__globals__", {}).get)
        problem = style.problem()
        if problem:
            return Result(name, "error", f"{name}() takes one argument, so it reads module-level merges: {problem}")
        ex = style.exercise(name)
    return run_exercise(ex, DirectCaller(fn, time.monotonic() + timeout), timeout)


def grade_combined(name, namespace, timeout=5.0):
    """Grade an exercise made of several functions (save_load), found in `namespace`."""
    ex = exercises.REGISTRY[name]
    return run_exercise(ex, DirectCaller(None, time.monotonic() + timeout, ex.combine, namespace), timeout)


def report(result):
    """The text a learner sees for one result."""
    icon = ICONS[result.status]
    if result.status == "pass":
        return f"{icon} {result.name}: {result.message}"
    if result.status == "missing":
        return f"{icon} {result.name}: {result.message} (write it above, then run this cell again)"
    detail = result.detail
    if "call" not in detail:
        lines = [f"{icon} {result.name}: {result.message}"]
    else:
        lines = [f"{icon} {result.name} is not right yet.",
                 f"   call:     {detail['call']}",
                 f"   expected: {detail['expected']}",
                 f"   got:      {detail['got']}"]
        if detail.get("note"):
            lines.append(f"   why:      {detail['note']}")
    if detail.get("hint"):
        lines.append(f"   hint:     {detail['hint']}")
    for key, label in (("also", "also:    "), ("refused", "note:    ")):
        if detail.get(key):
            lines.append(f"   {label} {detail[key]}")
    return "\n".join(lines)


NBGRADER_RUNS = ("autograde", "validate")  # the values nbgrader gives NBGRADER_EXECUTION


def under_nbgrader():
    """Whether nbgrader's autograder or validator is running this kernel."""
    return os.environ.get("NBGRADER_EXECUTION") in NBGRADER_RUNS


def check(fn, name=None, timeout=5.0):
    """Check one exercise; prints one line when it passes, or the call, what was expected and what
    came back, why, and a hint.

    In a notebook a check never raises, so Run All goes on. nbgrader scores a test cell by whether
    it raises, so under nbgrader's autograder a check that does not pass also raises
    AssertionError with the same report, and its cell earns none of its points.

    >>> check(merge)
    ✅ merge: passed 8 edge cases and 80 generated ones
    """
    result = grade_function(fn, name, timeout)
    text = report(result)
    print(text)
    if not result.passed and under_nbgrader():
        raise AssertionError(text)


def check_all(namespace=None, timeout=5.0):
    """Check every exercise defined in the notebook (the weekly drill's last cell)."""
    if namespace is None:
        namespace = inspect.currentframe().f_back.f_globals
    results = [grade_function(namespace[name], name, timeout)
               for name in exercises.CONTRACT if callable(namespace.get(name))]
    results += [grade_combined(name, namespace, timeout) for name, ex in exercises.REGISTRY.items()
                if ex.uses and all(callable(namespace.get(n)) for n in ex.uses)]
    if isinstance(namespace.get("merges"), dict):
        results += ModuleStyle.read(namespace.get).value_results()
    for result in results:
        print(report(result))
    passed = sum(r.passed for r in results)
    print(f"{passed}/{len(results)} exercises pass" if results else "no exercise found yet: define get_stats, merge, ...")
