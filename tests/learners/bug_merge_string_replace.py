"""BUG in merge: writes the ids out as text and replaces the pair as a substring, so the digits of
two neighbours can spell the pair: [197, 97] with the pair (97, 97) becomes [1256]. train, right
on its own, trains with this merge, so it goes wrong too. (get_stats is right.)

expect: get_stats pass, merge fail, train fail
cause: merge string_replace
shows: train merge #2 picked (196, 1256)
"""


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    text = " ".join(str(i) for i in ids)
    text = text.replace(f"{pair[0]} {pair[1]}", str(idx))
    return [int(t) for t in text.split()]


def train(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        ids = merge(ids, pair, idx)
        merges[pair] = idx
    return merges
