"""Wrong: encode is written once, in an abstract base class (abc.ABC, train an abstractmethod), and
picks the pair with the highest merge id (max) where the lowest comes first. Python makes no
instance of the base, so its encode is graded through the subclass, and fails there.

expect: Tokenizer.encode fail, Tokenizer.decode pass, ByteLevel.train pass, join_pair pass
cause: Tokenizer.encode highest_rank
shows: Tokenizer.encode through its subclass ByteLevel
"""
from abc import ABC, abstractmethod


class Tokenizer(ABC):
    def __init__(self):
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    @abstractmethod
    def train(self, text, vocab_size):
        ...

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            pairs = set(zip(ids, ids[1:]))
            best = max(pairs, key=lambda p: self.merges.get(p, -1))
            if best not in self.merges:
                break
            ids = join_pair(ids, best, self.merges[best])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")


def join_pair(ids, pair, new):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class ByteLevel(Tokenizer):
    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        for new in range(256, vocab_size):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            self.merges[pair] = new
            self.vocab[new] = self.vocab[pair[0]] + self.vocab[pair[1]]
            ids = join_pair(ids, pair, new)
