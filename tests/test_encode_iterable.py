"""Tokenizer.encode_iterable: a text in pieces encodes exactly like the whole, in bounded memory."""

import functools
import itertools
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_ref import GPT2_SPLIT_PATTERN, BasicTokenizer, RegexTokenizer, from_tiktoken

NAMES = ["gpt2", "cl100k_base", "o200k_base"]
MULTILINGUAL = Path(__file__).parent / "data" / "multilingual.txt"
SPECIALS = {"<|endoftext|>": 1000, "<|fim 1|>": 1001, "<|fim 1|><|x|>": 1002}
ALPHABET = list("aZé\u0301'’sStTlL 0129١\t\r\n  \u00a0\u3000.,!?<|>_-한국中ひاَעदे😀👍🏽\u200d") + [
    "<|endoftext|>", "<|fim 1|>", "<|x|>", "<|fim", "text|>", "\r\n", " the", "'s"]
texts = st.lists(st.sampled_from(ALPHABET), max_size=60).map("".join)
cuts = st.lists(st.integers(0, 400), max_size=8)


@functools.lru_cache(maxsize=None)
def tokenizer(name):
    if name in NAMES:
        return from_tiktoken(name)
    tok = BasicTokenizer() if name == "basic" else RegexTokenizer(GPT2_SPLIT_PATTERN)
    with open(MULTILINGUAL, encoding="utf-8") as f:
        tok.train(f.read()[:3000], 330)
    tok.register_special_tokens(SPECIALS)
    return tok


def cut_into_pieces(text, positions):
    bounds = sorted({0, len(text), *(p % (len(text) + 1) for p in positions)})
    return [text[a:b] for a, b in zip(bounds, bounds[1:])]


def outcome(call):
    """What a call gives: its ids, or the kind of error it raised."""
    try:
        return list(call())
    except ValueError:
        return ValueError


@settings(max_examples=150)
@given(texts, cuts)
def test_pieces_encode_like_the_whole_text(text, positions):
    pieces = cut_into_pieces(text, positions)
    for name in [*NAMES, "basic", "trained"]:
        tok = tokenizer(name)
        for rules in [{"allowed_special": "all"}, {"disallowed_special": ()}, {},
                      {"allowed_special": {"<|fim 1|>"}, "disallowed_special": ()}]:
            expected = outcome(lambda: tok.encode(text, **rules))
            got = outcome(lambda: tok.encode_iterable(iter(pieces), **rules))
            assert got == expected, (name, rules, pieces)


def test_a_special_token_cut_in_two_still_counts():
    tok = tokenizer("cl100k_base")
    pieces = ["Hello <|endof", "text|> wor", "ld <|endofprompt", "|>"]
    ids = list(tok.encode_iterable(pieces, allowed_special="all"))
    assert ids == tok.encode("".join(pieces), allowed_special="all")
    assert ids.count(100257) == 1 and ids[-1] == 100276
    with pytest.raises(ValueError, match="<\\|endoftext\\|>"):
        list(tok.encode_iterable(pieces))
    with pytest.raises(ValueError, match="endofprompt"):
        list(tok.encode_iterable(pieces, allowed_special={"<|endoftext|>"}))


def test_a_file_streams_line_by_line(tmp_path):
    text = MULTILINGUAL.read_text(encoding="utf-8") * 3
    path = tmp_path / "big.txt"
    path.write_text(text, encoding="utf-8", newline="")
    tok = tokenizer("o200k_base")
    with open(path, encoding="utf-8", newline="") as f:
        assert list(tok.encode_iterable(f, allowed_special="all")) == tok.encode(text, allowed_special="all")


def test_ids_come_before_the_input_ends():
    """Streaming, not collecting: the first ids arrive while pieces are still to come."""
    tok = tokenizer("cl100k_base")
    consumed = []

    def lines():
        for i in itertools.count():
            consumed.append(i)
            yield f"line {i} of an endless text\n"

    first = next(iter(tok.encode_iterable(lines())))
    assert first == tok.encode("line")[0] and len(consumed) < 10_000


def streaming_peak(tok, lines, repeats):
    """Python's peak allocation (bytes) while streaming `lines` `repeats` times; the id count."""
    stream = (line for _ in range(repeats) for line in lines)
    tracemalloc.start()
    count = sum(1 for _ in tok.encode_iterable(stream, disallowed_special=()))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, count


def test_memory_is_bounded_by_the_longest_chunk_not_the_input():
    """1 MB and 6 MB of lines streamed: the peak stays the same, far below the input's size."""
    tok = tokenizer("cl100k_base")
    lines = MULTILINGUAL.read_text(encoding="utf-8").splitlines(keepends=True)
    size = sum(len(line.encode("utf-8")) for line in lines)
    for _ in tok.encode_iterable(lines * 2, disallowed_special=()):
        pass  # fill the chunk cache first: it is bounded by distinct chunks, not by the input
    small = 1_000_000 // size + 1
    peak_small, _ = streaming_peak(tok, lines, small)
    peak_large, count = streaming_peak(tok, lines, 6 * small)
    assert count == 6 * small * len(tok.encode_ordinary("".join(lines)))
    assert peak_large < 1.25 * peak_small + 100_000, (peak_small, peak_large)
    assert peak_large < 6 * small * size / 2, f"peak {peak_large / 1e6:.1f} MB for {6 * small * size / 1e6:.0f} MB"


def test_bad_pieces_say_what_to_do():
    tok = tokenizer("cl100k_base")
    with pytest.raises(TypeError, match="decode"):
        list(tok.encode_iterable(b"bytes"))
    with pytest.raises(TypeError, match="str pieces"):
        list(tok.encode_iterable([b"bytes"], disallowed_special=()))
    with pytest.raises(TypeError, match="str pieces"):
        list(tok.encode_iterable(["ok", 7]))
    with pytest.raises(TypeError):
        tok.encode_iterable(["x"], "all")  # keyword-only, as the contract says
