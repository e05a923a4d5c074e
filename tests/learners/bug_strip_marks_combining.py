"""BUG in strip_marks: takes a mark to be a code point with a combining class (unicodedata.combining),
which misses the Hindi vowel signs (class 0, category Mn). (from_u_plus is right.)

expect: from_u_plus pass, strip_marks fail
cause: strip_marks combining_class
shows: strip_marks unicodedata.category
"""

import unicodedata


def from_u_plus(name):
    return chr(int(name[2:], 16))


def strip_marks(text):
    decomposed = unicodedata.normalize("NFD", text)
    kept = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", kept)
