"""UTF-8 by its bit layout: the 03_utf8 exercise's reference.

    code points          bytes  layout
    U+0000  .. U+007F    1      0xxxxxxx
    U+0080  .. U+07FF    2      110xxxxx 10xxxxxx
    U+0800  .. U+FFFF    3      1110xxxx 10xxxxxx 10xxxxxx
    U+10000 .. U+10FFFF  4      11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
"""


def encode_code_point(cp: int) -> bytes:
    """The UTF-8 bytes of one code point: 0xE9 -> b'\\xc3\\xa9'."""
    if cp < 0x80:
        return bytes([cp])
    if cp < 0x800:
        return bytes([0b11000000 | (cp >> 6), 0b10000000 | (cp & 0x3F)])
    if cp < 0x10000:
        return bytes([
            0b11100000 | (cp >> 12),
            0b10000000 | ((cp >> 6) & 0x3F),
            0b10000000 | (cp & 0x3F),
        ])
    return bytes([
        0b11110000 | (cp >> 18),
        0b10000000 | ((cp >> 12) & 0x3F),
        0b10000000 | ((cp >> 6) & 0x3F),
        0b10000000 | (cp & 0x3F),
    ])


def utf8_encode(text: str) -> bytes:
    """Encode text as UTF-8 without str.encode: 'añ😀' -> b'a\\xc3\\xb1\\xf0\\x9f\\x98\\x80'.

    Lone surrogates (U+D800..U+DFFF) have no UTF-8 form; like str.encode we refuse them.
    """
    out = bytearray()
    for i, ch in enumerate(text):
        cp = ord(ch)
        if 0xD800 <= cp <= 0xDFFF:
            raise UnicodeEncodeError("utf-8", text, i, i + 1, "surrogates not allowed")
        out += encode_code_point(cp)
    return bytes(out)
