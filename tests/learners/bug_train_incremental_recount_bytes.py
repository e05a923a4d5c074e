"""BUG in train_incremental: the right merges, but it recounts every pair after every merge, reading
the text with bytes(text, "utf-8") instead of text.encode: measured all the same, it does the work
of a recount.

expect: get_stats pass, merge pass, train_incremental fail
shows: train_incremental it does the work of a recount
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
    ids = list(bytes(text, "utf-8"))
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
