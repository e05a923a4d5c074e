"""copy of: goran. Helpers pulled out of the inline loops, comments and prints added."""


def _count(seq):
    # count the pairs
    counts = {}
    for a, b in zip(seq, seq[1:]):
        counts[(a, b)] = counts.get((a, b), 0) + 1
    return counts


def _replace(seq, best, new_id):
    merged, i = [], 0
    while i < len(seq):
        if i + 1 < len(seq) and seq[i] == best[0] and seq[i + 1] == best[1]:
            merged.append(new_id)
            i += 2
        else:
            merged.append(seq[i])
            i += 1
    return merged


def train(text, vocab_size):
    seq = list(bytes(text, "utf-8"))
    table = {}
    for new_id in range(256, vocab_size):
        counts = _count(seq)
        if not counts:
            return table
        best = max(counts, key=counts.get)
        print("merging", best, "into", new_id)
        table[best] = new_id
        seq = _replace(seq, best, new_id)
    return table


def encode(text, merges):
    ids = list(bytes(text, "utf-8"))
    # keep merging the lowest rank
    while len(ids) >= 2:
        ranked = [(merges[p], p) for p in zip(ids, ids[1:]) if p in merges]
        if len(ranked) == 0:
            break
        rank, pair = min(ranked)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(rank)
                i += 2
                continue
            out.append(ids[i])
            i += 1
        ids = out
    return ids


def build_vocab(merges):
    result = {}
    for n in range(256):
        result[n] = bytes((n,))
    for (x, y), new in sorted(merges.items(), key=lambda entry: entry[1]):
        result[new] = b"".join((result[x], result[y]))
    return result
