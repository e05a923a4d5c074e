"""Correct word_tokenize, NLTK style: a RegexpTokenizer built once at module level, its bound
`tokenize` method exported under the exercise's name, with a pattern spelled differently from the
reference ([\\w\\p{M}] for \\w, \\.{3} for the ellipsis). NLTK 3.10 compiles with
the regex module, so \\X and \\p{M} work. It must pass.

expect: word_tokenize pass
"""

from nltk.tokenize import RegexpTokenizer

PATTERN = r"""(?x)
    (?:[A-Z]\.)+                        # U.S.A.
  | \$?\d+(?:\.\d+)?%?                  # $12.40, 34.3%, ٣٤.٥%
  | [\w\p{M}]+(?:-[\w\p{M}]+)*          # النَّبي, poster-print
  | \.{3}                               # ...
  | (?!\s)\X                            # anything else, a grapheme at a time
"""

word_tokenize = RegexpTokenizer(PATTERN).tokenize
