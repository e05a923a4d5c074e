"""Right: a tokenizer of no split made with special tokens it only keeps (its encode never reads
them, as minbpe's BasicTokenizer has none). Special tokens are no exercise of this class: no row
grades them, and the file passes.

expect: Plain.train pass, Plain.decode pass, Plain.encode pass, pair_counts pass, fuse pass
"""


def pair_counts(ids):
    counts = {}
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def fuse(ids, pair, idx):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(idx)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class Plain:
    def __init__(self, special_tokens=None):
        self.special_tokens = dict(special_tokens or {})
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        ids = list(text.encode("utf-8"))
        for idx in range(256, vocab_size):
            counts = pair_counts(ids)
            if not counts:
                break
            pair = max(counts, key=counts.get)
            ids = fuse(ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) > 1:
            pair = min(pair_counts(ids), key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = fuse(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
