"""GOOD (but untidy): a CS336-style trainer that opens a fresh multiprocessing.Pool of 4 workers on
every call to count its pre-tokens and never closes it, so each call leaves four processes and the
pool's threads running. Plain Python gets right answers from it; the sandbox must too: between two
calls the grader clears what the last one left, so later calls are not refused a process.

expect: train_bpe pass
"""
from collections import Counter
from multiprocessing import Pool

import regex

SPLIT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
OPEN_POOLS = []  # kept alive on purpose: nothing ever closes them


def pieces(part):
    return Counter(regex.findall(SPLIT, part))


def count_pretokens(text, special_tokens):
    if special_tokens:
        parts = regex.split("|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True)), text)
    else:
        parts = [text]
    workers = Pool(4)
    OPEN_POOLS.append(workers)
    total = Counter()
    for counted in workers.map(pieces, parts):
        total.update(counted)
    return total


def train_bpe(input_path, vocab_size, special_tokens):
    with open(input_path, encoding="utf-8", newline="") as f:
        text = f.read()
    words = Counter()
    for word, n in count_pretokens(text, special_tokens).items():
        words[tuple(bytes([b]) for b in word.encode("utf-8"))] += n
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
            out, i = [], 0
            while i < len(word):
                if i + 1 < len(word) and (word[i], word[i + 1]) == best:
                    out.append(best[0] + best[1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1
            joined[tuple(out)] += n
        words = joined
    return vocab, merges
