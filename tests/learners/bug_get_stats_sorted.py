"""BUG in get_stats: the counts are right but the keys come out sorted, not in the order the pairs
first occur, which train's tie-break depends on. It used to pass. (merge is right.)

expect: merge pass, get_stats fail
cause: get_stats sorted_keys
"""

from collections import Counter


def get_stats(ids):
    return dict(sorted(Counter(zip(ids, ids[1:])).items()))


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if ids[i:i + 2] == list(pair):
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
