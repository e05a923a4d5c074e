"""BUGS: a format spec nested in an f-string (f"{n:{SPEC}}" once passed while f"{n:x}" was refused),
int found by name in the builtins module, and a method name assembled from pieces for getattr.

expect: to_hex fail, from_hex fail, utf8_encode fail
shows: to_hex the f-string format {n:{SPEC}}
shows: from_hex getattr(builtins, 'int')(s, 16) (int with a base)
shows: utf8_encode (.encode)
"""

import builtins

SPEC = "x"


def to_hex(n):
    return f"{n:{SPEC}}"


def from_hex(s):
    return getattr(builtins, "int")(s, 16)


def utf8_encode(text):
    return getattr(text, "enc" + "ode")("utf-8")
