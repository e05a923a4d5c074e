"""The grader against known learners.

tests/learners/ holds small submissions (.py and .ipynb), each right, or wrong in one known way,
or hostile. For every file the verdict of every exercise is asserted, both ways: the broken
exercise has its specific status AND every other exercise in the file passes. Then the
bpe-grade command line (exit status, --json, --csv, --jobs) and the in-notebook check().

The notebooks are written by tests/learners/build_notebooks.py.
"""

import csv
import io
import json
import runpy
from pathlib import Path

import pytest

import bpe_ref.naive
from bpe_ref.grade import CONTRACT, check, check_all
from bpe_ref.grade.cli import print_table
from bpe_ref.grade.submission import grade_file

LEARNERS = Path(__file__).parent / "learners"
TIMEOUT = 10.0  # seconds per exercise for ordinary submissions: generous, nothing should take it
HOSTILE_TIMEOUT = 3.0  # loops and hangs: short, so the suite stays quick
OPTIONS = {"hostile_memory.py": {"memory_mb": 512}}

NAIVE = ("get_stats", "merge", "train", "build_vocab", "decode", "encode")
ALL = ("to_hex", "from_hex", "u_plus", "from_u_plus", "utf8_encode", *NAIVE,
       "split_text", "train_regex", "encode_ordinary", "encode_special", "recover_merges")


def ok(*names):
    return dict.fromkeys(names, "pass")


# file -> the status of every exercise the grader should report for it (and nothing else)
EXPECTED = {
    # ---- right, in several styles
    "good_minbpe.py": ok(*ALL),
    "good_styles.py": ok(*ALL),
    "good_callables.py": ok(*NAIVE),
    "good_notebook.ipynb": ok("to_hex", "from_hex", "utf8_encode", *NAIVE),
    "good_train_incremental.py": ok("train_incremental"),
    # ---- one bug per file; the other exercises in the file are right
    "bug_get_stats_last_pair.py": {**ok("merge", "build_vocab"), "get_stats": "fail"},
    "bug_get_stats_range.py": {**ok("merge", "decode"), "get_stats": "fail"},
    "bug_merge_overlap.py": {**ok("get_stats", "build_vocab"), "merge": "fail"},
    "bug_merge_mutates.py": {**ok("get_stats", "decode"), "merge": "fail"},
    "bug_train_ids_257.py": {**ok("get_stats", "merge"), "train": "fail"},
    "bug_train_ids_255.py": {**ok("get_stats", "merge"), "train": "fail"},
    "bug_train_min.py": {**ok("get_stats", "merge"), "train": "fail"},
    "bug_train_no_pair_crash.py": {**ok("get_stats", "merge"), "train": "error"},
    "bug_train_one_too_many.py": {**ok("get_stats", "merge"), "train": "fail"},
    "bug_train_one_too_few.py": {**ok("get_stats", "merge"), "train": "fail"},
    "bug_train_incremental_tie.py": {**ok("get_stats", "merge"), "train_incremental": "fail"},
    "bug_encode_max_rank.py": {**ok("get_stats", "merge", "decode"), "encode": "fail"},
    "bug_encode_max_known.py": {**ok("get_stats", "merge", "decode"), "encode": "fail"},
    "bug_encode_empty_crash.py": {**ok("get_stats", "merge"), "encode": "error"},
    "bug_decode_strict.py": {**ok("get_stats", "merge", "encode"), "decode": "error"},
    "bug_build_vocab_no_bytes.py": {**ok("get_stats", "merge"), "build_vocab": "fail"},
    "bug_utf8_2byte_boundary.py": {**ok("to_hex"), "utf8_encode": "fail"},
    "bug_utf8_3byte_boundary.py": {**ok("to_hex"), "utf8_encode": "fail"},
    "bug_utf8_4byte_boundary.py": {**ok("to_hex"), "utf8_encode": "fail"},
    "bug_utf8_str_encode.py": {**ok("u_plus", "from_u_plus"), "utf8_encode": "fail"},
    "bug_utf8_bytes_call.py": {**ok("to_hex"), "utf8_encode": "fail"},
    "bug_to_hex_builtin.py": {**ok("from_hex", "u_plus"), "to_hex": "fail"},
    "bug_to_hex_lambda.py": {**ok("from_hex"), "to_hex": "fail"},
    "bug_from_hex_upper_case.py": {**ok("to_hex", "u_plus"), "from_hex": "error"},
    "bug_u_plus_no_padding.py": {**ok("to_hex", "from_u_plus"), "u_plus": "fail"},
    "bug_from_u_plus_decimal.py": {**ok("u_plus"), "from_u_plus": "fail"},
    "bug_split_text_stdlib_re.py": {**ok("to_hex"), "split_text": "error"},
    "bug_split_text_wrong_pattern.py": {**ok("from_hex"), "split_text": "fail"},
    "bug_train_regex_across_chunks.py": {**ok("split_text", "get_stats", "merge"), "train_regex": "fail"},
    "bug_encode_ordinary_across_chunks.py": {**ok("split_text", "merge", "train_regex"), "encode_ordinary": "fail"},
    "bug_encode_special_no_raise.py": {**ok("encode_ordinary"), "encode_special": "fail"},
    "bug_recover_merges_byte_order.py": {**ok("decode"), "recover_merges": "fail"},
    # ---- the weekly-drill style: module-level text/merges/vocab, encode(text), decode(ids)
    "workbook_good.py": ok("get_stats", "merge", "decode", "encode", "merges", "vocab"),
    "workbook_good.ipynb": ok("get_stats", "merge", "decode", "encode", "merges", "vocab"),
    "workbook_bug_max_encode.ipynb": {**ok("get_stats", "merge", "decode", "merges", "vocab"), "encode": "fail"},
    "workbook_bug_decode_strict.py": {**ok("get_stats", "merge", "encode", "merges", "vocab"), "decode": "error"},
    # ---- hostile
    "hostile_loop_in_function.py": {**ok("get_stats", "decode"), "train": "timeout"},
    "hostile_loop_top_cell.ipynb": ok("get_stats", "merge", "decode"),
    "hostile_exit_import.py": ok("get_stats", "decode"),
    "hostile_exit_import_top.py": {"get_stats": "error", "decode": "error"},
    "hostile_exit_in_function.py": {**ok("get_stats", "decode"), "merge": "error"},
    "hostile_osexit_in_function.py": {**ok("get_stats", "decode"), "merge": "error"},
    "hostile_osexit_slow.py": {**ok("get_stats"), "merge": "error"},
    "hostile_osexit_import.py": {"get_stats": "error", "decode": "error"},
    "hostile_print_in_function.py": {**ok("get_stats", "merge"), "decode": "error"},
    "hostile_print_top.ipynb": ok("get_stats", "merge"),
    "hostile_syntax.py": {"get_stats": "error", "merge": "error"},
    "hostile_syntax_cell.ipynb": {**ok("get_stats", "decode"), "merge": "error"},
    "hostile_raise_import.py": ok("get_stats", "decode"),
    "hostile_reexport.py": {**ok("decode"), "get_stats": "reference", "merge": "reference", "to_hex": "reference"},
    "hostile_calls_reference.py": {**ok("decode"), "get_stats": "reference", "build_vocab": "reference",
                                   "encode": "reference"},
    "hostile_reference_by_path.py": {**ok("get_stats"), "merge": "reference"},
    "hostile_monkeypatch.py": {**ok("get_stats", "decode"), "merge": "fail"},
    "hostile_memory.py": {**ok("get_stats", "decode"), "build_vocab": "error", "encode": "error"},
    "hostile_always_equal.py": {**ok("decode"), "get_stats": "fail", "merge": "fail"},
    "hostile_stubs.ipynb": {**ok("get_stats", "decode"), "merge": "missing", "train": "missing",
                            "encode": "missing"},
    "hostile_bad_metadata.ipynb": ok("get_stats"),
}

_graded = {}


def graded(name):
    """grade_file's result for one learner file, graded once per session."""
    if name not in _graded:
        timeout = HOSTILE_TIMEOUT if name.startswith("hostile_") else TIMEOUT
        _graded[name] = grade_file(LEARNERS / name, timeout=timeout, **OPTIONS.get(name, {}))
    return _graded[name]


def statuses(result):
    return {name: ex["status"] for name, ex in result["exercises"].items()}


def shown(result, where):
    """Everything a learner reads about one exercise (or the notes), as one string."""
    if where == "notes":
        return " | ".join(result["notes"])
    return " | ".join(str(value) for value in result["exercises"][where].values())


def plain(expected):
    """The dict of statuses inside an EXPECTED entry (which may be a pytest.param)."""
    return expected if isinstance(expected, dict) else expected.values[0]


def verdict_params():
    for name, expected in EXPECTED.items():
        marks = () if isinstance(expected, dict) else expected.marks
        yield pytest.param(name, plain(expected), marks=marks, id=name)


# ---------------------------------------------------------------------------- the learner files


def test_every_learner_file_has_an_expectation():
    files = {p.name for p in LEARNERS.iterdir() if p.suffix in (".py", ".ipynb")} - {"build_notebooks.py"}
    assert files == set(EXPECTED)


def test_every_contract_exercise_has_a_good_and_a_buggy_learner():
    plain_expected = {name: plain(exp) for name, exp in EXPECTED.items()}
    for exercise in CONTRACT:
        assert any(f.startswith("good_") and e.get(exercise) == "pass"
                   for f, e in plain_expected.items()), f"no known-good learner for {exercise}"
        assert any(f.startswith("bug_") and e.get(exercise, "pass") != "pass"
                   for f, e in plain_expected.items()), f"no known-buggy learner for {exercise}"


def test_notebooks_match_their_builder(tmp_path):
    runpy.run_path(str(LEARNERS / "build_notebooks.py"))["main"](tmp_path)
    built = sorted(p.name for p in tmp_path.glob("*.ipynb"))
    assert built == sorted(p.name for p in LEARNERS.glob("*.ipynb"))
    for name in built:
        assert (tmp_path / name).read_bytes() == (LEARNERS / name).read_bytes(), f"rebuild {name}"
        assert '"outputs": []' in (LEARNERS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("name, expected", list(verdict_params()))
def test_verdicts(name, expected):
    result = graded(name)
    assert statuses(result) == expected
    assert result["passed"] == all(status == "pass" for status in expected.values())


MESSAGES = [
    # (file, exercise or "notes", text the learner must be shown)
    ("bug_get_stats_last_pair.py", "get_stats", "the last pair is missing"),
    ("bug_train_ids_257.py", "train", "the first new id is 256"),
    ("bug_train_no_pair_crash.py", "train", "stop training"),
    ("bug_encode_max_known.py", "encode", "min, not max"),
    ("bug_encode_empty_crash.py", "encode", "empty and one-byte text"),
    ("bug_decode_strict.py", "decode", "errors='replace'"),
    ("bug_to_hex_builtin.py", "to_hex", "uses hex"),
    ("bug_utf8_str_encode.py", "utf8_encode", "uses encode"),
    ("bug_utf8_bytes_call.py", "utf8_encode", "uses bytes"),
    ("bug_utf8_3byte_boundary.py", "utf8_encode", r"b'\xe0\xa0\x80'"),
    ("bug_encode_special_no_raise.py", "encode_special", "raise ValueError"),
    ("bug_train_incremental_tie.py", "train_incremental", "on a tie"),
    ("workbook_bug_max_encode.ipynb", "encode", "min()"),
    ("hostile_syntax.py", "merge", "syntax error in hostile_syntax.py, line 11"),
    ("hostile_syntax.py", "get_stats", "syntax error in hostile_syntax.py, line 11"),
    ("hostile_syntax_cell.ipynb", "merge", "syntax error in cell 3, line 1"),
    ("hostile_loop_in_function.py", "train", "longer than 3 s"),
    ("hostile_loop_top_cell.ipynb", "notes", "cell 3: still running after the time limit"),
    ("hostile_print_in_function.py", "decode", "printed more than 1 MB"),
    ("hostile_print_top.ipynb", "notes", "cell 3: printed more than 1 MB"),
    ("hostile_exit_in_function.py", "merge", "sys.exit()"),
    ("hostile_exit_import.py", "notes", "called sys.exit()"),
    ("hostile_exit_import_top.py", "notes", "called sys.exit()"),
    ("hostile_osexit_in_function.py", "merge", "the process ended during the call"),
    ("hostile_osexit_import.py", "notes", "os._exit()"),
    ("hostile_raise_import.py", "notes", "KeyError: 999"),
    ("hostile_memory.py", "build_vocab", "ran out of memory"),
    ("hostile_memory.py", "encode", "ran out of memory"),
    ("hostile_reexport.py", "merge", "bpe_ref.merge"),
    ("hostile_calls_reference.py", "encode", "tiktoken.get_encoding"),
    ("hostile_calls_reference.py", "build_vocab", "bpe_ref.naive.build_vocab"),
    ("hostile_stubs.ipynb", "merge", "not implemented yet"),
    ("hostile_stubs.ipynb", "encode", "not defined"),
    ("hostile_osexit_slow.py", "merge", "exit code 3"),
    ("bug_merge_overlap.py", "merge", "overlap"),
]


@pytest.mark.parametrize("name, where, text", MESSAGES)
def test_messages(name, where, text):
    assert text in shown(graded(name), where)


def test_notes_stay_quiet_for_clean_and_demonstrated_code():
    assert graded("good_notebook.ipynb")["notes"] == []  # its NBVAL_RAISES_EXCEPTION cell is on purpose
    assert graded("hostile_stubs.ipynb")["notes"] == []  # NotImplementedError at top level is expected


def test_a_submission_that_dies_while_loading_does_not_pass():
    result = graded("hostile_osexit_import.py")
    assert result["passed"] is False
    assert any("os._exit" in note for note in result["notes"])


def test_the_table_says_why_a_mutating_merge_fails():
    out = io.StringIO()
    print_table(graded("bug_merge_mutates.py"), out=out)
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


CLASS = ["bug_train_min.py", "good_train_incremental.py", "hostile_stubs.ipynb"]


@pytest.fixture(scope="module")
def class_run(tmp_path_factory, bpe_grade):
    """One bpe-grade run over three submissions: --json, --csv and --jobs 2 at once."""
    folder = tmp_path_factory.mktemp("class")
    paths = [LEARNERS / name for name in CLASS]
    run = bpe_grade(*paths, "--json", "--csv", folder / "class.csv", "--jobs", "2", cwd=folder)
    return run, folder, [str(p) for p in paths]


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
