"""BUG in train_incremental: the right merges, but it recounts every pair after every merge (with a
Counter, fast in C, so its time alone would not show it). Workbook 10 asks for the incremental
update: judged by the pair lookups it makes, against the naive loop's.

expect: train_incremental fail
shows: train_incremental it does the work of a recount
"""

from collections import Counter


def train_incremental(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        counts = Counter(zip(ids, ids[1:]))  # the bug: a full recount every time
        if not counts:
            break
        pair = max(counts, key=counts.get)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        merges[pair] = idx
    return merges
