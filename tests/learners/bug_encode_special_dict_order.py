"""BUG in encode_special: joins the special tokens into the pattern in the order the dict lists
them, so where one token is a prefix of another ('<|end|>' and '<|end|><|end|>') the shorter one
wins. (encode_ordinary is right; the tokens are escaped.)

expect: encode_ordinary pass, encode_special fail
cause: encode_special not_longest_first
shows: encode_special longest first
"""

import regex


def encode_ordinary(text, merges, pattern):
    ids = []
    for chunk in regex.findall(pattern, text):
        chunk_ids = list(chunk.encode("utf-8"))
        while len(chunk_ids) >= 2:
            pair = min(zip(chunk_ids, chunk_ids[1:]), key=lambda p: merges.get(p, float("inf")))
            if pair not in merges:
                break
            out, i = [], 0
            while i < len(chunk_ids):
                if i + 1 < len(chunk_ids) and (chunk_ids[i], chunk_ids[i + 1]) == pair:
                    out.append(merges[pair])
                    i += 2
                else:
                    out.append(chunk_ids[i])
                    i += 1
            chunk_ids = out
        ids += chunk_ids
    return ids


def encode_special(text, merges, pattern, special_tokens, allowed_special):
    allowed = list(special_tokens) if allowed_special == "all" else [t for t in special_tokens if t in allowed_special]
    for token in special_tokens:
        if token not in allowed and token in text:
            raise ValueError(f"special token {token!r} is not allowed here")
    if not allowed:
        return encode_ordinary(text, merges, pattern)
    splitter = "(" + "|".join(regex.escape(t) for t in allowed) + ")"
    ids = []
    for piece in regex.split(splitter, text):
        if piece in special_tokens and piece in allowed:
            ids.append(special_tokens[piece])
        elif piece:
            ids += encode_ordinary(piece, merges, pattern)
    return ids
