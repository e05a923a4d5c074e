"""BUGS: each by-hand exercise takes a library shortcut that used to pass: "%x" % n,
int.from_bytes(bytes.fromhex(...)) and bytearray(text, "utf8"). u_plus may format freely.

expect: u_plus pass, to_hex fail, from_hex fail, utf8_encode fail
shows: to_hex uses '%x' % n (%-formatting)
shows: from_hex int.from_bytes()
shows: from_hex bytes.fromhex()
shows: utf8_encode uses bytearray(text, 'utf8')
"""


def u_plus(ch):
    return "U+%04X" % ord(ch)


def to_hex(n):
    return "%x" % n


def from_hex(s):
    s = s.lower().removeprefix("0x")
    return int.from_bytes(bytes.fromhex(s.rjust(len(s) + len(s) % 2, "0")), "big")


def utf8_encode(text):
    return bytes(bytearray(text, "utf8"))
