"""Right, CS336 style in three shapes the grader must find: a trainer class made as train_bpe
is called, BPETrainer(input_path, vocab_size, special_tokens), whose train() keeps the vocab
and merges on the object; the same training as a static method Bpe.train_bpe(input_path,
vocab_size, special_tokens); and a Tokenizer whose constructor arguments all have defaults.

expect: BPETrainer.train pass, Bpe.train_bpe pass, Tokenizer.encode pass, Tokenizer.encode:special_tokens pass, Tokenizer.decode pass
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


class BPETrainer:
    def __init__(self, input_path, vocab_size, special_tokens):
        self.input_path, self.vocab_size, self.special_tokens = input_path, vocab_size, special_tokens
        self.vocab, self.merges = {}, []

    def train(self):
        with open(self.input_path, "rb") as f:
            text = f.read().decode("utf-8")
        self.vocab, self.merges = learn(text, self.vocab_size, self.special_tokens)


class Bpe:
    @staticmethod
    def train_bpe(input_path, vocab_size, special_tokens):
        with open(input_path, "rb") as f:
            return learn(f.read().decode("utf-8"), vocab_size, special_tokens)


class Tokenizer:
    def __init__(self, vocab=None, merges=None, special_tokens=None):
        self.vocab = vocab or {i: bytes([i]) for i in range(256)}
        self.ids = {token: i for i, token in self.vocab.items()}
        self.ranks = {pair: rank for rank, pair in enumerate(merges or [])}
        self.special_tokens = sorted(special_tokens or [], key=len, reverse=True)

    def word(self, data):
        parts = [bytes([b]) for b in data]
        while len(parts) > 1:
            pairs = [(self.ranks.get(p, float("inf")), i) for i, p in enumerate(zip(parts, parts[1:]))]
            rank, i = min(pairs)
            if rank == float("inf"):
                break
            parts[i:i + 2] = [parts[i] + parts[i + 1]]
        return [self.ids[p] for p in parts]

    def encode(self, text):
        out = []
        pieces = [text]
        if self.special_tokens:
            pieces = regex.split("(" + "|".join(regex.escape(t) for t in self.special_tokens) + ")", text)
        for piece in pieces:
            if piece in self.special_tokens:
                out.append(self.ids[piece.encode("utf-8")])
            else:
                for w in regex.findall(PAT, piece):
                    out.extend(self.word(w.encode("utf-8")))
        return out

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
