"""BUG in train_incremental: takes one from (left, a) and (b, right) at each occurrence but never
adds (left, idx) and (idx, right), so the new token is never merged again (and `-= 1` on a pair
that holds it raises KeyError).

expect: train_incremental fail
cause: train_incremental never_adds_new_pairs
shows: train_incremental add one to (left, idx)
"""


def train_incremental(text, vocab_size):
    ids = list(text.encode("utf-8"))
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    merges = {}
    for idx in range(256, vocab_size):
        if not counts:
            break
        top = max(counts.values())
        tied = {pair for pair, n in counts.items() if n == top}
        pair = next(p for p in zip(ids, ids[1:]) if p in tied)
        a, b = pair
        new, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == a and ids[i + 1] == b:
                if new:
                    counts[(new[-1], a)] -= 1
                if i + 2 < len(ids):
                    counts[(b, ids[i + 2])] -= 1
                new.append(idx)
                i += 2
            else:
                new.append(ids[i])
                i += 1
        del counts[pair]
        counts = {p: n for p, n in counts.items() if n > 0}
        ids = new
        merges[pair] = idx
    return merges
