"""Fail closed: every fault on the grader's side of judging ends in an error, never a pass.

Faults are injected where the parent meets the learner's process (a fake worker that answers the
real protocol with forged lines) and inside the judging itself (judges, observers and bug models
that raise, replies of the wrong shape). The count of faults and of passes is printed: passes 0.
"""

import dataclasses
import json
import sys
import textwrap

import pytest

from bpe_ref.grade.judge.engine import run_exercise
from bpe_ref.grade.judge.exercises import REGISTRY
from bpe_ref.grade.walls import sandbox as sandbox_module
from bpe_ref.grade.walls.sandbox import Reply, Sandbox, SandboxCaller, exercise_deadline

FAKE_WORKER = textwrap.dedent('''
    import json, os, sys
    fault = json.loads(os.environ["BPE_FAULT"])
    out = os.fdopen(1, "w")
    def send(text):
        out.write(text + "\\n"); out.flush()
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "load":
            send('{"cell": 0, "status": "started"}')
            send('{"cell": 0, "status": "ok", "printed": 0}')
            send('{"loaded": true, "defined": {"get_stats": {"kind": "callable", "params": 1, "names": ["ids"]}}}')
        elif request["op"] == "call":
            if fault == "exit":
                sys.exit(0)
            if fault == "early":  # a reply to a call not made yet, then the real one: all replies shift
                send('{"ok": {"$d": []}, "printed": 0}')
                fault = "right"
            if fault == "right":  # the true answer, computed here: the parent must still be the judge
                ids = request["args"][0]
                counts = {}
                for pair in zip(ids, ids[1:]):
                    counts[tuple(pair)] = counts.get(tuple(pair), 0) + 1
                send(json.dumps({"ok": {"$d": [[{"$t": list(p)}, n] for p, n in counts.items()]}, "printed": 0}))
            else:
                send(fault)
        elif request["op"] == "quit":
            break
''')

FORGED = {
    "not JSON": "this is not json",
    "a list": "[1, 2, 3]",
    "no kind": "{}",
    "two kinds": '{"ok": 1, "raised": {"type": "ValueError"}}',
    "printed as text": '{"ok": {"$d": []}, "printed": "x"}',
    "printed negative": '{"ok": {"$d": []}, "printed": -5}',
    "mutated as text": '{"ok": {"$d": []}, "printed": 0, "mutated": "no"}',
    "raised as text": '{"raised": "boom", "printed": 0}',
    "raised type a number": '{"raised": {"type": 5, "message": "m", "kinds": []}, "printed": 0}',
    "bytes not hex": '{"ok": {"$b": 5}, "printed": 0}',
    "dict items not pairs": '{"ok": {"$d": [[1]]}, "printed": 0}',
    "unknown tag": '{"ok": {"$x": 1}, "printed": 0}',
    "tag and extra key": '{"ok": {"$t": [1], "also": 2}, "printed": 0}',
    "deep nesting": '{"ok": ' + "[" * 5000 + "]" * 5000 + ', "printed": 0}',
    "shortcuts as text": '{"ok": {"$d": []}, "printed": 0, "shortcuts": "none"}',
    "step as a number": '{"ok": {"$d": []}, "printed": 0, "step": 7}',
}
FAULTS = [*FORGED, "exit", "early", "oversized"]


@pytest.fixture
def fake_worker(tmp_path, monkeypatch):
    path = tmp_path / "fake_worker.py"
    path.write_text(FAKE_WORKER, encoding="utf-8")
    monkeypatch.setattr(sandbox_module, "WORKER", path)
    return path


def grade_with(fault, monkeypatch):
    text = FORGED.get(fault, fault)
    if fault == "oversized":
        monkeypatch.setattr(sandbox_module, "MAX_REPLY", 10_000)
        text = '{"ok": {"$b": "' + "00" * 20_000 + '"}, "printed": 0}'
    monkeypatch.setenv("BPE_FAULT", json.dumps(text))
    box = Sandbox([{"name": "a.py", "source": "", "raises_on_purpose": False, "given": []}], timeout=5.0)
    try:
        assert box.start()
        return run_exercise(REGISTRY["get_stats"], SandboxCaller(box, "get_stats", exercise_deadline(5.0)), 5.0)
    finally:
        box.close()


@pytest.mark.parametrize("fault", FAULTS)
def test_a_forged_reply_is_never_a_pass(fault, fake_worker, monkeypatch):
    result = grade_with(fault, monkeypatch)
    assert result.status != "pass", (fault, result)
    if fault in FORGED or fault == "oversized":
        assert result.status == "error" and "could not be graded (grader-side" in result.message, result


def test_the_fake_worker_is_believed_only_for_its_values(fake_worker, monkeypatch):
    """The control: the same fake worker answering right values passes, so the faults above fail
    for being faults, not because the fake cannot pass at all."""
    assert grade_with("right", monkeypatch).status == "pass"


# ---------------------------------------------------------------------------- inside the judging


class ListCaller:
    """A caller that answers each call with the next reply of a script (then repeats the last)."""

    def __init__(self, replies):
        self.replies, self.calls = list(replies), 0

    def call(self, args, rule=None):
        self.calls += 1
        reply = self.replies[min(self.calls, len(self.replies)) - 1]
        if isinstance(reply, Exception):
            raise reply
        return reply

    def by_hand(self, rule):
        return []

    def measure(self, text, vocab_size):
        return self.call((text, vocab_size)), None


def raising(*args, **kwargs):
    raise RuntimeError("injected")


BAD_REPLIES = {
    "unknown kind": [Reply("weird")],
    "raised without a record": [Reply("raised", info={"raised": "x"})],
    "raised record of numbers": [Reply("raised", info={"raised": {"type": 1, "message": 2, "kinds": 3}})],
    "caller raises": [RuntimeError("the sandbox's own code failed")],
    "caller answers None": [None],
    "ok with info of text": [Reply("ok", value={}, info="x")],
}


@pytest.mark.parametrize("name", ["get_stats", "merge", "train", "encode", "decode", "from_hex"])
@pytest.mark.parametrize("fault", BAD_REPLIES)
def test_a_reply_of_the_wrong_shape_is_never_a_pass(name, fault):
    result = run_exercise(REGISTRY[name], ListCaller(BAD_REPLIES[fault]), 5.0)
    assert result.status != "pass", (name, fault, result)


JUDGING_PARTS = ("judge", "cases", "bugs", "observe")
JUDGED = ["get_stats", "merge", "encode", "decode", "train"]


@pytest.mark.parametrize("part", JUDGING_PARTS)
@pytest.mark.parametrize("name", JUDGED)
def test_a_judging_part_that_raises_is_never_a_pass(name, part):
    """The learner's value reaches the judge, the observer and the bug models; whichever of them
    raises, the exercise is not passed: with right answers a raising judge or case list is
    `could not be graded`; with a wrong answer, raising bug models and observers leave it failed."""
    from bpe_ref.grade.judge.exercises.common import Bug

    ex = REGISTRY[name]
    if part in ("judge", "cases"):
        result = run_exercise(dataclasses.replace(ex, **{part: raising}), ReferenceCaller(_reference_answer(ex)), 5.0)
        assert result.status == "error" and "could not be graded" in result.message, (name, part, result)
        return
    broken = dataclasses.replace(ex, bugs=(Bug("injected", "a hint", raising),)) if part == "bugs" \
        else dataclasses.replace(ex, observe=raising)
    result = run_exercise(broken, ListCaller([Reply("ok", value=[[["nonsense"]]], info={"printed": 0})]), 5.0)
    assert result.status in ("fail", "error"), (name, part, result)


def _reference_answer(ex):
    from bpe_ref.grade.judge.exercises.common import Mismatch

    def answer(args):
        mismatch = ex.judge(args, object())
        return mismatch.expected if isinstance(mismatch, Mismatch) else None
    return answer


class ReferenceCaller(ListCaller):
    def __init__(self, answer):
        super().__init__([])
        self.answer = answer

    def call(self, args, rule=None):
        self.calls += 1
        return Reply("ok", value=self.answer(args), info={"printed": 0})


def test_the_fault_count(capsys):
    """One line for the note: how many faults were injected here, and how many passed (0)."""
    faults = len(FAULTS) + len(BAD_REPLIES) * 6 + len(JUDGING_PARTS) * len(JUDGED)
    print(f"fault injection: {faults} faults injected, 0 passes", file=sys.stderr)
    assert faults >= 60


@pytest.mark.parametrize("after", ["decode", [1, 2], [None], ["x"] * 100_000])
def test_a_forged_list_of_functions_made_after_a_failed_cell_is_refused(after):
    """A failed cell's report may name the functions made after it (worker.define_the_rest): only a
    short list of names is believed."""
    from bpe_ref.grade.walls.replies import Malformed, cell_report

    message = {"cell": 0, "status": "error", "type": "NameError", "message": "m", "kinds": [], "defined_after": after}
    with pytest.raises(Malformed):
        cell_report(message, 1)
    index, report = cell_report({**message, "defined_after": ["decode"]}, 1)
    assert report["defined_after"] == ["decode"]
