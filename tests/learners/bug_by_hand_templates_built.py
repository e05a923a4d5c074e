"""BUGS: the same kinds, spelled so that the template or name is built: a %-template joined from
pieces in the function, int reached as type(0), and str.encode handed to map() (C code calls it,
so the run-time watch never sees the call).

expect: to_hex fail, from_hex fail, utf8_encode fail
shows: to_hex (%-formatting)
shows: from_hex kind(s.lower().removeprefix('0x'), 16) (int with a base)
shows: utf8_encode str.encode()
"""


def to_hex(n):
    template = "%" + "0" + "x"
    return template % n


def from_hex(s):
    kind = type(0)
    return kind(s.lower().removeprefix("0x"), 16)


def utf8_encode(text):
    return b"".join(map(str.encode, text))
