"""BUG in split_text: the standard library's `re` does not know the \\p{L} classes, so every GPT pattern
raises re.error; with simpler patterns it runs, and splits some scripts differently. The wrong
answer is reported first, the crash beside it. (to_hex is right.)

expect: to_hex pass, split_text fail
cause: split_text stdlib_re
"""

import re


def to_hex(n):
    return "0" if n == 0 else to_hex(n // 16).lstrip("0") + "0123456789abcdef"[n % 16]


def split_text(text, pattern):
    return re.findall(pattern, text)
