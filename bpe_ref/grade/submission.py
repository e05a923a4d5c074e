"""Grade one submission file (.ipynb or .py) in a sandbox process: the heart of bpe-grade."""

import sys
import time
from pathlib import Path

from .judge import exercises
from .inside.calling import OUTPUT_LIMIT
from .judge.classes import grade_classes
from .judge.engine import Result, run_exercise
from .judge.module_style import ModuleStyle
from .walls.sandbox import PROCESSES, Sandbox, SandboxCaller, exercise_deadline
from .reading.reaching import reaches_in, tainted
from .reading.source import UnreadableSubmission, names_in, read_submission

# cell outcomes that say nothing is wrong with the submission itself
QUIET_CELL_ERRORS = {"NotImplementedError", "NameError"}


def grade_file(path, timeout=10.0, memory_mb=2048, isolated=False, file_timeout=None, run_as=None,
               processes=PROCESSES):
    """A dict: {'path', 'passed', 'exercises': {name: {'status', 'message', ...}}, 'notes': [...]}.

    `isolated` runs the submission behind bubblewrap's walls (isolation.py); `file_timeout` caps
    its whole wall time (default 20 x `timeout`); `run_as` (uid, gid) is the account a root grader
    without bubblewrap runs the learner's code as."""
    path = Path(path)
    try:
        cells, metadata = read_submission(path)
    except UnreadableSubmission as e:
        return summary(path, {}, [str(e)], error=str(e))
    module = "__main__" if path.suffix == ".ipynb" else module_name(path)  # a .py runs as on import
    sandbox = Sandbox(cells, cwd=str(path.parent.resolve()), timeout=timeout, memory_mb=memory_mb,
                      isolated=isolated, file_timeout=file_timeout, module=module, run_as=run_as,
                      file=str(path.resolve()), processes=processes)
    try:
        loaded = sandbox.start()
        results = grade_loaded(sandbox, cells, metadata, loaded, timeout)
    finally:
        sandbox.close()
    results, flagged = withhold_reaching(results, cells)
    return summary(path, results, cell_notes(sandbox, cells) + flagged)


def module_name(path):
    """The name `import` would give a .py file ('tokenizer' for tokenizer.py), or 'submission'
    when its stem is no identifier ('04 naive-bpe.py') or would hide a module the sandbox has
    (json.py, regex.py)."""
    taken = set(sys.stdlib_module_names) | {"regex", "nltk", "bpe_ref", "tiktoken", "tiktoken_ext", "minbpe"}
    return path.stem if path.stem.isidentifier() and path.stem not in taken else "submission"


def graded_names(cells, course, defined):
    """The exercises this submission is graded on, in catalogue order: those it defines or writes,
    and those the course's copy of its workbook lists (`course`, from source.read_submission, never
    the submission's own metadata). Names defined only in the course's given cells (ready-made
    helpers such as get_stats in workbook 06) are not the workbook's exercises, unless it lists them."""
    listed = set(course.get("exercises", [])) | set(exercises.workbook_exercises(str(course.get("workbook"))))
    own = {name for cell in cells for name in names_in(cell["source"]) if name not in cell["given"]}
    given = {name for cell in cells for name in cell["given"]}
    for name, ex in exercises.REGISTRY.items():
        if ex.uses and all(n in own or n in defined for n in ex.uses):
            own.add(name)
    return [name for name in exercises.CONTRACT
            if name in listed or name in own or (name in defined and name not in given)]


def grade_loaded(sandbox, cells, metadata, loaded, timeout):
    defined = sandbox.defined
    written = {name: index for index, cell in enumerate(cells) for name in names_in(cell["source"])}
    style = read_module_style(sandbox, timeout) if loaded and _module_style_wanted(defined, metadata) else None
    if style is not None and metadata.get("drill"):
        style = style.for_drill()
    results = {}
    for name in graded_names(cells, metadata, defined):
        if not loaded:
            results[name] = Result(name, "error", f"could not load the submission: {sandbox.load_failure}")
        elif exercises.REGISTRY[name].uses:
            results[name] = grade_combined(sandbox, name, timeout)
        elif name in defined:
            results[name] = grade_defined(sandbox, name, defined[name], style, timeout)
        elif name in written:
            results[name] = never_defined(name, cells[written[name]]["name"], sandbox.cell_reports.get(written[name]))
        else:
            results[name] = Result(name, "missing", "not defined")
    if style is not None and "merges" in defined and defined["merges"]["kind"] == "value":
        results.update({r.name: r for r in style.value_results()})
    if loaded:
        results.update({r.name: r for r in ModuleStyle.missing(metadata.get("exercises", []), results)})
        results.update(grade_classes(sandbox, timeout))  # tokenizer classes, CS336's train_bpe
    return results


def withhold_reaching(results, cells):
    """(results, notes): an exercise whose code, a helper it uses, or the code outside any def
    reaches into the grader or hides itself (reading/reaching.py) earns nothing, whatever the
    sandbox answered: it is an error, flagged for a human look. The course's given cells are its own."""
    found, uses = reaches_in([cell["source"] for cell in cells if not cell.get("given")])
    out, notes = {}, []
    for name, result in results.items():
        reach = tainted(found, uses, name.split(".")[0].split(":")[0])
        if reach is None or result.status in ("missing", "reference"):
            out[name] = result
            continue
        verb = "hides its code from the grader" if reach.hides else "reaches into the grader"
        message = f"{verb} ({reach.what}, line {reach.line}): the exercise earns nothing; flagged for a human look"
        out[name] = Result(name, "error", message, {"note": message, "flag": verb})
        notes.append(f"{name}: {message}")
    return out, notes


def _module_style_wanted(defined, metadata):
    """Whether the submission is in the module-level style: encode/decode of one argument, or
    metadata that lists `merges` (a drill)."""
    one_argument = any(defined.get(n, {}).get("kind") == "callable" and defined[n].get("params") == 1
                       for n in ("encode", "decode"))
    return "merges" in defined and (one_argument or "merges" in metadata.get("exercises", []))


def read_module_style(sandbox, timeout):
    """The learner's module-level text, merges and vocab, fetched from the sandbox once."""
    deadline = exercise_deadline(timeout)

    def get(name):
        if name not in sandbox.defined:
            return None
        reply = sandbox.get(name, deadline)
        return reply.value if reply.kind == "ok" else None

    return ModuleStyle.read(get)


def grade_defined(sandbox, name, info, style, timeout):
    if info["kind"] == "reference":
        return Result(name, "reference", f"is the reference ({info['what']}), not your own code")
    if info["kind"] != "callable":
        return Result(name, "error", f"{name} should be a function, not a {info['type']}")
    ex = exercises.REGISTRY[name]
    if name in ("encode", "decode") and info.get("params") == 1:
        problem = style.problem() if style is not None else "`merges` is not defined"
        if problem:
            return Result(name, "error", f"{name}() takes one argument, so it reads module-level merges: {problem}")
        ex = style.exercise(name)
    return run_exercise(ex, SandboxCaller(sandbox, name, exercise_deadline(timeout)), timeout)


def grade_combined(sandbox, name, timeout):
    """An exercise made of several functions (save_load): graded when all of them are defined."""
    ex = exercises.REGISTRY[name]
    absent = [n for n in ex.uses if sandbox.defined.get(n, {}).get("kind") != "callable"]
    if absent:
        return Result(name, "missing", f"define {' and '.join(absent)}")
    return run_exercise(ex, SandboxCaller(sandbox, name, exercise_deadline(timeout), ex.combine), timeout)


NEVER_RAN = {
    "syntax": "syntax error in {where}, line {line}: {message}",
    "timeout": "{where} was still running at the time limit, so {name} was never defined",
    "crashed": "the process died in {where} (os._exit, a crash or the memory limit), so {name} was never defined",
    "exit": "{where} called sys.exit() or os._exit() before {name} was defined",
    "error": "{where} raised {type} before {name} was defined: {message}",
    "reference": "{where} used the reference ({what}) before {name} was defined",
    "memory": "{where} ran out of memory (the --memory limit) before {name} was defined",
}


def never_defined(name, where, report):
    """Why a function the learner wrote does not exist after loading."""
    if not report or report.get("status") not in NEVER_RAN:
        return Result(name, "missing", f"not defined (the code in {where} did not define it)")
    fields = {"where": where, "name": name, "line": "?", "message": "", "type": "", "what": "", **report}
    fields["where"] = where  # the cell's name, not the line inside it
    if report["status"] == "syntax":
        fields["message"] = f"{report.get('message')}: {report.get('text')}".rstrip(": ")
    return Result(name, "error", NEVER_RAN[report["status"]].format(**fields))


def cell_notes(sandbox, cells):
    """One line for each cell that went wrong in a way the learner should know about."""
    notes = []
    for index, report in sorted(sandbox.cell_reports.items()):
        where, status = cells[index]["name"], report.get("status")
        if report.get("printed", 0) > OUTPUT_LIMIT:
            notes.append(f"{where} printed {report['printed'] / 1e6:.1f} MB; only the output was dropped, "
                         "the code ran to the end")
        if status == "syntax":
            notes.append(f"{where}, line {report.get('line')}: syntax error: {report.get('message')}")
        elif status == "timeout":
            notes.append(f"{where}: still running after the time limit; skipped")
        elif status == "crashed":
            notes.append(f"{where}: the process died here (os._exit, a crash or the memory limit)")
        elif status == "exit":
            notes.append(f"{where}: called sys.exit() or os._exit(); the rest of the cell was skipped")
        elif status == "memory":
            notes.append(f"{where}: ran out of memory (the --memory limit); the rest of the cell was skipped")
        elif status == "error" and report.get("type") not in QUIET_CELL_ERRORS \
                and not cells[index].get("raises_on_purpose") and defines_graded_names(cells[index]):
            line = f": {report['line']}" if report.get("line") else ""
            notes.append(f"{report.get('where') or where}{line}: {report.get('type')}: {report.get('message')}")
    if sandbox.load_failure:
        notes.append(sandbox.load_failure)
    return notes


def defines_graded_names(cell):
    """Whether a cell holds the learner's work (an exercise, or module-level merges/vocab);
    errors in the course's own demo cells are not the learner's business."""
    return bool((names_in(cell["source"]) - set(cell["given"])) & (set(exercises.CONTRACT) | {"merges", "vocab"}))


def summary(path, results, notes, error=None):
    exercises_out = {name: {"status": r.status, "message": r.message, **r.detail} for name, r in results.items()}
    passed = bool(results) and all(r.passed for r in results.values())
    out = {"path": str(path), "passed": passed, "exercises": exercises_out, "notes": notes}
    if error:
        out["error"] = error
    return out
