"""BUG in word_tokenize: the standard library's `re`, whose \\w does not match combining marks,
so 'النَّبي' comes out as 'الن', 'َ', 'ّ', 'بي'; and `re` has no \\X, so the rest is taken one
code point at a time with [^\\w\\s]. (Everything else follows the rules.)

expect: word_tokenize fail
cause: word_tokenize stdlib_re
"""

import re

WORD_PATTERN = re.compile(r"""(?x)
    (?:[A-Z]\.)+           # abbreviations
  | \$?\d+(?:\.\d+)?%?     # numbers before words
  | \w+(?:-\w+)*           # words with inner hyphens
  | \.\.\.                 # the ellipsis
  | [^\w\s]                # any other character
""")


def word_tokenize(text):
    return WORD_PATTERN.findall(text)
