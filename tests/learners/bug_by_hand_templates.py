"""BUGS: library shortcuts whose format or name sits somewhere else than the call: a %-template
kept in a constant, int's constructor called by its own name, and str.encode fetched by
operator.methodcaller. Each once passed, because no call the run-time watch sees does the job.

expect: to_hex fail, from_hex fail, utf8_encode fail
shows: to_hex uses HEX_TEMPLATE % n (%-formatting)
shows: from_hex int.__new__(int, s, 16) (int with a base)
shows: utf8_encode operator.methodcaller('encode')
"""

import operator

HEX_TEMPLATE = "%x"
ENCODE = operator.methodcaller("encode")


def to_hex(n):
    return HEX_TEMPLATE % n


def from_hex(s):
    return int.__new__(int, s, 16)


def utf8_encode(text):
    return ENCODE(text)
