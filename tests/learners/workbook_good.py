# The weekly drill, written out in one go: module-level text, merges and vocab, then
# decode(ids) and encode(text) that read them. Everything here is right.
#
# expect: get_stats pass, merge pass, decode pass, encode pass, merges pass, vocab pass

text = "hello hello world! the quick brown fox jumps over the lazy dog; hello again, world. 안녕 안녕"
tokens = list(text.encode("utf-8"))


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    newids = []
    i = 0
    while i < len(ids):
        if i < len(ids) - 1 and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


vocab_size = 276
num_merges = vocab_size - 256
merges = {}
ids = list(tokens)
for i in range(num_merges):
    stats = get_stats(ids)
    pair = max(stats, key=stats.get)
    idx = 256 + i
    merges[pair] = idx
    ids = merge(ids, pair, idx)

vocab = {idx: bytes([idx]) for idx in range(256)}
for (p0, p1), idx in merges.items():
    vocab[idx] = vocab[p0] + vocab[p1]


def decode(ids):
    tokens = b"".join(vocab[idx] for idx in ids)
    return tokens.decode("utf-8", errors="replace")


def encode(text):
    tokens = list(text.encode("utf-8"))
    while len(tokens) >= 2:
        stats = get_stats(tokens)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        tokens = merge(tokens, pair, merges[pair])
    return tokens


print(decode(encode("hello world!")))
