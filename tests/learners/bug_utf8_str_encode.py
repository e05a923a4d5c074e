"""BUG in utf8_encode: the right bytes, but by str.encode, which the exercise forbids.
(u_plus, from_u_plus are right.)

expect: u_plus pass, from_u_plus pass, utf8_encode fail
cause: utf8_encode none
shows: utf8_encode uses str.encode()
"""


def u_plus(ch):
    digits = "%X" % ord(ch)
    return "U+" + "0" * (4 - len(digits)) + digits


def from_u_plus(name):
    value = 0
    for ch in name[2:].upper():
        value = 16 * value + "0123456789ABCDEF".index(ch)
    return chr(value)


def utf8_encode(text):
    return text.encode("utf-8")
