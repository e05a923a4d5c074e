"""BUG in encode_special: special-token text that is not allowed is encoded as ordinary text
instead of raising ValueError. (encode_ordinary is right.)

expect: encode_ordinary pass, encode_special fail
cause: encode_special no_raise
shows: encode_special raise ValueError
"""

import regex


def encode_chunk(ids, merges):
    while len(ids) > 1:
        known = [p for p in zip(ids, ids[1:]) if p in merges]
        if not known:
            break
        pair = min(known, key=merges.get)
        out, i = [], 0
        while i < len(ids):
            if ids[i:i + 2] == list(pair):
                out.append(merges[pair])
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return ids


def encode_ordinary(text, merges, pattern):
    ids = []
    for chunk in regex.findall(pattern, text):
        ids += encode_chunk(list(chunk.encode("utf-8")), merges)
    return ids


def encode_special(text, merges, pattern, special_tokens, allowed_special):
    allowed = list(special_tokens) if allowed_special == "all" else list(allowed_special)
    if not allowed:
        return encode_ordinary(text, merges, pattern)
    splitter = "(" + "|".join(regex.escape(token) for token in allowed) + ")"
    ids = []
    for part in regex.split(splitter, text):
        if part in allowed:
            ids.append(special_tokens[part])
        else:
            ids += encode_ordinary(part, merges, pattern)
    return ids
