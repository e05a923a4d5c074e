"""HOSTILE: merge kills its own process with os._exit(1); the grader restarts it and still grades
get_stats and decode, which are right.

expect: get_stats pass, decode pass, merge error
shows: merge the process ended during the call
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
