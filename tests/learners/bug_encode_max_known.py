"""BUG in encode: max instead of min (unknown pairs ranked -inf) applies the LATEST merge first; it
still round-trips, so decode(encode(t)) == t hides it. (get_stats, merge, decode are right.)

expect: get_stats pass, merge pass, decode pass, encode fail
cause: encode highest_rank
shows: encode min, not max
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


def decode(ids, vocab):
    return b"".join(vocab[idx] for idx in ids).decode("utf-8", errors="replace")


def encode(text, merges):
    tokens = list(text.encode("utf-8"))
    while len(tokens) >= 2:
        stats = get_stats(tokens)
        pair = max(stats, key=lambda p: merges.get(p, float("-inf")))
        if pair not in merges:
            break
        tokens = merge(tokens, pair, merges[pair])
    return tokens
