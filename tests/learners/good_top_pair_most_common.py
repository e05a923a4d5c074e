"""GOOD: the top pair straight from collections.Counter: best_pair(ids) returns most_common(1),
a list holding one (pair, count), and [] when there is no pair. Found as the training loop's
next step, beside a merge of its own.

expect: best_pair pass, fuse pass
"""
from collections import Counter


def best_pair(ids):
    return Counter(zip(ids, ids[1:])).most_common(1)


def fuse(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if tuple(ids[i:i + 2]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out
