"""Workbook 02, Unicode: `from_u_plus`, back from U+ notation to the character."""

from hypothesis import strategies as st

from .common import Bug, equal_to, exercise
from .w00_start_here import CODE_POINTS

exercise(
    name="from_u_plus", signature="from_u_plus(name) -> str",
    workbook="02_unicode", section="3. From `U+` back to the character: `from_u_plus`",
    task="drop the 'U+', read the rest as hex, then chr()",
    cases=lambda: [("U+0041",), ("U+00E9",), ("U+1F600",), ("U+10FFFF",), ("U+0000",)],
    strategy=st.tuples(CODE_POINTS.map(lambda ch: f"U+{ord(ch):04X}")),
    judge=equal_to(lambda name: chr(int(name[2:], 16))),
    hint="drop the 'U+', read the rest as hex, then chr()",
    bugs=(
        Bug("decimal", "the digits after U+ are hexadecimal: int(digits, 16), not int(digits)",
            lambda name: chr(int(name[2:]))),
        Bug("returns_number", "return the character itself: chr() of the code point",
            lambda name: int(name[2:], 16)),
        Bug("keeps_prefix", "drop the 'U+' before reading the digits", lambda name: chr(int(name, 16))),
    ),
    probes=lambda: [("U+0030",), ("U+0100",), ("U+20AC",)],
)
