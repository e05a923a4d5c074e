"""Honest author 'eun': enumerate, while True with break, results written in place."""


def get_stats(ids):
    table = dict()
    for pos, value in enumerate(ids[:-1]):
        nxt = ids[pos + 1]
        table[(value, nxt)] = table[(value, nxt)] + 1 if (value, nxt) in table else 1
    return table


def merge(ids, pair, idx):
    ids = list(ids)
    pos = 0
    while True:
        if pos >= len(ids) - 1:
            break
        if ids[pos] == pair[0] and ids[pos + 1] == pair[1]:
            ids[pos:pos + 2] = [idx]
        pos += 1
    return ids


def train(text, vocab_size):
    byte_ids = list(bytearray(text, encoding="utf-8"))
    rules = dict()
    steps = vocab_size - 256
    for step in range(steps):
        stats = get_stats(byte_ids)
        if not stats:
            break
        highest = max(stats.values())
        pick = next(p for p in stats if stats[p] == highest)
        rules[pick] = 256 + step
        byte_ids = merge(byte_ids, pick, 256 + step)
    return rules


def encode(text, merges):
    byte_ids = list(bytearray(text, encoding="utf-8"))
    while True:
        stats = get_stats(byte_ids)
        usable = [p for p in stats if p in merges]
        if not usable:
            break
        first = usable[0]
        for p in usable:
            if merges[p] < merges[first]:
                first = p
        byte_ids = merge(byte_ids, first, merges[first])
    return byte_ids
