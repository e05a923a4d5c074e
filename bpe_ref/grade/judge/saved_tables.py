"""The files a CS336 `Tokenizer.from_files(vocab_filepath, merges_filepath)` may read. The handout
leaves the format to the learner ("the same format that your BPE training code output"), so the
grader writes one vocab {id: bytes} and merges [(bytes, bytes)] in each format learners use (the
vocab in one, the merges in another, too), and keeps the first pair of formats under which the
loaded tokenizer encodes as the one made from the tables.
"""

import itertools
import json
import pickle

from ...formats.gpt2_files import VERSION_LINE, show_bytes


def escaped(token):
    """Printable ASCII as itself, every other byte (space and backslash too) as \\xNN: what
    `text.encode().decode('unicode_escape').encode('latin-1')` reads back."""
    return "".join(chr(b) if 33 <= b < 127 and b != 92 else f"\\x{b:02x}" for b in token)


def json_bytes(value):
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def lines(merges, show, first=()):
    return "".join(f"{line}\n" for line in [*first, *(f"{show(a)} {show(b)}" for a, b in merges)]).encode("utf-8")


VOCABS = {  # name: (in words, vocab {id: bytes} -> (file name, bytes))
    "pickle": ("a pickle", lambda v: ("vocab.pkl", pickle.dumps(v))),
    "gpt2": ("JSON of token in GPT-2's characters -> id",
             lambda v: ("vocab.json", json_bytes({show_bytes(t): i for i, t in v.items()}))),
    "gpt2_by_id": ("JSON of id -> token in GPT-2's characters",
                   lambda v: ("vocab.json", json_bytes({str(i): show_bytes(t) for i, t in v.items()}))),
    "lists": ("JSON of id -> byte values", lambda v: ("vocab.json", json_bytes({str(i): list(t) for i, t in v.items()}))),
    "hex": ("JSON of id -> hex", lambda v: ("vocab.json", json_bytes({str(i): t.hex() for i, t in v.items()}))),
    "latin1": ("JSON of id -> latin-1 text",
               lambda v: ("vocab.json", json_bytes({str(i): t.decode("latin-1") for i, t in v.items()}))),
    "escaped": ("JSON of id -> \\xNN-escaped text", lambda v: ("vocab.json", json_bytes({str(i): escaped(t) for i, t in v.items()}))),
    "repr": ("lines of an id and a bytes literal", lambda v: ("vocab.txt", "".join(f"{i}: {t!r}\n" for i, t in v.items()).encode("ascii"))),
    "tuples": ("lines of (id, bytes literal) tuples",
               lambda v: ("vocab.txt", "".join(f"{(i, t)!r}\n" for i, t in v.items()).encode("ascii"))),
}

MERGES = {  # name: (in words, merges [(bytes, bytes)] -> (file name, bytes))
    "pickle": ("a pickle", lambda m: ("merges.pkl", pickle.dumps(m))),
    "gpt2": ("'left right' lines in GPT-2's characters", lambda m: ("merges.txt", lines(m, show_bytes))),
    "gpt2_version": ("the same under GPT-2's '#version' line",
                     lambda m: ("merges.txt", lines(m, show_bytes, [VERSION_LINE]))),
    "lists": ("JSON of [byte values, byte values]", lambda m: ("merges.json", json_bytes([[list(a), list(b)] for a, b in m]))),
    "hex": ("'hex hex' lines", lambda m: ("merges.txt", lines(m, bytes.hex))),
    "latin1": ("JSON of [latin-1 text, latin-1 text]",
               lambda m: ("merges.json", json_bytes([[a.decode("latin-1"), b.decode("latin-1")] for a, b in m]))),
    "escaped": ("\\xNN-escaped 'left right' lines", lambda m: ("merges.txt", lines(m, escaped))),
    "repr": ("lines of two bytes literals", lambda m: ("merges.txt", lines(m, repr))),
    "hex_json": ("JSON of [hex, hex]", lambda m: ("merges.json", json_bytes([[a.hex(), b.hex()] for a, b in m]))),
    "tuples": ("lines of (bytes literal, bytes literal) tuples",
               lambda m: ("merges.txt", "".join(f"{(a, b)!r}\n" for a, b in m).encode("ascii"))),
}


def pairs_of_formats():
    """(vocab format, merges format) in the order tried: the two of one kind first, then the rest."""
    alike = [(v, m) for v in VOCABS for m in MERGES if m.split("_")[0] == v.split("_")[0]]
    return alike + [pair for pair in itertools.product(VOCABS, MERGES) if pair not in alike]


def written(fmt, vocab, merges):
    """The two files, [(name, bytes), (name, bytes)], of the tables in `fmt` (a pair of names)."""
    return [VOCABS[fmt[0]][1](vocab), MERGES[fmt[1]][1](merges)]


def in_words(fmt):
    return f"vocab as {VOCABS[fmt[0]][0]}, merges as {MERGES[fmt[1]][0]}"


TRIED = "vocab as " + ", ".join(w for w, _ in VOCABS.values()) + "; merges as " + \
        ", ".join(w for w, _ in MERGES.values())
