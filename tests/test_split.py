"""bpe_ref.unicode_classes: the three ways TiktokenSplit splits give the chunks of the exact pattern."""

import random

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_ref.patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, O200K_SPLIT_PATTERN
from bpe_ref.unicode_classes import ascii_pattern, exact_pattern, split_regex

PATTERNS = {"gpt2": GPT2_SPLIT_PATTERN, "cl100k": GPT4_SPLIT_PATTERN, "o200k": O200K_SPLIT_PATTERN}
ASCII_BITS = list("aZsStTdDmMlLvVrReE'’09 \t\r\n\x0b\x0c\x1c\x1f.,!?/_-") + ["'s", "'LL", "  ", "\r\n", "12345"]


@pytest.fixture(scope="module")
def exact():
    return {name: regex.compile(exact_pattern(pattern)) for name, pattern in PATTERNS.items()}


@pytest.mark.parametrize("name", PATTERNS)
def test_the_three_patterns_get_the_ascii_path(name):
    assert split_regex(PATTERNS[name]).ascii is not None


@settings(max_examples=300)
@given(st.lists(st.sampled_from(ASCII_BITS + [chr(c) for c in range(128)]), max_size=60).map("".join))
def test_ascii_text_splits_as_the_pattern_does(text):
    for pattern in PATTERNS.values():
        assert split_regex(pattern).findall(text) == regex.findall(pattern, text), f"{pattern[:20]} on {text!r}"


@pytest.mark.parametrize("name", PATTERNS)
def test_stand_ins_split_as_the_exact_pattern(name, exact, corpus):
    """Text holding code points on which `regex`'s tables and Unicode 16 disagree, in every context."""
    split = split_regex(PATTERNS[name])
    disagree = sorted(split.disagree)
    assert len(disagree) > 1000 and split.stand_ins is not None
    rng = random.Random(name)
    for _ in range(200):
        start = rng.randrange(len(corpus) - 80)
        chars = list(corpus[start:start + 80])
        for _ in range(rng.randint(1, 6)):
            chars.insert(rng.randrange(len(chars) + 1), rng.choice(disagree + ["'s", "a", "1", " ", "\n", "A'"]))
        text = "".join(chars)
        assert split.findall(text) == exact[name].findall(text), f"{name} on {text!r}"


def test_a_pattern_that_skips_characters_still_cuts_right():
    """Chunks with gaps between them (a pattern not covering the text) come from finditer."""
    split = split_regex(r"\p{L}+")
    text = "ab \U000323B0 cd\u0558e"
    assert split.findall(text) == ["ab", "cd", "e"]  # U+0558 and U+323B0 are letters from Unicode 17 on


def test_patterns_re_reads_otherwise_keep_regex():
    assert split_regex(r"[[:alpha:]]+").ascii is None  # a POSIX class to `regex`, a plain set to `re`
    assert split_regex(r"\p{L}+").ascii is not None
    assert ascii_pattern(r"\p{Lt}|\P{L}") == r"[^\x00-\U0010ffff]|[\U00000000-\U00000040\U0000005b-\U00000060\U0000007b-\U0010ffff]"


@pytest.mark.parametrize("name", PATTERNS)
def test_the_three_patterns_get_the_re_path_for_other_text(name):
    assert split_regex(PATTERNS[name]).bmp is not None


UNICODE_BITS = ASCII_BITS + list(
    "éÉßſKİǅ\u0301\u0308\u20dd٣Ⅻ²½ñЖжΩωאשعرب한국中文ไทยन\u093f\u00a0\u2003\u3000\u2028\x85\u200d—«»¿"
    "\U0001d400\U0001d41a\U0001d7ce\U00020000\U0001e900\U0001d165\U000e0100\U0001f600\U0001f1eb\U00011f04\U0003f633"
)


@settings(max_examples=400)
@given(st.lists(st.sampled_from(UNICODE_BITS), max_size=40).map("".join))
def test_other_text_splits_as_the_exact_pattern(text):
    """The `re` path (classes below U+10000, astral letters, digits and marks stood in for)
    cuts where Unicode 16.0.0's tables say: 𝐀 and 𠀀 are letters, 𝟎 a digit, U+1D165 a mark,
    emoji and U+3F633 (a letter only from Unicode 17 on) are none of them."""
    for pattern in PATTERNS.values():
        expected = regex.findall(exact_pattern(pattern), text)
        assert split_regex(pattern).findall(text) == expected, f"{pattern[:20]} on {text!r}"


def test_re_path_reads_white_space_as_tiktoken_does():
    """To `re`, U+001C..U+001F are whitespace; to tiktoken's Rust regex (and `regex`) they are not."""
    split = split_regex(GPT4_SPLIT_PATTERN)
    assert split.findall("é\x1c\x1fb  c") == regex.findall(GPT4_SPLIT_PATTERN, "é\x1c\x1fb  c")
    assert split.findall("é\x1c\x1fb  c") == ["é", "\x1c\x1f", "b", " ", " c"]  # re's own \s: "\x1c", "\x1fb"


def test_patterns_with_escapes_re_reads_otherwise_keep_regex():
    assert split_regex(r"\w+|\s").bmp is None  # \w is not rewritten, and differs between the two
    assert split_regex(r"\p{L}+|\d+").bmp is None
    assert split_regex(r"\p{L}+|[0-9]+").bmp is not None
    assert split_regex(r"\w+|\s").findall("é1 x") == regex.findall(r"\w+|\s", "é1 x")
