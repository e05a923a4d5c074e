"""HOSTILE: a syntax error on line 16 (a missing colon): nothing in the file can run.

expect: get_stats error, merge error
shows: merge syntax error in hostile_syntax.py, line 16
shows: get_stats syntax error in hostile_syntax.py, line 16
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx)
    return [idx if (a, b) == pair else a for a, b in zip(ids, ids[1:] + [None])]
