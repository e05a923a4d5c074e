"""copy of: course. The course's solution with the loops rewritten a little and extra checks."""


def get_stats(ids):
    counts = dict()
    for p in zip(ids, ids[1:]):
        counts[p] = counts.get(p, 0) + 1
    return counts


def merge(ids, pair, idx):
    assert len(pair) == 2
    new = []
    i = 0
    while i < len(ids):
        if ids[i] == pair[0] and i + 1 < len(ids) and ids[i + 1] == pair[1]:
            new.append(idx)
            i = i + 2
        else:
            new.append(ids[i])
            i = i + 1
    return new


def train(text, vocab_size):
    if vocab_size < 256:
        raise ValueError("vocab_size too small")
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if len(stats) == 0:
            break
        pair = max(stats, key=stats.get)
        merges[pair] = idx
        ids = merge(ids, pair, idx)
    return merges


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) > 1:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids
