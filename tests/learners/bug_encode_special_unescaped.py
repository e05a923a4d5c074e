"""BUG in encode_special: the special tokens go into the split pattern unescaped, so the '|' inside
'<|endoftext|>' means "or" and the text is cut at every '<' and '>'. (encode_ordinary is right.)

expect: encode_ordinary pass, encode_special fail
cause: encode_special unescaped
shows: encode_special regex.escape(token)
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
    allowed = set(special_tokens) if allowed_special == "all" else set(allowed_special)
    for token in special_tokens:
        if token not in allowed and token in text:
            raise ValueError(f"special token {token!r} is not allowed here")
    if not allowed:
        return encode_ordinary(text, merges, pattern)
    splitter = "(" + "|".join(sorted(allowed)) + ")"  # the bug: regex.escape(token) for each
    ids = []
    for piece in regex.split(splitter, text):
        if piece in allowed:
            ids.append(special_tokens[piece])
        elif piece:
            ids += encode_ordinary(piece, merges, pattern)
    return ids
