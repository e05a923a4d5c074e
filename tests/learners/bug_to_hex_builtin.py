"""BUG in to_hex: hex(n)[2:] is right, but the exercise is to do it by hand. (from_hex, u_plus are right.)

expect: from_hex pass, u_plus pass, to_hex fail
cause: to_hex none
shows: to_hex uses hex
"""


def to_hex(n):
    return hex(n)[2:]


def from_hex(s):
    s = s.strip().lower()
    if s[:2] == "0x":
        s = s[2:]
    value = 0
    for ch in s:
        value = value * 16 + (ord(ch) - ord("0") if ch <= "9" else ord(ch) - ord("a") + 10)
    return value


def u_plus(ch):
    return f"U+{ord(ch):04X}"
