"""BUG: the class body compiles GPT-2's pattern with the standard library's `re`, which knows no
Unicode property classes (p{L} after a backslash), so loading stops with re.error inside the class
and BPETokenizer never exists.
Its train, encode and decode are each named with that reason; the helpers before it are made and
graded as usual.

expect: get_stats pass, merge pass, BPETokenizer.train error, BPETokenizer.encode error, BPETokenizer.decode error
shows: BPETokenizer.encode bad escape
shows: BPETokenizer.train before BPETokenizer was defined
shows: BPETokenizer.decode bad escape
"""
import re


def get_stats(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class BPETokenizer:
    SPLIT = re.compile(r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")

    def __init__(self):
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        chunks = [list(c.encode("utf-8")) for c in self.SPLIT.findall(text)]
        for idx in range(256, vocab_size):
            counts = {}
            for chunk in chunks:
                for pair, n in get_stats(chunk).items():
                    counts[pair] = counts.get(pair, 0) + n
            if not counts:
                break
            pair = max(counts, key=counts.get)
            chunks = [merge(chunk, pair, idx) for chunk in chunks]
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        ids = []
        for chunk in self.SPLIT.findall(text):
            part = list(chunk.encode("utf-8"))
            while len(part) >= 2:
                pair = min(get_stats(part), key=lambda p: self.merges.get(p, float("inf")))
                if pair not in self.merges:
                    break
                part = merge(part, pair, self.merges[pair])
            ids.extend(part)
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
