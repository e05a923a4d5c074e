"""BUG in train_regex: keeps one id list per chunk and merges inside each, but counts the pairs over
all chunks glued together, so it picks pairs that span two chunks, which no chunk holds. Merging
such a pair changes nothing, and the same pair is picked again with the next id, overwriting its
entry. The first line must point at the pair that no chunk holds, not at the id numbering.
(split_text, get_stats and merge are right.)

expect: split_text pass, get_stats pass, merge pass, train_regex fail
cause: train_regex none
shows: train_regex merge #4 (257, 46): no pair was left
"""

import regex


def split_text(text, pattern):
    return regex.findall(pattern, text)


def get_stats(ids):
    counts = {}
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
    chunks = [list(chunk.encode("utf-8")) for chunk in split_text(text, pattern)]
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats([i for chunk in chunks for i in chunk])
        if not stats:
            break
        pair = max(stats, key=stats.get)
        merges[pair] = idx
        chunks = [merge(chunk, pair, idx) for chunk in chunks]
    return merges
