"""BUG in train: starts from the code points (ord) instead of the UTF-8 bytes. Right on ASCII text;
on 'é' or Korean its ids are not bytes at all. (get_stats and merge are right.)

expect: get_stats pass, merge pass, train fail
cause: train code_points
shows: train not on its code points
"""


def get_stats(ids):
    counts = {}
    for a, b in zip(ids, ids[1:]):
        counts[a, b] = counts.get((a, b), 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if ids[i:i + 2] == list(pair):
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train(text, vocab_size):
    ids = [ord(ch) for ch in text]
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges
