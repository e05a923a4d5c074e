"""Correct answers that are not plain `def`s: a callable object, lambdas, functools.partial,
extra keyword arguments with defaults, tuples for lists. Every exercise must pass.

expect: get_stats pass, merge pass, train pass, build_vocab pass, decode pass, encode pass
"""

import functools
from collections import Counter


class Merger:
    """merge as an object: merge(ids, pair, idx) calls __call__."""

    def __call__(self, ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if tuple(ids[i:i + 2]) == tuple(pair):
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return tuple(out)  # a tuple is accepted where a list is expected


merge = Merger()

get_stats = lambda ids: dict(Counter(zip(ids, ids[1:])))  # noqa: E731


def _decode(ids, vocab, errors="replace"):
    return b"".join(map(vocab.__getitem__, ids)).decode("utf-8", errors)


decode = functools.partial(_decode, errors="replace")
decode.__name__ = "decode"


def train(text, vocab_size, verbose=False):
    ids = list(text.encode("utf-8"))
    merges = {}
    for idx in range(256, vocab_size):
        stats = get_stats(ids)
        if not stats:
            break
        pair = max(stats, key=stats.get)
        ids = list(merge(ids, pair, idx))
        merges[pair] = idx
        if verbose:
            print(pair, "->", idx)
    return merges


def build_vocab(merges, base=None):
    vocab = dict(base or {i: bytes([i]) for i in range(256)})
    for (a, b), idx in merges.items():
        vocab[idx] = vocab[a] + vocab[b]
    return vocab


def encode(text, merges, *, trace=False):
    ids = tuple(text.encode("utf-8"))
    while True:
        ranked = [(merges[p], p) for p in zip(ids, ids[1:]) if p in merges]
        if not ranked:
            return list(ids)
        rank, pair = min(ranked)
        ids = merge(ids, pair, rank)
