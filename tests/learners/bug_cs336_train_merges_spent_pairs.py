"""BUG in a CS336-style train_bpe: it keeps one table of pair counts and lowers a merged pair's
count to 0 without removing it, and its loop only asks whether the vocab is full. Once the text
has no pair left it goes on "merging" pairs that occur nowhere, so a merge repeats. Right for as
many merges as the text allows.

expect: train_bpe fail
cause: train_bpe none
shows: train_bpe no pair is left
"""
from collections import Counter

import regex

GPT2 = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def pre_tokens(text, special_tokens):
    parts = regex.split("|".join(map(regex.escape, special_tokens)), text) if special_tokens else [text]
    words = Counter()
    for part in parts:
        for piece in regex.findall(GPT2, part):
            words[tuple(bytes([b]) for b in piece.encode("utf-8"))] += 1
    return words


def pair_counts(words):
    counts = Counter()
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            counts[pair] += n
    return counts


def joined(word, pair):
    out, i = [], 0
    while i < len(word):
        if word[i:i + 2] == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def train_bpe(input_path, vocab_size, special_tokens):
    with open(input_path, encoding="utf-8", newline="") as f:
        words = pre_tokens(f.read(), special_tokens)
    vocab = {i: bytes([i]) for i in range(256)}
    for token in special_tokens:
        vocab[len(vocab)] = token.encode("utf-8")
    counts = pair_counts(words)
    merges = []
    while len(vocab) < vocab_size and counts:
        best = max(counts, key=lambda p: (counts[p], p))
        merges.append(best)
        vocab[len(vocab)] = best[0] + best[1]
        words = Counter({joined(word, best): n for word, n in words.items()})
        fresh = pair_counts(words)
        for pair in counts:  # the bug: a pair that is gone keeps its place, with count 0
            counts[pair] = fresh.get(pair, 0)
        counts.update({pair: n for pair, n in fresh.items() if pair not in counts})
    return vocab, merges
