"""Independent author 'emeka': collections.Counter and defaultdict, a for loop with a skip flag."""

from collections import Counter, defaultdict


def get_stats(ids):
    pairs = defaultdict(int)
    previous = None
    for current in ids:
        if previous is not None:
            pairs[(previous, current)] += 1
        previous = current
    return dict(pairs)


def merge(ids, pair, idx):
    merged = []
    skip = False
    for k, value in enumerate(ids):
        if skip:
            skip = False
            continue
        nxt = ids[k + 1] if k + 1 < len(ids) else None
        if (value, nxt) == tuple(pair):
            merged.append(idx)
            skip = True
        else:
            merged.append(value)
    return merged


def train(text, vocab_size):
    data = [b for b in text.encode("utf-8")]
    n_merges = vocab_size - 256
    merges = {}
    for step in range(n_merges):
        freq = Counter(zip(data, data[1:]))
        if len(freq) == 0:
            break
        highest = max(freq.values())
        chosen = next(p for p in freq if freq[p] == highest)
        new_token = 256 + step
        merges[chosen] = new_token
        data = merge(data, chosen, new_token)
    return merges


def build_vocab(merges):
    vocab = dict(enumerate(bytes(range(256))))
    vocab = {k: bytes([v]) for k, v in vocab.items()}
    for pair in sorted(merges, key=merges.get):
        vocab[merges[pair]] = vocab[pair[0]] + vocab[pair[1]]
    return vocab


def decode(ids, vocab):
    pieces = [vocab[i] for i in ids]
    return b"".join(pieces).decode("utf-8", "replace")


def encode(text, merges):
    out = list(text.encode("utf-8"))
    while len(out) > 1:
        present = set(zip(out, out[1:])) & set(merges)
        if not present:
            break
        first = min(present, key=lambda p: merges[p])
        out = merge(out, first, merges[first])
    return out
