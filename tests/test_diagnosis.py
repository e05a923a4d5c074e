"""The cross-check matrix: every known bug of every exercise, generated from the catalogue.

Each bug's model is graded as if a learner had written it. It must fail, get its own hint, and no
other bug's hint: so every diagnosis is tried against every other known bug of its exercise and
stays silent there. The catalogue itself is checked too: its inputs tell every two bugs apart,
and every hint is its own.
"""

from pathlib import Path

import pytest

import bpe_ref
from bpe_ref.grade.inside import calling
from bpe_ref.grade.judge.checks import grade_function
from bpe_ref.grade.judge.diagnosis import Probe
from bpe_ref.grade.judge.exercises import REGISTRY
from bpe_ref.grade.judge.exercises.w06_encoding import ENCODE_BUGS
from bpe_ref.grade.judge._private import naive

MATRIX = [(name, bug, k) for name, ex in REGISTRY.items() for bug in ex.bugs for k in range(len(bug.models))]
DRILL_TEXT = (Path(bpe_ref.__file__).parent / "data" / "practice_text.txt").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def models_are_not_reference(monkeypatch):
    """The models are made of the grader's private naive helpers, which live in bpe_ref: here they
    stand for a learner's own helpers, so the reference watch is told to look away."""
    monkeypatch.setattr(calling, "REFERENCE_FOLDERS", ())


def shown(result):
    return " | ".join([result.message] + [str(v) for k, v in result.detail.items() if k != "cause"])


def test_the_matrix_covers_every_exercise_with_bugs():
    assert {name for name, _, _ in MATRIX} == set(REGISTRY)
    cells = sum(len(REGISTRY[name].bugs) for name, _, _ in MATRIX)
    assert cells >= 600, cells  # models x diagnoses tried: 663 when this was written


@pytest.mark.parametrize("name, bug, k", MATRIX, ids=lambda v: getattr(v, "name", v))
def test_each_bug_gets_its_hint_and_no_other(name, bug, k):
    result = grade_function(bug.models[k], name, timeout=30)
    assert result.status in ("fail", "error"), f"{name}.{bug.name} passes: a false pass ({result.message})"
    assert result.detail.get("cause") == bug.name, shown(result)
    assert result.detail["hint"] == bug.hint
    for other in REGISTRY[name].bugs:
        if other is not bug:
            assert other.hint not in shown(result), f"{name}.{bug.name} also shows {other.name}'s hint"


@pytest.mark.parametrize("name", [name for name, ex in REGISTRY.items() if ex.bugs])
def test_the_catalogue_tells_every_two_bugs_apart(name):
    ex = REGISTRY[name]
    cases = list(ex.cases()) + list(ex.probes() if ex.probes else [])
    probe = Probe(ex, ex.bugs, cases[0], cases[1:])
    for bug in ex.bugs:
        assert any(probe.wrong(bug.model, i) for i in range(len(probe.inputs))), f"{bug.name} is never wrong"
        for other in ex.bugs:
            if other is not bug:
                for a in bug.models:
                    for b in other.models:
                        assert any(probe.differ(a, b, i) for i in range(len(probe.inputs))), (bug.name, other.name)
                assert bug.hint not in other.hint, f"{bug.name}'s hint is part of {other.name}'s"


@pytest.mark.parametrize("bug", ENCODE_BUGS, ids=lambda b: b.name)
def test_module_level_encode_gets_the_same_diagnoses(bug):
    """encode(text) reading module-level merges (the drill's style), on the learner's own merges."""
    namespace = {"text": DRILL_TEXT, "merges": naive.train(DRILL_TEXT, 256 + 44), "model": bug.model}
    exec("def encode(text):\n    return model(text, merges)\n", namespace)
    result = grade_function(namespace["encode"], timeout=30)
    assert result.status in ("fail", "error"), result.message
    assert result.detail.get("cause") == bug.name, shown(result)
    for other in ENCODE_BUGS:
        if other is not bug:
            assert other.hint not in shown(result)


def test_a_length_is_counted_in_words_that_agree():
    from bpe_ref.grade.judge.diagnosis import observation
    assert observation([1], [1, 2]) == "expected 1 item, got 2: yours goes on past the expected end with [2]"
    assert observation([1, 2], [1]) == "expected 2 items, got 1: yours ends early, where the expected one goes on with [2]"


def test_a_list_cut_short_says_what_it_lost_at_the_end():
    """merge([5, 5, 5], (5, 5), 256) -> [256]: the lost last id is the first place they differ."""
    from bpe_ref.grade.judge.diagnosis import observation
    assert observation([256, 5], [256]).endswith("goes on with [5]")


def test_an_expected_exception_is_shown_as_one_not_as_a_string():
    """The no_raise bug's model encodes a special token that is not allowed instead of raising."""
    from bpe_ref.grade.judge.checks import report
    model = next(bug for bug in REGISTRY["encode_special"].bugs if bug.name == "no_raise").models[0]
    shown = report(grade_function(model, "encode_special"))
    assert "   expected: raises ValueError\n" in shown and "'raise" not in shown
