"""BUG in train, in a class that fixes GPT-2's pattern in its constructor: train splits the text into
chunks and then joins all their ids into one list, so it counts and merges pairs across chunk
boundaries, which encode (right: one chunk at a time) never sees. Its encode shows the split the
class means; its train is graded against it.

expect: ChunkedTokenizer.train fail, ChunkedTokenizer.encode pass, ChunkedTokenizer.decode pass, ChunkedTokenizer._replace pass
cause: ChunkedTokenizer.train across_chunks
"""

import regex

SPLIT = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


class ChunkedTokenizer:
    def __init__(self):
        self.pattern = regex.compile(SPLIT)
        self.merges = {}
        self.vocab = {i: bytes([i]) for i in range(256)}

    def train(self, text, vocab_size):
        ids = []
        for chunk in self.pattern.findall(text):
            ids.extend(chunk.encode("utf-8"))
        for new_id in range(256, vocab_size):
            counts = {}
            for pair in zip(ids, ids[1:]):
                counts[pair] = counts.get(pair, 0) + 1
            if not counts:
                break
            best = max(counts, key=counts.get)
            ids = self._replace(ids, best, new_id)
            self.merges[best] = new_id
            self.vocab[new_id] = self.vocab[best[0]] + self.vocab[best[1]]

    @staticmethod
    def _replace(ids, pair, new_id):
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(new_id)
                i += 2
            else:
                out.append(ids[i])
                i += 1
        return out

    def encode(self, text):
        out = []
        for chunk in self.pattern.findall(text):
            ids = list(chunk.encode("utf-8"))
            while len(ids) > 1:
                known = [p for p in zip(ids, ids[1:]) if p in self.merges]
                if not known:
                    break
                best = min(known, key=self.merges.get)
                ids = self._replace(ids, best, self.merges[best])
            out.extend(ids)
        return out

    def decode(self, ids):
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")
