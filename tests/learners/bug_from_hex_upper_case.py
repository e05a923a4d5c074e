"""BUG in from_hex: only lower-case digits, so 'FF' raises ValueError. (to_hex, u_plus are right.)

expect: to_hex pass, u_plus pass, from_hex error
cause: from_hex no_upper_case
"""


def to_hex(n):
    if n == 0:
        return "0"
    digits = []
    while n:
        digits.append("0123456789abcdef"[n & 15])
        n >>= 4
    return "".join(digits[::-1])


def from_hex(s):
    if s.startswith("0x"):
        s = s[2:]
    n = 0
    for ch in s:
        n = n * 16 + "0123456789abcdef".index(ch)
    return n


def u_plus(ch):
    return "U+%04X" % ord(ch)
