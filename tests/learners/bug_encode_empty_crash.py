"""BUG in encode: no length check, so min() of an empty dict raises for "" and one-byte text.
(get_stats, merge are right.)

expect: get_stats pass, merge pass, encode error
cause: encode crashes_when_short
shows: encode empty and one-byte text
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    newids, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while True:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            return ids
        ids = merge(ids, pair, merges[pair])
