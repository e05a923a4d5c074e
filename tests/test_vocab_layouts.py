"""Vocabularies laid out by others (from_vocab), the .model formats, minbpe's calling conventions."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_ref import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, BasicTokenizer, RegexTokenizer

TEXT = "Hello, world! 안녕하세요 세계. مرحبا بالعالم. Hello again, world!! 1234 5678 aaaa abab"
SPECIALS = {"<|endoftext|>": 1000, "<|user|>": 1001}


def trained(vocab_size=320):
    tok = RegexTokenizer()
    tok.train(TEXT, vocab_size)
    return tok


def as_bytes_merges(tok):
    """The tokenizer's merges as (bytes, bytes) pairs, best first."""
    return [(tok.vocab[p0], tok.vocab[p1]) for p0, p1 in tok.merges]


def shuffled_vocab(tok, seed):
    """The same tokens under randomly permuted ids; also the map old id -> new id."""
    old_ids = list(tok.vocab)
    new_ids = random.Random(seed).sample(range(5000), len(old_ids))
    renumber = dict(zip(old_ids, new_ids))
    return {renumber[idx]: token for idx, token in tok.vocab.items()}, renumber


def bpe_by_bytes(data, merges):
    """Slow reference: merge the leftmost pair of byte strings with the best rank, until none."""
    rank = {pair: r for r, pair in enumerate(merges)}
    parts = [bytes([b]) for b in data]
    while True:
        ranked = [(rank[pair], i) for i, pair in enumerate(zip(parts, parts[1:])) if pair in rank]
        if not ranked:
            return parts
        _, i = min(ranked)
        parts[i:i + 2] = [parts[i] + parts[i + 1]]


# ------------------------------------------------------------------ from_vocab


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_from_vocab_any_id_layout_encodes_the_same_tokens(seed):
    tok = trained()
    vocab, renumber = shuffled_vocab(tok, seed)
    other = RegexTokenizer.from_vocab(vocab, as_bytes_merges(tok), pattern=GPT4_SPLIT_PATTERN)
    assert other._chunk_encoder().rank_ids is not None, "the shuffled ids should need ranks apart from ids"
    for text in [TEXT, "aaaaaaa", "abab abab", "새로운 텍스트", ""]:
        assert other.encode(text) == [renumber[i] for i in tok.encode(text)], text
        assert other.decode(other.encode(text)) == text
    assert other.vocab == vocab
    assert list(other.merges.values()) == [renumber[i] for i in tok.merges.values()]


def test_from_vocab_long_chunk_takes_the_heap_path_with_ranks():
    tok = trained()
    vocab, renumber = shuffled_vocab(tok, 5)
    other = RegexTokenizer.from_vocab(vocab, as_bytes_merges(tok), pattern=None)
    text = ("aaaa abab Hello " * 40).strip()
    basic = BasicTokenizer()
    basic._set_merges(tok.merges, list(range(256)))
    assert other.encode(text) == [renumber[i] for i in basic.encode(text)]


def test_from_vocab_two_merges_that_make_the_same_token():
    """Hugging Face allows it: 'abc' from ab+c and from a+bc; the best-ranked pair still wins."""
    vocab = {i: bytes([i]) for i in range(256)} | {300: b"ab", 301: b"bc", 302: b"abc", 303: b"abcabc"}
    merges = [(b"b", b"c"), (b"a", b"b"), (b"ab", b"c"), (b"a", b"bc"), (b"abc", b"abc")]
    tok = RegexTokenizer.from_vocab(vocab, merges, pattern=None)
    ids = {token: idx for idx, token in vocab.items()}
    assert tok.merges[(97, 301)] == tok.merges[(300, 99)] == 302
    for text in ["abc", "aabc", "abcabc", "ababc", "bcabc", "abcab"]:
        assert tok.encode(text) == [ids[part] for part in bpe_by_bytes(text.encode(), merges)], text


@settings(max_examples=100)
@given(st.lists(st.tuples(st.sampled_from([b"a", b"b", b"c", b"ab", b"bc", b"ca"]),
                          st.sampled_from([b"a", b"b", b"c", b"ab", b"bc"])), max_size=8, unique=True),
       st.text(alphabet="abc", max_size=30))
def test_from_vocab_equals_byte_level_bpe(pairs, text):
    """Random merge lists, kept only where each part exists already: the encoder is plain BPE by rank."""
    merges, known = [], {b"a", b"b", b"c"}
    for left, right in pairs:
        if left in known and right in known:
            merges.append((left, right))
            known.add(left + right)
    tokens = [bytes([i]) for i in range(256)] + sorted(known - {b"a", b"b", b"c"}, reverse=True)
    vocab = dict(enumerate(tokens))
    ids = {token: idx for idx, token in vocab.items()}
    if len({left + right for left, right in merges}) < len(merges):
        return  # two merges making one token: covered above
    tok = RegexTokenizer.from_vocab(vocab, merges, pattern=None)
    assert tok.encode(text) == [ids[part] for part in bpe_by_bytes(text.encode(), merges)]


def test_from_vocab_special_tokens_list_and_dict():
    tok = trained()
    vocab = dict(tok.vocab)
    vocab[700] = b"<|endoftext|>"
    listed = RegexTokenizer.from_vocab(vocab, as_bytes_merges(tok), pattern=GPT4_SPLIT_PATTERN,
                                       special_tokens=["<|endoftext|>", "<|new|>"])
    assert listed.special_tokens == {"<|endoftext|>": 700, "<|new|>": 701}
    assert listed.encode("a<|new|>b<|endoftext|>", allowed_special="all")[-1] == 700
    given_ids = RegexTokenizer.from_vocab(dict(tok.vocab), as_bytes_merges(tok), pattern=GPT4_SPLIT_PATTERN,
                                          special_tokens={"<|endoftext|>": 900})
    assert given_ids.encode("<|endoftext|>", "all") == [900]
    with pytest.raises(ValueError, match="has id 700 in the vocab"):
        RegexTokenizer.from_vocab(vocab, as_bytes_merges(tok), pattern=None, special_tokens={"<|endoftext|>": 9})


def test_from_vocab_keeps_unlisted_tokens_for_decoding(tmp_path):
    """GPT-2's encoder.json holds <|endoftext|>: without special_tokens it still decodes."""
    tok = trained()
    vocab = dict(tok.vocab) | {700: b"<|endoftext|>"}
    plain = RegexTokenizer.from_vocab(vocab, as_bytes_merges(tok), pattern=GPT4_SPLIT_PATTERN)
    assert plain.extra_tokens == {700: b"<|endoftext|>"} and plain.special_tokens == {}
    assert plain.decode([700]) == "<|endoftext|>"
    assert 700 not in plain.encode("<|endoftext|>")
    loaded = RegexTokenizer().load(plain.save(tmp_path / "extra"))
    assert loaded.extra_tokens == plain.extra_tokens and loaded.vocab == plain.vocab
    plain.register_special_tokens({"<|endoftext|>": 700})  # the extra token becomes special
    assert plain.encode("<|endoftext|>", "all") == [700] and plain.extra_tokens == {}


@pytest.mark.parametrize("vocab, merges, message", [
    ({i: bytes([i]) for i in range(255)}, [], "no token for byte 0xff"),
    ({i: bytes([i]) for i in range(256)}, [(b"a", b"b")], r"makes b'ab', which the vocab does not have"),
    ({i: bytes([i]) for i in range(256)} | {256: b"abc"}, [(b"ab", b"c")], "neither a byte nor made by an earlier"),
    ({i: bytes([i]) for i in range(256)} | {256: b"ab", 257: b"ab"}, [], "both stand for"),
    ({i: bytes([i]) for i in range(256)} | {256: b"ab"}, [(b"a", b"b"), (b"a", b"b")], "listed twice"),
])
def test_from_vocab_explains_what_does_not_fit(vocab, merges, message):
    with pytest.raises(ValueError, match=message):
        RegexTokenizer.from_vocab(vocab, merges, pattern=None)


@pytest.mark.parametrize("vocab, merges, message", [
    ({i: chr(i) for i in range(256)}, [], "must be bytes"),
    ({i: bytes([i]) for i in range(256)} | {256: b"ab"}, [("a", "b")], "pair of bytes"),
    ([b"a"], [], "must be a dict"),
])
def test_from_vocab_type_errors(vocab, merges, message):
    with pytest.raises(TypeError, match=message):
        RegexTokenizer.from_vocab(vocab, merges, pattern=None)


def test_from_vocab_pattern_is_keyword_only():
    tok = trained()
    with pytest.raises(TypeError):
        RegexTokenizer.from_vocab(tok.vocab, as_bytes_merges(tok), GPT2_SPLIT_PATTERN)


# ------------------------------------------------------------------ .model files


@pytest.mark.parametrize("seed", [0, 3])
def test_save_load_v2_keeps_any_layout(tmp_path, seed):
    tok = trained()
    vocab, renumber = shuffled_vocab(tok, seed)
    other = RegexTokenizer.from_vocab(vocab, as_bytes_merges(tok), pattern=GPT2_SPLIT_PATTERN,
                                      special_tokens={"<|endoftext|>": 6000})
    path = other.save(tmp_path / "layout")
    assert open(path, encoding="utf-8").readline() == "bpe-course tokenizer v2\n"
    loaded = RegexTokenizer().load(path)
    assert list(loaded.merges.items()) == list(other.merges.items())
    assert loaded.vocab == other.vocab and loaded.pattern == GPT2_SPLIT_PATTERN
    text = TEXT + "<|endoftext|>"
    assert loaded.encode(text, allowed_special="all") == other.encode(text, allowed_special="all")


def test_load_reads_version_1_files(tmp_path):
    """A v1 file, as bpe_ref wrote them before v2: merges ranked by the id they make."""
    v1 = tmp_path / "old.model"
    v1.write_text("\n".join([
        "bpe-course tokenizer v1", "kind RegexTokenizer", 'pattern null', "special_tokens 1",
        '"<|endoftext|>" 300', "byte_shuffle identity", "merges 3",
        "256 97 258", "97 97 256", "98 99 257",  # written out of order: the ids still rank them
    ]) + "\n", encoding="utf-8")
    tok = RegexTokenizer().load(v1)
    assert list(tok.merges.items()) == [((97, 97), 256), ((98, 99), 257), ((256, 97), 258)]
    assert tok.encode("aaabc<|endoftext|>", "all") == [258, 257, 300]
    assert tok.pattern is None and tok.extra_tokens == {}


def write_minbpe_model(tok, path):
    """The file minbpe's Tokenizer.save writes (format 'minbpe v1'), written here by hand."""
    lines = ["minbpe v1", tok.pattern or "", str(len(tok.special_tokens))]
    lines += [f"{token} {idx}" for token, idx in tok.special_tokens.items()]
    lines += [f"{p0} {p1}" for p0, p1 in tok.merges]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("cls", [BasicTokenizer, RegexTokenizer])
def test_load_reads_minbpe_models(tmp_path, cls):
    tok = cls()
    tok.train(TEXT, 300)
    tok.register_special_tokens(SPECIALS)
    write_minbpe_model(tok, tmp_path / "minbpe.model")
    loaded = cls().load(tmp_path / "minbpe.model")
    assert loaded.merges == tok.merges and loaded.special_tokens == SPECIALS
    assert loaded.pattern == tok.pattern
    text = TEXT + "<|user|>"
    assert loaded.encode(text, "all") == tok.encode(text, "all")


# ------------------------------------------------------------------ allowed_special, both conventions


@pytest.fixture
def special_tok():
    tok = trained()
    tok.register_special_tokens(SPECIALS)
    return tok


def test_minbpe_positional_allowed_special(special_tok):
    tok, text = special_tok, "hi<|endoftext|>there<|user|>"
    assert tok.encode(text, "all") == tok.encode(text, allowed_special="all")
    assert tok.encode(text, "all")[-1] == 1001
    assert tok.encode(text, "none") == tok.encode_ordinary(text)
    with pytest.raises(ValueError, match="allowed_special"):
        tok.encode(text, "none_raise")
    assert tok.encode("no specials here", "none_raise") == tok.encode_ordinary("no specials here")
    assert tok.encode(text, {"<|user|>"}, disallowed_special=())[-1] == 1001


def test_a_set_follows_tiktoken_other_specials_raise(special_tok):
    with pytest.raises(ValueError, match="<\\|endoftext\\|>"):
        special_tok.encode("hi<|endoftext|>there<|user|>", {"<|user|>"})


@pytest.mark.parametrize("allowed, error, message", [
    ("al", ValueError, "'all', 'none', 'none_raise'"),
    ("<|endoftext|>", ValueError, "not understood"),
    (42, TypeError, "collection of special tokens"),
    ({b"<|endoftext|>"}, TypeError, "given as str"),
])
def test_allowed_special_values_that_are_not_understood(special_tok, allowed, error, message):
    with pytest.raises(error, match=message):
        special_tok.encode("x", allowed)


def test_disallowed_special_string_and_text_type(special_tok):
    with pytest.raises(ValueError, match="disallowed_special='none'"):
        special_tok.encode("x", disallowed_special="none")
    with pytest.raises(TypeError, match="decode bytes first"):
        special_tok.encode(b"x")
    with pytest.raises(TypeError, match="takes a str"):
        special_tok.encode_ordinary(None)
