"""BUG in merge: right answer, but it rewrites the caller's list in place. (get_stats, decode are right.)

expect: get_stats pass, decode pass, merge fail
cause: merge in_place
"""


def get_stats(ids):
    counts = {}
    for a, b in zip(ids, ids[1:]):
        counts[a, b] = counts.get((a, b), 0) + 1
    return counts


def merge(ids, pair, idx):
    i = 0
    while i < len(ids) - 1:
        if ids[i] == pair[0] and ids[i + 1] == pair[1]:
            ids[i:i + 2] = [idx]
        i += 1
    return ids


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
