"""BUG in a tokenizer with its split built in: GPT-2's pattern copied without its first
alternative, the contractions ('s 't 're ...). Everywhere else it splits as GPT-2's does, so the
grader reads its split as GPT-2's; but "it's" becomes 'it', "'", 's' where GPT-2 has 'it', "'s", so
the merge of "'" and 's' is never counted in training and never applied in encoding.

expect: Tokenizer.train fail, Tokenizer.encode fail, Tokenizer.decode pass, pairs_of pass, merged pass
shows: Tokenizer.encode "it's"
shows: Tokenizer.train (39, 115)
"""
import regex

SPLIT = regex.compile(r""" ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")  # the bug: no contractions


def pairs_of(ids, counts):
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
        chunks = [list(c.encode("utf-8")) for c in SPLIT.findall(text)]
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}
        for idx in range(256, vocab_size):
            counts = {}
            for chunk in chunks:
                pairs_of(chunk, counts)
            if not counts:
                break
            pair = max(counts, key=counts.get)
            chunks = [merged(c, pair, idx) for c in chunks]
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        ids = []
        for chunk in SPLIT.findall(text):
            part = list(chunk.encode("utf-8"))
            while len(part) >= 2:
                pair = min(pairs_of(part, {}), key=lambda p: self.merges.get(p, float("inf")))
                if pair not in self.merges:
                    break
                part = merged(part, pair, self.merges[pair])
            ids += part
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
