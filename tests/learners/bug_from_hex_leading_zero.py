"""BUG in from_hex: takes any leading '0' for the start of '0x' and cuts two characters, so '0f'
reads as 0. Its own round trip, from_hex(to_hex(n)) == n, never sees it: to_hex writes no leading
zero. (to_hex and u_plus are right.)

expect: to_hex pass, u_plus pass, from_hex fail
cause: from_hex zero_taken_for_prefix
"""

HEX = "0123456789abcdef"


def to_hex(n):
    out = ""
    while True:
        n, r = divmod(n, 16)
        out = HEX[r] + out
        if n == 0:
            return out


def from_hex(s):
    s = s.lower()
    if s[0] == "0":
        s = s[2:]
    value = 0
    for ch in s:
        value = value * 16 + HEX.index(ch)
    return value


def u_plus(ch):
    return f"U+{ord(ch):04X}"
