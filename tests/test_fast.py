"""bpe_ref.fast against the naive reference: the same merges, the same tokens as tiktoken."""

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_ref import BasicTokenizer, RegexTokenizer, from_tiktoken, get_encoding
from bpe_ref import encode as naive_encode
from bpe_ref import train as naive_train
from bpe_ref.fast import LONG_CHUNK, MANY_CHUNKS, _bpe_heap, _bpe_scan, encode_chunk_fast
from bpe_ref.trainer import train_fast

MULTILINGUAL = Path(__file__).parent / "data" / "multilingual.txt"
NAMES = ["gpt2", "cl100k_base", "o200k_base"]

# small alphabets make ties, repeats and overlapping runs ('aaaa') common
ALPHABETS = ["ab", "abc ", "aé한😀 b", "a a\n\n", "ab1 2'é\t"]
small_texts = st.sampled_from(ALPHABETS).flatmap(lambda a: st.text(alphabet=a, max_size=120))
vocab_sizes = st.integers(min_value=256, max_value=340)

# letters of many scripts, digits, apostrophes and every kind of whitespace
TRICKY = list("aZ éÉ\u0301'’sStT 0123456789١٢\t\r\n  \u00a0\u3000.,!?<|>_-/\\"
              "한국어中文ひカاَلعربيةשָׁदेवนาไ😀👍🏽\u200d🇯🇵𝐌Ｆ")


def medium_text():
    """A few KB of varied text: the project's multilingual file, else a generated one."""
    if MULTILINGUAL.exists():
        with open(MULTILINGUAL, encoding="utf-8", newline="") as f:
            text = f.read()
    else:
        rng = random.Random(7)
        words = ["the", "cat", "sat", "on", "mat", "naïve", "café", "한국어", "😀", "1234", "\n"]
        text = " ".join(rng.choice(words) for _ in range(800))
    words = text.split(" ")
    random.Random(0).shuffle(words)
    return text + " ".join(words)  # about twice the file, so pairs repeat


@pytest.fixture(scope="module")
def references():
    return {name: (from_tiktoken(name), get_encoding(name)) for name in NAMES}


def trained_both_ways(tok_class, text, vocab_size):
    naive, fast = tok_class(), tok_class()
    naive.train(text, vocab_size, algorithm="naive")
    fast.train(text, vocab_size)
    return naive, fast


# ------------------------------------------------------------------ training


@settings(max_examples=1000)
@given(small_texts, vocab_sizes)
def test_fast_merges_equal_naive_basic(text, vocab_size):
    naive, fast = trained_both_ways(BasicTokenizer, text, vocab_size)
    assert fast.merges == naive.merges, f"merges differ on {text!r}"
    assert fast.merges == naive_train(text, vocab_size), f"merges differ from bpe_ref.train on {text!r}"


@settings(max_examples=1000)
@given(small_texts, vocab_sizes)
def test_fast_merges_equal_naive_regex(text, vocab_size):
    naive, fast = trained_both_ways(RegexTokenizer, text, vocab_size)
    assert fast.merges == naive.merges, f"merges differ on {text!r}"


def test_random_longer_texts():
    rng = random.Random(2024)
    for _ in range(150):
        alphabet = rng.choice(ALPHABETS)
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(100, 400)))
        vocab_size = rng.randint(256, 400)
        for tok_class in (BasicTokenizer, RegexTokenizer):
            naive, fast = trained_both_ways(tok_class, text, vocab_size)
            assert fast.merges == naive.merges, f"{tok_class.__name__}: merges differ on {text!r}"


@pytest.mark.parametrize("text", ["", "a", "ab", "aaaa", "aaaaa", "abbbbab", "abbbbaab", "ab ab ab"])
def test_small_cases_including_early_stop(text):
    for tok_class in (BasicTokenizer, RegexTokenizer):
        naive, fast = trained_both_ways(tok_class, text, 300)
        assert fast.merges == naive.merges, f"merges differ on {text!r}"


def test_tie_goes_to_the_current_first_occurrence():
    # ab, bb and ba all start tied after 'bb' is merged; the 'ab' at the start is gone by then,
    # so naive ranks ab by its later occurrence and picks (a, bb) first.
    merges = train_fast(["abbbbab"], 258)
    assert list(merges) == [(98, 98), (97, 256)]


def test_medium_text_basic_and_regex():
    text = medium_text()
    for tok_class in (BasicTokenizer, RegexTokenizer):
        naive, fast = trained_both_ways(tok_class, text, 256 + 300)
        assert fast.merges == naive.merges, f"{tok_class.__name__}: merges differ on the medium text"


def test_medium_text_trained_until_no_pair_is_left():
    text = medium_text()[:3000]
    naive, fast = trained_both_ways(RegexTokenizer, text, 100_000)
    assert fast.merges == naive.merges
    assert len(fast.merges) < 100_000 - 256  # it did stop early


def test_repeated_chunks_count_as_often_as_they_occur():
    chunks = ["ab", "cd", "cd", "ab", "cd"]
    assert train_fast(chunks, 257) == {(99, 100): 256}


def test_verbose_reports_are_the_same(capsys):
    text = medium_text()[:600]
    BasicTokenizer().train(text, 280, verbose=True, algorithm="naive")
    naive_out = capsys.readouterr().out
    BasicTokenizer().train(text, 280, verbose=True)
    assert capsys.readouterr().out == naive_out


def test_unknown_algorithm_raises():
    with pytest.raises(ValueError, match="'fast' or 'naive'"):
        BasicTokenizer().train("hello", 260, algorithm="quick")


# ------------------------------------------------------------------ encoding, our own tokenizers


@pytest.fixture(scope="module")
def basic_tok():
    tok = BasicTokenizer()
    tok.train(medium_text(), 256 + 400)
    return tok


@settings(max_examples=200)
@given(st.text(alphabet=st.sampled_from(TRICKY + list("the cat sat on")), max_size=300))
def test_fast_encoder_equals_naive_encode(basic_tok, text):
    assert basic_tok.encode_ordinary(text) == naive_encode(text, basic_tok.merges), f"differs on {text!r}"


def test_long_chunk_heap_path_equals_naive(basic_tok):
    text = medium_text()
    assert len(text.encode("utf-8")) > LONG_CHUNK
    assert basic_tok.encode_ordinary(text) == naive_encode(text, basic_tok.merges)
    runs = "a" * 301 + " " * 200 + "ab" * 150
    assert basic_tok.encode_ordinary(runs) == naive_encode(runs, basic_tok.merges)


@settings(max_examples=200)
@given(st.lists(st.sampled_from([97, 98, 256, 257, 258]), max_size=40))
def test_scan_and_heap_agree(ids):
    merges = {(97, 98): 256, (256, 256): 257, (97, 97): 258, (258, 256): 259, (98, 98): 260}
    assert _bpe_scan(list(ids), merges) == _bpe_heap(list(ids), merges)


def test_encode_chunk_fast_example():
    assert encode_chunk_fast(b"aaa", {(97, 97): 256}, list(range(256))) == [256, 97]


# ------------------------------------------------------------------ encoding, tiktoken's encodings


FIXED = [
    "Hello, world! It's 2024: naïve café, Łódź.",
    "   leading spaces\n\n\ttabs\r\n  trailing   ",
    "한국어 中文 ひらがな العربية עברית हिन्दी ไทย",
    "😀👍🏽👨\u200d👩\u200d👧 🇯🇵 𝐌𝐚𝐭𝐡 Ｆｕｌｌ",
    "12345678901234567890 ١٢٣٤٥ 3.14159",
    "don't WE'LL they're I'M you've",
    " " * 300 + "x" + "\n" * 100 + "9" * 200,  # long chunks take the heap path
]


@pytest.mark.parametrize("name", NAMES)
def test_fast_encoder_equals_tiktoken_fixed(references, name):
    tok, enc = references[name]
    texts = list(FIXED)
    if MULTILINGUAL.exists():
        with open(MULTILINGUAL, encoding="utf-8", newline="") as f:
            texts.append(f.read())
    for text in texts:
        tok._cache.clear()  # encode cold, not from a cache filled by another test
        assert tok.encode_ordinary(text) == enc.encode_ordinary(text), f"{name} differs on {text!r}"


@settings(max_examples=150)
@given(st.text(alphabet=st.sampled_from(TRICKY), max_size=60) | st.text(max_size=30))
def test_fast_encoder_equals_tiktoken_hypothesis(references, text):
    for name, (tok, enc) in references.items():
        assert tok.encode_ordinary(text) == enc.encode_ordinary(text), f"{name} differs on {text!r}"


# ------------------------------------------------------------------ encoding cold, the shortcuts


@pytest.mark.parametrize("corpus_name", ["benchmark", "multilingual"])
def test_cold_encoder_equals_tiktoken_on_the_benchmark_texts(references, corpus_name):
    """The benchmark's two texts, encoded from empty caches, document by document and whole."""
    from bpe_ref.bench import encoding_corpus

    tok, enc = references["cl100k_base"]
    docs = encoding_corpus({"corpus": corpus_name, "mb": 0.3})
    tok._clear_cache()
    assert [tok.encode_ordinary(doc) for doc in docs] == [enc.encode_ordinary(doc) for doc in docs]
    tok._clear_cache()
    assert tok.encode_ordinary("".join(docs)) == enc.encode_ordinary("".join(docs))


def test_whole_token_shortcut_is_skipped_for_merges_from_elsewhere():
    """"abc" is token 258, yet BPE makes (a, b) first and then cannot reach it."""
    vocab = {**{i: bytes([i]) for i in range(256)}, 256: b"ab", 257: b"bc", 258: b"abc"}
    merges = [(b"a", b"b"), (b"b", b"c"), (b"a", b"bc")]
    tok = RegexTokenizer.from_vocab(vocab, merges, pattern=None)
    assert tok.whole_tokens is None
    assert tok.encode_ordinary("abc") == [256, 99] == naive_encode("abc", tok.merges)


@settings(max_examples=300)
@given(st.binary(max_size=40) | st.text(alphabet=st.sampled_from(TRICKY), max_size=20).map(str.encode))
def test_seams_and_pieces_change_nothing(references, chunk):
    """Cutting a chunk at its seams and encoding the pieces on their own gives plain BPE's ids."""
    for name, (tok, _) in references.items():
        encoder = tok._chunk_encoder()
        plain = encode_chunk_fast(chunk, encoder.ranks, encoder.byte_table, encoder.rank_ids)
        assert encoder.encode(chunk) == plain, f"{name} differs on {chunk!r}"


def test_seams_are_the_byte_pairs_no_token_holds(references):
    tok, _ = references["cl100k_base"]
    seams = tok._chunk_encoder().seams
    held = {(a, b) for token in tok.whole_tokens for a, b in zip(token, token[1:])}
    assert seams == {(a, b) for a in range(256) for b in range(256)} - held


def test_trained_tokens_encode_as_themselves(basic_tok):
    """Why the whole-token shortcut is exact after training: every token's own bytes give it back."""
    basic_tok._clear_cache()
    for token, idx in basic_tok.whole_tokens.items():
        assert encode_chunk_fast(token, basic_tok.merges, list(range(256))) == [idx], f"{token!r}"


# ------------------------------------------------------------------ many new chunks at once


@pytest.fixture(scope="module")
def other_layouts():
    """A tokenizer trained here, and the same merges under shuffled ids (bytes not at 0..255,
    ids not growing in merge order) given by from_vocab, with no whole-token shortcut."""
    trained = RegexTokenizer()
    trained.train(medium_text(), 256 + 300)
    order = list(trained.vocab)
    random.Random(3).shuffle(order)
    new_id = dict(zip(trained.vocab, order))
    vocab = {new_id[idx]: token for idx, token in trained.vocab.items()}
    merges = [(trained.vocab[a], trained.vocab[b]) for a, b in trained.merges]
    shuffled = RegexTokenizer.from_vocab(vocab, merges, pattern=trained.pattern)
    return {"trained": trained, "shuffled ids": shuffled}


def one_at_a_time(encoder, chunks):
    """Plain BPE on each chunk, no seams, no pieces, no whole-token shortcut."""
    return [tuple(encode_chunk_fast(chunk.encode("utf-8"), encoder.ranks, encoder.byte_table, encoder.rank_ids))
            for chunk in chunks]


chunk_lists = st.lists(st.text(alphabet=st.sampled_from(TRICKY + list("the cat sat")), min_size=1, max_size=12),
                       min_size=MANY_CHUNKS, max_size=3 * MANY_CHUNKS)


@settings(max_examples=60, deadline=None)
@given(chunk_lists)
def test_many_new_chunks_at_once_equal_plain_bpe(references, other_layouts, chunks):
    """encode_many's one pass (seams found by numpy over all the chunks' bytes) gives each chunk
    plain BPE's ids, for tiktoken's encodings and for ids laid out otherwise."""
    tokenizers = {name: tok for name, (tok, _) in references.items()} | other_layouts
    for name, tok in tokenizers.items():
        encoder = tok._chunk_encoder()
        encoder.clear()
        assert encoder.encode_many(chunks) == one_at_a_time(encoder, chunks), f"{name} differs on {chunks!r}"


def test_many_chunks_with_an_empty_one(references):
    """A custom pattern can match empty text; its chunk has no ids and moves no other chunk's."""
    encoder = references["cl100k_base"][0]._chunk_encoder()
    chunks = ["", *(f" word{i}" for i in range(MANY_CHUNKS)), ""]
    assert encoder.encode_many(chunks) == one_at_a_time(encoder, chunks)
    tok, text = RegexTokenizer(r"\p{L}*|\d"), "ab cd 1" * 40  # chunks 'ab', '', 'cd', '', '1', ...
    assert "" in tok.split(text)
    assert tok.encode_ordinary(text) == [b for chunk in tok.split(text) for b in chunk.encode()]


def test_a_trained_tokenizer_encodes_a_long_text_as_naive_does(other_layouts):
    text = medium_text()
    for name, tok in other_layouts.items():
        tok._clear_cache()
        expected = [idx for chunk in tok.split(text) for idx in naive_encode(chunk, tok.merges)]
        if name == "trained":
            assert tok.encode_ordinary(text) == expected
        assert tok.decode(tok.encode_ordinary(text)) == text


# ------------------------------------------------------------------ the trainer's table, built with numpy


def plain_layout_and_pairs(weights):
    """The trainer's layout and first count, one byte at a time: what the numpy versions must give."""
    ids, nxt, prv, weight = [], [], [], []
    for chunk, w in weights.items():
        data = chunk.encode("utf-8")
        start = len(ids)
        for k, b in enumerate(data):
            ids.append(b)
            nxt.append(start + k + 1 if k + 1 < len(data) else -1)
            prv.append(start + k - 1 if k > 0 else -1)
            weight.append(w)
    count, where = {}, {}
    for pos, right in enumerate(nxt):
        if right != -1:
            pair = (ids[pos], ids[right])
            count[pair] = count.get(pair, 0) + weight[pos]
            where.setdefault(pair, []).append(pos)
    return (ids, nxt, prv, weight), count, where


@pytest.mark.parametrize("block", [1, 5, 64, 1 << 19])
def test_layout_and_count_pairs_equal_a_plain_loop(monkeypatch, block):
    """Positions counted a block at a time give the counts, the positions (in order) and the
    pairs' order of first occurrence of one pass, whatever the block's size."""
    from collections import Counter

    from bpe_ref import trainer

    weights = Counter(RegexTokenizer().split(medium_text()[:3000]))
    weights.update({"": 2, "é😀": 2**31})  # an empty chunk (no byte, no pair), a weight past 32 bits
    arrays, want_count, want_where = plain_layout_and_pairs(weights)
    got = trainer.layout(weights)
    assert [list(a) for a in got] == list(arrays) and got[3].typecode == "q"
    monkeypatch.setattr(trainer, "COUNT_BLOCK", block)
    count, where = trainer.count_pairs(got[0], got[1], got[3])
    assert list(count.items()) == list(want_count.items())
    assert {pair: list(positions) for pair, positions in where.items()} == want_where
    assert list(where) == list(want_where)
