"""BUG in train: the merged list goes to `new_ids`, and `ids` never changes, so the same pair wins
every round. The ids 256 + i are right: "the first new id is 256" would be the wrong hint.
(get_stats, merge are right.)

expect: get_stats pass, merge pass, train fail
cause: train ids_never_updated
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
    for i in range(vocab_size - 256):
        stats = get_stats(ids)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        idx = 256 + i
        new_ids = merge(ids, pair, idx)  # the bug: ids = merge(...)
        merges[pair] = idx
    return merges
