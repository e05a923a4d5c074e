"""BUG in split_text: ignores the pattern it is given and splits on whitespace.
(from_hex is right.)

expect: from_hex pass, split_text fail
cause: split_text ignores_pattern
"""

import regex


def from_hex(s):
    s = s.lower()
    s = s[2:] if s.startswith("0x") else s
    return sum("0123456789abcdef".index(c) * 16 ** i for i, c in enumerate(reversed(s)))


def split_text(text, pattern):
    return regex.findall(r"\S+|\s+", text)
