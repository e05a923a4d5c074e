"""HOSTILE: the file ends with a main guard that calls sys.exit(); everything it defines is right.
(In the grader the file runs as __main__, so the guard fires after the definitions.)

expect: get_stats pass, decode pass
shows: notes called sys.exit()
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


if __name__ == "__main__":
    sys.exit(main())
