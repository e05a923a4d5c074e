"""Word-level tokenization (workbook 03a): the rules of WORD_PATTERN, the engines' differences the
workbook shows, NLTK agreeing with regex, and texts large enough for its curves."""

import doctest
import re

import nltk
import pytest
import regex
from hypothesis import given, settings

from bpe_ref import words
from bpe_ref.grade.judge.exercises.w03a_word_tokenization import TEXTS


@pytest.mark.parametrize("text, tokens", [
    ("", []),
    ("That U.S.A. poster-print costs $12.40... or 34.3%!", [
        "That", "U.S.A.", "poster-print", "costs", "$12.40", "...", "or", "34.3%", "!"]),
    ("النَّبي", ["النَّبي"]),  # vowel marks stay with their word
    ("عـربـي", ["عـربـي"]),  # so does the tatweel, U+0640
    ("٣٤.٥% $١٢.٤٠ ١٢٣", ["٣٤.٥%", "$١٢.٤٠", "١٢٣"]),  # Arabic-Indic digits make numbers
    ("نعم، لا؛ لماذا؟", ["نعم", "،", "لا", "؛", "لماذا", "؟"]),  # U+060C, U+061B, U+061F
    ("👍🏽 🇺🇳 👩‍💻!", ["👍🏽", "🇺🇳", "👩‍💻", "!"]),  # one grapheme, one token
    ("well- done -- ok", ["well", "-", "done", "-", "-", "ok"]),
])
def test_the_rules_of_the_task(text, tokens):
    assert words.word_tokenize(text) == tokens


@settings(max_examples=150)
@given(TEXTS)
def test_nltk_with_the_pattern_is_regex_findall(text):
    """NLTK 3.10 compiles with regex: a learner may hand their own pattern to regexp_tokenize."""
    assert nltk.regexp_tokenize(text, words.WORD_PATTERN) == words.word_tokenize(text)
    assert "".join(words.word_tokenize(text)) == "".join(text.split())  # only spaces are dropped


def test_one_classic_pattern_three_answers():
    """re splits Arabic at its marks (workbook 03a shows it) and refuses a space before (?x);
    regex and NLTK keep the words whole, and read that space literally."""
    assert re.findall(words.CLASSIC_PATTERN, "النَّبي") == ["الن", "بي"]
    assert regex.findall(words.CLASSIC_PATTERN, "النَّبي") == ["النَّبي"]
    assert nltk.regexp_tokenize("النَّبي", words.CLASSIC_PATTERN) == ["النَّبي"]
    spaced = " " + words.CLASSIC_PATTERN
    with pytest.raises(re.error, match="global flags not at the start"):
        re.compile(spaced)
    assert nltk.regexp_tokenize("[U.S.A.]", spaced) == ["[", "U", ".", "S", ".", "A", ".", "]"]
    assert nltk.regexp_tokenize("34.3%!", words.CLASSIC_PATTERN) == ["34", ".", "3"]


def test_the_texts_hold_20000_words_per_language_split_once():
    for language in ("en", "ar"):
        whole = words.messages_text(language).splitlines()
        main, held_out = (words.messages_text(language, part).splitlines() for part in ("main", "held_out"))
        assert sum(len(line.split()) for line in whole) >= 20_000, language
        assert sorted(main + held_out) == sorted(whole) and 0.15 < len(held_out) / len(whole) < 0.25
    assert all(regex.search(r"\p{Arabic}", arabic) for _, arabic in words.parallel_messages())


def test_bad_arguments_say_what_to_pass():
    with pytest.raises(ValueError, match="'en' or 'ar'"):
        words.messages_text("fr")
    with pytest.raises(ValueError, match="'all', 'main' or 'held_out'"):
        words.messages_text("en", "test")


def test_examples_in_the_docstrings():
    assert doctest.testmod(words).failed == 0
