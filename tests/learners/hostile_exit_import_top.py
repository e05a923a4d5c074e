"""HOSTILE: sys.exit() at the top, before anything is defined: the exercises it goes on to
define (get_stats, decode) never exist.

expect: get_stats error, decode error
shows: notes called sys.exit()
"""

import sys

sys.exit("not today")

def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
