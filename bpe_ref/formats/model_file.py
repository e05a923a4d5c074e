"""Tokenizer files: the course's `.model` format (v2, and v1 read), minbpe's, and `.vocab`.

A `.model` file is UTF-8 text, one field per line, so a learner can read it:

    bpe-course tokenizer v2
    kind RegexTokenizer
    pattern "<the split pattern as JSON, or null>"
    special_tokens 1
    "<|endoftext|>" 1024
    byte_shuffle identity          (or the 256 ids of the byte tokens)
    extra_tokens 0                 (then "<id> <hex bytes>" per token)
    merges 768
    101 32 256                     (left id, right id, new id; best first)

v2 ranks merges by their place in the file, so ids may follow any layout (GPT-2's, Hugging
Face's); v1 ranked them by the id they make and had no extra tokens. minbpe writes
"minbpe v1": the pattern, the special tokens, then one merge per line, making ids 256, 257, ...
"""

import json
from typing import NamedTuple

from ..core.base import IDENTITY_BYTES

FORMAT_HEADER = "bpe-course tokenizer v2"
FORMAT_V1 = "bpe-course tokenizer v1"
MINBPE_HEADER = "minbpe v1"


class Model(NamedTuple):
    """What a model file holds."""

    pattern: object  # str or None
    special_tokens: dict  # str -> id
    byte_shuffle: list  # byte value -> id
    extra_tokens: dict  # id -> bytes
    merges: dict  # (id, id) -> id, best first


def write_model(tok, prefix):
    """Write `prefix.model` (for load) and `prefix.vocab` (for people); return the .model path."""
    lines = [FORMAT_HEADER, f"kind {type(tok).__name__}", f"pattern {json.dumps(tok.pattern)}"]
    lines.append(f"special_tokens {len(tok.special_tokens)}")
    lines += [f"{json.dumps(t)} {i}" for t, i in tok.special_tokens.items()]
    if tok.byte_shuffle == IDENTITY_BYTES:
        lines.append("byte_shuffle identity")
    else:
        lines.append("byte_shuffle " + " ".join(map(str, tok.byte_shuffle)))
    lines.append(f"extra_tokens {len(tok.extra_tokens)}")
    lines += [f"{idx} {token.hex()}" for idx, token in tok.extra_tokens.items()]
    lines.append(f"merges {len(tok.merges)}")
    lines += [f"{p0} {p1} {idx}" for (p0, p1), idx in tok.merges.items()]
    with open(f"{prefix}.model", "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    with open(f"{prefix}.vocab", "w", encoding="utf-8") as f:
        f.write(vocab_listing(tok.vocab, tok.merges))
    return f"{prefix}.model"


def load_model(tok, path):
    """Fill `tok` from a .model file (see read_model) and return it: Tokenizer.load's work."""
    model = read_model(path)
    if model.pattern is not None and type(tok).pattern is None:
        raise ValueError(f"{path} was saved with a split pattern; load it with RegexTokenizer")
    tok.pattern = model.pattern
    tok.special_tokens = model.special_tokens
    tok._set_merges(model.merges, model.byte_shuffle, model.extra_tokens)
    return tok


def read_model(path):
    """Read a .model file written by bpe_ref (v1 or v2) or by minbpe; a Model."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    header = lines[0] if lines else ""
    if header == MINBPE_HEADER:
        return _read_minbpe(lines, path)
    if header in (FORMAT_HEADER, FORMAT_V1):
        return _read_course(lines, header == FORMAT_V1)
    if header.startswith("bpe-course tokenizer"):
        raise ValueError(f"{path} has format {header!r}; this version reads {FORMAT_HEADER!r} and {FORMAT_V1!r}")
    raise ValueError(
        f"{path} is not a bpe-course tokenizer file (it should start with {FORMAT_HEADER!r}) "
        f"nor a minbpe one ({MINBPE_HEADER!r})"
    )


def _read_course(lines, v1):
    rows = iter(lines[1:])
    next(rows)  # kind: informational
    pattern = json.loads(_field(next(rows), "pattern"))
    specials = {}
    for _ in range(int(_field(next(rows), "special_tokens"))):
        token, idx = next(rows).rsplit(" ", 1)
        specials[json.loads(token)] = int(idx)
    shuffle = _field(next(rows), "byte_shuffle")
    byte_shuffle = IDENTITY_BYTES if shuffle == "identity" else [int(x) for x in shuffle.split()]
    extras = {}
    if not v1:
        for _ in range(int(_field(next(rows), "extra_tokens"))):
            idx, token = next(rows).split(" ", 1)
            extras[int(idx)] = bytes.fromhex(token)
    merges = []
    for _ in range(int(_field(next(rows), "merges"))):
        p0, p1, idx = map(int, next(rows).split())
        merges.append(((p0, p1), idx))
    if v1:
        merges.sort(key=lambda merge: merge[1])  # v1 ranked a merge by the id it makes
    return Model(pattern, specials, list(byte_shuffle), extras, dict(merges))


def _read_minbpe(lines, path):
    """minbpe's format: pattern line, count, 'token id' lines, then 'left right' per merge."""
    pattern = lines[1].strip() if len(lines) > 1 else ""  # minbpe strips it too; "" means no split
    try:
        count = int(lines[2])
        specials = {}
        for line in lines[3:3 + count]:
            token, idx = line.rsplit(" ", 1)
            specials[token] = int(idx)
        merges = {}
        for idx, line in enumerate(lines[3 + count:], start=256):
            if line.strip():
                p0, p1 = map(int, line.split())
                merges[(p0, p1)] = idx
    except (IndexError, ValueError):
        raise ValueError(f"{path} starts like a minbpe model but a line after it is not in minbpe's format") from None
    return Model(pattern or None, specials, list(IDENTITY_BYTES), {}, merges)


def _field(line, name):
    key, _, value = line.partition(" ")
    if key != name:
        raise ValueError(f"tokenizer file: expected a {name!r} line, found {line[:60]!r}")
    return value


def vocab_listing(vocab, merges):
    """The readable `.vocab`: one token per line, merged tokens shown with their two parts."""
    children = {idx: pair for pair, idx in merges.items()}
    rows = []
    for idx, token in sorted(vocab.items()):
        if idx in children:
            p0, p1 = children[idx]
            rows.append(f"[{render_token(vocab[p0])}][{render_token(vocab[p1])}] -> [{render_token(token)}] {idx}")
        else:
            rows.append(f"[{render_token(token)}] {idx}")
    return "\n".join(rows) + "\n"


def render_token(token):
    """Show a token's bytes readably: invalid UTF-8 as U+FFFD, control characters escaped."""
    text = token.decode("utf-8", errors="replace")
    return "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in text)
