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
