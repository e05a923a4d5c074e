"""Right, a lecture notebook's functions with the tables first: train_ids(ids, vocab_size) returns
(ids, merges) over the text's bytes as one list, encode(merges, text) and decode(vocab, ids) take
the table before the text or ids, as their parameters' names say. Each must be graded in its own
terms: trainer over the whole text's bytes, arguments the other way round.

expect: get_stats pass, merge pass, train_ids pass, encode pass, decode pass
"""


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


def train_ids(ids, vocab_size):
    ids, merges = list(ids), {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return ids, merges


def encode(merges, text):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids


def decode(vocab, ids):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")
