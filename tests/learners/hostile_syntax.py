"""HOSTILE: a syntax error on line 11 (a missing colon): nothing in the file can run."""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx)
    return [idx if (a, b) == pair else a for a, b in zip(ids, ids[1:] + [None])]
