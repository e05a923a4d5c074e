"""Workbook 03, UTF-8: `utf8_encode` from the bit layout (str.encode and its relatives are refused)."""

from hypothesis import strategies as st

from .common import Bug, equal_to, exercise
from .w00_start_here import CODE_POINTS

BOUNDARY_CHARS = [chr(cp) for cp in (0, 0x41, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x20AC, 0xFFFF,
                                     0x10000, 0x1F600, 0x10FFFF)]


def utf8_model(limits=(0x80, 0x800, 0x10000), mask=0x3F, as_bytes=True):
    """utf8_encode with adjustable size limits and continuation mask (the defaults are right)."""
    def utf8_encode(text):
        out = []
        for ch in text:
            cp = ord(ch)
            if cp < limits[0]:
                out.append(cp)
            elif cp < limits[1]:
                out += [0xC0 | cp >> 6, 0x80 | cp & 0x3F]
            elif cp < limits[2]:
                out += [0xE0 | cp >> 12, 0x80 | cp >> 6 & mask, 0x80 | cp & 0x3F]
            else:
                out += [0xF0 | cp >> 18, 0x80 | cp >> 12 & mask, 0x80 | cp >> 6 & mask, 0x80 | cp & 0x3F]
        return bytes(out) if as_bytes else out
    return utf8_encode


exercise(
    name="utf8_encode", signature="utf8_encode(text) -> bytes",
    workbook="03_utf8", section="3. Encoding by hand",
    task="for each code point, append 1-4 bytes: the prefix bits | the payload bits",
    cases=lambda: [("",), ("a",)] + [(c,) for c in BOUNDARY_CHARS] + [("héllo 한 😀",)],
    strategy=st.tuples(st.text(alphabet=CODE_POINTS, max_size=12)),
    judge=equal_to(lambda text: text.encode("utf-8")),
    hint="pick 1/2/3/4 bytes by the code point's size (< 0x80, < 0x800, < 0x10000); "
         "the first byte starts 0/110/1110/11110, the others 10",
    by_hand="text to utf-8",
    bugs=(
        Bug("one_byte_limit", "one byte holds U+0000 to U+007F only: U+0080 already needs two (cp < 0x80)",
            utf8_model(limits=(0x81, 0x800, 0x10000))),
        Bug("two_byte_limit", "two bytes hold up to U+07FF: U+0800 already needs three (cp < 0x800)",
            utf8_model(limits=(0x80, 0x801, 0x10000))),
        Bug("three_byte_limit", "three bytes hold up to U+FFFF: U+10000 already needs four (cp < 0x10000)",
            utf8_model(limits=(0x80, 0x800, 0x10001))),
        Bug("no_four_bytes", "code points from U+10000 up need four bytes: 11110xxx, then three 10xxxxxx",
            utf8_model(limits=(0x80, 0x800, 0x110000))),
        Bug("no_mask", "keep only the low 6 bits in every continuation byte: 0x80 | (cp >> 6) & 0x3F",
            utf8_model(mask=0xFFFFFF)),
        Bug("returns_list", "return bytes, not a list of ints: bytes(the_list)", utf8_model(as_bytes=False)),
    ),
    probes=lambda: [("\u0100",), ("\u0fff",), ("𐍈",), ("aé€😀",)],
)
