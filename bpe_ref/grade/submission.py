"""Grade one submission file (.ipynb or .py) in a sandbox process: the heart of bpe-grade."""

import time
from pathlib import Path

from . import exercises
from .checks import judge_workbook_values, workbook_exercise
from .engine import Result, run_exercise
from .sandbox import Sandbox
from .source import UnreadableSubmission, function_source, names_in, read_submission

# cell outcomes that say nothing is wrong with the submission itself
QUIET_CELL_ERRORS = {"NotImplementedError", "NameError"}


def grade_file(path, timeout=10.0, memory_mb=2048):
    """A dict: {'path', 'passed', 'exercises': {name: {'status', 'message', ...}}, 'notes': [...]}."""
    path = Path(path)
    try:
        cells, metadata = read_submission(path)
    except UnreadableSubmission as e:
        return summary(path, {}, [str(e)], error=str(e))
    sandbox = Sandbox(cells, cwd=str(path.parent.resolve()), timeout=timeout, memory_mb=memory_mb)
    try:
        loaded = sandbox.start()
        results = grade_loaded(sandbox, cells, metadata, loaded, timeout)
    finally:
        sandbox.close()
    return summary(path, results, cell_notes(sandbox, cells))


def grade_loaded(sandbox, cells, metadata, loaded, timeout):
    defined = sandbox.defined
    written = {name: index for index, cell in enumerate(cells) for name in names_in(cell["source"])}
    names = [n for n in exercises.CONTRACT
             if n in defined or n in written or n in metadata.get("exercises", [])]
    results = {}
    for name in names:
        if not loaded:
            results[name] = Result(name, "error", f"could not load the submission: {sandbox.load_failure}")
        elif name in defined:
            results[name] = grade_defined(sandbox, cells, name, defined[name], timeout)
        elif name in written:
            results[name] = never_defined(name, cells[written[name]]["name"], sandbox.cell_reports.get(written[name]))
        else:
            results[name] = Result(name, "missing", "not defined")
    if loaded and "merges" in defined and defined["merges"]["kind"] == "value" and (
            "merges" in metadata.get("exercises", []) or any(
                is_workbook_style(n, defined) for n in ("encode", "decode"))):
        results.update(grade_workbook_values(sandbox, defined, timeout))
    return results


def grade_defined(sandbox, cells, name, info, timeout):
    if info["kind"] == "reference":
        return Result(name, "reference", f"is the reference ({info['what']}), not your own code")
    if info["kind"] != "callable":
        return Result(name, "error", f"{name} should be a function, not a {info['type']}")
    return grade_callable(sandbox, cells, name, info, timeout)


NEVER_RAN = {
    "syntax": "syntax error in {where}, line {line}: {message}",
    "timeout": "{where} was still running at the time limit, so {name} was never defined",
    "crashed": "the process died in {where} (os._exit, a crash or the memory limit), so {name} was never defined",
    "exit": "{where} called sys.exit() before {name} was defined",
    "output_limit": "{where} printed more than 1 MB before {name} was defined",
    "error": "{where} raised {type} before {name} was defined: {message}",
    "reference": "{where} used the reference ({what}) before {name} was defined",
}


def never_defined(name, where, report):
    """Why a function the learner wrote does not exist after loading."""
    if not report or report.get("status") not in NEVER_RAN:
        return Result(name, "missing", f"not defined (the code in {where} did not define it)")
    fields = {"where": where, "name": name, "line": "?", "message": "", "type": "", "what": "", **report}
    if report["status"] == "syntax":
        fields["message"] = f"{report.get('message')}: {report.get('text')}".rstrip(": ")
    return Result(name, "error", NEVER_RAN[report["status"]].format(**fields))


def is_workbook_style(name, defined):
    return name in defined and defined[name]["kind"] == "callable" and defined[name].get("params") == 1


def grade_callable(sandbox, cells, name, info, timeout):
    ex = exercises.REGISTRY[name]
    deadline = time.monotonic() + timeout
    if name in exercises.WORKBOOK and info.get("params") == 1:
        reply = sandbox.get("merges", deadline)
        merges = reply.value if reply.kind == "ok" else None
        problem = exercises.check_workbook_merges(merges)
        if problem:
            return Result(name, "error", f"{name}() takes one argument, so it reads module-level merges: {problem}")
        text = sandbox.get("text", deadline).value if "text" in sandbox.defined else None
        ex = workbook_exercise(name, merges, text if isinstance(text, str) else None)
    call = lambda args: sandbox.call(name, args, deadline)  # noqa: E731
    return run_exercise(ex, call, source=function_source(cells, name), timeout=timeout)


def grade_workbook_values(sandbox, defined, timeout):
    """Module-level merges (a greedy BPE of module-level text, when there is one) and vocab."""
    deadline = time.monotonic() + timeout
    merges = sandbox.get("merges", deadline).value
    text = sandbox.get("text", deadline).value if "text" in defined else None
    vocab = sandbox.get("vocab", deadline).value if "vocab" in defined else None
    return {r.name: r for r in judge_workbook_values(merges, text, vocab)}


def cell_notes(sandbox, cells):
    """One line for each cell that went wrong in a way the learner should know about."""
    notes = []
    for index, report in sorted(sandbox.cell_reports.items()):
        where, status = cells[index]["name"], report.get("status")
        if status == "syntax":
            notes.append(f"{where}, line {report.get('line')}: syntax error: {report.get('message')}")
        elif status == "timeout":
            notes.append(f"{where}: still running after the time limit; skipped")
        elif status == "crashed":
            notes.append(f"{where}: the process died here (os._exit, a crash or the memory limit)")
        elif status == "exit":
            notes.append(f"{where}: called sys.exit(); the rest of the cell was skipped")
        elif status == "output_limit":
            notes.append(f"{where}: printed more than 1 MB; the rest of the cell was skipped")
        elif status == "error" and report.get("type") not in QUIET_CELL_ERRORS \
                and not cells[index].get("raises_on_purpose") and defines_graded_names(cells[index]):
            notes.append(f"{report.get('where') or where}: {report.get('type')}: {report.get('message')}")
    if sandbox.load_failure:
        notes.append(sandbox.load_failure)
    return notes


def defines_graded_names(cell):
    """Whether a cell holds the learner's work (an exercise, or module-level merges/vocab);
    errors in the course's own demo cells are not the learner's business."""
    return bool(names_in(cell["source"]) & (set(exercises.CONTRACT) | {"merges", "vocab"}))


def summary(path, results, notes, error=None):
    exercises_out = {name: {"status": r.status, "message": r.message, **r.detail} for name, r in results.items()}
    passed = bool(results) and all(r.passed for r in results.values())
    out = {"path": str(path), "passed": passed, "exercises": exercises_out, "notes": notes}
    if error:
        out["error"] = error
    return out
