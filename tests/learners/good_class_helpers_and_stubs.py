"""Right, a lecture follow-along's classes: a base Tokenizer whose train, encode and decode are
empty (`pass`: stubs for a subclass, no exercise) but whose own get_stats and merge are instance
methods, and a subclass that inherits them and fills in the rest; a private static helper
_count in another class. Each class's helpers are graded once, under the class that wrote them.

expect: Tokenizer.get_stats pass, Tokenizer.merge pass, BasicTokenizer.train pass, BasicTokenizer.encode pass, BasicTokenizer.decode pass, Counter2._count pass
"""


class Tokenizer:
    def __init__(self):
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def get_stats(self, ids):
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        return counts

    def merge(self, ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def train(self, text, vocab_size, verbose=False):
        pass

    def encode(self, text):
        pass

    def decode(self, ids):
        """Turn ids back into text."""


class BasicTokenizer(Tokenizer):
    def train(self, text, vocab_size, verbose=False):
        ids = list(text.encode("utf-8"))
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}
        for idx in range(256, vocab_size):
            stats = self.get_stats(ids)
            if not stats:
                break
            pair = max(stats, key=stats.get)
            ids = self.merge(ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            stats = self.get_stats(ids)
            pair = min(stats, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = self.merge(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")


class Counter2:
    @staticmethod
    def _count(ids):
        counts = {}
        for a, b in zip(ids, ids[1:]):
            counts[(a, b)] = counts.get((a, b), 0) + 1
        return counts
