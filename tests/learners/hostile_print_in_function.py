"""HOSTILE: decode prints megabytes on every call; get_stats and merge are right.

expect: get_stats pass, merge pass, decode pass
shows: decode all of it dropped
"""

def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
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


def decode(ids, vocab):
    for _ in range(3):
        print("debug " * 200_000)
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
