"""BUG in word_tokenize: already uses the `regex` module, but its words are \\p{L}+, letters only,
so the vowel marks (\\p{M}) of 'النَّبي' fall out of their word. The hint must name the marks, and
must not tell this code to use the regex module it already uses. (Everything else follows the rules.)

expect: word_tokenize fail
cause: word_tokenize letters_without_marks
"""

import regex

WORD_PATTERN = regex.compile(r"""(?x)
    (?:[A-Z]\.)+                 # abbreviations
  | \$?\d+(?:\.\d+)?%?           # numbers
  | \p{L}+(?:-\p{L}+)*           # words
  | \.\.\.                       # the ellipsis
  | (?!\s)\X                     # anything else, one grapheme each
""")


def word_tokenize(text):
    return WORD_PATTERN.findall(text)
