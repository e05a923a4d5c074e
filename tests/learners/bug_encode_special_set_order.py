"""BUG in encode_special: the allowed tokens are kept in a set and joined in the set's order, which
follows the hash seed, not their lengths. Where one special token is the start of another, the
shorter can be tried first and win: a verdict that would change from run to run if the grader did
not fix the seed (it picks one under which the shortest comes first). (split_text is right.)

expect: split_text pass, encode_special fail
cause: encode_special not_longest_first
"""

import regex


def split_text(text, pattern):
    return regex.findall(pattern, text)


def _encode_chunk(chunk, merges):
    ids = list(chunk.encode("utf-8"))
    while len(ids) > 1:
        ranked = [(merges[p], i) for i, p in enumerate(zip(ids, ids[1:])) if p in merges]
        if not ranked:
            break
        rank, _ = min(ranked)
        pair = next(p for p in zip(ids, ids[1:]) if merges.get(p) == rank)
        out, k = [], 0
        while k < len(ids):
            if k + 1 < len(ids) and (ids[k], ids[k + 1]) == pair:
                out.append(rank)
                k += 2
            else:
                out.append(ids[k])
                k += 1
        ids = out
    return ids


def _ordinary(text, merges, pattern):
    return [i for chunk in split_text(text, pattern) for i in _encode_chunk(chunk, merges)]


def encode_special(text, merges, pattern, special_tokens, allowed_special):
    allowed = set(special_tokens) if allowed_special == "all" else set(allowed_special)
    for token in special_tokens:
        if token in text and token not in allowed:
            raise ValueError(f"{token!r} is a special token that is not allowed here")
    if not allowed:
        return _ordinary(text, merges, pattern)
    ids = []
    for part in regex.split("(" + "|".join(regex.escape(t) for t in allowed) + ")", text):
        if part in allowed:
            ids.append(special_tokens[part])
        elif part:
            ids += _ordinary(part, merges, pattern)
    return ids
