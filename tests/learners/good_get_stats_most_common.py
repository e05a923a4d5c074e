"""Right, a lecture follow-along's get_stats that hands back the counts most frequent first
(Counter.most_common, a stable sort): pairs of equal count stay in the order they first occur,
which is all that train's tie-break reads. It must pass, where keys sorted by value do not
(bug_get_stats_sorted.py).

expect: get_stats pass, merge pass
"""

from collections import Counter


def get_stats(ids):
    return dict(Counter(zip(ids, ids[1:])).most_common())


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
