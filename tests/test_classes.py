"""How tokenizer classes are recognised (bpe_ref/grade/judge/classes.py): by what their methods accept and
what training leaves behind, never by a class's name; unrelated classes and functions are left alone.
The learner suite (tests/learners/*class*) grades real files of each shape end to end."""

from bpe_ref.grade.judge.classes import find_mappings
from bpe_ref.grade.judge.cs336_style import merges_from_bytes
from bpe_ref.grade.judge.exercises.w07_regex_splitting import safe_lines
from bpe_ref.grade.judge.diagnosis import not_byte_level


def cls(methods, required=0, stubs=()):
    return {"kind": "callable", "params": required, "methods": methods, "stubs": list(stubs),
            "init_required": required}


def never_probed(*args):
    raise AssertionError("an unrelated class was trained")


def mapped(defined, probe=never_probed):
    return {(m.learner, m.exercise) for m in find_mappings(defined, probe)}


def test_unrelated_classes_and_functions_are_not_taken_for_exercises():
    defined = {
        "Model": cls({"train": ["data", "epochs"], "predict": ["x"]}),
        "Codec": cls({"encode": ["obj"]}),  # an encoder with no decoder and no trainer
        "Reader": cls({"__init__": ["path"], "encode": ["line"]}, required=1),
        "read_file": {"kind": "callable", "params": 2, "names": ["path", "size"]},
        "load_gpt2": {"kind": "callable", "params": 2, "names": ["encoder_path", "merges_path"]},  # workbook 09's
        "Base": cls({"train": ["text", "vocab_size"], "encode": ["text"]}, stubs=("train", "encode")),
    }
    assert mapped(defined) == set()


def test_shapes_by_what_methods_accept_whatever_the_class_is_called():
    defined = {
        "Mine": cls({"__init__": ["pattern"], "fit": ["corpus", "vocab_size"], "encode_ordinary": ["text"],
                     "encode": ["text", "allowed_special"], "add_special_tokens": ["tokens"], "decode": ["ids"]}),
        "Bytes": cls({"__init__": ["vocab", "merges", "special_tokens"], "encode": ["text"],
                      "decode": ["ids"], "encode_iterable": ["iterable"]}, required=2),
        "bpe_from_file": {"kind": "callable", "params": 3, "names": ["input_path", "vocab_size", "special_tokens"]},
    }
    found = mapped(defined, probe=lambda *args: {"merges": {(97, 97): 256}})
    assert found == {("Mine.fit", "train_regex"), ("Mine.encode_ordinary", "encode_ordinary"),
                     ("Mine.encode", "encode_ordinary"), ("Mine.encode:special_tokens", "encode_special"),
                     ("Mine.decode", "decode"),
                     ("Bytes.encode", "encode_ordinary"), ("Bytes.encode:special_tokens", "encode_special"),
                     ("Bytes.encode_iterable", "encode_ordinary"), ("Bytes.decode", "decode"),
                     ("bpe_from_file", "train_regex")}
    # two required constructor parameters, the first a size: not CS336's Tokenizer(vocab, merges)
    sized = {"BPE": cls({"__init__": ["vocab_size", "dest_folder"], "encode": ["text"], "decode": ["ids"]}, required=2)}
    assert mapped(sized, probe=lambda *args: None) == set()


def test_a_design_that_is_not_byte_level_gets_one_message():
    defined = {"WordBPE": cls({"train": ["text", "num_merges"], "encode": ["text"], "decode": ["symbols"]})}
    found = find_mappings(defined, lambda *args: {"merges": [("l", "o"), ("lo", "w</w>")]})
    assert [(m.learner, m.exercise) for m in found] == [("WordBPE.train", "not_byte_level")]
    assert "not byte-level BPE" in found[0].how
    assert not_byte_level({"merges": {(108, 111): 256}}) is None


def test_cs336_merges_are_read_as_bytes_in_order():
    vocab = {0: b"<|endoftext|>", **{i + 1: bytes([i]) for i in range(256)}, 257: b"ab", 258: b"abc"}
    merges = [(b"a", b"b"), (b"ab", b"c")]
    assert merges_from_bytes((vocab, merges), ["<|endoftext|>"]) == {(97, 98): 256, (256, 99): 257}
    assert "neither bytes nor merges" in merges_from_bytes((vocab, merges)).note  # a special token not asked for
    assert "neither a byte" in merges_from_bytes((vocab, [(b"ab", b"c")]), ["<|endoftext|>"]).note
    assert "(vocab, merges)" in merges_from_bytes({}).note


def test_lines_are_cut_only_where_no_chunk_crosses():
    assert safe_lines("ab\ncd\n\n  x\ny") == ["ab\n", "cd\n\n  x\n", "y"]
    assert "".join(safe_lines("a \n\n b")) == "a \n\n b"


def test_answers_of_the_wrong_kind_say_so():
    from bpe_ref.grade.judge.engine import wrong_type
    from bpe_ref.grade.judge.exercises import REGISTRY

    assert "not byte-level BPE" in wrong_type(REGISTRY["train"], {(97, 97): 256}, {("l", "o"): 256})
    assert "list of int ids" in wrong_type(REGISTRY["encode"], [97, 256], [b"a", b"bc"])
    assert "not a bytes" in wrong_type(REGISTRY["encode"], [], b"")
    assert wrong_type(REGISTRY["encode"], [97, 256], [97, 98, 99]) is None  # wrong, but of the right kind


def test_a_class_of_no_pattern_parameter_is_the_regex_exercise_when_it_splits():
    from bpe_ref.core.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN
    from bpe_ref.grade.judge.built_in_split import NO_SPLIT, choose

    defined = {"Chunked": cls({"train": ["text", "vocab_size"], "encode": ["text"], "decode": ["ids"]}),
               "Whole": cls({"train": ["text", "vocab_size"], "encode": ["text"], "decode": ["ids"]})}

    def split(name, train, encode, merges_of, setting, sized=False, returns=False, pattern=None, bare=False):
        return (GPT2_SPLIT_PATTERN, "its train splits") if name == "Chunked" else (NO_SPLIT, "")
    found = {m.learner: m for m in find_mappings(defined, lambda *a, **k: {"merges": {(97, 97): 256}}, split)}
    assert (found["Chunked.train"].exercise, found["Chunked.train"].pattern) == ("train_regex", GPT2_SPLIT_PATTERN)
    assert (found["Chunked.encode"].exercise, found["Chunked.encode"].pattern) == ("encode_ordinary", GPT2_SPLIT_PATTERN)
    assert (found["Whole.train"].exercise, found["Whole.encode"].exercise) == ("train", "encode")
    # answers that tell nothing: the class's name breaks the tie, else no split
    assert choose("RegexTokenizer", None, None)[0] == GPT4_SPLIT_PATTERN
    assert choose("Tokenizer", None, None)[0] == NO_SPLIT
    assert choose("Tokenizer", GPT4_SPLIT_PATTERN, NO_SPLIT)[0] == GPT4_SPLIT_PATTERN  # training first
    # a basic trainer beside a splitting encode: the class splits, and its train merges across chunks
    assert choose("HindiTokenizer", NO_SPLIT, GPT2_SPLIT_PATTERN)[0] == GPT2_SPLIT_PATTERN


def test_the_probes_tell_the_three_splits_apart():
    from bpe_ref.grade.judge._private import naive
    from bpe_ref.grade.judge.built_in_split import (CANDIDATES, ENCODE_PROBE, NO_SPLIT, TRAIN_PROBE,
                                                    agrees_in_encoding, agrees_in_training, told)
    from bpe_ref.grade.judge.exercises.w04_naive_bpe import train_chunks
    from bpe_ref.grade.judge.exercises.w07_regex_splitting import chunk_ids
    for pattern in CANDIDATES:
        text, size = TRAIN_PROBE
        merges = naive.train(text, size) if pattern == NO_SPLIT else train_chunks(chunk_ids(text, pattern), size)
        assert told(agrees_in_training, merges) == pattern
        text, given = ENCODE_PROBE
        ids = naive.encode(text, given) if pattern == NO_SPLIT else naive.encode_ordinary(text, given, pattern)
        assert told(agrees_in_encoding, ids) == pattern
    assert told(agrees_in_training, None) is None and told(agrees_in_encoding, "oops") is None
    assert told(agrees_in_encoding, list(ENCODE_PROBE[0].encode("utf-8"))) is None  # merges ignored: no tell


def test_of_two_register_methods_the_one_that_keeps_the_ids_given_is_graded():
    from bpe_ref.grade.judge.registering import PROBE_ID, PROBE_TOKEN, chosen, keeps_given_ids
    assert keeps_given_ids({"special_tokens": {PROBE_TOKEN: PROBE_ID}, "merges": {}})
    assert keeps_given_ids({"inverse": {PROBE_ID: PROBE_TOKEN.encode("utf-8")}})
    assert not keeps_given_ids({"special_tokens": {PROBE_TOKEN: 256}})
    registers = [("register_set", ["tokens"]), ("register_special_tokens", ["special_tokens"])]
    assert chosen(registers, lambda name: name == "register_special_tokens")[0] == "register_special_tokens"
    assert chosen(registers, lambda name: False)[0] == "register_set"  # nothing told: the first, as before
    defined = {"Tok": cls({"__init__": ["pattern"], "train": ["text", "vocab_size"], "encode": ["text", "allowed_special"],
                           "decode": ["ids"], "register_set": ["tokens"], "register_special_tokens": ["special_tokens"]})}
    found = find_mappings(defined, lambda *a, **k: {"merges": {(97, 97): 256}},
                          keeps=lambda cls_, method, init: method == "register_special_tokens")
    special = [m for m in found if m.exercise == "encode_special"]
    assert len(special) == 1 and ".register_special_tokens(" in special[0].how


def test_a_class_that_numbers_its_special_tokens_is_read_back_in_its_own_numbering():
    from bpe_ref.grade.judge.registering import Registration, learner_ids
    tokens = ["<|a|>", "<|a|><|a|>"]
    assert learner_ids({"merges": {}, "special": {"<|a|>": 258, "<|a|><|a|>": 259}}, tokens) == \
        {"<|a|>": 258, "<|a|><|a|>": 259}
    assert learner_ids({"inverse": {258: b"<|a|>", 259: b"<|a|><|a|>"}}, tokens) == {"<|a|>": 258, "<|a|><|a|>": 259}
    assert learner_ids({"special": {"<|a|>": 258}}, tokens) is None  # one token missing: no numbering read
    assert learner_ids({"special": {"<|a|>": True, "<|a|><|a|>": 2}}, tokens) is None  # a bool is no id
    assert Registration("add", "list").request({"<|a|>": 300})["steps"][0][0] == "add"
    assert len(Registration("add_one", "each").request({"<|a|>": 300, "<|b|>": 301})["steps"]) == 2
    assert "init_kw" in Registration("special_tokens", "dict", in_init=True).request({"<|a|>": 300})
    assert not Registration("special_tokens", "dict", in_init=True).numbers


def test_a_numbering_that_reuses_an_id_could_not_be_graded():
    from bpe_ref.grade.judge.minbpe_style import misnumbered
    from bpe_ref.grade.walls.sandbox import Reply
    merges = {(97, 98): 256}
    assert misnumbered(Reply("ok", {"s": {"<|a|>": 257}}), {"<|a|>": 257}, merges) is None
    clash = misnumbered(Reply("ok", {"s": {"<|a|>": 256}}), {"<|a|>": 256}, merges)
    assert clash.kind == "unread" and "merge (97, 98)" in clash.info["message"]
    assert misnumbered(Reply("ok", {"s": {"<|a|>": -1}}), {"<|a|>": -1}, merges).kind == "unread"
    assert misnumbered(Reply("ok", {"s": {"<|a|>": 300}}), {"<|a|>": 257}, merges).kind == "unread"
    assert misnumbered(Reply("raised", info={}), {"<|a|>": 257}, merges).kind == "raised"


def test_a_trainer_whose_size_has_a_name_of_its_own_is_tried_beside_a_tokenizer_only():
    trains = lambda *args: {"merges": {(97, 97): 256}}  # noqa: E731
    tokenizer = {"BPE": cls({"training": ["corpora", "volumen"], "encode": ["text"], "decode": ["ids"]})}
    assert ("BPE.training", "train") in mapped(tokenizer, probe=trains)
    flagged = {"BPE": cls({"train": ["text", "verbose"], "encode": ["text"], "decode": ["ids"]})}
    assert not {m for m in mapped(flagged, probe=trains) if m[1] == "train"}
    model = {"Model": cls({"train": ["data", "steps"], "predict": ["x"]})}
    assert mapped(model) == set()
