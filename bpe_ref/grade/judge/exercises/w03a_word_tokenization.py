"""Workbook 03a, word-level tokenization: `word_tokenize`, one regex for English and Arabic.

The rules the task pins (and WORD_PATTERN in bpe_ref/basics/words.py follows), in this order:
abbreviations `(?:[A-Z]\\.)+`; numbers `\\$?\\d+(?:\\.\\d+)?%?`, Arabic-Indic digits included;
words `\\w+(?:-\\w+)*`, where a word keeps its vowel and other combining marks and its tatweel
(U+0640); the ellipsis; then any other grapheme but space is a token of its own (the Arabic
comma, semicolon and question mark U+060C, U+061B, U+061F, and an emoji with its modifiers).
Spaces are dropped. The bug models are the same pattern with one rule broken.
"""

import re

import regex
from hypothesis import strategies as st

from ....basics.words import CLASSIC_PATTERN, WORD_PATTERN
from .common import Bug, equal_to, exercise

ABBREVIATION, NUMBER, WORD = r"(?:[A-Z]\.)+", r"\$?\d+(?:\.\d+)?%?", r"\w+(?:-\w+)*"
ELLIPSIS, OTHER = r"\.\.\.", r"(?!\s)\X"
ASCII_MARKS = r"""[][.,;:!?"'()_`#%$-]"""


def tokens_by(*alternatives, engine=regex):
    """A word_tokenize made of these alternatives, tried in this order."""
    pattern = "|".join(alternatives)
    return lambda text: engine.findall(pattern, text)


def reference(text):
    return regex.findall(WORD_PATTERN, text)


# Pieces the generated texts are made of: the kinds of token the rules name, and what sits between.
PIECES = ["U.S.A.", "E.U.", "A.", "poster-print", "well-", "-", "--", "$12.40", "$5", "34.3%", "7", "3.",
          "...", "....", ".", ",", "!", "?", ";", ":", "(", ")", '"', "#", "%", "$", "word", "Tokens", "end.",
          "النَّبي", "محمدٌ", "عـربي", "الأمي-", "والثقلين", "مَرْحَبًا", "١٢٣", "٣٤.٥%", "$١٢.٤٠", "،", "؛", "؟",
          "😀", "👍🏽", "👩‍💻", "🇺🇳", "❤️", "naïve", "cafe\u0301"]
UNITS = ["a", "Z", "U", ".", " ", "-", "$", "%", "5", "١", "،", "؟", "😀", "👍🏽", "بَ", "ـ", "\n", "é"]
TEXTS = (st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from([" ", " ", "", "\n", "  "])), max_size=8)
         .map(lambda parts: "".join(piece + gap for piece, gap in parts))
         | st.lists(st.sampled_from(UNITS), max_size=16).map("".join))

CASES = ["", "U.S.A.", "poster-print", "$12.40", "34.3%", "Wait...", "Hi, you!", "It ended.",
         "That U.S.A. poster-print costs $12.40... (34.3% off!)", "النَّبي", "عـربي", "٣٤.٥%", "$١٢.٤٠",
         "نعم، لا؛ لماذا؟", "محمدٌ سيد [والثقلين]، محمد-النَّبي الأمي- ١٢٣...", "👍🏽", "👩‍💻 ok", "🇺🇳🇺🇳",
         "word\n\ttab  spaces "]

exercise(
    name="word_tokenize", signature="word_tokenize(text) -> list[str]",
    workbook="03a_word_tokenization", section="6. Exercise: `word_tokenize`",
    task="one verbose regex (the regex module), alternatives in this order: abbreviations; numbers, "
         "Arabic-Indic digits too; words with inner hyphens, keeping vowel marks and tatweel (U+0640); "
         "the ellipsis; any other grapheme but space, one token each (، ؛ ؟ and emoji too)",
    cases=lambda: [(text,) for text in CASES],
    strategy=st.tuples(TEXTS),
    judge=equal_to(reference),
    hint="one alternative per rule of section 5, in its order: abbreviations, numbers, words, the "
         "ellipsis, then any other grapheme but space; regex.findall returns the matches",
    bugs=(
        Bug("stdlib_re", "use the third-party `regex` module (import regex): the \\w of Python's re does not "
                         "match combining marks (U+064E fatha, U+0651 shadda), so 'النَّبي' fell apart, and re "
                         "knows no \\X for the graphemes",
            tokens_by(ABBREVIATION, NUMBER, WORD, ELLIPSIS, r"[^\w\s]", engine=re)),
        Bug("letters_without_marks", "keep the vowel marks in their word: \\p{L} is letters only, and the marks "
                                     "(U+064E fatha, U+0651 shadda) are \\p{M}, so 'النَّبي' fell apart; \\w of "
                                     "the regex module takes letters, marks and digits",
            tokens_by(ABBREVIATION, NUMBER, r"[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*", ELLIPSIS, OTHER),
            also=(tokens_by(ABBREVIATION, NUMBER, r"\p{L}+(?:-\p{L}+)*", ELLIPSIS, OTHER),)),
        Bug("abbreviation_takes_word", "an abbreviation is single capitals, each with its full stop: "
                                       "(?:[A-Z]\\.)+; yours also takes a word with the full stop after it, "
                                       "so 'ended.' at the end of a sentence became one token",
            tokens_by(r"(?:\w+\.)+", NUMBER, WORD, ELLIPSIS, OTHER),
            also=(tokens_by(r"(?:[A-Za-z]+\.)+", NUMBER, WORD, ELLIPSIS, OTHER),)),
        Bug("hyphen_takes_dash", "a hyphen joins two parts of a word, \\w+(?:-\\w+)*: a dash after the last "
                                 "part ('well-', 'الأمي-') is a token of its own",
            tokens_by(ABBREVIATION, NUMBER, r"\w+(?:-\w*)*", ELLIPSIS, OTHER),
            also=(tokens_by(ABBREVIATION, NUMBER, r"[\w-]+", ELLIPSIS, OTHER),)),
        Bug("no_decimals", "a number keeps its decimals, \\$?\\d+(?:\\.\\d+)?%?: '$12.40' is one token, "
                           "not '$12', '.', '40'",
            tokens_by(ABBREVIATION, r"\$?\d+%?", WORD, ELLIPSIS, OTHER)),
        Bug("words_before_abbreviations", "put the abbreviation before the words: alternatives are tried in "
                                          "order and the first that matches wins, so \\w+ took 'U' out of 'U.S.A.'",
            tokens_by(NUMBER, WORD, ABBREVIATION, ELLIPSIS, OTHER)),
        Bug("words_before_numbers", "put the numbers before the words: \\w+ matches digits too, so '34.3%' "
                                    "came out as '34', '.', '3', '%'",
            tokens_by(ABBREVIATION, WORD, NUMBER, ELLIPSIS, OTHER)),
        Bug("one_code_point", "an emoji is one token with its skin tone, variation selector and joiners: take "
                              "what is left one grapheme at a time, (?!\\s)\\X, not one code point",
            tokens_by(ABBREVIATION, NUMBER, WORD, ELLIPSIS, r"[^\w\s]")),
        Bug("keeps_spaces", "spaces are not tokens: \\X alone also takes a space, a tab or a line break; "
                            "put the look-ahead (?!\\s) in front of it",
            tokens_by(ABBREVIATION, NUMBER, WORD, ELLIPSIS, r"\X")),
        Bug("drops_the_rest", "every character but spaces belongs to a token: the Arabic comma ، semicolon ؛ "
                              "and question mark ؟ and the emoji were dropped; end with an alternative that "
                              "takes any other grapheme",
            tokens_by(ABBREVIATION, NUMBER, WORD, ELLIPSIS, ASCII_MARKS)),
        Bug("classic_pattern", "section 2's pattern is where you start, not the answer: it lets \\w+ take the "
                               "numbers and drops what its last class does not list (! % ، ؟ emoji); change it "
                               "by the rules of the task",
            tokens_by(CLASSIC_PATTERN), also=(tokens_by(CLASSIC_PATTERN, engine=re),)),
    ),
    probes=lambda: [("It ended.",), ("well- done",), ("$12.40 $5",), ("U.S.A.",), ("34.3%",), ("نعم، لا؟",),
                    ("👍🏽 👩‍💻",), ("النَّبي!",), ("Hi!",), ("A. B",), ("-x--",), ("12.40",)],
)
