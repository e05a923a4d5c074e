"""Split patterns that read \\p{L}, \\p{N} and \\p{M} as tiktoken does, on every code point.

tiktoken runs the split patterns in Rust's regex crate, whose Unicode tables are version
16.0.0. The `regex` module brings its own, newer tables: there some 17,500 code points that
Unicode 16 leaves unassigned are letters (new CJK ideographs, new scripts), numbers or marks,
and a few assigned ones changed category. On text holding one of them the two split
differently (U+3F633 is a letter to `regex`, punctuation to tiktoken), and so encode differently.

`split_regex(pattern)` splits as tiktoken does, and fast: the standard `re` module runs the
pattern with each class spelled out as Unicode 16.0.0's ranges, so the installed tables do not
matter. ASCII text gets the classes' ASCII members; other text their members below U+10000,
which `re` keeps as one bitmap per class (astral ranges would cost a test each per character).
A text holding astral letters, digits or marks (𝐀, 𝟎, 𠀀) is split with each replaced by a
stand-in, a character below U+10000 of the same Unicode 16.0.0 category, and the chunks are
cut from the text itself at the same places; emoji and other astral characters are in no
class and need none. Both are about three times faster than the `regex` module as written.
A pattern `re` cannot run the same way (checked on a probe text) falls back to `regex`, with
stand-ins for the code points on which its tables and Unicode 16.0.0 disagree.
Unicode 16.0.0's categories come from bpe_ref/data/unicode16_categories.txt (made by
tools/make_unicode_tables.py). The pattern strings themselves stay exactly tiktoken's.
"""

import bisect
import functools
import re
from pathlib import Path

import regex

UNICODE_VERSION = "16.0.0"  # the Unicode of the regex crate inside tiktoken
TABLE = Path(__file__).parent.parent / "data" / "unicode16_categories.txt"
GROUPS = {"L": ("Lu", "Ll", "Lt", "Lm", "Lo"), "M": ("Mn", "Mc", "Me"), "N": ("Nd", "Nl", "No")}
SHORT_TEXT = 64  # characters: below this a set lookup per character beats starting a regex
PROPERTY = regex.compile(r"\\([pP])(?:\{(\^?)([A-Za-z_]+)\}|([A-Z]))")
ASTRAL = re.compile("[\U00010000-\U0010ffff]")
# Unicode's White_Space, what \s means to tiktoken's Rust regex and to `regex` (to `re` it also
# holds U+001C..U+001F, so the `re` patterns spell it out)
WHITE_SPACE = [(0x09, 0x0D), (0x20, 0x20), (0x85, 0x85), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
               (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000)]
RE_ESCAPES = frozenset("pPsSrntfx")  # escapes `re` reads as `regex` does (in the patterns we rewrite)


@functools.lru_cache(maxsize=None)
def split_regex(pattern):
    """The compiled `pattern`, splitting as tiktoken's Rust regex does (see the module's doc).

    >>> split_regex(GPT4_SPLIT_PATTERN).findall("a\\U0003F633's")   # a letter only to `regex`
    ['a', "\\U0003f633'", 's']
    """
    return TiktokenSplit(pattern)


class TiktokenSplit:
    """`pattern` compiled once, with findall reading \\p{L}, \\p{N}, \\p{M} as Unicode 16.0.0 does.

    The ways to split, picked per text:
    - ASCII text: the pattern with each class written as its ASCII letters and digits,
      compiled by the standard `re` module (when `re` reads the pattern the same way;
      checked on a probe text);
    - other text: the same with each class's members below U+10000 (`bmp`), after astral
      letters, digits and marks are replaced by stand-ins below U+10000;
    - patterns `re` reads otherwise: the pattern as written in `regex`, and where a text
      holds a code point on which `regex`'s tables and Unicode 16.0.0 disagree, that code
      point replaced by a stand-in of the same Unicode 16.0.0 category on which they agree.
    In both stand-in cases the chunks are cut from the original text at the same places.
    """

    def __init__(self, pattern):
        self.pattern = pattern
        self.fast = regex.compile(pattern)
        self.ascii = _ascii_regex(pattern)

    @functools.cached_property
    def disagree(self):
        """The characters the two tables put in different classes named by the pattern (found
        on the first text that is not ASCII: about 30 ms)."""
        names = {_category(m) for m in PROPERTY.finditer(self.pattern)} - {None}
        return frozenset(map(chr, _disagreement(*names))) if names else frozenset()

    @functools.cached_property
    def _bmp_finder(self):
        """A `re` class of the disagreeing characters below U+10000 (a bitmap: fast)."""
        bmp = sorted(ord(ch) for ch in self.disagree if ord(ch) < 0x10000)
        return re.compile(_ranges_class(bmp)) if bmp else None

    @functools.cached_property
    def _candidates(self):
        """A `re` class holding every disagreeing character: those below U+10000 exactly (a
        bitmap), those above in a few wide ranges (each range a class holds costs a test per
        character), which leave out the emoji blocks and others where none of them lies."""
        points = sorted(map(ord, self.disagree))
        bmp = [(cp, cp) for cp in points if cp < 0x10000]
        astral = _merge([(cp, cp) for cp in points if cp >= 0x10000], gap=0x1000)
        return re.compile(_ranges_class(bmp + astral))

    def holds_disagreeing(self, text):
        """True if `text` holds a character the two tables class differently. Below U+10000 a
        `re` class decides; the few characters above it (emoji, ...) are looked up in a set."""
        if len(text) < SHORT_TEXT:
            return not self.disagree.isdisjoint(text)
        if self._bmp_finder is not None and self._bmp_finder.search(text):
            return True
        return not self.disagree.isdisjoint("".join(self._candidates.findall(text)))

    @functools.cached_property
    def stand_ins(self):
        """code point -> its stand-in (for str.translate), or None: see _stand_ins."""
        return _stand_ins(sorted(map(ord, self.disagree)), self.pattern)

    @functools.cached_property
    def bmp(self):
        """The pattern for non-ASCII text in `re` (see bmp_pattern), or None if `re` reads it
        otherwise than `regex` on a probe text. Compiled on the first such text: 15-50 ms."""
        return _bmp_regex(self.pattern, self.fast)

    def findall(self, text):
        if text.isascii():
            return (self.ascii or self.fast).findall(text)
        if self.bmp is not None:
            return _findall_bmp(self.bmp, text)
        if not self.holds_disagreeing(text):
            return self.fast.findall(text)
        return self._findall_standing_in(text)

    def _findall_standing_in(self, text):
        """Split a copy of `text` with stand-ins, then cut `text` itself at the same places."""
        if self.stand_ins is None:  # the pattern names a disagreeing character itself
            return [text[m.start():m.end()] for m in self.exact.finditer(text)]
        copy = self._candidates.sub(self._stand_in, text)  # quicker than str.translate: they are rare
        return _cut_like(text, copy, self.fast)

    def _stand_in(self, match):
        ch = match.group()
        return chr(self.stand_ins.get(ord(ch), ord(ch)))

    @functools.cached_property
    def exact(self):
        """The pattern with Unicode 16.0.0's ranges spelled out: slow, and needed only when the
        pattern itself holds a character the tables disagree on."""
        return regex.compile(exact_pattern(self.pattern))


def _cut_like(text, copy, compiled):
    """The chunks of `text` where `compiled` splits `copy`, a same-length copy of it (match by
    match: the copy's own chunks would double the memory a streamed part takes)."""
    return [text[match.start():match.end()] for match in compiled.finditer(copy)]


def _findall_bmp(compiled, text):
    """Split non-ASCII text with a bmp_pattern, astral letters, digits and marks stood in for."""
    if not ASTRAL.search(text):
        return compiled.findall(text)
    stand_ins = _astral_stand_ins(frozenset(ASTRAL.findall(text)), compiled.pattern)
    if not stand_ins:  # emoji and the like: in no class, as they should be
        return compiled.findall(text)
    copy = text.translate({ord(ch): stand_in for ch, stand_in in stand_ins.items()})  # no pattern to compile
    return _cut_like(text, copy, compiled)


def _astral_stand_ins(chars, pattern):
    """{astral character: its stand-in below U+10000} for those in a Unicode 16.0.0 L, M or N
    category. The stand-in has the same category, so every class of the pattern holds both or neither."""
    categories = {ch: _category16(ord(ch)) for ch in chars}
    return {ch: chr(_stand_in(category, frozenset(), pattern)) for ch, category in categories.items() if category}


def bmp_pattern(pattern):
    """`pattern` for `re` on text below U+10000: each class written as Unicode 16.0.0's ranges
    there, and \\s as Unicode's White_Space.

    >>> re.findall(bmp_pattern(r"\\p{N}+"), "x ٣٤ Ⅻ")
    ['٣٤', 'Ⅻ']
    """
    return exact_pattern(pattern, lambda name: [(a, min(b, 0xFFFF)) for a, b in _unicode16(name) if a <= 0xFFFF],
                         spell_space=True)


def _bmp_regex(pattern, reference):
    """The `re` compile of bmp_pattern(pattern) if it splits the probe texts as `reference`
    (the pattern in `regex`) does; None for a pattern with escapes or characters it does not
    rewrite, or that `re` reads otherwise."""
    escapes = set(re.findall(r"\\(.)", re.sub(r"\\\\", "", pattern)))
    if (any(e.isalnum() and e not in RE_ESCAPES for e in escapes) or "[:" in pattern
            or ASTRAL.search(pattern) is not None):
        return None
    try:
        compiled = re.compile(bmp_pattern(pattern))
        same = all(_findall_bmp(compiled, probe) == reference.findall(probe) for probe in UNICODE_PROBES)
    except (re.error, ValueError, OverflowError):
        return None
    return compiled if same else None


def exact_pattern(pattern, ranges_of=None, spell_space=False):
    """`pattern` with each \\p{L}, \\p{Lu}, \\p{N}, ... (and \\P{...}) written as Unicode 16.0.0's
    ranges, inside a class or out; other escapes are left as they are, but for \\s and \\S
    when `spell_space` (written as White_Space). `ranges_of(name)` gives the ranges to write
    instead (ascii_pattern's ASCII members, say)."""
    ranges_of = ranges_of or _unicode16
    out, i = [], 0
    class_body = None  # where the body of the class we are in starts, None outside classes
    while i < len(pattern):
        ch = pattern[i]
        found = PROPERTY.match(pattern, i) if ch == "\\" else None
        name = _category(found) if found else None
        if name is not None:
            negated = (found.group(1) == "P") != bool(found.group(2))
            out.append(_class_text(ranges_of(name), negated, inside=class_body is not None))
            i = found.end()
            continue
        if spell_space and ch == "\\" and pattern[i + 1:i + 2] in ("s", "S"):
            negated = pattern[i + 1] == "S"
            out.append(_class_text(WHITE_SPACE, negated, inside=class_body is not None))
            i += 2
            continue
        step = 2 if ch == "\\" else 1
        if ch == "[" and class_body is None:
            class_body = i + 1 + (pattern[i + 1:i + 2] == "^")
        elif ch == "]" and class_body is not None and i > class_body:  # a leading ']' is literal
            class_body = None
        out.append(pattern[i:i + step])
        i += step
    return "".join(out)


def ascii_pattern(pattern):
    """`pattern` for ASCII text only: each \\p{...} written as its ASCII members.

    >>> ascii_pattern(r"\\p{L}+|\\p{N}")
    '[\\U00000041-\\U0000005a\\U00000061-\\U0000007a]+|[\\U00000030-\\U00000039]'
    """
    return exact_pattern(pattern, lambda name: [(a, min(b, 0x7F)) for a, b in _unicode16(name) if a <= 0x7F])


ASCII_PROBE = ("Hello, World! It's 2024: they'LL say 'ok' - e.g. x=1;y=22 (333/4444).\n\n  \tEnd \r\n"
               "don't DON'T I'm we've you're he'd  12345678 abc123def_ghi  \x0b\x0c\x1c\x1f\x00 ~`@#$%^&*[]{}|\\<>?"
               + "".join(map(chr, range(128))) + " A1 a_ 9z ")


def _ascii_regex(pattern):
    """The `re` compile of ascii_pattern(pattern) if `re` reads it as `regex` reads the pattern
    on a probe of every ASCII character in several contexts; else None (use `regex`)."""
    if "[:" in pattern or "\\" + "G" in pattern:  # POSIX classes and \G mean other things to `re`
        return None
    try:
        compiled = re.compile(ascii_pattern(pattern), re.ASCII)
        same = compiled.findall(ASCII_PROBE) == regex.findall(pattern, ASCII_PROBE)
    except (re.error, regex.error, ValueError, OverflowError):
        return None
    return compiled if same else None


UNICODE_PROBES = (
    "Ça va? J'AI dit 'non' — d'accord. ſ's K's İs Ǆa ǅa 𝐀𝐁c 𝟎𝟏2 ½ Ⅻ x² ٣٤ ๓ १२३४ 12345\n",
    "مرحبا بالعالم، كيف حالك؟ שלום עולם! Привет, мир. Γειά σου κόσμε. สวัสดีครับ नमस्ते दुनिया",
    "안녕하세요 세계 你好，世界。日本語のテキスト 𠀀𠀁 x\u0301y e\u0308 ห\u0e31 \u200d\u20dd a\u0300's",
    " \t\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\x85\x1c\x1d\x1e\x1f\x0b\x0c\r\n \n\n a",
    "emoji 😀😃 👩‍💻 🇫🇷 a😀b 1😀2 😀's ❤️ ✓ ™ © ¿Qué? ¡Sí! «oui» „ja“ 「はい」 ...\r\n\r\n  \t x  ",
)


def _category(match):
    """The general category a \\p{...} match names, if this module knows it; else None."""
    name = match.group(3) or match.group(4)
    return name if name in GROUPS or name in _table() else None


def _class_text(ranges, negated, inside):
    if negated:
        ranges = _complement(ranges)
    if not ranges:  # an empty class: written as one that matches nothing
        return "" if inside else "[^\\x00-\\U0010ffff]"
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


def _category16(cp):
    """The Unicode 16.0.0 category of a code point (Lu, Mn, Nd, ...), or None if not L, M or N."""
    starts, rows = _table_rows()
    i = bisect.bisect_right(starts, cp) - 1
    return rows[i][2] if i >= 0 and cp <= rows[i][1] else None


@functools.lru_cache(maxsize=None)
def _table_rows():
    """The table's (first, last, category) rows in order, and their firsts (for bisect)."""
    rows = sorted((first, last, category) for category, ranges in _table().items() for first, last in ranges)
    return [row[0] for row in rows], rows


def _installed_ranges(names):
    """{name: the code point ranges the installed `regex` module gives \\p{name}}, from one
    scan of every code point (surrogates stand as NUL, which no category here holds)."""
    every = _every_code_point()
    return {name: [(m.start(), m.end() - 1) for m in regex.finditer(rf"\p{{{name}}}+", every)] for name in names}


def _every_code_point():
    """U+0000 .. U+10FFFF as one str, surrogates as NUL. Built as UTF-32-LE bytes, a byte
    column at a time (byte k of code point c is (c >> 8k) & 0xFF), then decoded: all in C."""
    count = 0x110000
    utf32 = bytearray(4 * count)
    utf32[0::4] = bytes(range(256)) * (count // 256)
    utf32[1::4] = b"".join(bytes([b]) * 256 for b in range(256)) * (count // 65536)
    utf32[2::4] = b"".join(bytes([plane]) * 65536 for plane in range(count // 65536))
    utf32[4 * 0xD800:4 * 0xE000] = bytes(4 * 0x800)
    return utf32.decode("utf-32-le")


_DISAGREEMENTS = {}  # name -> frozenset of code points, filled by _disagreement


def _disagreement(name, *more):
    """The code points that are in \\p{name} (or any of `more`) for one table and not the other."""
    names = (name, *more)
    missing = [n for n in names if n not in _DISAGREEMENTS]
    if missing:
        for n, ranges in _installed_ranges(missing).items():
            _DISAGREEMENTS[n] = frozenset(_points(_symmetric_difference(ranges, _unicode16(n))))
    return frozenset().union(*(_DISAGREEMENTS[n] for n in names))


def _symmetric_difference(a, b):
    """The ranges covered by exactly one of two sorted, merged range lists."""
    cuts = sorted({p for first, last in a + b for p in (first, last + 1)})
    out = []
    for start, stop in zip(cuts, cuts[1:]):
        if _covers(a, start) != _covers(b, start):
            out.append((start, stop - 1))
    return _merge(out)


def _covers(ranges, cp):
    i = bisect.bisect_right(ranges, (cp, 0x110000)) - 1
    return i >= 0 and ranges[i][0] <= cp <= ranges[i][1]


def _stand_ins(points, pattern):
    """{code point: stand-in} for str.translate, or None if the pattern itself names one of
    `points` (then only the slow exact pattern will do).

    A stand-in has the code point's Unicode 16.0.0 category (Lu, Mn, Nd, ...) in both tables;
    for a code point outside L, M and N it is an unassigned one. It never appears in the pattern.
    """
    if any(chr(cp) in pattern for cp in points):
        return None
    disagree = frozenset(points)
    categories = {cp: _category16(cp) for cp in points}
    chosen = {category: _stand_in(category, disagree, pattern) for category in set(categories.values())}
    return {cp: chosen[category] for cp, category in categories.items()}


@functools.lru_cache(maxsize=None)
def _stand_in(category, disagree, pattern):
    """The first code point from U+0100 on, not in `disagree`, whose category is `category` in
    both tables (or that is unassigned in both, for None), that is not whitespace and not in the
    pattern, in any case. Every L, M and N category has such a code point below U+10000, so
    there the stand-in of an astral letter, mark or digit is found (what _findall_bmp needs)."""
    wanted = regex.compile(rf"\p{{{category or 'Cn'}}}")
    for cp in range(0x100, 0x110000):
        ch = chr(cp)
        if (cp in disagree or not wanted.fullmatch(ch) or _category16(cp) != category or ch.isspace()
                or any(c in pattern for c in {ch, ch.lower(), ch.upper(), ch.casefold()})):
            continue
        return cp
    raise ValueError(f"no stand-in character found for category {category}")


def _points(ranges):
    return {cp for first, last in ranges for cp in range(first, last + 1)}


def _merge(ranges, gap=1):
    """[(1, 3), (4, 6), (9, 9)] -> [(1, 6), (9, 9)]; with gap=k, ranges less than k apart join."""
    merged = []
    for first, last in ranges:
        if merged and first <= merged[-1][1] + gap:
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
