"""HOSTILE: the real _exit (posix._exit, past the sandbox's os._exit) at import, after get_stats and
decode are defined: the process dies while loading, so nothing can be graded; every exercise it
defines is reported as an error.

expect: get_stats error, decode error
shows: notes os._exit()
"""

import posix


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


posix._exit(3)
