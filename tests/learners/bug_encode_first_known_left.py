"""BUG in encode, plain functions: it merges the first known pair from the left (everywhere it
occurs), not the known pair with the lowest merge id. (get_stats, merge, decode are right.)

expect: get_stats pass, merge pass, decode pass, encode fail
cause: encode leftmost_known
"""


def get_stats(ids):
    counts = {}
    for a, b in zip(ids, ids[1:]):
        counts[(a, b)] = counts.get((a, b), 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if tuple(ids[i:i + 2]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while True:
        for pair in zip(ids, ids[1:]):
            if pair in merges:
                ids = merge(ids, pair, merges[pair])
                break
        else:
            return ids
