"""BUG in encode: crosses each merge off the caller's dict (merges.pop) as it applies it. Every
answer is right the first time, but the dict is emptied, so the next encode with the same dict
leaves the text as bytes: the grader calls it twice with the same dict and compares the answers.
(get_stats, merge, decode are right.)

expect: get_stats pass, merge pass, decode pass, encode fail
cause: encode none
shows: encode called again with the same merges dict
shows: encode never change it
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
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        stats = get_stats(ids)
        pair = min(stats, key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges.pop(pair))
    return ids
