"""A tokenizer class made from a merges file, Tokenizer(merges_path): its path is neither a split
pattern ('path' holds 'pat') nor a size ('merges'). There is no file to load in the sandbox, so the
object is made without its constructor and handed the course's merges and vocab under the names
its encode and decode read (minbpe's); its helpers, right, are graded on an object it could not
make (self is never read).

expect: Tokenizer._pairs pass, Tokenizer._merge pass, Tokenizer.encode pass, Tokenizer.decode pass
shows: Tokenizer.encode made without its constructor
"""
import json


class Tokenizer:
    def __init__(self, merges_path):
        with open(merges_path, encoding="utf-8") as f:
            self.merges = {tuple(map(int, key.split(","))): idx for key, idx in json.load(f).items()}
        self.vocab = {i: bytes([i]) for i in range(256)}
        for (a, b), idx in sorted(self.merges.items(), key=lambda item: item[1]):
            self.vocab[idx] = self.vocab[a] + self.vocab[b]

    def _pairs(self, ids):
        counts = {}
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        return counts

    def _merge(self, ids, pair, idx):
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
            pair = min(self._pairs(ids), key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = self._merge(ids, pair, self.merges[pair])
        return ids

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
