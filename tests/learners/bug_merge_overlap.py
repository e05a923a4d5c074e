"""BUG in merge: after a match it moves on by one, so matches overlap: [5, 5, 5] -> [256, 256].
(get_stats, build_vocab are right.)

expect: get_stats pass, build_vocab pass, merge fail
cause: merge overlap
shows: merge overlap
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out = []
    for i in range(len(ids)):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
        elif i > 0 and ids[i - 1] == pair[0] and ids[i] == pair[1]:
            continue  # the second half of a match: skip it
        else:
            out.append(ids[i])
    return out


def build_vocab(merges):
    vocab = {i: bytes([i]) for i in range(256)}
    for (a, b), idx in merges.items():
        vocab[idx] = vocab[a] + vocab[b]
    return vocab
