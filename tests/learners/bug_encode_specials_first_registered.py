"""A tutorial's encode(text, merges, special_tokens) with GPT-2's split of its own: right on
ordinary text, but it looks for the special tokens in the order they were given, not longest
first, so an overlapping shorter token given first wins.

expect: encode pass, encode:special_tokens fail
cause: encode:special_tokens not_longest_first
shows: encode:special_tokens graded as the course's encode_special (workbook 08_special_tokens): encode(text, merges, special_tokens {token: id})
"""
import regex

GPT2_SPLIT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def encode_chunk(data, merges):
    ids = list(data)
    while len(ids) >= 2:
        pairs = set(zip(ids, ids[1:]))
        pair = min(pairs, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(merges[pair])
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return ids


def encode(text, merges, special_tokens=None):
    special_tokens = special_tokens or {}
    pieces = [text]
    if special_tokens:
        alternatives = "|".join(regex.escape(token) for token in special_tokens)
        pieces = regex.split(f"({alternatives})", text)
    ids = []
    for piece in pieces:
        if piece in special_tokens:
            ids.append(special_tokens[piece])
        else:
            for chunk in regex.findall(GPT2_SPLIT, piece):
                ids += encode_chunk(chunk.encode("utf-8"), merges)
    return ids
