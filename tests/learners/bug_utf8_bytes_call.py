"""BUG in utf8_encode: bytes(text, "utf-8") is str.encode under another name, not UTF-8 by hand.
(to_hex is right.)

expect: to_hex pass, utf8_encode fail
cause: utf8_encode none
shows: utf8_encode uses bytes(text, 'utf-8')
"""


def to_hex(n):
    digits = []
    while True:
        n, r = divmod(n, 16)
        digits.append("0123456789abcdef"[r])
        if not n:
            return "".join(reversed(digits))


def utf8_encode(text):
    return bytes(text, "utf-8")
