"""Honest author 'fil': small helpers of their own with long names, guard clauses first."""


def get_stats(ids):
    frequencies = {}
    for left_index in range(0, len(ids) - 1):
        neighbours = ids[left_index], ids[left_index + 1]
        frequencies[neighbours] = 1 + frequencies.get(neighbours, 0)
    return frequencies


def pair_starts_at(ids, position, pair):
    return position + 1 < len(ids) and ids[position] == pair[0] and ids[position + 1] == pair[1]


def merge(ids, pair, idx):
    if len(ids) < 2:
        return list(ids)
    replaced = []
    position = 0
    while position < len(ids):
        if pair_starts_at(ids, position, pair):
            replaced += [idx]
            position += 2
        else:
            replaced += [ids[position]]
            position += 1
    return replaced


def most_frequent_pair(frequencies):
    best, best_count = None, -1
    for candidate, count in frequencies.items():
        if count > best_count:
            best, best_count = candidate, count
    return best


def train(text, vocab_size):
    if vocab_size <= 256:
        return {}
    symbols = list(text.encode("utf-8"))
    learned_merges = {}
    for symbol in range(256, vocab_size):
        frequencies = get_stats(symbols)
        if not frequencies:
            break
        best = most_frequent_pair(frequencies)
        learned_merges[best] = symbol
        symbols = merge(symbols, best, symbol)
    return learned_merges


def lowest_ranked_pair(symbols, merges):
    candidates = [(merges[p], p) for p in get_stats(symbols) if p in merges]
    return min(candidates)[1] if candidates else None


def encode(text, merges):
    symbols = list(text.encode("utf-8"))
    while len(symbols) > 1:
        pair = lowest_ranked_pair(symbols, merges)
        if pair is None:
            break
        symbols = merge(symbols, pair, merges[pair])
    return symbols
