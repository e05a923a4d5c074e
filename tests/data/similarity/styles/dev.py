"""Honest author 'dev': a generator does the merging, ranks come from one dict built up front."""


def get_stats(ids):
    pairs = {}
    for i in range(len(ids) - 1):
        pairs.setdefault((ids[i], ids[i + 1]), 0)
        pairs[(ids[i], ids[i + 1])] += 1
    return pairs


def merge(ids, pair, idx):
    def merged():
        i = 0
        while i < len(ids):
            two = tuple(ids[i:i + 2])
            if two == tuple(pair):
                yield idx
                i += 2
            else:
                yield ids[i]
                i += 1

    return list(merged())


def train(text, vocab_size):
    data = list(map(int, text.encode("utf-8")))
    merges = {}
    size = 256
    while size < vocab_size and len(data) > 1:
        pairs = get_stats(data)
        ordered = sorted(pairs.items(), key=lambda kv: (-kv[1], list(pairs).index(kv[0])))
        chosen = ordered[0][0]
        merges[chosen] = size
        data = merge(data, chosen, size)
        size += 1
    return merges


def encode(text, merges):
    data = list(map(int, text.encode("utf-8")))
    for pair, new in sorted(merges.items(), key=lambda kv: kv[1]):
        if len(data) < 2:
            break
        if any(tuple(data[i:i + 2]) == pair for i in range(len(data) - 1)):
            data = merge(data, pair, new)
    return data
