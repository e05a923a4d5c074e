"""RIGHT: CS336's tokenizer class with its trainer as a method, Tokenizer(vocab, merges,
special_tokens=None).train_bpe(input_path, vocab_size, special_tokens). The trainer keeps what it
learned in self.vocab and self.merges and returns nothing; it is graded as CS336's train_bpe,
reading the tables it keeps.

expect: Tokenizer.train_bpe pass, Tokenizer.encode pass, Tokenizer.encode:special_tokens pass, Tokenizer.decode pass, Tokenizer.joined pass
"""
from collections import Counter

import regex

SPLIT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


class Tokenizer:
    def __init__(self, vocab, merges, special_tokens=None):
        self.vocab, self.merges = dict(vocab), list(merges)
        self.special_tokens = sorted(special_tokens or [], key=len, reverse=True)
        self.ids = {token: i for i, token in self.vocab.items()}
        self.ranks = {pair: rank for rank, pair in enumerate(self.merges)}

    def train_bpe(self, input_path, vocab_size, special_tokens):
        with open(input_path, "rb") as f:
            text = f.read().decode("utf-8")
        counts = Counter()
        for part in self.cut(text, special_tokens):
            for piece in regex.findall(SPLIT, part):
                counts[tuple(bytes([b]) for b in piece.encode("utf-8"))] += 1
        vocab = {i: bytes([i]) for i in range(256)}
        for token in special_tokens:
            vocab[len(vocab)] = token.encode("utf-8")
        merges = []
        while len(vocab) < vocab_size:
            pairs = Counter()
            for word, n in counts.items():
                for pair in zip(word, word[1:]):
                    pairs[pair] += n
            if not pairs:
                break
            best = max(pairs, key=lambda p: (pairs[p], p))
            merges.append(best)
            vocab[len(vocab)] = best[0] + best[1]
            counts = Counter({self.joined(word, best): n for word, n in counts.items()})
        self.vocab, self.merges = vocab, merges

    @staticmethod
    def cut(text, special_tokens):
        if not special_tokens:
            return [text]
        return regex.split("|".join(regex.escape(t) for t in sorted(special_tokens, key=len, reverse=True)), text)

    @staticmethod
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

    def encode(self, text):
        ids = []
        pieces = regex.split("(" + "|".join(regex.escape(t) for t in self.special_tokens) + ")", text) \
            if self.special_tokens else [text]
        for piece in pieces:
            if piece in self.special_tokens:
                ids.append(self.ids[piece.encode("utf-8")])
                continue
            for chunk in regex.findall(SPLIT, piece):
                parts = [bytes([b]) for b in chunk.encode("utf-8")]
                while len(parts) > 1:
                    pair = min(zip(parts, parts[1:]), key=lambda p: self.ranks.get(p, float("inf")))
                    if pair not in self.ranks:
                        break
                    parts = list(self.joined(parts, pair))
                ids += [self.ids[p] for p in parts]
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
