"""A learner's byte-level BPE class that takes its vocab size in the constructor and trains on a
list of texts, Tokenizer(vocab_size).train(texts), counting pairs inside each text: handed the one
text as a list, it is graded as the course's train.

expect: Tokenizer.train pass, Tokenizer.encode pass, Tokenizer.decode pass, Tokenizer._merge pass
shows: Tokenizer.train .train([text])
"""


class Tokenizer:
    def __init__(self, vocab_size=300):
        self.vocab_size = vocab_size
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def train(self, texts):
        docs = [list(text.encode("utf-8")) for text in texts]
        self.merges, self.vocab = {}, {i: bytes([i]) for i in range(256)}
        for idx in range(256, self.vocab_size):
            counts = {}
            for ids in docs:
                for pair in zip(ids, ids[1:]):
                    counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            pair = max(counts, key=counts.get)
            docs = [self._merge(ids, pair, idx) for ids in docs]
            self.merges[pair] = idx
            self.vocab[idx] = self.vocab[pair[0]] + self.vocab[pair[1]]

    @staticmethod
    def _merge(ids, pair, idx):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(idx)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            pair = min(zip(ids, ids[1:]), key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = self._merge(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
