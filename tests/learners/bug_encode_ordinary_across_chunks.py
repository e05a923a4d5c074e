"""BUG in encode_ordinary: splits the text, then joins it back and encodes it whole, so merges
cross chunk boundaries. (split_text, train_regex are right.)

expect: split_text pass, merge pass, train_regex pass, encode_ordinary fail, pair_counts pass
cause: encode_ordinary across_chunks
shows: encode_ordinary encode_ordinary('a a', {(97, 32): 256}, GPT4_SPLIT_PATTERN)
shows: encode_ordinary spans the border between two chunks
"""

import regex


def split_text(text, pattern):
    return regex.findall(pattern, text)


def pair_counts(chunks):
    counts = {}
    for ids in chunks:
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_regex(text, vocab_size, pattern):
    chunks = [list(piece.encode("utf-8")) for piece in split_text(text, pattern)]
    merges = {}
    for idx in range(256, vocab_size):
        counts = pair_counts(chunks)
        if not counts:
            break
        pair = max(counts, key=counts.get)
        chunks = [merge(ids, pair, idx) for ids in chunks]
        merges[pair] = idx
    return merges


def encode_bytes(ids, merges):
    while len(ids) >= 2:
        pair = min(zip(ids, ids[1:]), key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids


def encode_ordinary(text, merges, pattern):
    chunks = split_text(text, pattern)
    return encode_bytes(list("".join(chunks).encode("utf-8")), merges)
