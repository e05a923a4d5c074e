"""Right, a class that takes its vocab size from its constructor, with a default, and trains on
the text alone: Tokenizer(vocab_size=276).train(text, verbose=False). Its helper methods never
read self, and its constructor can only be made with a file beside it (load=True by default
reads 'tokenizer.json'): they are still found and graded, called with no instance.

expect: Tokenizer.train pass, Tokenizer.encode pass, Tokenizer.decode pass, Helpers.pairs pass, Helpers.join pass
"""

import json


class Tokenizer:
    def __init__(self, vocab_size=276):
        self.vocab_size = vocab_size
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def train(self, text, verbose=False):
        ids = list(text.encode("utf-8"))
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}
        for idx in range(256, self.vocab_size):
            counts = Helpers.pairs(None, ids)
            if not counts:
                break
            pair = max(counts, key=counts.get)
            ids = Helpers.join(None, ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]
            if verbose:
                print(pair, "->", idx)

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            counts = Helpers.pairs(None, ids)
            pair = min(counts, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = Helpers.join(None, ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")


class Helpers:
    def __init__(self, load=True):
        if load:
            with open("tokenizer.json", encoding="utf-8") as f:
                self.saved = json.load(f)

    def pairs(self, ids):
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        return counts

    def join(self, ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out
