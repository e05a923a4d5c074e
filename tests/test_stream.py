"""bpe_ref.stream: a text cut anywhere into pieces splits exactly like the whole text."""

import doctest
import re

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_ref import stream
from bpe_ref.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, O200K_SPLIT_PATTERN
from bpe_ref.stream import (
    can_cut,
    find_cut,
    iter_chunks,
    iter_parts,
    rfind_cut,
    split_at_cuts,
)

PATTERNS = {"gpt2": GPT2_SPLIT_PATTERN, "cl100k": GPT4_SPLIT_PATTERN, "o200k": O200K_SPLIT_PATTERN}
# the second has a safe cut inside it ('m| 1'); the third starts with the second
SPECIALS = ["<|endoftext|>", "<|fim 1|>", "<|fim 1|><|x|>"]

# letters of many scripts, marks, digits, apostrophes, every kind of whitespace, CRLF,
# and the pieces special tokens are made of
ALPHABET = list("aZé\u0301'’sStTlLvVdDmM 0129١٢\t\r\n\r\n  \u00a0\u3000\u2028.,!?<|>_-/\\"
                "한국어中文ひカاَلעבदेवนา😀👍🏽\u200d🇯🇵𝐌Ｆ") + ["<|endoftext|>", "<|fim 1|>", "<|x|>", "<|fim", "\r\n"]
texts = st.lists(st.sampled_from(ALPHABET), max_size=80).map("".join)


def reference_chunks(text, pattern, specials=()):
    """The chunks of the whole text at once: cut at the specials, then findall each stretch."""
    if not specials:
        stretches = [text]
    else:
        alternatives = "|".join(re.escape(t) for t in sorted(specials, key=len, reverse=True))
        stretches = re.split(f"({alternatives})", text)
    chunks = []
    for i, stretch in enumerate(stretches):
        if i % 2 == 1:
            chunks.append(stretch)  # a special token
        elif stretch:
            chunks.extend(regex.findall(pattern, stretch) if pattern else [stretch])
    return chunks


def cut_into_pieces(text, positions):
    """text cut at the given positions (any order, repeats allowed), pieces in order."""
    bounds = sorted({0, len(text), *(p % (len(text) + 1) for p in positions)})
    return [text[a:b] for a, b in zip(bounds, bounds[1:])]


# ------------------------------------------------------------------ safe cuts


@settings(max_examples=600)
@given(texts)
def test_every_safe_cut_splits_like_the_whole(text):
    cuts = [m.start() for m in stream._cut_regex().finditer(text)]
    for name, pattern in PATTERNS.items():
        whole = regex.findall(pattern, text)
        for i in cuts:
            parts = regex.findall(pattern, text[:i]) + regex.findall(pattern, text[i:])
            assert parts == whole, f"{name}: cutting {text!r} at {i} changes its chunks"


def test_safe_cut_examples():
    assert find_cut("Hello world") == 5
    assert find_cut("abc123") == 3
    assert find_cut("end.\nNext") == 5
    assert find_cut("end.  \nNext") == -1  # the newline follows other whitespace
    assert find_cut("a, b") == -1  # punctuation may take the following newlines along
    assert find_cut("", 0) == -1 and find_cut(" x") == -1
    assert rfind_cut("one two three") == 7
    assert rfind_cut("one two three", 0, 7) == 3  # the cut must have its next character
    assert rfind_cut("one two three", 4) == 7
    assert rfind_cut("one two three", 8) == -1


def test_a_stretch_that_starts_with_a_newline_after_a_special_token():
    for pieces in (["<|x|>\nabc d"], ["<|x|>", "\n", "abc d"], ["<|x|>\n", "abc d"]):
        for name, pattern in PATTERNS.items():
            got = list(iter_chunks(pieces, pattern, ["<|x|>"], part_size=1))
            assert got == reference_chunks("".join(pieces), pattern, ["<|x|>"]), name


@pytest.mark.parametrize("size", [1, 3, 10, 100])
def test_split_at_cuts_joins_back_and_keeps_the_size(size):
    text = "The cat sat on 12 mats.\nNext line, with words: 345 and more words here " * 3
    parts = list(split_at_cuts(text, size))
    assert "".join(parts) == text
    assert all(len(p) >= size for p in parts[:-1])
    for name, pattern in PATTERNS.items():
        chunks = [c for p in parts for c in regex.findall(pattern, p)]
        assert chunks == regex.findall(pattern, text), name


def test_can_cut_only_the_known_patterns():
    assert all(can_cut(p) for p in PATTERNS.values())
    assert not can_cut(None)
    assert not can_cut(r"\w+|\s+")


# ------------------------------------------------------------------ streaming


@settings(max_examples=600)
@given(texts, st.lists(st.integers(min_value=0, max_value=200), max_size=8), st.sampled_from(list(PATTERNS)),
       st.booleans())
def test_iter_chunks_on_pieces_equals_the_whole_text(text, positions, name, with_specials):
    specials = SPECIALS if with_specials else []
    pieces = cut_into_pieces(text, positions)
    got = list(iter_chunks(pieces, PATTERNS[name], specials, part_size=1))
    assert got == reference_chunks(text, PATTERNS[name], specials), f"{name}: {pieces!r}"


@settings(max_examples=300)
@given(texts, st.lists(st.integers(min_value=0, max_value=200), max_size=8), st.sampled_from(list(PATTERNS)),
       st.integers(min_value=1, max_value=12), st.booleans())
def test_iter_parts_with_any_part_size(text, positions, name, part_size, with_specials):
    specials = SPECIALS if with_specials else []
    parts = list(iter_parts(cut_into_pieces(text, positions), PATTERNS[name], specials, part_size))
    assert "".join(parts) == text
    assert all(parts), "no part is empty"
    chunks = []
    for part in parts:
        chunks.extend([part] if part in specials else regex.findall(PATTERNS[name], part))
    assert chunks == reference_chunks(text, PATTERNS[name], specials)


@settings(max_examples=200)
@given(texts, st.lists(st.integers(min_value=0, max_value=200), max_size=8), st.booleans())
def test_no_pattern_and_unknown_patterns_cut_only_at_specials(text, positions, with_specials):
    specials = SPECIALS if with_specials else []
    pieces = cut_into_pieces(text, positions)
    assert list(iter_chunks(pieces, None, specials, 1)) == reference_chunks(text, None, specials)
    other = r"\w+|\s+|[^\w\s]+"
    assert list(iter_chunks(pieces, other, specials, 1)) == reference_chunks(text, other, specials)


def test_special_token_split_over_three_pieces():
    pieces = ["Hello <|end", "oft", "ext|> world"]
    assert list(iter_chunks(pieces, GPT4_SPLIT_PATTERN, ["<|endoftext|>"], part_size=1)) == [
        "Hello", " ", "<|endoftext|>", " world"]


def test_the_longer_special_token_wins_across_pieces():
    pieces = ["a<|fim 1|>", "<|x|>b"]
    assert list(iter_chunks(pieces, GPT2_SPLIT_PATTERN, SPECIALS, 1)) == ["a", "<|fim 1|><|x|>", "b"]
    assert list(iter_chunks(["a<|fim 1|>", "<|y|>b"], GPT2_SPLIT_PATTERN, SPECIALS, 1)) == [
        "a", "<|fim 1|>", "<|", "y", "|>", "b"]
    # all but the last character of the longer token has arrived
    pieces = ["a<|fim 1|><|x|", ">b"]
    assert list(iter_chunks(pieces, GPT2_SPLIT_PATTERN, SPECIALS, 1)) == ["a", "<|fim 1|><|x|>", "b"]


def test_crlf_and_spaces_split_over_pieces():
    text = "one  \r\n\r\n  two   \n"
    for i in range(len(text) + 1):
        for name, pattern in PATTERNS.items():
            got = list(iter_chunks([text[:i], text[i:]], pattern, part_size=1))
            assert got == regex.findall(pattern, text), f"{name}, cut at {i}"


def test_memory_is_bounded_by_the_stretch_between_cuts():
    # a long stream of short lines: the text held back never grows past a few lines
    splitter = stream._PartSplitter(GPT4_SPLIT_PATTERN, None, part_size=1)
    for _ in range(1000):
        list(splitter.feed("some words on a line\n", final=False))
        assert len(splitter.rest) < 50


def test_a_str_is_one_piece_and_big_parts_are_cut():
    text = "word " * 100_000
    parts = list(iter_parts(text, GPT4_SPLIT_PATTERN))
    assert "".join(parts) == text and len(parts) > 3


def test_bad_pieces_and_arguments_raise_clearly():
    with pytest.raises(TypeError, match="decode bytes first"):
        list(iter_chunks([b"bytes"], GPT4_SPLIT_PATTERN))
    with pytest.raises(TypeError, match="decode it first"):
        list(iter_chunks(b"bytes", GPT4_SPLIT_PATTERN))
    with pytest.raises(ValueError, match="non-empty str"):
        list(iter_chunks(["x"], GPT4_SPLIT_PATTERN, [""]))
    with pytest.raises(ValueError, match="part_size"):
        list(iter_parts(["x"], GPT4_SPLIT_PATTERN, part_size=0))


def test_docstring_examples():
    failures, tried = doctest.testmod(stream)
    assert tried > 0 and failures == 0
