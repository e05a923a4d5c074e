"""BUG: merges kept as a plain list of pairs (the id of each 256 + its place), and encode walks
all but the last of them (an off-by-one in its range), so the newest merge is never applied.

expect: train_bpe pass, encode fail, pair_counts pass, replace_pair pass
"""


def pair_counts(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def replace_pair(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_bpe(raw_bytes, num_merges):
    ids, learned = list(raw_bytes), []
    for step in range(num_merges):
        counts = pair_counts(ids)
        if not counts:
            break
        best = max(counts, key=counts.get)
        ids = replace_pair(ids, best, 256 + step)
        learned.append(best)
    return learned


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    for place in range(len(merges) - 1):
        ids = replace_pair(ids, tuple(merges[place]), 256 + place)
    return ids
