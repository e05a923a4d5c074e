"""BUG in from_u_plus: reads the digits after U+ as decimal, so 'U+0041' gives ')' (41) instead of 'A'.
(u_plus is right.)

expect: u_plus pass, from_u_plus fail
cause: from_u_plus decimal
"""


def u_plus(ch):
    return "U+" + format(ord(ch), "04X")


def from_u_plus(name):
    return chr(int(name[2:]))
