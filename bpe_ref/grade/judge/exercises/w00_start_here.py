"""Workbook 00, start here: `u_plus`, the exercise that shows how every exercise works."""

from hypothesis import strategies as st

from .common import Bug, equal_to, exercise

CODE_POINTS = st.characters(exclude_categories=("Cs",))


def u_plus(ch):
    return f"U+{ord(ch):04X}"


exercise(
    name="u_plus", signature="u_plus(ch) -> str",
    workbook="00_start_here", section="2. How an exercise works",
    task="return 'U+' then ord(ch) in upper-case hex, padded to at least 4 digits",
    cases=lambda: [(c,) for c in ["A", "\x00", "é", "€", "한", "😀", "\U0010FFFF"]],
    strategy=st.tuples(CODE_POINTS),
    judge=equal_to(u_plus),
    hint="'U+' then ord(ch) in upper-case hex, padded to at least 4 digits: U+00E9, U+1F600",
    bugs=(
        Bug("no_padding", "pad to at least 4 hex digits: U+00E9, not U+E9 (the format spec 04X does it)",
            lambda ch: f"U+{ord(ch):X}"),
        Bug("lower_case", "U+ notation writes the hex digits in upper case: U+00E9, not U+00e9",
            lambda ch: f"U+{ord(ch):04x}"),
        Bug("decimal", "the number after U+ is hexadecimal: é is 233, which is E9 in hex, so U+00E9",
            lambda ch: f"U+{ord(ch):04d}"),
        Bug("hex_prefix", "hex() puts '0x' in front: U+ is followed by the digits alone",
            lambda ch: "U+" + hex(ord(ch))),
    ),
    probes=lambda: [(c,) for c in "aé€😀ÿ"],
)
