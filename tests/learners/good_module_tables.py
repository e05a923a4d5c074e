"""RIGHT, the way a tutorial notebook goes: the training loop runs at module level, on a text of
its own, into `merges` and `vocab`, and the encoder and decoder take those tables as arguments.
The module-level tables are what the learner trained, so they are graded too; `text`, a later
demo's input, is not what they were trained on and must not be held against them.

expect: get_stats pass, merge pass, merges pass, vocab pass, encode_with pass, decode_with pass
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


corpus = "a rose is a rose is a rose, and the rose rose"
ids = list(corpus.encode("utf-8"))
vocab = {i: bytes([i]) for i in range(256)}
merges = {}
for step in range(8):
    stats = get_stats(ids)
    if not stats:
        break
    pair = max(stats, key=stats.get)
    merges[pair] = 256 + step
    vocab[256 + step] = vocab[pair[0]] + vocab[pair[1]]
    ids = merge(ids, pair, 256 + step)


def encode_with(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids


def decode_with(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


text = "zzz zzz zzz: a demo input, not the training text"
print(encode_with(text, merges))
