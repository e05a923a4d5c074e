"""GOOD: a CS336-style trainer that counts its pre-tokens in a multiprocessing.Pool of 4 workers,
with a dataclass under `from __future__ import annotations` and a path built from __file__: all of
it runs in the sandbox as it runs in Python.

expect: train_bpe pass
"""
from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from multiprocessing import Pool

import regex as re

PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
HERE = os.path.dirname(os.path.abspath(__file__))


@dataclass
class Settings:
    workers: int = 4


def count_words(part: str) -> Counter:
    return Counter(m.group() for m in re.finditer(PAT, part))


def pretokenize(text: str, special_tokens: list[str]) -> Counter:
    split = "|".join(re.escape(s) for s in sorted(special_tokens, key=len, reverse=True))
    parts = re.split(split, text) if special_tokens else [text]
    with Pool(Settings().workers) as pool:
        counted = pool.map(count_words, parts)
    return sum(counted, Counter())


def train_bpe(input_path: str, vocab_size: int, special_tokens: list[str]):
    with open(input_path, encoding="utf-8", newline="") as f:
        text = f.read()
    words = {tuple(bytes([b]) for b in w.encode("utf-8")): n for w, n in pretokenize(text, special_tokens).items()}
    vocab = {i: bytes([i]) for i in range(256)}
    for token in special_tokens:
        vocab[len(vocab)] = token.encode("utf-8")
    merges = []
    while len(vocab) < vocab_size:
        pairs = Counter()
        for word, n in words.items():
            for pair in zip(word, word[1:]):
                pairs[pair] += n
        if not pairs:
            break
        best = max(pairs, key=lambda p: (pairs[p], p))
        merges.append(best)
        vocab[len(vocab)] = best[0] + best[1]
        merged = {}
        for word, n in words.items():
            out, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and (word[i], word[i + 1]) == best:
                    out.append(best[0] + best[1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            merged[tuple(out)] = merged.get(tuple(out), 0) + n
        words = merged
    return vocab, merges
