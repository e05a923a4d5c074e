"""Split a text that arrives in pieces exactly as `regex.findall` splits the whole of it.

A corpus too big to hold (a file, a stream of documents) arrives in pieces, and a chunk of
the split pattern may straddle two pieces. This module cuts the text only at *safe cuts*:
positions where, under GPT-2's, GPT-4's and o200k's patterns, no chunk crosses and the
chunks on one side do not depend on the text on the other side. So splitting the parts
on their own gives exactly the chunks of the whole text, and parts can go to other cores.

A safe cut is a position i (0 < i < len(text)) with
- a letter or digit before it and whitespace after it: 'word| next', '42|\\n';
- a letter before it and a digit after it, or a digit before and a letter after: 'abc|123';
- a newline before it, not after other whitespace, and a letter after it: 'end.\\n|Next'.

Why these are safe. No alternative of the three patterns takes a letter or digit and then
whitespace, or a letter and a digit, into one chunk, so a chunk ends at i. Each pattern
tries only character classes at i after such a chunk (letters, digits, an apostrophe),
and whitespace or a digit fails them as the end of the text does; so the chunks before i
come out the same when the text stops at i. Chunks after i start at i and never look
back. A lone newline before a letter is a chunk of its own or ends a punctuation chunk,
whether the text goes on or not. The tests check every cut of random texts for all three.

Special tokens cut the text before any pattern does: a special token never shares a
chunk, so the text between two of them is split on its own (as CS336 and Hugging Face do).
"""

import functools

import regex

from .patterns import GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, O200K_SPLIT_PATTERN
from .unicode_classes import _disagreement, _ranges_class, split_regex

CUTTABLE_PATTERNS = frozenset({GPT2_SPLIT_PATTERN, GPT4_SPLIT_PATTERN, O200K_SPLIT_PATTERN})
PART_SIZE = 1 << 16  # characters: iter_parts' default size of an ordinary part

_CUT = (
    r"(?<={sure}[\p{{L}}\p{{N}}])(?=\s)"
    r"|(?<={sure}\p{{L}})(?={sure}\p{{N}})|(?<={sure}\p{{N}})(?={sure}\p{{L}})"
    r"|(?<=[^\s]\n)(?={sure}\p{{L}})"
)


@functools.lru_cache(maxsize=None)
def _cut_regex(reverse=False):
    """The safe cuts, compiled on first use. A letter or digit counts only if it is one in
    tiktoken's Unicode 16.0.0 and in the `regex` module's tables alike (`sure`): near a code
    point on which they disagree a cut may be missed, never made wrongly."""
    disagree = sorted(_disagreement("L", "N"))
    sure = f"(?!{_ranges_class(disagree)})" if disagree else ""
    return regex.compile(_CUT.format(sure=sure), regex.REVERSE if reverse else 0)


def can_cut(pattern):
    """True if safe cuts hold for `pattern` (GPT-2's, GPT-4's or o200k's split).

    Any other pattern is only cut at special tokens; pattern None (no split) is never cut.
    """
    return pattern in CUTTABLE_PATTERNS


def find_cut(text, start=0):
    """The first safe cut at or after `start`, or -1 if there is none.

    >>> find_cut("Hello world", 1)
    5
    """
    found = _cut_regex().search(text, max(start, 1))
    return -1 if found is None else found.start()


def rfind_cut(text, start=0, end=None):
    """The last safe cut i with start < i < end, or -1 if there is none.

    As in find_cut, the text before `start` still counts as the text before a cut.

    >>> rfind_cut("Hello big world")
    9
    """
    end = len(text) if end is None else end
    found = _cut_regex(reverse=True).search(text, start, end)
    if found is None or found.start() == start:
        return -1
    return found.start()


def split_at_cuts(text, part_size=PART_SIZE, start=0, end=None):
    """Yield text[start:end] cut at safe cuts into parts of at least `part_size` characters
    (the last may be shorter; a text without safe cuts comes out whole).

    >>> list(split_at_cuts("one two three", part_size=4))
    ['one two', ' three']
    """
    end = len(text) if end is None else end
    while end - start >= 2 * part_size:
        found = _cut_regex().search(text, start + part_size, end)
        if found is None:
            break
        yield text[start:found.start()]
        start = found.start()
    if start < end:
        yield text[start:end]


def special_token_regex(tokens):
    """A regex matching any of `tokens`, longest first, captured as a group."""
    ordered = sorted(tokens, key=len, reverse=True)
    return regex.compile("(" + "|".join(regex.escape(t) for t in ordered) + ")")


def iter_parts(pieces, pattern=None, special_tokens=None, part_size=PART_SIZE):
    """The text that `pieces` join to, as parts that each split on their own like the whole.

    `pieces` is a str or an iterable of str. Each special token comes out alone, as itself.
    The ordinary text between them comes out in parts of about `part_size` characters or
    more, cut only at safe cuts, so `regex.findall(pattern, part)` over the parts gives
    the chunks of the whole (see can_cut for the patterns that are cut at all). No part is
    empty, and an ordinary part never equals a special token: it contains none. It holds
    back about `part_size` characters plus the longest stretch with no place to cut.

    >>> list(iter_parts(["Hello wor", "ld<|endoftext|>Bye"], GPT4_SPLIT_PATTERN,
    ...                 ["<|endoftext|>"], part_size=1))
    ['Hello', ' world', '<|endoftext|>', 'Bye']
    """
    if isinstance(pieces, (bytes, bytearray)):
        raise TypeError("the text must be str, got bytes: decode it first, e.g. data.decode('utf-8')")
    splitter = _PartSplitter(pattern, special_tokens, part_size)
    pending, pending_len = [], 0
    for piece in ([pieces] if isinstance(pieces, str) else pieces):
        if not isinstance(piece, str):
            raise TypeError(
                f"the text must come as str pieces, got {type(piece).__name__}; "
                "decode bytes first (open files in text mode with encoding='utf-8')"
            )
        pending.append(piece)
        pending_len += len(piece)
        # wait for as much new text as is held back, so each character is scanned a bounded
        # number of times even when no cut turns up for a long stretch
        if pending_len >= max(part_size, len(splitter.rest)):
            yield from splitter.feed("".join(pending), final=False)
            pending, pending_len = [], 0
    yield from splitter.feed("".join(pending), final=True)


def iter_chunks(pieces, pattern=None, special_tokens=None, part_size=PART_SIZE):
    """The chunks of the text that `pieces` join to: `regex.findall(pattern, text)` on each
    stretch between special tokens, which come out alone, as themselves.

    With pattern None the text between special tokens is one chunk. Text is held back until
    `part_size` characters have arrived (see iter_parts).

    >>> list(iter_chunks(["Hello wor", "ld!"], GPT4_SPLIT_PATTERN))
    ['Hello', ' world', '!']
    """
    specials = frozenset(special_tokens or ())
    compiled = split_regex(pattern) if pattern else None
    for part in iter_parts(pieces, pattern, special_tokens, part_size):
        if part in specials or compiled is None:
            yield part
        else:
            yield from compiled.findall(part)


class _PartSplitter:
    """iter_parts' state: the text held back (`rest`) until more arrives."""

    def __init__(self, pattern, special_tokens, part_size):
        if not isinstance(part_size, int) or part_size < 1:
            raise ValueError(f"part_size must be a positive int, got {part_size!r}")
        specials = list(special_tokens or ())
        for token in specials:
            if not isinstance(token, str) or not token:
                raise ValueError(f"a special token must be a non-empty str, got {token!r}")
        self.specials = special_token_regex(specials) if specials else None
        # a special token that starts this close to the end may not have fully arrived
        self.hold = max(map(len, specials), default=1) - 1
        self.cuttable = can_cut(pattern)
        self.part_size = part_size
        self.rest = ""

    def feed(self, text, final):
        """Yield the parts of rest + text that are settled; keep the others in rest."""
        buf = self.rest + text
        self.rest = ""
        limit = len(buf) if final else max(len(buf) - self.hold, 0)
        pos = 0
        if self.specials is not None:
            for found in self.specials.finditer(buf):
                if found.start() >= limit:
                    break  # a longer special token may still start here
                yield from self._ordinary(buf, pos, found.start())
                yield found.group()
                pos = found.end()
        if final:
            yield from self._ordinary(buf, pos, len(buf))
            return
        cut = rfind_cut(buf, pos, limit) if self.cuttable else -1
        if cut == -1:
            self.rest = buf[pos:]
        else:
            yield from self._ordinary(buf, pos, cut)
            self.rest = buf[cut:]

    def _ordinary(self, buf, start, end):
        """The ordinary text buf[start:end], in parts."""
        if self.cuttable:
            yield from split_at_cuts(buf, self.part_size, start, end)
        elif start < end:
            yield buf[start:end]
