"""Right, by hand, with tools the rules must NOT refuse: "%s%s" % (...) and "{}{}".format(...) to
join digits, int(ch) of one decimal digit, bytes([...]) of a list, helper functions, a digit table.

expect: to_hex pass, from_hex pass, utf8_encode pass
"""

DIGITS = "0123456789abcdef"
VALUE = {ch: i for i, ch in enumerate(DIGITS)}


def digit(r):
    return DIGITS[r]


def to_hex(n):
    out = digit(n % 16)
    n //= 16
    while n:
        out = "%s%s" % (digit(n % 16), out)
        n //= 16
    return out


def from_hex(s):
    s = s.lower()
    if s.startswith("0x"):
        s = s[2:]
    n = 0
    for ch in s:
        n = n * 16 + (int(ch) if ch.isdigit() else VALUE[ch])
    return n


def continuation(cp, shift):
    return 0x80 | (cp >> shift) & 0x3F


def utf8_encode(text):
    out = []
    for ch in text:
        cp = ord(ch)
        if cp < 0x80:
            out.append(cp)
        elif cp < 0x800:
            out += [0xC0 | cp >> 6, continuation(cp, 0)]
        elif cp < 0x10000:
            out += [0xE0 | cp >> 12, continuation(cp, 6), continuation(cp, 0)]
        else:
            out += [0xF0 | cp >> 18, continuation(cp, 12), continuation(cp, 6), continuation(cp, 0)]
    return bytes(out) if "{}{}".format("o", "k") == "ok" else b""
