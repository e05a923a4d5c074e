"""Grade one submission file (.ipynb or .py) in a sandbox process: the heart of bpe-grade
(grade_file lists its stages: read, load, judge, withhold, report)."""

import ast
import dataclasses
import sys
import time
from pathlib import Path

from .judge import exercises
from .inside.calling import OUTPUT_LIMIT
from .judge.behaviour import CLASS_HELPERS, MethodCaller, find_by_behaviour
from .judge.word_level import grade_word_level
from .judge.classes import grade_classes
from .judge.diagnosis import not_byte_level
from .judge.display import call_text, show
from .judge.engine import Result, run_exercise
from .judge.module_style import ModuleStyle
from .judge.built_in_split import ENCODE_PROBE, CANDIDATES, agrees_in_encoding, told
from .judge.classes import graded_as, mapped_exercise
from .judge.shapes import Mapping
from .judge.unmade import unmade_rows
from .judge.variants import (SPECIALS_PROBE, CorpusOfOne, CountsAdded, CountsGiven, DropsPattern, MergesForVocab,
                             MergesInOrder, ModuleTables, SpecialsThird, TablesFirst, VocabAndMerges, WordFreqs,
                             adds_counts, counts_given, counts_into, counts_over_chunks, counts_over_words,
                             reads_merges_for_vocab, reads_merges_list, tables_first, takes_merges, vocab_and_merges)
from .walls.sandbox import PROCESSES, Sandbox, SandboxCaller, exercise_deadline
from .reading.reaching import UNREADABLE, parse, reaches_in, tainted
from .reading.source import DEF_RE, UnreadableSubmission, names_in, read_submission

# cell outcomes that say nothing is wrong with the submission itself
QUIET_CELL_ERRORS = {"NotImplementedError", "NameError"}


def grade_file(path, timeout=10.0, memory_mb=2048, isolated=False, file_timeout=None, run_as=None,
               processes=PROCESSES):
    """A dict: {'path', 'passed', 'exercises': {name: {'status', 'message', ...}}, 'notes': [...]}.

    `isolated` runs the submission behind bubblewrap's walls (isolation.py); `file_timeout` caps
    its whole wall time (default 20 x `timeout`); `run_as` (uid, gid) is the account a root grader
    without bubblewrap runs the learner's code as; `processes`, what the code may start.

    Grading one file is one list of stages, in order (as nbgrader's autograde lists its preprocessors):
      read      its cells as plain Python, and which workbook or drill of the course it is, from the
                course's own copy, never the file's metadata (reading/source.py, course_copy.py)
      load      the cells run in a sandbox of their own, which only answers (walls/sandbox.py)
      judge     each exercise found, by name or by behaviour, against the reference (judge/)
      withhold  no credit for code that reaches into the grader (reading/reaching.py)
      report    the verdicts, and notes on what failed to load or went ungraded
    """
    path = Path(path)
    try:
        cells, course = read_submission(path)  # read
    except UnreadableSubmission as e:
        return summary(path, {}, [str(e)], error=str(e))
    sandbox = Sandbox(cells, cwd=str(path.parent.resolve()), timeout=timeout, memory_mb=memory_mb,
                      isolated=isolated, file_timeout=file_timeout, run_as=run_as, processes=processes,
                      module="__main__" if path.suffix == ".ipynb" else module_name(path),  # a .py as on import
                      file=str(path.resolve()))
    notes = []  # exercises looked for by behaviour and not found
    try:
        loaded = sandbox.start()  # load
        results = grade_loaded(sandbox, cells, course, loaded, timeout, notes)  # judge
    finally:
        sandbox.close()
    results, flagged = withhold_reaching(results, cells)  # withhold
    return report(path, sandbox, cells, results, notes + flagged)  # report


NOT_BYTE_LEVEL = "merges and what reads it (encode, decode of one argument): not graded"


def report(path, sandbox, cells, results, notes):
    """The file's verdicts and notes; it is not passed while something in it went ungraded (word-level
    merges and what reads them among it)."""
    unloaded = not_loaded(sandbox, cells, read_by_functions(cells))
    ungraded = ungraded_classes(sandbox.defined, results)
    held_back = ungraded or [note for note in unloaded if "left ungraded" in note] \
        or [note for note in notes if note.startswith(NOT_BYTE_LEVEL)]
    return summary(path, results, cell_notes(sandbox, cells) + notes + unloaded + ungraded, held_back=bool(held_back))


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
    listed = listed_exercises(course)
    own = {name for cell in cells for name in names_in(cell["source"]) if name not in cell["given"]}
    given = {name for cell in cells for name in cell["given"]}
    for name, ex in exercises.REGISTRY.items():
        if ex.uses and all(n in own or n in defined for n in ex.uses):
            own.add(name)
    return [name for name in exercises.CONTRACT
            if name in listed or ((name in own or (name in defined and name not in given
                                                   and not imported(name, defined)))
                                  and not is_demo_value(name, defined))]


def imported(name, defined):
    """Whether a function under an exercise's name came in by an import (NLTK's word_tokenize),
    not from the submission's own code: never the learner's try at that exercise."""
    return defined[name].get("kind") == "callable" and defined[name].get("own") is False


def listed_exercises(course):
    """The exercises the course's copy of a workbook lists (its metadata's, and the workbook's own)."""
    return set(course.get("exercises", [])) | set(exercises.workbook_exercises(str(course.get("workbook"))))


def other_shape(name, defined, course):
    """Why a function under an exercise's name is not that exercise (None when it may be): in a
    file the course did not hand out, one whose parameters cannot take the exercise's arguments
    (CS336's merge(counts, pairs, ...) over word counts) does another job under the same name."""
    info = defined.get(name) or {}
    names, required = info.get("names"), info.get("params")
    if name in listed_exercises(course) or info.get("kind") != "callable" or names is None or required is None \
            or exercises.REGISTRY[name].uses or name in ("encode", "decode") or names[:1] == ["self"]:
        return None  # a method put at module level (merge = Tokenizer.merge) is the learner's slip
    wanted = len(exercises.REGISTRY[name].cases()[0])
    if required <= wanted <= len(names) or counts_into(name, names):
        return None
    return (f"{name}({', '.join(names)}) is not graded as the course's {exercises.REGISTRY[name].signature}: "
            f"its parameters take other arguments")


def is_demo_value(name, defined):
    """A plain value under an exercise's name (split_text = re.split(...) in a demo cell) is not
    the learner's try at that exercise, unless the workbook asks for it by that name."""
    info = defined.get(name)
    return info is not None and info.get("kind") == "value" and not exercises.REGISTRY[name].uses


def grade_loaded(sandbox, cells, metadata, loaded, timeout, notes=None):
    """{name: Result} for every exercise of a loaded submission; `notes` gets the lines about
    exercises looked for by behaviour and not found."""
    defined = sandbox.defined
    written = {name: index for index, cell in enumerate(cells) for name in names_in(cell["source"])}
    wanted = _module_style_wanted(defined, metadata)
    style = read_module_style(sandbox, timeout) if loaded and wanted else None
    if style is not None and wanted == "tables":
        style.text = None  # `text` may be any demo's: merges trained on a text of their own are judged as well formed
    if style is not None and metadata.get("drill"):
        style = style.for_drill()
    results = {}
    word_level = style is not None and not_byte_level({"merges": style.merges})
    if word_level and notes is not None:  # merges of strings: a word-level BPE, no byte-level exercise
        notes.append(f"{NOT_BYTE_LEVEL}, {word_level}")
    reads = function_reads(cells)
    names = graded_names(cells, metadata, defined)
    if notes is not None:
        notes += [f"{name} comes from an import, not from this file's code: not graded" for name in exercises.CONTRACT
                  if name in defined and name not in names and imported(name, defined)]
    for name in names:
        if word_level and name in ("encode", "decode") and defined.get(name, {}).get("params") == 1:
            continue
        other = other_shape(name, defined, metadata)
        if other:
            if notes is not None:
                notes.append(other)
            continue
        if not loaded:
            results[name] = Result(name, "error", f"could not load the submission: {sandbox.load_failure}")
        elif exercises.REGISTRY[name].uses:
            results[name] = grade_combined(sandbox, name, timeout)
        elif name in defined:
            extra = {}
            results[name] = grade_defined(sandbox, name, defined[name], style, timeout, reads.get(name, frozenset()),
                                          as_written=name not in listed_exercises(metadata), extra=extra)
            results.update(extra)
        elif name in written:
            results[name] = never_defined(name, cells[written[name]]["name"], sandbox.cell_reports.get(written[name]))
        else:
            results[name] = Result(name, "missing", "not defined")
    untrained = wanted == "tables" and style is not None and isinstance(style.merges, dict) and not style.merges
    if style is not None and not word_level and not untrained and "merges" in defined \
            and defined["merges"]["kind"] == "value":  # an empty `merges` beside no trainer: its cell never trained
        results.update({r.name: r for r in style.value_results()})
    if loaded:
        results.update({r.name: r for r in ModuleStyle.missing(metadata.get("exercises", []), results)})
        results.update(grade_classes(sandbox, timeout, notes))  # tokenizer classes, CS336's train_bpe
        results.update(grade_word_level(sandbox, sandbox.defined, results, timeout))  # BPE(corpus, vocab_size)
        results.update({name: row for name, row in unmade_classes(sandbox, cells).items() if name not in results})
        given = {name for cell in cells for name in cell["given"]}  # the course's own helpers and demos
        given |= {name for cell in cells if cell.get("course") for name in bound_names(cell["source"])}
        results.update(grade_by_behaviour(sandbox, results, given, timeout, notes if notes is not None else []))
    return results


def unmade_classes(sandbox, cells):
    """{learner name: Result}: an error row for each tokenizer method of a class that a cell
    which failed to load wrote and never made (judge/unmade.py)."""
    failed = {index for index, report in sandbox.cell_reports.items()
              if report.get("status") in LOAD_FAILURES and not cells[index].get("raises_on_purpose")}
    return unmade_rows(cells, failed, sandbox.defined,
                       lambda name, index: never_defined(name, cells[index]["name"], sandbox.cell_reports[index]))


def bound_names(source):
    """The names a cell binds at its top level: defined, assigned or imported (the course's own
    cells bind the helpers and stand-ins a workbook uses, none of them the learner's)."""
    names = set(names_in(source))
    tree = parse(source)
    for node in tree.body if tree is not None and tree is not UNREADABLE else ():
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return names


def grade_by_behaviour(sandbox, results, given, timeout, notes):
    """{learner name: Result} for the functions found by what they do (judge/behaviour.py)."""
    have = {r.detail.get("course", name) for name, r in results.items()
            if r.status != "missing" and not r.detail.get("word_level")}  # a word-level train is no byte-level design
    finding = find_by_behaviour(sandbox, sandbox.defined, set(results) | given, have)
    graded = {}
    for learner, exercise in finding.found.items():  # the learner's own names: no workbook's contract
        ex = dataclasses.replace(own_contract(exercises.REGISTRY[exercise]), name=learner)
        kind = MethodCaller if learner in finding.methods else SandboxCaller
        caller = kind(sandbox, learner, exercise_deadline(timeout))
        layout = finding.layouts.get(learner)  # a trainer's layout: variants.OverIds, FlatIds, ReturnsMerges
        caller = layout(caller) if layout else caller
        how = caller.how if layout else "it behaves like it on the probes"
        if learner in finding.by_name:
            how = "taken for it by its name: it raised NameError on most probes, so what it does could not tell"
        graded[learner] = graded_as(run_exercise(ex, caller, timeout), exercise, how)
    notes += finding.notes()
    return graded


def withhold_reaching(results, cells):
    """(results, notes): an exercise whose code, a helper it uses, or the code outside any def
    reaches into the grader or hides itself (reading/reaching.py) earns nothing, whatever the
    sandbox answered: it is an error, flagged for a human look. The course's own cells (given helpers, the loader of its first cell) are its own."""
    found, uses = reaches_in([cell["source"] for cell in cells if not cell.get("given") and not cell.get("course")])
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
    metadata that lists `merges` (a drill): True. "tables": module-level `merges` that its
    module-level loop trained, for functions that take the tables as arguments (bpe_encode(text,
    merges)) or for nothing yet (with a train function of its own, `merges` is that function's demo
    output, no exercise). False otherwise."""
    one_argument = any(defined.get(n, {}).get("kind") == "callable" and defined[n].get("params") == 1
                       for n in ("encode", "decode"))
    own = {name: info for name, info in defined.items() if info.get("own")}
    # made at module level (no trainer of its own, whose demo output it would be): judged, whether
    # functions take it as an argument (bpe_encode(text, merges)) or nothing reads it yet
    takes_tables = defined.get("merges", {}).get("kind") == "value" and not any(
        name.lower().startswith(("train", "fit", "learn")) for name in own)
    if "merges" not in defined:
        return False
    if one_argument or "merges" in metadata.get("exercises", []):
        return True
    return "tables" if takes_tables else False


OTHER_TEXTS = 8  # module-level strings besides `text` a notebook may have trained its merges on


def read_module_style(sandbox, timeout):
    """The learner's module-level text, merges and vocab, fetched from the sandbox once."""
    deadline = exercise_deadline(timeout)

    def get(name):
        if name not in sandbox.defined:
            return None
        reply = sandbox.get(name, deadline)
        return reply.value if reply.kind == "ok" else None

    others = [name for name, info in sandbox.defined.items() if info.get("type") == "str"][:OTHER_TEXTS]
    return ModuleStyle.read(get, others)


# (detector(exercise, params, call), layout): an encode reading merges as a list of pairs, a decode
# reading merges under another name, a get_stats over a list of id lists or over a word-frequency table,
# or one that needs the dict it counts into
TOLD_BY_ANSWERS = ((reads_merges_list, MergesInOrder), (reads_merges_for_vocab, MergesForVocab),
                   (counts_over_chunks, CorpusOfOne), (counts_over_words, WordFreqs), (counts_given, CountsGiven))


def grade_defined(sandbox, name, info, style, timeout, reads=frozenset(), as_written=False, extra=None):
    """The Result of the function `name`, defined; `reads`: the module-level names its body reads.
    `as_written`: the course did not ask for it (no workbook lists it), so a split of its own counts;
    `extra` gets the further rows such a function earns (its special tokens)."""
    if info["kind"] == "reference":
        return Result(name, "reference", f"is the reference ({info['what']}), not your own code")
    if info["kind"] != "callable":
        return Result(name, "error", f"{name} should be a function, not a {info['type']}")
    ex = exercises.REGISTRY[name]
    ex = own_contract(ex) if as_written else ex
    caller = SandboxCaller(sandbox, name, exercise_deadline(timeout))
    if name in ("encode", "decode") and info.get("params") == 1:
        if style is None and reads & {"merges", "vocab"}:  # its tables were never made: the course's, as globals
            result = run_exercise(ex, ModuleTables(caller), timeout)
            result.detail["exercise"] = f"graded as the course's {name}: {ModuleTables.how}"
            return result
        problem = style.problem() if style is not None else "`merges` is not defined"
        if problem:
            return one_argument_result(sandbox, name, problem, timeout)
        ex = style.exercise(name)
    params = info.get("names") or []
    layout = MergesForVocab if takes_merges(name, params) else TablesFirst if tables_first(name, params) \
        else VocabAndMerges.ordered(params) if vocab_and_merges(name, params) else None
    for shows, variant in TOLD_BY_ANSWERS:  # variants only the function's answers tell apart
        if layout is None and shows(name, params, caller.call):
            layout = variant
    if layout is None and as_written and (split := own_split(name, caller, timeout, params, extra)):
        return split
    if layout is None:
        result = run_exercise(ex, caller, timeout)
        if result.passed and adds_counts(name, params, len(params) - (info.get("params") or len(params))):
            added = run_exercise(ex, CountsAdded(caller), timeout)  # what its optional counts promises
            if not added.passed:
                added.detail["exercise"] = f"graded as the course's {name}, and as {CountsAdded.how}"
                return added
        return result
    result = run_exercise(ex, layout(caller), timeout)  # a signature variant, in its own terms
    result.detail["exercise"] = f"graded as the course's {name} as written: {layout.how}"
    return result


def own_contract(ex):
    """The exercise as code no workbook asked for is judged: on what it returns. A merge that changes
    the list it is given is right by its answers; only the workbook asks for a new list."""
    return dataclasses.replace(ex, checks_mutation=False) if ex.checks_mutation else ex


def own_split(name, caller, timeout=10.0, params=(), extra=None):
    """The Result of an encode(text, merges) that splits the text with GPT-2's or GPT-4's pattern of
    its own (a tutorial's function, not the course's 06 exercise), graded as encode_ordinary with it;
    None when its answer on built_in_split's probe shows no split, or several. An encode that also
    takes `special_tokens` puts its row for them in `extra` (own_specials)."""
    if name != "encode":
        return None
    reply = caller.call(ENCODE_PROBE)
    pattern = told(agrees_in_encoding, reply.value) if reply.kind == "ok" else None
    if not pattern:
        return None
    how = f"encode(text, merges), which splits the text as {CANDIDATES[pattern]} does"
    ex = mapped_exercise(Mapping(name, "encode_ordinary", how, None, pattern=pattern))
    result = graded_as(run_exercise(ex, DropsPattern(caller), timeout), "encode_ordinary", how)
    if extra is not None and len(params) >= 3 and "special" in params[2].lower():
        extra.update(own_specials(name, caller, pattern, timeout))
    return result


def own_specials(name, caller, pattern, timeout):
    """{'encode:special_tokens': Result} for an encode(text, merges, special_tokens) with a split
    of its own that takes a dict {token: id} and puts the ids in (SPECIALS_PROBE): the course's
    encode_special, every special token allowed. Nothing when the probe shows another shape."""
    reply = caller.call(SPECIALS_PROBE)
    if reply.kind != "ok" or reply.value != [97, 300, 98]:
        return {}
    row = f"{name}:special_tokens"
    how = f"{name}(text, merges, special_tokens {{token: id}}), which splits the rest as {CANDIDATES[pattern]} does"
    ex = mapped_exercise(Mapping(row, "encode_special", how, None, pattern=pattern, only_all=True))
    return {row: graded_as(run_exercise(ex, SpecialsThird(caller), timeout), "encode_special", how)}


ONE_ARGUMENT_PROBE = {"encode": ("aaabdaaabac",), "decode": ([97, 98, 99],)}


def one_argument_result(sandbox, name, problem, timeout):
    """encode(text) or decode(ids) with no usable module-level merges: what it was called as, and
    what it answers on a small input, without guessing what it meant to read."""
    args = ONE_ARGUMENT_PROBE[name]
    reply = sandbox.call(name, args, time.monotonic() + min(timeout, 2.0))
    seen = ""
    if reply.kind == "ok":
        seen = f"; {call_text(name, args)} returned {show(reply.value, 80)}"
    elif reply.kind == "raised":
        seen = f"; {call_text(name, args)} raised {reply.info['raised'].get('type')}"
    wanted = exercises.REGISTRY[name].signature.split(" ->")[0]
    which = "no module-level merges to go with it" if problem.startswith("`merges` is not") \
        else "its module-level merges cannot be used"
    return Result(name, "error", f"{name}() takes one argument, and {which} ({problem}), "
                                 f"so it could not be graded as {wanted}{seen}")


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
    hint = load_hint(report)
    return Result(name, "error", NEVER_RAN[report["status"]].format(**fields), {"hint": hint} if hint else {})


def load_hint(report):
    """What to do about an error that stopped the file loading, when the error itself says: Python's
    re raising on \\p{L} (GPT-2's and GPT-4's patterns need the third-party regex module)."""
    message = str(report.get("message") or "")
    if report.get("status") == "error" and report.get("type") in ("error", "PatternError") \
            and message.startswith(("bad escape \\p", "bad escape \\P")):
        return ("Python's re does not know \\p{L} or \\p{N}: import regex (the third-party module) and compile "
                "the split pattern with it")
    return None


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


LOAD_FAILURES = ("error", "syntax", "timeout", "crashed", "memory", "exit", "reference")
TOKENIZER_METHODS = {"train", "encode", "decode", "encode_ordinary", "encode_iterable"}


def not_loaded(sandbox, cells, needed=frozenset()):
    """One note per cell of the learner's own code that failed to load, naming the line, the
    exception and what it leaves undefined. What it leaves ungraded (a def or a class, or a value
    a function reads: `needed`) keeps the file from `passed`; a demo's value no function reads
    (a plot, a tiktoken comparison, a package the demo lacks) is only named."""
    notes = []
    for index, report in sorted(sandbox.cell_reports.items()):
        cell = cells[index]
        defined = names_in(cell["source"]) - set(cell["given"])
        if report.get("status") not in LOAD_FAILURES or cell.get("raises_on_purpose") or cell.get("course") \
                or not defined:  # the course's own cells (a demo that needs tiktoken) are not the learner's code
            continue
        missing = sorted(name for name in defined if name not in sandbox.defined)
        kept = definitions_in(cell["source"]) | set(needed) | set(exercises.CONTRACT) | {"merges", "vocab"}
        left, demo = [n for n in missing if n in kept], [n for n in missing if n not in kept]
        where = report.get("where") or cell["name"]
        what = f"{report.get('type')}: {report.get('message')}" if report.get("status") == "error" \
            else report.get("message") or report.get("status")
        text = report.get("line") if isinstance(report.get("line"), str) else report.get("text")
        shown = f" (`{text}`)" if text else ""
        also = f"; left ungraded: {', '.join(left)}" if left else ""
        after = report.get("defined_after") or []
        also += f"; the functions after that line were still made, and graded: {', '.join(after)}" if after else ""
        also += f"; not defined, but no function reads it: {', '.join(demo)}" if demo else ""
        notes.append(f"not loaded: {where}{shown}: {what}{also}")
    return notes


def definitions_in(source):
    """The names a piece of source defines with def or class (even if it does not parse)."""
    return {m.group(1) for m in DEF_RE.finditer(source) if m.group(1)}


def read_by_functions(cells):
    """Global names the learner's functions and classes read (free names of their bodies): a value
    bound at top level for them (merges, a pattern) is part of what the file defines."""
    return set().union(*(free_names(node) for node in top_level_defs(cells, ast.ClassDef)))


def function_reads(cells):
    """{name: the free names of its body} for each top-level def in the learner's cells; a function
    defined again keeps its last definition's."""
    return {node.name: frozenset(free_names(node)) for node in top_level_defs(cells)}


def top_level_defs(cells, *also):
    """The top-level defs (and nodes of the kinds `also`) of the learner's cells, in order."""
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, *also)
    for cell in cells:
        tree = parse(cell["source"]) if not cell.get("course") else None
        for node in tree.body if tree is not None and tree is not UNREADABLE else ():
            if isinstance(node, kinds):
                yield node


def free_names(node):
    """Names a def or class reads and does not bind itself (parameters, assignments, imports)."""
    read, bound = set(), set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name):
            (read if isinstance(inner.ctx, ast.Load) else bound).add(inner.id)
        elif isinstance(inner, ast.arg):
            bound.add(inner.arg)
        elif isinstance(inner, (ast.Import, ast.ImportFrom)):
            bound |= {(alias.asname or alias.name).split(".")[0] for alias in inner.names}
    return read - bound


def ungraded_classes(defined, results):
    """A note for each tokenizer class (a class with train/encode/decode methods) that no exercise
    was graded on: a file is not `passed` while part of its tokenizer went unjudged."""
    # a class's helper graded alone (its get_stats, its merge) is not its tokenizer graded
    graded = {name.split(".")[0] for name, r in results.items() if r.detail.get("course") not in CLASS_HELPERS}
    notes = []
    for name, info in defined.items():
        # an inherited method is graded under the base class that wrote it
        methods = set(info.get("methods") or ()) - set(info.get("stubs") or ()) - set(info.get("inherited") or ())
        if methods & TOKENIZER_METHODS and name not in graded:
            notes.append(f"not graded: the class {name} (methods {', '.join(sorted(methods & TOKENIZER_METHODS))}) "
                         "matched no exercise the grader knows")
    return notes


def summary(path, results, notes, error=None, held_back=False):
    exercises_out = {name: {"status": r.status, "message": r.message, **r.detail} for name, r in results.items()}
    passed = bool(results) and all(r.passed for r in results.values()) and not held_back
    out = {"path": str(path), "passed": passed, "exercises": exercises_out, "notes": notes}
    if error:
        out["error"] = error
    return out
