"""The one-line checks learners run in their notebooks: check(merge), check_all().

They run the learner's function right here in the kernel, with a time limit per call and
its prints silenced, and print one line on success or a short report on failure.
"""

import contextlib
import functools
import copy
import inspect
import io
import os
import signal
import sys
import time

from . import exercises
from .engine import Result, run_exercise
from .sandbox import Reply
from .worker import required_params

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
GRADE_DIR = os.path.dirname(os.path.realpath(__file__))
ICONS = {"pass": "✅", "fail": "❌", "error": "💥", "timeout": "⏰", "missing": "⏳", "reference": "🚫"}


class CallTimeout(BaseException):
    """Raised inside a learner's call that ran past its time."""


@functools.lru_cache(maxsize=4096)
def real_path(filename):
    return os.path.realpath(filename)


class ReferenceWatch:
    """Notices when learner code calls into bpe_ref (outside the grader) or tiktoken."""

    def __init__(self):
        self.used = None

    def __call__(self, frame, event, arg):
        if self.used:
            return
        if event == "call":
            filename = real_path(frame.f_code.co_filename)
            if filename.startswith(PACKAGE_DIR) and not filename.startswith(GRADE_DIR):
                self.used = f"bpe_ref.{frame.f_code.co_name}"
            elif f"{os.sep}tiktoken{os.sep}" in filename:
                self.used = f"tiktoken.{frame.f_code.co_name}"
        elif event == "c_call" and str(getattr(arg, "__module__", "") or "").startswith("tiktoken"):
            self.used = f"tiktoken.{getattr(arg, '__name__', '?')}"


def is_reference(fn):
    module = getattr(fn, "__module__", "") or ""
    return module.startswith(("bpe_ref", "tiktoken", "minbpe")) and not module.startswith("bpe_ref.grade")


def direct_call(fn, deadline):
    """call(args) for the engine: run fn here, time-limited, silenced, watched."""
    def call(args):
        if time.monotonic() >= deadline:
            return Reply("timeout")
        given = copy.deepcopy(args)
        watch = ReferenceWatch()
        use_alarm = hasattr(signal, "setitimer") and _main_thread()
        if use_alarm:
            previous = signal.signal(signal.SIGALRM, _raise_timeout)
            signal.setitimer(signal.ITIMER_REAL, max(0.001, deadline - time.monotonic()))
        sys.setprofile(watch)
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                value = fn(*given)
        except NotImplementedError as e:
            return Reply("not_implemented", info={"not_implemented": str(e)})
        except CallTimeout:
            return Reply("timeout")
        except SystemExit:
            return Reply("exit")
        except MemoryError:
            return Reply("memory")
        except Exception as e:  # noqa: BLE001 - learner code may raise anything
            return Reply("raised", info={"raised": {"type": type(e).__name__, "message": str(e)[:300],
                                                    "where": _where(e),
                                                    "kinds": [c.__name__ for c in type(e).__mro__]}})
        finally:
            sys.setprofile(None)
            if use_alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
        if watch.used:
            return Reply("reference", info={"reference": watch.used})
        return Reply("ok", value, {"mutated": _safe_ne(given, args)})
    return call


def _safe_ne(a, b):
    try:
        return a != b
    except Exception:  # noqa: BLE001
        return False


def _main_thread():
    import threading
    return threading.current_thread() is threading.main_thread()


def _raise_timeout(signum, frame):
    raise CallTimeout()


def _where(exc):
    tb, found = exc.__traceback__, None
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.startswith(PACKAGE_DIR):
            found = f"line {tb.tb_lineno}"
        tb = tb.tb_next
    return found


def workbook_exercise(name, merges, text=None):
    """The exercise for encode(text)/decode(ids) that read the learner's module-level merges."""
    spec = exercises.WORKBOOK[name]
    diagnose = spec["diagnose"]
    return exercises.Exercise(
        name=name, signature=spec["signature"], cases=lambda: spec["cases"](merges, text),
        strategy=spec["strategy"](merges, text), hint=spec["hint"],
        diagnose=(lambda args, got: diagnose((args[0], merges), got)) if diagnose else None,
        judge=lambda args, got: spec["judge"](args, got, merges),
    )


def grade_function(fn, name=None, timeout=5.0):
    """Grade one learner function in this process; returns a Result."""
    name = name or getattr(fn, "__name__", None)
    if name not in exercises.REGISTRY:
        known = ", ".join(exercises.CONTRACT)
        raise ValueError(f"check() knows the exercises {known}; got {name!r}. Pass the name: check(fn, 'merge')")
    if fn is None or not callable(fn):
        return Result(name, "missing", "not defined yet: run the cell that defines it first")
    if is_reference(fn):
        return Result(name, "reference", f"is the reference ({fn.__module__}.{name}), not your own code")
    ex = exercises.REGISTRY[name]
    if name in exercises.WORKBOOK and required_params(fn) == 1:
        merges = getattr(fn, "__globals__", {}).get("merges")
        text = getattr(fn, "__globals__", {}).get("text")
        problem = exercises.check_workbook_merges(merges)
        if problem:
            return Result(name, "error", f"{name}() takes one argument, so it reads module-level merges: {problem}")
        ex = workbook_exercise(name, merges, text if isinstance(text, str) else None)
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError):
        source = None
    deadline = time.monotonic() + timeout
    return run_exercise(ex, direct_call(fn, deadline), source=source, timeout=timeout)


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
    return "\n".join(lines)


def judge_workbook_values(merges, text=None, vocab=None):
    """Results for module-level merges (a greedy BPE of `text`, when it is a str) and vocab (if given)."""
    text = text if isinstance(text, str) else None
    problem = exercises.check_workbook_merges(merges, text)
    done = f"{len(merges)} merges, a greedy BPE of `text`" if text else f"{len(merges)} well-formed merges"
    results = [Result("merges", "fail" if problem else "pass", problem or done)]
    if vocab is not None and not problem:
        vocab_problem = exercises.check_workbook_vocab(vocab, merges)
        results.append(Result("vocab", "fail" if vocab_problem else "pass", vocab_problem or "matches the merges"))
    return results


def workbook_values(namespace):
    """The workbook-style values of a notebook's namespace, judged (nothing if there are no merges)."""
    merges = namespace.get("merges")
    if not isinstance(merges, dict):
        return []
    return judge_workbook_values(merges, namespace.get("text"), namespace.get("vocab"))


def check(fn, name=None, timeout=5.0):
    """Check one exercise, e.g. check(merge); prints one line when it passes."""
    result = grade_function(fn, name, timeout)
    print(report(result))


def check_all(namespace=None, timeout=5.0):
    """Check every contract exercise defined in the notebook (the weekly drill's last cell)."""
    if namespace is None:
        namespace = inspect.currentframe().f_back.f_globals
    results = []
    for name in exercises.CONTRACT:
        fn = namespace.get(name)
        if callable(fn):
            results.append(grade_function(fn, name, timeout))
    results += workbook_values(namespace)
    for result in results:
        print(report(result))
    passed = sum(r.passed for r in results)
    print(f"{passed}/{len(results)} exercises pass" if results else "no exercise found yet: define get_stats, merge, ...")
    return None
