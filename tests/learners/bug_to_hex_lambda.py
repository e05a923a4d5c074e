"""BUG in to_hex: hex() again, hidden in a lambda; the by-hand rule applies all the same.
(from_hex is right.)

expect: from_hex pass, to_hex fail
cause: to_hex none
shows: to_hex uses hex()
"""

to_hex = lambda n: hex(n)[2:]  # noqa: E731


def from_hex(s):
    digits = s.lower()
    if digits.startswith("0x"):
        digits = digits[2:]
    value = 0
    for ch in digits:
        value = value * 16 + "0123456789abcdef".index(ch)
    return value
