"""BUG in encode, exactly as in the drill seed: max with merges.get(p, inf) picks a pair that is NOT
a merge whenever there is one, and stops: most text comes back unmerged. (get_stats, merge,
decode are right.)

expect: get_stats pass, merge pass, decode pass, encode fail
cause: encode max_inf_default
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
        pair = max(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        tokens = merge(tokens, pair, merges[pair])
    return tokens
