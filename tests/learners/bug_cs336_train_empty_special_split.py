"""BUG in a CS336-style train_bpe: it cuts the text at its special tokens with
re.split('|'.join(...)). Given special_tokens=[], that pattern is '', which matches between every
two characters, so each character is a piece of its own and no merge can join two of them. Right
whenever there is a special token, which is how it is usually called.

expect: train_bpe fail, merged pass
cause: train_bpe empty_special_split
shows: train_bpe special_tokens=[]
"""
import re
from collections import Counter

import regex

GPT2 = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def word_counts(text, special_tokens):
    counts = Counter()
    # the bug: with no special tokens the pattern is '', and re.split cuts between every character
    for document in re.split("|".join(re.escape(t) for t in special_tokens), text):
        for piece in regex.findall(GPT2, document):
            counts[tuple(bytes([b]) for b in piece.encode("utf-8"))] += 1
    return counts


def merged(word, pair):
    out, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(pair[0] + pair[1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def train_bpe(input_path, vocab_size, special_tokens):
    with open(input_path, encoding="utf-8", newline="") as f:
        words = word_counts(f.read(), special_tokens)
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
        joined = Counter()
        for word, n in words.items():
            joined[merged(word, best)] += n
        words = joined
    return vocab, merges
