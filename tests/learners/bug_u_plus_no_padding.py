"""BUG in u_plus: no zero padding, so 'A' gives 'U+41' instead of 'U+0041'. (to_hex, from_u_plus are right.)

expect: to_hex pass, from_u_plus pass, u_plus fail
cause: u_plus no_padding
"""


def to_hex(n):
    out = []
    while n >= 16:
        out.append("0123456789abcdef"[n % 16])
        n //= 16
    out.append("0123456789abcdef"[n])
    return "".join(reversed(out))


def u_plus(ch):
    return "U+" + to_hex(ord(ch)).upper()


def from_u_plus(name):
    return chr(int(name[2:], 16))
