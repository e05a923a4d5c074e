"""TWO BUGS in merge: `assert ids` fails on an empty list, and the walk stops one short, so the
last id is lost when it is not part of a match. The crash on the smallest input must not hide the
real bug: the lost id is named first, the crash beside it. (get_stats is right.)

expect: get_stats pass, merge fail
cause: merge drops_last
shows: merge also: merge([]
"""


def get_stats(ids):
    stats = {}
    for a, b in zip(ids, ids[1:]):
        stats[a, b] = stats.get((a, b), 0) + 1
    return stats


def merge(ids, pair, idx):
    assert ids, "nothing to merge"
    result, i = [], 0
    while i < len(ids) - 1:
        if (ids[i], ids[i + 1]) == pair:
            result.append(idx)
            i += 2
        else:
            result.append(ids[i])
            i += 1
    return result
