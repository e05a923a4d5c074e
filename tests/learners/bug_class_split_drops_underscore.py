"""BUG: a regex tokenizer whose stand-in for GPT-2's pattern is written for Python's re, with \\w
classes instead of \\p{L} and \\p{N}. No alternative matches '_' (it is \\w, yet neither a letter
nor a digit here), and findall skips what nothing matches: every underscore vanishes before
training and before encoding. On text without one it agrees with GPT-2's split.

expect: Tokenizer.train fail, Tokenizer.encode fail, Tokenizer.decode pass, merged pass, counts_of pass
"""
import re

WORDISH = re.compile(r"'(?:s|t|re|ve|m|ll|d)| ?[^\W\d_]+| ?\d+| ?[^\s\w]+|\s+(?!\S)|\s+")


def counts_of(chunks):
    counts = {}
    for ids in chunks:
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def merged(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class Tokenizer:
    def __init__(self):
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        chunks = [list(piece.encode("utf-8")) for piece in WORDISH.findall(text)]
        for idx in range(256, vocab_size):
            counts = counts_of(chunks)
            if not counts:
                break
            pair = max(counts, key=counts.get)
            chunks = [merged(ids, pair, idx) for ids in chunks]
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        out = []
        for piece in WORDISH.findall(text):
            ids = list(piece.encode("utf-8"))
            while len(ids) >= 2:
                pair = min(counts_of([ids]), key=lambda p: self.merges.get(p, float("inf")))
                if pair not in self.merges:
                    break
                ids = merged(ids, pair, self.merges[pair])
            out.extend(ids)
        return out

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
