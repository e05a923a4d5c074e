"""HOSTILE: a recount that turns the text's ids into plain ints (int(b)), so that its pair lookups
cannot be counted: its work cannot be measured, and it does not pass.

expect: get_stats pass, merge pass, train_incremental fail
shows: train_incremental could not be measured
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

def train_incremental(text, vocab_size):
    ids = list([int(b) for b in text.encode("utf-8")])
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        top = max(stats.values())
        pair = next(p for p in zip(ids, ids[1:]) if stats.get(p) == top)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    
    return merges
