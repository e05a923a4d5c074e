"""BUG at load time: the file imports Python's re and compiles GPT-2's pattern in the class body.
re has no \\p{L}, so the module raises re.error before the class exists, and nothing in it can run.
The rows say so, and the hint names the module to use.

expect: Tokenizer.train error, Tokenizer.encode error, Tokenizer.decode error
shows: Tokenizer.encode import regex
"""
import re


class Tokenizer:
    SPLIT = re.compile(r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")

    def __init__(self):
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        chunks = [list(c.encode("utf-8")) for c in self.SPLIT.findall(text)]
        for idx in range(256, vocab_size):
            counts = {}
            for ids in chunks:
                for pair in zip(ids, ids[1:]):
                    counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            chunks = [self._merge(ids, pair, idx) for ids in chunks]
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    @staticmethod
    def _merge(ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if tuple(ids[i:i + 2]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def encode(self, text):
        out = []
        for chunk in self.SPLIT.findall(text):
            ids = list(chunk.encode("utf-8"))
            while len(ids) >= 2:
                pair = min(zip(ids, ids[1:]), key=lambda p: self.merges.get(p, float("inf")))
                if pair not in self.merges:
                    break
                ids = self._merge(ids, pair, self.merges[pair])
            out += ids
        return out

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
