"""RIGHT, with merge's arguments in an order of its own: merge_pair(pair, ids, idx). Called in the
course's order it does not crash: it reads the id list as the pair and walks the pair as the ids,
so it answers a list, just a wrong one. The grader tries the other orders all the same, and grades
it in the one that is right.

expect: get_stats pass, merge_pair pass
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge_pair(pair, ids, idx):
    out, i = [], 0
    while i < len(ids) - 1:
        if (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    if i == len(ids) - 1:
        out.append(ids[i])
    return out
