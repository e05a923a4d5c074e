"""GOOD: get_stats(ids, counts) counts into the dict it is given, and that dict has no default
(minbpe's counts=None, made required). Graded in its own terms: a fresh {} each call.

expect: get_stats pass
"""


def get_stats(ids, counts):
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts

