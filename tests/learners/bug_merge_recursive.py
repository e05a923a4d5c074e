"""BUG in merge: it calls itself on the rest of the list after each match. Right on short lists;
a long text has more matches than Python allows nested calls, and it raises RecursionError.

expect: get_stats pass, merge error
cause: merge recursive
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    for i in range(len(ids) - 1):
        if (ids[i], ids[i + 1]) == pair:
            return ids[:i] + [idx] + merge(ids[i + 2:], pair, idx)
    return list(ids)
