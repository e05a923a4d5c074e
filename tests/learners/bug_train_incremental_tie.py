"""BUG in train_incremental: ties go to the pair first in the counts dict, not first in the ids.
The merges are a valid BPE, but not the naive trainer's. (get_stats, merge are right.)

expect: get_stats pass, merge pass, train_incremental fail
cause: train_incremental tie_break
shows: train_incremental on a tie
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
    ids = list(text.encode("utf-8"))
    counts = get_stats(ids)
    merges = {}
    for idx in range(256, vocab_size):
        if not counts:
            break
        pair = max(counts, key=counts.get)  # the bug: dict order is not the order in ids
        new = merge(ids, pair, idx)
        for p, n in get_stats(ids).items():
            counts[p] -= n
        for p, n in get_stats(new).items():
            counts[p] = counts.get(p, 0) + n
        counts = {p: n for p, n in counts.items() if n}
        ids = new
        merges[pair] = idx
    return merges
