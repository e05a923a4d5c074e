"""GOOD: a CS336-style trainer that asks for its pools by start method, as code written on macOS
(spawn) or for Python 3.14 (forkserver) does: pre-tokens are counted in a spawn pool, and the
special tokens cut in a forkserver ProcessPoolExecutor. The sandbox runs both with fork, and the
answers are the same.

expect: train_bpe pass, joined pass
"""
import multiprocessing
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import regex

PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def cut(text, special_tokens):
    if not special_tokens:
        return [text]
    return regex.split("|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True)), text)


def count(part):
    return Counter(tuple(bytes([b]) for b in piece.encode("utf-8")) for piece in regex.findall(PAT, part))


def joined(word, pair):
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
    with open(input_path, "rb") as f:
        text = f.read().decode("utf-8")
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("forkserver")) as pool:
        parts = list(pool.submit(cut, text, special_tokens).result())
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        words = sum(pool.map(count, parts), Counter())
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
        words = Counter({joined(word, best): n for word, n in words.items()})
    return vocab, merges
