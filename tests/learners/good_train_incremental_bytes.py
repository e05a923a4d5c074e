"""GOOD: the incremental update, reading the text with bytes(text, "utf-8") and with its own
get_stats and merge: its work is measured all the same (the grader reads the sandbox's CPU time).

expect: get_stats pass, merge pass, train_incremental pass
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
    """Naive BPE training with pair counts updated, not recounted: the same merges.

    train_incremental("aaabdaaabac", 259)
    -> {(97, 97): 256, (256, 97): 257, (257, 98): 258}
    """
    ids = list(bytes(text, "utf-8"))
    counts = get_stats(ids)  # the only full count
    merges = {}
    for idx in range(256, vocab_size):
        if not counts:
            break
        top = max(counts.values())
        tied = {pair for pair, c in counts.items() if c == top}
        if len(tied) == 1:
            pair = tied.pop()
        else:  # the tie-break: the tied pair that occurs first in the current ids
            pair = next(p for p in zip(ids, ids[1:]) if p in tied)
        a, b = pair
        newids, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == a and ids[i + 1] == b:
                if newids:  # left neighbour, from the new list: it may be idx already
                    left = newids[-1]
                    counts[(left, a)] -= 1
                    counts[(left, idx)] = counts.get((left, idx), 0) + 1
                if i + 2 < len(ids):  # right neighbour, still an old id
                    right = ids[i + 2]
                    counts[(b, right)] -= 1
                    counts[(idx, right)] = counts.get((idx, right), 0) + 1
                newids.append(idx)
                i += 2
            else:
                newids.append(ids[i])
                i += 1
        del counts[pair]
        counts = {p: c for p, c in counts.items() if c > 0}
        ids = newids
        merges[pair] = idx
    return merges