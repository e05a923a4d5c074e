"""HOSTILE: merge calls sys.exit() instead of returning; get_stats and decode are right.

expect: get_stats pass, decode pass, merge error
shows: merge sys.exit()
"""

import sys

def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def merge(ids, pair, idx):
    print("giving up")
    sys.exit(1)
