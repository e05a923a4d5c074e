"""Exercises found by what the learner's code does (judge/behaviour.py, classes.py, variants.py),
and hints that name a cause only on evidence (diagnosis.matching_bug, engine.failure).

The end-to-end tests grade small files written here in tmp_path; the last ones read real learners'
files from ../shared/learner-corpus (never copied into the project) and skip when it is absent."""

import dataclasses
import json
import textwrap
from pathlib import Path

import nbformat
import pytest

from bpe_ref.grade.judge.behaviour import Tried, bytes_reordered, candidates, fits
from bpe_ref.grade.judge.classes import class_roles, find_mappings, takes_pattern
from bpe_ref.grade.judge.cs336_style import merges_from_bytes
from bpe_ref.grade.judge.diagnosis import matching_bug
from bpe_ref.grade.judge.minbpe_style import takes_ids
from bpe_ref.grade.judge.engine import evidence_only
from bpe_ref.grade.judge.exercises import REGISTRY, Bug
from bpe_ref.grade.judge.variants import merges_from_vocab, takes_merges
from bpe_ref.grade.submission import grade_file
from bpe_ref.grade.walls import isolation
from bpe_ref import naive

ISOLATED = isolation.status()[0]
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "learner-corpus"


def grade(tmp_path, source, name="learner.py"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return grade_file(path, isolated=ISOLATED)


def statuses(result):
    return {name: ex["status"] for name, ex in result["exercises"].items()}


# ---------------------------------------------------------------------------- deciding by behaviour

def test_a_probe_decides_by_answers_and_a_name_only_keeps_a_shaped_one_in_the_running():
    assert Tried("f", "merge", right=6, shaped=6, calls=8, telling=8).behaves()
    assert not Tried("f", "merge", right=1, shaped=8, calls=8, telling=8).behaves()  # a dict-returning stranger
    # right only where doing nothing is right too (merge([3, 1], (1, 2), 256)): that tells nothing
    assert not Tried("f", "merge", right=0, shaped=8, calls=8, telling=4).behaves()
    # named for it and shaped, but every answer is its first argument handed back unchanged
    assert not Tried("apply_merges", "merge", right=0, shaped=8, calls=8, telling=4, named=True, idle=8).behaves()
    assert Tried("train_merges", "train", right=0, shaped=5, calls=8, named=True).behaves()
    assert not Tried("train_merges", "train", right=0, shaped=1, calls=8, named=True).behaves()


def test_a_vocab_builder_named_for_a_byte_shuffle_that_shuffles_is_not_build_vocab():
    shuffled = {i: bytes([(i + 33) % 256]) for i in range(256)}
    assert bytes_reordered(shuffled) and not bytes_reordered({i: bytes([i]) for i in range(256)})
    assert not bytes_reordered({i: b"!" for i in range(256)})  # a bug, not another order
    assert not Tried("build_shuffled_vocab", "build_vocab", shaped=3, calls=3, named=True, reordered=3,
                     names_other_order=True).behaves()
    # the same answers under a plain vocab name are a buggy build_vocab, still graded as one
    assert Tried("make_vocab", "build_vocab", shaped=3, calls=3, named=True, reordered=3).behaves()


def test_candidates_are_the_learners_own_functions_and_static_methods():
    defined = {
        "merge_pair": {"kind": "callable", "params": 3, "names": ["ids", "pair", "idx"], "own": True},
        "Counter": {"kind": "callable", "params": 0, "names": ["iterable"], "own": False},  # imported
        "get_stats": {"kind": "callable", "params": 1, "names": ["ids"], "own": True},  # the course's name
        "split_text": {"kind": "value", "type": "list"},
        "Tok": {"kind": "callable", "methods": {"encode": ["text"]}, "statics": {"merge": ["ids", "pair", "idx"]}},
    }
    found = candidates(defined, taken={"get_stats"})
    assert set(found) == {"merge_pair", "Tok.merge"}
    assert fits(["ids", "pair", "idx"], 3, "merge") and not fits(["ids"], 1, "merge")
    assert fits(["toks", "target_vocab_size"], 1, "train")  # a default still takes the argument



def test_word_counts_a_function_reads_are_told_by_what_they_hold_and_one_is_chosen():
    from bpe_ref.grade.inside.calling import word_tables
    from bpe_ref.grade.judge.variants import word_table
    namespace = {"word_freqs": {"low": 5}, "vocab": ["a", "b"], "merges": {("a", "b"): "ab"}}

    def compute_pair_freqs(splits):
        return [word_freqs, vocab, merges, missing_counts, len]  # noqa: F821 - names it reads

    assert word_tables(compute_pair_freqs, namespace) == ["merges", "missing_counts", "word_freqs"]
    assert word_table(["tokenizer", "word_freqs"]) == "word_freqs"  # the one named for counts
    assert word_table(["splits_table"]) == "splits_table"  # the only one
    assert word_table(["a", "b"]) is None and word_table(["word_freqs", "counts"]) is None
    assert word_table(["not a name"]) is None  # only names are ever set


def test_a_hugging_face_course_word_level_bpe_whose_counts_cell_failed_is_graded(tmp_path):
    counting = textwrap.dedent("""
        def compute_pair_freqs(splits):
            pair_freqs = {}
            for word, freq in word_freqs.items():
                split = splits[word]
                for i in range(len(split) - 1):
                    pair_freqs[split[i], split[i + 1]] = pair_freqs.get((split[i], split[i + 1]), 0) + freq
            return pair_freqs
        """)
    made = "from transformers import AutoTokenizer  # not there: word_freqs is never made\nword_freqs = {}"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(made), nbformat.v4.new_code_cell(counting)])
    result = grade(tmp_path, nbformat.writes(notebook), name="learner.ipynb")
    assert statuses(result) == {"compute_pair_freqs": "pass"}
    assert "module-level `word_freqs`" in result["exercises"]["compute_pair_freqs"]["exercise"]


# ---------------------------------------------------------------------------- classes

def cls(methods, required=0):
    return {"kind": "callable", "params": required, "methods": methods, "stubs": [], "init_required": required}


def test_a_constructor_takes_a_pattern_only_when_its_parameter_says_so():
    assert takes_pattern(["pattern"]) and takes_pattern(["regex_pattern", "special_tokens"]) and takes_pattern(["re_pat"])
    assert not takes_pattern(["verbose"]) and not takes_pattern(["vocab_size"]) and not takes_pattern([])
    defined = {"Tokenizer": cls({"__init__": ["verbose"], "train": ["text", "vocab_size"], "encode": ["text"],
                                 "decode": ["tokens"]})}
    found = {(m.learner, m.exercise) for m in find_mappings(defined, lambda *a, **k: {"merges": {(97, 97): 256}})}
    assert found == {("Tokenizer.train", "train"), ("Tokenizer.encode", "encode"), ("Tokenizer.decode", "decode")}
    needs_size = {"BasicTokenizer": cls({"__init__": ["vocab_size"], "train": ["text"], "encode": ["text"],
                                        "decode": ["ids"]}, required=1)}
    sized = {(m.learner, m.exercise, m.how.split(".")[0]) for m in find_mappings(needs_size, lambda *a, **k: None)}
    assert sized == {("BasicTokenizer.train", "train", "BasicTokenizer(vocab_size)"),  # never a pattern as its size
                     ("BasicTokenizer.encode", "encode", ""), ("BasicTokenizer.decode", "decode", "")}


def test_encoder_decoder_and_a_further_encoder_are_graded():
    roles, extra = class_roles({"train": ["text", "vocab_size"], "encoder": ["text"], "decoder": ["ids"]})
    assert roles["encode"][0] == "encoder" and roles["decode"][0] == "decoder" and not extra
    roles, extra = class_roles({"encode_normal": ["text"], "encode": ["text", "special_allowed"], "decode": ["ids"]})
    assert roles["encode"][0] == "encode" and extra == [("encode_normal", ["text"])]


def test_a_private_chunk_encoder_is_a_helper_handed_the_chunks_bytes():
    roles, extra = class_roles({"_encode_chunk": ["text_bytes"], "_encode_piece": ["chunk"], "_encode_all": ["text"],
                                "decode": ["ids"]})
    assert "encode" not in roles  # never the class's encode, though it is the only encoder
    assert extra == [("_encode_chunk", ["text_bytes"]), ("_encode_piece", ["chunk"])]
    assert takes_ids("text_bytes") and takes_ids("data") and takes_ids("chunk") and not takes_ids("text")


# ---------------------------------------------------------------------------- signature variants

def test_decode_taking_merges_gets_the_merges_that_build_the_vocab():
    merges = {(97, 97): 256, (256, 98): 257, (32, 256): 258}
    assert merges_from_vocab(naive.build_vocab(merges)) == merges
    assert merges_from_vocab({**naive.build_vocab({}), 256: b"\xff\xfe\xfd"}) is None  # no one merge makes it
    assert takes_merges("decode", ["ids", "my_merges"]) and not takes_merges("decode", ["ids", "vocab"])


def test_cs336_merges_repeated_or_swapped_are_read_as_they_are():
    vocab = {i: bytes([i]) for i in range(256)} | {256: b"ab"}
    assert merges_from_bytes((vocab, [(b"a", b"b")])) == merges_from_bytes(([(b"a", b"b")], vocab)) == {(97, 98): 256}
    repeated = merges_from_bytes((vocab, [(b"a", b"b"), (b"a", b"b")]))
    assert "merge #2" in repeated.note and "merge #1" in repeated.note and "259" not in repeated.note


# ---------------------------------------------------------------------------- hints on evidence

def test_a_bug_is_named_only_when_its_model_gives_every_answer():
    ex = REGISTRY["merge"]
    drops_last = Bug("drops_last", "the last id is dropped", lambda ids, pair, idx: naive.merge(ids, pair, idx)[:-1])
    only_here = dataclasses.replace(ex, bugs=(drops_last,))
    failing = ([1, 2, 3], (1, 2), 256)
    got = drops_last.model(*failing)

    def like_the_model(args):
        return drops_last.model(*args), False

    def like_it_on_one_input_only(args):
        return (got if args == failing else naive.merge(*args)), False

    assert matching_bug(only_here, like_the_model, failing, got) is drops_last
    assert matching_bug(only_here, like_it_on_one_input_only, failing, got) is None
    assert "no known mistake" in evidence_only("at index 2: expected 3, got nothing")


# ---------------------------------------------------------------------------- end to end

LECTURE_NAMES = """
def get_pairs(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts

def merge_pair(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i < len(ids) - 1 and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out

def get_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), idx in merges.items():
        vocab[idx] = vocab[a] + vocab[b]
    return vocab

def decode(ids, my_merges):
    vocab = get_vocab(my_merges)
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")

def render(token):
    return token.decode("utf-8", errors="replace")

split_text = "a demo value, not an exercise".split()
"""


def test_functions_under_other_names_are_found_and_graded(tmp_path):
    result = grade(tmp_path, LECTURE_NAMES)
    assert statuses(result) == {"get_pairs": "pass", "merge_pair": "pass", "get_vocab": "pass", "decode": "pass"}
    assert "get_stats" in result["exercises"]["get_pairs"]["exercise"]
    assert "merges" in result["exercises"]["decode"]["exercise"]
    assert result["passed"]


def test_a_named_function_that_behaves_like_nothing_is_named_with_what_was_tried(tmp_path):
    result = grade(tmp_path, """
        def merge_tokens(ids, pair, idx):
            raise RuntimeError("not written yet")
        """)
    assert result["exercises"] == {}
    assert any("no function behaves like merge; tried merge_tokens: crashed on" in n for n in result["notes"])


def test_a_one_argument_encode_that_trains_is_described_not_diagnosed(tmp_path):
    result = grade(tmp_path, """
        def encode(text):
            ids = list(text.encode("utf-8"))
            return ids, {}
        """)
    message = result["exercises"]["encode"]["message"]
    assert "reads module-level merges" not in message
    assert "returned ([97, 97, 97" in message


def test_a_class_with_encoder_decoder_and_a_train_that_returns_merges(tmp_path):
    result = grade(tmp_path, """
        def pairs(ids):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            return counts

        def join(ids, pair, idx):
            out, i = [], 0
            while i < len(ids):
                if i < len(ids) - 1 and (ids[i], ids[i + 1]) == pair:
                    out.append(idx)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            return out

        class Tokenizer:
            def __init__(self, verbose=0):
                self.verbose = verbose
                self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}

            def train(self, text, vocab_size):
                ids, merges = list(text.encode("utf-8")), {}
                for idx in range(256, vocab_size):
                    counts = pairs(ids)
                    if not counts:
                        break
                    best = max(counts, key=counts.get)
                    ids = join(ids, best, idx)
                    merges[best] = idx
                return merges

            def encoder(self, text):
                ids = list(text.encode("utf-8"))
                while len(ids) >= 2:
                    counts = pairs(ids)
                    pair = min(counts, key=lambda p: self.merges.get(p, float("inf")))
                    if pair not in self.merges:
                        break
                    ids = join(ids, pair, self.merges[pair])
                return ids

            def decoder(self, ids):
                return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
        """)
    assert statuses(result) == {"Tokenizer.train": "pass", "Tokenizer.encoder": "pass", "Tokenizer.decoder": "pass",
                                "pairs": "pass", "join": "pass"}, result["exercises"]["Tokenizer.train"]["message"]
    assert "what it returns" in result["exercises"]["Tokenizer.train"]["exercise"]
    assert "(workbook 04_naive_bpe)" in result["exercises"]["Tokenizer.train"]["exercise"]  # not train_regex


def corpus_file(folder, name):
    path = CORPUS / folder / name
    if not path.exists():
        pytest.skip("../shared/learner-corpus is not here")
    return path


@pytest.mark.parametrize("name, wanted", [
    ("SURIAPRAKASH1__minbpe_gpt_tokenizer.py", {"BaseTokenizer.encoder": "pass", "BaseTokenizer.decoder": "pass"}),
    ("jisazaTappsi__testing_compiler.py", {"decode": "pass", "get_vocab": "pass", "train_merges": "fail"}),
    ("azain47__gpt-tokenizer.py", {"get_pairs": "pass", "GPTTokenizer.encode_normal": "pass"}),
])
def test_real_learners_exercises_are_found_under_their_own_names(name, wanted):
    result = grade_file(corpus_file("as-written-1", name), isolated=ISOLATED)
    truth = json.loads((CORPUS / "as-written-1" / "expectations.json").read_text(encoding="utf-8"))[name]
    assert {k: v for k, v in statuses(result).items() if k in wanted} == wanted
    assert set(wanted) <= set(truth["pass"]) | set(truth["notpass"])


def test_a_demo_variable_in_a_real_notebook_is_not_an_exercise():
    result = grade_file(corpus_file("as-written-1", "Fraimy1__GPT4TokenizerFromScratch_minBPE.ipynb"),
                        isolated=ISOLATED)
    assert "split_text" not in result["exercises"]
    assert "(workbook 04_naive_bpe)" in result["exercises"]["Tokenizer.train"]["exercise"]


def test_minbpe_with_an_allowed_set_encodes_the_other_special_tokens_as_text():
    verdict = grade_file(corpus_file("as-written-2", "karpathy__minbpe.py"),
                         isolated=ISOLATED)["exercises"]["RegexTokenizer.encode:special_tokens"]
    assert "not allowed: raise ValueError" not in verdict["message"]
    # what is left is the course's longest-first rule: minbpe joins its tokens in dict order
    assert verdict.get("cause") == "not_longest_first", verdict


def test_a_trainer_state_under_another_name_and_shape_is_read_in_its_own_terms():
    result = grade_file(corpus_file("as-written-2", "GlaIZier__minbpe-tokenizer.py"), isolated=ISOLATED)
    exercises = result["exercises"]
    assert statuses(result)["BasicTokenizer.decode"] == "pass"  # it reads ._vocab {id: pair}, handed to it
    assert "._vocab read as {id: pair}" in exercises["BasicTokenizer.train"]["exercise"]
    assert "should return a dict" not in exercises["BasicTokenizer.train"].get("hint", "")
    assert "build_shuffled_vocab" not in grade_file(
        corpus_file("as-written-2", "roarkai__rebuildminBPE.py"), isolated=ISOLATED)["exercises"]


def test_an_encode_with_no_default_for_allowed_special_is_asked_in_minbpes_words(tmp_path):
    source = (Path(__file__).parent / "learners" / "good_class_minbpe_set_as_text.py").read_text(encoding="utf-8")
    source = source.replace('def encode(self, text, allowed_special="none_raise"):',
                            'def encode(self, text, allowed_special):')
    result = grade(tmp_path, source)
    for name in ("RegexTokenizer.encode", "RegexTokenizer.encode:special_tokens"):
        assert statuses(result)[name] == "pass", result["exercises"][name]


def test_a_trainer_over_chunk_ids_is_handed_the_chunks_and_the_number_of_merges():
    from types import SimpleNamespace

    from bpe_ref.core.patterns import GPT2_SPLIT_PATTERN
    from bpe_ref.grade.judge.variants import OverIds, merges_in
    seen = []

    class Caller:
        def call(self, args, rule=None):
            seen.append(args)
            return SimpleNamespace(kind="ok", value=({256: b"aa"}, {(97, 97): 256}))  # (vocab, merges)
    reply = OverIds(Caller()).call(("aa aa", 258, GPT2_SPLIT_PATTERN))
    assert seen == [([[97, 97], [32, 97, 97]], 2)] and reply.value == {(97, 97): 256}
    assert merges_in(({(1, 2): 256}, {})) == {(1, 2): 256} and merges_in(({}, {0: b"a"})) == {}
    assert merges_in([1, 2]) == [1, 2]  # not a (merges, vocab) pair: judged as it is
    # merges kept in order beside their ids, alone or beside the vocab and its inverse
    listed = [((97, 97), 256), ((256, 98), 257)]
    assert merges_in(listed) == merges_in((listed, {0: b"\x00"}, {b"\x00": 0})) == {(97, 97): 256, (256, 98): 257}
