"""BUG in train_regex: each chunk's pair counts are put together with dict.update(), so a pair keeps
the count from the last chunk that has it instead of the sum. It splits with the given pattern and
counts inside chunks: "split first" would be the wrong hint. (get_stats, merge are right.)

expect: get_stats pass, merge pass, train_regex fail
cause: train_regex counts_overwritten
"""

from collections import Counter

import regex


def get_stats(ids):
    return dict(Counter(zip(ids, ids[1:])))


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i < len(ids) - 1 and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_regex(text, vocab_size, pattern):
    chunks = [list(c.encode("utf-8")) for c in regex.findall(pattern, text)]
    merges = {}
    for idx in range(256, vocab_size):
        stats = {}
        for chunk in chunks:
            stats.update(get_stats(chunk))
        if not stats:
            break
        pair = max(stats, key=stats.get)
        chunks = [merge(chunk, pair, idx) for chunk in chunks]
        merges[pair] = idx
    return merges
