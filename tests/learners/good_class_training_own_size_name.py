"""A learner's minbpe-style class whose trainer is named `training` and calls its vocab size by a
word of its own (training(corpus, volume)): the method is tried as train, and training tells.

expect: BPETokenizer.training pass, BPETokenizer.encode pass, BPETokenizer.decode pass, BPETokenizer._pairs pass, BPETokenizer._join pass
shows: BPETokenizer.training graded as the course's train
"""


class BPETokenizer:
    def __init__(self):
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    @staticmethod
    def _pairs(ids):
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        return counts

    @staticmethod
    def _join(ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def training(self, corpus, volume):
        ids = list(corpus.encode("utf-8"))
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}
        for idx in range(256, volume):
            counts = self._pairs(ids)
            if not counts:
                break
            pair = max(counts, key=counts.get)
            ids = self._join(ids, pair, idx)
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            counts = self._pairs(ids)
            pair = min(counts, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = self._join(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
