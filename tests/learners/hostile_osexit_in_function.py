"""HOSTILE: merge tries to kill its own process with os._exit(1); in the sandbox that ends the call
as sys.exit() does, and get_stats and decode, which are right, are still graded.

expect: get_stats pass, decode pass, merge error
shows: merge called sys.exit()
"""

import os

def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def merge(ids, pair, idx):
    os._exit(1)
