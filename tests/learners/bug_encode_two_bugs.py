"""TWO BUGS in encode: the highest-ranked merge first AND a crash on text without pairs. The crash
on the smallest input must not hide the real bug: the wrong answer comes first, with its cause,
and the crash is reported beside it. (get_stats, merge are right.)

expect: get_stats pass, merge pass, encode fail
cause: encode highest_rank
shows: encode also: encode('', 
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while True:
        stats = get_stats(ids)
        pair = max(stats, key=lambda p: merges.get(p, -1))
        if pair not in merges:
            return ids
        ids = merge(ids, pair, merges[pair])
