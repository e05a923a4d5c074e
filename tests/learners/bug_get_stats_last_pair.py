"""BUG in get_stats: zip(ids[:-1], ids[1:-1]) never sees the last pair. (merge, build_vocab are right.)

expect: merge pass, build_vocab pass, get_stats fail
cause: get_stats last_pair_missing
shows: get_stats the last pair is missing
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids[:-1], ids[1:-1]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), idx in merges.items():
        vocab[idx] = vocab[a] + vocab[b]
    return vocab
