"""Right, CS336 style with the size given to the trainer's constructor: Trainer(vocab_size,
special_tokens).train(input_path) returns (vocab, merges), and SizedTrainer(vocab_size).fit(path)
keeps them on the object. Both are found and graded as CS336's train_bpe; a file whose trainer
classes went ungraded would not be passed.

expect: Trainer.train pass, SizedTrainer.fit pass
"""
from collections import Counter

import regex

PAT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


def learn(text, vocab_size, special_tokens):
    vocab = {i: bytes([i]) for i in range(256)}
    for token in special_tokens:
        vocab[len(vocab)] = token.encode("utf-8")
    parts = [text]
    if special_tokens:
        alternation = "|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True))
        parts = regex.split(alternation, text)
    words = Counter(tuple(bytes([b]) for b in w.encode("utf-8")) for part in parts for w in regex.findall(PAT, part))
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


class Trainer:
    def __init__(self, vocab_size, special_tokens):
        self.vocab_size, self.special_tokens = vocab_size, special_tokens

    def train(self, input_path):
        with open(input_path, "rb") as f:
            return learn(f.read().decode("utf-8"), self.vocab_size, self.special_tokens)


class SizedTrainer:
    def __init__(self, vocab_size):
        self.vocab_size = vocab_size
        self.vocab, self.merges = {}, []

    def fit(self, corpus_path):
        with open(corpus_path, encoding="utf-8", newline="") as f:
            self.vocab, self.merges = learn(f.read(), self.vocab_size, [])
