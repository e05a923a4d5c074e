"""Code points in U+ notation: the 02_unicode exercises' references."""


def u_plus(ch: str) -> str:
    """The U+ name of one character, 4+ upper-case hex digits: 'é' -> 'U+00E9'."""
    if not isinstance(ch, str) or len(ch) != 1:
        raise ValueError(f"u_plus expects exactly one character, got {ch!r}")
    return f"U+{ord(ch):04X}"


def from_u_plus(name: str) -> str:
    """The character named by a U+ string, either case: 'U+1F600' -> '😀'."""
    if not isinstance(name, str) or not name.upper().startswith("U+"):
        raise ValueError(f"from_u_plus expects a string like 'U+00E9', got {name!r}")
    code_point = int(name[2:], 16)
    if code_point > 0x10FFFF:
        raise ValueError(f"{name} is beyond the last code point U+10FFFF")
    return chr(code_point)
