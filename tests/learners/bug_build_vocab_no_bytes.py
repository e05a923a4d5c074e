"""BUG in build_vocab: only the merged tokens, not the 256 single bytes. (get_stats, merge are right.)

expect: get_stats pass, merge pass, build_vocab fail
cause: build_vocab no_single_bytes
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    newids, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


def build_vocab(merges):
    vocab = {}
    for (p0, p1), idx in merges.items():
        left = vocab.get(p0, bytes([p0]) if p0 < 256 else b"")
        right = vocab.get(p1, bytes([p1]) if p1 < 256 else b"")
        vocab[idx] = left + right
    return vocab
