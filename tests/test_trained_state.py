"""Reading what a minbpe-style trainer left on its instance, in each shape it may take."""

from bpe_ref.grade.judge.shapes import Malformed
from bpe_ref.grade.judge.trained_state import (State, as_merges, described, find_state, in_shape, shape_of,
                                               values_for, vocab_merges)

MERGES = {(97, 97): 256, (256, 97): 257}
VOCAB = {**{i: bytes([i]) for i in range(256)}, 256: b"aa", 257: b"aaa"}


def test_each_shape_is_told_apart():
    assert shape_of(MERGES) == "merges"
    assert shape_of({256: (97, 97), 257: (256, 97)}) == "inverse"
    assert shape_of([(97, 97), (256, 97)]) == "pairs"
    assert shape_of(VOCAB) == "vocab"
    assert shape_of({"97 97": 256}) is None and shape_of([97, 98]) is None and shape_of({}) is None


def test_the_merges_are_found_under_any_name_and_the_vocab_beside_them():
    state = find_state({"_vocab": {256: (97, 97)}, "ids": [1, 2], "table": VOCAB})
    assert (state.merges, state.shape, state.vocab, state.found) == ("_vocab", "inverse", "table", True)
    assert find_state({"merges": {}, "verbose": False}) == State()  # a slip, still read as merges
    assert not find_state({"verbose": False}).found


def test_a_vocab_alone_is_read_and_other_filled_attributes_are_named():
    state = find_state({"vocab": VOCAB, "_rules": {"97 97": 256}})
    assert (state.shape, state.vocab, state.opaque) == ("vocab", "vocab", ("_rules",))


def test_each_shape_goes_both_ways():
    for shape in ("merges", "inverse", "pairs"):
        assert as_merges(in_shape(MERGES, shape), shape) == MERGES
    assert as_merges([], "pairs") == {} and as_merges({}, "inverse") == {}
    assert values_for(State("_vocab", "inverse", "vocab"), MERGES, VOCAB) == {
        "_vocab": {256: (97, 97), 257: (256, 97)}, "vocab": VOCAB}
    assert values_for(State("table", "vocab", "table"), MERGES, VOCAB) == {"table": VOCAB}


def test_a_vocab_gives_the_merges_the_training_text_made():
    # b'aaa' is (97, 256) or (256, 97): only the text tells which one training made
    assert vocab_merges(VOCAB, [b"aaab"]) == MERGES
    assert as_merges(VOCAB, "vocab", [b"aaab"]) == MERGES
    assert isinstance(as_merges({**VOCAB, 258: b"xyz"}, "vocab", [b"aaab"]), Malformed)


def test_what_was_found_is_described():
    assert described({"_rules": {"a": 1}, "ids": [1, 2], "n": 3}) == \
        "_rules (dict of 1: str -> int), ids (list of 2), n (int)"


def test_a_vocab_that_learned_nothing_holds_no_state():
    state = find_state({"vocab": {i: bytes([i]) for i in range(256)}, "merges": {}})
    assert (state.merges, state.shape, state.vocab, state.found) == ("merges", "merges", "vocab", True)
    assert not find_state({"vocab": {i: bytes([i]) for i in range(256)}}).found


def test_every_attribute_that_holds_the_merges_is_handed_them():
    from bpe_ref.grade.judge.trained_state import find_state, values_for
    trained = {"merges": {(97, 97): 256, (256, 98): 257}, "pairs": {256: (97, 97), 257: (256, 98)},
               "counts": {(97, 98): 3}, "vocab": {i: bytes([i % 256]) for i in range(258)}}
    state = find_state(trained)
    assert (state.merges, state.also) == ("merges", (("pairs", "inverse"),))
    values = values_for(state, {(104, 105): 256}, {})
    assert values["merges"] == {(104, 105): 256} and values["pairs"] == {256: (104, 105)} and "counts" not in values
