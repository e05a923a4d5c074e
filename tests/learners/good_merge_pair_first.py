"""A learner's merge under a name of their own, its arguments in their own order: the pair and
the new id first, then the ids (merge_pair(pair, new_id, ids)). Right: graded in its own terms.

expect: count_pairs pass, merge_pair pass
shows: merge_pair graded as the course's merge (workbook 04_naive_bpe): it behaves like it on the probes, given the course's arguments as (pair, idx, ids)
"""
from collections import Counter


def count_pairs(tokens):
    return Counter(zip(tokens, tokens[1:]))


def merge_pair(pair, new_id, tokens):
    out, i = [], 0
    while i < len(tokens):
        if tokens[i:i + 2] == list(pair):
            out.append(new_id)
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out
