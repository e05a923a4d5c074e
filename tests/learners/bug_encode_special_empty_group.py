"""BUG in encode_special: with nothing allowed (the default) the split pattern is '()', which
matches between every two characters, so each character is encoded alone and no merge ever
applies. (encode_ordinary is right; the tokens are escaped and tried longest first.)

expect: encode_ordinary pass, encode_special fail
cause: encode_special empty_group
shows: encode_special '()'
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
    ordered = sorted(allowed, key=len, reverse=True)
    splitter = "(" + "|".join(regex.escape(t) for t in ordered) + ")"
    ids = []
    for piece in regex.split(splitter, text):
        if piece in allowed:
            ids.append(special_tokens[piece])
        elif piece:
            ids += encode_ordinary(piece, merges, pattern)
    return ids
