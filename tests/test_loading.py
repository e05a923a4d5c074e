"""A submission loads as Python loads it (issue 30, items 1 and 2): a module of its own name with
__file__, a few processes and threads within one memory limit, and what fails to load named.
The pool trainers themselves are in the learner suite (tests/learners/good_train_*.py)."""

import os
import textwrap

import pytest

from bpe_ref.grade.judge.unmade import MAX_ROWS
from bpe_ref.grade.submission import grade_file, module_name
from bpe_ref.grade.walls import isolation

ISOLATED = isolation.status()[0]
if not ISOLATED and os.environ.get("BPE_COURSE_CI"):
    pytest.fail(f"the loading tests need bubblewrap in CI: {isolation.status()[1]}", pytrace=False)

GET_STATS = '''
def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts
'''


def grade(tmp_path, name, source, **limits):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return grade_file(path, timeout=10.0, isolated=ISOLATED, file_timeout=300.0, **limits)


def test_a_module_of_its_own_name_with_its_file(tmp_path):
    source = textwrap.dedent('''
        from __future__ import annotations
        import os
        from dataclasses import dataclass

        @dataclass
        class Pair:
            left: int
            right: int

        HERE = os.path.dirname(os.path.abspath(__file__))
        OWN = open(os.path.basename(__file__), encoding="utf-8").read()  # a relative read: its own folder
        assert __name__ == "tokenizer" and Pair(1, 2).left == 1  # dataclasses look the module up by name
        ''') + GET_STATS
    result = grade(tmp_path, "tokenizer.py", source)
    assert result["passed"], result


def test_code_that_fails_to_load_is_named_and_the_file_is_not_passed(tmp_path):
    source = GET_STATS + '''
class Tokenizer:
    pattern = undefined_name

    def train(self, text, vocab_size):
        pass
'''
    result = grade(tmp_path, "half.py", source)
    assert result["exercises"]["get_stats"]["status"] == "pass"
    assert not result["passed"], result
    note = next(n for n in result["notes"] if n.startswith("not loaded"))
    assert "line 9" in note and "NameError" in note and "left ungraded: Tokenizer" in note, note


@pytest.mark.parametrize("bomb", ["import os\nwhile True:\n    os.fork()\n",
                                  "import threading, time\nwhile True:\n    threading.Thread(target=time.sleep, args=(60,)).start()\n"])
def test_a_fork_or_thread_bomb_stops_at_the_limit(tmp_path, bomb):
    result = grade(tmp_path, "bomb.py", GET_STATS + "\ndef merge(ids, pair, idx):\n" + textwrap.indent(bomb, "    "))
    assert result["exercises"]["get_stats"]["status"] == "pass", result
    assert result["exercises"]["merge"]["status"] in ("error", "timeout"), result


@pytest.mark.skipif(not ISOLATED, reason="a process's memory is capped by the sandbox")
def test_processes_together_stay_within_the_memory_limit(tmp_path):
    """Four children of 200 MB each pass no single process's limit, but their sum passes --memory."""
    source = GET_STATS + '''
def merge(ids, pair, idx):
    from multiprocessing import Pool
    with Pool(4) as pool:
        pool.map(hold, range(4))
    return ids


def hold(i):
    import time
    block = bytearray(200 * 1024 * 1024)
    for k in range(0, len(block), 4096):
        block[k] = 1
    time.sleep(3)
    return len(block)
'''
    result = grade(tmp_path, "greedy.py", source, memory_mb=512)
    assert result["exercises"]["get_stats"]["status"] == "pass", result
    assert result["exercises"]["merge"]["status"] == "error", result
    assert "memory" in result["exercises"]["merge"]["message"], result


@pytest.mark.parametrize("stem, name", [("tokenizer", "tokenizer"), ("04 naive-bpe", "submission"),
                                        ("json", "submission"), ("regex", "submission")])
def test_the_module_name_is_the_one_import_would_give(tmp_path, stem, name):
    assert module_name(tmp_path / f"{stem}.py") == name


LEARNERS = os.path.join(os.path.dirname(__file__), "learners")


@pytest.mark.skipif(not ISOLATED, reason="the process cap is the sandbox's")
def test_a_pool_larger_than_the_cap_is_the_graders_limit_and_a_larger_cap_lets_it_run():
    """Pool(10) under the default cap of 8: an error the grader owns, naming the limit and its flag;
    the same file under --processes 16 is judged on its answers (issue 30 item 2, kind E)."""
    path = os.path.join(LEARNERS, "limit_train_pool_over_cap.py")
    capped = grade_file(path, timeout=10.0, isolated=True)["exercises"]["train_bpe"]
    assert capped["status"] == "error" and capped.get("grader_side"), capped
    assert "--processes 8" in capped["message"] and "check what that line" not in capped["message"], capped
    assert grade_file(path, timeout=10.0, isolated=True, file_timeout=300.0, processes=16)["passed"]


@pytest.mark.parametrize("raised, hit", [
    ({"kinds": ["BlockingIOError", "OSError"], "message": "[Errno 11] Resource temporarily unavailable"}, True),
    ({"kinds": ["RuntimeError"], "message": "can't start new thread"}, True),
    ({"kinds": ["BlockingIOError", "OSError"], "message": "[Errno 115] Operation now in progress"}, False),
    ({"kinds": ["RuntimeError"], "message": "dictionary changed size during iteration"}, False),
    ({"kinds": ["IndexError"], "message": "list index out of range"}, False)])
def test_only_a_refused_fork_or_thread_is_taken_for_the_process_cap(raised, hit):
    from bpe_ref.grade.walls.sandbox import hit_process_limit
    assert hit_process_limit(raised) is hit


@pytest.mark.skipif(not ISOLATED, reason="what the walls show of the grading Python")
def test_the_graders_packages_are_seen_read_only_and_the_file_a_few_folders_deep(tmp_path):
    """Code that imports a package the grading Python has (numpy: the course needs it) loads, it
    cannot write there, and Path(__file__).parents[2] exists at import, as in a project (kind G)."""
    source = textwrap.dedent('''
        import os
        from pathlib import Path

        import numpy

        PROJECT = Path(__file__).resolve().parents[2]
        try:
            open(os.path.join(os.path.dirname(numpy.__file__), "planted.py"), "w", encoding="utf-8").close()
            PLANTED = True
        except OSError:
            PLANTED = False
        assert not PLANTED, "the grading Python's packages must be read-only"
        ''') + GET_STATS
    result = grade(tmp_path, "deep.py", source)
    assert result["passed"] and not result["notes"], result


def test_the_reference_s_packages_stay_out_of_the_sandbox():
    """Whatever the grading Python has installed, the reference's packages are emptied inside."""
    from bpe_ref.grade.inside import worker
    assert set(isolation.HIDDEN) == set(worker.REFERENCE_ROOTS)
    for folder, target in zip(isolation.site_folders(), isolation.inside_sites()):
        hidden = isolation.hide_reference(folder, target)
        for name in os.listdir(folder):
            if name in ("tiktoken", "tiktoken_ext", "bpe_ref"):
                assert f"{target}/{name}" in hidden, (name, hidden)


def notebook(tmp_path, name, *sources):
    import nbformat
    path = tmp_path / name
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(textwrap.dedent(s)) for s in sources]),
                   str(path))
    return path


def test_a_failing_demo_cell_that_defines_nothing_a_function_reads_does_not_stop_the_pass(tmp_path):
    """Kind K: every exercise right, and the only failures are demos (a package the demo lacks, a
    value only later demo cells use): passed, with the failures still in the notes."""
    path = notebook(tmp_path, "demo.ipynb", GET_STATS, "import not_installed_anywhere as spm\nsp = spm.Processor()\n",
                    "ids = sp.encode('hello')\n")
    result = grade_file(path, timeout=10.0, isolated=ISOLATED)
    assert result["exercises"]["get_stats"]["status"] == "pass" and result["passed"], result
    assert any("ModuleNotFoundError" in n and "no function reads it: sp" in n for n in result["notes"]), result


def test_a_failing_cell_that_binds_what_a_function_reads_stops_the_pass(tmp_path):
    """...but a value the learner's own function reads (a pattern, merges) is part of what the file defines."""
    path = notebook(tmp_path, "needed.ipynb", GET_STATS,
                    "import not_installed_anywhere as pkg\nSPLIT = pkg.pattern()\n",
                    "def chunks(text):\n    return SPLIT.findall(text)\n")
    result = grade_file(path, timeout=10.0, isolated=ISOLATED)
    assert result["exercises"]["get_stats"]["status"] == "pass" and not result["passed"], result
    assert any("left ungraded: SPLIT" in n for n in result["notes"]), result


def test_classes_never_made_are_named_up_to_a_bound(tmp_path):
    """An import the sandbox lacks, before 400 tokenizer classes: each of the first is named with
    the reason it was never made, and the rows stop at a bound, so a file cannot flood its report."""
    one = textwrap.dedent('''
        class T{i}:
            def train(self, text, vocab_size):
                self.merges = {{}}

            def encode(self, text):
                return list(text.encode("utf-8"))

            def decode(self, ids):
                return bytes(ids).decode("utf-8", errors="replace")
        ''')
    source = "import a_module_nobody_has\n" + "".join(one.format(i=i) for i in range(400))
    result = grade(tmp_path, "many_classes.py", source)
    rows = result["exercises"]
    assert len(rows) == MAX_ROWS and not result["passed"]
    assert rows["T0.train"]["status"] == "error"
    assert "No module named 'a_module_nobody_has'" in rows["T0.train"]["message"]
