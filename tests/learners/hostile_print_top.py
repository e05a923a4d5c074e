"""HOSTILE: prints megabytes at top level BEFORE its functions. Only the output is dropped: the
file runs to the end and every function is graded.

expect: get_stats pass, merge pass, decode pass
shows: notes hostile_print_top.py printed 20.0 MB; only the output was dropped
"""

for _ in range(40):
    print("spam " * 100_000)


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
