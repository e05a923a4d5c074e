"""BUG in word_tokenize: the word alternative comes before the abbreviations, so \\w+ takes the
'U' of 'U.S.A.' and the abbreviation alternative never gets its turn. (A loop over finditer,
not findall.)

expect: word_tokenize fail
cause: word_tokenize words_before_abbreviations
"""

import regex

ALTERNATIVES = [r"\$?\d+(?:\.\d+)?%?", r"\w+(?:-\w+)*", r"(?:[A-Z]\.)+", r"\.\.\.", r"(?!\s)\X"]
PATTERN = regex.compile("|".join(ALTERNATIVES))


def word_tokenize(text):
    tokens = []
    for match in PATTERN.finditer(text):
        tokens.append(match.group())
    return tokens
