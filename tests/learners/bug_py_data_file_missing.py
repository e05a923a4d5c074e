"""A script, not a notebook, that reads its training text at import from a file that was not
handed in. Python stops the import at that line, so nothing after it exists: unlike a notebook's
cell, a .py gets no second pass over its defs, and its functions are errors, never graded.

expect: get_stats error, merge error
shows: get_stats raised FileNotFoundError before get_stats was defined
"""

with open("data/corpus_not_handed_in.txt", encoding="utf-8") as f:
    corpus = f.read()


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
