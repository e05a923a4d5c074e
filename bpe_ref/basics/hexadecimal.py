"""Base 16 by hand: the 01_hex exercises' references.

A byte is two hex digits: 0x00 .. 0xff, i.e. eight bits.
"""

HEX_DIGITS = "0123456789abcdef"


def to_hex(n: int) -> str:
    """Write a non-negative integer in base 16, lowercase, no prefix: 255 -> 'ff', 0 -> '0'."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"to_hex expects an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"to_hex expects a non-negative int, got {n}")
    if n == 0:
        return "0"
    digits = []
    while n > 0:
        n, remainder = divmod(n, 16)
        digits.append(HEX_DIGITS[remainder])
    return "".join(reversed(digits))


def from_hex(s: str) -> int:
    """Read base 16, either case, optional '0x' prefix: 'ff' -> 255, '0x1F600' -> 128512."""
    if not isinstance(s, str):
        raise TypeError(f"from_hex expects a str, got {type(s).__name__}")
    digits = s.strip().lower()
    if digits.startswith("0x"):
        digits = digits[2:]
    if not digits:
        raise ValueError(f"from_hex: no hex digits in {s!r}")
    n = 0
    for ch in digits:
        if ch not in HEX_DIGITS:
            raise ValueError(f"from_hex: {ch!r} is not a hex digit (in {s!r})")
        n = n * 16 + HEX_DIGITS.index(ch)
    return n
