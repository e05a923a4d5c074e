"""Code points in U+ notation, and marks taken off letters: the 02_unicode exercises' references."""

import unicodedata


def u_plus(ch: str) -> str:
    """The U+ name of one character, 4+ upper-case hex digits: 'é' -> 'U+00E9'."""
    if not isinstance(ch, str) or len(ch) != 1:
        raise ValueError(f"u_plus expects exactly one character, got {ch!r}")
    return f"U+{ord(ch):04X}"


def from_u_plus(name: str) -> str:
    """The character named by a U+ string, either case: 'U+1F600' -> '😀'."""
    if not isinstance(name, str) or not name.upper().startswith("U+"):
        raise ValueError(f"from_u_plus expects a string like 'U+00E9', got {name!r}")
    code_point = int(name[2:], 16)
    if code_point > 0x10FFFF:
        raise ValueError(f"{name} is beyond the last code point U+10FFFF")
    return chr(code_point)


def strip_marks(text: str) -> str:
    """The text without its nonspacing marks (category Mn): accents, Arabic vowels, Hindi vowel signs.

    Decomposed first (NFD), so that a precomposed 'é' gives up its accent too, and composed again
    (NFC), so that what is left (Korean syllables, say) is written as it came: 'Ça café' -> 'Ca cafe'.
    """
    if not isinstance(text, str):
        raise TypeError(f"strip_marks expects a str, got {type(text).__name__}")
    kept = [ch for ch in unicodedata.normalize("NFD", text) if unicodedata.category(ch) != "Mn"]
    return unicodedata.normalize("NFC", "".join(kept))
