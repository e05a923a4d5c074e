"""Independent author 'goran': no helpers reused, everything inline, early returns."""


def get_stats(ids):
    found = {}
    if len(ids) < 2:
        return found
    left = ids[0]
    for right in ids[1:]:
        found[(left, right)] = found.get((left, right), 0) + 1
        left = right
    return found


def merge(ids, pair, idx):
    if not ids:
        return []
    output = []
    i = 0
    last = len(ids) - 1
    while i <= last:
        if i < last and (ids[i], ids[i + 1]) == (pair[0], pair[1]):
            output.append(idx)
            i += 2
        else:
            output.append(ids[i])
            i += 1
    return output


def train(text, vocab_size):
    seq = list(bytes(text, "utf-8"))
    table = {}
    for new_id in range(256, vocab_size):
        counts = {}
        for a, b in zip(seq, seq[1:]):
            counts[(a, b)] = counts.get((a, b), 0) + 1
        if not counts:
            return table
        best = max(counts, key=counts.get)
        table[best] = new_id
        merged, i = [], 0
        while i < len(seq):
            if i + 1 < len(seq) and seq[i] == best[0] and seq[i + 1] == best[1]:
                merged.append(new_id)
                i += 2
            else:
                merged.append(seq[i])
                i += 1
        seq = merged
    return table


def build_vocab(merges):
    result = {n: bytes((n,)) for n in range(256)}
    for (x, y), new in sorted(merges.items(), key=lambda entry: entry[1]):
        result[new] = b"".join((result[x], result[y]))
    return result


def decode(ids, vocab):
    data = b""
    for i in ids:
        data += vocab[i]
    text = data.decode("utf-8", errors="replace")
    return text


def encode(text, merges):
    ids = list(bytes(text, "utf-8"))
    while len(ids) >= 2:
        ranked = [(merges[p], p) for p in zip(ids, ids[1:]) if p in merges]
        if not ranked:
            break
        rank, pair = min(ranked)
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(rank)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
    return ids
