"""HOSTILE: a main guard that would break everything: in a .py the grader loads the file as on
import, so the block does not run, and what the file defines is graded as written.

expect: get_stats pass, decode pass
"""

import sys


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


if __name__ == "__main__":
    get_stats = decode = None
    while True:
        pass
