"""Workbook 02, Unicode: `from_u_plus`, back from U+ notation to the character, and `strip_marks`,
the text without its nonspacing marks (decompose, drop category Mn, compose again)."""

import unicodedata

from hypothesis import strategies as st

from ....basics.codepoints import strip_marks
from .common import Bug, equal_to, exercise
from .w00_start_here import CODE_POINTS

exercise(
    name="from_u_plus", signature="from_u_plus(name) -> str",
    workbook="02_unicode", section="3. From `U+` back to the character: `from_u_plus`",
    task="drop the 'U+', read the rest as hex, then chr()",
    cases=lambda: [("U+0041",), ("U+00E9",), ("U+1F600",), ("U+10FFFF",), ("U+0000",)],
    strategy=st.tuples(CODE_POINTS.map(lambda ch: f"U+{ord(ch):04X}")),
    judge=equal_to(lambda name: chr(int(name[2:], 16))),
    hint="drop the 'U+', read the rest as hex, then chr()",
    bugs=(
        Bug("decimal", "the digits after U+ are hexadecimal: int(digits, 16), not int(digits)",
            lambda name: chr(int(name[2:]))),
        Bug("returns_number", "return the character itself: chr() of the code point",
            lambda name: int(name[2:], 16)),
        Bug("keeps_prefix", "drop the 'U+' before reading the digits", lambda name: chr(int(name, 16))),
    ),
    probes=lambda: [("U+0030",), ("U+0100",), ("U+20AC",)],
)


def marks_dropped(form="NFD", is_mark=lambda ch: unicodedata.category(ch) == "Mn", recompose=True):
    """strip_marks with one step changed (defaults: right): the normal form taken apart with, what
    counts as a mark, and whether the rest is composed again."""
    def strip(text):
        kept = "".join(ch for ch in (unicodedata.normalize(form, text) if form else text) if not is_mark(ch))
        return unicodedata.normalize("NFC", kept) if recompose else kept
    return strip


# letters with and without marks, precomposed and decomposed, in several scripts
MARKED = ["é", "e\u0301", "ñ", "Å", "ç", "ệ", "a", " ", "한", "国", "مَ", "ر", "ْ", "न", "स्", "ते", "हि", "ं",
          "❤️", "👍🏽", "ﬁ", "²", "1"]

exercise(
    name="strip_marks", signature="strip_marks(text) -> str",
    workbook="02_unicode", section="Exercise: `strip_marks`",
    task="NFD, keep the code points whose category is not 'Mn', then NFC",
    cases=lambda: [("",), ("abc",), ("café",), ("cafe\u0301",), ("Ça va, mañana",), ("한국어",),
                   ("مَرْحَبًا",), ("नमस्ते",), ("हिंदी",), ("Việt Nam",), ("ﬁ²",), ("❤️",)],
    strategy=st.tuples(st.lists(st.sampled_from(MARKED), max_size=8).map("".join)),
    judge=equal_to(strip_marks),
    hint="take the text apart with unicodedata.normalize('NFD', text), keep every code point whose "
         "unicodedata.category is not 'Mn', and put the rest together again with normalize('NFC', ...)",
    bugs=(
        Bug("no_nfd", "take the text apart first, unicodedata.normalize('NFD', text): a precomposed 'é' "
                      "(U+00E9) is one code point, a letter, with no separate mark to drop",
            marks_dropped(form=None)),
        Bug("no_nfc", "compose what is left again, normalize('NFC', ...): NFD also takes Korean syllables "
                      "apart into their letters (jamo), and they stayed apart",
            marks_dropped(recompose=False)),
        Bug("combining_class", "a mark is a code point of category 'Mn' (unicodedata.category): some marks, "
                               "such as the Hindi vowel sign 'े', have combining class 0, so "
                               "unicodedata.combining() misses them",
            marks_dropped(is_mark=lambda ch: unicodedata.combining(ch) != 0)),
        Bug("all_marks", "drop only the nonspacing marks, category 'Mn': a spacing mark (category 'Mc'), such "
                         "as the Hindi vowel sign 'ि' in 'हिंदी', takes up its own space and stays",
            marks_dropped(is_mark=lambda ch: unicodedata.category(ch).startswith("M"))),
        Bug("compatibility_form", "decompose with NFD, not NFKD: NFKD also rewrites look-alikes ('ﬁ' -> 'fi', "
                                  "'²' -> '2'), which are not marks",
            marks_dropped(form="NFKD")),
        Bug("ascii_only", "drop only the marks: encoding to ASCII with errors='ignore' also drops every "
                          "letter outside ASCII (Korean, Arabic, Hindi)",
            lambda text: unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii"),
            also=(lambda text: unicodedata.normalize("NFD", text).encode("ascii", "ignore").decode("ascii"),)),
    ),
    probes=lambda: [("é",), ("한",), ("ते",), ("ﬁ",), ("ñ한",), ("Å",), ("हि",)],
)
