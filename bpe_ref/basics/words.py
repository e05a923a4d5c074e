"""Word-level regex tokenization, what came before BPE: the 03a_word_tokenization reference.

A word tokenizer cuts text into words, numbers and punctuation with one regex, and every
distinct word becomes an entry of the vocabulary. `CLASSIC_PATTERN` is the verbose pattern NLP
courses have long started from (NLTK's `regexp_tokenize` with one alternative per kind of
token); `WORD_PATTERN` is the course's. Its alternatives are tried in order, and it pins four rules
for Arabic:

- vowel marks and other combining marks stay with their word (`regex`'s `\\w` holds them;
  in Python's `re`, `\\w` does not match them, so both patterns need the `regex` module);
- the tatweel (U+0640) is part of the word;
- Arabic-Indic digits are digits, in numbers like ASCII ones (`٣٤.٥%` is one token);
- the Arabic comma, semicolon and question mark (U+060C, U+061B, U+061F) are punctuation
  tokens, as is any other grapheme that is not a space (an emoji with its modifiers too).

>>> word_tokenize("That U.S.A. poster-print costs $12.40...")
['That', 'U.S.A.', 'poster-print', 'costs', '$12.40', '...']
"""

import zlib
from importlib import resources

import regex

CLASSIC_PATTERN = r"""(?x)    # verbose: spaces and comments in the pattern are ignored
    (?:[A-Z]\.)+              # abbreviations: U.S.A.
  | \w+(?:-\w+)*              # words, with inner hyphens: poster-print
  | \$?\d+(?:\.\d+)?%?        # currency and percentages: $12.40, 34.3%
  | \.\.\.                    # the ellipsis
  | [][.,;"'?():_`-]          # these punctuation marks, one by one
"""

WORD_PATTERN = r"""(?x)
    (?:[A-Z]\.)+              # abbreviations: U.S.A.
  | \$?\d+(?:\.\d+)?%?        # numbers before words: $12.40, 34.3%, ١٢.٥ (Arabic-Indic digits are \d)
  | \w+(?:-\w+)*              # words, inner hyphens: regex's \w holds marks (النَّبي) and tatweel (ـ)
  | \.\.\.                    # the ellipsis
  | (?!\s)\X                  # anything else but space, one grapheme each: ، ؛ ؟ ! 👍🏽
"""


def word_tokenize(text):
    """The words, numbers and punctuation of `text`, by WORD_PATTERN; spaces are dropped.

    >>> word_tokenize("محمدٌ، النَّبيُّ؟ ٣٤.٥%")
    ['محمدٌ', '،', 'النَّبيُّ', '؟', '٣٤.٥%']
    """
    return regex.findall(WORD_PATTERN, text)


LETTER = regex.compile(r"\p{L}")


def is_word(token):
    """Whether a token holds a letter (a word, not a number or punctuation)."""
    return LETTER.search(token) is not None


# ---------------------------------------------------------------------------- vocabulary

def vocabulary_growth(tokens, points=20):
    """(tokens read, distinct tokens so far) at `points` evenly spaced places, the last one included.

    >>> vocabulary_growth(["a", "b", "a", "c"], points=2)
    [(2, 2), (4, 3)]
    """
    if not tokens:
        return []
    marks = sorted({max(1, round(len(tokens) * k / points)) for k in range(1, points + 1)})
    seen, growth, start = set(), [], 0
    for mark in marks:
        seen.update(tokens[start:mark])
        growth.append((mark, len(seen)))
        start = mark
    return growth


def unknown_rate(known_tokens, new_tokens):
    """The share of `new_tokens` that never occur in `known_tokens` (0.0 to 1.0).

    >>> unknown_rate(["the", "cat"], ["the", "dog", "the", "cats"])
    0.5
    """
    if not new_tokens:
        return 0.0
    vocabulary = set(known_tokens)
    return sum(token not in vocabulary for token in new_tokens) / len(new_tokens)


# ---------------------------------------------------------------------------- the texts

def parallel_messages():
    """[(English, Arabic)]: 5,000-odd messages of free software with their Arabic translations,
    shipped in bpe_ref/data (made by tools/make_word_texts.py; sources in data/MESSAGES.md)."""
    text = resources.files("bpe_ref").joinpath("data/messages_en_ar.tsv").read_text(encoding="utf-8")
    return [tuple(line.split("\t")) for line in text.splitlines() if line]


def messages_text(language, part="all"):
    """The messages of one language ("en" or "ar"), one a line. `part` is "all", or one of the two
    parts the messages are split into once, by a checksum of the English: "main" (about 80%)
    and "held_out" (the rest), for counting words that a vocabulary made from "main" has not seen."""
    if language not in ("en", "ar"):
        raise ValueError(f"language must be 'en' or 'ar', not {language!r}")
    if part not in ("all", "main", "held_out"):
        raise ValueError(f"part must be 'all', 'main' or 'held_out', not {part!r}")
    column = 0 if language == "en" else 1
    chosen = [pair[column] for pair in parallel_messages()
              if part == "all" or (zlib.crc32(pair[0].encode("utf-8")) % 5 == 0) == (part == "held_out")]
    return "\n".join(chosen) + "\n"
