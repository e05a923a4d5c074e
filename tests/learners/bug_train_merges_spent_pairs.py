"""BUG in train, plain functions: it keeps one table of pair counts across merges, sets a pair
that is gone to 0 instead of removing it, and its loop never asks whether a count is left. Once
the text has no pair, it goes on "merging" pairs that occur nowhere. Right for as many merges as
the text allows. (get_stats and merge are right.)

expect: get_stats pass, merge pass, train fail
cause: train none
shows: train stop when no pair is left
"""


def get_stats(ids):
    counts = {}
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


def train(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges, counts = {}, {}
    for idx in range(256, vocab_size):
        fresh = get_stats(ids)
        for pair in counts:  # the bug: a pair that is gone stays, counted 0
            counts[pair] = fresh.get(pair, 0)
        for pair, n in fresh.items():
            counts.setdefault(pair, n)
        if not counts:
            break
        pair = max(counts, key=counts.get)
        del counts[pair]
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges
