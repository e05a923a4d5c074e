"""Right, by hand, with names and formats the rules must NOT refuse: a %-template in a constant
that joins strings, an f-string padding to a width from a default, operator.methodcaller and
getattr of harmless methods, a table of digits, ord handed to map().

expect: to_hex pass, from_hex pass, utf8_encode pass
"""

import operator

PIECE = "%s%s"
DIGITS = "0123456789abcdef"
LOWER = operator.methodcaller("lower")


def to_hex(n, width=1):
    out = ""
    while n or not out:
        n, r = divmod(n, 16)
        out = PIECE % (DIGITS[r], out)
    return f"{out:0>{width}}"


def from_hex(s):
    s = getattr(LOWER(s), "removeprefix")("0x")
    n = 0
    for ch in s:
        n = n * 16 + DIGITS.index(ch)
    return n


def utf8_encode(text):
    out = []
    for cp in map(ord, text):
        if cp < 0x80:
            out.append(cp)
        elif cp < 0x800:
            out += [0xC0 | cp >> 6, 0x80 | cp & 0x3F]
        elif cp < 0x10000:
            out += [0xE0 | cp >> 12, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F]
        else:
            out += [0xF0 | cp >> 18, 0x80 | cp >> 12 & 0x3F, 0x80 | cp >> 6 & 0x3F, 0x80 | cp & 0x3F]
    return bytes(out)
