"""HOSTILE: a demo at the bottom raises KeyError at import; the functions above it are right.

expect: get_stats pass, decode pass
shows: notes KeyError: 999
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


vocab = {i: bytes([i]) for i in range(256)}
print(decode([104, 105, 999], vocab))  # 999 is not in the vocab: KeyError
