"""Export: to_tiktoken and a Hugging Face tokenizer.json encode exactly as the tokenizer does."""

import functools
from pathlib import Path

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer as HFTokenizer

from bpe_ref import (
    GPT2_SPLIT_PATTERN,
    GPT4_SPLIT_PATTERN,
    O200K_SPLIT_PATTERN,
    BasicTokenizer,
    RegexTokenizer,
    from_tiktoken,
    get_encoding,
)
from bpe_ref.export import oniguruma_pattern, to_huggingface

MULTILINGUAL = Path(__file__).parent / "data" / "multilingual.txt"
SPECIALS = {"<|endoftext|>": 2000, "<|im_start|>": 2001, "<|a b|>": 2002}
PATTERNS = {"gpt2": GPT2_SPLIT_PATTERN, "gpt4": GPT4_SPLIT_PATTERN, "o200k": O200K_SPLIT_PATTERN, "none": None}
TRICKY = list("aZ éÉ\u0301'’sStTlLvV 0123456789١٢\t\r\n  \u00a0\u3000.,!?<|>_-/\\"
              "한국어中文ひカاَلعربيةשָׁदेवนาไ😀👍🏽\u200d🇯🇵𝐌Ｆ") + ["<|endoftext|>", "<|a b|>", "'s", "'LL"]
texts = st.lists(st.sampled_from(TRICKY), max_size=40).map("".join) | st.text(max_size=20)


def corpus_text():
    with open(MULTILINGUAL, encoding="utf-8", newline="") as f:
        return f.read()


@functools.lru_cache(maxsize=None)
def trained(pattern_name, with_specials):
    """A tokenizer trained on the multilingual text; the pattern decides the class."""
    pattern = PATTERNS[pattern_name]
    tok = BasicTokenizer() if pattern is None else RegexTokenizer(pattern)
    tok.train(corpus_text() if pattern else corpus_text()[:4000], 700)
    if with_specials:
        tok.register_special_tokens(SPECIALS)
    return tok


@functools.lru_cache(maxsize=None)
def exported(pattern_name, with_specials):
    tok = trained(pattern_name, with_specials)
    return tok, tok.to_tiktoken(f"mine-{pattern_name}"), to_huggingface(tok)


CASES = [(p, s) for p in PATTERNS for s in (False, True)]


# ------------------------------------------------------------------ tiktoken


@pytest.mark.parametrize("pattern_name, with_specials", CASES)
def test_to_tiktoken_encodes_the_corpus_identically(pattern_name, with_specials):
    tok, enc, _ = exported(pattern_name, with_specials)
    text = corpus_text()
    assert isinstance(enc, tiktoken.Encoding) and enc.name == f"mine-{pattern_name}"
    assert enc.encode_ordinary(text) == tok.encode_ordinary(text)
    assert enc.encode(text, allowed_special="all") == tok.encode(text, allowed_special="all")
    ids = tok.encode(text, allowed_special="all")
    assert enc.decode(ids) == tok.decode(ids)
    assert enc.n_vocab == max(tok.vocab) + 1
    assert enc.special_tokens_set == set(tok.special_tokens)


@settings(max_examples=60)
@given(texts)
def test_to_tiktoken_hypothesis(text):
    for pattern_name, with_specials in CASES:
        tok, enc, _ = exported(pattern_name, with_specials)
        assert enc.encode(text, allowed_special="all", disallowed_special=()) == tok.encode(
            text, allowed_special="all", disallowed_special=()), (pattern_name, text)


def test_to_tiktoken_of_a_tiktoken_encoding_is_itself():
    tok = from_tiktoken("cl100k_base")
    enc, real = tok.to_tiktoken("again"), get_encoding("cl100k_base")
    text = corpus_text()
    assert enc.encode(text, allowed_special="all") == real.encode(text, allowed_special="all")


def test_to_tiktoken_refuses_what_tiktoken_cannot_mean():
    vocab = {i: bytes([i]) for i in range(256)} | {256: b"ab", 257: b"bc", 258: b"abc"}
    # 'abc' made as a+bc while tiktoken, ranking by bytes, would reach ab+c first
    tok = RegexTokenizer.from_vocab(vocab, [(b"a", b"b"), (b"b", b"c"), (b"a", b"bc")], pattern=None)
    with pytest.raises(ValueError, match="not the ones tiktoken would reach"):
        tok.to_tiktoken("odd")
    extra = RegexTokenizer.from_vocab(vocab | {300: b"<|x|>"}, [(b"a", b"b")], pattern=None)
    with pytest.raises(ValueError, match="register them with register_special_tokens"):
        extra.to_tiktoken("extra")


# ------------------------------------------------------------------ Hugging Face


@pytest.mark.parametrize("pattern_name, with_specials", CASES)
def test_tokenizer_json_encodes_the_corpus_identically(tmp_path, pattern_name, with_specials):
    tok = trained(pattern_name, with_specials)
    path = tok.save_huggingface(tmp_path / "tokenizer.json")
    hf = HFTokenizer.from_file(path)
    text = corpus_text()
    for line in text.splitlines(keepends=True):
        assert hf.encode(line).ids == tok.encode(line, allowed_special="all"), f"differs on {line!r}"
    ids = tok.encode(text, allowed_special="all")
    assert hf.encode(text).ids == ids
    assert hf.decode(ids, skip_special_tokens=False) == text
    for token, idx in tok.special_tokens.items():
        assert hf.token_to_id(token) == idx


@settings(max_examples=60)
@given(texts)
def test_tokenizer_json_hypothesis(text):
    for pattern_name, with_specials in CASES:
        tok, _, hf = exported(pattern_name, with_specials)
        expected = tok.encode(text, allowed_special="all", disallowed_special=())
        assert hf.encode(text).ids == expected, (pattern_name, with_specials, text)


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "o200k_base"])
def test_tokenizer_json_of_tiktokens_encodings(tmp_path, name):
    tok = from_tiktoken(name)
    hf = HFTokenizer.from_file(tok.save_huggingface(tmp_path / "tokenizer.json"))
    text = corpus_text()
    assert hf.encode(text).ids == get_encoding(name).encode(text, allowed_special="all")


def test_possessive_intervals_become_atomic_groups():
    assert oniguruma_pattern(r"\p{N}{1,3}+|\s+") == r"(?>\p{N}{1,3})|\s+"
    assert oniguruma_pattern(GPT4_SPLIT_PATTERN) == GPT4_SPLIT_PATTERN.replace(r"\p{N}{1,3}+", r"(?>\p{N}{1,3})")
    assert oniguruma_pattern(O200K_SPLIT_PATTERN) == O200K_SPLIT_PATTERN  # no possessive interval
    assert oniguruma_pattern(r"(?:x[{]{2}+)|[\]a]{1,}+\{2}") == r"(?:x(?>[{]{2}))|(?>[\]a]{1,})\{2}"
