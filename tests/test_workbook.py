"""The workbooks' kernel helper (`%load_ext bpe_ref.workbook`), in a real kernel, run as Run All runs it."""

import re

import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbformat.v4 import new_code_cell, new_notebook

STUB = '''def merge(ids, pair, idx):
    # YOUR CODE HERE
    raise NotImplementedError()'''


def run(*sources, tmp_path):
    """Run cells in a fresh kernel, stopping at the first error (JupyterLab's Run All)."""
    notebook = new_notebook(cells=[new_code_cell("%load_ext bpe_ref.workbook")] + [new_code_cell(s) for s in sources])
    NotebookClient(notebook, timeout=120, kernel_name="python3", allow_errors=False,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    return notebook.cells[1:]


def text(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def value(cell):
    shown = [o for o in cell.outputs if o.output_type == "execute_result"]
    return (shown[0].data["text/plain"], shown[0].execution_count) if shown else None


def test_a_stub_call_is_one_calm_line_and_run_all_goes_on(tmp_path):
    cells = run(STUB, "step1 = merge([1, 2], (1, 2), 256)\nstep1", "len(step1)", "x = step1 + [1]", "x",
                "'still running'", tmp_path=tmp_path)
    note = text(cells[1])
    assert note.count("\n") == 1 and note.startswith("⏳ merge is not written yet: write it in section “3. Merging a pair”")
    assert not any(o.output_type == "error" for c in cells for o in c.outputs)
    assert "`step1` is not there yet" in text(cells[2]) and "because merge was not written" in text(cells[2])
    assert "`step1` is not there yet" in text(cells[3])
    assert "`x` is not there yet" in text(cells[4])  # x would have come from step1: it waits for merge too
    assert value(cells[5])[0] == "'still running'"


def test_last_value_semicolon_and_ordinary_cells_behave_as_in_plain_ipython(tmp_path):
    cells = run("a = 2\na * 21", "a * 21;", "print('hi')\n[a]", "for i in range(2):\n    i", "%timeit -n 3 -r 1 a + 1",
                tmp_path=tmp_path)
    assert value(cells[0]) == ("42", cells[0].execution_count)
    assert value(cells[1]) is None
    assert text(cells[2]) == "hi\n" and value(cells[2])[0] == "[2]"
    assert value(cells[3]) is None
    assert "loop" in text(cells[4]) and value(cells[4]) is None  # %timeit does not show a value per loop


@pytest.mark.parametrize("source, error", [
    ("1 / 0", "ZeroDivisionError"),
    ("undefined_name + 1", "NameError"),  # a real typo still raises
    ("def helper():\n    raise NotImplementedError('mine')\nhelper()", "NotImplementedError"),  # not a stub
])
def test_real_errors_still_stop_run_all_with_their_traceback(source, error, tmp_path):
    with pytest.raises(CellExecutionError, match=error):
        run(source, "'never reached'", tmp_path=tmp_path)


def test_a_written_exercise_runs_normally(tmp_path):
    done = "def merge(ids, pair, idx):\n    return [idx]"
    cells = run(STUB, "merge([1], (1, 2), 3)", done, "merge([1], (1, 2), 3)", tmp_path=tmp_path)
    assert "not written yet" in text(cells[1])
    assert value(cells[3])[0] == "[3]"


def test_the_transformer_keeps_line_numbers_for_tracebacks(tmp_path):
    with pytest.raises(CellExecutionError) as failure:
        run("x = 1\ny = 2\nz = [][3]", tmp_path=tmp_path)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", str(failure.value))
    assert "----> 3 z = [][3]" in plain


# ---------------------------------------------------------------------------- the demo limit

ENDLESS = {
    # an encode that never shortens its ids (what hung a learner's Run All for 9 minutes)
    "encode": "def encode(text, merges):\n    ids = list(text.encode('utf-8'))\n    while len(ids) >= 2:\n"
              "        pair = (ids[0], ids[1])\n    return ids",
    # a loop whose bare except would swallow one interrupt
    "decode": "def decode(ids, vocab):\n    n = 0\n    while True:\n        try:\n            n += 1\n"
              "        except:\n            pass",
    # a backtracking regex: C code that only checks for signals now and then
    "split_text": "import re\ndef split_text(text, pattern):\n    return re.findall(r'(a|aa)+$', text)",
    # a loop that sleeps: no CPU time passes, only wall time
    "get_stats": "import time\ndef get_stats(ids):\n    while True:\n        time.sleep(0.05)",
}
CALLS = {"encode": "ids = encode('hello', {})", "decode": "text = decode([104], {})",
         "split_text": "parts = split_text('a' * 40 + 'b', None)", "get_stats": "stats = get_stats([1, 2])"}
FAST_LIMIT = "import bpe_ref.demo_limit\nbpe_ref.demo_limit.SECONDS = 1"


def test_endless_loops_in_demo_calls_are_stopped_and_run_all_goes_on(tmp_path):
    sources = [FAST_LIMIT]
    for name in ENDLESS:
        sources += [ENDLESS[name], CALLS[name]]
    sources[0] += "\nbpe_ref.demo_limit.AGAIN = 0.5"
    cells = run(*sources, "%timeit -n 1 -r 3 encode('timed', {})", "encode('again', {})", "len(ids)", "'the end'",
                tmp_path=tmp_path)
    for i, name in enumerate(ENDLESS):
        note = text(cells[2 + 2 * i])
        assert note.count("\n") == 1 and note.startswith(f"⏰ {name} did not finish in 1 s and was stopped"), note
        assert f"It was running line " in note and f"of {name}: `" in note
    assert "an endless loop?" in text(cells[2]) and "`while len(ids) >= 2:`" in text(cells[2])
    assert "a regex that backtracks" in text(cells[6])
    timed = text(cells[-4])  # %timeit stops at the first stopped call: one line, not one per loop
    assert timed.count("\n") == 1 and timed.startswith("⏰ encode did not finish in 0.5 s"), timed
    assert text(cells[-3]).startswith("⏰ encode did not finish in 0.5 s")  # stopped before: sooner
    assert "`ids` is not there yet" in text(cells[-2]) and "encode did not finish in time" in text(cells[-2])
    assert value(cells[-1])[0] == "'the end'"


def test_a_call_that_cannot_be_stopped_says_how_to_interrupt_the_kernel(tmp_path):
    """Code that keeps the signal out (as C code that never checks for signals does): the watchdog
    says so while it runs; when it lets the signal in, it is stopped."""
    held = ("import signal, time\ndef merge(ids, pair, idx):\n"
            "    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGPROF])\n    time.sleep(2.5)\n"
            "    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGPROF])\n    return ids")
    cells = run(FAST_LIMIT + "\nbpe_ref.demo_limit.GRACE = 0.5", held, "merge([1], (1, 2), 3)", "'the end'",
                tmp_path=tmp_path)
    first, then = text(cells[2]).splitlines()
    assert first.startswith("⏰ merge has run for") and "Kernel → Interrupt Kernel" in first
    assert then.startswith("⏰ merge did not finish in")
    assert value(cells[3])[0] == "'the end'"


def test_the_limit_is_per_call_of_the_learners_code_and_check_keeps_its_own(tmp_path):
    quick = "def merge(ids, pair, idx):\n    return [idx if i == pair[0] else i for i in ids]"
    cells = run(FAST_LIMIT, quick,
                "import time\nfor _ in range(12):\n    merge([1, 2], (1, 2), 3)\n    time.sleep(0.1)\n'many calls'",
                "time.sleep(1.5)\n'the course own code'",
                ENDLESS["encode"], "from bpe_ref.grade import check\ncheck(encode, timeout=1.5)",
                tmp_path=tmp_path)
    assert value(cells[2])[0] == "'many calls'" and value(cells[3])[0] == "'the course own code'"
    assert text(cells[5]).startswith("⏰ encode: took longer than 1.5 s") and "was stopped" not in text(cells[5])


def test_a_second_run_all_loads_the_extension_quietly(tmp_path):
    cells = run("1 + 1", "%load_ext bpe_ref.workbook", STUB, "merge([1], (1, 2), 3)", tmp_path=tmp_path)
    assert not cells[1].outputs
    assert "merge is not written yet" in text(cells[3])
