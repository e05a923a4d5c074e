"""copy of: emeka. Reordered, Counter swapped for a hand count, a different loop for the skip."""

from collections import Counter


def encode(text, merges):
    out = list(text.encode("utf-8"))
    while len(out) >= 2:
        present = set(zip(out, out[1:])).intersection(merges)
        if len(present) == 0:
            break
        first = min(present, key=lambda p: merges[p])
        out = merge(out, first, merges[first])
    return out


def merge(ids, pair, idx):
    merged = []
    skip = False
    for k, value in enumerate(ids):
        if skip:
            skip = False
            continue
        following = ids[k + 1] if k + 1 < len(ids) else None
        if (value, following) == tuple(pair):
            skip = True
            merged.append(idx)
        else:
            merged.append(value)
    return merged


def train(text, vocab_size):
    data = list(text.encode("utf-8"))
    merges = {}
    for step in range(vocab_size - 256):
        freq = Counter(zip(data, data[1:]))
        if not freq:
            break
        highest = max(freq.values())
        chosen = next(p for p in freq if freq[p] == highest)
        merges[chosen] = 256 + step
        data = merge(data, chosen, 256 + step)
    return merges


def get_stats(ids):
    pairs = {}
    previous = None
    for current in ids:
        if previous is not None:
            pairs[(previous, current)] = pairs.get((previous, current), 0) + 1
        previous = current
    return pairs
