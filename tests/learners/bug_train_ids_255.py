"""BUG in train: new ids start at 255, on top of the last byte. (get_stats, merge are right.)

expect: get_stats pass, merge pass, train fail
cause: train ids_from_255
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


def train(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(255, vocab_size - 1):
        stats = get_stats(ids)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges
