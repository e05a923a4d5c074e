"""BUGS: the same shortcuts under other names: "{:x}".format in a helper, int with a base through an
alias and functools.partial, codecs.encode. A rule about what the function may call catches them
all, whatever the spelling.

expect: to_hex fail, from_hex fail, utf8_encode fail
shows: to_hex uses '{:x}'.format()
shows: from_hex uses parse_hex(s) (int with a base)
shows: utf8_encode uses codecs.encode()
"""

import codecs
import functools

read = int
parse_hex = functools.partial(read, base=16)


def digits(n):
    return "{:x}".format(n)


def to_hex(n):
    return digits(n)


def from_hex(s):
    return parse_hex(s)


def utf8_encode(text):
    return codecs.encode(text, "utf-8")
