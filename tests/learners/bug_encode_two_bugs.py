"""TWO BUGS in encode: the highest-ranked merge first AND a crash on text without pairs. It behaves
like no single known bug, so no cause may be named: the report describes what it saw.
(get_stats, merge are right.)

expect: get_stats pass, merge pass, encode error
cause: encode none
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
