"""BUG in word_tokenize: the shortcut. It hands the workbook's classic pattern, unchanged, to
nltk.regexp_tokenize: \\w+ comes before the numbers ('34.3%' -> '34', '.', '3') and whatever
the last class does not list (! % ، ؟ emoji) is dropped.

expect: word_tokenize fail
cause: word_tokenize classic_pattern
"""

import nltk

CLASSIC = r"""(?x)    # verbose: spaces and comments in the pattern are ignored
    (?:[A-Z]\.)+              # abbreviations: U.S.A.
  | \w+(?:-\w+)*              # words, with inner hyphens: poster-print
  | \$?\d+(?:\.\d+)?%?        # currency and percentages: $12.40, 34.3%
  | \.\.\.                    # the ellipsis
  | [][.,;"'?():_`-]          # these punctuation marks, one by one
"""


def word_tokenize(text):
    return nltk.regexp_tokenize(text, CLASSIC)
