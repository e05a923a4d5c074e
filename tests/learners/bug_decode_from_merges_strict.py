"""BUG in decode: it rebuilds each id's bytes from the merges it is given (its second
parameter is named `tokens`, not merges), then decodes without errors="replace".
Graded in its own terms: handed the merges, it spells ids right, and fails on half a character.

expect: decode error
cause: decode strict
shows: decode errors='replace'
"""


def decode(ids, tokens):
    parts = {idx: pair for pair, idx in tokens.items()}
    out = []
    for idx in ids:
        out += parts.get(idx, (idx,))
    if len(out) == len(ids):
        return bytes(out).decode("utf-8")
    return decode(out, tokens)
