"""Workbook 01, hexadecimal: `to_hex` and `from_hex`, by hand (the library's shortcuts are refused)."""

from hypothesis import strategies as st

from .common import Bug, equal_to, exercise

DIGITS = "0123456789abcdef"


def digits_of(n, write):
    """The base-16 remainders of n, lowest first, each written by `write` (the models vary it)."""
    out = []
    while n > 0:
        n, r = divmod(n, 16)
        out.append(write(r))
    return out


def hex_digits(n, digits=DIGITS):
    """to_hex done right (the models change one thing each)."""
    return "".join(reversed(digits_of(n, digits.__getitem__))) or "0"


exercise(
    name="to_hex", signature="to_hex(n) -> str",
    workbook="01_hex", section="2. Writing hex by hand: `to_hex`",
    task="repeat divmod(n, 16) and read the remainders backwards; 0 -> '0'",
    cases=lambda: [(0,), (9,), (10,), (15,), (16,), (255,), (256,), (4096,), (0x1F600,)],
    strategy=st.tuples(st.integers(0, 2**40)),
    judge=equal_to(hex_digits),
    hint="repeat divmod(n, 16); the remainders, read backwards, are the digits; 0 is '0'",
    by_hand="int to hex",
    bugs=(
        Bug("upper_case", "write the digits a-f in lower case, as hex() does: 'ff', not 'FF'",
            lambda n: hex_digits(n, DIGITS.upper())),
        Bug("zero_empty", "0 has one digit: return '0' (a loop `while n > 0` never runs for 0)",
            lambda n: "".join(reversed(digits_of(n, DIGITS.__getitem__)))),
        Bug("not_reversed", "divmod gives the lowest digit first: read the remainders backwards",
            lambda n: "".join(digits_of(n, DIGITS.__getitem__)) or "0"),
        Bug("with_prefix", "no '0x' in front: return the digits alone", lambda n: "0x" + hex_digits(n)),
        Bug("decimal_remainders", "a remainder of 10 to 15 is one digit, a to f, not '10' to '15'",
            lambda n: "".join(reversed(digits_of(n, str))) or "0"),
    ),
    probes=lambda: [(n,) for n in (1, 11, 17, 171, 0xABC, 0xF0)],
)


def from_hex_model(lower=True, strip_prefix=True, base=16, backwards=False, prefix="0x"):
    """from_hex written with one of the classic slips (all off: the right answer). prefix: what is
    taken for the start of '0x' (a test on '0' alone drops the first digit of '0f' too)."""
    def from_hex(s):
        s = s.lower() if lower else s
        if strip_prefix and s[:len(prefix)].lower() == prefix:
            s = s[2:]
        n = 0
        for ch in (reversed(s) if backwards else s):
            n = n * base + DIGITS.index(ch)
        return n
    return from_hex


exercise(
    name="from_hex", signature="from_hex(s) -> int",
    workbook="01_hex", section="3. Reading hex by hand: `from_hex`",
    task="n = n * 16 + the digit's value, left to right; lower-case s and drop a '0x' first",
    cases=lambda: [("0",), ("a",), ("ff",), ("FF",), ("10",), ("0x1f",), ("0x1F600",), ("100",), ("0f",),
                   ("00ff",)],
    strategy=st.tuples(st.integers(0, 2**40).flatmap(lambda n: st.sampled_from(
        [format(n, "x"), format(n, "X"), "0x" + format(n, "x")]))),
    judge=equal_to(lambda s: int(s, 16)),
    hint="n = n * 16 + value of each digit, left to right; accept upper case and a '0x' prefix",
    by_hand="hex to int",
    bugs=(
        Bug("no_upper_case", "accept upper-case digits too: lower-case s first ('FF' -> 'ff')",
            from_hex_model(lower=False), errors=("KeyError", "IndexError")),
        Bug("keeps_prefix", "drop a leading '0x' before reading the digits",
            from_hex_model(strip_prefix=False), errors=("KeyError", "IndexError")),
        Bug("base_ten", "each digit is worth 16 times the one after it: n = n * 16 + digit, not n * 10",
            from_hex_model(base=10)),
        Bug("backwards", "read the digits left to right: the first one is the most significant",
            from_hex_model(backwards=True)),
        Bug("zero_taken_for_prefix", "drop the first two characters only when they are '0x': testing for a "
                                     "leading '0' alone also cuts '0f' down to nothing",
            from_hex_model(prefix="0")),
    ),
    probes=lambda: [("1a",), ("Ab",), ("0xff",), ("7",), ("12",), ("0a",), ("0",)],
)
