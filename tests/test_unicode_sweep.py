"""Every code point, for gpt2, cl100k_base and o200k_base: bpe_ref encodes it as tiktoken does.

Two items per code point c: c alone, and "a" c "a" c "'s": c between letters, then c before
"'s", which shows how the split classes c: after a letter, number, mark or space "'s" is a
chunk (a token of its own), after punctuation "'" joins c's chunk. The `regex` module's
Unicode is newer than tiktoken's; without bpe_ref.unicode_classes some 17,500 code points
fail the second item.

Batched. Alone, each code point is a text of its own, and blocks of them go through one call of
encode_ordinary_many (tiktoken's own batch call hands each text to a thread: slower here).
Between letters, the items are joined by "\\n" into blocks of 4,096, and a block that differs
is searched item by item to name the code points.
"""

import functools

import pytest
import regex

from bpe_ref import from_tiktoken, get_encoding
from bpe_ref.unicode_classes import UNICODE_VERSION, _disagreement, split_regex

NAMES = ["gpt2", "cl100k_base", "o200k_base"]
CONTEXTS = {"alone": "{0}", "between letters": "a{0}a{0}'s"}
BLOCK = 4096
EVERY_CODE_POINT = range(0x110000)


@functools.lru_cache(maxsize=None)
def reference(name):
    return from_tiktoken(name)


def blocks(context, code_points):
    """(code points, block text) per block of items in `context`, joined by newlines."""
    for start in range(0, len(code_points), BLOCK):
        points = code_points[start:start + BLOCK]
        yield points, "\n".join(CONTEXTS[context].format(chr(cp)) for cp in points)


def differing_alone(tok, enc, code_points):
    """The code points that tok and tiktoken encode differently, each as a text of its own."""
    found = []
    for start in range(0, len(code_points), 16 * BLOCK):
        points = code_points[start:start + 16 * BLOCK]
        texts = [chr(cp) for cp in points]
        ours, theirs = tok.encode_ordinary_many(texts), [enc.encode_ordinary(text) for text in texts]
        found += [cp for cp, a, b in zip(points, ours, theirs) if a != b]
    return found


def differing(tok, enc, context, code_points=EVERY_CODE_POINT):
    """The code points whose item in `context` tok and tiktoken encode differently."""
    if context == "alone":
        return differing_alone(tok, enc, code_points)
    rules = {"disallowed_special": ()}
    batch = list(blocks(context, code_points))
    ours = tok.encode_batch([text for _, text in batch], **rules)
    found = []
    for (points, text), ids in zip(batch, ours):
        if ids != enc.encode(text, **rules):
            found += [cp for cp in points if tok.encode(CONTEXTS[context].format(chr(cp)), **rules)
                      != enc.encode(CONTEXTS[context].format(chr(cp)), **rules)]
    return found


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("name", NAMES)
def test_every_code_point_encodes_as_in_tiktoken(name, context):
    found = differing(reference(name), get_encoding(name), context)
    assert not found, f"{name}, {context}: {len(found)} code points differ, e.g. {[hex(c) for c in found[:20]]}"


def test_the_sweep_sees_the_unicode_difference():
    """With the `regex` module's own tables the second items of the disagreeing code points
    differ from tiktoken: the sweep above would catch a wrong table."""
    disagree = sorted(_disagreement("L") | _disagreement("N"))
    if not disagree:
        pytest.skip(f"this `regex` module's letters and numbers are Unicode {UNICODE_VERSION}'s")
    tok, enc = from_tiktoken("cl100k_base"), get_encoding("cl100k_base")
    tok._compiled = regex.compile(tok.pattern)  # as written, with the `regex` module's tables
    assert set(differing(tok, enc, "between letters", disagree)) == set(disagree)


def test_known_code_points():
    split = split_regex(get_encoding("cl100k_base")._pat_str).findall
    assert split("a\U00011F04's") == ["a\U00011F04", "'s"]  # Kawi letter, Unicode 15: a letter
    assert split("a\U00016D43's") == ["a\U00016D43", "'s"]  # Kirat Rai letter, Unicode 16
    assert split("a\U000323B0's") == ["a", "\U000323B0'", "s"]  # CJK Extension J, Unicode 17: not yet
