"""Right, a lecture follow-along notebook: a short demo `text` is set first and its pairs
looked at, then the merges are trained at module level on a longer string under another name,
`corpus`. The demo's bytes hold the first merged pair too, yet the merges are no training of it:
they are judged as a greedy BPE of `corpus`, the module-level string they replay on.

expect: get_stats pass, merge pass, merges pass, vocab pass, encode pass, decode pass
"""

text = "the theme"


corpus = "the cat sat on the mat with the other cat, and the rat sat there too " * 3


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


tokens = list(corpus.encode("utf-8"))
merges = {}
for idx in range(256, 270):
    stats = get_stats(tokens)
    pair = max(stats, key=stats.get)
    tokens = merge(tokens, pair, idx)
    merges[pair] = idx

vocab = {idx: bytes([idx]) for idx in range(256)}
for (a, b), idx in merges.items():
    vocab[idx] = vocab[a] + vocab[b]


def encode(text):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids


def decode(ids):
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")

print(decode(encode(text)) == text)
