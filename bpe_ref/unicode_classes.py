"""Split patterns that read \\p{L}, \\p{N} and \\p{M} as tiktoken does, on every code point.

tiktoken runs the split patterns in Rust's regex crate, whose Unicode tables are version
16.0.0. The `regex` module brings its own, newer tables: there some 17,500 code points that
Unicode 16 leaves unassigned are letters (new CJK ideographs, new scripts), numbers or marks,
and a few assigned ones changed category. On text holding one of them the two split
differently (U+3F633 is a letter to `regex`, punctuation to tiktoken), and so encode differently.

`split_regex(pattern)` compiles the pattern twice: as written, which is fast, and "exact",
with every \\p{...} of a general category spelled out as Unicode 16.0.0's ranges
(bpe_ref/data/unicode16_categories.txt, made by tools/make_unicode_tables.py), which is slower.
A text is split with the exact one only when it holds a code point on which the two tables
disagree. The pattern strings themselves stay exactly tiktoken's.
"""

import functools
from pathlib import Path

import regex

UNICODE_VERSION = "16.0.0"  # the Unicode of the regex crate inside tiktoken
TABLE = Path(__file__).parent / "data" / "unicode16_categories.txt"
GROUPS = {"L": ("Lu", "Ll", "Lt", "Lm", "Lo"), "M": ("Mn", "Mc", "Me"), "N": ("Nd", "Nl", "No")}
PROPERTY = regex.compile(r"\\([pP])(?:\{(\^?)([A-Za-z_]+)\}|([A-Z]))")


@functools.lru_cache(maxsize=None)
def split_regex(pattern):
    """The compiled `pattern`, splitting as tiktoken's Rust regex does (see the module's doc).

    >>> split_regex(GPT4_SPLIT_PATTERN).findall("a\\U0003F633's")   # a letter only to `regex`
    ['a', "\\U0003f633'", 's']
    """
    fast = regex.compile(pattern)
    names = {_category(m) for m in PROPERTY.finditer(pattern)} - {None}
    disagree = frozenset(chr(cp) for name in names for cp in _disagreement(name))
    if not disagree:
        return fast
    return TiktokenSplit(fast, regex.compile(exact_pattern(pattern)), disagree)


class TiktokenSplit:
    """A pattern compiled as written and with Unicode 16.0.0's classes; findall picks one."""

    def __init__(self, fast, exact, disagree):
        self.fast, self.exact = fast, exact
        self.disagree = disagree  # the characters the two tables put in different classes
        self.pattern = fast.pattern

    def findall(self, text):
        if text.isascii() or self.disagree.isdisjoint(set(text)):  # set(): far quicker than a regex
            return self.fast.findall(text)
        return self.exact.findall(text)


def exact_pattern(pattern):
    """`pattern` with each \\p{L}, \\p{Lu}, \\p{N}, ... (and \\P{...}) written as Unicode 16.0.0's
    ranges, inside a class or out; other escapes are left as they are."""
    out, i = [], 0
    class_body = None  # where the body of the class we are in starts, None outside classes
    while i < len(pattern):
        ch = pattern[i]
        found = PROPERTY.match(pattern, i) if ch == "\\" else None
        name = _category(found) if found else None
        if name is not None:
            negated = (found.group(1) == "P") != bool(found.group(2))
            out.append(_class_text(name, negated, inside=class_body is not None))
            i = found.end()
            continue
        step = 2 if ch == "\\" else 1
        if ch == "[" and class_body is None:
            class_body = i + 1 + (pattern[i + 1:i + 2] == "^")
        elif ch == "]" and class_body is not None and i > class_body:  # a leading ']' is literal
            class_body = None
        out.append(pattern[i:i + step])
        i += step
    return "".join(out)


def _category(match):
    """The general category a \\p{...} match names, if this module knows it; else None."""
    name = match.group(3) or match.group(4)
    return name if name in GROUPS or name in _table() else None


def _class_text(name, negated, inside):
    ranges = _unicode16(name)
    if negated:
        ranges = _complement(ranges)
    body = _ranges_class(ranges)[1:-1]
    return body if inside else f"[{body}]"


@functools.lru_cache(maxsize=None)
def _table():
    """category -> [(first, last), ...] in Unicode 16.0.0."""
    table = {}
    with open(TABLE, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#"):
                first, last, category = line.split()
                table.setdefault(category, []).append((int(first, 16), int(last, 16)))
    return table


@functools.lru_cache(maxsize=None)
def _unicode16(name):
    """The code point ranges of category (or group) `name` in Unicode 16.0.0, merged and sorted."""
    return _merge(sorted(r for category in GROUPS.get(name, (name,)) for r in _table().get(category, [])))


@functools.lru_cache(maxsize=None)
def _installed(name):
    """The code point ranges the installed `regex` module gives \\p{name}."""
    return [(m.start(), m.end() - 1) for m in regex.finditer(rf"\p{{{name}}}+", _every_code_point())]


@functools.lru_cache(maxsize=1)
def _every_code_point():
    return "".join(map(chr, range(0x110000)))


@functools.lru_cache(maxsize=None)
def _disagreement(name):
    """The set of code points that are in \\p{name} for one table and not the other."""
    ours = _points(_installed(name))
    return frozenset(ours ^ _points(_unicode16(name)))


def _points(ranges):
    return {cp for first, last in ranges for cp in range(first, last + 1)}


def _merge(ranges):
    """[(1, 3), (4, 6), (9, 9)] -> [(1, 6), (9, 9)]"""
    merged = []
    for first, last in ranges:
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
        else:
            merged.append((first, last))
    return merged


def _complement(ranges):
    out, start = [], 0
    for first, last in ranges:
        if first > start:
            out.append((start, first - 1))
        start = last + 1
    if start <= 0x10FFFF:
        out.append((start, 0x10FFFF))
    return out


def _ranges_class(points_or_ranges):
    """A character class '[...]' for sorted code points or (first, last) ranges."""
    ranges = _merge([(p, p) if isinstance(p, int) else p for p in points_or_ranges])
    parts = [f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges]
    return "[" + "".join(parts) + "]"
