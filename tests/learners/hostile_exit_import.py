"""HOSTILE: the file ends with a bare sys.exit() after its definitions; everything it defines is right.

expect: get_stats pass, decode pass
shows: notes called sys.exit() or os._exit()
"""

import sys

def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def main():
    print(get_stats([1, 2, 3, 1, 2]))
    return 0


sys.exit(main())
