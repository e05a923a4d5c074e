"""BUG in encode_special: only the '|' of each special token is escaped before the tokens are joined
into a pattern, as if every special token looked like <|...|>. '[SEP]' then is a character class
and '(x)' a group. (split_text is right.)

expect: split_text pass, encode_special fail
cause: encode_special escapes_only_pipe
"""

import regex


def split_text(text, pattern):
    return regex.findall(pattern, text)


def _bytes_to_ids(piece, merges):
    ids = list(piece.encode("utf-8"))
    while len(ids) > 1:
        pairs = set(zip(ids, ids[1:])) & merges.keys()
        if not pairs:
            return ids
        best = min(pairs, key=lambda p: merges[p])
        out, k = [], 0
        while k < len(ids):
            if tuple(ids[k:k + 2]) == best:
                out.append(merges[best])
                k += 2
            else:
                out.append(ids[k])
                k += 1
        ids = out
    return ids


def encode_special(text, merges, pattern, special_tokens, allowed_special):
    allowed = set(special_tokens) if allowed_special == "all" else set(allowed_special)
    for token in special_tokens:
        if token in text and token not in allowed:
            raise ValueError(f"special token {token} is not allowed")
    if not allowed:
        return [i for chunk in split_text(text, pattern) for i in _bytes_to_ids(chunk, merges)]
    joined = "|".join(token.replace("|", r"\|") for token in sorted(allowed))
    ids = []
    for part in regex.split(f"({joined})", text):
        if part in allowed:
            ids.append(special_tokens[part])
        elif part:
            ids += [i for chunk in split_text(part, pattern) for i in _bytes_to_ids(chunk, merges)]
    return ids
