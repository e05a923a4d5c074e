"""HOSTILE: os._exit(3) at import, after get_stats and decode are defined: in the sandbox it ends
the file (as sys.exit does), not the grader's worker, so what was defined before it is graded.

expect: get_stats pass, decode pass
shows: notes called sys.exit() or os._exit()
"""

import os

def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


os._exit(3)
