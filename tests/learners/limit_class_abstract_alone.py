"""Limit: an abstract base class (abc.ABC, train an abstractmethod) with encode and decode, and no
class in the file that derives from it. Python makes no instance of it, so nothing of it can run:
its methods could not be graded, and no fault of the learner's is named.

expect: Tokenizer.encode error, Tokenizer.decode error, Tokenizer.train missing
shows: Tokenizer.encode could not be graded
shows: Tokenizer.decode is abstract
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
            best = min(pairs, key=lambda p: self.merges.get(p, float("inf")))
            if best not in self.merges:
                break
            new, out, i = self.merges[best], [], 0
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == best:
                    out.append(new)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            ids = out
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
