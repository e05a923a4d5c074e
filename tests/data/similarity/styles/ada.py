"""Honest author 'ada' (written for the per-disguise set): while loops and dict.get throughout."""


def get_stats(ids):
    counts = {}
    k = 0
    while k + 1 < len(ids):
        key = (ids[k], ids[k + 1])
        counts[key] = counts.get(key, 0) + 1
        k += 1
    return counts


def merge(ids, pair, idx):
    result = []
    k = 0
    n = len(ids)
    while k < n:
        if k + 1 < n and ids[k] == pair[0] and ids[k + 1] == pair[1]:
            result.append(idx)
            k = k + 2
            continue
        result.append(ids[k])
        k = k + 1
    return result


def train(text, vocab_size):
    ids = list(text.encode("utf-8"))
    merges = {}
    next_id = 256
    while next_id < vocab_size:
        counts = get_stats(ids)
        if len(counts) == 0:
            break
        top = None
        for key in counts:
            if top is None or counts[key] > counts[top]:
                top = key
        ids = merge(ids, top, next_id)
        merges[top] = next_id
        next_id = next_id + 1
    return merges


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while True:
        best_pair = None
        best_rank = None
        k = 0
        while k + 1 < len(ids):
            candidate = (ids[k], ids[k + 1])
            rank = merges.get(candidate)
            if rank is not None and (best_rank is None or rank < best_rank):
                best_pair, best_rank = candidate, rank
            k += 1
        if best_pair is None:
            return ids
        ids = merge(ids, best_pair, best_rank)
