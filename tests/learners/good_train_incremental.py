"""train_incremental done properly: count pairs once, then after each merge take away the pairs
around every replaced occurrence and add the new ones. Same merges as the naive trainer.

expect: train_incremental pass
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
        best = max(counts.values())
        # ties: the pair that occurs first in the current ids, as the naive trainer picks
        pair = next(p for p in zip(ids, ids[1:]) if counts.get(p) == best)
        new, replaced, made = [], set(), set()
        i = 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
                replaced.update((i, i + 1))
                made.add(len(new))
                new.append(idx)
                i += 2
            else:
                new.append(ids[i])
                i += 1
        for j in range(len(ids) - 1):
            if j in replaced or j + 1 in replaced:
                old = (ids[j], ids[j + 1])
                counts[old] -= 1
                if counts[old] == 0:
                    del counts[old]
        for k in range(len(new) - 1):
            if k in made or k + 1 in made:
                fresh = (new[k], new[k + 1])
                counts[fresh] = counts.get(fresh, 0) + 1
        ids = new
        merges[pair] = idx
    return merges
