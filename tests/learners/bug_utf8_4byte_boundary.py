"""BUG in utf8_encode: cp <= 0x10000 squeezes U+10000 into three bytes (the 3/4-byte boundary).
(to_hex is right.)

expect: to_hex pass, utf8_encode fail
cause: utf8_encode three_byte_limit
"""


def to_hex(n):
    digits = ""
    while True:
        n, r = divmod(n, 16)
        digits = "0123456789abcdef"[r] + digits
        if n == 0:
            return digits


def utf8_encode(text):
    out = []
    for ch in text:
        cp = ord(ch)
        if cp < 0x80:
            out.append(cp)
        elif cp < 0x800:
            out.extend([0b11000000 | cp >> 6, 0b10000000 | cp & 0b111111])
        elif cp <= 0x10000:
            out.extend([0b11100000 | cp >> 12, 0b10000000 | cp >> 6 & 0b111111, 0b10000000 | cp & 0b111111])
        else:
            out.extend([0b11110000 | cp >> 18, 0b10000000 | cp >> 12 & 0b111111,
                        0b10000000 | cp >> 6 & 0b111111, 0b10000000 | cp & 0b111111])
    return bytes(out)
