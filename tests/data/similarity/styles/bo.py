"""Honest author 'bo': the standard library first (Counter, itertools), comprehensions, a flag to skip."""

from collections import Counter
from itertools import pairwise


def get_stats(ids):
    return dict(Counter(pairwise(ids)))


def merge(ids, pair, idx):
    merged = []
    skip = False
    for position, token in enumerate(ids):
        if skip:
            skip = False
            continue
        nxt = ids[position + 1] if position + 1 < len(ids) else None
        if (token, nxt) == tuple(pair):
            merged.append(idx)
            skip = True
        else:
            merged.append(token)
    return merged


def train(text, vocab_size):
    tokens = [b for b in text.encode("utf-8")]
    learned = {}
    for new_token in range(256, vocab_size):
        tally = Counter(pairwise(tokens))
        if not tally:
            break
        (winner, _), = tally.most_common(1)
        learned[winner] = new_token
        tokens = merge(tokens, winner, new_token)
    return learned


def encode(text, merges):
    tokens = [b for b in text.encode("utf-8")]
    while len(tokens) > 1:
        present = {p for p in pairwise(tokens) if p in merges}
        if not present:
            break
        earliest = sorted(present, key=lambda p: merges[p])[0]
        tokens = merge(tokens, earliest, merges[earliest])
    return tokens
