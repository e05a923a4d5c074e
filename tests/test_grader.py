"""The grader against known learners.

tests/learners/ holds small submissions (.py and .ipynb), each right, or wrong in known ways, or
hostile. Each one says in its own header (the module docstring or leading comment of a .py, the
first markdown cell of a notebook) what the grader must report:

    expect: get_stats pass, merge pass, encode fail     the status of every exercise, and nothing else
    expect: nothing                                     no exercise in the file: none graded, not passed
    cause: encode highest_rank                          the known bug whose hint it must get (and no
                                                        other bug's hint); `none`: no bug's hint at all
    shows: encode min, not max                          text the learner must be shown (or `notes`)
    options: memory_mb=512                              grade_file's options for this file

Then the bpe-grade command line (exit status, --json, --csv, --jobs) and the in-notebook check().
The notebooks are written by tests/learners/build_notebooks.py.
"""

import csv
import io
import json
import linecache
import os
import runpy
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

import bpe_ref.naive
from bpe_ref.grade import CONTRACT, REGISTRY, check, check_all
from bpe_ref.grade.walls import isolation
from bpe_ref.grade.cli import print_table
from bpe_ref.grade.submission import grade_file

LEARNERS = Path(__file__).parent / "learners"
TIMEOUT = 10.0  # seconds per exercise for ordinary submissions: generous, nothing should take it
HOSTILE_TIMEOUT = 3.0  # loops and hangs: short, so the suite stays quick
ISOLATED = isolation.status()[0]  # the learner suite runs behind bubblewrap's walls where it can (CI: always)

NAIVE = ("get_stats", "merge", "train", "build_vocab", "decode", "encode")
ALL = ("to_hex", "from_hex", "u_plus", "from_u_plus", "strip_marks", "utf8_encode", *NAIVE,
       "split_text", "train_regex", "encode_ordinary", "encode_special", "recover_merges")
FILES = sorted(p.name for p in LEARNERS.iterdir() if p.suffix in (".py", ".ipynb") and p.name != "build_notebooks.py")


def header(path):
    """The text at the top of a learner file that holds its expectations."""
    if path.suffix == ".ipynb":
        return next(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    source = path.read_text(encoding="utf-8")
    if source.startswith('"""'):  # read, not parsed: some learner files do not parse, on purpose
        return source[3:source.index('"""', 3)]
    return "\n".join(line[1:].strip() for line in source.splitlines() if line.startswith("#"))


def expectations(name):
    """{'statuses': {exercise: status}, 'causes': {exercise: bug or None}, 'shows': [(where, text)],
    'options': {...}} from one learner file's header."""
    out = {"statuses": {}, "causes": {}, "shows": [], "options": {}}
    for line in header(LEARNERS / name).splitlines():
        key, _, value = line.strip().partition(": ")
        if key == "expect" and value == "nothing":  # no exercise in it: nothing graded, not passed
            out["nothing"] = True
        elif key == "expect":
            out["statuses"].update(item.split() for item in value.split(", "))
        elif key == "cause":
            exercise, bug = value.split()
            out["causes"][exercise] = None if bug == "none" else bug
        elif key == "shows":
            where, text = value.split(" ", 1)
            out["shows"].append((where, text))
        elif key == "file" and value == "not passed":  # every exercise passes, but part of the file did not run
            out["not_passed"] = True
        elif key == "options":
            out["options"].update((k, float(v) if "." in v else int(v)) for k, v in
                                  (item.split("=") for item in value.split()))
    return out


GRADERS = 2  # learner files graded at once: each waits on its sandbox, so two keep two cores busy
_graded = {}


def grade_one(name):
    """grade_file's result for one learner file, with the options its header asks for."""
    options = {"timeout": HOSTILE_TIMEOUT if name.startswith("hostile_") else TIMEOUT,
               "isolated": ISOLATED, **expectations(name)["options"]}
    return grade_file(LEARNERS / name, **options)


def graded(name):
    """grade_file's result for one learner file. The first call grades every file of the suite,
    GRADERS at a time, and keeps the results for the session: many tests read each one."""
    if not _graded:
        with ThreadPoolExecutor(max_workers=GRADERS) as pool:
            _graded.update(zip(FILES, pool.map(grade_one, FILES)))
    if name not in _graded:
        _graded[name] = grade_one(name)
    return _graded[name]


def statuses(result):
    return {name: ex["status"] for name, ex in result["exercises"].items()}


def shown(result, where):
    """Everything a learner reads about one exercise (or the notes), as one string."""
    if where == "notes":
        return " | ".join(result["notes"])
    return " | ".join(str(value) for key, value in result["exercises"][where].items() if key != "cause")


# ---------------------------------------------------------------------------- the learner files


def test_every_learner_file_declares_its_verdicts():
    for name in FILES:
        assert expectations(name)["statuses"] or expectations(name).get("nothing"), \
            f"{name}: no `expect:` line in its header"


def test_every_contract_exercise_has_a_good_and_a_buggy_learner():
    """Known-good: a good_ file here, or the solution notebook that defines it (bpe-grade must pass
    every solution: test_notebooks). Known-buggy: a bug_ file here, or the catalogue's own bug
    models (each graded as a learner by the matrix in test_diagnosis)."""
    declared = {name: expectations(name)["statuses"] for name in FILES}
    solutions = " ".join(path.read_text(encoding="utf-8") for path in (LEARNERS.parent.parent / "solutions").glob("*.ipynb"))
    for exercise in CONTRACT:
        uses = REGISTRY[exercise].uses or (exercise,)
        assert any(f.startswith("good_") and e.get(exercise) == "pass" for f, e in declared.items()) or all(
            f"def {name}(" in solutions for name in uses), f"no known-good learner for {exercise}"
        assert REGISTRY[exercise].bugs or any(f.startswith("bug_") and e.get(exercise, "pass") != "pass"
                                              for f, e in declared.items()), f"no known-buggy learner for {exercise}"


def test_notebooks_match_their_builder(tmp_path):
    runpy.run_path(str(LEARNERS / "build_notebooks.py"))["main"](tmp_path)
    built = sorted(p.name for p in tmp_path.glob("*.ipynb"))
    assert built == sorted(p.name for p in LEARNERS.glob("*.ipynb"))
    for name in built:
        assert (tmp_path / name).read_bytes() == (LEARNERS / name).read_bytes(), f"rebuild {name}"
        assert '"outputs": []' in (LEARNERS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", FILES)
def test_verdicts(name):
    expected = expectations(name)["statuses"]
    result = graded(name)
    assert statuses(result) == expected
    assert result["passed"] == (bool(expected) and all(status == "pass" for status in expected.values())
                                and not expectations(name).get("not_passed"))


CAUSES = [(name, exercise, bug) for name in FILES for exercise, bug in expectations(name)["causes"].items()]


@pytest.mark.parametrize("name, exercise, bug", CAUSES)
def test_causes(name, exercise, bug):
    """The hint names the learner's real bug, and no other known bug's; or none when it is unknown."""
    verdict = graded(name)["exercises"][exercise]
    text = shown(graded(name), exercise)
    assert verdict.get("cause") == bug, (verdict.get("cause"), text)
    if verdict.get("course", exercise) not in REGISTRY:  # an exercise of the grader's own (from_files)
        return
    course = REGISTRY[verdict.get("course", exercise)]  # a class's method names its course exercise
    if bug is not None:
        assert verdict["hint"] == next(b.hint for b in course.bugs if b.name == bug)
    for other in course.bugs:
        if other.name != bug:
            assert other.hint not in text, f"{name}: {exercise} shows the hint of {other.name}"


def hint_kind(name, exercise, verdict):
    """How a non-pass verdict's hint compares with the learner's real bug (from the file's header):
    right (names the declared bug, or no bug is declared and the file's `shows:` text, which names
    the cause in words, is there), vague (says what was observed, names no cause) or misleading
    (names a cause the code does not have)."""
    declared = expectations(name)["causes"]
    named = verdict.get("cause")
    if declared.get(exercise):
        return "right" if named == declared[exercise] else "misleading" if named else "vague"
    if named:
        return "misleading"
    return "right" if any(where == exercise for where, _ in expectations(name)["shows"]) else "vague"


def hint_summary():
    """{kind: [(file, exercise), ...]} over every non-pass verdict of the known-buggy learners."""
    summary = {"right": [], "vague": [], "misleading": []}
    for name in FILES:
        if name.startswith(("bug_", "workbook_bug")):
            for exercise, verdict in graded(name)["exercises"].items():
                if verdict["status"] != "pass":
                    summary[hint_kind(name, exercise, verdict)].append((name, exercise))
    return summary


def test_hints_over_the_learner_suite():
    """The measure of issue 18: no misleading hint, the real cause named for at least 90 %."""
    summary = hint_summary()
    total = sum(len(found) for found in summary.values())
    print(f"\nhints over {total} non-pass verdicts of the learner suite: "
          + ", ".join(f"{len(found)} {kind}" for kind, found in summary.items()))
    for kind in ("vague", "misleading"):
        for name, exercise in summary[kind]:
            print(f"  {kind}: {name} {exercise}")
    assert not summary["misleading"], summary["misleading"]
    assert len(summary["right"]) >= 0.9 * total, summary["vague"]


SHOWS = [(name, where, text) for name in FILES for where, text in expectations(name)["shows"]]


@pytest.mark.parametrize("name, where, text", SHOWS)
def test_shows(name, where, text):
    assert text in shown(graded(name), where)


# Issue 32's misleading hints: each names a cause the code does not have, and must stay gone.
NEVER_SHOWN = [
    ("bug_word_tokenize_letters_only.py", "word_tokenize", "third-party `regex` module"),  # it uses regex
    ("bug_encode_special_key_error.py", "encode_special", "use .get()"),  # a deliberate raise
    ("bug_train_regex_counts_joined.py", "train_regex", "got id"),  # a counting bug, not numbering
    ("bug_class_cs336_iterable_per_line.py", "Tokenizer.encode_iterable", "the `pattern` you are given"),
]


@pytest.mark.parametrize("name, where, text", NEVER_SHOWN)
def test_misleading_hints_stay_gone(name, where, text):
    assert text not in shown(graded(name), where)


def test_an_encode_that_empties_the_callers_merges_fails_in_the_notebook_too(capsys):
    check(learner("bug_encode_pops_merges.py")["encode"])
    out = capsys.readouterr().out
    assert out.startswith("❌ encode") and "called again with the same merges dict" in out, out


def test_a_call_made_twice_that_does_not_answer_twice_cannot_be_graded():
    from bpe_ref.grade.walls.sandbox import Reply, split_twice
    assert split_twice(Reply("ok", [[1], [2]])).info["again"] == [2]
    for value in ([1, 2, 3], "ab", None):
        reply = split_twice(Reply("ok", value))
        assert reply.kind == "malformed" and "two answers" in reply.info["message"]


def test_notes_stay_quiet_for_clean_and_demonstrated_code():
    assert graded("good_notebook.ipynb")["notes"] == []  # its NBVAL_RAISES_EXCEPTION cell is on purpose
    assert graded("hostile_stubs_04_naive_bpe.ipynb")["notes"] == []  # NotImplementedError at top level is expected


def test_a_submission_that_dies_while_loading_does_not_pass():
    result = graded("hostile_posix_exit_import.py")
    assert result["passed"] is False
    assert any("os._exit" in note for note in result["notes"])


def test_the_table_says_why_a_mutating_merge_fails():
    out = io.StringIO()
    print_table(graded("bug_merge_mutates_04_naive_bpe.ipynb"), out=out)
    assert "changed the list" in out.getvalue()


# ---------------------------------------------------------------------------- bpe-grade


def test_cli_exit_status_is_0_only_when_everything_passes(tmp_path, bpe_grade):
    good = bpe_grade(LEARNERS / "good_train_incremental.py", cwd=tmp_path)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "1/1 exercises pass" in good.stdout
    mixed = bpe_grade(LEARNERS / "good_train_incremental.py", LEARNERS / "bug_u_plus_no_padding.py",
                      "--jobs", "2", cwd=tmp_path)
    assert mixed.returncode == 1, mixed.stdout + mixed.stderr
    assert mixed.stdout.index("good_train_incremental.py") < mixed.stdout.index("bug_u_plus_no_padding.py")
    assert "u_plus('A') returned 'U+41', expected 'U+0041'" in mixed.stdout


CLASS = ["bug_train_min.py", "good_train_incremental.py", "hostile_stubs_04_naive_bpe.ipynb"]


@pytest.fixture(scope="module")
def class_run(tmp_path_factory, bpe_grade):
    """One bpe-grade run over three submissions: --json, --csv and --jobs 2 at once."""
    folder = tmp_path_factory.mktemp("class")
    paths = [LEARNERS / name for name in CLASS]
    scratch = class_run_tmp(tmp_path_factory)
    scratch.mkdir()
    run = bpe_grade(*paths, "--json", "--csv", folder / "class.csv", "--jobs", "2",
                    "--exercises", "get_stats,merge,train,train_incremental", cwd=folder,  # the assignment, declared
                    env={**os.environ, "TMPDIR": str(scratch)})
    return run, folder, [str(p) for p in paths]


def class_run_tmp(tmp_path_factory):
    """The temporary folder of class_run's bpe-grade (its TMPDIR)."""
    return tmp_path_factory.getbasetemp() / "class-run-tmp"


def test_cli_leaves_nothing_in_the_temporary_folder(class_run, tmp_path_factory):
    """The worker's copy is made once, by the parent, and goes when the run ends: pool processes end
    without atexit, so copies of their own would stay behind, one per process and run."""
    assert list(class_run_tmp(tmp_path_factory).iterdir()) == []


def test_cli_json(class_run):
    run, _, paths = class_run
    assert run.returncode == 1, run.stderr
    results = json.loads(run.stdout)
    assert [r["path"] for r in results] == paths  # input order, whichever finished first
    for r in results:
        assert {"path", "passed", "exercises"} <= set(r)
        for verdict in r["exercises"].values():
            assert {"status", "message"} <= set(verdict)
    assert [r["passed"] for r in results] == [False, True, False]
    assert statuses(results[0]) == {"get_stats": "pass", "merge": "pass", "train": "fail"}


def test_cli_csv(class_run):
    _, folder, paths = class_run
    with open(folder / "class.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [row["student"] for row in rows] == [row["files"] for row in rows] == paths  # loose files: a row each
    assert rows[0]["train"] == "fail" and rows[0]["score"] == "3"  # get_stats 1 + merge 2
    assert rows[1]["train_incremental"] == "pass" and rows[1]["train"] == "missing"
    assert rows[2]["merge"] == "missing" and rows[2]["merge_points"] == "0"


def test_cli_writes_nothing_but_the_csv(class_run):
    _, folder, _ = class_run
    assert sorted(p.name for p in folder.iterdir()) == ["class.csv"]


def test_cli_one_broken_submission_does_not_sink_the_batch(monkeypatch, capsys):
    """A grader failure on one file becomes that file's error; the other files are still graded."""
    from bpe_ref.grade import cli

    real = cli.grade_file

    def breaks_on_bad(path, *args):
        if "bad_metadata" in str(path):
            raise RuntimeError("boom")
        return real(path, *args)

    monkeypatch.setattr(cli, "grade_file", breaks_on_bad)
    code = cli.main([str(LEARNERS / "hostile_bad_metadata.ipynb"), str(LEARNERS / "good_train_incremental.py"),
                     "--json", "--jobs", "1"])
    rows = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [r["passed"] for r in rows] == [False, True]
    assert "boom" in rows[0]["error"]


# ---------------------------------------------------------------------------- check() in the notebook


@pytest.fixture(scope="module")
def minbpe():
    return runpy.run_path(str(LEARNERS / "good_minbpe.py"))


def learner(name):
    return runpy.run_path(str(LEARNERS / name))


def test_check_prints_one_line_on_success(minbpe, capsys):
    assert check(minbpe["merge"]) is None
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("✅ merge")


def test_check_shows_call_expected_got_and_hint(capsys):
    check(learner("bug_merge_overlap.py")["merge"])
    out = capsys.readouterr().out
    assert out.startswith("❌ merge is not right yet.")
    assert "call:     merge([5, 5, 5], (5, 5), 256)" in out
    assert "expected: [256, 5]" in out
    assert "got:      [256, 256]" in out
    assert "hint:" in out


def test_check_of_a_stub_says_not_implemented_and_does_not_raise(capsys):
    def merge(ids, pair, idx):
        raise NotImplementedError()

    check(merge)
    out = capsys.readouterr().out
    assert out.startswith("⏳ merge: not implemented yet")
    assert len(out.splitlines()) == 1


def test_check_all_grades_what_the_namespace_defines(capsys):
    check_all(learner("good_callables.py"))
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == [f"✅ {name}" for name in NAIVE]
    assert lines[-1] == "6/6 exercises pass"


def test_check_all_in_the_workbook_style(capsys):
    namespace = learner("workbook_good.py")
    capsys.readouterr()  # the workbook prints a demo line when it runs
    check_all(namespace)
    lines = capsys.readouterr().out.splitlines()
    graded_names = [line.split(":")[0].removeprefix("✅ ") for line in lines[:-1]]
    assert graded_names == ["get_stats", "merge", "decode", "encode", "merges", "vocab"], lines
    assert lines[-1] == "6/6 exercises pass"


def test_check_is_not_fooled_by_a_patched_reference(monkeypatch, capsys):
    wrong = learner("bug_merge_overlap.py")["merge"]
    monkeypatch.setattr(bpe_ref.naive, "merge", wrong)
    check(wrong)
    assert capsys.readouterr().out.startswith("❌ merge")


def test_check_passes_every_exercise_of_a_correct_learner(minbpe, capsys):
    for name in ALL:
        check(minbpe[name])
    out = capsys.readouterr().out
    assert out.count("✅") == len(ALL), out


def kernel_cell(source, name):
    """`name` defined the way JupyterLab's kernel defines it: compiled from a cell file of ipykernel."""
    filename = "/tmp/ipykernel_4242/2718281828.py"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


def test_check_points_at_the_learners_line_not_inside_re(capsys):
    split_text = kernel_cell("import re\n\n\ndef split_text(text, pattern):\n    return re.findall(pattern, text)\n",
                             "split_text")
    check(split_text)
    out = capsys.readouterr().out
    # re's \\p{L} error is now seen after a wrong answer that says more (a mark split off a digit):
    # nothing points inside re, and the hint names the real cause
    assert "sre_" not in out and "re/__init__" not in out and "_parser.py" not in out, out
    assert "third-party `regex` module" in out


def test_check_applies_the_by_hand_and_work_rules_in_the_kernel_too(capsys):
    def checked(file, name):
        check(learner(file)[name])
        return capsys.readouterr().out

    assert "uses '%x' % n (%-formatting)" in checked("bug_by_hand_shortcuts.py", "to_hex")
    assert "(int with a base)" in checked("bug_by_hand_shortcuts_aliases.py", "from_hex")
    assert "the work of a recount" in checked("bug_train_incremental_recount.py", "train_incremental")
    assert checked("good_by_hand_helpers.py", "to_hex").startswith("✅ to_hex")


def test_the_sandbox_helpers_import_only_the_standard_library():
    """The worker runs with python -I and loads these files by path: none may import bpe_ref."""
    import ast
    import sys as system

    grade = Path(bpe_ref.__file__).parent / "grade" / "inside"
    for name in ("worker.py", "calling.py", "byhand.py", "work.py", "wire.py"):
        tree = ast.parse((grade / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{name}: relative import"
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for module in [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]:
                    assert module.split(".")[0] in system.stdlib_module_names, f"{name} imports {module}"


def test_the_work_check_holds_on_a_machine_that_gets_busy():
    """In the walls the CPU time the worker uses bounds the lookups the trainer counted; a busy
    machine moves the CPU time, not the count, so a correct incremental trainer passes and a recount
    fails, whether graded on a quiet machine or beside CPU burners."""
    import subprocess
    import sys

    learners = {"good_train_incremental.py": "pass", "bug_train_incremental_recount.py": "fail"}
    quiet = {name: grade_file(LEARNERS / name, isolated=ISOLATED) for name in learners}
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(4)]
    try:
        busy = {name: grade_file(LEARNERS / name, isolated=ISOLATED) for name in learners}
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    for results in (quiet, busy):
        for name, status in learners.items():
            verdict = results[name]["exercises"]["train_incremental"]
            assert verdict["status"] == status, (name, verdict)
