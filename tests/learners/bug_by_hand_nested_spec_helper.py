"""BUGS: the nested spec comes from a parameter's default and a helper of the learner's own; the
parse goes through a table of callables; utf8_encode IS a methodcaller, with no def at all.

expect: to_hex fail, from_hex fail, utf8_encode fail
shows: to_hex the f-string format {n:{kind}{letter()}}
shows: from_hex PARSERS['int'](type(1), s, base=16) (int with a base)
shows: utf8_encode operator.methodcaller('encode', 'utf-8')
"""

import operator


def letter():
    return "x" if True else "d"


def to_hex(n, kind=""):
    return f"{n:{kind}{letter()}}"


PARSERS = {"int": type(1).__new__}


def from_hex(s):
    return PARSERS["int"](type(1), s, base=16)


utf8_encode = operator.methodcaller("encode", "utf-8")
