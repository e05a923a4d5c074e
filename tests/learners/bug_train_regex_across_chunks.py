"""BUG in train_regex: splits the text, then glues the chunks' bytes into one list, so pairs are
counted (and merged) across chunk boundaries. (split_text, get_stats, merge are right.)

expect: split_text pass, get_stats pass, merge pass, train_regex fail
cause: train_regex across_chunks
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
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_regex(text, vocab_size, pattern):
    ids = []
    for chunk in split_text(text, pattern):
        ids.extend(chunk.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges
