"""BUG in train_incremental: the counts are a Counter updated at each occurrence, and a pair whose
count falls to 0 is never removed, so it stays a candidate; the tie-break looks for it in the ids
with next(), which finds nothing. "Give next() a default" would treat the symptom: the cause is the
zero count kept.

expect: train_incremental error
cause: train_incremental zero_counts_kept
"""

from collections import Counter


def first_position(ids, pair):
    return next(k for k in range(len(ids) - 1) if ids[k] == pair[0] and ids[k + 1] == pair[1])


def train_incremental(text, vocab_size):
    ids = list(text.encode("utf-8"))
    counts = Counter(zip(ids, ids[1:]))
    merges = {}
    for idx in range(256, vocab_size):
        if not counts:
            break
        best = max(counts, key=lambda p: (counts[p], -first_position(ids, p)))
        out, i = [], 0
        while i < len(ids):
            if i < len(ids) - 1 and (ids[i], ids[i + 1]) == best:
                if out:
                    counts[(out[-1], best[0])] -= 1
                    counts[(out[-1], idx)] += 1
                if i + 2 < len(ids):
                    counts[(best[1], ids[i + 2])] -= 1
                    counts[(idx, ids[i + 2])] += 1
                counts[best] -= 1
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        merges[best] = idx
    return merges
