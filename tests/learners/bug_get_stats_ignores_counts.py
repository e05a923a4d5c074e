"""BUG in minbpe's get_stats(ids, counts=None): it starts a new dict every time, so the counts it is
handed (a caller adding chunk after chunk) are dropped. Right when called with ids alone, which is
how the course calls it; its optional counts parameter promises more, and that is graded too.

expect: get_stats fail, merge pass
shows: get_stats without that count
"""


def get_stats(ids, counts=None):
    counts = {}  # the bug: the counts handed in are thrown away
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


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
