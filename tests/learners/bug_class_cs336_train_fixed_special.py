"""BUG in a CS336-style train_bpe: it always cuts the text at '<|endoftext|>', written into the code,
even when the call's special_tokens is []. Then '<|endoftext|>' is ordinary text, and a pre-token
that runs into it ('.<.<.<|') is cut in two, so its pairs are miscounted. Right whenever the token
is special, which is how it is usually called.

expect: train_bpe fail, merged pass
cause: train_bpe none
shows: train_bpe <|endoftext|>
"""
from collections import Counter

import regex

GPT2 = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
DOCUMENT_END = "<|endoftext|>"


def word_counts(text):
    counts = Counter()
    for document in text.split(DOCUMENT_END):  # the bug: not the special_tokens given
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
        words = word_counts(f.read())
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
