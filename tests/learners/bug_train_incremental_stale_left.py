"""BUG in train_incremental: at each occurrence the left neighbour is read from the old list, so where
two occurrences touch ("aaaa" merging (a, a)) the neighbour is stale: a pair is counted that never
occurs, and the tie-break's next() then looks for it in vain. Zero counts are dropped, correctly.

expect: train_incremental error
cause: train_incremental stale_neighbours
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

        def order(pair):
            where = next(k for k in range(len(ids) - 1) if (ids[k], ids[k + 1]) == pair)
            return counts[pair], -where

        best = max(counts, key=order)
        merged, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == best:
                if i > 0:
                    left = ids[i - 1]
                    counts[(left, best[0])] = counts.get((left, best[0]), 0) - 1
                    counts[(left, idx)] = counts.get((left, idx), 0) + 1
                if i + 2 < len(ids):
                    right = ids[i + 2]
                    counts[(best[1], right)] = counts.get((best[1], right), 0) - 1
                    counts[(idx, right)] = counts.get((idx, right), 0) + 1
                counts[best] -= 1
                merged.append(idx)
                i += 2
            else:
                merged.append(ids[i])
                i += 1
        counts = {pair: n for pair, n in counts.items() if n > 0}
        ids = merged
        merges[best] = idx
    return merges
