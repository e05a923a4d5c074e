"""The naive reference functions: exact behaviour on small, hand-checked cases."""

import functools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_ref import build_vocab, decode, encode, get_stats, merge, train, utf8_encode
from bpe_ref import from_hex, from_u_plus, to_hex, u_plus
from bpe_ref import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, O200K_SPLIT_PATTERN, RegexTokenizer
from bpe_ref.naive import encode_ordinary


def test_get_stats_counts_every_pair_in_first_occurrence_order():
    stats = get_stats([1, 2, 3, 1, 2])
    assert stats == {(1, 2): 2, (2, 3): 1, (3, 1): 1}
    assert list(stats) == [(1, 2), (2, 3), (3, 1)]
    assert get_stats([7]) == {} and get_stats([]) == {}


def test_merge_is_left_to_right_without_overlap_and_leaves_input_alone():
    ids = [5, 5, 5, 5, 5]
    assert merge(ids, (5, 5), 256) == [256, 256, 5]
    assert ids == [5, 5, 5, 5, 5]
    assert merge([1, 2, 3], (3, 4), 300) == [1, 2, 3]
    assert merge([1, 2], (1, 2), 256) == [256]


def test_train_on_the_wikipedia_example():
    merges = train("aaabdaaabac", 259)
    # aa (4 overlapping occurrences) first; then (aa, a) and (a, b) tie at 2 and the one
    # that occurs first wins; then (aaa, b).
    assert merges == {(97, 97): 256, (256, 97): 257, (257, 98): 258}
    assert encode("aaabdaaabac", merges) == [258, 100, 258, 97, 99]


def test_train_tie_break_is_first_occurrence():
    # every pair occurs once: the first pair of the text wins, then the first of what is left
    assert list(train("abcd", 258)) == [(97, 98), (256, 99)]
    assert list(train("dcba", 257)) == [(100, 99)]


def test_train_stops_only_when_no_pair_is_left():
    assert train("", 300) == {}
    assert train("a", 300) == {}
    merges = train("ab", 300)
    assert merges == {(97, 98): 256}
    assert len(train("hello world, hello again", 270)) == 14


def test_train_rejects_a_vocab_smaller_than_the_bytes():
    with pytest.raises(ValueError, match="at least 256"):
        train("hello", 255)
    with pytest.raises(TypeError, match="must be an int"):
        train("hello", 300.0)


def test_build_vocab_and_decode():
    merges = train("aaabdaaabac", 259)
    vocab = build_vocab(merges)
    assert vocab[258] == b"aaab" and len(vocab) == 259
    assert decode([258, 100], vocab) == "aaabd"


def test_decode_replaces_invalid_utf8():
    vocab = build_vocab({})
    assert decode([0x80], vocab) == "\ufffd"
    assert decode([0xE2, 0x82], vocab) == "\ufffd"  # a 3-byte character cut short


def test_decode_unknown_id_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown token id 999"):
        decode([104, 999], build_vocab({}))


def test_encode_edge_cases():
    merges = train("hello hello", 260)
    assert encode("", merges) == []
    assert encode("h", merges) == [104]
    assert encode("é", {}) == [0xC3, 0xA9]


def test_encode_applies_lowest_rank_first():
    # (b, c) was learned before (a, b): 'abc' must become a + bc, not ab + c
    merges = {(98, 99): 256, (97, 98): 257}
    assert encode("abc", merges) == [97, 256]


def test_encode_ordinary_never_merges_across_chunks():
    merges = {(97, 32): 256}  # "a " was learned without a split; GPT-4's split puts " " with "b"
    assert encode("a b", merges) == [256, 98]
    assert encode_ordinary("a b", merges, GPT4_SPLIT_PATTERN) == [97, 32, 98]
    assert encode_ordinary("", merges, GPT4_SPLIT_PATTERN) == []


@functools.lru_cache(maxsize=None)
def trained_on_a_small_text(pattern):
    """One tokenizer per pattern, trained once and shared by every hypothesis example."""
    tok = RegexTokenizer(pattern)
    tok.train("aab ab, é'é 1234 한한 😀😀 a.b\n\n" * 3, 256 + 30)
    return tok


@pytest.mark.parametrize("pattern", [GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, O200K_SPLIT_PATTERN])
@given(text=st.text(alphabet="ab é😀'1\n.한", max_size=40))
def test_encode_ordinary_equals_the_regex_tokenizer(pattern, text):
    tok = trained_on_a_small_text(pattern)
    assert encode_ordinary(text, tok.merges, pattern) == tok.encode_ordinary(text)


@given(st.text(max_size=60))
def test_utf8_encode_matches_python(text):
    text = text.encode("utf-8", "replace").decode("utf-8")  # no lone surrogates
    assert utf8_encode(text) == text.encode("utf-8")


@pytest.mark.parametrize("cp", [0, 0x7F, 0x80, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x10FFFF])
def test_utf8_encode_at_the_length_boundaries(cp):
    assert utf8_encode(chr(cp)) == chr(cp).encode("utf-8")


def test_utf8_encode_refuses_surrogates_like_python():
    with pytest.raises(UnicodeEncodeError):
        utf8_encode("a\ud800")


@given(st.text(alphabet="abcé😀 ", max_size=40), st.integers(256, 290))
def test_round_trip(text, vocab_size):
    merges = train(text, vocab_size)
    assert decode(encode(text, merges), build_vocab(merges)) == text
    assert list(merges.values()) == list(range(256, 256 + len(merges)))


@given(st.integers(0, 2**40))
def test_hex_round_trip(n):
    assert to_hex(n) == format(n, "x")
    assert from_hex(to_hex(n)) == n and from_hex(hex(n).upper().replace("X", "x")) == n


def test_hex_errors():
    with pytest.raises(ValueError, match="not a hex digit"):
        from_hex("0xfg")
    with pytest.raises(ValueError, match="non-negative"):
        to_hex(-1)


def test_u_plus():
    assert u_plus("é") == "U+00E9" and u_plus("😀") == "U+1F600" and u_plus("A") == "U+0041"
    assert from_u_plus("U+1F600") == "😀" and from_u_plus("u+e9") == "é"
    with pytest.raises(ValueError, match="exactly one character"):
        u_plus("ab")
