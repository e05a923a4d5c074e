"""Honest author 'cy': zip over neighbours, an explicit iterator in merge, inf as the missing rank."""

import math


def get_stats(ids):
    stats = {}
    for left, right in zip(ids, ids[1:]):
        stats[left, right] = stats.get((left, right), 0) + 1
    return stats


def merge(ids, pair, idx):
    out = []
    stream = iter(ids)
    previous = next(stream, None)
    if previous is None:
        return out
    for current in stream:
        if previous is not None and (previous, current) == pair:
            out.append(idx)
            previous = None
        else:
            if previous is not None:
                out.append(previous)
            previous = current
    if previous is not None:
        out.append(previous)
    return out


def train(text, vocab_size):
    sequence = list(text.encode())
    table = {}
    for token_id in range(256, vocab_size):
        stats = get_stats(sequence)
        if not stats:
            return table
        frequent = max(stats.items(), key=lambda item: item[1])[0]
        sequence = merge(sequence, frequent, token_id)
        table[frequent] = token_id
    return table


def encode(text, merges):
    sequence = list(text.encode())
    while len(sequence) >= 2:
        stats = get_stats(sequence)
        lowest = min(stats, key=lambda p: merges.get(p, math.inf))
        if lowest not in merges:
            break
        sequence = merge(sequence, lowest, merges[lowest])
    return sequence
